// Collects messages during a replay. One message per (command, id, resource): when a command hits
// the same problem on several subresources, the first is named and the rest are counted, which is
// how a reader wants "all 12 mips are in the wrong state" to look.
#pragma once

#include <baton/validate.hpp>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "runs.hpp"

namespace baton::validate {

class Reporter {
 public:
  explicit Reporter(const Trace& t, const ValidateOptions& options = {});

  // Shadow runs count their cost here; every change of location checks the limits, so the error names
  // the command (or submission) that crossed one.
  RunStats* stats() { return &stats_; }

  // Location of the following messages: a command of a list, or a submission (command -1).
  void at_command(int list, int command);
  void at_submission(int submission);
  void at_creation();

  // resource: index or kNoResource; subresource: the shadows' run index (RunOrder, runs.hpp; messages
  // name the subresource index it converts to) or -1. `count`: how many subresources
  // (from `subresource` on, in one run of equal shadow state) have this problem.
  void report(MessageId id, int resource, int64_t subresource, const std::string& expected,
              const std::string& actual, uint32_t count = 1);

  // A command touched `count` subresources from this one on (coverage for --compare).
  void visit(int resource, uint32_t subresource, uint32_t count = 1);

  ValidationResult finish();

 private:
  void flush();  // closes the current command's aggregation
  void check_limits() const;
  std::string location(int resource, int64_t subresource) const;

  const Trace& trace_;
  ValidateOptions options_;
  RunStats stats_;
  int list_ = -1, command_ = -1, submission_ = -1;
  ValidationResult result_;
  std::vector<IntervalSet> visited_;  // per resource
  std::map<std::tuple<uint32_t, int>, std::pair<size_t, int>>
      this_command_;  // (id, resource) -> (message, extra)
};

}  // namespace baton::validate
