// Phase 1: validate. Checks every declaration and derives the dependency edges from declaration
// order (read after write, write after read, explicit `after`), then rejects cycles, ambiguous
// write orders and outputs nobody produces. Every error is one line naming the pass and resource.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include "baton/graph.hpp"
#include "baton/rules.hpp"

namespace baton::graph {
namespace {

// The whole resource as use_extent sees it: a buffer's bytes, a texture's subresources (byte ranges of
// one buffer that do not overlap neither conflict in a pass nor make a write order ambiguous).
Box whole_extent(const ResourceDesc& d) { return d.type == ResourceType::buffer ? buffer_extent(d) : full_box(d); }

std::string queue_name(Queue q) { return q == Queue::direct ? "graphics" : std::string(to_string(q)); }


thread_local uint64_t overlap_queries = 0;  // validate_overlap_queries()

// The intervals of box b of resource d in one index space, as f(lo, hi): a buffer's bytes; a
// texture's run index (RunOrder, mip-major: one interval per (mip, plane), whatever its layer count).
template <class F>
void for_each_cell_interval(const ResourceDesc& d, const Box& b, F&& f) {
  if (d.type == ResourceType::buffer) return f(b.m0, b.m1);
  const uint32_t slice = d.mips * d.layers;
  for (uint32_t p = b.p0; p < b.p1; ++p)
    for (uint32_t m = b.m0; m < b.m1; ++m)
      f(p * slice + m * d.layers + b.l0, p * slice + m * d.layers + b.l1);
}

// The first pair (i, j), i < j, of uses of one pass (least i, then least j) that touch a subresource of one
// resource with conflicting accesses, without comparing every pair: uses are grouped by resource; a
// resource whose accesses cannot conflict (one access, or reads only) is skipped; a few uses are compared
// pairwise; otherwise a sweep from the last use back finds the least i whose cells a later use of a
// conflicting access covers (per access, the union of the later uses' intervals), and one scan of the
// later uses finds its j. O(uses x intervals per use x log) per resource.
std::optional<std::pair<uint32_t, uint32_t>> first_conflict(const Graph& g, const Pass& pass,
                                                            const std::vector<Box>& boxes) {
  const auto n = static_cast<uint32_t>(pass.uses.size());
  if (n < 2) return std::nullopt;
  const std::vector<PassUse>& uses = pass.uses;
  auto clash = [&](uint32_t i, uint32_t j) {
    ++overlap_queries;
    return uses[i].resource == uses[j].resource && conflicts(uses[i].access, uses[j].access) &&
           overlaps(boxes[i], boxes[j]);
  };
  std::optional<std::pair<uint32_t, uint32_t>> best;
  if (n <= 16) {  // the common case: every pair, in order, costs less than any grouping
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t j = i + 1; j < n; ++j)
        if (clash(i, j)) return std::pair{i, j};
    return best;
  }
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(),
                   [&](uint32_t a, uint32_t b) { return uses[a].resource < uses[b].resource; });
  for (uint32_t lo = 0; lo < n;) {
    uint32_t hi = lo + 1;
    while (hi < n && uses[idx[hi]].resource == uses[idx[lo]].resource) ++hi;
    const uint32_t first = idx[lo];  // idx[lo, hi) is in index order (stable sort)
    if (hi - lo < 2 || (best && first >= best->first)) {
      lo = hi;
      continue;
    }
    std::array<int8_t, kAccessCount> slot{};
    slot.fill(-1);
    std::vector<Access> present;
    for (uint32_t k = lo; k < hi; ++k) {
      const Access a = uses[idx[k]].access;
      if (slot[static_cast<size_t>(a)] < 0) {
        slot[static_cast<size_t>(a)] = static_cast<int8_t>(present.size());
        present.push_back(a);
      }
    }
    bool can_conflict = false;
    for (size_t x = 0; x < present.size() && !can_conflict; ++x)
      for (size_t y = x + 1; y < present.size() && !can_conflict; ++y)
        can_conflict = conflicts(present[x], present[y]);
    if (!can_conflict) {
      lo = hi;
      continue;
    }
    const ResourceDesc& d = g.resources[uses[first].resource].desc;
    // The least i with a conflicting later use: per access, the cells the later uses cover.
    std::vector<IntervalSet> later(present.size());
    uint32_t least = kNone;
    for (uint32_t k = hi; k-- > lo;) {
      const uint32_t i = idx[k];
      const Access a = uses[i].access;
      bool hit = false;
      for_each_cell_interval(d, boxes[i], [&](uint32_t a0, uint32_t a1) {
        for (size_t x = 0; x < present.size() && !hit; ++x) {
          if (!conflicts(present[x], a)) continue;
          ++overlap_queries;
          hit = later[x].overlaps(a0, a1);
        }
      });
      if (hit) least = i;
      IntervalSet& mine = later[static_cast<size_t>(slot[static_cast<size_t>(a)])];
      for_each_cell_interval(d, boxes[i], [&](uint32_t a0, uint32_t a1) { mine.add(a0, a1); });
    }
    if (least != kNone && (!best || least < best->first)) {
      for (uint32_t k = lo; k < hi; ++k)
        if (idx[k] > least && clash(least, idx[k])) {
          best = std::pair{least, idx[k]};
          break;
        }
    }
    lo = hi;
  }
  return best;
}

