// Phase 1: validate. Checks every declaration and derives the dependency edges from declaration
// order (read after write, write after read, explicit `after`), then rejects cycles, ambiguous
// write orders and outputs nobody produces. Every error is one line naming the pass and resource.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"
#include "baton/rules.hpp"
#include "validate_detail.hpp"

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

// Per resource, one record with everything the walk reads and writes per use: the last pass that used it,
// the facts taken out of the (large) ResourceDesc at its first use (the accesses use_rule() rejects
// outright on it, transient) and its current version (the latest writer, its write box, the readers of
// that version as a list in a shared pool: a write just forgets its list). The whole extent is not kept:
// only a use naming less than the whole resource, or a blind overwrite, needs it, and those take it from
// the description.
struct Rec {
  uint32_t last_writer;
  uint32_t readers;    // the version's latest reader, an index into the reader pool (newest first); kNone: none
  uint32_t write_box;  // index into the partial boxes; kNone: the write covered the whole
  AccessMask legal;    // the accesses use_rule() does not reject outright on the resource
  // The last pass p that used the resource as the stamp base + p (Scratch::epoch); below base: no pass of
  // this call yet (the record's other fields are a previous call's).
  uint32_t seen;
  bool transient;
};

__attribute__((always_inline)) inline void fill_rec(Rec& x, const Resource& r) {
  constexpr AccessMask depth = core_detail::accesses_with(access_facts::depth_format);
  constexpr AccessMask color = core_detail::accesses_with(access_facts::color_format);
  const ResourceDesc& d = r.desc;
  x.last_writer = x.readers = x.write_box = kNone;
  x.transient = r.transient;
  x.legal = ~(d.type == ResourceType::buffer ? kTextureOnlyAccesses
                       : kBufferOnlyAccesses | (d.swapchain ? 0 : bit(Access::present)) |
                             (d.format == FormatClass::color ? depth : color));
}

// use_rule(d, a, s, q, false)'s fast acceptance (baton/rules.hpp; keep the two in step), from the
// resource's facts and the pass's queue: true means the use is legal; false means ask use_rule(), which
// has the last word (and the message). RulesEveryPath.OneUse and the graph error tests fail if this
// accepts too much. queue_allows(q, a, s) is "a is done on q" (`on_queue`) and, for a shader access,
// "s names no stage q lacks" (`no_stages`); a use passing the stage test is a shader access exactly
// when it names stages, so the second part is a test of s alone. Per pass, the accesses q performs
// that are legal with no stages (`plain`: no shader access) and with stages it has (`shader`: shader
// accesses only); stages it lacks allow nothing.
struct QueueFacts {
  AccessMask plain, shader;
  Stages no_stages;  // stages q has no shaders for
};
QueueFacts queue_facts(Queue q) {
  constexpr AccessMask on_compute = core_detail::accesses_with(access_facts::on_compute);
  constexpr AccessMask on_copy = core_detail::accesses_with(access_facts::on_copy);
  AccessMask on_q = ~AccessMask{0};
  Stages no_stages = 0;
  switch (q) {
    case Queue::compute:
      on_q = on_compute;
      no_stages = static_cast<Stages>(Stage::vertex | Stage::pixel);
      break;
    case Queue::copy: on_q = on_copy; break;
    case Queue::direct: break;
  }
  return {on_q & ~kShaderAccesses, on_q & kShaderAccesses, no_stages};
}
bool plainly_legal(const Rec& x, const QueueFacts& qf, AccessMask a, Stages s) {
  const AccessMask with = s == kNoStages ? qf.plain : (s & qf.no_stages) ? 0 : qf.shader;
  return (with & x.legal & a) != 0;
}

// A record's version fields (its first three words) as they were before distinct_pass applied a write.
struct Saved {
  uint32_t last_writer, readers, write_box;
};
static_assert(offsetof(Rec, last_writer) == 0 && offsetof(Rec, readers) == 4 && offsetof(Rec, write_box) == 8);

