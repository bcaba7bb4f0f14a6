// The baton command-line tool. Subcommands live in cmd_<name>.cpp and register themselves
// (commands.hpp); with no arguments it runs the built-in demo.
#include <exception>
#include <string>
#include <vector>

#include "commands.hpp"
#include "output.hpp"

int main(int argc, char** argv) {
  using namespace baton::cli;
  try {
    if (argc <= 1) return run_demo();
    // --format json anywhere: errors are JSON on stdout too. Positional arguments that name files
    // let the error name its file, pointer or line:column.
    std::vector<std::string> inputs;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if ((a == "--format" && i + 1 < argc && std::string(argv[i + 1]) == "json") || a == "--format=json")
        set_json_errors(true);
      if (!a.empty() && a[0] != '-') inputs.push_back(a);
      if (a == "-") inputs.push_back(a);
    }
    set_error_inputs(std::move(inputs));
    CLI::App app{
        "Baton: GPU barriers computed from declared resource use (D3D12 legacy, D3D12 enhanced, Vulkan)"};
    app.require_subcommand(1);
    int exit_code = 0;
    register_compile(app, exit_code);
    register_demo(app, exit_code);
    register_view(app, exit_code);
#ifdef BATON_HAVE_VALIDATE
    register_validate(app, exit_code);
    register_triage(app, exit_code);
#endif
#ifdef BATON_HAVE_VULKAN_EXEC
    register_run(app, exit_code);
#endif
#ifdef BATON_HAVE_TRACE_PLAYER
    register_replay(app, exit_code);
#endif
    // CLI11 would only say "a subcommand is required"; name the word it did not know.
    const std::string first = argv[1];
    if (!first.empty() && first[0] != '-') {
      std::string known;
      bool found = false;
      for (const CLI::App* sub : app.get_subcommands({})) {
        known += (known.empty() ? "" : ", ") + sub->get_name();
        found |= sub->get_name() == first;
      }
      if (!found) return report_error("unknown subcommand '" + first + "' (expected one of: " + known + ")");
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version: usage on stdout
      return report_error(std::string(e.what()) + " (run 'baton --help')");
    }
    return exit_code;
  } catch (const std::exception& e) {
    return report_error(e.what());
  } catch (...) {
    return report_error("unexpected failure");
  }
}