// Per resource, what the walk reads per use, taken out of the (large) ResourceDesc at its first use: the
// whole extent, the accesses use_rule() rejects outright on it, its type and whether it is transient.
struct Facts {
  Box whole;
  AccessMask illegal = 0;
  bool buffer = false, transient = false;
};

// use_rule(d, a, s, q, false)'s fast acceptance (baton/rules.hpp; keep the two in step), from the
// resource's facts: true means the use is legal; false means ask use_rule(), which has the last word (and
// the message). RulesEveryPath.OneUse and the graph error tests fail if this accepts too much.
bool plainly_legal(const Facts& f, Access a, Stages s, Queue q) {
  const AccessMask b = bit(a);
  return !(f.illegal & b) && ((kShaderAccesses & b) != 0) != (s == kNoStages) &&
         (q == Queue::direct || queue_allows(q, a, s));
}

Facts facts_of(const Resource& r) {
  constexpr AccessMask depth = core_detail::accesses_with(access_facts::depth_format);
  constexpr AccessMask color = core_detail::accesses_with(access_facts::color_format);
  const ResourceDesc& d = r.desc;
  Facts f;
  f.whole = whole_extent(d);
  f.buffer = d.type == ResourceType::buffer;
  f.transient = r.transient;
  f.illegal = f.buffer ? kTextureOnlyAccesses
                       : kBufferOnlyAccesses | (d.swapchain ? 0 : bit(Access::present)) |
                             (d.format == FormatClass::color ? depth : color);
  return f;
}

struct Touch {
  uint32_t resource = 0;
  bool reads = false;  // pure read, or a write that keeps contents
  bool pure_read = false;
  bool writes = false;
  Box write_box{};
};

}  // namespace

