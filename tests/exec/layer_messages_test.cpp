// exec::same_queue_racing and ValidationLog::add: recognizing layer 1.3.239's RACING report against the
// submitting queue's own access (docs/executor.md, "The layer's same-queue RACING report"), and what
// `baton run` may excuse.
#include <gtest/gtest.h>

#include <string>

#include "baton/exec_vulkan.hpp"

namespace baton::exec {
namespace {

// The message as layer 1.3.239 writes it at vkQueueSubmit2. Its head is verbatim from an H200 run
// (RuntimeOracle.SameQueueReadAfterAnotherQueueWaited); the logs there kept only its first 2,500
// characters, so the prior access's tail follows the layer's formatter of that version
// (QueueBatchContext::FormatUsage: the queue, submit, batch and batch tag, then the command record).
// `prior_queue` is the queue the layer logged the prior access in.
std::string racing_message(const std::string& prior_queue, const std::string& id_name = "READ_RACING_WRITE") {
  return "Validation Error: [ SYNC-HAZARD-READ-RACING-WRITE ] Object 0: handle = 0x558f6b912010, type = "
         "VK_OBJECT_TYPE_QUEUE; | MessageID = 0x29910a35 | vkQueueSubmit2: Hazard " +
         id_name +
         " for entry 0, VkCommandBuffer 0x7f7c34001460[graphics#2/read_x], Recorded access info (recorded_usage: "
         "SYNC_COPY_TRANSFER_READ, command: vkCmdCopyImageToBuffer, seq_no: 2, reset_no: 1). Access info "
         "(prior_usage: SYNC_IMAGE_LAYOUT_TRANSITION, write_barriers: SYNC_COPY_TRANSFER_READ, VkQueue " +
         prior_queue +
         "[], submit: 0, batch: 0, batch_tag: 12, command: vkCmdPipelineBarrier2, seq_no: 3, VkCommandBuffer "
         "0x7f7c34001000[graphics#0/write_x], reset_no: 1).";
}

TEST(SameQueueRacing, RecognizesAPriorAccessOnTheSubmittingQueue) {
  const std::optional<std::string> why = same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", racing_message("0x558f6b912010"));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("(graphics#0/write_x)"), std::string::npos) << *why;
  EXPECT_NE(why->find("before graphics#2/read_x"), std::string::npos) << *why;
  EXPECT_NE(why->find("VkQueue 0x558f6b912010"), std::string::npos) << *why;
  // Handles compare as numbers' text, whatever the case of the hex digits.
  EXPECT_TRUE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", racing_message("0x558F6B912010")).has_value());
  // The other RACING kinds have the same form.
  EXPECT_TRUE(same_queue_racing("SYNC-HAZARD-WRITE-RACING-WRITE", racing_message("0x558f6b912010", "WRITE_RACING_WRITE")));
  EXPECT_TRUE(same_queue_racing("SYNC-HAZARD-WRITE-RACING-READ", racing_message("0x558f6b912010", "WRITE_RACING_READ")));
}

TEST(SameQueueRacing, APriorAccessOnAnotherQueueIsARealRace) {
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", racing_message("0x558f6b9aa200")));
  // A longer handle that starts like the submitting queue's is another queue too.
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", racing_message("0x558f6b9120100")));
}

TEST(SameQueueRacing, AnythingElseIsNotIt) {
  const std::string same = racing_message("0x558f6b912010");
  // Other hazards, even with the same text.
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-AFTER-WRITE", same));
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-WRITE-AFTER-READ", same));
  // Found while recording a command buffer, not at submission.
  std::string recorded = same;
  recorded.replace(recorded.find("vkQueueSubmit2"), 14, "vkCmdCopyBuffer");
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", recorded));
  // Object 0 not a queue.
  std::string not_queue = same;
  not_queue.replace(not_queue.find("VK_OBJECT_TYPE_QUEUE"), 20, "VK_OBJECT_TYPE_IMAGE");
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", not_queue));
  // No queue named for the prior access (a message of another form).
  std::string no_prior_queue = same;
  no_prior_queue.replace(no_prior_queue.find("VkQueue 0x558f6b912010[], "), 26, "");
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", no_prior_queue));
  // The submitting queue's handle only in the recorded part, not in the prior access's.
  std::string swapped = racing_message("0x558f6b9aa200");
  swapped.replace(swapped.find("recorded_usage: "), 16, "recorded_usage: VkQueue 0x558f6b912010 ");
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", swapped));
  EXPECT_FALSE(same_queue_racing("SYNC-HAZARD-READ-RACING-WRITE", ""));
}

TEST(SameQueueRacing, TheLogCountsEveryMessageAndClassifiesIt) {
  ValidationLog log;
  for (int i = 0; i < 5; ++i) log.add("SYNC-HAZARD-READ-RACING-WRITE", racing_message("0x558f6b912010"));
  log.add("SYNC-HAZARD-READ-RACING-WRITE", racing_message("0x558f6b9aa200"));  // a real race
  log.add("SYNC-HAZARD-READ-AFTER-WRITE", "a hazard");
  EXPECT_EQ(log.total(), 7u);
  EXPECT_EQ(log.hazards(), 7u);
  EXPECT_EQ(log.counts.at("SYNC-HAZARD-READ-RACING-WRITE"), 6u);
  EXPECT_EQ(log.same_queue_racing, 5u);
  EXPECT_EQ(log.same_queue_racing_texts.size(), 3u);  // the first few, with why
  EXPECT_EQ(log.texts.size(), 4u);                    // three of the first id, one of the second
  // baton run excuses them only with the data right and Baton's validator clean on the frame's trace;
  // the real race stays: 7 messages, 5 excusable.
  int calls = 0;
  auto clean = [&] { return ++calls, size_t{0}; };
  auto finds_two = [&] { return ++calls, size_t{2}; };
  Excused e = excusable_messages(log, 0, clean);
  EXPECT_EQ(e.messages, 5u);
  EXPECT_TRUE(e.checked);
  EXPECT_EQ(calls, 1);  // Baton's validator ran
  e = excusable_messages(log, 0, finds_two);
  EXPECT_EQ(e.messages, 0u);
  EXPECT_EQ(e.batons_validator_messages, 2u);
  e = excusable_messages(log, 1, clean);  // the data did not match: nothing to excuse, no validator
  EXPECT_EQ(e.messages, 0u);
  EXPECT_FALSE(e.checked);
  EXPECT_EQ(calls, 2);
  ValidationLog other;
  other.add("SYNC-HAZARD-READ-AFTER-WRITE", "a hazard");
  e = excusable_messages(other, 0, clean);  // nothing of that form: nothing to excuse
  EXPECT_EQ(e.messages, 0u);
  EXPECT_FALSE(e.checked);
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace baton::exec