struct Touch {
  uint32_t resource = 0;
  bool reads = false;  // pure read, or a write that keeps contents
  bool pure_read = false;
  bool writes = false;
  Box write_box{};
};
struct Reader {
  uint32_t pass, next;  // next: the reader of the same version before this one (kNone: none)
};
struct Candidate {
  uint32_t first, second, resource;
};

// The errors of a use, out of line (the walk's loops keep their registers).
[[noreturn]] __attribute__((noinline, cold)) void unknown_resource(uint32_t p, uint32_t i, const Pass& pass, uint32_t r) {
  throw Error(fmt::format("/passes/{}/uses/{}: pass '{}': unknown resource #{}", p, i, pass.name, r));
}
// use_rule() has the last word on a use the fast test did not accept: throws its message if illegal.
__attribute__((noinline)) void ask_use_rule(const Graph& g, uint32_t p, uint32_t i, const Pass& pass) {
  const PassUse& u = pass.uses[i];
  const ResourceDesc& d = g.resources[u.resource].desc;
  if (use_rule(d, u.access, u.stages, pass.queue, false) != Rule::none)
    throw Error(fmt::format("/passes/{}/uses/{}: pass '{}' ({} queue), resource '{}': {}", p, i, pass.name,
                            queue_name(pass.queue), d.name,
                            check_use(d, u.access, u.stages, pass.queue, queue_name(pass.queue), false)->message));
}
// The extent of a use that names less than the whole resource (out of line: the uncommon case).
__attribute__((noinline)) Box partial_extent(const Graph& g, uint32_t p, uint32_t i, const Pass& pass) {
  const PassUse& u = pass.uses[i];
  try {
    return use_extent(g.resources[u.resource].desc, u.range);
  } catch (const Error& e) {
    throw Error(fmt::format("/passes/{}/uses/{}: pass '{}': {}", p, i, pass.name,
                            e.what()));  // ends with resolve()'s [R0210]
  }
}
// A transient read (by pass p) before anything wrote it: the error names p's first use of it.
[[noreturn]] __attribute__((noinline, cold)) void read_first(const Graph& g, uint32_t r, uint32_t p, const Pass& pass) {
  size_t k = 0;
  while (k + 1 < pass.uses.size() && pass.uses[k].resource != r) ++k;
  throw Error(fmt::format("/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, k, pass.name,
                          g.resources[r].desc.name, rule_message(Rule::transient_read_first, {})));
}

// Passes with at most this many uses try the distinct-resources path (every pair of so few uses costs
// less than any grouping; first_conflict compares them pairwise too).
constexpr uint32_t kDistinctUses = 16;

// The walk's working arrays: per-thread scratch, kept from call to call (in steady state the walk
// allocates only its result).
struct Scratch {
  std::vector<Rec> recs;
  // Rec::seen's base for the next call: each call takes [epoch, epoch + passes) and moves it past them, so
  // no record needs clearing per call; when the stamps would wrap, every record's is cleared first.
  uint32_t epoch = 0;
  std::vector<Reader> reader_pool;
  std::vector<Box> partial_boxes;  // most writes cover the whole resource; only the others keep their box
  std::vector<Candidate> ambiguous;
  std::vector<Box> boxes;  // per use of the pass on the general path: its extent
  std::array<Saved, kDistinctUses> saved;  // distinct_pass's per write (in use order): its record's version before it
  std::vector<Touch> touches;
  std::vector<uint32_t> touch_of;  // per resource: its index in `touches` during a pass
};

// Where the walk writes its edges and readers: raw arrays with their counts, held by value in the
// walk's loop (so in registers: no store through them makes the compiler reload them). Room is made
// once per pass, before it (room_for_pass): each use adds at most one reader and one edge that is not a
// write-after-read edge, and each `after` one edge; a write makes room for its write-after-read edges
// itself (as many as the version's readers), keeping the pass's room.
struct Sink {
  Edge* edges;
  uint32_t n_edges, cap_edges;
  Reader* pool;
  uint32_t n_pool, cap_pool;
  uint32_t pass_room;  // the edges room_for_pass made room for
};
__attribute__((noinline)) void grow_edges(std::vector<Edge>& edges, Sink& k, uint32_t need) {
  edges.resize(std::max<size_t>(edges.size() * 2 + 64, size_t{k.n_edges} + need));
  k.edges = edges.data();
  k.cap_edges = static_cast<uint32_t>(edges.size());
}
__attribute__((noinline)) void grow_pool(std::vector<Reader>& pool, Sink& k, uint32_t need) {
  pool.resize(std::max<size_t>(pool.size() * 2 + 64, size_t{k.n_pool} + need));
  k.pool = pool.data();
  k.cap_pool = static_cast<uint32_t>(pool.size());
}

