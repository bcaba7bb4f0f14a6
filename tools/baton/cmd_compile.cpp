// `baton compile FILE [--api d3d12|d3d12-legacy|vulkan] [--format text|json]`
#include <iostream>
#include <iterator>

#include "commands.hpp"
#include "output.hpp"
#include "plan_output.hpp"

namespace baton::cli {
namespace {

struct CompileOptions {
  std::string file;
  std::string api = "d3d12";
  std::string format = "text";
};

Recording load(const std::string& file) {
  if (file != "-") return load_recording_file(file);
  const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  return load_recording(text, "<stdin>");
}

int run_compile(const CompileOptions& o) {
  const std::optional<Api> api = parse_api(o.api);
  if (!api) return report_error("unknown --api '" + o.api + "' (expected d3d12, d3d12-legacy or vulkan)");
  Recording rec;
  try {
    rec = load(o.file);  // messages already start with the file position
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  std::string out;
  try {
    const std::vector<CompiledGroup> compiled = compile_recording(rec);
    const std::vector<LoweredGroup> lowered = lower_recording(rec, *api, compiled);
    out = o.format == "json" ? plan_json(rec, *api, lowered).dump(2) + "\n" : plan_text(rec, *api, lowered);
  } catch (const std::exception& e) {
    return report_error(o.file + ": " + e.what());
  }
  write_stdout(out);
  return 0;
}

}  // namespace

void register_compile(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<CompileOptions>();
  CLI::App* sub = app.add_subcommand("compile", "Compile a JSON recording and print its barrier plan");
  sub->add_option("file", opts->file, "Recording file (docs/recording-format.md); - reads stdin")->required();
  sub->add_option("--api", opts->api, "Target API (default d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_compile(*opts); });
}

}  // namespace baton::cli
