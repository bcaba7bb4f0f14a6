// docs/cli.md cannot go stale: its synopsis names every option of every subcommand as `baton
// SUBCOMMAND --help` lists it (with the same choices), names no option the CLI lacks, and its demo
// counts are what `baton demo` prints.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "run_baton.hpp"

namespace baton::test {
namespace {

// The first code block of docs/cli.md: the synopsis, as lines per subcommand ("" for `baton` alone);
// an indented line continues the one before.
std::map<std::string, std::string> synopsis() {
  const std::string doc = slurp(std::string(BATON_SOURCE_DIR) + "/docs/cli.md");
  const size_t open = doc.find("```\n");
  const size_t close = doc.find("```\n", open + 4);
  std::istringstream in(doc.substr(open + 4, close - open - 4));
  std::map<std::string, std::string> out;
  std::string line, current;
  while (std::getline(in, line)) {
    if (line.starts_with(" ")) {
      out[current] += " " + line;
      continue;
    }
    std::smatch m;
    if (!std::regex_search(line, m, std::regex("^baton ([a-z-]+)"))) continue;
    current = m[1];
    out[current] += " " + line.substr(0, line.find('#'));
  }
  return out;
}

struct HelpOption {
  std::string name;
  std::vector<std::string> choices;  // from TEXT:{a,b,c}
};

std::vector<HelpOption> help_options(const std::string& sub) {
  const RunResult r = run_baton(sub + " --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<HelpOption> out;
  std::istringstream in(r.out);
  std::string line;
  const std::regex opt(R"(^\s+(?:-[a-z],)?(--[a-z-]+)(?:\s+[A-Z]+:\{([^}]*)\})?)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, opt) || m[1] == "--help") continue;
    HelpOption o{m[1], {}};
    std::string c = m[2];
    for (size_t at = 0; !c.empty() && at <= c.size();) {
      const size_t comma = c.find(',', at);
      o.choices.push_back(c.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      at = comma == std::string::npos ? c.size() + 1 : comma + 1;
    }
    out.push_back(o);
  }
  return out;
}

std::vector<std::string> subcommands() {
  const RunResult r = run_baton("--help");
  std::vector<std::string> out;
  const size_t at = r.out.find("Subcommands:");
  std::istringstream in(r.out.substr(at == std::string::npos ? r.out.size() : at));
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, std::regex(R"(^\s+([a-z-]+)\s)"))) out.push_back(m[1]);
  return out;
}

TEST(DocsCli, SynopsisNamesEveryOptionOfEverySubcommandWithItsChoices) {
  const std::map<std::string, std::string> syn = synopsis();
  const std::vector<std::string> subs = subcommands();
  ASSERT_GE(subs.size(), 6u);
  for (const std::string& sub : subs) {
    ASSERT_TRUE(syn.contains(sub)) << "docs/cli.md's synopsis has no line for 'baton " << sub << "'";
    const std::string& text = syn.at(sub);
    std::set<std::string> known;
    for (const HelpOption& o : help_options(sub)) {
      known.insert(o.name);
      EXPECT_TRUE(std::regex_search(text, std::regex(o.name + R"(\b)")))
          << "docs/cli.md's synopsis of 'baton " << sub << "' lacks " << o.name;
      if (o.choices.empty() || o.name == "--dump") continue;
      std::string choices;
      for (const std::string& c : o.choices) choices += (choices.empty() ? "" : "|") + c;
      EXPECT_NE(text.find(o.name + " " + choices), std::string::npos)
          << "docs/cli.md's synopsis of 'baton " << sub << "' does not give " << o.name << " " << choices;
    }
    // And names no option the CLI does not have.
    const std::regex any(R"(--[a-z][a-z-]*)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), any); it != std::sregex_iterator(); ++it)
      EXPECT_TRUE(known.contains(it->str())) << "docs/cli.md's synopsis of 'baton " << sub << "' names "
                                             << it->str() << ", which `baton " << sub << " --help` lacks";
  }
}

TEST(DocsCli, DemoCountsAreTheDemosOwn) {
  const RunResult r = run_baton("demo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("\nsummary\n");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string table = r.out.substr(at + 1);
  const std::string doc = slurp(std::string(BATON_SOURCE_DIR) + "/docs/cli.md");
  EXPECT_NE(doc.find("```\n" + table + "```\n"), std::string::npos)
      << "docs/cli.md's demo summary is not what `baton demo` prints:\n"
      << table;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.out, m,
      std::regex(R"(\((\d+) resources, (\d+) lists in (\d+) groups, (\d+) operations, (\d+) uses\))")));
  const std::string words[] = {"zero", "one", "two",   "three", "four",
                               "five", "six", "seven", "eight", "nine"};
  ASSERT_LT(std::stoi(m[2]), 10);
  ASSERT_LT(std::stoi(m[3]), 10);
  const std::string counts = m[1].str() + " resources, " + words[std::stoi(m[2])] + " lists in " +
                             words[std::stoi(m[3])] + " groups, " + m[4].str() + " operations, " +
                             m[5].str() + " uses";
  std::string flat = doc;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  EXPECT_NE(flat.find(counts), std::string::npos) << "docs/cli.md should say: " << counts;
}

}  // namespace
}  // namespace baton::test