// The per-call facts of the walk.
struct WalkFacts {
  const Graph& g;
  Scratch& sc;
  std::vector<Edge>& edges;  // the result's (sized ahead; written through Sink::edges)
  Rec* recs;
  uint32_t base;  // Rec::seen of pass p in this call: base + p
  uint32_t nr;
  AccessMask keeps;  // keeps_contents() as a mask
  Saved* saved;      // kDistinctUses, for distinct_pass: per write of the pass, in use order
};

// Room for pass p's readers (one per use) and its edges other than write-after-read ones (one per use
// and per `after`).
__attribute__((always_inline)) inline void room_for_pass(const WalkFacts& w, Sink& k, uint32_t uses, uint32_t after) {
  k.pass_room = uses + after;
  if (k.cap_edges - k.n_edges < k.pass_room || k.cap_pool - k.n_pool < uses) {
    Sink t = k;  // the copy's address is taken, not k's
    if (t.cap_edges - t.n_edges < t.pass_room) grow_edges(w.edges, t, t.pass_room);
    if (t.cap_pool - t.n_pool < uses) grow_pool(w.sc.reader_pool, t, uses);
    k = t;
  }
}

// Stores an edge as two 8-byte words, {from, to} and {kind, resource} (the fields one at a time take half
// as many more: the compiler pairs the two ids through a vector register). The padding after `kind` is
// written as zero.
static_assert(std::endian::native == std::endian::little && sizeof(Edge) == 16 && offsetof(Edge, to) == 4 &&
              offsetof(Edge, kind) == 8 && offsetof(Edge, resource) == 12);
__attribute__((always_inline)) inline void put_edge(Edge* e, uint32_t from, uint32_t to, EdgeKind kind, uint32_t r) {
  const uint64_t ids = from | uint64_t{to} << 32, rest = static_cast<uint64_t>(kind) | uint64_t{r} << 32;
  std::memcpy(reinterpret_cast<char*>(e), &ids, 8);
  std::memcpy(reinterpret_cast<char*>(e) + 8, &rest, 8);
}

// A read of r's current version by pass p.
// A transient read before any write throws here, or, given `unwritten`, sets it (the caller reports it).
__attribute__((always_inline)) inline void read(const WalkFacts& w, Sink& k, Rec& x, uint32_t r, uint32_t p,
                                                const Pass& pass, bool* unwritten) {
  if (x.last_writer != kNone) {
    put_edge(&k.edges[k.n_edges++], x.last_writer, p, EdgeKind::read_after_write, r);
  } else if (x.transient) {
    if (!unwritten) read_first(w.g, r, p, pass);
    *unwritten = true;
  }
  const uint32_t node = k.n_pool++;
  k.pool[node] = {p, x.readers};
  x.readers = node;
}

// The write-after-read edges of a write by p: one from each reader of the version but p, in read order
// (the list is newest first: the edges are written from the last one back).
__attribute__((always_inline)) inline void war_edges(const WalkFacts& w, Sink& k, uint32_t head, uint32_t r,
                                                     uint32_t p) {
  uint32_t c = 0;
  for (uint32_t n = head; n != kNone; n = k.pool[n].next) c += k.pool[n].pass != p;
  if (k.cap_edges - k.n_edges < c + k.pass_room) {
    Sink t = k;
    grow_edges(w.edges, t, c + t.pass_room);
    k = t;
  }
  uint32_t at = k.n_edges + c;
  for (uint32_t n = head; n != kNone; n = k.pool[n].next)
    if (k.pool[n].pass != p) put_edge(&k.edges[--at], k.pool[n].pass, p, EdgeKind::write_after_read, r);
  k.n_edges += c;
}

