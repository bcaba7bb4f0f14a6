// `baton emit-trace RECORDING --api d3d12|d3d12-legacy|vulkan`: the compiled, lowered plan of a
// recording written as a validator trace (docs/trace-format.md), so that compile -> emit-trace ->
// validate checks the compiler with an independent model. Registered by register_validate.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "baton/lower.hpp"
#include "baton/recording.hpp"

namespace baton::cli {

void register_emit_trace(CLI::App& app, int& exit_code);
// The trace text for a recording (compiles it: its lists end up Compiled). Throws Error.
std::string emit_trace(Recording& rec, Api api);

}  // namespace baton::cli
