// The differential comparison of docs/replay.md: per trace, which kinds of problem Baton's
// validator reports and which the Khronos layer reports when the trace is played.
#pragma once

#include <algorithm>
#include <cstdint>
#include <regex>
#include <string>

#include "baton/exec_vulkan.hpp"
#include "baton/validate.hpp"

namespace baton::exec::test {

enum Kind : uint32_t { kRaw = 1, kWar = 2, kWaw = 4, kLayout = 8, kOther = 16 };
inline constexpr const char* kKindNames[] = {"RAW", "WAR", "WAW", "layout", "other"};
inline constexpr int kKinds = 5;

inline uint32_t kinds_of(const validate::ValidationResult& r) {
  uint32_t k = 0;
  for (const auto& [id, n] : r.counts) {
    if (id == 100001)
      k |= kRaw;
    else if (id == 100002)
      k |= kWar;
    else if (id == 100003)
      k |= kWaw;
    else if (id == 100010 || id == 100011 || id == 100012)
      k |= kLayout;
    else
      k |= kOther;
  }
  return k;
}

inline bool is_layout_id(const std::string& id) {
  // The layout VUIDs of the commands the player records, and core validation's layout check.
  return id.find("Layout") != std::string::npos || id.find("oldLayout") != std::string::npos ||
         id.find("imageLayout") != std::string::npos || id.find("ImageLayout") != std::string::npos;
}

inline uint32_t kinds_of(const ValidationLog& log) {
  uint32_t k = 0;
  for (const auto& [id, n] : log.counts) {
    if (id == "SYNC-HAZARD-READ-AFTER-WRITE")
      k |= kRaw;
    else if (id == "SYNC-HAZARD-WRITE-AFTER-READ")
      k |= kWar;
    else if (id == "SYNC-HAZARD-WRITE-AFTER-WRITE")
      k |= kWaw;
    else if (is_layout_id(id) || id == "VUID-vkCmdDispatch-None-02699" ||
             id == "UNASSIGNED-vkCmdExecuteCommands-commandBuffer-00001")
      k |= kLayout;  // 02699: "see previous error"; 00001: an executed secondary's image in another layout
    else
      k |= kOther;
  }
  return k;
}

// D1 (docs/replay.md): a write-after-write between two writes of the same access at the same stage
// (two dispatches writing one storage resource), which layer 1.3.239 does not report.
inline bool same_access_waw(const validate::Message& m) {
  static const std::regex two(
      R"(: ([A-Z_|]+) at ([A-Z_|]+) \(list '[^']*' command \d+\) writes over what ([A-Z_|]+) at ([A-Z_|]+) \()");
  std::smatch g;
  return m.id == validate::MessageId{100003} && std::regex_search(m.text, g, two) && g[1] == g[3] && g[2] == g[4];
}
// True when every WAW the validator reports is of that shape.
inline bool waw_same_access_only(const validate::ValidationResult& v) {
  bool any = false;
  for (const validate::Message& m : v.messages) {
    if (m.id != validate::MessageId{100003}) continue;
    if (!same_access_waw(m)) return false;
    any = true;
  }
  return any;
}

inline bool writes(const validate::Command& c, int r);

// The layer's write-after-write messages, each judged by `explained` (all texts are kept).
template <typename F>
bool every_layer_waw(const ValidationLog& log, F&& explained) {
  const auto n = log.counts.find("SYNC-HAZARD-WRITE-AFTER-WRITE");
  if (n == log.counts.end()) return false;
  uint32_t seen = 0;
  for (const auto& [id, text] : log.texts) {
    if (id != "SYNC-HAZARD-WRITE-AFTER-WRITE") continue;
    if (!explained(text)) return false;
    ++seen;
  }
  return seen == n->second;
}

// D4 (docs/replay.md): layer 1.3.239 (before Vulkan-ValidationLayers PR #6684) checks a layout transition
// against an earlier write other than a transition by the barrier's *own* source access scope only: a
// write made available by a dependency chain (an earlier barrier, a semaphore wait) is still a
// write-after-write, at record time and at submit time. True for a layer message that is such a
// transition hazard.
inline bool transition_own_scope_waw(const std::string& text) {
  const bool transition = text.find("recorded_usage: SYNC_IMAGE_LAYOUT_TRANSITION,") != std::string::npos ||
                          text.find("(usage: SYNC_IMAGE_LAYOUT_TRANSITION,") != std::string::npos;
  return transition && text.find("prior_usage: SYNC_IMAGE_LAYOUT_TRANSITION,") == std::string::npos;
}
inline bool transition_after_wait_only(const ValidationLog& log) {
  return every_layer_waw(log, transition_own_scope_waw);
}

// D11 (docs/replay.md): at submit time, layer 1.3.239 checks a command buffer's first write of a resource
// against the last write of earlier submissions even when a read of the command buffer before it is
// ordered before it (the reads stand in for the write: the layer's record-time rule, and later layers'
// submit-time one). True for a layer message that is a submit-time write-after-write of a write whose
// usage (SYNC_<stage>_<access>) is that of a write in `t` (secondaries inlined) on a resource that
// another list wrote, in a list that reads the resource first.
inline std::string sync_usage(uint64_t stage, uint64_t access) {
  const char* st = stage == 0x100000000ull ? "COPY" : stage == 0x800000000ull ? "CLEAR" : stage == 0x800 ? "COMPUTE_SHADER" : nullptr;
  const char* ac = access == 0x1000 ? "TRANSFER_WRITE" : access == 0x400000000ull ? "SHADER_STORAGE_WRITE" : nullptr;
  return st && ac ? std::string("SYNC_") + st + "_" + ac : std::string();
}
inline bool first_write_after_own_read_waw(const validate::Trace& t, const std::string& text) {
  if (text.find("vkQueueSubmit2") == std::string::npos) return false;
  const auto at = text.find("recorded_usage: ");
  if (at == std::string::npos) return false;
  const std::string usage = text.substr(at + 16, text.find(',', at) - at - 16);
  for (size_t li = 0; li < t.lists.size(); ++li) {
    const validate::TraceList& l = t.lists[li];
    for (size_t c = 0; c < l.commands.size(); ++c) {
      const auto* u = std::get_if<validate::UseCmd>(&l.commands[c]);
      if (!u || sync_usage(u->as.vk_stage, u->as.vk_access) != usage) continue;
      bool read_first = false, seen = false;
      for (size_t e = 0; e < c && !seen; ++e) {
        const auto* p = std::get_if<validate::UseCmd>(&l.commands[e]);
        const bool touches = (p && p->resource == u->resource) || writes(l.commands[e], u->resource);
        if (!touches) continue;
        seen = true;
        read_first = p && !writes(l.commands[e], u->resource);
      }
      bool written_elsewhere = false;
      for (size_t o = 0; o < t.lists.size(); ++o)
        if (o != li)
          for (const validate::Command& oc : t.lists[o].commands) written_elsewhere |= writes(oc, u->resource);
      if (read_first && written_elsewhere) return true;
    }
  }
  return false;
}

inline uint32_t kind_of(const validate::Message& m);

// The list a validator message names, and whether the earlier access it names ("(list 'X' command
// N)") is in another list.
inline std::vector<validate::TraceList>::const_iterator message_list(const validate::Trace& t,
                                                                    const validate::Message& m) {
  return std::find_if(t.lists.begin(), t.lists.end(), [&](const validate::TraceList& l) { return l.name == m.list; });
}
inline bool earlier_in_another_list(const validate::Trace& t, const validate::Message& m) {
  bool other = false;
  for (const validate::TraceList& l : t.lists)
    other |= l.name != m.list && m.text.find("(list '" + l.name + "' command") != std::string::npos;
  return other;
}

// Whether list `l` (with the secondaries it executes) accesses an image: a use or clear of one, a layout
// transition, or a render pass instance (its attachments).
inline bool accesses_an_image(const validate::Trace& t, const validate::TraceList& l) {
  const auto image = [&](int r) { return r >= 0 && !t.resources[static_cast<size_t>(r)].buffer; };
  for (const validate::Command& c : l.commands) {
    if (const auto* u = std::get_if<validate::UseCmd>(&c); u && image(u->resource)) return true;
    if (const auto* cl = std::get_if<validate::ClearCmd>(&c); cl && image(cl->resource)) return true;
    if (std::holds_alternative<validate::BeginRenderingCmd>(c)) return true;
    if (const auto* b = std::get_if<validate::BarrierCmd>(&c))
      for (const validate::Barrier& any : b->barriers)
        if (const auto* vb = std::get_if<validate::VkBarrier>(&any);
            vb && vb->kind == validate::VkBarrierKind::image && vb->old_layout != vb->new_layout)
          return true;
    if (const auto* ex = std::get_if<validate::ExecuteCmd>(&c))
      for (int s : ex->lists)
        if (accesses_an_image(t, t.lists[static_cast<size_t>(s)])) return true;
  }
  return false;
}

// D5 (docs/replay.md): at submit time, layer 1.3.239 does not report a hazard of a command buffer's
// access to a *buffer* against an earlier command buffer or submission when that command buffer also
// accesses an image (a use, or a barrier's layout transition; before or after the buffer access). True
// when every validator message of a kind only the validator has is on a buffer, names an access of
// another list, and its own list accesses an image (or is a write-after-write of D1's shape).
inline bool buffer_hazard_hidden_by_an_image(const validate::Trace& t, const validate::ValidationResult& v,
                                             uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (!extra || (extra & ~(kRaw | kWar | kWaw))) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra) || same_access_waw(m)) continue;  // (D1 in the same trace)
    const auto list = message_list(t, m);
    const auto res = std::find_if(t.resources.begin(), t.resources.end(),
                                  [&](const validate::TraceResource& r) { return r.name == m.resource; });
    if (list == t.lists.end() || res == t.resources.end() || !res->buffer) return false;
    if (!earlier_in_another_list(t, m) || !accesses_an_image(t, *list)) return false;
  }
  return true;
}