// A blind overwrite (by p) of r's version, which another pass wrote and nobody read: the two writes need a
// path between them where their boxes overlap (out of line: the uncommon case, with the whole extent).
__attribute__((noinline)) void blind_overwrite(const WalkFacts& w, const Rec& x, uint32_t r, uint32_t p,
                                               const Box* box) {
  const Box all = whole_extent(w.g.resources[r].desc);
  if (overlaps(x.write_box == kNone ? all : w.sc.partial_boxes[x.write_box], box ? *box : all))
    w.sc.ambiguous.push_back({x.last_writer, p, r});
}
// The write box a write of `box` (less than the whole resource as named) leaves: kNone when it is the
// whole extent after all, else its index in the partial boxes.
__attribute__((noinline)) uint32_t partial_write_box(const WalkFacts& w, uint32_t r, const Box& box) {
  if (box == whole_extent(w.g.resources[r].desc)) return kNone;
  w.sc.partial_boxes.push_back(box);
  return static_cast<uint32_t>(w.sc.partial_boxes.size() - 1);
}

// A write of r by pass p over `*box` (null: the whole resource), depending on the previous contents
// when `reads`.
__attribute__((always_inline)) inline void write(const WalkFacts& w, Sink& k, Rec& x, uint32_t r, uint32_t p,
                                                 bool reads, const Box* box) {
  if (x.last_writer != kNone) {
    if (reads)
      put_edge(&k.edges[k.n_edges++], x.last_writer, p, EdgeKind::read_after_write, r);
    else if (x.readers == kNone)
      blind_overwrite(w, x, r, p, box);
  }
  if (x.readers != kNone) war_edges(w, k, x.readers, r, p);
  x.readers = kNone;
  x.last_writer = p;
  x.write_box = box ? partial_write_box(w, r, *box) : kNone;
}

// distinct_pass met a resource the pass already used at use `n`: puts back the records of uses [0, n)
// as they were before the pass (the edges and readers it added are dropped by the caller, which resets
// their counts), and the partial boxes and ambiguity candidates it added.
__attribute__((noinline, cold)) void undo_distinct(const WalkFacts& w, Reader* pool, const PassUse* uses, uint32_t n,
                                                   uint32_t p) {
  size_t partial_boxes = w.sc.partial_boxes.size();
  uint32_t writes = 0;  // the saved versions are the writes', in use order
  for (uint32_t i = 0; i < n; ++i) {
    Rec& x = w.recs[uses[i].resource];
    if (!is_write(uses[i].access)) {
      x.readers = pool[x.readers].next;  // a read put itself first in its resource's readers
      continue;
    }
    // A partial write pushed its box: the pass's first such box is where the list was.
    if (x.write_box != kNone) partial_boxes = std::min<size_t>(partial_boxes, x.write_box);
    const Saved& s = w.saved[writes++];
    x.last_writer = s.last_writer;
    x.readers = s.readers;
    x.write_box = s.write_box;
  }
  w.sc.partial_boxes.resize(partial_boxes);
  // The candidates this pass's writes added are the last ones, each with p second.
  while (!w.sc.ambiguous.empty() && w.sc.ambiguous.back().second == p) w.sc.ambiguous.pop_back();
}

// The first use of pass p (on distinct resources, applied) that read a transient nothing wrote: reads
// leave the latest writer as it was, and a use of another resource does not change it.
[[noreturn]] __attribute__((noinline, cold)) void unwritten_read(const WalkFacts& w, uint32_t p, const Pass& pass) {
  for (const PassUse& u : pass.uses) {
    const Rec& x = w.recs[u.resource];
    if (!is_write(u.access) && x.last_writer == kNone && x.transient) read_first(w.g, u.resource, p, pass);
  }
  throw Error("validate: unwritten_read found no such use");  // not reached
}

