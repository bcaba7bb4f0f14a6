// The progress reporter prints to a terminal only; when enabled it draws one line it then clears.
#include "baton/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace baton {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) s += static_cast<char>(c);
  return s;
}

TEST(Progress, SilentWhenTheStreamIsNotATerminal) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("sweep", 10, f);  // a file is not a terminal
    EXPECT_FALSE(p.enabled());
    for (int i = 0; i < 10; ++i) p.step();
    EXPECT_EQ(p.count(), 10u);
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

TEST(Progress, DrawsCountAndPercentThenClearsTheLine) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("sweep", 4, f, /*enabled=*/true);
    p.step(1, "seed 1");  // first step always draws
    p.step();
    p.step();
    p.step();  // the last unit always draws, however soon
  }
  const std::string s = contents(f);
  EXPECT_NE(s.find("sweep: 1/4 (25%) seed 1"), std::string::npos) << s;
  EXPECT_NE(s.find("sweep: 4/4 (100%)"), std::string::npos) << s;
  EXPECT_EQ(s.substr(s.size() - 4), "\r\033[K") << "the line is cleared at the end";
  EXPECT_EQ(s.find('\n'), std::string::npos) << "one line, redrawn in place";
  std::fclose(f);
}

TEST(Progress, ThrottlesRedraws) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("loop", 100000, f, true);
    for (int i = 0; i < 100000; ++i) p.step();
  }
  const std::string s = contents(f);
  size_t draws = 0;
  for (size_t at = s.find("loop: "); at != std::string::npos; at = s.find("loop: ", at + 1)) ++draws;
  EXPECT_GE(draws, 2u);    // the first and the last
  EXPECT_LT(draws, 200u);  // not one per step
  std::fclose(f);
}

}  // namespace
}  // namespace baton
