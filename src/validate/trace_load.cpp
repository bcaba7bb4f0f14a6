// Trace loading: JSON -> typed Trace. Every name is resolved here, so the replays never see an
// unknown state, resource or list; any problem is one baton::Error line naming the file and the
// JSON path (the CLI turns it into exit code 2).
#include <fmt/format.h>

#include <algorithm>
#include <baton/core.hpp>
#include <baton/input.hpp>
#include <baton/input_deferred.hpp>
#include <baton/validate.hpp>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>

#include "d3d12_rules.hpp"
#include "names.hpp"

namespace baton::validate {

namespace {
using nlohmann::json;

class Loader {
 public:
  // The document's commands were left out as it was read (input::DeferredElements): each is parsed
  // from its text when the loader reaches it, so one command's JSON value exists at a time.
  Loader(std::string_view source, std::string_view text, const input::DeferredElements& deferred)
      : source_(source), text_(text), deferred_(&deferred) {}

  Trace load(const json& root) {
    Trace t;
    t.source = source_;
    require_object(root, "trace");
    keys(root, "trace", {"api", "heaps", "resources", "lists", "submissions", "comment", "expect"});
    const std::string api = string_field(root, "api", "trace");
    if (api == "d3d12")
      t.api = Api::d3d12;
    else if (api == "vulkan")
      t.api = Api::vulkan;
    else
      fail("api", fmt::format("unknown api {} (expected d3d12 or vulkan)", input::quote(api)));
    api_ = t.api;
    const json& heaps = array_field(root, "heaps", "trace");
    for (size_t i = 0; i < heaps.size(); ++i) {
      const std::string path = fmt::format("heaps[{}]", i);
      require_object(heaps[i], path);
      keys(heaps[i], path, {"name", "bytes"});
      TraceHeap h;
      h.name = name_field(heaps[i], "name", path);
      h.bytes = u64_field(heaps[i], "bytes", path);
      if (h.bytes == 0) fail(path + ".bytes", "a heap has at least one byte");
      if (!heap_index_.emplace(h.name, static_cast<int>(i)).second)
        fail(path + ".name", fmt::format("duplicate heap {}", input::quote(h.name)));
      t.heaps.push_back(std::move(h));
    }
    heaps_ = &t.heaps;
    const json& resources = array_field(root, "resources", "trace");
    for (size_t i = 0; i < resources.size(); ++i)
      t.resources.push_back(resource(resources[i], fmt::format("resources[{}]", i)));
    for (size_t i = 0; i < t.resources.size(); ++i) {
      if (!resource_index_.emplace(t.resources[i].name, static_cast<int>(i)).second)
        fail(fmt::format("resources[{}].name", i),
             fmt::format("duplicate resource {}", input::quote(t.resources[i].name)));
    }
    resources_ = &t.resources;
    const json& lists = array_field(root, "lists", "trace");
    for (size_t i = 0; i < lists.size(); ++i) t.lists.push_back(list(lists[i], fmt::format("lists[{}]", i)));
    std::map<std::string, int, std::less<>> list_index;
    for (size_t i = 0; i < t.lists.size(); ++i) {
      if (!list_index.emplace(t.lists[i].name, static_cast<int>(i)).second)
        fail(fmt::format("lists[{}].name", i),
             fmt::format("duplicate list {}", input::quote(t.lists[i].name)));
    }
    // vkCmdExecuteCommands (spec, "Secondary Command Buffer Execution"): a primary list executes
    // secondary lists of its queue type; a secondary executes none
    // (VUID-vkCmdExecuteCommands-bufferlevel-00024).
    size_t next_execute = 0;  // execute_names_ holds the executes' names in document order
    for (size_t i = 0; i < t.lists.size(); ++i) {
      for (size_t c = 0; c < t.lists[i].commands.size(); ++c) {
        auto* ex = std::get_if<ExecuteCmd>(&t.lists[i].commands[c]);
        if (!ex) continue;
        const std::string path = fmt::format("lists[{}].commands[{}].execute", i, c);
        if (t.lists[i].secondary)
          fail(path,
               "a secondary command buffer cannot execute others (vkCmdExecuteCommands needs a primary)");
        const std::vector<std::string>& names = execute_names_.at(next_execute++);
        for (size_t k = 0; k < names.size(); ++k) {
          const std::string& name = names[k];
          const std::string at = fmt::format("{}[{}]", path, k);
          const auto it = list_index.find(name);
          if (it == list_index.end()) fail(at, fmt::format("unknown list {}", input::quote(name)));
          const TraceList& target = t.lists[static_cast<size_t>(it->second)];
          if (!target.secondary)
            fail(at, fmt::format("list {} is not a secondary command buffer (\"level\": \"secondary\")",
                                 input::quote(name)));
          if (target.type != t.lists[i].type)
            fail(at,
                 fmt::format("list {} has another type than the primary list {} (its pool's queue family)",
                             input::quote(name), input::quote(t.lists[i].name)));
          ex->lists.push_back(it->second);
        }
      }
    }
    const json& subs = array_field(root, "submissions", "trace");
    std::map<std::string, bool, std::less<>> signaled;
    // Timeline semaphores (a value on any entry): the highest value signaled so far; binary ones are
    // absent. A semaphore is one kind everywhere.
    std::map<std::string, bool, std::less<>> timeline;
    std::map<std::string, uint64_t, std::less<>> reached;
    std::map<std::string, uint64_t, std::less<>> complete;  // timeline values known reached on the host
    std::map<std::string, bool, std::less<>> fence_pending;
    std::map<std::string, bool, std::less<>> queue_used;
    auto kind = [&](const std::string& sem, bool is_timeline, const std::string& where) {
      const auto [it, fresh] = timeline.emplace(sem, is_timeline);
      if (!fresh && it->second != is_timeline)
        fail(where, fmt::format("semaphore {} is a {} semaphore elsewhere in the trace (a value makes it a "
                                "timeline semaphore, everywhere)",
                                input::quote(sem), it->second ? "timeline" : "binary"));
    };
    // Swapchain images the application holds (acquired, not presented since): only those may be
    // presented or used by a submission's commands.
    std::vector<bool> acquired(t.resources.size(), false);
    for (size_t i = 0; i < subs.size(); ++i) {
      const std::string path = fmt::format("submissions[{}]", i);
      TraceSubmission s =
          is_step(subs[i]) ? step(subs[i], path) : submission(subs[i], path, list_index, t.lists);
      swapchain_ownership(t, s, path, acquired);
      for (size_t h = 0; h < s.host_wait.size(); ++h) {
        const HostWait& hw = s.host_wait[h];
        const std::string where = fmt::format("{}.host_wait[{}]", path, h);
        if (hw.kind == HostWait::Kind::fence) {
          if (!fence_pending[hw.name])
            fail(where, fmt::format("fence {} is not signaled by an earlier submission since its last host "
                                    "wait (a host wait resets the fence)",
                                    input::quote(hw.name)));
          fence_pending[hw.name] = false;
        } else if (hw.kind == HostWait::Kind::semaphore) {
          kind(hw.name, true, where);
          if (hw.value > reached[hw.name])
            fail(where, fmt::format("value {} of timeline semaphore {} is not signaled by an earlier "
                                    "submission (highest: {})",
                                    hw.value, input::quote(hw.name), reached[hw.name]));
          complete[hw.name] = std::max(complete[hw.name], hw.value);
        } else if (hw.kind == HostWait::Kind::device) {
          complete = reached;
        } else if (hw.kind == HostWait::Kind::queue && !queue_used.contains(hw.name)) {
          fail(where, fmt::format("no earlier submission on queue {}", input::quote(hw.name)));
        }
      }
      for (size_t h = 0; h < s.host_signal.size(); ++h) {
        // vkSignalSemaphore (spec, "Semaphore Signaling" from the host): timeline semaphores only; the
        // value must be above the semaphore's current value (VUID-VkSemaphoreSignalInfo-value-03258) and
        // below every pending signal's (03259): every device signal of it so far must be known complete
        // on the host (a vkWaitSemaphores reaching it, or vkDeviceWaitIdle).
        const HostSignal& hs = s.host_signal[h];
        const std::string where = fmt::format("{}.host_signal[{}]", path, h);
        kind(hs.semaphore, true, where);
        const uint64_t now = reached[hs.semaphore];
        if (hs.value <= now)
          fail(where, fmt::format("timeline semaphore {} signaled to {} on the host, not above its value {}",
                                  input::quote(hs.semaphore), hs.value, now));
        if (complete[hs.semaphore] < now)
          fail(where,
               fmt::format("timeline semaphore {} may still have a pending signal to {} (wait for it on "
                           "the host first: a host signal must stay below pending signals)",
                           input::quote(hs.semaphore), now));
        reached[hs.semaphore] = complete[hs.semaphore] = hs.value;
      }
      for (size_t w = 0; w < s.wait.size(); ++w) {
        const std::string where = fmt::format("{}.wait[{}]", path, w);
        const std::optional<uint64_t> value = s.wait_value_of(w);
        kind(s.wait[w], value.has_value(), where);
        if (value) {
          if (*value > reached[s.wait[w]])
            fail(where, fmt::format("value {} of timeline semaphore {} is not signaled by an earlier "
                                    "submission (highest: {}; a wait before its signal is not modelled)",
                                    *value, input::quote(s.wait[w]), reached[s.wait[w]]));
        } else if (!signaled.contains(s.wait[w])) {
          fail(where,
               fmt::format("semaphore {} is not signaled by an earlier submission", input::quote(s.wait[w])));
        }
      }
      for (size_t g = 0; g < s.signal.size(); ++g) {
        const std::string where = fmt::format("{}.signal[{}]", path, g);
        const std::optional<uint64_t> value = s.signal_value_of(g);
        kind(s.signal[g], value.has_value(), where);
        if (value) {
          // VkSemaphoreSubmitInfo: a timeline signal must raise the value
          // (VUID-VkSubmitInfo-pSignalSemaphores-03242).
          const auto it = reached.find(s.signal[g]);
          const uint64_t now = it == reached.end() ? 0 : it->second;
          if (*value <= now)
            fail(where, fmt::format("timeline semaphore {} signaled to {}, not above its value {}",
                                    input::quote(s.signal[g]), *value, now));
          reached[s.signal[g]] = *value;
        }
        signaled[s.signal[g]] = true;
      }
      if (!s.fence.empty()) {
        if (fence_pending[s.fence])
          fail(path + ".fence", fmt::format("fence {} is still signaled (no host wait on it since its last "
                                            "submission)",
                                            input::quote(s.fence)));
        fence_pending[s.fence] = true;
      }
      if (s.step != Step::acquire) queue_used[s.queue] = true;
      t.submissions.push_back(std::move(s));
    }
    t.events = events_;
    t.swapchains = swapchains_;
    return t;
  }