// The index of use u of a pass, for an error's pointer (out of line: the walk keeps only a pointer).
__attribute__((noinline, cold)) uint32_t use_index(const Pass& pass, const PassUse* u) {
  return static_cast<uint32_t>(u - pass.uses.data());
}

// distinct_pass's write of a use naming less than the whole resource (out of line: the uncommon case),
// the use's other checks passed: its extent (and that check), then the write of that box.
__attribute__((noinline)) void partial_write(const WalkFacts& w, Sink& k, Rec& x, uint32_t r, uint32_t p,
                                             const Pass& pass, const PassUse& u) {
  const Box box = partial_extent(w.g, p, use_index(pass, &u), pass);
  // A write of some bytes of a buffer keeps the others: it depends on the previous writer (so a pass
  // writing the other bytes is neither culled nor unordered against it), as a read-modify-write access
  // does.
  const ResourceDesc& d = w.g.resources[r].desc;
  const bool reads = (w.keeps & bit(u.access)) != 0 ||
                     (d.type == ResourceType::buffer && has_bytes(u.range) && !(box == whole_extent(d)));
  write(w, k, x, r, p, reads, &box);
}

// A pass whose uses are on distinct resources (the usual pass), checked and applied use by use in one
// loop. Returns false, having undone what it applied, at the first use of a resource the pass already
// used (the checks of the uses before it held): the general path then checks and applies the pass. A
// transient read before any write is reported after the loop, so that the checks of every use come
// first, as on the general path (the uses are on distinct resources: applying one use does not change
// what another reads).
__attribute__((always_inline)) inline bool distinct_pass(const WalkFacts& w, Sink& k, uint32_t p, const Pass& pass) {
  const PassUse* const uses = pass.uses.data();
  const PassUse* const end = uses + pass.uses.size();  // at most kDistinctUses
  const QueueFacts qf = queue_facts(pass.queue);
  Rec* const recs = w.recs;
  const uint32_t base = w.base, stamp = base + p;
  const uint32_t nr = w.nr;
  const uint32_t edges0 = k.n_edges, pool0 = k.n_pool;
  Saved* saved = w.saved;  // the next write's
  bool unwritten = false;  // a use read a transient nothing wrote yet
  for (const PassUse* u = uses; u != end; ++u) {
    const uint32_t r = u->resource;
    // Errors start with the JSON pointer of the pass or use (the index in Graph::passes, which is
    // the file's order); the commands put the file name in front (input::located).
    if (r >= nr) unknown_resource(p, use_index(pass, u), pass, r);
    Rec& x = recs[r];
    if (x.seen < base) {
      fill_rec(x, w.g.resources[r]);
    } else if (x.seen == stamp) {
      undo_distinct(w, k.pool, uses, use_index(pass, u), p);
      k.n_edges = edges0;
      k.n_pool = pool0;
      return false;
    }
    x.seen = stamp;
    const AccessMask a = bit(u->access);
    // The rules catalog (baton/rules.hpp), as for recordings; the graph calls the direct queue "graphics".
    if (!plainly_legal(x, qf, a, u->stages)) ask_use_rule(w.g, p, use_index(pass, u), pass);
    const bool whole = is_whole(u->range);
    // Each use is its resource's whole effect, in use order (the order the pass first touches them).
    if (!(a & kWriteAccesses)) {
      if (!whole) partial_extent(w.g, p, use_index(pass, u), pass);  // its checks: a read keeps no box
      read(w, k, x, r, p, pass, &unwritten);
      continue;
    }
    std::memcpy(saved++, &x, sizeof(Saved));  // the record's first three words
    if (whole) {
      write(w, k, x, r, p, (w.keeps & a) != 0, nullptr);
    } else {
      Sink t = k;  // the copy's address is taken, not k's
      partial_write(w, t, x, r, p, pass, *u);
      k = t;
    }
  }
  if (unwritten) unwritten_read(w, p, pass);
  return true;
}