// Whether command `c` of list `l` writes resource `r` (a write or clear, or a barrier's layout transition of it).
inline bool writes(const validate::Command& c, int r) {
  // VK_ACCESS_2_*_WRITE bits: SHADER, COLOR_ATTACHMENT, DEPTH_STENCIL_ATTACHMENT, TRANSFER, HOST, MEMORY,
  // SHADER_STORAGE.
  constexpr uint64_t kWrites = 0x40 | 0x100 | 0x400 | 0x1000 | 0x4000 | 0x10000 | 0x400000000;
  if (const auto* u = std::get_if<validate::UseCmd>(&c)) return u->resource == r && (u->as.vk_access & kWrites) != 0;
  if (const auto* cl = std::get_if<validate::ClearCmd>(&c)) return cl->resource == r;
  if (const auto* b = std::get_if<validate::BarrierCmd>(&c))
    for (const validate::Barrier& any : b->barriers)
      if (const auto* vb = std::get_if<validate::VkBarrier>(&any);
          vb && vb->kind == validate::VkBarrierKind::image && vb->resource == r && vb->old_layout != vb->new_layout)
        return true;
  return false;
}

// D5, second form (docs/replay.md): at submit time, layer 1.3.239 does not check a command buffer's reads of
// a subresource against earlier submissions when the command buffer writes that subresource later (a
// write, or a layout transition): only the write is. `t` is the trace with secondaries inlined. True when
// every validator message of a kind only the validator has is a read-after-write on a read of a write of
// another list, and the read's own list writes the resource after it.
inline bool read_hidden_by_a_later_write(const validate::Trace& t, const validate::ValidationResult& v,
                                         uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (extra != kRaw) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    const auto list = message_list(t, m);
    if (list == t.lists.end() || m.command < 0 || !earlier_in_another_list(t, m)) return false;
    const auto res = std::find_if(t.resources.begin(), t.resources.end(),
                                  [&](const validate::TraceResource& r) { return r.name == m.resource; });
    if (res == t.resources.end()) return false;
    const int r = static_cast<int>(res - t.resources.begin());
    bool later = false;
    for (size_t c = static_cast<size_t>(m.command) + 1; c < list->commands.size(); ++c)
      later |= writes(list->commands[c], r);
    if (!later) return false;
  }
  return true;
}

