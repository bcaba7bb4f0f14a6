// The JSON recording format (docs/recording-format.md): parsed strictly and validated completely
// at load, so that everything after loading may assume a well-formed recording.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "../plan/uses.hpp"
#include "baton/recording.hpp"
#include "baton/rules.hpp"
#include "json_reader.hpp"

namespace baton {
namespace io {
namespace {

// Limits: generous against every real API, tight enough that no count can overflow 32 bits and
// that a hostile file cannot make later per-subresource work explode.
constexpr uint64_t kMaxDimension = 65536;
constexpr uint64_t kMaxLayers = 2048;
constexpr uint64_t kMaxPlanes = 3;
constexpr uint64_t kMaxBufferSize = uint64_t{1} << 40;
constexpr uint64_t kMaxRangeValue = 0xfffffffe;  // kAll is reserved for "to the end"

template <class E, size_t N>
std::optional<E> parse_enum(std::string_view s, const std::array<E, N>& values) {
  for (E v : values)
    if (to_string(v) == s) return v;
  return std::nullopt;
}

template <class E, size_t N>
std::string enum_names(const std::array<E, N>& values) {
  std::string out;
  for (E v : values) out += (out.empty() ? "" : ", ") + std::string(to_string(v));
  return out;
}

constexpr std::array<Queue, 3> kQueues = {Queue::direct, Queue::compute, Queue::copy};
constexpr std::array<OpKind, static_cast<size_t>(kOpKindCount)> kKinds = {
    OpKind::draw,    OpKind::dispatch, OpKind::copy,     OpKind::clear,
    OpKind::resolve, OpKind::present,  OpKind::external, OpKind::transition};
constexpr std::array<FormatClass, 3> kFormats = {FormatClass::color, FormatClass::depth,
                                                 FormatClass::depth_stencil};

std::string access_names() {
  std::string out;
  for (int i = 0; i < kAccessCount; ++i)
    out += (out.empty() ? "" : ", ") + std::string(to_string(static_cast<Access>(i)));
  return out;
}

Access read_access(const Ctx& c, const Json& j) {
  const std::string s = read_string(c, j);
  const std::optional<Access> a = parse_access(s);
  if (!a) c.fail(fmt::format("unknown access {} (expected one of: {})", quote_name(s), access_names()));
  return *a;
}

// "stages": a stage name or an array of them.
Stages read_stages(const Ctx& c, const Json& j) {
  auto one = [](const Ctx& cc, const Json& v) {
    const std::string s = read_string(cc, v);
    const std::optional<Stages> st = parse_stage(s);
    if (!st)
      cc.fail(fmt::format("unknown stage {} (expected one of: vertex, pixel, compute, all_shading)",
                          quote_name(s)));
    return *st;
  };
  if (j.is_string()) return one(c, j);
  if (!j.is_array())
    c.fail(fmt::format("expected a stage name or an array of them, found {}", j.type_name()));
  if (j.empty()) c.fail("\"stages\" must name at least one stage");
  Stages s = kNoStages;
  for (size_t i = 0; i < j.size(); ++i) s = static_cast<Stages>(s | one(c.at(i), j[i]));
  return s;
}

// Stages are required for shader accesses and meaningless for the others.
Stages read_use_stages(const Ctx& c, const Json& obj, Access a) {
  const Json* st = member(obj, "stages");
  RuleArgs args;
  args.access = a;
  if (is_shader_access(a)) {
    if (st == nullptr) c.fail(rule_message(Rule::needs_stages, args));
    return read_stages(c.at("stages"), *st);
  }
  if (st != nullptr) c.at("stages").fail(rule_message(Rule::takes_no_stages, args));
  return kNoStages;
}

// "mips"/"layers"/"planes": [first, count]; absent means the whole axis.
void read_axis(const Ctx& c, const Json& obj, std::string_view key, uint32_t& first, uint32_t& count) {
  const Json* r = member(obj, key);
  if (r == nullptr) return;
  const Ctx rc = c.at(key);
  if (!r->is_array() || r->size() != 2) rc.fail("a range is an array [first, count]");
  first = static_cast<uint32_t>(read_uint(rc.at(size_t{0}), (*r)[0], 0, kMaxRangeValue));
  count = static_cast<uint32_t>(read_uint(rc.at(size_t{1}), (*r)[1], 1, kMaxRangeValue));
}

// "bytes": [offset, size] of a buffer; absent means the whole buffer.
void read_bytes(const Ctx& c, const Json& obj, const ResourceDesc& d, SubresourceRange& r) {
  const Json* b = member(obj, "bytes");
  if (b == nullptr) return;
  const Ctx bc = c.at("bytes");
  if (d.type != ResourceType::buffer)
    bc.fail("\"bytes\" applies only to buffers (a texture's part is given by \"mips\", \"layers\", \"planes\")");
  if (!b->is_array() || b->size() != 2) bc.fail("a byte range is an array [offset, size]");
  r.byte_offset = read_uint(bc.at(size_t{0}), (*b)[0], 0, kMaxBufferSize);
  r.byte_size = read_uint(bc.at(size_t{1}), (*b)[1], 0, kMaxBufferSize);
  if (r.byte_size == 0) bc.at(size_t{1}).fail("a byte range has size 0 (it must name at least one byte)");
  if (r.byte_offset >= d.size || r.byte_size > d.size - r.byte_offset)
    bc.fail(fmt::format("bytes [{}, {}) are out of range for the buffer ({} bytes)", r.byte_offset,
                        r.byte_offset + r.byte_size, d.size));
}

class Loader {
 public:
  Loader(Recording& rec, std::string_view source) : rec_(rec), source_(source) {}

