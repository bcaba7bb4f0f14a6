// The validator as a safety net around the compiler: compile, lower for one API, write the plan as
// a trace (docs/trace-format.md) and replay it in Baton's independent validator. On by default in
// debug builds (!NDEBUG of the *including* code), explicit everywhere else. A message is a compiler
// bug or an impossible declaration; the wrapper throws baton::Error naming the first one.
//
//   D3D12 enhanced: the plan's Barrier() calls with the uses between them, layouts carried across groups.
//   D3D12 legacy:   the plan's ResourceBarrier() calls; implicit promotion and decay are the validator's.
//   Vulkan:         the plan's vkCmdPipelineBarrier2() calls; hazards and image layouts checked.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>

#include "baton/lower.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace baton {

// The trace of a compiled plan: one submission per group (serial order made explicit with
// semaphores), per list the operations in order with their barrier points around them. Resources a
// non-fresh history says were touched start in their resting state (they exist already); the rest
// start as created. For a fresh history the bytes equal `baton emit-trace`'s. Throws Error when the
// plan cannot be lowered for the API. With `memory` (placed resources: a frame graph's aliasing), the
// trace carries its heaps and each placed resource's byte range.
std::string trace_of_plan(const ResourceTable& resources, std::span<const CommandListGroup* const> groups,
                          std::span<const CompiledGroup> compiled, Api api, const History& history_in,
                          const PlanMemory* memory = nullptr);
// Compiles a recording (fresh history; its lists end up Compiled) and returns the trace.
std::string trace_of_recording(Recording& rec, Api api);

// Baton's validator as a second oracle on a trace (`baton run` asks it before excusing a layer message
// it knows to be wrong; docs/executor.md), with its liveness on that very trace: its findings on
// `trace_json`, and on the same trace with every barrier command left out (the canary: without the
// plan's barriers the validator must find something, else its silence says nothing).
struct SecondOpinion {
  size_t messages = 0;
  std::string first;            // the first finding's text
  size_t barriers_removed = 0;  // barrier commands the canary left out
  size_t canary_findings = 0;   // the validator's findings on the canary
  bool live() const { return canary_findings > 0; }
  bool clean() const { return messages == 0 && live(); }
  // What stands against excusing a layer report on this opinion: its findings, or one when it is not
  // live (its silence then proves nothing). 0 only when clean().
  size_t objections() const { return clean() ? 0 : std::max<size_t>(messages, 1); }
};
SecondOpinion second_opinion(const std::string& trace_json, std::string_view source);

#ifdef NDEBUG
inline constexpr bool kValidateCompileByDefault = false;
#else
inline constexpr bool kValidateCompileByDefault = true;
#endif

struct ValidatedCompileOptions {
  bool enabled = kValidateCompileByDefault;
  Api api = Api::d3d12;
  unsigned threads = 1;
};

// Validates already compiled groups; throws Error on the first validator message:
// "validated compile (d3d12): 538 INVALID_SUBRESOURCE_STATE in group 'g' list 'l' op 2 (command 5),
//  resource 'r' subresource 0: <validator text>".
void validate_compiled(const ResourceTable& resources, std::span<const CommandListGroup* const> groups,
                       std::span<const CompiledGroup> compiled, Api api, const History& history_in);

// compile_all(), then (when options.enabled) validate_compiled() for options.api.
CompileResult validated_compile_all(const ResourceTable& resources, std::span<CommandListGroup* const> groups,
                                    History history_in, const ValidatedCompileOptions& options = {});

}  // namespace baton
