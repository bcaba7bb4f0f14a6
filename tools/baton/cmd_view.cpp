// `baton view FILE -o frame.html [--api d3d12|d3d12-legacy|vulkan]`: one self-contained HTML page of a
// compiled recording or frame graph (docs/cli.md). The page is built in memory, written to a
// temporary file next to the output and renamed over it, so a failure never leaves a partial page.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "baton/input.hpp"
#include "baton/progress.hpp"
#include "baton/view.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct ViewOptions {
  std::string file, out;
  std::string api = "d3d12";
};

// Writes `text` to `path` through a temporary file in the same folder and a rename (atomic on one
// file system): readers see the old file or the whole new one, never a torn page.
void write_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path tmp =
      target.parent_path() / (target.filename().string() + ".tmp-" + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path + ": cannot write: cannot create " + tmp.string());
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw Error(path + ": cannot write (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(path + ": cannot write: " + ec.message());
  }
}

int run_view(const ViewOptions& o) {
  const std::optional<Api> api = parse_api(o.api);
  if (!api) return report_error("unknown --api '" + o.api + "' (expected d3d12, d3d12-legacy or vulkan)");
  const std::string source = o.file == "-" ? "<stdin>" : o.file;
  bool findings = false;
  try {
    // Big frames take seconds: show the stages on a terminal (nothing when stderr is not one).
    Progress progress("baton view", view::kBuildStages + 1);
    const view::Frame frame = view::build_frame(input::read(o.file), source,
                                                [&](std::string_view stage) { progress.step(1, stage); });
    // The page shows all three lowerings, but the one asked for must exist.
    if (const std::string& e = frame.lowering(*api).error; !e.empty()) throw Error(source + ": " + e);
    findings = !frame.findings.empty();
    progress.step(1, "page");
    const std::string page = view::render_html(frame, *api);
    progress.done();
    if (o.out == "-")
      write_stdout(page);
    else
      write_atomically(o.out, page);
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  return findings ? 1 : 0;
}

}  // namespace

void register_view(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ViewOptions>();
  CLI::App* sub =
      app.add_subcommand("view", "Write a compiled recording or frame graph as one self-contained HTML page");
  sub->add_option("file", opts->file, "Recording or frame graph (JSON); - reads stdin")->required();
  sub->add_option("-o,--output", opts->out, "The HTML file to write (- writes stdout)")->required();
  sub->add_option("--api", opts->api, "Lowering shown first (default d3d12); the page embeds all three")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->callback([opts, &exit_code] { exit_code = run_view(*opts); });
}

}  // namespace baton::cli