// D12 (docs/replay.md): when a submitted command buffer's accesses join the queue's state, layer 1.3.239
// drops its reads of a resource whose last write came from an earlier command buffer (the command buffer
// wrote none of it), so a later write is not checked against those reads. `t` is the trace with
// secondaries inlined. True when every validator message of a kind only the validator has is a
// write-after-read against a read of another list that does not write the resource, which a list
// submitted before that one wrote.
inline bool read_dropped_at_submit(const validate::Trace& t, const validate::ValidationResult& v,
                                   uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (extra != kWar) return false;
  std::vector<int> order;  // lists in submission order
  for (const validate::TraceSubmission& s : t.submissions) order.insert(order.end(), s.lists.begin(), s.lists.end());
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    const auto res = std::find_if(t.resources.begin(), t.resources.end(),
                                  [&](const validate::TraceResource& r) { return r.name == m.resource; });
    if (res == t.resources.end()) return false;
    const int r = static_cast<int>(res - t.resources.begin());
    const auto writes_r = [&](int li) {
      const auto& cs = t.lists[static_cast<size_t>(li)].commands;
      return std::any_of(cs.begin(), cs.end(), [&](const validate::Command& c) { return writes(c, r); });
    };
    bool explained = false;
    for (size_t i = 0; i < order.size() && !explained; ++i) {
      const validate::TraceList& reader = t.lists[static_cast<size_t>(order[i])];
      if (reader.name == m.list || m.text.find(" may still read") == std::string::npos ||
          m.text.find("(list '" + reader.name + "' command") == std::string::npos ||
          m.text.find("(list '" + reader.name + "' command") < m.text.find(" writes while "))
        continue;
      if (writes_r(order[i])) return false;
      for (size_t j = 0; j < i && !explained; ++j) explained = writes_r(order[j]);
    }
    if (!explained) return false;
  }
  return true;
}

