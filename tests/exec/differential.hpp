// The differential comparison of docs/replay.md: per trace, which kinds of problem Baton's
// validator reports and which the Khronos layer reports when the trace is played.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
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
             id == "VUID-VkPresentInfoKHR-pImageIndices-01430" ||
             id == "VUID-VkPresentInfoKHR-pImageIndices-01296")
      k |= kLayout;  // 02699: "see previous error"; 00001: an executed secondary's image in another layout;
                     // 01430: a present outside PRESENT_SRC_KHR (01296: its former id, layer 1.3.239's)
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

inline bool writes(const validate::Command& c, int r);

// True when the layer reported `which` and every such message is `explained` (all texts are kept).
template <typename F>
bool every_layer(const ValidationLog& log, const std::string& which, F&& explained) {
  const auto n = log.counts.find(which);
  if (n == log.counts.end()) return false;
  uint32_t seen = 0;
  for (const auto& [id, text] : log.texts) {
    if (id != which) continue;
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

// D14 (docs/replay.md): layer 1.3.239 leaves a layout transition whose barrier has dstStageMask NONE out of
// a later semaphore signal's first scope, so a command ordered after the transition only through that
// signal's wait races it (seed 13104 of the multi-submission run with rendering: a submit-time
// write-after-write of a copy against the transition). True for a layer message that is a vkQueueSubmit2
// hazard against a prior layout transition, in a trace where a list of a signalling submission has an
// image barrier that changes the layout with dst_stage NONE.
inline bool transition_with_no_stage_before_signal(const validate::Trace& t, const std::string& text) {
  if (text.find("vkQueueSubmit2") == std::string::npos ||
      text.find("prior_usage: SYNC_IMAGE_LAYOUT_TRANSITION") == std::string::npos)
    return false;
  for (const validate::TraceSubmission& s : t.submissions) {
    if (s.signal.empty()) continue;
    for (int li : s.lists)
      for (const validate::Command& c : t.lists[static_cast<size_t>(li)].commands)
        if (const auto* b = std::get_if<validate::BarrierCmd>(&c))
          for (const validate::Barrier& any : b->barriers)
            if (const auto* vb = std::get_if<validate::VkBarrier>(&any))
              if (vb->kind == validate::VkBarrierKind::image && vb->dst_stage == 0 && vb->old_layout != vb->new_layout)
                return true;
  }
  return false;
}

// D11 (docs/replay.md): at submit time, layer 1.3.239 checks a command buffer's first write of a resource
// against the last write of earlier submissions even when a read of the command buffer before it is
// ordered before it (the reads stand in for the write: the layer's record-time rule, and later layers'
// submit-time one). True for a layer message that is a submit-time write-after-write of a write whose
// usage (SYNC_<stage>_<access>) is that of a write in `t` (secondaries inlined) on a resource that
// another list wrote, in a list that reads the resource first.
inline std::string sync_usage(uint64_t stage, uint64_t access) {
  const char* st = stage == 0x100000000ull ? "COPY" : stage == 0x800000000ull ? "CLEAR" : stage == 0x800 ? "COMPUTE_SHADER" : nullptr;
  const char* ac = access == 0x1000          ? "TRANSFER_WRITE"
                   : access == 0x400000000ull ? "SHADER_STORAGE_WRITE"
                   : access == 0x800          ? "TRANSFER_READ"
                   : access == 0x200000000ull ? "SHADER_STORAGE_READ"
                   : access == 0x100000000ull ? "SHADER_SAMPLED_READ"
                                              : nullptr;
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

// D12, layer side: a command buffer's reads dropped at submit (D12 below) also leave a later read of the
// resource in a later command buffer without the earlier read the read-after-read rule orders it after,
// so the layer checks it against the write again (seed 18590 of the multi-submission run). True for a
// layer message that is a submit-time read-after-write of a read whose usage is that of a read in `t`
// (secondaries inlined), the first access of the resource in its list, after a list that read the resource
// without writing it, after a list that wrote it.
inline bool later_read_after_dropped_reads_raw(const validate::Trace& t, const std::string& text) {
  if (text.find("vkQueueSubmit2") == std::string::npos) return false;
  const auto at = text.find("recorded_usage: ");
  if (at == std::string::npos) return false;
  const std::string usage = text.substr(at + 16, text.find(',', at) - at - 16);
  std::vector<int> order;  // lists in submission order
  for (const validate::TraceSubmission& s : t.submissions) order.insert(order.end(), s.lists.begin(), s.lists.end());
  const auto touches = [&](int li, int r, bool write) {
    for (const validate::Command& c : t.lists[static_cast<size_t>(li)].commands) {
      const auto* u = std::get_if<validate::UseCmd>(&c);
      if (write ? writes(c, r) : (u && u->resource == r && !writes(c, r))) return true;
    }
    return false;
  };
  for (size_t i = 0; i < order.size(); ++i) {
    const auto& cmds = t.lists[static_cast<size_t>(order[i])].commands;
    for (size_t c = 0; c < cmds.size(); ++c) {
      const auto* u = std::get_if<validate::UseCmd>(&cmds[c]);
      if (!u || writes(cmds[c], u->resource) || sync_usage(u->as.vk_stage, u->as.vk_access) != usage) continue;
      bool first = true;
      for (size_t e = 0; e < c; ++e) {
        const auto* p = std::get_if<validate::UseCmd>(&cmds[e]);
        first = first && !(p && p->resource == u->resource) && !writes(cmds[e], u->resource);
      }
      if (!first) continue;
      for (size_t j = 0; j < i; ++j) {
        if (!touches(order[j], u->resource, false) || touches(order[j], u->resource, true)) continue;
        for (size_t k = 0; k < j; ++k)
          if (touches(order[k], u->resource, true)) return true;
      }
    }
  }
  return false;
}

inline uint32_t kind_of(const validate::Message& m) {
  validate::ValidationResult one;
  one.counts[static_cast<uint32_t>(m.id)] = 1;
  return kinds_of(one);
}

// D16, layer side: at submit time, after a command accessed one subresource of an image with several mips
// and layers, an access after a whole-image layout transition of the same command buffer is checked
// against the earlier submissions' accesses as if the transition were not its last write (seeds 3908 and
// 9908 of the submission-sync run: a layer-only read-after-write, write-after-read). True for a layer
// message that is a submit-time hazard whose recorded_usage is that of a use in `t` (secondaries inlined)
// of such an image, after, in its list, a layout transition of the whole image, after a use of one
// subresource of it; and the validator reports a write-after-write on the image in that list (the race
// of the transition, or against it).
inline bool access_after_a_whole_transition_at_submit(const validate::Trace& t, const validate::ValidationResult& v,
                                                      const std::string& text) {
  if (text.find("vkQueueSubmit2") == std::string::npos) return false;
  const auto at = text.find("recorded_usage: ");
  if (at == std::string::npos) return false;
  const std::string usage = text.substr(at + 16, text.find(',', at) - at - 16);
  for (const validate::TraceList& l : t.lists) {
    for (size_t c = 0; c < l.commands.size(); ++c) {
      const auto* u = std::get_if<validate::UseCmd>(&l.commands[c]);
      if (!u || sync_usage(u->as.vk_stage, u->as.vk_access) != usage) continue;
      const validate::TraceResource& res = t.resources[static_cast<size_t>(u->resource)];
      if (res.buffer || res.mips < 2 || res.layers < 2) continue;
      bool transition = false, one_before = false;
      for (size_t e = c; e-- > 0;) {
        if (const auto* b = std::get_if<validate::BarrierCmd>(&l.commands[e]); b && !transition) {
          for (const validate::Barrier& any : b->barriers)
            if (const auto* vb = std::get_if<validate::VkBarrier>(&any);
                vb && vb->kind == validate::VkBarrierKind::image && vb->resource == u->resource &&
                vb->old_layout != vb->new_layout && vb->range.all)
              transition = true;
        } else if (const auto* p = std::get_if<validate::UseCmd>(&l.commands[e]);
                   p && transition && p->resource == u->resource && p->subresources.index >= 0) {
          one_before = true;
        }
      }
      const bool waw = std::any_of(v.messages.begin(), v.messages.end(), [&](const validate::Message& m) {
        return m.list == l.name && m.resource == res.name && kind_of(m) == kWaw;
      });
      if (transition && one_before && waw) return true;
    }
  }
  return false;
}

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
inline int resource_index(const validate::Trace& t, const std::string& name) {
  const auto r = std::find_if(t.resources.begin(), t.resources.end(),
                              [&](const validate::TraceResource& x) { return x.name == name; });
  return r == t.resources.end() ? -1 : static_cast<int>(r - t.resources.begin());
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

// Whether command `c` writes resource `r` (a write or clear, or a barrier's layout transition of it).
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

// Each explanation below judges one validator message of a kind the layer did not report (in trace `t`,
// secondaries inlined; `layer_kinds`: the layer's kinds). docs/replay.md has each D-item's cause and test.

// D3: the layer reports one hazard per command and resource: a command with different hazards on one
// subresource (a write after an unordered read and an unordered write: the layer checks the last write
// only when no read came since) or on different subresources shows one kind. The message sits on a (list,
// command, resource) where the validator also has a message of a kind the layer reported.
inline bool d3_one_hazard_per_command(const validate::ValidationResult& v, const validate::Message& m,
                                      uint32_t layer_kinds) {
  for (const validate::Message& o : v.messages)
    if (&o != &m && o.list == m.list && o.command == m.command && o.resource == m.resource &&
        (kind_of(o) & layer_kinds & (kRaw | kWar | kWaw)))
      return true;
  return false;
}

// D5: at submit time, the layer does not report a hazard of a command buffer's access to a *buffer*
// against an earlier command buffer when that command buffer also accesses an image (before or after).
inline bool d5_buffer_hazard_hidden_by_an_image(const validate::Trace& t, const validate::Message& m) {
  const auto list = message_list(t, m);
  const int r = resource_index(t, m.resource);
  return list != t.lists.end() && r >= 0 && t.resources[static_cast<size_t>(r)].buffer &&
         earlier_in_another_list(t, m) && accesses_an_image(t, *list);
}

// D5, second form: at submit time, the layer does not check a command buffer's reads of a resource
// against earlier command buffers when the command buffer writes it later (a write, or a layout
// transition): a read-after-write on a write of another list, with a write of the resource after it in
// its own list.
inline bool d5_read_hidden_by_a_later_write(const validate::Trace& t, const validate::Message& m) {
  const auto list = message_list(t, m);
  const int r = resource_index(t, m.resource);
  if (kind_of(m) != kRaw || list == t.lists.end() || r < 0 || m.command < 0 || !earlier_in_another_list(t, m))
    return false;
  for (size_t c = static_cast<size_t>(m.command) + 1; c < list->commands.size(); ++c)
    if (writes(list->commands[c], r)) return true;
  return false;
}

// D7, with a wait on ALL_COMMANDS: the layer chains a barrier's first scope of TOP_OF_PIPE with a
// semaphore wait's second scope of ALL_COMMANDS (or TOP_OF_PIPE); synchronization2 makes TOP_OF_PIPE in a
// first scope NONE, so nothing chains and the layout transition races the waited reads. A write-after-read
// of a layout transition whose barrier names the resource with srcStageMask TOP_OF_PIPE, against a read
// of another list, in a submission that waits on ALL_COMMANDS or TOP_OF_PIPE.
inline bool d7_top_of_pipe_transition_after_wait(const validate::Trace& t, const validate::Message& m) {
  constexpr uint64_t kTopOfPipe = 0x1, kAllCommands = 0x10000;
  const auto list = message_list(t, m);
  if (kind_of(m) != kWar || list == t.lists.end() || m.command < 0 || !earlier_in_another_list(t, m)) return false;
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
  for (const validate::TraceSubmission& s : t.submissions)
    if (std::find(s.lists.begin(), s.lists.end(), li) != s.lists.end())
      for (size_t w = 0; w < s.wait.size(); ++w)
        if ((s.wait_stage_of(w) & (kAllCommands | kTopOfPipe)) != 0) return true;
  return false;
}

// D7, a wait's second scope: the layer chains a semaphore wait on BOTTOM_OF_PIPE (NONE in a second scope
// under synchronization2) with a later barrier whose first scope holds BOTTOM_OF_PIPE or ALL_COMMANDS
// (seed 8022 of the submission-sync run). A read-after-write of another list's write, in a submission
// that waits on BOTTOM_OF_PIPE, with such a barrier before the read in its list that names the resource
// (or all memory) and whose second scope holds the read.
inline bool d7_bottom_of_pipe_wait_chains(const validate::Trace& t, const validate::Message& m) {
  constexpr uint64_t kBottomOfPipe = 0x2000, kAllCommands = 0x10000;
  const auto list = message_list(t, m);
  const int r = resource_index(t, m.resource);
  if (kind_of(m) != kRaw || list == t.lists.end() || r < 0 || m.command < 0 || !earlier_in_another_list(t, m))
    return false;
  const auto* read = std::get_if<validate::UseCmd>(&list->commands[static_cast<size_t>(m.command)]);
  if (!read) return false;
  const int li = static_cast<int>(list - t.lists.begin());
  bool waits_on_bottom = false;
  for (const validate::TraceSubmission& s : t.submissions)
    if (std::find(s.lists.begin(), s.lists.end(), li) != s.lists.end())
      for (size_t w = 0; w < s.wait.size(); ++w) waits_on_bottom |= (s.wait_stage_of(w) & kBottomOfPipe) != 0;
  if (!waits_on_bottom) return false;
  for (size_t c = 0; c < static_cast<size_t>(m.command); ++c)
    if (const auto* b = std::get_if<validate::BarrierCmd>(&list->commands[c]))
      for (const validate::Barrier& any : b->barriers)
        if (const auto* vb = std::get_if<validate::VkBarrier>(&any);
            vb && (vb->kind == validate::VkBarrierKind::memory || vb->resource == r) &&
            (vb->src_stage & (kBottomOfPipe | kAllCommands)) != 0 &&
            (vb->dst_stage & (read->as.vk_stage | kAllCommands)) != 0)
          return true;
  return false;
}

// D15: after a command accessed one subresource of an image with several layers, the layer does not
// record a later whole-image copy or clear write on the image's other subresources, so hazards against
// that write there go unreported (seeds 7235 and 3104 of the submission-sync run). A read-after-write or
// write-after-write against a write of the whole image (every subresource) at COPY or CLEAR, on an image
// with several layers, where an earlier command of the writing list used another single subresource of it.
inline bool d15_whole_image_write_after_a_layer_access(const validate::Trace& t, const validate::Message& m) {
  static const std::regex earlier(R"(what [A-Z_|]+ at [A-Z_|]+ \(list '([^']*)' command (\d+)\) wrote)");
  const int r = resource_index(t, m.resource);
  std::smatch g;
  if (!(kind_of(m) & (kRaw | kWaw)) || r < 0 || m.subresource < 0 || t.resources[static_cast<size_t>(r)].buffer ||
      t.resources[static_cast<size_t>(r)].layers < 2 || !std::regex_search(m.text, g, earlier))
    return false;
  const auto list = std::find_if(t.lists.begin(), t.lists.end(),
                                 [&](const validate::TraceList& l) { return l.name == g[1].str(); });
  const size_t w = std::stoul(g[2]);
  if (list == t.lists.end() || w >= list->commands.size()) return false;
  const auto* write = std::get_if<validate::UseCmd>(&list->commands[w]);
  constexpr uint64_t kCopy = 0x100000000ull, kClear = 0x800000000ull;
  if (!write || write->resource != r || (write->as.vk_stage != kCopy && write->as.vk_stage != kClear) ||
      !writes(list->commands[w], r) || write->subresources.index != validate::kAllSubresources ||
      !write->subresources.range.all)
    return false;
  for (size_t c = 0; c < w; ++c)
    if (const auto* u = std::get_if<validate::UseCmd>(&list->commands[c]);
        u && u->resource == r && u->subresources.index >= 0 && u->subresources.index != m.subresource)
      return true;
  return false;
}

// D8: at submit time, the layer checks only a command buffer's first read of a resource against earlier
// command buffers: a read-after-write of a write in another list, on a read that an earlier read of the
// same resource in its own list precedes (with no write of it in between).
inline bool d8_later_read_at_submit(const validate::Trace& t, const validate::Message& m) {
  const auto list = message_list(t, m);
  const int r = resource_index(t, m.resource);
  if (kind_of(m) != kRaw || list == t.lists.end() || r < 0 || m.command < 0 || !earlier_in_another_list(t, m))
    return false;
  bool earlier_read = false;
  for (size_t c = 0; c < static_cast<size_t>(m.command); ++c) {
    const auto* u = std::get_if<validate::UseCmd>(&list->commands[c]);
    if (!u || u->resource != r) continue;
    earlier_read = !writes(list->commands[c], r);
  }
  return earlier_read;
}

// D12: when a submitted command buffer's accesses join the queue's state, the layer drops its reads of a
// resource whose last write came from an earlier command buffer (the command buffer wrote none of it), so
// a later write is not checked against them: a write-after-read against a read of another list that does
// not write the resource, which a list submitted before it wrote.
inline bool d12_read_dropped_at_submit(const validate::Trace& t, const validate::Message& m) {
  const int r = resource_index(t, m.resource);
  const auto by = m.text.find(" may still read");
  if (kind_of(m) != kWar || r < 0 || by == std::string::npos) return false;
  std::vector<int> order;  // lists in submission order
  for (const validate::TraceSubmission& s : t.submissions) order.insert(order.end(), s.lists.begin(), s.lists.end());
  const auto writes_r = [&](int li) {
    const auto& cs = t.lists[static_cast<size_t>(li)].commands;
    return std::any_of(cs.begin(), cs.end(), [&](const validate::Command& c) { return writes(c, r); });
  };
  for (size_t i = 0; i < order.size(); ++i) {
    const validate::TraceList& reader = t.lists[static_cast<size_t>(order[i])];
    const auto at = m.text.find("(list '" + reader.name + "' command");
    if (reader.name == m.list || at == std::string::npos || at > by || at < m.text.find(" writes while "))
      continue;
    if (writes_r(order[i])) return false;
    for (size_t j = 0; j < i; ++j)
      if (writes_r(order[j])) return true;
  }
  return false;
}

// D13: at submit time, the layer reports one hazard per command buffer and range between its barriers
// (the first it finds): a message against another list's access, in a list where another validator
// message of a kind the layer reported, also against another list, lies in the same range, and the layer
// did report a hazard at submit time.
inline bool d13_one_hazard_per_range_at_submit(const validate::Trace& t, const validate::ValidationResult& v,
                                               const validate::Message& m, uint32_t layer_kinds,
                                               const ValidationLog& log) {
  const auto list = message_list(t, m);
  if (list == t.lists.end() || m.command < 0 || !earlier_in_another_list(t, m)) return false;
  const bool at_submit = std::any_of(log.texts.begin(), log.texts.end(), [](const auto& x) {
    return x.first.rfind("SYNC-HAZARD-", 0) == 0 && x.second.find("vkQueueSubmit2") != std::string::npos;
  });
  if (!at_submit) return false;
  for (const validate::Message& o : v.messages) {
    if (&o == &m || o.list != m.list || o.command < 0 || !(kind_of(o) & layer_kinds & (kRaw | kWar | kWaw)) ||
        !earlier_in_another_list(t, o))
      continue;
    bool barrier_between = false;
    for (int c = std::min(o.command, m.command) + 1; c < std::max(o.command, m.command); ++c)
      barrier_between |= std::holds_alternative<validate::BarrierCmd>(list->commands[static_cast<size_t>(c)]);
    if (!barrier_between) return true;
  }
  return false;
}

// The documented differences that explain every validator message of a kind not in `layer_kinds`, each
// message by one of them ("D3+D5" when it takes two), or "" when one message has none.
inline std::string validator_only_explained(const validate::Trace& t, const validate::ValidationResult& v,
                                            uint32_t layer_kinds, const ValidationLog& log) {
  const uint32_t extra = kinds_of(v) & ~layer_kinds;
  if (!extra || (extra & ~(kRaw | kWar | kWaw))) return "";
  std::map<std::string, int> names;
  for (const validate::Message& m : v.messages) {
    if (!(kind_of(m) & extra)) continue;
    const char* d = same_access_waw(m)                                        ? "D1"
                    : d3_one_hazard_per_command(v, m, layer_kinds)             ? "D3"
                    : d5_buffer_hazard_hidden_by_an_image(t, m)                ? "D5"
                    : d5_read_hidden_by_a_later_write(t, m)                    ? "D5"
                    : d7_top_of_pipe_transition_after_wait(t, m)               ? "D7"
                    : d7_bottom_of_pipe_wait_chains(t, m)                      ? "D7"
                    : d8_later_read_at_submit(t, m)                            ? "D8"
                    : d12_read_dropped_at_submit(t, m)                         ? "D12"
                    : d15_whole_image_write_after_a_layer_access(t, m)         ? "D15"
                    : d13_one_hazard_per_range_at_submit(t, v, m, layer_kinds, log) ? "D13"
                                                                               : nullptr;
    if (!d) return "";
    names[d] = 1;
  }
  std::string out;
  for (const auto& [n, one] : names) out += (out.empty() ? "" : "+") + n;
  return out;
}

}  // namespace baton::exec::test
