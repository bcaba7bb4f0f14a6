// The JSON graph format (docs/graph-format.md): read strictly, every error one line naming the
// JSON path, the pass and the resource. Semantic checks (queues, cycles, write order) are the
// validate phase's; the loader only resolves names and types.
#include <fmt/format.h>

#include <bit>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "../io/json_reader.hpp"
#include "baton/graph.hpp"
#include "baton/input.hpp"
#include "baton/rules.hpp"

namespace baton::graph {
namespace {

using Json = nlohmann::json;

struct Ctx {
  std::string_view source;
  std::string path, pass, resource;
  Ctx at(std::string_view k) const {
    Ctx c = *this;
    c.path += "/" + std::string(k);
    return c;
  }
  Ctx at(size_t i) const {
    Ctx c = *this;
    c.path += "/" + std::to_string(i);
    return c;
  }
  [[noreturn]] void fail(std::string_view msg) const {
    std::string names;
    if (!pass.empty()) names += "pass " + io::quote_name(pass);
    if (!resource.empty())
      names += (names.empty() ? "" : ", ") + std::string("resource ") + io::quote_name(resource);
    throw Error(io::one_line(fmt::format("{}:{}: {}{}", source, path.empty() ? "/" : path,
                                         names.empty() ? "" : names + ": ", msg)));
  }
};

void keys(const Ctx& c, const Json& j, std::initializer_list<std::string_view> allowed) {
  if (!j.is_object()) c.fail(fmt::format("expected an object, found {}", j.type_name()));
  for (const auto& [k, v] : j.items()) {
    bool ok = false;
    for (std::string_view a : allowed) ok |= a == k;
    if (!ok) c.at(k).fail(fmt::format("unknown key '{}'", io::one_line(k)));
  }
}
const Json* opt(const Json& j, std::string_view k) {
  const auto it = j.find(k);
  return it == j.end() ? nullptr : &*it;
}
const Json& req(const Ctx& c, const Json& j, std::string_view k) {
  const Json* v = opt(j, k);
  if (!v) c.fail(fmt::format("missing \"{}\"", k));
  return *v;
}
std::string str(const Ctx& c, const Json& j) {
  if (!j.is_string()) c.fail(fmt::format("expected a string, found {}", j.type_name()));
  return j.get<std::string>();
}

// A name: 1 to 200 characters (not bytes), none a control character (a name is printed in plans
// and messages and must not be able to start a line of its own).
void check_name(const Ctx& c, const std::string& name) {
  size_t chars = 0;
  for (char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 || u == 0x7f) c.fail("a name must not contain control characters");
    chars += (u & 0xc0) != 0x80;
  }
  if (chars == 0 || chars > 200) c.fail("a name has 1 to 200 characters");
}
bool boolean(const Ctx& c, const Json& j) {
  if (!j.is_boolean()) c.fail(fmt::format("expected true or false, found {}", j.type_name()));
  return j.get<bool>();
}
uint64_t uint(const Ctx& c, const Json& j, uint64_t lo, uint64_t hi) {
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<int64_t>() >= 0))
    c.fail(fmt::format("expected a whole number in [{}, {}]", lo, hi));
  const uint64_t v = j.get<uint64_t>();
  if (v < lo || v > hi) c.fail(fmt::format("{} is outside [{}, {}]", v, lo, hi));
  return v;
}
const Json& array(const Ctx& c, const Json& j) {
  if (!j.is_array()) c.fail(fmt::format("expected an array, found {}", j.type_name()));
  return j;
}
Access access(const Ctx& c, const Json& j) {
  const std::string s = str(c, j);
  const std::optional<Access> a = parse_access(s);
  if (!a) c.fail(fmt::format("unknown access '{}'", io::one_line(s)));
  return *a;
}
Stages stage_set(const Ctx& c, const Json& j) {
  auto one = [](const Ctx& cc, const Json& v) {
    const std::string s = str(cc, v);
    const std::optional<Stages> st = parse_stage(s);
    if (!st) cc.fail(fmt::format("unknown stage '{}' (vertex, pixel, compute or all_shading)", io::one_line(s)));
    return *st;
  };
  if (j.is_string()) return one(c, j);
  array(c, j);
  if (j.empty()) c.fail("\"stages\" must name at least one stage");
  Stages s = kNoStages;
  for (size_t i = 0; i < j.size(); ++i) s = static_cast<Stages>(s | one(c.at(i), j[i]));
  return s;
}
void axis(const Ctx& c, const Json& j, std::string_view k, uint32_t& first, uint32_t& count) {
  const Json* r = opt(j, k);
  if (!r) return;
  const Ctx rc = c.at(k);
  if (!r->is_array() || r->size() != 2) rc.fail("a range is an array [first, count]");
  first = static_cast<uint32_t>(uint(rc.at(size_t{0}), (*r)[0], 0, 0xfffffffe));
  count = static_cast<uint32_t>(uint(rc.at(size_t{1}), (*r)[1], 1, 0xfffffffe));
}