Validated validate(const Graph& g) {
  const size_t np = g.passes.size(), nr = g.resources.size();
  Validated v;
  v.in_first.assign(np + 1, 0);
  v.edges.reserve(np * 2);
  // Per resource, one record (one allocation, one cache line touched per use): the latest writer,
  // its write box, and the readers of that version. The readers live in one shared pool as
  // singly linked lists in read order; a write just forgets its list (head = kNone). A vector of
  // vectors here cost one heap allocation per read resource, which dominated at 100k passes.
  struct Version {
    uint32_t last_writer = kNone;
    uint32_t readers_head = kNone, readers_tail = kNone;  // indices into `reader_pool`
    uint32_t write_box = kNone;  // index into `partial_boxes`; kNone: the write covered the whole resource
  };
  struct Reader {
    uint32_t pass, next;
  };
  struct Candidate {
    uint32_t first, second, resource;
  };
  // Every array of the walk is per-thread scratch, kept from call to call: in steady state the walk
  // allocates only its result.
  thread_local struct {
    std::vector<Facts> facts;
    std::vector<Version> version;
    std::vector<Reader> reader_pool;
    std::vector<Box> partial_boxes;
    std::vector<Candidate> ambiguous;
    std::vector<Box> boxes;
    std::vector<Touch> touches;
    std::vector<uint32_t> touch_of;
    std::vector<uint32_t> seen_in;
  } scratch;
  // Filled at a resource's first use (seen_in[r] == kNone): no walk over resources nobody uses, and the
  // record is read while the use has it in cache. Only used resources' facts are read.
  std::vector<Facts>& facts = scratch.facts;
  facts.resize(nr);
  std::vector<Version>& version = scratch.version;
  version.assign(nr, Version{});
  std::vector<Reader>& reader_pool = scratch.reader_pool;
  reader_pool.clear();
  reader_pool.reserve(np * 2);
  // Most writes cover the whole resource; only the others keep their box (keeps Version at 16 bytes).
  std::vector<Box>& partial_boxes = scratch.partial_boxes;
  partial_boxes.clear();
  auto last_write_box = [&](uint32_t r) {
    return version[r].write_box == kNone ? facts[r].whole : partial_boxes[version[r].write_box];
  };
  std::vector<Candidate>& ambiguous = scratch.ambiguous;
  ambiguous.clear();
  std::vector<Box>& boxes = scratch.boxes;
  std::vector<Touch>& touches = scratch.touches;
  std::vector<uint32_t>& touch_of = scratch.touch_of;  // per resource: its index in `touches` during a pass
  touch_of.assign(nr, kNone);
  std::vector<uint32_t>& seen_in = scratch.seen_in;  // per resource: the last pass that used it
  seen_in.assign(nr, kNone);
  bool backward = false;

  for (uint32_t p = 0; p < np; ++p) {
    const Pass& pass = g.passes[p];
    v.in_first[p] = static_cast<uint32_t>(v.edges.size());
    // Both scratch lists are sized once per pass and filled by index: building a Touch or Box in
    // a temporary and push_back-ing it stalled on store-to-load forwarding in this hot loop.
    const PassUse* const uses = pass.uses.data();
    const size_t nu = pass.uses.size();
    boxes.resize(nu);
    touches.clear();
    // Only uses of one resource can conflict: a few uses on distinct resources need no search.
    bool shared = nu > 16;
    for (size_t i = 0; i < nu; ++i) {
      const PassUse& u = uses[i];
      // Errors start with the JSON pointer of the pass or use (the index in Graph::passes, which is
      // the file's order); the commands put the file name in front (input::located).
      if (u.resource >= nr)
        throw Error(
            fmt::format("/passes/{}/uses/{}: pass '{}': unknown resource #{}", p, i, pass.name, u.resource));
      if (seen_in[u.resource] == kNone) facts[u.resource] = facts_of(g.resources[u.resource]);
      shared |= seen_in[u.resource] == p;
      seen_in[u.resource] = p;
      const Facts& f = facts[u.resource];
      // The rules catalog (baton/rules.hpp), as for recordings; the graph calls the direct queue "graphics".
      if (!plainly_legal(f, u.access, u.stages, pass.queue)) {
        const ResourceDesc& d = g.resources[u.resource].desc;
        if (use_rule(d, u.access, u.stages, pass.queue, false) != Rule::none)
          throw Error(fmt::format(
              "/passes/{}/uses/{}: pass '{}' ({} queue), resource '{}': {}", p, i, pass.name,
              queue_name(pass.queue), d.name,
              check_use(d, u.access, u.stages, pass.queue, queue_name(pass.queue), false)->message));
      }
      if (is_whole(u.range)) {  // the common case, without the out-of-line resolve (same box)
        boxes[i] = f.whole;
        continue;
      }
      const ResourceDesc& d = g.resources[u.resource].desc;
      try {
        boxes[i] = use_extent(d, u.range);
      } catch (const Error& e) {
        throw Error(fmt::format("/passes/{}/uses/{}: pass '{}': {}", p, i, pass.name,
                                e.what()));  // ends with resolve()'s [R0210]
      }
    }
    // Two uses of one subresource in one pass: reads merge, the same write merges, anything else
    // has no order inside the pass. The first such pair (i, j) in use order.
    if (const auto c = shared ? first_conflict(g, pass, boxes) : std::nullopt) {
      const auto [i, j] = *c;
      const PassUse& a = pass.uses[i];
      const PassUse& b = pass.uses[j];
      const ResourceDesc& d = g.resources[a.resource].desc;
      throw Error(fmt::format(
          "/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, j, pass.name, d.name,
          conflict_message(i, a.access, j, b.access, extent_text(intersect(boxes[i], boxes[j]), d))));
    }
    // The pass's effect on one resource, in the order the pass first touches them.
    auto apply = [&](const Touch& t) __attribute__((always_inline)) {
      const uint32_t r = t.resource;
      Version& ver = version[r];
      if (t.reads && ver.last_writer != kNone) {
        v.edges.push_back({ver.last_writer, p, EdgeKind::read_after_write, r});
      } else if (t.pure_read && ver.last_writer == kNone && facts[r].transient) {
        size_t k = 0;
        while (k + 1 < pass.uses.size() && pass.uses[k].resource != r) ++k;
        throw Error(fmt::format("/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, k, pass.name,
                                g.resources[r].desc.name, rule_message(Rule::transient_read_first, {})));
      }
      if (!t.writes) {  // append p to the readers of the current version
        const uint32_t node = static_cast<uint32_t>(reader_pool.size());
        reader_pool.push_back({p, kNone});
        if (ver.readers_head == kNone) ver.readers_head = node;
        else reader_pool[ver.readers_tail].next = node;
        ver.readers_tail = node;
        return;
      }
      for (uint32_t n = ver.readers_head; n != kNone; n = reader_pool[n].next)
        if (reader_pool[n].pass != p) v.edges.push_back({reader_pool[n].pass, p, EdgeKind::write_after_read, r});
      // A blind overwrite of what another pass wrote needs a path between the two.
      if (ver.last_writer != kNone && !t.reads && ver.readers_head == kNone && overlaps(last_write_box(r), t.write_box))
        ambiguous.push_back({ver.last_writer, p, r});
      ver.readers_head = ver.readers_tail = kNone;
      ver.last_writer = p;
      if (t.write_box == facts[r].whole) {
        ver.write_box = kNone;
      } else {
        ver.write_box = static_cast<uint32_t>(partial_boxes.size());
        partial_boxes.push_back(t.write_box);
      }
    };
    if (!shared) {
      // Every use on its own resource (the usual pass): each use is its resource's record.
      for (size_t i = 0; i < nu; ++i) {
        const PassUse& u = uses[i];
        Touch t;
        t.resource = u.resource;
        if (is_write(u.access)) {
          // As below: a write of some bytes of a buffer keeps the others.
          const Facts& f = facts[u.resource];
          t.reads = keeps_contents(u.access) || (f.buffer && has_bytes(u.range) && !(boxes[i] == f.whole));
          t.writes = true;
          t.write_box = boxes[i];
        } else {
          t.reads = t.pure_read = true;
          t.write_box = Box{0, 0, 0, 0, 0, 0};
        }
        apply(t);
      }
    } else {
      for (size_t i = 0; i < nu; ++i) {
        const PassUse& u = uses[i];
        // The pass's record of u's resource (touch_of: per resource, kNone between passes).
        if (touch_of[u.resource] == kNone) {
          touch_of[u.resource] = static_cast<uint32_t>(touches.size());
          Touch& t = touches.emplace_back();
          t.resource = u.resource;
          t.write_box = Box{0, 0, 0, 0, 0, 0};
        }
        Touch* const it = &touches[touch_of[u.resource]];
        if (is_write(u.access)) {
          // A write of some bytes of a buffer keeps the others: it depends on the previous writer (so a
          // pass writing the other bytes is neither culled nor unordered against it), as a
          // read-modify-write access does.
          const Facts& f = facts[u.resource];
          it->reads |= keeps_contents(u.access) || (f.buffer && has_bytes(u.range) && !(boxes[i] == f.whole));
          const Box& b = boxes[i];
          if (!it->writes) {
            it->write_box = b;
          } else {  // bounding box of the pass's writes
            Box& w = it->write_box;
            w = Box{std::min(w.m0, b.m0), std::max(w.m1, b.m1), std::min(w.l0, b.l0),
                    std::max(w.l1, b.l1), std::min(w.p0, b.p0), std::max(w.p1, b.p1)};
          }
          it->writes = true;
        } else {
          it->reads = it->pure_read = true;
        }
      }
      for (const Touch& t : touches) touch_of[t.resource] = kNone;
      for (const Touch& t : touches) apply(t);
    }
    for (size_t k = 0; k < pass.after.size(); ++k) {
      const uint32_t a = pass.after[k];
      if (a >= np)
        throw Error(fmt::format("/passes/{}/after/{}: pass '{}': \"after\" names unknown pass #{}", p, k,
                                pass.name, a));
      if (a == p)
        throw Error(fmt::format("/passes/{}/after/{}: pass '{}': {}", p, k, pass.name,
                                rule_message(Rule::after_itself, {})));
      backward |= a > p;
      v.edges.push_back({a, p, EdgeKind::explicit_order, kNone});
    }
  }
  v.in_first[np] = static_cast<uint32_t>(v.edges.size());

  // Cycles: every derived edge points forward in declaration order, so only `after` can close one.
  if (backward) {
    // Successors in CSR form (counting sort by `from`, keeping edge order): one allocation
    // instead of one vector per pass.
    std::vector<uint32_t> indeg(np, 0), out_first(np + 1, 0), out(v.edges.size());
    for (const Edge& e : v.edges) {
      ++indeg[e.to];
      ++out_first[e.from + 1];
    }
    for (size_t p = 0; p < np; ++p) out_first[p + 1] += out_first[p];
    {
      std::vector<uint32_t> fill(out_first.begin(), out_first.end() - 1);
      for (const Edge& e : v.edges) out[fill[e.from]++] = e.to;
    }
    std::vector<uint32_t> ready;
    for (uint32_t p = 0; p < np; ++p)
      if (!indeg[p]) ready.push_back(p);
    size_t done = 0;
    while (!ready.empty()) {
      const uint32_t p = ready.back();
      ready.pop_back();
      ++done;
      for (uint32_t i = out_first[p]; i < out_first[p + 1]; ++i)
        if (--indeg[out[i]] == 0) ready.push_back(out[i]);
    }
    if (done != np) {
      // Walk backwards along edges inside the remaining set until a pass repeats: that is a cycle.
      uint32_t p = 0;
      while (indeg[p] == 0) ++p;
      std::vector<uint32_t> seen(np, kNone), path;
      while (seen[p] == kNone) {
        seen[p] = static_cast<uint32_t>(path.size());
        path.push_back(p);
        for (uint32_t e = v.in_first[p]; e < v.in_first[p + 1]; ++e)
          if (indeg[v.edges[e].from] != 0) {
            p = v.edges[e].from;
            break;
          }
      }
      // path[i + 1] runs before path[i], and p before path.back(): print in execution order.
      std::string text = "'" + g.passes[p].name + "'";
      for (size_t i = path.size(); i-- > seen[p];) text += " -> '" + g.passes[path[i]].name + "'";
      const Edge* resource_edge = nullptr;
      for (size_t i = seen[p]; i < path.size() && !resource_edge; ++i)
        for (uint32_t e = v.in_first[path[i]]; e < v.in_first[path[i] + 1]; ++e)
          if (v.edges[e].resource != kNone && indeg[v.edges[e].from] != 0) resource_edge = &v.edges[e];
      // Only "after" closes a cycle: the pointer is the "after" of a pass on it.
      uint32_t at = p;
      for (size_t i = seen[p]; i < path.size(); ++i)
        if (!g.passes[path[i]].after.empty()) at = path[i];
      if (resource_edge)
        text += fmt::format(" (through resource '{}')", g.resources[resource_edge->resource].desc.name);
      RuleArgs args;
      args.detail = text;
      throw Error(fmt::format("/passes/{}/after: pass '{}': {}", at, g.passes[p].name,
                              rule_message(Rule::dependency_cycle, args)));
    }
  }

  // Ambiguous write order: the second writer must be reachable from the first. Without backward
  // edges a path from a to b only visits passes declared between them.
  if (!ambiguous.empty()) {
    std::vector<uint32_t> stamp(np, kNone), stack;
    for (size_t c = 0; c < ambiguous.size(); ++c) {
      const Candidate& k = ambiguous[c];
      bool found = false;
      stack.assign(1, k.second);
      stamp[k.second] = static_cast<uint32_t>(c);
      while (!stack.empty() && !found) {
        const uint32_t p = stack.back();
        stack.pop_back();
        for (uint32_t e = v.in_first[p]; e < v.in_first[p + 1]; ++e) {
          const uint32_t f = v.edges[e].from;
          if (f == k.first) {
            found = true;
            break;
          }
          if (stamp[f] == c || (!backward && f < k.first)) continue;
          stamp[f] = static_cast<uint32_t>(c);
          stack.push_back(f);
        }
      }
      if (!found) {
        const std::string first = fmt::format("pass '{}'", g.passes[k.first].name);
        RuleArgs args;
        args.detail = first;
        throw Error(fmt::format("/passes/{}: pass '{}', resource '{}': {}", k.second, g.passes[k.second].name,
                                g.resources[k.resource].desc.name, rule_message(Rule::ambiguous_write_order, args)));
      }
    }
  }

  for (size_t oi = 0; oi < g.outputs.size(); ++oi) {
    const uint32_t o = g.outputs[oi];
    if (o >= nr) throw Error(fmt::format("/outputs/{}: output #{}: unknown resource", oi, o));
    const Resource& res = g.resources[o];
    if (version[o].last_writer == kNone)
      throw Error(fmt::format("/outputs/{}: output '{}': {}", oi, res.desc.name,
                              rule_message(Rule::output_not_written, {})));
    if (res.transient)
      throw Error(fmt::format("/outputs/{}: pass '{}', output '{}': {}", oi, g.passes[version[o].last_writer].name,
                              res.desc.name, rule_message(Rule::output_transient, {})));
  }
  return v;
}

uint64_t validate_overlap_queries() {
  return overlap_queries;
}

}  // namespace baton::graph
