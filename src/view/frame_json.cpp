// The frame as the JSON that `baton view` embeds in its page ("format": "baton-frame", version 1).
// Passes, resources and waits are shared by the three lowerings; barriers refer to them by index.
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "baton/view.hpp"
#include "names.hpp"

namespace baton::view {

nlohmann::ordered_json frame_json(const Frame& f, Api initial) {
  using OJson = nlohmann::ordered_json;
  OJson j;
  j["format"] = "baton-frame";
  j["version"] = 1;
  j["source"] = f.source;
  j["kind"] = f.graph ? "graph" : "recording";
  j["api"] = std::string(to_string(initial));
  OJson queues = OJson::array();
  for (Queue q : {Queue::direct, Queue::compute, Queue::copy})
    for (const Pass& p : f.passes)
      if (p.queue == q) {
        queues.push_back(queue_label(q));
        break;
      }
  j["queues"] = std::move(queues);
  OJson& passes = j["passes"] = OJson::array();
  for (const Pass& p : f.passes)
    passes.push_back({{"name", p.name},
                      {"group", p.group},
                      {"queue", queue_label(p.queue)},
                      {"slot", p.slot},
                      {"ops", p.ops}});
  OJson& resources = j["resources"] = OJson::array();
  for (const ResourceInfo& r : f.resources)
    resources.push_back(
        {{"name", r.name}, {"type", r.buffer ? "buffer" : "texture"}, {"transient", r.transient}});
  // [pass, resource, written]: compact, there is one per pass and resource it touches.
  OJson& uses = j["uses"] = OJson::array();
  for (const Use& u : f.uses) uses.push_back({u.pass, u.resource, u.write ? 1 : 0});
  OJson& waits = j["waits"] = OJson::array();
  for (const Wait& w : f.waits) waits.push_back({{"signal", w.signal}, {"wait", w.wait}});
  // Barriers are rows of numbers: a 10,000-pass frame has about 100,000 of them over the three
  // APIs, and their texts repeat (a few hundred distinct states), so every text is an index into
  // "strings" and every reason an index into "reasons". Row:
  //   [pass, op, where (0 before, 1 after), resource, range, before, after, reason, note, omitted]
  // with note and omitted "" (index 0) when absent.
  std::vector<std::string> strings{""};
  std::unordered_map<std::string, size_t> index{{"", 0}};
  auto intern = [&](const std::string& t) {
    const auto [it, fresh] = index.emplace(t, strings.size());
    if (fresh) strings.push_back(t);
    return it->second;
  };
  OJson& reasons = j["reasons"] = OJson::array();
  for (int r = 0; r <= static_cast<int>(Reason::takeover); ++r)
    reasons.push_back({{"name", std::string(to_string(static_cast<Reason>(r)))},
                       {"rule", std::string(rule_of(static_cast<Reason>(r)))}});
  OJson lowerings = OJson::object();
  for (const Lowering& low : f.lowerings) {
    if (!low.lowered) continue;  // not asked for: the page offers only what was lowered
    OJson l;
    l["error"] = low.error;
    l["issued"] = low.issued;
    l["calls"] = low.calls;
    OJson& bs = l["barriers"] = OJson::array();
    for (const Barrier& b : low.barriers) {
      const std::string omitted =
          b.omitted ? (b.omitted_why.empty() ? "the API does it implicitly" : b.omitted_why) : "";
      bs.push_back({b.pass, b.op, b.where == Where::after ? 1 : 0, b.resource, intern(b.range),
                    intern(b.before), intern(b.after), static_cast<int>(b.reason), intern(b.note),
                    intern(omitted)});
    }
    lowerings[std::string(to_string(low.api))] = std::move(l);
  }
  j["strings"] = strings;
  j["lowerings"] = std::move(lowerings);
  OJson mem;
  mem["heap_size"] = f.memory.heap_size;
  mem["unaliased"] = f.memory.unaliased;
  mem["lower_bound"] = f.memory.lower_bound;
  OJson& blocks = mem["blocks"] = OJson::array();
  for (const Block& b : f.memory.blocks)
    blocks.push_back(
        {{"name", b.name}, {"offset", b.offset}, {"size", b.size}, {"first", b.first}, {"last", b.last}});
  OJson& al = mem["aliasing"] = OJson::array();
  for (const AliasMark& a : f.memory.aliasing)
    al.push_back({{"pass", a.pass}, {"resource", a.resource}, {"previous", a.previous}});
  j["memory"] = std::move(mem);
  // Measured times (baton view --timestamps): [pass, op, begin_us, end_us] per operation; absent
  // when the frame was not measured (the x axis is then submission order).
  if (!f.times.empty()) {
    OJson& t = j["times"] = OJson::object();
    t["source"] = f.times_source;
    OJson& ops = t["ops"] = OJson::array();
    for (const OpTime& o : f.times) ops.push_back({o.pass, o.op, o.begin_us, o.end_us});
  }
  j["culled"] = f.culled;
  j["findings"] = f.findings;
  return j;
}

}  // namespace baton::view