// "bytes": [offset, size] of a buffer; absent means the whole buffer.
void bytes(const Ctx& c, const Json& j, const ResourceDesc& d, SubresourceRange& r) {
  const Json* b = opt(j, "bytes");
  if (!b) return;
  const Ctx bc = c.at("bytes");
  if (d.type != ResourceType::buffer)
    bc.fail("\"bytes\" applies only to buffers (a texture's part is given by \"mips\", \"layers\", \"planes\")");
  if (!b->is_array() || b->size() != 2) bc.fail("a byte range is an array [offset, size]");
  r.byte_offset = uint(bc.at(size_t{0}), (*b)[0], 0, kMaxRangedBufferSize);
  r.byte_size = uint(bc.at(size_t{1}), (*b)[1], 0, kMaxRangedBufferSize);
  if (r.byte_size == 0) bc.at(size_t{1}).fail("a byte range has size 0 (it must name at least one byte)");
  if (r.byte_offset >= d.size || r.byte_size > d.size - r.byte_offset)
    bc.fail(fmt::format("bytes [{}, {}) are out of range for the buffer ({} bytes)", r.byte_offset,
                        r.byte_offset + r.byte_size, d.size));
}

Resource resource(const Ctx& c0, const Json& j) {
  Ctx c = c0;
  if (!j.is_object()) c.fail("a resource is an object");
  Resource r;
  ResourceDesc& d = r.desc;
  d.name = str(c.at("name"), req(c, j, "name"));
  check_name(c.at("name"), d.name);
  c.resource = d.name;
  keys(c, j, {"name", "type", "size", "width", "height", "mips", "layers", "planes", "format", "usage", "placed",
              "simultaneous_access", "swapchain", "resting", "transient", "imported", "count", "texel_bytes"});
  const std::string type = str(c.at("type"), req(c, j, "type"));
  if (type == "buffer") d.type = ResourceType::buffer;
  else if (type == "texture") d.type = ResourceType::texture;
  else c.at("type").fail(fmt::format("unknown type '{}' (buffer or texture)", io::one_line(type)));
  if (d.type == ResourceType::buffer) {
    for (std::string_view k : {"width", "height", "mips", "layers", "planes", "format", "swapchain", "resting",
                               "simultaneous_access", "texel_bytes"})
      if (opt(j, k)) c.at(k).fail(fmt::format("\"{}\" applies only to textures", k));
    d.size = uint(c.at("size"), req(c, j, "size"), 1, uint64_t{1} << 40);
  } else {
    if (opt(j, "size")) c.at("size").fail("\"size\" applies only to buffers");
    auto dim = [&](std::string_view k, uint64_t hi) {
      const Json* v = opt(j, k);
      return v ? static_cast<uint32_t>(uint(c.at(k), *v, 1, hi)) : 1u;
    };
    d.width = dim("width", 65536);
    d.height = dim("height", 65536);
    d.mips = dim("mips", static_cast<uint64_t>(std::bit_width(std::max(d.width, d.height))));
    d.layers = dim("layers", 2048);
    d.planes = dim("planes", 3);
    if (const Json* v = opt(j, "texel_bytes")) r.texel_bytes = static_cast<uint32_t>(uint(c.at("texel_bytes"), *v, 1, 64));
    if (const Json* f = opt(j, "format")) {
      const std::string s = str(c.at("format"), *f);
      if (s == "color") d.format = FormatClass::color;
      else if (s == "depth") d.format = FormatClass::depth;
      else if (s == "depth_stencil") d.format = FormatClass::depth_stencil;
      else c.at("format").fail(fmt::format("unknown format '{}' (color, depth, depth_stencil)", io::one_line(s)));
    }
    if (const Json* v = opt(j, "swapchain")) d.swapchain = boolean(c.at("swapchain"), *v);
    if (const Json* v = opt(j, "simultaneous_access")) d.simultaneous_access = boolean(c.at("simultaneous_access"), *v);
    if (const Json* v = opt(j, "resting")) d.resting = access(c.at("resting"), *v);
  }
  if (const Json* v = opt(j, "placed")) d.placed = boolean(c.at("placed"), *v);
  if (const Json* v = opt(j, "transient")) r.transient = boolean(c.at("transient"), *v);
  if (const Json* v = opt(j, "imported")) r.imported = boolean(c.at("imported"), *v);
  if (r.transient && r.imported) c.at("imported").fail("a resource cannot be both transient and imported");
  if (r.transient && d.swapchain) c.at("transient").fail("a swapchain texture cannot be transient");
  if (const Json* v = opt(j, "count")) r.count = static_cast<uint32_t>(uint(c.at("count"), *v, 1, 4096));
  if (const Json* u = opt(j, "usage")) {
    const Ctx uc = c.at("usage");
    array(uc, *u);
    for (size_t i = 0; i < u->size(); ++i) {
      d.usage |= bit(access(uc.at(i), (*u)[i]));
      // The catalog's declaration rules: the wrong type of usage is reported at its entry.
      if (const std::optional<Violation> v = check_resource(d); v && v->rule == Rule::usage_wrong_type)
        uc.at(i).fail(v->message);
    }
  }
  return r;
}