 private:
  // `path` is written the way the code reads ("lists[0].commands[2].use"); the message gives it as
  // the JSON pointer of the offending value ("/lists/0/commands/2/use"), as every loader does.
  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    // The root is "trace" in the code and "" (the whole document) as a pointer.
    const std::string_view rel =
        std::string_view(path).starts_with("trace") ? std::string_view(path).substr(5) : path;
    std::string pointer;
    for (const char ch : rel) {
      if (ch == '[' || ch == '.')
        pointer += '/';
      else if (ch != ']')
        pointer += ch;
    }
    if (!pointer.empty() && pointer.front() != '/') pointer.insert(pointer.begin(), '/');
    if (pointer.empty()) throw Error(input::one_line(fmt::format("{}: {}", source_, what)));
    throw Error(input::one_line(fmt::format("{}:{}: {}", source_, pointer, what)));
  }
  // Every key of the object must be one the format knows: a misspelt key is an error, never a
  // default (a misspelt "subresource" would otherwise mean "all").
  void keys(const json& j, const std::string& path, std::initializer_list<std::string_view> allowed) const {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (std::find(allowed.begin(), allowed.end(), it.key()) != allowed.end()) continue;
      std::string names;
      for (std::string_view a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
      fail(path, fmt::format("unknown key {} (expected one of: {})", input::quote(it.key()), names));
    }
  }
  // A name: a non-empty string of at most 200 characters, none of them a control character.
  std::string name_field(const json& j, const char* key, const std::string& path) const {
    std::string s = string_field(j, key, path);
    check_name(s, fmt::format("{}.{}", path, key));
    return s;
  }
  void check_name(const std::string& s, const std::string& path) const {
    if (s.empty()) fail(path, "a name must not be empty");
    size_t chars = 0;
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f) fail(path, "a name must not contain control characters");
      chars += (c & 0xc0) != 0x80;
    }
    if (chars > 200) fail(path, "a name must be at most 200 characters long");
  }
  void require_object(const json& j, const std::string& path) const {
    if (!j.is_object()) fail(path, "expected an object");
  }
  std::string string_field(const json& j, const char* key, const std::string& path) const {
    const auto it = j.find(key);
    if (it == j.end()) fail(path, fmt::format("missing \"{}\"", key));
    if (!it->is_string()) fail(fmt::format("{}.{}", path, key), "expected a string");
    return it->get<std::string>();
  }
  std::string optional_string(const json& j, const char* key, const std::string& path,
                              std::string def) const {
    return j.contains(key) ? string_field(j, key, path) : def;
  }
  const json& array_field(const json& j, const char* key, const std::string& path) const {
    static const json kEmpty = json::array();
    const auto it = j.find(key);
    if (it == j.end()) return kEmpty;
    if (!it->is_array()) fail(fmt::format("{}.{}", path, key), "expected an array");
    return *it;
  }
  uint32_t uint_field(const json& j, const char* key, const std::string& path, uint32_t def) const {
    const auto it = j.find(key);
    if (it == j.end()) return def;
    if (!it->is_number_unsigned() || it->get<uint64_t>() > 0xffffffffu)
      fail(fmt::format("{}.{}", path, key), "expected a non-negative integer");
    return it->get<uint32_t>();
  }
  // A required unsigned 64-bit integer (byte counts and offsets).
  uint64_t u64_field(const json& j, const char* key, const std::string& path) const {
    const auto it = j.find(key);
    if (it == j.end()) fail(path, fmt::format("missing \"{}\"", key));
    if (!it->is_number_unsigned()) fail(fmt::format("{}.{}", path, key), "expected a non-negative integer");
    return it->get<uint64_t>();
  }
  // "placement": {"heap", "offset", "bytes"}: the byte range [offset, offset + bytes) of a heap.
  TracePlacement placement(const json& j, const std::string& path) const {
    require_object(j, path);
    keys(j, path, {"heap", "offset", "bytes"});
    TracePlacement p;
    const std::string heap = string_field(j, "heap", path);
    const auto it = heap_index_.find(heap);
    if (it == heap_index_.end())
      fail(path + ".heap", fmt::format("unknown heap {} (declare it in \"heaps\")", input::quote(heap)));
    p.heap = it->second;
    p.offset = u64_field(j, "offset", path);
    p.bytes = u64_field(j, "bytes", path);
    if (p.bytes == 0) fail(path + ".bytes", "a placement has at least one byte");
    if (p.offset > ~uint64_t{0} - p.bytes)
      fail(path, fmt::format("offset {} + bytes {} overflows 64 bits", p.offset, p.bytes));
    const uint64_t size = (*heaps_)[static_cast<size_t>(p.heap)].bytes;
    if (p.offset + p.bytes > size)
      fail(path, fmt::format("bytes [{}, {}) out of range for heap '{}' ({} bytes)", p.offset,
                             p.offset + p.bytes, heap, size));
    return p;
  }
  uint64_t names_of(std::span<const names::Name> table, const json& j, const std::string& path,
                    const char* what) const {
    if (!j.is_string()) fail(path, fmt::format("expected a {} name string", what));
    const auto v = names::parse_flags(table, j.get<std::string>());
    if (!v) fail(path, fmt::format("unknown {} {}", what, input::quote(j.get<std::string>())));
    return *v;
  }
  uint64_t named_field(const json& j, const char* key, const std::string& path,
                       std::span<const names::Name> table, const char* what,
                       std::optional<uint64_t> def = std::nullopt) const {
    const auto it = j.find(key);
    if (it == j.end()) {
      if (def) return *def;
      fail(path, fmt::format("missing \"{}\"", key));
    }
    return names_of(table, *it, fmt::format("{}.{}", path, key), what);
  }
  uint32_t enum_field(const json& j, const char* key, const std::string& path,
                      std::span<const names::Name> table, const char* what,
                      std::optional<uint32_t> def = std::nullopt) const {
    const auto it = j.find(key);
    if (it == j.end()) {
      if (def) return *def;
      fail(path, fmt::format("missing \"{}\"", key));
    }
    if (!it->is_string()) fail(fmt::format("{}.{}", path, key), fmt::format("expected a {} name", what));
    const auto v = names::parse_enum(table, it->get<std::string>());
    if (!v)
      fail(fmt::format("{}.{}", path, key),
           fmt::format("unknown {} {}", what, input::quote(it->get<std::string>())));
    return static_cast<uint32_t>(*v);
  }
  QueueType queue_type(const json& j, const std::string& path) const {
    const std::string s = optional_string(j, "type", path, "direct");
    if (s == "direct" || s == "graphics") return QueueType::direct;
    if (s == "compute") return QueueType::compute;
    if (s == "copy" || s == "transfer") return QueueType::copy;
    fail(path + ".type",
         fmt::format("unknown list/queue type {} (expected direct, compute or copy)", input::quote(s)));
  }

  TraceResource resource(const json& j, const std::string& path) const {
    require_object(j, path);
    keys(j, path,
         {"name", "type", "mips", "layers", "planes", "flags", "heap", "initial", "initial_layout",
          "placement", "swapchain"});
    TraceResource r;
    r.name = name_field(j, "name", path);
    const std::string type = optional_string(j, "type", path, "texture");
    if (type == "buffer")
      r.buffer = true;
    else if (type != "texture")
      fail(path + ".type", fmt::format("unknown resource type {}", input::quote(type)));
    r.mips = uint_field(j, "mips", path, 1);
    r.layers = uint_field(j, "layers", path, 1);
    r.planes = uint_field(j, "planes", path, 1);
    if (r.mips == 0 || r.layers == 0 || r.planes == 0)
      fail(path, "mips, layers and planes must be at least 1");
    if (uint64_t{r.mips} * r.layers * r.planes > 1u << 20) fail(path, "too many subresources");
    if (r.buffer && r.subresource_count() != 1) fail(path, "a buffer has exactly one subresource");
    const json& flags = array_field(j, "flags", path);
    static constexpr std::pair<std::string_view, uint32_t> kFlags[] = {
        {"simultaneous_access", flag::simultaneous_access},
        {"render_target", flag::render_target},
        {"depth_stencil", flag::depth_stencil},
        {"unordered_access", flag::unordered_access},
        {"placed", flag::placed},
        {"swapchain", flag::swapchain},
        {"concurrent", flag::concurrent}};
    for (size_t i = 0; i < flags.size(); ++i) {
      const std::string fpath = fmt::format("{}.flags[{}]", path, i);
      if (!flags[i].is_string()) fail(fpath, "expected a flag name");
      bool found = false;
      for (const auto& [name, bit] : kFlags) {
        if (flags[i].get<std::string>() == name) {
          r.flags |= bit;
          found = true;
        }
      }
      if (!found) fail(fpath, fmt::format("unknown flag {}", input::quote(flags[i].get<std::string>())));
    }
    const std::string heap = optional_string(j, "heap", path, "default");
    if (heap == "upload")
      r.heap = Heap::upload;
    else if (heap == "readback")
      r.heap = Heap::readback;
    else if (heap != "default")
      fail(path + ".heap", fmt::format("unknown heap {}", input::quote(heap)));
    if (const auto pl = j.find("placement"); pl != j.end()) {
      if (r.heap != Heap::default_heap)
        fail(path + ".placement", "upload and readback resources are not placed");
      r.placement = placement(*pl, path + ".placement");
    }
    if (j.contains("swapchain")) swapchain_image(j, path, r);
    if (api_ == Api::vulkan) {
      r.initial = enum_field(j, "initial", path, names::vk_layouts(), "VkImageLayout", 0u);
      r.initial_is_layout = true;
      if (r.swapchain != kNoSwapchain && r.initial != 0)
        fail(path + ".initial", "a swapchain image starts in UNDEFINED (the presentation engine creates it)");
    } else if (j.contains("initial_layout")) {
      if (j.contains("initial"))
        fail(path, "give \"initial\" (legacy state) or \"initial_layout\", not both");
      r.initial = enum_field(j, "initial_layout", path, names::d3d12_layouts(), "D3D12_BARRIER_LAYOUT");
      r.initial_is_layout = true;
    } else {
      r.initial = static_cast<uint32_t>(
          named_field(j, "initial", path, names::d3d12_states(), "D3D12_RESOURCE_STATES", uint64_t{0}));
      if (!d3d12::valid_combination(r.initial)) fail(path + ".initial", "not a valid state combination");
    }
    return r;
  }

  int resource_ref(const json& j, const char* key, const std::string& path, bool optional) const {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
      if (optional) return kNoResource;
      fail(path, fmt::format("missing \"{}\"", key));
    }
    if (!it->is_string()) fail(fmt::format("{}.{}", path, key), "expected a resource name");
    const auto found = resource_index_.find(it->get<std::string>());
    if (found == resource_index_.end())
      fail(fmt::format("{}.{}", path, key),
           fmt::format("unknown resource {}", input::quote(it->get<std::string>())));
    return found->second;
  }

  // A VkEvent by name: events need no declaration, the first mention creates one.
  int event_ref(const json& j, const std::string& path) const {
    const auto it = j.find("event");
    if (it == j.end()) fail(path, "missing \"event\"");
    if (!it->is_string() || it->get<std::string>().empty()) fail(path + ".event", "expected an event name");
    const auto [found, added] =
        event_index_.emplace(it->get<std::string>(), static_cast<int>(events_.size()));
    if (added) events_.push_back(it->get<std::string>());
    return found->second;
  }

  // A barrier range: bounds are NOT checked here (out-of-bounds ranges are messages).
  TraceRange range(const json& j, const std::string& path) const {
    TraceRange r;
    const auto it = j.find("range");
    if (it == j.end() || (it->is_string() && it->get<std::string>() == "all")) return r;
    if (!it->is_object()) fail(path + ".range", "expected \"all\" or {\"mips\":[first,count],...}");
    keys(*it, path + ".range", {"mips", "layers", "planes"});
    r.all = false;
    auto axis = [&](const char* key, uint32_t& first, uint32_t& count) {
      const auto a = it->find(key);
      if (a == it->end()) {
        first = 0;
        count = kAllCount;
        return;
      }
      if (!a->is_array() || a->size() != 2 || !(*a)[0].is_number_unsigned() ||
          !(*a)[1].is_number_unsigned() || (*a)[0].get<uint64_t>() > 0xffffffu ||
          (*a)[1].get<uint64_t>() > 0xffffffu)
        fail(fmt::format("{}.range.{}", path, key), "expected [first, count]");
      first = (*a)[0].get<uint32_t>();
      count = (*a)[1].get<uint32_t>();
    };
    axis("mips", r.mip0, r.mips);
    axis("layers", r.layer0, r.layers);
    axis("planes", r.plane0, r.planes);
    return r;
  }

  // "offset" / "size" of a buffer access or barrier (size "WHOLE": to the end, VK_WHOLE_SIZE).
  ByteRange byte_range(const json& j, const std::string& path) const {
    ByteRange b;
    if (const auto it = j.find("offset"); it != j.end()) {
      if (!it->is_number_unsigned()) fail(path + ".offset", "expected a non-negative integer");
      b.offset = it->get<uint64_t>();
    }
    if (const auto it = j.find("size"); it != j.end()) {
      if (it->is_string() && it->get<std::string>() == "WHOLE") return b;
      if (!it->is_number_unsigned()) fail(path + ".size", "expected a positive integer or \"WHOLE\"");
      b.size = it->get<uint64_t>();
      if (b.size == 0) fail(path + ".size", "a byte range has at least one byte");
      if (b.size == kWholeSize || b.offset > kWholeSize - b.size)
        fail(path, fmt::format("offset {} + size {} overflows 64 bits", b.offset, b.size));
    }
    return b;
  }

  // Subresources of a use/clear/discard: bounds ARE checked (a bad index is a broken trace).
  Subresources subresources(const json& j, int res, const std::string& path) const {
    const TraceResource& r = (*resources_)[static_cast<size_t>(res)];
    Subresources s;
    if (r.buffer) s.bytes = byte_range(j, path);  // (an image's use has no "offset" / "size" key)
    if (j.contains("range")) {
      if (j.contains("subresource")) fail(path, "give \"subresource\" or \"range\", not both");
      s.range = range(j, path);
      if (!s.range.all) {
        auto check = [&](const char* axis, uint32_t first, uint32_t& count, uint32_t size) {
          if (count == kAllCount) count = size - std::min(first, size);
          if (count == 0 || first >= size || count > size - first)
            fail(fmt::format("{}.range.{}", path, axis),
                 fmt::format("out of range for resource '{}' ({} {})", r.name, size, axis));
        };
        check("mips", s.range.mip0, s.range.mips, r.mips);
        check("layers", s.range.layer0, s.range.layers, r.layers);
        check("planes", s.range.plane0, s.range.planes, r.planes);
      }
      return s;
    }
    const auto it = j.find("subresource");
    if (it == j.end() || (it->is_string() && it->get<std::string>() == "all")) return s;
    if (!it->is_number_unsigned()) fail(path + ".subresource", "expected a subresource index or \"all\"");
    if (it->get<uint64_t>() >= r.subresource_count())
      fail(path + ".subresource",
           fmt::format("subresource {} out of range for resource '{}' ({} subresources)", it->get<uint64_t>(),
                       r.name, r.subresource_count()));
    s.index = it->get<int64_t>();
    return s;
  }

  Split split(const json& j, const std::string& path) const {
    const auto it = j.find("flags");
    if (it == j.end()) return Split::none;
    std::string f;
    if (it->is_string())
      f = it->get<std::string>();
    else if (it->is_array() && it->size() == 1 && (*it)[0].is_string())
      f = (*it)[0].get<std::string>();
    else if (it->is_array() && it->empty())
      return Split::none;
    else
      fail(path + ".flags", "expected \"begin_only\" or \"end_only\"");
    if (f == "begin_only") return Split::begin_only;
    if (f == "end_only") return Split::end_only;
    if (f == "none") return Split::none;
    fail(path + ".flags", fmt::format("unknown barrier flag {}", input::quote(f)));
  }

  uint32_t family_field(const json& j, const char* key, const std::string& path) const {
    const auto it = j.find(key);
    if (it == j.end() || (it->is_string() && it->get<std::string>() == "IGNORED"))
      return kVkQueueFamilyIgnored;
    return uint_field(j, key, path, kVkQueueFamilyIgnored);
  }

  Barrier barrier(const json& j, const std::string& path) const {
    require_object(j, path);
    const std::string type = string_field(j, "type", path);
    if (api_ == Api::d3d12) {
      if (type == "transition")
        keys(j, path, {"type", "resource", "subresource", "before", "after", "flags"});
      else if (type == "uav")
        keys(j, path, {"type", "resource", "flags"});
      else if (type == "aliasing")
        keys(j, path, {"type", "before", "after", "flags"});
      else if (type == "global")
        keys(j, path, {"type", "sync_before", "sync_after", "access_before", "access_after"});
      else if (type == "buffer")
        keys(j, path,
             {"type", "resource", "range", "sync_before", "sync_after", "access_before", "access_after"});
      else  // texture (an unknown type is refused below)
        keys(j, path,
             {"type", "resource", "range", "sync_before", "sync_after", "access_before", "access_after",
              "layout_before", "layout_after", "discard"});
      if (type == "transition") {
        LegacyTransition b;
        b.resource = resource_ref(j, "resource", path, false);
        const auto sub = j.find("subresource");
        if (sub != j.end() && !(sub->is_string() && sub->get<std::string>() == "all")) {
          if (!sub->is_number_unsigned() || sub->get<uint64_t>() > 0xffffffffu)
            fail(path + ".subresource", "expected a subresource index or \"all\"");
          b.subresource = sub->get<int64_t>();  // range checked by the replay (521)
        }
        b.before = static_cast<uint32_t>(
            named_field(j, "before", path, names::d3d12_states(), "D3D12_RESOURCE_STATES"));
        b.after = static_cast<uint32_t>(
            named_field(j, "after", path, names::d3d12_states(), "D3D12_RESOURCE_STATES"));
        b.split = split(j, path);
        return b;
      }
      if (type == "uav") return LegacyUav{resource_ref(j, "resource", path, true), split(j, path)};
      if (type == "aliasing")
        return LegacyAliasing{resource_ref(j, "before", path, true), resource_ref(j, "after", path, true),
                              split(j, path)};
      EnhancedBarrier b;
      if (type == "texture")
        b.kind = EnhancedKind::texture;
      else if (type == "buffer")
        b.kind = EnhancedKind::buffer;
      else if (type == "global")
        b.kind = EnhancedKind::global;
      else
        fail(path + ".type", fmt::format("unknown D3D12 barrier type {}", input::quote(type)));
      if (b.kind != EnhancedKind::global) b.resource = resource_ref(j, "resource", path, false);
      b.range = range(j, path);
      b.sync_before = static_cast<uint32_t>(
          named_field(j, "sync_before", path, names::d3d12_syncs(), "D3D12_BARRIER_SYNC"));
      b.sync_after = static_cast<uint32_t>(
          named_field(j, "sync_after", path, names::d3d12_syncs(), "D3D12_BARRIER_SYNC"));
      b.access_before = static_cast<uint32_t>(
          named_field(j, "access_before", path, names::d3d12_accesses(), "D3D12_BARRIER_ACCESS"));
      b.access_after = static_cast<uint32_t>(
          named_field(j, "access_after", path, names::d3d12_accesses(), "D3D12_BARRIER_ACCESS"));
      if (b.kind == EnhancedKind::texture) {
        b.layout_before =
            enum_field(j, "layout_before", path, names::d3d12_layouts(), "D3D12_BARRIER_LAYOUT");
        b.layout_after = enum_field(j, "layout_after", path, names::d3d12_layouts(), "D3D12_BARRIER_LAYOUT");
      }
      if (j.contains("discard")) {
        if (!j["discard"].is_boolean()) fail(path + ".discard", "expected true or false");
        b.discard = j["discard"].get<bool>();
      }
      return b;
    }
    if (type == "image")
      keys(j, path,
           {"type", "resource", "range", "src_stage", "src_access", "dst_stage", "dst_access", "old_layout",
            "new_layout", "src_queue_family", "dst_queue_family"});
    else if (type == "buffer")
      keys(j, path,
           {"type", "resource", "range", "src_stage", "src_access", "dst_stage", "dst_access",
            "src_queue_family", "dst_queue_family", "offset", "size"});
    else
      keys(j, path,
           {"type", "resource", "range", "src_stage", "src_access", "dst_stage", "dst_access",
            "src_queue_family", "dst_queue_family"});
    VkBarrier b;
    if (type == "image")
      b.kind = VkBarrierKind::image;
    else if (type == "buffer")
      b.kind = VkBarrierKind::buffer;
    else if (type == "memory")
      b.kind = VkBarrierKind::memory;
    else
      fail(path + ".type", fmt::format("unknown Vulkan barrier type {}", input::quote(type)));
    if (b.kind != VkBarrierKind::memory) b.resource = resource_ref(j, "resource", path, false);
    if (b.resource != kNoResource) {
      const bool is_buffer = (*resources_)[static_cast<size_t>(b.resource)].buffer;
      if (is_buffer != (b.kind == VkBarrierKind::buffer))
        fail(path + ".type", fmt::format("{} barrier on {} '{}'", type, is_buffer ? "buffer" : "image",
                                         (*resources_)[static_cast<size_t>(b.resource)].name));
    }
    b.range = range(j, path);
    if (b.kind == VkBarrierKind::image && !b.range.all) {  // Vulkan has no message for this: a broken trace
      const TraceResource& r = (*resources_)[static_cast<size_t>(b.resource)];
      auto inside = [](uint32_t first, uint32_t n, uint32_t size) {
        return first < size && (n == kAllCount || (n > 0 && n <= size - first));
      };
      if (!inside(b.range.mip0, b.range.mips, r.mips) || !inside(b.range.layer0, b.range.layers, r.layers) ||
          !inside(b.range.plane0, b.range.planes, r.planes))
        fail(path + ".range", fmt::format("out of range for image '{}'", r.name));
    }
    b.src_stage = named_field(j, "src_stage", path, names::vk_stages(), "VkPipelineStageFlags2", uint64_t{0});
    b.src_access = named_field(j, "src_access", path, names::vk_accesses(), "VkAccessFlags2", uint64_t{0});
    b.dst_stage = named_field(j, "dst_stage", path, names::vk_stages(), "VkPipelineStageFlags2", uint64_t{0});
    b.dst_access = named_field(j, "dst_access", path, names::vk_accesses(), "VkAccessFlags2", uint64_t{0});
    if (b.kind == VkBarrierKind::image) {
      b.old_layout = enum_field(j, "old_layout", path, names::vk_layouts(), "VkImageLayout");
      b.new_layout = enum_field(j, "new_layout", path, names::vk_layouts(), "VkImageLayout");
    }
    b.src_family = family_field(j, "src_queue_family", path);
    b.dst_family = family_field(j, "dst_queue_family", path);
    if (b.kind == VkBarrierKind::buffer) b.bytes = byte_range(j, path);
    return b;
  }

  UseState use_state(const json& j, const std::string& path, bool buffer) const {
    const auto it = j.find("as");
    if (it == j.end()) fail(path, "missing \"as\"");
    UseState u;
    const std::string apath = path + ".as";
    if (api_ == Api::d3d12) {
      u.d3d12_state =
          static_cast<uint32_t>(names_of(names::d3d12_states(), *it, apath, "D3D12_RESOURCE_STATES"));
      if (u.d3d12_state == 0) fail(apath, "a use needs a non-COMMON state");
      if (!d3d12::valid_combination(u.d3d12_state)) fail(apath, "not a valid state combination");
      return u;
    }
    if (!it->is_object()) fail(apath, "expected {\"stage\",\"access\",\"layout\"}");
    if (buffer)
      keys(*it, apath, {"stage", "access"});
    else
      keys(*it, apath, {"stage", "access", "layout"});
    u.vk_stage = named_field(*it, "stage", apath, names::vk_stages(), "VkPipelineStageFlags2");
    u.vk_access = named_field(*it, "access", apath, names::vk_accesses(), "VkAccessFlags2");
    if (!buffer) u.vk_layout = enum_field(*it, "layout", apath, names::vk_layouts(), "VkImageLayout");
    return u;
  }

  // Whether an object's "resource" names a known buffer (buffers take byte ranges).
  bool names_buffer(const json& j) const {
    const auto it = j.find("resource");
    if (it == j.end() || !it->is_string()) return false;
    const auto found = resource_index_.find(it->get<std::string>());
    return found != resource_index_.end() && (*resources_)[static_cast<size_t>(found->second)].buffer;
  }

  Command command(const json& j, const std::string& path) const {
    require_object(j, path);
    if (j.size() != 1)
      fail(path,
           "a command has exactly one key: barrier, use, discard, clear, set_event, wait_events, execute, "
           "begin_rendering or end_rendering");
    // Not `*j.items().begin()`: that binds to a proxy inside a temporary iterator (found by ASan).
    const std::string key = j.begin().key();
    const json& body = j.begin().value();
    const std::string bpath = fmt::format("{}.{}", path, key);
    if (key == "barrier") {
      BarrierCmd c;
      // Vulkan: {"dependency_flags": "BY_REGION", "barriers": [...]} is the call with its
      // VkDependencyInfo::dependencyFlags (a single barrier object has no "barriers").
      if (body.is_object() && body.contains("barriers")) {
        if (api_ != Api::vulkan) fail(bpath, "dependency flags are Vulkan only");
        keys(body, bpath, {"dependency_flags", "barriers"});
        const std::string flags = optional_string(body, "dependency_flags", bpath, "");
        if (flags != "" && flags != "BY_REGION")
          fail(
              bpath + ".dependency_flags",
              fmt::format("unknown or unmodelled dependency flags {} (only BY_REGION)", input::quote(flags)));
        c.by_region = flags == "BY_REGION";
        const json& arr = array_field(body, "barriers", bpath);
        for (size_t i = 0; i < arr.size(); ++i)
          c.barriers.push_back(barrier(arr[i], fmt::format("{}.barriers[{}]", bpath, i)));
        return c;
      }
      const json& arr = body.is_array() ? body : json::array({body});
      for (size_t i = 0; i < arr.size(); ++i)
        c.barriers.push_back(barrier(arr[i], fmt::format("{}[{}]", bpath, i)));
      return c;
    }
    if (key == "begin_rendering" || key == "end_rendering") {
      if (api_ != Api::vulkan) fail(bpath, fmt::format("{} is a Vulkan command (dynamic rendering)", key));
      require_object(body, bpath);
      if (key == "end_rendering") {
        keys(body, bpath, {});
        return EndRenderingCmd{};
      }
      keys(body, bpath, {"color", "depth"});
      BeginRenderingCmd c;
      const json& colors = array_field(body, "color", bpath);
      for (size_t i = 0; i < colors.size(); ++i)
        c.attachments.push_back(attachment(colors[i], fmt::format("{}.color[{}]", bpath, i), false));
      if (body.contains("depth")) c.attachments.push_back(attachment(body["depth"], bpath + ".depth", true));
      return c;
    }
    if (key == "execute") {
      // vkCmdExecuteCommands(secondaries): the names are resolved once every list is known (load()).
      if (api_ != Api::vulkan) fail(bpath, "execute is a Vulkan command (secondary command buffers)");
      if (!body.is_array() || body.empty()) fail(bpath, "expected a non-empty array of secondary list names");
      std::vector<std::string> names;
      for (size_t i = 0; i < body.size(); ++i) {
        if (!body[i].is_string()) fail(fmt::format("{}[{}]", bpath, i), "expected a list name");
        names.push_back(body[i].get<std::string>());
      }
      // Kept in document order: a deferred command's JSON is gone once it is parsed (element()).
      execute_names_.push_back(std::move(names));
      return ExecuteCmd{};
    }
    if (key == "set_event" || key == "wait_events") {
      if (api_ != Api::vulkan)
        fail(bpath, fmt::format("{} is a Vulkan command (D3D12 split barriers are barrier halves)", key));
      // One dependency: {"event": NAME, "barriers": [...]}, the VkDependencyInfo of the event.
      auto dependency = [&](const json& d, const std::string& dpath, int& event, std::vector<Barrier>& out) {
        require_object(d, dpath);
        keys(d, dpath, {"event", "barriers"});
        event = event_ref(d, dpath);
        const json& arr = array_field(d, "barriers", dpath);
        for (size_t i = 0; i < arr.size(); ++i)
          out.push_back(barrier(arr[i], fmt::format("{}.barriers[{}]", dpath, i)));
      };
      if (key == "set_event") {
        SetEventCmd c;
        dependency(body, bpath, c.event, c.barriers);
        return c;
      }
      if (!body.is_array() || body.empty())
        fail(bpath, "expected a non-empty array of {\"event\", \"barriers\"}");
      WaitEventsCmd c;
      for (size_t i = 0; i < body.size(); ++i) {
        WaitEventsCmd::Wait& w = c.waits.emplace_back();
        dependency(body[i], fmt::format("{}[{}]", bpath, i), w.event, w.barriers);
      }
      return c;
    }
    require_object(body, bpath);
    if (key == "discard")
      keys(body, bpath, {"resource", "subresource", "range"});
    else if ((key == "use" || key == "clear") && names_buffer(body))
      keys(body, bpath, {"resource", "subresource", "range", "as", "offset", "size"});
    else if (key == "use" || key == "clear")
      keys(body, bpath, {"resource", "subresource", "range", "as"});
    const int res = resource_ref(body, "resource", bpath, false);
    const bool is_buffer = (*resources_)[static_cast<size_t>(res)].buffer;
    if (key == "use") return UseCmd{res, subresources(body, res, bpath), use_state(body, bpath, is_buffer)};
    if (key == "clear")
      return ClearCmd{res, subresources(body, res, bpath), use_state(body, bpath, is_buffer)};
    if (key == "discard") {
      if (api_ == Api::vulkan)
        fail(bpath, "discard is a D3D12 command (Vulkan: an image barrier from UNDEFINED)");
      return DiscardCmd{res, subresources(body, res, bpath)};
    }
    fail(path,
         fmt::format(
             "unknown command {} (expected barrier, use, discard, clear, set_event, wait_events, execute, "
             "begin_rendering or end_rendering)",
             input::quote(key)));
  }

  // One VkRenderingAttachmentInfo: an image subresource (the view: one mip, one layer), its layout, its
  // load and store operations. A color attachment's layout is one a color attachment may have
  // (VUID-VkRenderingInfo-colorAttachmentCount-06090 and -06091 exclude the depth/stencil ones); a depth
  // attachment's a writable depth layout (read-only depth attachments are not modelled), on a resource
  // flagged depth_stencil (a depth format).
  RenderingAttachment attachment(const json& j, const std::string& path, bool depth) const {
    require_object(j, path);
    keys(j, path, {"resource", "subresource", "layout", "load", "store"});
    RenderingAttachment a;
    a.depth = depth;
    a.resource = resource_ref(j, "resource", path, false);
    const TraceResource& r = (*resources_)[static_cast<size_t>(a.resource)];
    if (r.buffer) fail(path + ".resource", fmt::format("'{}' is a buffer, not an image", r.name));
    if (depth != ((r.flags & flag::depth_stencil) != 0))
      fail(path + ".resource", depth ? fmt::format("'{}' is not a depth_stencil image", r.name)
                                     : fmt::format("'{}' is a depth_stencil image, not a color one", r.name));
    if (!j.contains("subresource")) fail(path, "missing \"subresource\" (one subresource: the view's)");
    a.subresource = uint_field(j, "subresource", path, 0);
    if (a.subresource >= r.subresource_count())
      fail(path + ".subresource",
           fmt::format("out of range for image '{}' ({} subresources)", r.name, r.subresource_count()));
    a.layout = enum_field(j, "layout", path, names::vk_layouts(), "VkImageLayout");
    constexpr uint32_t kColorLayouts[] = {
        1, 2, 1000314001};  // GENERAL, COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL
    constexpr uint32_t kDepthLayouts[] = {1, 3, 1000241000,
                                          1000314001};  // GENERAL, DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                                        // DEPTH_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL
    const auto ok = [&](const auto& table) {
      return std::find(std::begin(table), std::end(table), a.layout) != std::end(table);
    };
    if (depth ? !ok(kDepthLayouts) : !ok(kColorLayouts))
      fail(path + ".layout",
           fmt::format("{} attachments are not rendered in layout {}", depth ? "depth" : "color",
                       input::quote(j["layout"].get<std::string>())));
    const std::string load = string_field(j, "load", path), store = string_field(j, "store", path);
    if (load == "LOAD")
      a.load = LoadOp::load;
    else if (load == "CLEAR")
      a.load = LoadOp::clear;
    else if (load == "DONT_CARE")
      a.load = LoadOp::dont_care;
    else if (load == "NONE")
      a.load = LoadOp::none;
    else
      fail(path + ".load",
           fmt::format("unknown load op {} (LOAD, CLEAR, DONT_CARE or NONE)", input::quote(load)));
    if (store == "STORE")
      a.store = StoreOp::store;
    else if (store == "DONT_CARE")
      a.store = StoreOp::dont_care;
    else if (store == "NONE")
      a.store = StoreOp::none;
    else
      fail(path + ".store",
           fmt::format("unknown store op {} (STORE, DONT_CARE or NONE)", input::quote(store)));
    return a;
  }

  // A render pass instance begins and ends in one list (VUID-vkEndCommandBuffer-commandBuffer-00060: no
  // command buffer ends inside one; suspending / resuming renderings are not modelled), does not nest
  // (VUID-vkCmdBeginRendering-... : not inside a render pass instance), and holds only uses (draws):
  // barriers, events, clears and executes inside one have rules of their own, not modelled.
  void rendering_structure(const TraceList& l, const std::string& path) const {
    bool inside = false;
    for (size_t c = 0; c < l.commands.size(); ++c) {
      const std::string at = fmt::format("{}.commands[{}]", path, c);
      const Command& cmd = l.commands[c];
      if (std::holds_alternative<BeginRenderingCmd>(cmd)) {
        // vkCmdBeginRendering records only into command buffers of a graphics queue family
        // (VUID-vkCmdBeginRendering-commandBuffer-cmdpool).
        if (l.type != QueueType::direct)
          fail(at + ".begin_rendering",
               fmt::format("a render pass instance in a {} list: vkCmdBeginRendering needs a graphics (direct) "
                           "queue's command buffer (VUID-vkCmdBeginRendering-commandBuffer-cmdpool)",
                           l.type == QueueType::compute ? "compute" : "copy"));
        if (inside) fail(at + ".begin_rendering", "a render pass instance is already active (no nesting)");
        inside = true;
      } else if (std::holds_alternative<EndRenderingCmd>(cmd)) {
        if (!inside)
          fail(at + ".end_rendering", "no render pass instance is active (no begin_rendering before)");
        inside = false;
      } else if (inside && !std::holds_alternative<UseCmd>(cmd)) {
        fail(at, "only uses (draws) are modelled inside a render pass instance");
      }
    }
    if (inside) fail(path, "the list ends inside a render pass instance (no end_rendering)");
  }

  TraceList list(const json& j, const std::string& path) const {
    require_object(j, path);
    keys(j, path, {"name", "type", "level", "commands"});
    TraceList l;
    l.name = name_field(j, "name", path);
    l.type = queue_type(j, path);
    const std::string level = optional_string(j, "level", path, "primary");
    if (level != "primary" && level != "secondary")
      fail(path + ".level",
           fmt::format("unknown level {} (expected primary or secondary)", input::quote(level)));
    if (level == "secondary" && api_ != Api::vulkan)
      fail(path + ".level", "secondary command buffers are Vulkan only");
    l.secondary = level == "secondary";
    const json& cmds = array_field(j, "commands", path);
    for (size_t i = 0; i < cmds.size(); ++i)
      l.commands.push_back(command(element(cmds[i]), fmt::format("{}.commands[{}]", path, i)));
    rendering_structure(l, path);
    return l;
  }

  std::vector<std::string> strings(const json& j, const char* key, const std::string& path) const {
    std::vector<std::string> out;
    const json& arr = array_field(j, key, path);
    for (size_t i = 0; i < arr.size(); ++i) {
      if (!arr[i].is_string()) fail(fmt::format("{}.{}[{}]", path, key, i), "expected a string");
      out.push_back(arr[i].get<std::string>());
    }
    return out;
  }

  // "wait" / "signal": semaphore names (binary, stage ALL_COMMANDS), or (Vulkan) objects
  // {"semaphore", "stage", "value"} (a wait) and {"semaphore", "value"} (a signal): the
  // VkSemaphoreSubmitInfo's stageMask and timeline value.
  void semaphores(const json& j, const char* key, const std::string& path, TraceSubmission& s) const {
    const bool wait = std::string_view(key) == "wait";
    const json& arr = array_field(j, key, path);
    for (size_t i = 0; i < arr.size(); ++i) {
      const std::string at = fmt::format("{}.{}[{}]", path, key, i);
      std::string name;
      uint64_t stage = kVkAllCommands;
      std::optional<uint64_t> value;
      if (arr[i].is_string()) {
        name = arr[i].get<std::string>();
      } else if (arr[i].is_object()) {
        if (api_ != Api::vulkan) fail(at, "expected a string (semaphore objects are Vulkan only)");
        keys(arr[i], at, {"semaphore", "stage", "value"});
        name = string_field(arr[i], "semaphore", at);
        stage = named_field(arr[i], "stage", at, names::vk_stages(), "VkPipelineStageFlags2", kVkAllCommands);
        if (arr[i].contains("value")) value = u64_field(arr[i], "value", at);
      } else {
        fail(at, "expected a semaphore name or object");
      }
      check_name(name, at);
      if (wait) {
        s.wait.push_back(name);
        s.wait_stage.push_back(stage);
        s.wait_value.push_back(value);
      } else {
        s.signal.push_back(name);
        s.signal_value.push_back(value);
        s.signal_stage.push_back(stage);
      }
    }
  }
  // One host wait: "device" (vkDeviceWaitIdle), {"queue"} (vkQueueWaitIdle), {"fence"}
  // (vkWaitForFences, then vkResetFences), {"semaphore", "value"} (vkWaitSemaphores, timeline).
  HostWait host_wait(const json& j, const std::string& path) const {
    HostWait h;
    if (j.is_string()) {
      if (j.get<std::string>() != "device")
        fail(path, fmt::format("unknown host wait {} (expected \"device\" or an object)",
                               input::quote(j.get<std::string>())));
      return h;
    }
    require_object(j, path);
    if (j.contains("fence")) {
      keys(j, path, {"fence"});
      h.kind = HostWait::Kind::fence;
      h.name = string_field(j, "fence", path);
    } else if (j.contains("queue")) {
      keys(j, path, {"queue"});
      h.kind = HostWait::Kind::queue;
      h.name = string_field(j, "queue", path);
    } else if (j.contains("semaphore")) {
      keys(j, path, {"semaphore", "value"});
      h.kind = HostWait::Kind::semaphore;
      h.name = string_field(j, "semaphore", path);
      h.value = u64_field(j, "value", path);
    } else {
      keys(j, path, {"fence", "queue", "semaphore"});
      fail(path, "a host wait names a \"fence\", a \"queue\" or a timeline \"semaphore\" with a \"value\"");
    }
    check_name(h.name, path);
    return h;
  }

  // "swapchain": "NAME" on a Vulkan image: one of NAME's presentable images (VkSwapchainKHR images have
  // one mip level and plane, and memory of the presentation engine's: not placed in a heap).
  void swapchain_image(const json& j, const std::string& path, TraceResource& r) const {
    const std::string at = path + ".swapchain";
    if (api_ != Api::vulkan) fail(at, "swapchain images are Vulkan only (D3D12: the \"swapchain\" flag)");
    const std::string name = name_field(j, "swapchain", path);
    if (r.buffer) fail(at, "a buffer is not a swapchain image");
    if (r.mips != 1 || r.planes != 1) fail(at, "a swapchain image has one mip level and one plane");
    if (j.contains("placement"))
      fail(at, "a swapchain image is not placed in a heap (its memory is the swapchain's)");
    const auto [it, added] = swapchain_index_.emplace(name, static_cast<int>(swapchains_.size()));
    if (added) {
      swapchains_.push_back(name);
      swapchain_images_.push_back(0);
      swapchain_layers_.push_back(r.layers);
    }
    if (swapchain_layers_[static_cast<size_t>(it->second)] != r.layers)
      fail(path + ".layers", fmt::format("the images of swapchain {} have one layer count (imageArrayLayers)",
                                         input::quote(name)));
    r.swapchain = it->second;
    r.image_index = swapchain_images_[static_cast<size_t>(it->second)]++;
    r.flags |= flag::swapchain;
  }

  // A swapchain step in "submissions": {"acquire": {...}} or {"present": {...}} (an object; a
  // submission's own "present" is an array of names).
  static bool is_step(const json& j) {
    if (!j.is_object() || j.size() != 1) return false;
    const auto it = j.begin();
    return it.key() == "acquire" || (it.key() == "present" && it->is_object());
  }
  // vkAcquireNextImageKHR: {"image", "semaphore", "fence"}, host-side; vkQueuePresentKHR: {"image",
  // "queue", "family", "wait"}.
  TraceSubmission step(const json& j, const std::string& path) const {
    TraceSubmission s;
    const bool acquire = j.contains("acquire");
    const std::string at = path + (acquire ? ".acquire" : ".present");
    if (api_ != Api::vulkan)
      fail(at, "acquire and present steps are Vulkan only (vkAcquireNextImageKHR, vkQueuePresentKHR)");
    const json& b = *j.begin();
    require_object(b, at);
    if (acquire) {
      s.step = Step::acquire;
      keys(b, at, {"image", "semaphore", "fence"});
      if (b.contains("semaphore")) {
        s.signal.push_back(name_field(b, "semaphore", at));
        s.signal_value.push_back(std::nullopt);
        s.signal_stage.push_back(kVkAllCommands);
      }
      if (b.contains("fence")) s.fence = name_field(b, "fence", at);
      if (s.signal.empty() && s.fence.empty())
        fail(at,
             "vkAcquireNextImageKHR signals a semaphore, a fence or both "
             "(VUID-vkAcquireNextImageKHR-semaphore-01780)");
    } else {
      s.step = Step::present;
      keys(b, at, {"image", "queue", "family", "wait"});
      s.queue = optional_string(b, "queue", at, "queue0");
      check_name(s.queue, at + ".queue");
      s.family = uint_field(b, "family", at, 0);
      // VkPresentInfoKHR::pWaitSemaphores: binary semaphores, no stage mask (the presentation engine waits).
      const std::vector<std::string> waits = strings(b, "wait", at);
      for (size_t w = 0; w < waits.size(); ++w) {
        check_name(waits[w], fmt::format("{}.wait[{}]", at, w));
        s.wait.push_back(waits[w]);
      }
    }
    s.image = resource_ref(b, "image", at, false);
    if ((*resources_)[static_cast<size_t>(s.image)].swapchain == kNoSwapchain)
      fail(at + ".image", fmt::format("{} is not a swapchain image (give the resource \"swapchain\": NAME)",
                                      input::quote((*resources_)[static_cast<size_t>(s.image)].name)));
    return s;
  }
  // The resources a list's commands touch (an execute: its secondaries'), into `out`.
  void touched(const Trace& t, int li, std::vector<int>& out) const {
    auto barriers = [&](const std::vector<Barrier>& bs) {
      for (const Barrier& b : bs)
        if (const auto* v = std::get_if<VkBarrier>(&b); v && v->resource != kNoResource)
          out.push_back(v->resource);
    };
    for (const Command& c : t.lists[static_cast<size_t>(li)].commands) {
      if (const auto* u = std::get_if<UseCmd>(&c))
        out.push_back(u->resource);
      else if (const auto* k = std::get_if<ClearCmd>(&c))
        out.push_back(k->resource);
      else if (const auto* b = std::get_if<BarrierCmd>(&c))
        barriers(b->barriers);
      else if (const auto* se = std::get_if<SetEventCmd>(&c))
        barriers(se->barriers);
      else if (const auto* we = std::get_if<WaitEventsCmd>(&c)) {
        for (const WaitEventsCmd::Wait& w : we->waits) barriers(w.barriers);
      } else if (const auto* br = std::get_if<BeginRenderingCmd>(&c)) {
        for (const RenderingAttachment& a : br->attachments) out.push_back(a.resource);
      } else if (const auto* ex = std::get_if<ExecuteCmd>(&c)) {
        for (int sl : ex->lists) touched(t, sl, out);
      }
    }
  }
  // The application holds a swapchain image from its acquire to its present: an image is acquired only
  // when not held (vkAcquireNextImageKHR returns one the presentation engine owns), presented only when
  // held (VUID-VkPresentInfoKHR-pImageIndices-01430), and a submission's commands touch only held images.
  void swapchain_ownership(const Trace& t, const TraceSubmission& s, const std::string& path,
                           std::vector<bool>& acquired) const {
    if (swapchains_.empty()) return;
    const auto name = [&](int r) { return input::quote(t.resources[static_cast<size_t>(r)].name); };
    if (s.step == Step::acquire) {
      if (acquired[static_cast<size_t>(s.image)])
        fail(path + ".acquire.image",
             fmt::format("swapchain image {} is already acquired (not presented since)", name(s.image)));
      acquired[static_cast<size_t>(s.image)] = true;
      return;
    }
    if (s.step == Step::present) {
      if (!acquired[static_cast<size_t>(s.image)])
        fail(path + ".present.image", fmt::format("swapchain image {} is presented but not acquired "
                                                  "(VUID-VkPresentInfoKHR-pImageIndices-01430)",
                                                  name(s.image)));
      acquired[static_cast<size_t>(s.image)] = false;
      return;
    }
    for (size_t i = 0; i < s.lists.size(); ++i) {
      std::vector<int> used;
      touched(t, s.lists[i], used);
      for (int r : used)
        if (t.resources[static_cast<size_t>(r)].swapchain != kNoSwapchain &&
            !acquired[static_cast<size_t>(r)])
          fail(fmt::format("{}.lists[{}]", path, i),
               fmt::format("list {} uses swapchain image {}, which is not acquired (vkAcquireNextImageKHR)",
                           input::quote(t.lists[static_cast<size_t>(s.lists[i])].name), name(r)));
    }
  }

  TraceSubmission submission(const json& j, const std::string& path,
                             const std::map<std::string, int, std::less<>>& index,
                             const std::vector<TraceList>& lists) const {
    require_object(j, path);
    keys(j, path,
         {"queue", "type", "family", "lists", "wait", "signal", "present", "fence", "host_wait",
          "host_signal"});
    TraceSubmission s;
    s.queue = optional_string(j, "queue", path, "queue0");
    check_name(s.queue, path + ".queue");
    s.type = queue_type(j, path);
    s.family = uint_field(j, "family", path, static_cast<uint32_t>(s.type));
    const std::vector<std::string> names = strings(j, "lists", path);
    for (size_t i = 0; i < names.size(); ++i) {
      const auto it = index.find(names[i]);
      if (it == index.end())
        fail(fmt::format("{}.lists[{}]", path, i), fmt::format("unknown list {}", input::quote(names[i])));
      if (lists[static_cast<size_t>(it->second)].type != s.type)
        fail(fmt::format("{}.lists[{}]", path, i),
             fmt::format("list '{}' has a different type than queue '{}'", names[i], s.queue));
      if (lists[static_cast<size_t>(it->second)].secondary)
        fail(fmt::format("{}.lists[{}]", path, i),
             fmt::format("list '{}' is a secondary command buffer (executed by a primary list's execute, not "
                         "submitted)",
                         names[i]));
      s.lists.push_back(it->second);
    }
    semaphores(j, "wait", path, s);
    semaphores(j, "signal", path, s);
    if (j.contains("fence")) {
      if (api_ != Api::vulkan) fail(path + ".fence", "fences of a submission are Vulkan only");
      s.fence = string_field(j, "fence", path);
      check_name(s.fence, path + ".fence");
    }
    const json& host = array_field(j, "host_wait", path);
    if (!host.empty() && api_ != Api::vulkan) fail(path + ".host_wait", "host waits are Vulkan only");
    for (size_t i = 0; i < host.size(); ++i)
      s.host_wait.push_back(host_wait(host[i], fmt::format("{}.host_wait[{}]", path, i)));
    const json& host_signals = array_field(j, "host_signal", path);
    if (!host_signals.empty() && api_ != Api::vulkan)
      fail(path + ".host_signal", "host signals are Vulkan only");
    for (size_t i = 0; i < host_signals.size(); ++i) {
      const std::string at = fmt::format("{}.host_signal[{}]", path, i);
      require_object(host_signals[i], at);
      keys(host_signals[i], at, {"semaphore", "value"});
      HostSignal h{string_field(host_signals[i], "semaphore", at), u64_field(host_signals[i], "value", at)};
      check_name(h.semaphore, at);
      s.host_signal.push_back(std::move(h));
    }
    const std::vector<std::string> present = strings(j, "present", path);
    for (size_t i = 0; i < present.size(); ++i) {
      const auto it = resource_index_.find(present[i]);
      if (it == resource_index_.end())
        fail(fmt::format("{}.present[{}]", path, i),
             fmt::format("unknown resource {}", input::quote(present[i])));
      s.present.push_back(it->second);
    }
    return s;
  }

  static constexpr uint32_t kAllCount = 0xffffffffu;
  // A command as the document holds it, or (a deferred one) parsed from its text: the next slice, as
  // the loader reaches commands in document order.
  const json& element(const json& j) const {
    if (!j.is_discarded() || !deferred_) return j;
    const input::DeferredElements::Slice& sl = deferred_->slices.at(next_deferred_++);
    scratch_ = input::parse(text_.substr(sl.begin, sl.end - sl.begin), source_);
    return scratch_;
  }

  std::string source_;
  std::string_view text_;
  const input::DeferredElements* deferred_ = nullptr;
  mutable size_t next_deferred_ = 0;
  mutable json scratch_;
  mutable std::vector<std::vector<std::string>> execute_names_;  // per execute command, document order
  Api api_ = Api::d3d12;
  std::map<std::string, int, std::less<>> resource_index_, heap_index_;
  const std::vector<TraceResource>* resources_ = nullptr;
  const std::vector<TraceHeap>* heaps_ = nullptr;
  mutable std::map<std::string, int, std::less<>> event_index_;
  mutable std::vector<std::string> events_;
  mutable std::map<std::string, int, std::less<>> swapchain_index_;
  mutable std::vector<std::string> swapchains_;
  mutable std::vector<uint32_t> swapchain_images_, swapchain_layers_;  // per swapchain
};
}  // namespace

Trace load_trace(std::string_view text, std::string_view source) {
  // The input gate: positioned syntax errors, duplicate keys, NUL bytes and ill-formed UTF-8 refused.
  // The commands (most of a trace) are left out of the document and parsed one at a time.
  input::DeferredElements commands{"lists", "commands", {}};
  const json root = input::parse(text, source, commands);
  try {
    return Loader(source, text, commands).load(root);
  } catch (const json::exception& e) {  // defensive: a type error the loader did not anticipate
    throw Error(input::one_line(fmt::format("{}: invalid trace: {}", source, e.what())));
  }
}

Trace load_trace_file(const std::string& path) {
  return load_trace(input::read(path), input::source_name(path));
}

}  // namespace baton::validate
