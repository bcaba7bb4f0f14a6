// libFuzzer target, structure-aware: the fuzz input is not JSON but a stream of choices from which a
// valid-shaped document is built (a recording, a frame graph, or a D3D12 or Vulkan trace), with
// names, accesses, stages, queues, states and ranges drawn from the formats' vocabularies and sizes
// up to the formats' limits (textures of 2^20 subresources, sets of many members). Most documents
// therefore pass the loaders and reach what the byte fuzzers rarely do: the planner and the three
// lowerings (as `baton compile` runs them), the graph phases and checks, the validator's replay.
// Only baton::Error is an acceptable answer (bad input, or a hard limit); anything else, a crash, a
// sanitizer report, a hang past libFuzzer's -timeout or memory past -rss_limit_mb is a bug.
#include <algorithm>
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "baton/frame.hpp"
#include "baton/lower.hpp"
#include "baton/validate.hpp"
#include "fuzz_common.hpp"

namespace {

using json = nlohmann::ordered_json;

// The choices: each call takes the next byte (0 when the input is used up, so every input ends).
class Choices {
 public:
  Choices(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  uint32_t byte() { return i_ < n_ ? d_[i_++] : 0u; }
  uint32_t below(uint32_t n) { return n == 0 ? 0 : (byte() | (byte() << 8)) % n; }
  bool flip() { return (byte() & 1) != 0; }
  bool more() const { return i_ < n_; }
  template <class T, size_t N>
  const T& pick(const std::array<T, N>& a) {
    return a[below(N)];
  }
  // Small sizes mostly, now and then the largest the format allows.
  uint32_t size(uint32_t small, uint32_t largest) { return byte() < 240 ? 1 + below(small) : largest; }

 private:
  const uint8_t* d_;
  size_t n_, i_ = 0;
};

constexpr std::array<const char*, 4> kStages = {"vertex", "pixel", "compute", "all_shading"};
constexpr std::array<const char*, 3> kQueues = {"direct", "compute", "copy"};

// What each kind of resource may be used as (the loaders' rules: format, swap chain, buffer).
enum class Kind : uint8_t { color, depth, swapchain, buffer };
const std::vector<std::string>& allowed(Kind k) {
  static const std::vector<std::string> color = {"render_target", "shader_resource", "unordered_access",
                                                 "copy_source",   "copy_dest",       "resolve_source",
                                                 "resolve_dest"};
  static const std::vector<std::string> depth = {"depth_write", "depth_read", "shader_resource",
                                                 "copy_source", "copy_dest"};
  static const std::vector<std::string> swapchain = {"render_target", "present", "copy_dest"};
  static const std::vector<std::string> buffer = {"vertex_buffer",     "index_buffer",     "constant_buffer",
                                                  "indirect_argument", "unordered_access", "shader_resource",
                                                  "copy_source",       "copy_dest"};
  switch (k) {
    case Kind::color:
      return color;
    case Kind::depth:
      return depth;
    case Kind::swapchain:
      return swapchain;
    case Kind::buffer:
      return buffer;
  }
  return color;
}
// What an operation kind (recordings) or a pass's queue (graphs: "draw" for graphics, "dispatch" for
// compute, "copy" for copy) allows.
const std::vector<std::string>& allowed(const std::string& op) {
  static const std::vector<std::string> draw = {"render_target",   "depth_write",      "depth_read",
                                                "shader_resource", "unordered_access", "constant_buffer",
                                                "vertex_buffer",   "index_buffer",     "indirect_argument"};
  static const std::vector<std::string> dispatch = {"shader_resource", "unordered_access", "constant_buffer",
                                                    "indirect_argument"};
  static const std::vector<std::string> copy = {"copy_source", "copy_dest"};
  static const std::vector<std::string> clear = {"render_target", "depth_write", "unordered_access",
                                                 "copy_dest"};
  static const std::vector<std::string> resolve = {"resolve_source", "resolve_dest"};
  static const std::vector<std::string> present = {"present"};
  if (op == "draw") return draw;
  if (op == "dispatch") return dispatch;
  if (op == "clear") return clear;
  if (op == "resolve") return resolve;
  if (op == "present") return present;
  return copy;
}
// The kinds of operation a queue runs.
std::vector<std::string> kinds_on(const std::string& queue) {
  if (queue == "copy") return {"copy"};
  if (queue == "compute") return {"dispatch", "copy"};
  return {"draw", "dispatch", "copy", "clear", "resolve", "present"};
}

bool shader(const std::string& a) {
  return a == "shader_resource" || a == "unordered_access" || a == "constant_buffer";
}

json range(Choices& c, uint32_t mips, uint32_t layers, json use) {
  if (c.below(3) == 0) {
    const uint32_t f = c.below(mips);
    use["mips"] = {f, 1 + c.below(mips - f)};
  }
  if (c.below(3) == 0) {
    const uint32_t f = c.below(layers);
    use["layers"] = {f, 1 + c.below(layers - f)};
  }
  return use;
}

struct Res {
  std::string name;
  Kind kind;
  uint32_t mips, layers;
  std::vector<std::string> used;  // accesses the document gives it (its usage)
};

std::vector<Res> resources(Choices& c, json& out, bool graph) {
  std::vector<Res> rs;
  const uint32_t n = 1 + c.below(8);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t k = c.below(8);
    Res r{"r" + std::to_string(i),
          k < 3    ? Kind::buffer
          : k < 5  ? Kind::depth
          : k == 5 ? Kind::swapchain
                   : Kind::color,
          1,
          1,
          {}};
    json j{{"name", r.name}};
    if (r.kind == Kind::buffer) {
      j["type"] = "buffer";
      j["size"] = 256;
    } else {
      j["type"] = "texture";
      j["width"] = j["height"] = 65536;
      if (r.kind != Kind::swapchain) {
        r.mips = c.size(4, 17);
        r.layers = c.size(6, 2048);
      }
      j["mips"] = r.mips;
      j["layers"] = r.layers;
      if (r.kind == Kind::depth) j["format"] = "depth";
      if (r.kind == Kind::swapchain) j["swapchain"] = true;
    }
    if (graph) {
      if (c.below(8) == 0 && r.kind != Kind::swapchain) j["transient"] = true;
      if (c.below(6) == 0 && r.kind != Kind::swapchain) j["count"] = c.size(4, 4096);
    }
    out["resources"].push_back(j);
    rs.push_back(r);
  }
  return rs;
}

// A use legal for the operation kind `op`, or null when the resource drawn has none.
json use_of(Choices& c, std::vector<Res>& rs, const std::string& op) {
  Res& r = rs[c.below(static_cast<uint32_t>(rs.size()))];
  std::vector<std::string> both;
  for (const std::string& a : allowed(r.kind))
    for (const std::string& b : allowed(op))
      if (a == b) both.push_back(a);
  if (both.empty()) return nullptr;
  const std::string a = both[c.below(static_cast<uint32_t>(both.size()))];
  json u{{"resource", r.name}, {"access", a}};
  if (shader(a)) u["stages"] = op == "dispatch" ? "compute" : kStages[c.below(2)];
  r.used.push_back(a);
  if (r.kind == Kind::buffer || r.kind == Kind::swapchain || a == "present") return u;
  return range(c, r.mips, r.layers, u);
}

// The usage of every resource: what the document uses it as (at least one access).
void set_usage(json& d, const std::vector<Res>& rs) {
  for (size_t i = 0; i < rs.size(); ++i) {
    json usage = json::array();
    for (const std::string& a : rs[i].used)
      if (std::find(usage.begin(), usage.end(), a) == usage.end()) usage.push_back(a);
    if (usage.empty()) usage.push_back(allowed(rs[i].kind).front());
    d["resources"][i]["usage"] = usage;
  }
}

std::string recording(Choices& c) {
  json d{{"resources", json::array()}, {"groups", json::array()}};
  std::vector<Res> rs = resources(c, d, false);
  for (uint32_t g = 0, ng = 1 + c.below(3); g < ng && c.more(); ++g) {
    const std::string queue = c.below(3) == 0 ? kQueues[1 + c.below(2)] : "direct";
    const std::vector<std::string> kinds = kinds_on(queue);
    json group{{"name", "g" + std::to_string(g)}, {"queue", queue}, {"lists", json::array()}};
    for (uint32_t l = 0, nl = 1 + c.below(2); l < nl; ++l) {
      json list{{"name", "l" + std::to_string(g) + "_" + std::to_string(l)}, {"ops", json::array()}};
      for (uint32_t o = 0, no = c.below(12); o < no; ++o) {
        const std::string kind = kinds[c.below(static_cast<uint32_t>(kinds.size()))];
        json op{{"kind", kind}, {"uses", json::array()}};
        for (uint32_t k = 0, nu = 1 + c.below(3); k < nu; ++k)
          if (json u = use_of(c, rs, kind); !u.is_null()) op["uses"].push_back(u);
        if (c.below(16) == 0) op["full_barrier"] = true;
        list["ops"].push_back(op);
      }
      group["lists"].push_back(list);
    }
    d["groups"].push_back(group);
  }
  set_usage(d, rs);
  return d.dump();
}

std::string graph(Choices& c) {
  json d{{"resources", json::array()}, {"passes", json::array()}, {"outputs", json::array()}};
  std::vector<Res> rs = resources(c, d, true);
  constexpr std::array<const char*, 3> kCaps = {"graphics", "compute", "copy"};
  const uint32_t np = 1 + c.below(12);
  for (uint32_t p = 0; p < np; ++p) {
    const std::string cap = c.below(3) == 0 ? kCaps[1 + c.below(2)] : "graphics";
    const std::string op = cap == "graphics"  ? (c.flip() ? "draw" : "copy")
                           : cap == "compute" ? "dispatch"
                                              : "copy";
    json pass{{"name", "p" + std::to_string(p)}, {"queue", cap}, {"uses", json::array()}};
    if (cap != "graphics" && c.flip()) pass["async"] = true;
    if (c.below(4) == 0) pass["side_effect"] = true;
    if (p > 0 && c.below(6) == 0) pass["after"] = {"p" + std::to_string(c.below(p))};
    for (uint32_t k = 0, nu = 1 + c.below(3); k < nu; ++k)
      if (json u = use_of(c, rs, op); !u.is_null()) pass["uses"].push_back(u);
    d["passes"].push_back(pass);
  }
  d["outputs"].push_back(rs[c.below(static_cast<uint32_t>(rs.size()))].name);
  return d.dump();
}

std::string trace(Choices& c, bool vulkan) {
  constexpr std::array<const char*, 8> kStates = {"COMMON",      "RENDER_TARGET",         "UNORDERED_ACCESS",
                                                  "DEPTH_WRITE", "PIXEL_SHADER_RESOURCE", "COPY_DEST",
                                                  "COPY_SOURCE", "GENERIC_READ"};
  constexpr std::array<const char*, 5> kVkStages = {"FRAGMENT_SHADER", "COMPUTE_SHADER", "COPY",
                                                    "COLOR_ATTACHMENT_OUTPUT", "ALL_COMMANDS"};
  constexpr std::array<const char*, 5> kVkAccesses = {"SHADER_SAMPLED_READ", "SHADER_STORAGE_WRITE",
                                                      "TRANSFER_READ", "TRANSFER_WRITE",
                                                      "COLOR_ATTACHMENT_WRITE"};
  constexpr std::array<const char*, 6> kLayouts = {"UNDEFINED",
                                                   "GENERAL",
                                                   "SHADER_READ_ONLY_OPTIMAL",
                                                   "TRANSFER_DST_OPTIMAL",
                                                   "COLOR_ATTACHMENT_OPTIMAL",
                                                   "PRESENT_SRC_KHR"};
  json d{{"api", vulkan ? "vulkan" : "d3d12"},
         {"resources", json::array()},
         {"lists", json::array()},
         {"submissions", json::array()}};
  struct TRes {
    std::string name;
    bool buffer;
    uint32_t mips, layers;
  };
  std::vector<TRes> rs;
  for (uint32_t i = 0, n = 1 + c.below(6); i < n; ++i) {
    TRes r{"t" + std::to_string(i), c.below(4) == 0, 1, 1};
    json j{{"name", r.name}};
    if (r.buffer) {
      j["type"] = "buffer";
    } else {
      r.mips = c.size(4, 16);
      r.layers = c.byte() < 240 ? 1 + c.below(8) : 65536;
      j["mips"] = r.mips;
      j["layers"] = r.layers;
    }
    d["resources"].push_back(j);
    rs.push_back(r);
  }
  auto target = [&](json& j, const TRes& r) {
    if (r.buffer) return;
    if (c.flip())
      j["subresource"] = c.below(r.mips * r.layers);
    else if (c.flip()) {
      json g;
      const uint32_t f = c.below(r.mips);
      g["mips"] = {f, 1 + c.below(r.mips - f)};
      const uint32_t l = c.below(r.layers);
      g["layers"] = {l, 1 + c.below(r.layers - l)};
      j["range"] = g;
    }
  };
  const uint32_t nl = 1 + c.below(4);
  for (uint32_t l = 0; l < nl; ++l) {
    json list{{"name", "l" + std::to_string(l)}, {"type", "direct"}, {"commands", json::array()}};
    for (uint32_t k = 0, nc = c.below(10); k < nc; ++k) {
      const TRes& r = rs[c.below(static_cast<uint32_t>(rs.size()))];
      json use{{"resource", r.name}};
      if (c.flip()) {  // a use
        target(use, r);
        if (vulkan) {
          use["as"] = {{"stage", c.pick(kVkStages)}, {"access", c.pick(kVkAccesses)}};
          if (!r.buffer) use["as"]["layout"] = c.pick(kLayouts);
        } else {
          use["as"] = c.pick(kStates);
        }
        list["commands"].push_back({{"use", use}});
      } else if (vulkan) {
        json b{{"type", r.buffer          ? "buffer"
                        : c.below(4) == 0 ? "memory"
                                          : "image"},
               {"src_stage", c.pick(kVkStages)},
               {"src_access", c.pick(kVkAccesses)},
               {"dst_stage", c.pick(kVkStages)},
               {"dst_access", c.pick(kVkAccesses)}};
        if (b["type"] != "memory") b["resource"] = r.name;
        if (b["type"] == "image") {
          b["old_layout"] = c.pick(kLayouts);
          b["new_layout"] = c.pick(kLayouts);
        }
        list["commands"].push_back({{"barrier", json::array({b})}});
      } else {
        json b{{"type", "transition"},
               {"resource", r.name},
               {"before", c.pick(kStates)},
               {"after", c.pick(kStates)}};
        if (!r.buffer && c.flip()) b["subresource"] = c.below(r.mips * r.layers);
        list["commands"].push_back({{"barrier", json::array({b})}});
      }
    }
    d["lists"].push_back(list);
    d["submissions"].push_back({{"queue", "q"}, {"type", "direct"}, {"lists", {list["name"]}}});
  }
  return d.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Choices c(data, size);
  const uint32_t format = c.below(4);
  return baton::fuzz::run_one(data, size, [&](std::string_view) {
    if (format < 2) {
      const std::string text = format == 0 ? recording(c) : graph(c);
      const baton::CompiledFrame f = baton::compile_frame(baton::parse_frame_input(text, "fuzz"));
      for (const baton::Api api : {baton::Api::d3d12, baton::Api::d3d12_legacy, baton::Api::vulkan}) {
        try {
          (void)baton::lower(api, f.rec.resources, f.compiled);
        } catch (const baton::Error&) {  // a frame one API cannot express
        }
      }
    } else {
      const std::string text = trace(c, format == 3);
      const baton::validate::Trace t = baton::validate::load_trace(text, "fuzz");
      const baton::validate::ValidationResult r = baton::validate::validate(t);
      (void)baton::validate::to_text(r);
    }
  });
}