// D7 (docs/replay.md), with a wait on ALL_COMMANDS: layer 1.3.239 chains a barrier's first scope of
// TOP_OF_PIPE with a semaphore wait's second scope of ALL_COMMANDS (or TOP_OF_PIPE), so a layout
// transition with srcStageMask TOP_OF_PIPE after such a wait is ordered after the waited reads;
// synchronization2 makes TOP_OF_PIPE in a first scope NONE, so nothing chains and the transition races
// them. `t` is the trace with secondaries inlined. True when every validator message of a kind only the
// validator has is a write-after-read of a layout transition whose barrier names the resource with
// srcStageMask TOP_OF_PIPE, against a read of another list, in a submission that waits on ALL_COMMANDS
// or TOP_OF_PIPE.
inline bool top_of_pipe_transition_after_wait(const validate::Trace& t, const validate::ValidationResult& v,
                                              uint32_t layer_kinds) {
  constexpr uint64_t kTopOfPipe = 0x1, kAllCommands = 0x10000;
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (extra != kWar) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    const auto list = message_list(t, m);
    if (list == t.lists.end() || m.command < 0 || !earlier_in_another_list(t, m)) return false;
    const std::string me = ": a layout transition (list '" + m.list + "' command " + std::to_string(m.command) + ")";
    if (m.text.find(me) == std::string::npos) return false;
    const auto* b = std::get_if<validate::BarrierCmd>(&list->commands[static_cast<size_t>(m.command)]);
    if (!b) return false;
    bool top = false;
    for (const validate::Barrier& any : b->barriers)
      if (const auto* vb = std::get_if<validate::VkBarrier>(&any);
          vb && vb->kind == validate::VkBarrierKind::image && vb->old_layout != vb->new_layout &&
          t.resources[static_cast<size_t>(vb->resource)].name == m.resource)
        top |= vb->src_stage == kTopOfPipe;
    if (!top) return false;
    const int li = static_cast<int>(list - t.lists.begin());
    bool waits = false;
    for (const validate::TraceSubmission& s : t.submissions)
      if (std::find(s.lists.begin(), s.lists.end(), li) != s.lists.end())
        for (size_t w = 0; w < s.wait.size(); ++w)
          waits |= (s.wait_stage_of(w) & (kAllCommands | kTopOfPipe)) != 0;
    if (!waits) return false;
  }
  return true;
}

// D8 (docs/replay.md): at submit time, layer 1.3.239 checks only a command buffer's first read of a
// resource against earlier submissions. True when every validator message of a kind only the
// validator has is a read-after-write of a write in another list, on a read that an earlier read of
// the same resource in its own list precedes (with no write of it in between).
inline bool later_read_at_submit(const validate::Trace& t, const validate::ValidationResult& v,
                                 uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (extra != kRaw) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    const auto list = message_list(t, m);
    if (list == t.lists.end() || m.command < 0) return false;
    const bool other = earlier_in_another_list(t, m);
    bool earlier_read = false;
    for (size_t c = 0; c < static_cast<size_t>(m.command); ++c) {
      const auto* u = std::get_if<validate::UseCmd>(&list->commands[c]);
      if (!u || t.resources[static_cast<size_t>(u->resource)].name != m.resource) continue;
      // VK_ACCESS_2_*_WRITE bits: SHADER, COLOR_ATTACHMENT, DEPTH_STENCIL_ATTACHMENT, TRANSFER, HOST,
      // MEMORY, SHADER_STORAGE.
      constexpr uint64_t kWrites = 0x40 | 0x100 | 0x400 | 0x1000 | 0x4000 | 0x10000 | 0x400000000;
      earlier_read = (u->as.vk_access & kWrites) == 0;
    }
    if (!other || !earlier_read) return false;
  }
  return true;
}

inline uint32_t kind_of(const validate::Message& m) {
  validate::ValidationResult one;
  one.counts[static_cast<uint32_t>(m.id)] = 1;
  return kinds_of(one);
}

// D3 (docs/replay.md): the layer reports one hazard per command and resource, so a command with
// different hazards on different subresources shows one kind. True when every validator message of
// a kind only the validator has sits on a (list, command, resource) where the validator also has a
// message of a kind the layer reported, or is a write-after-write of D1's shape.
inline bool one_hazard_per_command(const validate::ValidationResult& v, uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (!extra || (extra & ~(kRaw | kWar | kWaw))) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    bool covered = same_access_waw(m);  // D1 in the same trace
    for (const validate::Message& o : v.messages)
      covered |= &o != &m && o.list == m.list && o.command == m.command && o.resource == m.resource &&
                 (kind_of(o) & layer_kinds & (kRaw | kWar | kWaw));
    if (!covered) return false;
  }
  return true;
}

}  // namespace baton::exec::test