  void load(const Json& root) {
    Ctx c;
    c.source = source_;
    expect_object(c, root, {"$schema", "resources", "groups"});
    if (const Json* s = member(root, "$schema")) read_string(c.at("$schema"), *s);
    if (const Json* res = member(root, "resources")) {
      const Ctx rc = c.at("resources");
      expect_array(rc, *res);
      for (size_t i = 0; i < res->size(); ++i) resource(rc.at(i), (*res)[i]);
    }
    const Ctx gc = c.at("groups");
    const Json& groups = required(c, root, "groups");
    expect_array(gc, groups);
    for (size_t i = 0; i < groups.size(); ++i) group(gc.at(i), groups[i]);
  }

 private:
  void resource(Ctx c, const Json& j) {
    require_object(c, j);
    ResourceDesc d;
    d.name = read_name(c.at("name"), required(c, j, "name"));
    c.resource = d.name;
    expect_object(c, j,
                  {"name", "type", "size", "width", "height", "mips", "layers", "planes", "format", "usage",
                   "placed", "simultaneous_access", "swapchain", "resting"});
    if (rec_.resources.find(d.name)) c.at("name").fail("resource declared twice");
    const std::string type = read_string(c.at("type"), required(c, j, "type"));
    if (type == "buffer")
      d.type = ResourceType::buffer;
    else if (type == "texture")
      d.type = ResourceType::texture;
    else
      c.at("type").fail(
          fmt::format("unknown resource type {} (expected buffer or texture)", quote_name(type)));

    auto forbid = [&](std::initializer_list<std::string_view> keys, std::string_view why) {
      for (std::string_view k : keys)
        if (member(j, k)) c.at(k).fail(fmt::format("\"{}\" {}", k, why));
    };
    if (d.type == ResourceType::buffer) {
      forbid({"width", "height", "mips", "layers", "planes", "format", "swapchain", "simultaneous_access",
              "resting"},
             "applies only to textures");
      d.size = read_uint(c.at("size"), required(c, j, "size"), 1, kMaxBufferSize);
    } else {
      forbid({"size"}, "applies only to buffers (textures have width and height)");
      auto dim = [&](std::string_view k, uint64_t hi) {
        const Json* v = member(j, k);
        return v ? static_cast<uint32_t>(read_uint(c.at(k), *v, 1, hi)) : 1u;
      };
      d.width = dim("width", kMaxDimension);
      d.height = dim("height", kMaxDimension);
      // A mip chain ends at 1x1: both APIs reject more levels than that.
      const uint64_t max_mips = static_cast<uint64_t>(std::bit_width(std::max(d.width, d.height)));
      d.mips = dim("mips", max_mips);
      d.layers = dim("layers", kMaxLayers);
      d.planes = dim("planes", kMaxPlanes);
      if (const Json* f = member(j, "format")) {
        const std::string s = read_string(c.at("format"), *f);
        const std::optional<FormatClass> fc = parse_enum(s, kFormats);
        if (!fc)
          c.at("format").fail(
              fmt::format("unknown format {} (expected one of: {})", quote_name(s), enum_names(kFormats)));
        d.format = *fc;
      }
      if (const Json* v = member(j, "swapchain")) d.swapchain = read_bool(c.at("swapchain"), *v);
      if (const Json* v = member(j, "simultaneous_access"))
        d.simultaneous_access = read_bool(c.at("simultaneous_access"), *v);
    }
    if (const Json* v = member(j, "placed")) d.placed = read_bool(c.at("placed"), *v);
    if (const Json* u = member(j, "usage")) {
      const Ctx uc = c.at("usage");
      expect_array(uc, *u);
      for (size_t i = 0; i < u->size(); ++i) {
        const Access a = read_access(uc.at(i), (*u)[i]);
        if (d.usage & bit(a)) uc.at(i).fail(fmt::format("usage lists {} twice", to_string(a)));
        d.usage |= bit(a);
        // The catalog's declaration rules: the wrong type of usage is reported at its entry.
        if (const std::optional<Violation> v = check_resource(d); v && v->rule == Rule::usage_wrong_type)
          uc.at(i).fail(v->message);
      }
    }
    if (const Json* r = member(j, "resting")) d.resting = read_access(c.at("resting"), *r);
    // The catalog's declaration rules (planes for the format, simultaneous access, the resting access).
    if (const std::optional<Violation> v = check_resource(d)) {
      if (!v->field.empty() && member(j, v->field)) c.at(v->field).fail(v->message);
      c.fail(v->message);
    }
    try {
      rec_.resources.add(std::move(d));
    } catch (const Error& e) {
      c.fail(e.what());
    }
  }