// Any pass: the checks of every use, the first conflict between two uses of one resource, then per
// resource the pass's effect (its reads and the bounding box of its writes), in first-touch order.
__attribute__((noinline)) void general_pass(const WalkFacts& w, Sink& k, uint32_t p, const Pass& pass) {
  const uint32_t nu = static_cast<uint32_t>(pass.uses.size());
  std::vector<Box>& boxes = w.sc.boxes;
  if (boxes.size() < nu) boxes.resize(nu);
  const QueueFacts qf = queue_facts(pass.queue);
  for (uint32_t i = 0; i < nu; ++i) {
    const PassUse& u = pass.uses[i];
    const uint32_t r = u.resource;
    if (r >= w.nr) unknown_resource(p, i, pass, r);
    if (w.recs[r].seen < w.base) fill_rec(w.recs[r], w.g.resources[r]);
    w.recs[r].seen = w.base + p;
    if (!plainly_legal(w.recs[r], qf, bit(u.access), u.stages)) ask_use_rule(w.g, p, i, pass);
    boxes[i] = is_whole(u.range) ? whole_extent(w.g.resources[r].desc) : partial_extent(w.g, p, i, pass);
  }
  // Two uses of one subresource in one pass: reads merge, the same write merges, anything else
  // has no order inside the pass. The first such pair (i, j) in use order.
  if (const auto c = first_conflict(w.g, pass, boxes)) {
    const auto [i, j] = *c;
    const PassUse& a = pass.uses[i];
    const PassUse& b = pass.uses[j];
    const ResourceDesc& d = w.g.resources[a.resource].desc;
    throw Error(fmt::format(
        "/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, j, pass.name, d.name,
        conflict_message(i, a.access, j, b.access, extent_text(intersect(boxes[i], boxes[j]), d))));
  }
  std::vector<Touch>& touches = w.sc.touches;
  std::vector<uint32_t>& touch_of = w.sc.touch_of;
  touches.clear();
  for (uint32_t i = 0; i < nu; ++i) {
    const PassUse& u = pass.uses[i];
    // The pass's record of u's resource (touch_of: per resource, kNone between passes).
    if (touch_of[u.resource] == kNone) {
      touch_of[u.resource] = static_cast<uint32_t>(touches.size());
      Touch& t = touches.emplace_back();
      t.resource = u.resource;
      t.write_box = Box{0, 0, 0, 0, 0, 0};
    }
    Touch* const it = &touches[touch_of[u.resource]];
    if (is_write(u.access)) {
      // As above: a write of some bytes of a buffer keeps the others.
      const ResourceDesc& d = w.g.resources[u.resource].desc;
      it->reads |= (w.keeps & bit(u.access)) != 0 ||
                   (d.type == ResourceType::buffer && has_bytes(u.range) && !(boxes[i] == whole_extent(d)));
      const Box& b = boxes[i];
      if (!it->writes) {
        it->write_box = b;
      } else {  // bounding box of the pass's writes
        Box& wb = it->write_box;
        wb = Box{std::min(wb.m0, b.m0), std::max(wb.m1, b.m1), std::min(wb.l0, b.l0),
                 std::max(wb.l1, b.l1), std::min(wb.p0, b.p0), std::max(wb.p1, b.p1)};
      }
      it->writes = true;
    } else {
      it->reads = it->pure_read = true;
    }
  }
  for (const Touch& t : touches) touch_of[t.resource] = kNone;
  for (const Touch& t : touches) {
    Rec& x = w.recs[t.resource];
    if (t.writes) {
      if (t.pure_read && x.last_writer == kNone && x.transient) read_first(w.g, t.resource, p, pass);
      write(w, k, x, t.resource, p, t.reads, &t.write_box);
    } else {
      read(w, k, x, t.resource, p, pass, nullptr);
    }
  }
}

Scratch& validate_scratch() {
  thread_local Scratch sc;
  return sc;
}

}  // namespace

uint32_t detail::validate_epoch() { return validate_scratch().epoch; }
void detail::set_validate_epoch(uint32_t epoch) { validate_scratch().epoch = epoch; }

Validated validate(const Graph& g) {
  Validated v;
  validate_into(v, g);
  return v;
}

