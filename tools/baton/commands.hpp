// The CLI's subcommands. Each lives in its own file (cmd_<name>.cpp) and registers itself here;
// main.cpp calls the registrations. Exit codes everywhere: 0 clean, 1 findings (validation
// errors, hazards, mismatches), 2 bad input or usage (one line on stderr, nothing on stdout).
#pragma once

#include <CLI/CLI.hpp>

namespace baton::cli {

// `baton compile FILE [--api d3d12|d3d12-legacy|vulkan] [--format text|json]` and the no-argument demo.
void register_compile(CLI::App& app, int& exit_code);
// Runs the built-in demo (what `baton` with no arguments does).
int run_demo(bool json = false);  // --format json: the plans as JSON
// `baton demo [--recording]`: the demo (like no arguments), or the demo frame as a JSON recording.
void register_demo(CLI::App& app, int& exit_code);
// `baton view FILE -o frame.html [--api ...]`: the frame as one self-contained HTML page.
void register_view(CLI::App& app, int& exit_code);
#ifdef BATON_HAVE_VALIDATE
void register_validate(CLI::App& app, int& exit_code);  // baton validate / emit-trace
void register_triage(CLI::App& app, int& exit_code);    // baton triage
#endif
#ifdef BATON_HAVE_VULKAN_EXEC
void register_run(CLI::App& app, int& exit_code);  // baton run
#endif
#ifdef BATON_HAVE_TRACE_PLAYER
void register_replay(CLI::App& app, int& exit_code);  // baton replay
#endif

}  // namespace baton::cli