  void group(Ctx c, const Json& j) {
    require_object(c, j);
    const std::string name = read_name(c.at("name"), required(c, j, "name"));
    c.group = name;
    expect_object(c, j, {"name", "queue", "lists"});
    if (!group_names_.insert(name).second) c.at("name").fail("group name used twice");
    const std::string q = read_string(c.at("queue"), required(c, j, "queue"));
    const std::optional<Queue> queue = parse_enum(q, kQueues);
    if (!queue)
      c.at("queue").fail(
          fmt::format("unknown queue {} (expected one of: {})", quote_name(q), enum_names(kQueues)));
    auto g = std::make_unique<CommandListGroup>(name, *queue);
    const Json& lists = required(c, j, "lists");
    const Ctx lc = c.at("lists");
    expect_array(lc, lists);
    for (size_t i = 0; i < lists.size(); ++i) {
      CommandList& l = list(lc.at(i), lists[i], *queue);
      try {
        g->add(l);
      } catch (const Error& e) {
        lc.at(i).fail(e.what());
      }
    }
    rec_.groups.push_back(std::move(g));
  }

  CommandList& list(Ctx c, const Json& j, Queue queue) {
    require_object(c, j);
    const std::string name = read_name(c.at("name"), required(c, j, "name"));
    c.list = name;
    expect_object(c, j, {"name", "entry", "ops"});
    // List names identify lists in plans and messages, so they are unique in the whole recording.
    if (const auto it = list_group_.find(name); it != list_group_.end())
      c.at("name").fail(fmt::format("list name already used in group '{}'", it->second));
    list_group_.emplace(name, c.group);
    auto owned = std::make_unique<CommandList>(name, queue);
    CommandList& l = *owned;
    rec_.lists.push_back(std::move(owned));
    if (const Json* entry = member(j, "entry")) {
      const Ctx ec = c.at("entry");
      expect_array(ec, *entry);
      std::set<ResourceId> seen;
      for (size_t i = 0; i < entry->size(); ++i) {
        const EntryState e = entry_state(ec.at(i), (*entry)[i], queue);
        if (!seen.insert(e.resource).second) {
          Ctx dup = ec.at(i);
          dup.resource = rec_.resources[e.resource].name;
          dup.fail(rule_message(Rule::entry_twice, {}));
        }
        l.declare_entry(e.resource, e.access, e.stages);
      }
    }
    const Json& ops = required(c, j, "ops");
    const Ctx oc = c.at("ops");
    expect_array(oc, ops);
    for (size_t i = 0; i < ops.size(); ++i) {
      Ctx opc = oc.at(i);
      opc.op = static_cast<uint32_t>(i);
      l.append_operation(operation(opc, ops[i], queue));
    }
    l.close();
    return l;
  }

  EntryState entry_state(Ctx c, const Json& j, Queue queue) {
    require_object(c, j);
    EntryState e;
    e.resource = resource_ref(c, j);
    c.resource = rec_.resources[e.resource].name;
    expect_object(c, j, {"resource", "access", "stages"});
    e.access = read_access(c.at("access"), required(c, j, "access"));
    e.stages = read_use_stages(c, j, e.access);
    check_access(c, e.resource, e.access, e.stages, queue);
    return e;
  }