void validate_into(Validated& v, const Graph& g) {
  const size_t np = g.passes.size(), nr = g.resources.size();
  // The edges are kept as they are (not emptied): the walk writes every edge up to the count it cuts them
  // to, so value-initializing them first (resize() of an empty vector) would only be overwritten.
  reuse_storage(v, &Validated::in_first, keep(&Validated::edges));
  v.in_first.assign(np + 1, 0);
  uint32_t* const in_first = v.in_first.data();
  Scratch& sc = validate_scratch();
  // recs[r] is filled at r's first use (its stamp below this call's base): no walk over resources nobody
  // uses, and the resource is read while the use has it in cache. Nothing is cleared per call.
  if (sc.recs.size() < nr) sc.recs.resize(nr);  // a new record's stamp is 0, below every base
  if (sc.epoch == 0 || sc.epoch > kNone - np) {
    for (Rec& x : sc.recs) x.seen = 0;
    sc.epoch = 1;
  }
  const uint32_t base = sc.epoch;
  sc.epoch += static_cast<uint32_t>(np);
  if (sc.reader_pool.size() < np * 2) sc.reader_pool.resize(np * 2);
  sc.partial_boxes.clear();
  sc.ambiguous.clear();
  sc.touch_of.resize(nr, kNone);  // kNone between passes (each general pass clears what it set)
  // keeps_contents() as a mask, computed once (it is the same on every call).
  static const AccessMask keeps = [] {
    AccessMask m = 0;
    for (int k = 0; k < kAccessCount; ++k)
      if (keeps_contents(static_cast<Access>(k))) m |= bit(static_cast<Access>(k));
    return m;
  }();
  // The edges go straight into the result, sized ahead (about two per pass) and cut to their count.
  v.edges.resize(np * 2 + 16);
  const WalkFacts w{g, sc, v.edges, sc.recs.data(), base, static_cast<uint32_t>(nr), keeps, sc.saved.data()};
  Sink sink{v.edges.data(), 0, static_cast<uint32_t>(v.edges.size()), sc.reader_pool.data(), 0,
            static_cast<uint32_t>(sc.reader_pool.size()), 0};
  bool backward = false;
  for (uint32_t p = 0; p < np; ++p) {
    const Pass& pass = g.passes[p];
    in_first[p] = sink.n_edges;
    const auto nu = static_cast<uint32_t>(pass.uses.size());
    room_for_pass(w, sink, nu, static_cast<uint32_t>(pass.after.size()));
    // Only uses of one resource can conflict: a few uses on distinct resources need no search.
    if (nu > kDistinctUses || !distinct_pass(w, sink, p, pass)) {
      Sink t = sink;  // the copy's address is taken, not the sink's
      general_pass(w, t, p, pass);
      sink = t;
    }
    for (size_t j = 0; j < pass.after.size(); ++j) {
      const uint32_t a = pass.after[j];
      if (a >= np)
        throw Error(fmt::format("/passes/{}/after/{}: pass '{}': \"after\" names unknown pass #{}", p, j,
                                pass.name, a));
      if (a == p)
        throw Error(fmt::format("/passes/{}/after/{}: pass '{}': {}", p, j, pass.name,
                                rule_message(Rule::after_itself, {})));
      backward |= a > p;
      put_edge(&sink.edges[sink.n_edges++], a, p, EdgeKind::explicit_order, kNone);  // room_for_pass made room
    }
  }
  in_first[np] = sink.n_edges;
  v.edges.resize(sink.n_edges);
  v.backward = backward;
  const std::vector<Candidate>& ambiguous = sc.ambiguous;

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
    const uint32_t last_writer = sc.recs[o].seen < base ? kNone : sc.recs[o].last_writer;
    if (last_writer == kNone)
      throw Error(fmt::format("/outputs/{}: output '{}': {}", oi, res.desc.name,
                              rule_message(Rule::output_not_written, {})));
    if (res.transient)
      throw Error(fmt::format("/outputs/{}: pass '{}', output '{}': {}", oi, g.passes[last_writer].name,
                              res.desc.name, rule_message(Rule::output_transient, {})));
  }
}

uint64_t validate_overlap_queries() {
  return overlap_queries;
}

}  // namespace baton::graph
