// The layer's messages: counting them by id, and recognizing layer 1.3.239's RACING report against an
// access of the submitting queue itself (docs/executor.md, "The layer's same-queue RACING report").
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "baton/exec_vulkan.hpp"

namespace baton::exec {
namespace {

constexpr size_t kTextsPerId = 3;

// The "0x..." token at `at` (lower-cased), or empty when there is none.
std::string hex_at(std::string_view text, size_t at) {
  if (at == std::string_view::npos || at + 2 > text.size() || text.substr(at, 2) != "0x") return {};
  size_t end = at + 2;
  while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end == at + 2) return {};
  std::string h(text.substr(at, end - at));
  std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return h;
}

// The debug name the layer prints after the first "VkCommandBuffer 0x...[" in `part` ("" if none).
std::string command_buffer_name(std::string_view part) {
  const size_t at = part.find("VkCommandBuffer ");
  if (at == std::string_view::npos) return {};
  const size_t open = part.find('[', at), close = part.find(']', at);
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {};
  return std::string(part.substr(open + 1, close - open - 1));
}

}  // namespace

std::optional<std::string> same_queue_racing(std::string_view id, std::string_view text) {
  constexpr std::array<std::string_view, 3> kRacing = {"SYNC-HAZARD-READ-RACING-WRITE", "SYNC-HAZARD-WRITE-RACING-WRITE",
                                                       "SYNC-HAZARD-WRITE-RACING-READ"};
  if (std::find(kRacing.begin(), kRacing.end(), id) == kRacing.end()) return std::nullopt;
  // Found at submission (queue submit-time validation), against the batch's recorded commands.
  const size_t submit = text.find("vkQueueSubmit");
  const size_t recorded = text.find("Recorded access info (");
  if (submit == std::string_view::npos || recorded == std::string_view::npos || recorded < submit) return std::nullopt;
  // The submitting queue: the message's object 0.
  constexpr std::string_view kObject = "Object 0: handle = ";
  const size_t object = text.find(kObject);
  if (object == std::string_view::npos || object > submit) return std::nullopt;
  const std::string queue = hex_at(text, object + kObject.size());
  if (queue.empty() || text.find("type = VK_OBJECT_TYPE_QUEUE", object) > submit) return std::nullopt;
  // The prior access: the "Access info (...)" that follows the recorded one, with the queue and batch
  // the layer logged it in.
  const size_t access = text.find(". Access info (", recorded);
  if (access == std::string_view::npos) return std::nullopt;
  const std::string_view prior = text.substr(access);
  constexpr std::string_view kQueue = "VkQueue ";
  const size_t q = prior.find(kQueue);
  if (q == std::string_view::npos) return std::nullopt;
  const std::string prior_queue = hex_at(prior, q + kQueue.size());
  if (prior_queue.empty() || prior_queue != queue) return std::nullopt;
  const std::string hazard_cb = command_buffer_name(text.substr(submit, recorded - submit));
  const std::string prior_cb = command_buffer_name(prior);
  return fmt::format(
      "the prior access{} is on the submitting queue itself (VkQueue {}), which orders it before {} by submission "
      "order and the plan's barriers: layer 1.3.239 checks the other queue's last batch as unsynchronized work, and "
      "that batch holds this queue's accesses it imported through a semaphore wait",
      prior_cb.empty() ? "" : " (" + prior_cb + ")", queue, hazard_cb.empty() ? "the submission" : hazard_cb);
}

void ValidationLog::add(const std::string& id, const std::string& text) {
  const uint32_t n = ++counts[id];
  if (n <= kTextsPerId) texts.emplace_back(id, text);
  if (std::optional<std::string> why = exec::same_queue_racing(id, text)) {
    ++same_queue_racing;
    if (same_queue_racing_texts.size() < kTextsPerId) same_queue_racing_texts.emplace_back(text, std::move(*why));
  }
}

Excused excusable_messages(const ValidationLog& log, size_t mismatches, const std::function<size_t()>& batons_validator) {
  Excused e;
  if (log.same_queue_racing == 0 || mismatches != 0) return e;
  e.checked = true;
  e.batons_validator_messages = batons_validator();
  if (e.batons_validator_messages == 0) e.messages = log.same_queue_racing;
  return e;
}

}  // namespace baton::exec
