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

// present: the hazards of the presentation engine's accesses (SYNC-HAZARD-*-AFTER-PRESENT,
// SYNC-HAZARD-PRESENT-AFTER-*: swapchain acquire and present).
enum Kind : uint32_t { kRaw = 1, kWar = 2, kWaw = 4, kLayout = 8, kOther = 16, kPresent = 32 };
inline constexpr const char* kKindNames[] = {"RAW", "WAR", "WAW", "layout", "other", "present"};
inline constexpr int kKinds = 6;

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
    else if (id >= 100004 && id <= 100007)
      k |= kPresent;
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
    else if (id == "SYNC-HAZARD-WRITE-AFTER-PRESENT" || id == "SYNC-HAZARD-READ-AFTER-PRESENT" ||
             id == "SYNC-HAZARD-PRESENT-AFTER-WRITE" || id == "SYNC-HAZARD-PRESENT-AFTER-READ")
      k |= kPresent;
    else if (is_layout_id(id) || id == "VUID-vkCmdDispatch-None-02699" ||
             id == "UNASSIGNED-vkCmdExecuteCommands-commandBuffer-00001" ||
             id == "VUID-VkPresentInfoKHR-pImageIndices-01430")
      k |= kLayout;  // 02699: "see previous error"; 00001: an executed secondary's image in another layout;
                     // 01430: a present outside PRESENT_SRC_KHR
    else
      k |= kOther;
  }
  return k;
}

// D1 (docs/replay.md): a write-after-write between two writes of the same access at the same stage
// (two dispatches writing one storage resource), which layer 1.3.239 does not report. True when
// every WAW the validator reports is of that shape.
inline bool waw_same_access_only(const validate::ValidationResult& v) {
  static const std::regex two(
      R"(: ([A-Z_|]+) at ([A-Z_|]+) \(list '[^']*' command \d+\) writes over what ([A-Z_|]+) at ([A-Z_|]+) \()");
  bool any = false;
  for (const validate::Message& m : v.messages) {
    if (m.id != validate::MessageId{100003}) continue;
    std::smatch g;
    if (!std::regex_search(m.text, g, two) || g[1] != g[3] || g[2] != g[4]) return false;
    any = true;
  }
  return any;
}

// D4 (docs/replay.md): at submit time, layer 1.3.239 reports a write-after-write for a layout
// transition after a semaphore wait unless the barrier's own source access scope holds the earlier
// write (the semaphore's memory dependency is not applied to it). True when every WAW the layer
// reports is such a submit-time transition (all their texts kept).
inline bool transition_after_wait_only(const ValidationLog& log) {
  const auto n = log.counts.find("SYNC-HAZARD-WRITE-AFTER-WRITE");
  if (n == log.counts.end()) return false;
  uint32_t seen = 0;
  for (const auto& [id, text] : log.texts) {
    if (id != "SYNC-HAZARD-WRITE-AFTER-WRITE") continue;
    if (text.find("vkQueueSubmit2") == std::string::npos ||
        text.find("recorded_usage: SYNC_IMAGE_LAYOUT_TRANSITION") == std::string::npos)
      return false;
    ++seen;
  }
  return seen == n->second;
}

// D11 (docs/replay.md): layer 1.3.239 judges a layout transition against the last write by the barrier's
// own source access scope, not through an earlier barrier's dependency chain: a transition with source
// stage COMPUTE_SHADER and no source access after a barrier COMPUTE_SHADER / SHADER_STORAGE_WRITE ->
// COMPUTE_SHADER is its write-after-write. True when every WAW the layer reports is a vkCmdPipelineBarrier2
// hazard of a layout transition (all their texts kept).
inline bool barrier_transition_waw_only(const ValidationLog& log) {
  const auto n = log.counts.find("SYNC-HAZARD-WRITE-AFTER-WRITE");
  if (n == log.counts.end()) return false;
  uint32_t seen = 0;
  for (const auto& [id, text] : log.texts) {
    if (id != "SYNC-HAZARD-WRITE-AFTER-WRITE") continue;
    if (text.find("vkCmdPipelineBarrier2") == std::string::npos ||
        text.find("usage: SYNC_IMAGE_LAYOUT_TRANSITION") == std::string::npos)
      return false;
    ++seen;
  }
  return seen == n->second;
}

inline uint32_t kind_of(const validate::Message& m);

// D9 (docs/replay.md): layer 1.3.239 records no access for dynamic rendering's load and store
// operations, nor checks an attachment's layout against the image's. The trace as the layer sees it:
// without its begin_rendering / end_rendering commands.
inline bool has_rendering(const validate::Trace& t) {
  for (const validate::TraceList& l : t.lists)
    for (const validate::Command& c : l.commands)
      if (std::holds_alternative<validate::BeginRenderingCmd>(c)) return true;
  return false;
}
inline validate::Trace without_rendering(const validate::Trace& trace) {
  validate::Trace t = trace;
  for (validate::TraceList& l : t.lists)
    std::erase_if(l.commands, [](const validate::Command& c) {
      return std::holds_alternative<validate::BeginRenderingCmd>(c) ||
             std::holds_alternative<validate::EndRenderingCmd>(c);
    });
  return t;
}

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

// D5 (docs/replay.md): at submit time, layer 1.3.239 does not report a hazard of a command against an
// earlier submission when a later barrier of the same command buffer has a layout transition (of
// any image). True when every validator message of a kind only the validator has names an access
// of another list (an earlier submission) and its own list has such a transition after it.
inline bool hidden_by_later_transition(const validate::Trace& t, const validate::ValidationResult& v,
                                       uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (!extra || (extra & ~(kRaw | kWar | kWaw))) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    const auto list = message_list(t, m);
    if (list == t.lists.end() || m.command < 0) return false;
    const bool other = earlier_in_another_list(t, m);
    bool later_transition = false;
    for (size_t c = static_cast<size_t>(m.command) + 1; c < list->commands.size(); ++c)
      if (const auto* b = std::get_if<validate::BarrierCmd>(&list->commands[c]))
        for (const validate::Barrier& any : b->barriers)
          if (const auto* vb = std::get_if<validate::VkBarrier>(&any))
            later_transition |=
                vb->kind == validate::VkBarrierKind::image && vb->old_layout != vb->new_layout;
    if (!other || !later_transition) return false;
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
// message of a kind the layer reported.
inline bool one_hazard_per_command(const validate::ValidationResult& v, uint32_t layer_kinds) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (!extra || (extra & ~(kRaw | kWar | kWaw))) return false;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    bool covered = false;
    for (const validate::Message& o : v.messages)
      covered |= &o != &m && o.list == m.list && o.command == m.command && o.resource == m.resource &&
                 (kind_of(o) & layer_kinds & (kRaw | kWar | kWaw));
    if (!covered) return false;
  }
  return true;
}

}  // namespace baton::exec::test