  Operation operation(Ctx c, const Json& j, Queue queue) {
    require_object(c, j);
    Operation op;
    const std::string k = read_string(c.at("kind"), required(c, j, "kind"));
    const std::optional<OpKind> kind = parse_enum(k, kKinds);
    if (!kind)
      c.at("kind").fail(
          fmt::format("unknown op kind {} (expected one of: {})", quote_name(k), enum_names(kKinds)));
    op.kind = *kind;
    c.op_kind = to_string(op.kind);
    expect_object(c, j, {"kind", "label", "full_barrier", "uses"});
    if (const Json* v = member(j, "label")) op.label = read_name(c.at("label"), *v);
    if (const Json* v = member(j, "full_barrier")) op.full_barrier = read_bool(c.at("full_barrier"), *v);
    const Json& uses = required(c, j, "uses");
    const Ctx uc = c.at("uses");
    expect_array(uc, uses);
    std::vector<Box> boxes;
    for (size_t i = 0; i < uses.size(); ++i) {
      Ctx one = uc.at(i);
      op.uses.push_back(use(one, uses[i], queue, op.kind, boxes));
    }
    check_conflicts(uc, op.uses, boxes);
    return op;
  }

  Use use(Ctx& c, const Json& j, Queue queue, OpKind kind, std::vector<Box>& boxes) {
    require_object(c, j);
    Use u;
    u.resource = resource_ref(c, j);
    const ResourceDesc& d = rec_.resources[u.resource];
    c.resource = d.name;
    expect_object(c, j, {"resource", "access", "stages", "mips", "layers", "planes", "bytes"});
    u.access = read_access(c.at("access"), required(c, j, "access"));
    u.stages = read_use_stages(c, j, u.access);
    if (const std::optional<Violation> v = check_op_access(kind, u.access)) c.at("access").fail(v->message);
    check_access(c, u.resource, u.access, u.stages, queue);
    read_axis(c, j, "mips", u.range.mip_first, u.range.mip_count);
    read_axis(c, j, "layers", u.range.layer_first, u.range.layer_count);
    read_axis(c, j, "planes", u.range.plane_first, u.range.plane_count);
    read_bytes(c, j, d, u.range);
    try {
      boxes.push_back(use_extent(d, u.range));
    } catch (const Error& e) {
      // The context already names the resource; drop resolve's own "resource 'x': " prefix.
      std::string_view msg = e.what();
      const std::string prefix = "resource '" + d.name + "': ";
      if (msg.substr(0, prefix.size()) == prefix) msg.remove_prefix(prefix.size());
      c.fail(msg);
    }
    return u;
  }

  // Two uses of one subresource in one op must agree: equal accesses, or reads only. A write
  // together with any other use of the same subresource has no single state to be in. Found by
  // resource and subresource, not by comparing every pair (plan_detail::first_conflict); the error
  // names the later use of the first conflicting pair.
  void check_conflicts(const Ctx& uc, std::span<const Use> uses, const std::vector<Box>& boxes) const {
    const auto conflict = [](Access a, Access b) { return conflicts(a, b); };
    const std::optional<plan_detail::UsePair> p = plan_detail::first_conflict(
        uses, boxes, [&](ResourceId r) -> const ResourceDesc& { return rec_.resources[r]; }, conflict);
    if (!p) return;
    const Use& a = uses[p->first];
    const Use& b = uses[p->second];
    Ctx c = uc.at(p->second);
    const ResourceDesc& d = rec_.resources[b.resource];
    c.resource = d.name;
    c.fail(conflict_message(p->first, a.access, p->second, b.access,
                            extent_text(intersect(boxes[p->first], boxes[p->second]), d)));
  }

  ResourceId resource_ref(const Ctx& c, const Json& j) {
    const std::string name = read_string(c.at("resource"), required(c, j, "resource"));
    const std::optional<ResourceId> id = rec_.resources.find(name);
    if (!id) {
      Ctx rc = c.at("resource");
      rc.resource = name;
      rc.fail("unknown resource (not declared in \"resources\")");
    }
    return *id;
  }

  void check_access(const Ctx& c, ResourceId r, Access a, Stages s, Queue queue) const {
    if (const std::optional<Violation> v = check_use(rec_.resources[r], a, s, queue))
      c.at(v->field).fail(v->message);
  }

  Recording& rec_;
  std::string_view source_;
  std::set<std::string> group_names_;
  std::map<std::string, std::string> list_group_;
};

}  // namespace
}  // namespace io

std::vector<CommandListGroup*> Recording::group_ptrs() const {
  return {groups.begin(), groups.end()};
}

Recording load_recording(std::string_view json_text, std::string_view source_name) {
  return load_recording_json(io::parse_strict(json_text, source_name), source_name);
}

Recording load_recording_json(const nlohmann::json& root, std::string_view source_name) {
  Recording rec;
  io::Loader(rec, source_name).load(root);
  return rec;
}

Recording load_recording_file(const std::string& path) {
  return load_recording(input::read(path), input::source_name(path));
}

}  // namespace baton
