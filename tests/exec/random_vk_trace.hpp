// A seeded generator of tiny random Vulkan traces (docs/replay.md, "Differential testing"): 2-3
// resources, 2-4 uses each with at most one barrier call before it (2-8 commands), valid and invalid barrier
// streams (random and missing scopes, partial ranges, wrong old layouts, uses in the wrong layout, sometimes
// two queues with a semaphore; runs of commands in secondary command buffers). Every use is one the
// trace player can express.
#pragma once

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace baton::exec::test {

// multi: up to three submissions, sometimes on two queues with semaphores; otherwise one submission.
// sync: two submissions on one queue, the second ordered after the first by
// a random means or none: a binary semaphore with a random wait stage mask, a timeline semaphore (a
// wait for a value at most the one signaled, random stage mask), a fence with a host wait on it, a
// vkQueueWaitIdle or a vkDeviceWaitIdle (no host wait on a timeline value: D6 of docs/replay.md); half
// the signals with a stage mask, and some waits on a value only the host signaled (vkSignalSemaphore).
// features: secondary command buffers, signal stage masks and host signals (issue 14); false gives the
// traces of the generator before them (each comes from a random stream of its own).
inline std::string random_vk_trace(uint64_t seed, bool multi = true, bool sync = false,
                                   bool features = true) {
  std::mt19937_64 rng(seed);
  std::mt19937_64 flag_rng(seed ^ 0x5bd1e995u);
  // Signal stage masks and host signals (sync traces) from a stream of their own, so the traces' other
  // choices stay those of the seed before they existed.
  std::mt19937_64 signal_rng(seed ^ 0x2545f491u);
  // Dynamic rendering (features), from a stream of its own: some image uses in GENERAL (a layout both
  // the use and a color attachment take) become a render pass instance on that subresource instead.
  std::mt19937_64 render_rng(seed ^ 0x68e31da4u);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  auto pick = [&](size_t n) {
    return static_cast<size_t>(std::uniform_int_distribution<size_t>(0, n - 1)(rng));
  };
  using nlohmann::json;

  struct Access {
    const char* stage;
    const char* access;
    bool write;
    bool image_ok, buffer_ok;
    std::vector<const char*> layouts;  // valid layouts for the command (images)
  };
  // vkCmdFillBuffer is left out: layer 1.3.239 records it at COPY, the spec puts it at CLEAR.
  const std::vector<Access> accesses = {
      {"CLEAR", "TRANSFER_WRITE", true, true, false, {"TRANSFER_DST_OPTIMAL", "GENERAL"}},
      {"COPY", "TRANSFER_WRITE", true, true, true, {"TRANSFER_DST_OPTIMAL", "GENERAL"}},
      {"COPY", "TRANSFER_READ", false, true, true, {"TRANSFER_SRC_OPTIMAL", "GENERAL"}},
      {"COMPUTE_SHADER", "SHADER_STORAGE_READ", false, true, true, {"GENERAL"}},
      {"COMPUTE_SHADER", "SHADER_STORAGE_WRITE", true, true, true, {"GENERAL"}},
      {"COMPUTE_SHADER", "SHADER_SAMPLED_READ", false, true, false, {"SHADER_READ_ONLY_OPTIMAL", "GENERAL"}},
  };
  const std::vector<const char*> stages = {"NONE",         "TOP_OF_PIPE",   "COPY",
                                           "CLEAR",        "ALL_TRANSFER",  "COMPUTE_SHADER",
                                           "ALL_COMMANDS", "BOTTOM_OF_PIPE"};
  // Accesses valid in the stages above (a random one is paired with a stage that supports it).
  auto random_access_for = [&](const std::string& stage, bool src) -> std::string {
    std::vector<const char*> ok = {"NONE"};
    if (stage == "COPY" || stage == "ALL_TRANSFER" || stage == "ALL_COMMANDS") {
      ok.push_back("TRANSFER_WRITE");
      ok.push_back("TRANSFER_READ");
    }
    if (stage == "CLEAR") ok.push_back("TRANSFER_WRITE");
    if (stage == "COMPUTE_SHADER" || stage == "ALL_COMMANDS") {
      ok.push_back("SHADER_STORAGE_WRITE");
      ok.push_back("SHADER_WRITE");
      if (!src) {
        ok.push_back("SHADER_STORAGE_READ");
        ok.push_back("SHADER_SAMPLED_READ");
        ok.push_back("SHADER_READ");
      }
    }
    if (stage == "ALL_COMMANDS") {
      ok.push_back("MEMORY_WRITE");
      if (!src) ok.push_back("MEMORY_READ");
    }
    if (stage == "TOP_OF_PIPE" || stage == "BOTTOM_OF_PIPE" || stage == "NONE") return "NONE";
    return ok[pick(ok.size())];
  };

  struct Res {
    bool buffer = false;
    uint32_t mips = 1, layers = 1;
    std::vector<std::string> layout;  // per subresource, the generator's belief
    int last = -1;                    // index into `accesses` of the last use
  };
  json j;
  j["api"] = "vulkan";
  const size_t nres = 2 + pick(2);
  if (sync) multi = true;
  const bool two_queues = !sync && multi && chance(0.25);
  std::vector<Res> res(nres);
  for (size_t i = 0; i < nres; ++i) {
    Res& r = res[i];
    r.buffer = chance(0.35);
    json jr{{"name", "r" + std::to_string(i)}, {"type", r.buffer ? "buffer" : "texture"}};
    if (!r.buffer) {
      r.mips = chance(0.3) ? 2 : 1;
      r.layers = chance(0.3) ? 2 : 1;
      jr["mips"] = r.mips;
      jr["layers"] = r.layers;
      const std::string init = chance(0.2) ? "GENERAL" : "UNDEFINED";
      if (init != "UNDEFINED") jr["initial"] = init;
      r.layout.assign(r.mips * r.layers, init);
    }
    if (two_queues) jr["flags"] = json::array({"concurrent"});
    j["resources"].push_back(jr);
  }

  const size_t nsub = sync ? 2 : !multi ? 1 : two_queues ? 2 + pick(2) : 1 + pick(2);
  const size_t ncmd = std::max(nsub, 2 + pick(3));  // uses; each may get a barrier call before it
  std::vector<json> lists(nsub, json::array());
  size_t emitted = 0;
  for (size_t s = 0; s < nsub; ++s) {
    // At least one command per list; the rest spread over the lists.
    const size_t left_lists = nsub - s - 1;
    const size_t room = ncmd - emitted - left_lists;
    const size_t here = s + 1 == nsub ? room : 1 + pick(room);
    for (size_t k = 0; k < here; ++k, ++emitted) {
      const size_t ri = pick(nres);
      Res& r = res[ri];
      const std::string name = "r" + std::to_string(ri);
      std::vector<size_t> ok;
      for (size_t a = 0; a < accesses.size(); ++a)
        if (r.buffer ? accesses[a].buffer_ok : accesses[a].image_ok) ok.push_back(a);
      const size_t ai = ok[pick(ok.size())];
      const Access& a = accesses[ai];
      // Which subresources: all, or one.
      int64_t sub = -1;
      if (!r.buffer && r.layout.size() > 1 && chance(0.6)) sub = static_cast<int64_t>(pick(r.layout.size()));
      std::string want = r.buffer ? "" : a.layouts[pick(a.layouts.size())];
      const std::string& cur = r.buffer ? want : r.layout[sub < 0 ? 0 : static_cast<size_t>(sub)];
      bool cur_ok = false;
      for (const char* l : a.layouts) cur_ok |= cur == l;
      if (!r.buffer && cur_ok && chance(0.7)) want = cur;
      // The barrier before the use: a correct one, perturbed, or none.
      if (chance(0.75)) {
        json calls = json::array();
        const bool need_layout = !r.buffer && want != cur;
        json b;
        const bool memory = !need_layout && chance(0.15);
        b["type"] = memory ? "memory" : (r.buffer ? "buffer" : "image");
        if (!memory) b["resource"] = name;
        std::string ss = r.last < 0 ? "NONE" : accesses[static_cast<size_t>(r.last)].stage;
        std::string sa = r.last < 0 || !accesses[static_cast<size_t>(r.last)].write
                             ? "NONE"
                             : accesses[static_cast<size_t>(r.last)].access;
        std::string ds = a.stage, da = a.access;
        if (chance(0.25)) {
          ss = stages[pick(stages.size())];
          sa = random_access_for(ss, true);
        }
        if (chance(0.25)) {
          ds = stages[pick(stages.size())];
          da = random_access_for(ds, false);
        }
        if (chance(0.1)) sa = "NONE";
        if (chance(0.1)) da = "NONE";
        b["src_stage"] = ss;
        b["src_access"] = sa;
        b["dst_stage"] = ds;
        b["dst_access"] = da;
        if (!r.buffer && !memory) {
          // Range: the use's subresources, sometimes all or one other (partial barriers).
          int64_t bsub = sub;
          if (chance(0.15)) bsub = r.layout.size() > 1 ? static_cast<int64_t>(pick(r.layout.size())) : -1;
          std::string old = r.layout[bsub < 0 ? 0 : static_cast<size_t>(bsub)];
          if (chance(0.1)) old = chance(0.5) ? "UNDEFINED" : "TRANSFER_SRC_OPTIMAL";
          b["old_layout"] = old;
          b["new_layout"] = want;
          if (bsub < 0) {
            b["range"] = "all";
            for (auto& l : r.layout) l = want;
          } else {
            const uint32_t m = static_cast<uint32_t>(bsub) % r.mips, l = static_cast<uint32_t>(bsub) / r.mips;
            b["range"] = {{"mips", {m, 1}}, {"layers", {l, 1}}};
            r.layout[static_cast<size_t>(bsub)] = want;
          }
        }
        calls.push_back(b);
        // BY_REGION on some calls, from a stream of its own (the traces are otherwise unchanged by it).
        if (std::uniform_int_distribution<int>(0, 7)(flag_rng) == 0)
          lists[s].push_back({{"barrier", {{"dependency_flags", "BY_REGION"}, {"barriers", calls}}}});
        else
          lists[s].push_back({{"barrier", calls}});
      }
      json as{{"stage", a.stage}, {"access", a.access}};
      if (!r.buffer) as["layout"] = want;
      json use{{"resource", name}, {"as", as}};
      if (sub < 0)
        use["subresource"] = "all";
      else
        use["subresource"] = sub;
      // A render pass instance instead of the use (one subresource the generator believes in GENERAL, the
      // use's layout): its load operation reads
      // (LOAD) or writes (CLEAR, DONT_CARE), its store writes (STORE, DONT_CARE) or accesses nothing (NONE).
      // The barriers stay those for the use: the generator's other choices are the seed's as before.
      // Only on a graphics queue (a compute list cannot render: VUID-vkCmdBeginRendering-commandBuffer-cmdpool).
      if (features && !r.buffer && want == "GENERAL" && (sub >= 0 || r.layout.size() == 1) &&
          !(two_queues && s % 2 == 1) &&
          r.layout[sub < 0 ? 0 : static_cast<size_t>(sub)] == "GENERAL" &&
          std::uniform_int_distribution<int>(0, 3)(render_rng) == 0) {
        static constexpr const char* kLoads[] = {"LOAD", "CLEAR", "DONT_CARE"};
        static constexpr const char* kStores[] = {"STORE", "DONT_CARE", "NONE"};
        const json att{{"resource", name},
                       {"subresource", sub < 0 ? 0 : sub},
                       {"layout", "GENERAL"},
                       {"load", kLoads[std::uniform_int_distribution<int>(0, 2)(render_rng)]},
                       {"store", kStores[std::uniform_int_distribution<int>(0, 2)(render_rng)]}};
        lists[s].push_back({{"begin_rendering", {{"color", json::array({att})}}}});
        lists[s].push_back({{"end_rendering", json::object()}});
      } else {
        lists[s].push_back({{"use", use}});
      }
      r.last = static_cast<int>(ai);
    }
  }
  for (size_t s = 0; s < nsub; ++s) {
    const bool second = two_queues && s % 2 == 1;
    j["lists"].push_back(
        {{"name", "L" + std::to_string(s)}, {"type", second ? "compute" : "direct"}, {"commands", lists[s]}});
    json sj{{"queue", second ? "compute" : "graphics"},
            {"type", second ? "compute" : "direct"},
            {"family", second ? 1 : 0},
            {"lists", {"L" + std::to_string(s)}}};
    if (two_queues && s + 1 < nsub && chance(0.7)) sj["signal"] = {"s" + std::to_string(s)};
    j["submissions"].push_back(sj);
  }
  // Waits: a submission waits for the previous one's signal, when there is one.
  for (size_t s = 1; s < nsub; ++s)
    if (j["submissions"][s - 1].contains("signal"))
      j["submissions"][s]["wait"] = {"s" + std::to_string(s - 1)};
  if (sync) {
    // No TOP_OF_PIPE: D7 of docs/replay.md (the layer chains a later first scope of TOP_OF_PIPE with it).
    const std::vector<const char*> wait_stages = {
        "ALL_COMMANDS",   "COPY",           "CLEAR",           "ALL_TRANSFER",
        "COMPUTE_SHADER", "BOTTOM_OF_PIPE", "FRAGMENT_SHADER", "COPY|COMPUTE_SHADER"};
    uint64_t timeline = 0;
    // Half of the signals name a stage mask (the signal's first scope), from the wait stages above.
    auto signal_stage = [&](json signal) {
      const size_t k = std::uniform_int_distribution<size_t>(0, 2 * wait_stages.size() - 1)(signal_rng);
      if (!features || k >= wait_stages.size()) return signal;
      if (signal.is_string()) signal = json{{"semaphore", signal}};
      signal["stage"] = wait_stages[k];
      return signal;
    };
    for (size_t s = 1; s < nsub; ++s) {
      json& prev = j["submissions"][s - 1];
      json& sub = j["submissions"][s];
      const std::string stage = wait_stages[pick(wait_stages.size())];
      switch (pick(7)) {
        case 0:
          // Queue order alone; a third of these also wait on a value the host signaled (vkSignalSemaphore),
          // which orders no device work.
          if (std::uniform_int_distribution<int>(0, 2)(signal_rng) == 0 && features) {
            sub["host_signal"].push_back({{"semaphore", "h"}, {"value", s}});
            sub["wait"].push_back({{"semaphore", "h"}, {"value", s}, {"stage", stage}});
          }
          break;
        case 1:
        case 2: {
          const std::string sem = "s" + std::to_string(s);
          prev["signal"].push_back(signal_stage(sem));
          sub["wait"].push_back({{"semaphore", sem}, {"stage", stage}});
          break;
        }
        case 3:
        case 4: {
          timeline += 1 + pick(3);
          prev["signal"].push_back(signal_stage({{"semaphore", "t"}, {"value", timeline}}));
          sub["wait"].push_back(
              {{"semaphore", "t"}, {"value", 1 + pick(static_cast<size_t>(timeline))}, {"stage", stage}});
          break;
        }
        case 5: {
          const std::string fence = "f" + std::to_string(s);
          prev["fence"] = fence;
          sub["host_wait"].push_back({{"fence", fence}});
          break;
        }
        default:
          sub["host_wait"].push_back(chance(0.5) ? json("device") : json{{"queue", "graphics"}});
          break;
      }
    }
  }
  // Secondary command buffers, from a stream of their own (the rest of the trace is the seed's as
  // before): a quarter of the lists with two or more commands move a run of them (with no dispatch)
  // into one or two secondary lists executed at that point (vkCmdExecuteCommands): the same commands in
  // the same order.
  std::mt19937_64 secondary_rng(seed ^ 0x9e3779b9u);
  auto draw = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(secondary_rng); };
  json secondaries = json::array();
  for (json& list : j["lists"]) {
    json& cmds = list["commands"];
    if (!features || cmds.size() < 2 || draw(4) != 0) continue;
    const size_t first = draw(cmds.size());
    const size_t count = 1 + draw(cmds.size() - first);
    // No dispatches in secondaries: lavapipe of Mesa 22.3 crashes recording one (docs/replay.md).
    bool dispatch = false;
    for (size_t c = first; c < first + count; ++c)
      dispatch |= (cmds[c].contains("use") && cmds[c]["use"]["as"]["stage"] == "COMPUTE_SHADER") ||
                  cmds[c].contains("begin_rendering") || cmds[c].contains("end_rendering");
    if (dispatch) continue;  // (render pass instances stay in their primary list, whole)
    const size_t parts = count >= 2 ? 1 + draw(2) : 1;
    json names = json::array();
    for (size_t p = 0; p < parts; ++p) {
      const size_t lo = first + count * p / parts, hi = first + count * (p + 1) / parts;
      const std::string name = list["name"].get<std::string>() + "_secondary" + std::to_string(p);
      json sec{{"name", name}, {"type", list["type"]}, {"level", "secondary"}, {"commands", json::array()}};
      for (size_t c = lo; c < hi; ++c) sec["commands"].push_back(cmds[c]);
      secondaries.push_back(sec);
      names.push_back(name);
    }
    json out = json::array();
    for (size_t c = 0; c < cmds.size(); ++c) {
      if (c == first) out.push_back({{"execute", names}});
      if (c < first || c >= first + count) out.push_back(cmds[c]);
    }
    cmds = out;
  }
  for (json& sec : secondaries) j["lists"].push_back(sec);
  return j.dump();
}

}  // namespace baton::exec::test