class Loader {
 public:
  explicit Loader(std::string_view source) { root_.source = source; }

  Graph load(const Json& j) {
    keys(root_, j, {"$schema", "resources", "passes", "outputs"});
    Graph g;
    std::unordered_map<std::string, uint32_t> res_ids, pass_ids;
    const Ctx rc = root_.at("resources");
    const Json& res = array(rc, req(root_, j, "resources"));
    for (size_t i = 0; i < res.size(); ++i) {
      Resource r = resource(rc.at(i), res[i]);
      if (!res_ids.emplace(r.desc.name, static_cast<uint32_t>(i)).second) {
        Ctx c = rc.at(i).at("name");
        c.resource = r.desc.name;
        c.fail("resource declared twice");
      }
      g.resources.push_back(std::move(r));
    }
    const Ctx pc = root_.at("passes");
    const Json& passes = array(pc, req(root_, j, "passes"));
    for (size_t i = 0; i < passes.size(); ++i) {
      const Ctx c = pc.at(i);
      if (!passes[i].is_object()) c.fail("a pass is an object");
      const std::string name = str(c.at("name"), req(c, passes[i], "name"));
      check_name(c.at("name"), name);
      if (!pass_ids.emplace(name, static_cast<uint32_t>(i)).second) c.at("name").fail(fmt::format("pass '{}' declared twice", name));
    }
    std::vector<AccessMask> used(g.resources.size(), 0);
    for (size_t i = 0; i < passes.size(); ++i) {
      Ctx c = pc.at(i);
      const Json& pj = passes[i];
      Pass p;
      p.name = pj["name"].get<std::string>();
      c.pass = p.name;
      keys(c, pj, {"name", "queue", "async", "side_effect", "uses", "after"});
      if (const Json* q = opt(pj, "queue")) {
        const std::string s = str(c.at("queue"), *q);
        if (s == "graphics") p.queue = Queue::direct;
        else if (s == "compute") p.queue = Queue::compute;
        else if (s == "copy") p.queue = Queue::copy;
        else c.at("queue").fail(fmt::format("unknown queue '{}' (graphics, compute or copy)", io::one_line(s)));
      }
      if (const Json* v = opt(pj, "async")) p.async = boolean(c.at("async"), *v);
      if (const Json* v = opt(pj, "side_effect")) p.side_effect = boolean(c.at("side_effect"), *v);
      const Ctx uc = c.at("uses");
      const Json& uses = array(uc, req(c, pj, "uses"));
      for (size_t k = 0; k < uses.size(); ++k) {
        Ctx x = uc.at(k);
        const Json& u = uses[k];
        if (!u.is_object()) x.fail("a use is an object");
        const std::string rn = str(x.at("resource"), req(x, u, "resource"));
        x.resource = rn;
        keys(x, u, {"resource", "access", "stages", "mips", "layers", "planes", "bytes"});
        const auto it = res_ids.find(rn);
        if (it == res_ids.end()) x.at("resource").fail("unknown resource");
        PassUse pu;
        pu.resource = it->second;
        pu.access = access(x.at("access"), req(x, u, "access"));
        if (const Json* st = opt(u, "stages")) pu.stages = stage_set(x.at("stages"), *st);
        axis(x, u, "mips", pu.range.mip_first, pu.range.mip_count);
        axis(x, u, "layers", pu.range.layer_first, pu.range.layer_count);
        axis(x, u, "planes", pu.range.plane_first, pu.range.plane_count);
        // A declared usage must allow the access (the rules catalog, as for recordings); the other use
        // rules are the validate phase's, with the pass's queue.
        if (const ResourceDesc& d = g.resources[pu.resource].desc;
            d.usage != 0 && access_rule(d, pu.access) == Rule::not_in_usage) {
          RuleArgs args;
          args.access = pu.access;
          x.at("access").fail(rule_message(Rule::not_in_usage, args));
        }
        bytes(x, u, g.resources[pu.resource].desc, pu.range);
        used[pu.resource] |= bit(pu.access);
        p.uses.push_back(pu);
      }
      if (const Json* a = opt(pj, "after")) {
        const Ctx ac = c.at("after");
        array(ac, *a);
        for (size_t k = 0; k < a->size(); ++k) {
          const std::string n = str(ac.at(k), (*a)[k]);
          const auto it = pass_ids.find(n);
          if (it == pass_ids.end()) ac.at(k).fail(fmt::format("\"after\" names unknown pass '{}'", io::one_line(n)));
          p.after.push_back(it->second);
        }
      }
      g.passes.push_back(std::move(p));
    }
    if (const Json* o = opt(j, "outputs")) {
      const Ctx oc = root_.at("outputs");
      array(oc, *o);
      for (size_t k = 0; k < o->size(); ++k) {
        Ctx x = oc.at(k);
        const std::string n = str(x, (*o)[k]);
        x.resource = n;
        const auto it = res_ids.find(n);
        if (it == res_ids.end()) x.fail("output names an unknown resource");
        g.outputs.push_back(it->second);
      }
    }
    // Usage defaults to every access the passes declare and the resting access (present needs no
    // usage entry: swap-chain images are created for presentation).
    for (size_t r = 0; r < g.resources.size(); ++r) {
      ResourceDesc& d = g.resources[r].desc;
      // (Only accesses of the resource's type: a wrong one is the use's error, R0201/R0202.)
      const AccessMask wrong = d.type == ResourceType::buffer ? kTextureOnlyAccesses : kBufferOnlyAccesses;
      if (d.usage == 0)
        d.usage = (used[r] | (d.resting ? bit(*d.resting) : AccessMask{0})) & ~bit(Access::present) & ~wrong;
    }
    // The rules catalog's declaration rules, as for recordings (baton/rules.hpp): planes for the
    // format, simultaneous access, usage of the resource's type, the resting access.
    for (size_t r = 0; r < g.resources.size(); ++r) {
      const ResourceDesc& d = g.resources[r].desc;
      if (const std::optional<Violation> v = check_resource(d)) {
        Ctx c = rc.at(r);
        c.resource = d.name;
        if (!v->field.empty() && opt(res[r], v->field)) c = c.at(v->field);
        c.fail(v->message);
      }
    }
    return g;
  }

 private:
  Ctx root_;
};

}  // namespace

bool is_graph_json(const nlohmann::json& j) { return j.is_object() && j.contains("passes") && !j.contains("groups"); }

Graph load_graph(const nlohmann::json& j, std::string_view source) { return Loader(source).load(j); }

Graph load_graph_text(std::string_view text, std::string_view source) {
  return load_graph(io::parse_strict(text, source), source);
}

Graph load_graph_file(const std::string& path) {
  return load_graph(input::load(path), input::source_name(path));
}

}  // namespace baton::graph
