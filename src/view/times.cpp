// Measured times on the view (issue 17 item 5): `baton view --timestamps FILE` reads what `baton run
// --timestamps` measured, and `baton view --trace-events FILE` exports the frame for a timeline viewer.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "baton/input.hpp"
#include "baton/view.hpp"
#include "names.hpp"

namespace baton::view {
namespace {

constexpr double kSyntheticSlotUs = 1000.0;

[[noreturn]] void bad(const std::string& source, const std::string& pointer, const std::string& what) {
  throw Error(pointer.empty() ? fmt::format("{}: {}", source, what) : fmt::format("{}:{}: {}", source, pointer, what));
}

double number(const nlohmann::json& e, const char* key, const std::string& source, const std::string& at) {
  const auto it = e.find(key);
  if (it == e.end() || !it->is_number()) bad(source, at, fmt::format("\"{}\" must be a number", key));
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0) bad(source, at + "/" + key, fmt::format("{} must be finite and not negative", key));
  return v;
}

// Per pass, the index of its first operation in Frame::times (one time per operation, in pass order);
// the last entry is the number of operations.
std::vector<size_t> first_ops(const Frame& f) {
  std::vector<size_t> first(f.passes.size() + 1, 0);
  for (size_t i = 0; i < f.passes.size(); ++i) first[i + 1] = first[i] + f.passes[i].ops;
  return first;
}

}  // namespace

void attach_times(Frame& f, std::string_view trace_json, const std::string& source) {
  const nlohmann::json j = input::parse(trace_json, source);
  if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array())
    bad(source, "", "not trace-event JSON (expected an object with a \"traceEvents\" array, as baton run --timestamps writes)");
  std::map<std::string, uint32_t> by_name;
  for (uint32_t i = 0; i < f.passes.size(); ++i) by_name.emplace(f.passes[i].name, i);
  const std::vector<size_t> first = first_ops(f);
  std::vector<OpTime> times(first.back());
  std::vector<bool> seen(times.size(), false);
  const nlohmann::json& events = j["traceEvents"];
  for (size_t k = 0; k < events.size(); ++k) {
    const std::string at = fmt::format("/traceEvents/{}", k);
    const nlohmann::json& e = events[k];
    if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string()) bad(source, at, "an event needs a string \"ph\"");
    const std::string ph = e["ph"].get<std::string>();
    if (ph == "M") continue;
    if (ph != "X")
      bad(source, at + "/ph", fmt::format("event kind {} is not a measured operation (expected \"X\" or \"M\")", input::quote(ph)));
    if (!e.contains("name") || !e["name"].is_string()) bad(source, at, "an operation needs a string \"name\" (PASS/OP)");
    const std::string name = e["name"].get<std::string>();
    const size_t slash = name.rfind('/');
    const std::string pass = slash == std::string::npos ? name : name.substr(0, slash);
    const auto it = by_name.find(pass);
    if (slash == std::string::npos || it == by_name.end())
      bad(source, at + "/name",
          fmt::format("{} names no pass or list of {} (expected PASS/OP)", input::quote(name), f.source));
    const Pass& p = f.passes[it->second];
    uint32_t op = 0;
    const std::string digits = name.substr(slash + 1);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (op = static_cast<uint32_t>(std::stoul(digits))) >= p.ops)
      bad(source, at + "/name",
          fmt::format("{}: {} has operations 0..{}", input::quote(name), input::quote(p.name), p.ops - 1));
    if (e.contains("tid") && e["tid"].is_string() && e["tid"].get<std::string>() != queue_label(p.queue))
      bad(source, at + "/tid",
          fmt::format("{} ran on the {} queue, but {} is a {} pass", input::quote(name),
                      input::quote(e["tid"].get<std::string>()), input::quote(p.name), queue_label(p.queue)));
    const size_t slot = first[it->second] + op;
    if (seen[slot]) bad(source, at, fmt::format("{} has a time already", input::quote(name)));
    seen[slot] = true;
    const double ts = number(e, "ts", source, at), dur = number(e, "dur", source, at);
    times[slot] = OpTime{it->second, op, ts, ts + dur};
  }
  for (uint32_t i = 0; i < f.passes.size(); ++i)
    for (uint32_t op = 0; op < f.passes[i].ops; ++op)
      if (!seen[first[i] + op])
        bad(source, "/traceEvents",
            fmt::format("no time for operation {} of {} (measure this frame with baton run {} --timestamps FILE)",
                        op, input::quote(f.passes[i].name), input::quote(f.source)));
  f.times = std::move(times);
  f.times_source = source;
}

std::string trace_events(const Frame& f, Api api) {
  using J = nlohmann::ordered_json;
  J events = J::array();
  const bool measured = !f.times.empty();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0},
                    {"args", {{"name", fmt::format("baton view: {} ({})", f.source, to_string(api))}}}});
  const std::vector<size_t> first = first_ops(f);
  // An operation's span: measured, or its share of the pass's slot.
  auto span = [&](uint32_t pass, uint32_t op) -> std::pair<double, double> {
    if (measured) return {f.times[first[pass] + op].begin_us, f.times[first[pass] + op].end_us};
    const Pass& p = f.passes[pass];
    const double w = kSyntheticSlotUs * 0.84 / p.ops, b = kSyntheticSlotUs * (p.slot + 0.08) + w * op;
    return {b, b + w};
  };
  for (uint32_t i = 0; i < f.passes.size(); ++i)
    for (uint32_t op = 0; op < f.passes[i].ops; ++op) {
      const auto [b, e] = span(i, op);
      J ev{{"name", fmt::format("{}/{}", f.passes[i].name, op)}, {"cat", f.passes[i].group}, {"ph", "X"},
           {"pid", 0}, {"tid", queue_label(f.passes[i].queue)}, {"ts", b}, {"dur", e - b}};
      if (!measured) ev["args"] = {{"synthetic", true}};
      events.push_back(std::move(ev));
    }
  const Lowering& low = f.lowering(api);
  for (const Barrier& b : low.barriers) {
    const auto [begin, end] = span(b.pass, b.op);
    J args{{"resource", f.resources[b.resource].name}, {"range", b.range}, {"before", b.before},
           {"after", b.after}, {"reason", std::string(to_string(b.reason))}};
    if (b.omitted) args["omitted"] = b.omitted_why.empty() ? "the API does it implicitly" : b.omitted_why;
    if (!b.note.empty()) args["note"] = b.note;
    events.push_back({{"name", fmt::format("barrier {}", f.resources[b.resource].name)}, {"cat", "barrier"},
                      {"ph", "i"}, {"s", "t"}, {"pid", 0}, {"tid", queue_label(f.passes[b.pass].queue)},
                      {"ts", b.where == Where::before ? begin : end}, {"args", std::move(args)}});
  }
  return J{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}}.dump(1) + "\n";
}

}  // namespace baton::view
