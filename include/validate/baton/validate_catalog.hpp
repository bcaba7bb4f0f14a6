// The validator's message catalog, kept as data: one row per message (numeric id, name,
// severity, text template). D3D12 rows use the numeric D3D12_MESSAGE_ID values that the debug
// layer prints, so a Baton message and a Windows log line can be matched by number. Vulkan rows
// are named after the Khronos layer's message names, with numbers of Baton's own in the 100000
// range (the Khronos layer has no numeric ids): a VUID, a SYNC-HAZARD-* hazard name or an
// UNASSIGNED-* id the layer prints, so a user can search for it; BATON-VK-* rows are checks of
// Baton's own that the layer does not make. BATON-HEAP-* rows (200000 range) are Baton's checks of
// memory shared by placed resources, for every API. Tests assert which id fired, never the prose.
//
// Templates may use {expected} and {actual}; the location (list, command, resource,
// subresource) is prefixed by the reporter.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace baton::validate {

enum class Severity : uint8_t { error, warning };

// X(enumerator, numeric id, name, severity, text template)
#define BATON_VALIDATE_MESSAGES(X)                                                                           \
  /* ---- D3D12 legacy resource states ---- */                                                               \
  X(barrier_invalid_subresource, 521, "RESOURCE_BARRIER_INVALID_SUBRESOURCE", error,                         \
    "barrier names subresource {actual}, but the resource has {expected} subresources")                      \
  X(barrier_matching_states, 525, "RESOURCE_BARRIER_MATCHING_STATES", error,                                 \
    "StateBefore and StateAfter are both {actual}")                                                          \
  X(barrier_invalid_combination, 526, "RESOURCE_BARRIER_INVALID_COMBINATION", error,                         \
    "state {actual} is not a valid combination ({expected})")                                                \
  X(barrier_before_after_mismatch, 527, "RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH", error,                     \
    "StateBefore {expected} does not match the current state {actual}")                                      \
  X(barrier_invalid_split_barrier, 533, "RESOURCE_BARRIER_INVALID_SPLIT_BARRIER", error,                     \
    "{actual} while a split barrier begun earlier is pending ({expected})")                                  \
  X(barrier_unmatched_end, 534, "RESOURCE_BARRIER_UNMATCHED_END", error,                                     \
    "split-barrier end {actual} has no matching begin")                                                      \
  X(barrier_unmatched_begin, 535, "RESOURCE_BARRIER_UNMATCHED_BEGIN", error,                                 \
    "split barrier begun ({actual}) is never ended in this ExecuteCommandLists")                             \
  X(barrier_invalid_command_list_type, 537, "RESOURCE_BARRIER_INVALID_COMMAND_LIST_TYPE", error,             \
    "state {actual} is not allowed on this list type (allowed: {expected})")                                 \
  X(invalid_subresource_state, 538, "INVALID_SUBRESOURCE_STATE", error,                                      \
    "needs {expected}, but the subresource is in {actual}")                                                  \
  X(barrier_invalid_heap, 741, "RESOURCE_BARRIER_INVALID_HEAP", error,                                       \
    "a resource on the {actual} heap cannot be transitioned (it stays {expected})")                          \
  X(barrier_mismatching_begin_end, 957, "RESOURCE_BARRIER_MISMATCHING_BEGIN_END", error,                     \
    "split-barrier end {actual} does not match the begin {expected}")                                        \
  X(barrier_duplicate_subresource_transitions, 1008, "RESOURCE_BARRIER_DUPLICATE_SUBRESOURCE_TRANSITIONS",   \
    error, "the subresource is transitioned more than once in one barrier call ({actual})")                  \
  X(createresource_state_ignored, 1328, "CREATERESOURCE_STATE_IGNORED", warning,                             \
    "initial state {actual} is ignored; the resource is created in {expected}")                              \
  X(unused_cross_execute_split_barrier, 1329, "UNUSED_CROSS_EXECUTE_SPLIT_BARRIER", warning,                 \
    "unused split-barrier half {actual} on {expected}: it does not cross ExecuteCommandLists")               \
  X(incompatible_barrier_values, 1331, "INCOMPATIBLE_BARRIER_VALUES", error, "{actual} ({expected})")        \
  X(incompatible_barrier_access, 1332, "INCOMPATIBLE_BARRIER_ACCESS", error,                                 \
    "access {actual} is not compatible with {expected}")                                                     \
  X(incompatible_barrier_sync, 1333, "INCOMPATIBLE_BARRIER_SYNC", error,                                     \
    "sync {actual} is not compatible with {expected}")                                                       \
  X(incompatible_barrier_layout, 1334, "INCOMPATIBLE_BARRIER_LAYOUT", error,                                 \
    "LayoutBefore {expected} does not match the current layout {actual}")                                    \
  X(incompatible_barrier_type, 1335, "INCOMPATIBLE_BARRIER_TYPE", error, "{actual} barrier on a {expected}") \
  X(unsupported_barrier_layout, 1341, "UNSUPPORTED_BARRIER_LAYOUT", error,                                   \
    "layout {actual} is not supported on this list type (allowed: {expected})")                              \
  X(barrier_interop_invalid_layout, 1350, "BARRIER_INTEROP_INVALID_LAYOUT", error,                           \
    "legacy barrier on a subresource in enhanced layout {actual} (must be {expected} first)")                \
  X(barrier_interop_invalid_state, 1351, "BARRIER_INTEROP_INVALID_STATE", error,                             \
    "enhanced barrier on a subresource in legacy state {actual} (must be {expected} first)")                 \
  X(texture_barrier_subresources_out_of_bounds, 1355, "TEXTURE_BARRIER_SUBRESOURCES_OUT_OF_BOUNDS", error,   \
    "range {actual} exceeds the resource ({expected})")                                                      \
  X(invalid_barrier_access, 1417, "INVALID_BARRIER_ACCESS", error, "{actual} ({expected})")                  \
  X(render_target_or_depth_stencil_not_initialized, 1422,                                                    \
    "RENDER_TARGET_OR_DEPTH_STENCIL_RESOUCE_NOT_INITIALIZED", error,                                         \
    "used as {actual} before being initialized by {expected}")                                               \
  X(non_common_resource_in_copy_queue, 1431, "NON_COMMON_RESOURCE_IN_COPY_QUEUE", error,                     \
    "first used on a copy queue in state {actual} (must be {expected})")                                     \
  X(texture_barrier_invalid_flags, 1436, "TEXTURE_BARRIER_INVALID_FLAGS", error,                             \
    "DISCARD flag with LayoutBefore {actual} (requires {expected})")                                         \
  /* ---- Vulkan (names after the Khronos layer; numbers are Baton's) ---- */                                \
  X(vk_hazard_read_after_write, 100001, "SYNC-HAZARD-READ-AFTER-WRITE", error,                               \
    "{actual} reads what {expected} wrote, with no barrier making it visible")                               \
  X(vk_hazard_write_after_read, 100002, "SYNC-HAZARD-WRITE-AFTER-READ", error,                               \
    "{actual} writes while {expected} may still read, with no barrier ordering them")                        \
  X(vk_hazard_write_after_write, 100003, "SYNC-HAZARD-WRITE-AFTER-WRITE", error,                             \
    "{actual} writes over what {expected} wrote, with no barrier ordering them")                             \
  X(vk_hazard_write_after_present, 100004, "SYNC-HAZARD-WRITE-AFTER-PRESENT", error,                         \
    "{actual} writes a swapchain image that {expected} may still read, with no wait on its semaphore")       \
  X(vk_hazard_read_after_present, 100005, "SYNC-HAZARD-READ-AFTER-PRESENT", error,                           \
    "{actual} reads a swapchain image that {expected} may still hold, with no wait on its semaphore")        \
  X(vk_hazard_present_after_write, 100006, "SYNC-HAZARD-PRESENT-AFTER-WRITE", error,                         \
    "{actual} reads what {expected} wrote, with no semaphore wait making it visible")                        \
  X(vk_hazard_present_after_read, 100007, "SYNC-HAZARD-PRESENT-AFTER-READ", error,                           \
    "{actual} while {expected} may still read, with no semaphore wait ordering them")                        \
  X(vk_barrier_old_layout, 100010, "VUID-VkImageMemoryBarrier2-oldLayout-01197", error,                      \
    "oldLayout {actual} does not match the current layout {expected}")                                       \
  X(vk_invalid_image_layout, 100011, "UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout", error,        \
    "used in layout {expected}, but the image is in {actual}")                                               \
  X(vk_present_layout, 100012, "VUID-VkPresentInfoKHR-pImageIndices-01430", error,                           \
    "presented in layout {actual}, but vkQueuePresentKHR needs {expected}")                                  \
  X(vk_queue_family_not_owner, 100020, "BATON-VK-QUEUE-FAMILY-NOT-OWNER", error,                             \
    "used on queue family {actual}, but queue family {expected} owns it (no release/acquire)")               \
  X(vk_queue_family_unmatched_acquire, 100021, "UNASSIGNED-VkImageMemoryBarrier-image-00004", error,         \
    "acquire {actual} has no matching release ({expected}; for a buffer the layer says "                     \
    "UNASSIGNED-VkBufferMemoryBarrier-buffer-00004)")                                                        \
  X(vk_queue_family_release_not_owner, 100022, "BATON-VK-QUEUE-FAMILY-RELEASE-NOT-OWNER", error,             \
    "release {actual} recorded on a queue family that does not own the resource ({expected})")               \
  X(vk_event_wait_not_set, 100030, "BATON-VK-EVENT-WAIT-NOT-SET", error,                                     \
    "vkCmdWaitEvents2 waits on {actual}, which {expected}")                                                  \
  X(vk_event_dependency_mismatch, 100031, "VUID-vkCmdWaitEvents2-pEvents-03838", error,                      \
    "the wait's dependency info for {actual} is not the one vkCmdSetEvent2 used ({expected})")               \
  /* ---- Heaps and placed resources, every API (Baton's own: the layers do not see all of it) ---- */       \
  X(heap_use_after_takeover, 200001, "BATON-HEAP-USE-AFTER-TAKEOVER", error,                                 \
    "{actual}, but {expected} took over its memory since")                                                   \
  X(heap_unordered_takeover, 200002, "BATON-HEAP-UNORDERED-TAKEOVER", error,                                 \
    "{actual} takes over memory of {expected} without being ordered after that access")                      \
  X(heap_takeover_layout, 200003, "BATON-HEAP-TAKEOVER-LAYOUT", error,                                       \
    "{actual} on memory taken over from {expected} (its contents are undefined: start from UNDEFINED)")      \
  X(heap_missing_aliasing_barrier, 200004, "BATON-HEAP-MISSING-ALIASING-BARRIER", error,                     \
    "{actual} takes over memory of {expected} without an aliasing barrier naming it or NULL before")

enum class MessageId : uint32_t {
#define BATON_X(e, id, name, sev, text) e = id,
  BATON_VALIDATE_MESSAGES(BATON_X)
#undef BATON_X
};

struct CatalogEntry {
  MessageId id;
  std::string_view name;
  Severity severity;
  std::string_view text;  // template with {expected} / {actual}
};

// Every row of the catalog, in id order.
std::span<const CatalogEntry> catalog();
// The row for an id (every MessageId has one).
const CatalogEntry& catalog_entry(MessageId id);
constexpr uint32_t number(MessageId id) {
  return static_cast<uint32_t>(id);
}
std::string_view to_string(Severity s);

}  // namespace baton::validate
