// Phase 6: transitions. The graph drives the core planner: every pass becomes a list with one
// operation, groups are cut at waits and signals, and a resource crossing a group boundary gets a
// declared entry state so that the planner hands it over instead of bouncing through rest:
//  - a read run spread over several groups (possibly on several queues) is held in one merged
//    read state M from the producer's hand-on to the next writer, so no reader changes what
//    another, possibly concurrent, reader sees; the producer's group makes the write -> read
//    transition after the producer;
//  - otherwise the previous toucher hands the resource on in the next group's first state, if its
//    queue can express that state (the next group waited for it, so this is safe); else rest.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"
#include "baton/rules.hpp"

namespace baton::graph {
namespace {

// The operation kind of a pass: the narrowest kind that may perform all its accesses (the op kinds
// of the Access table, baton/core.hpp; the rules catalog's R0301), external when none does. Graphics
// accesses (targets, depth, vertex input), or shader accesses in the vertex or pixel stage: a draw.
// `m`: every access of the pass, `st`: every stage of its uses (the walk over the uses gathers them).
OpKind kind_of(AccessMask m, Stages st) {
  constexpr AccessMask graphics_only = op_kind_accesses(OpKind::draw) & ~op_kind_accesses(OpKind::dispatch);
  const auto only = [&](OpKind k) { return m != 0 && (m & ~op_kind_accesses(k)) == 0; };
  if (m & graphics_only) return only(OpKind::draw) ? OpKind::draw : OpKind::external;
  if (only(OpKind::present)) return OpKind::present;
  if (only(OpKind::copy)) return OpKind::copy;
  if (only(OpKind::resolve)) return OpKind::resolve;
  if (only(OpKind::dispatch))
    return (st & static_cast<Stages>(Stage::vertex | Stage::pixel)) ? OpKind::draw : OpKind::dispatch;
  return OpKind::external;
}

// A graph use is laid out as a planner use (the same fields in the same order; PassUse::resource is the
// graph resource, Use::resource the member): where every resource has one member, the walk over the uses
// copies them into the store unchanged.
static_assert(std::is_trivially_copyable_v<PassUse> && std::is_trivially_copyable_v<Use> &&
              sizeof(PassUse) == sizeof(Use) && offsetof(PassUse, resource) == offsetof(Use, resource) &&
              offsetof(PassUse, access) == offsetof(Use, access) &&
              offsetof(PassUse, stages) == offsetof(Use, stages) &&
              offsetof(PassUse, range) == offsetof(Use, range) &&
              std::is_same_v<decltype(PassUse::resource), ResourceId> &&
              std::is_same_v<decltype(PassUse::range), decltype(Use::range)>);

// One pass's dealings with one resource.
struct Entry {
  uint32_t group, pass;
  uint32_t first_use;  // index into the pass's uses
  bool pure_read;
  Access read_access;  // when pure_read and single_access
  bool single_access;
  Stages stages;
  Queue queue;          // its group's queue
  AccessMask accesses;  // every access of the pass to the resource
  SyncMask sync;        // their sync scopes (sync_of per use)
  uint32_t next;        // the resource's next entry in planner order (an index into `touched`), kNone: last
};

struct Decl {
  uint32_t pass;
  uint32_t resource;  // graph resource
  Access access;
  Stages stages;
  AccessMask shared = 0;  // a shared read state (EntryState::shared)
};

// A maximal stretch of one resource's consecutive pure reads (its entries begin .. end).
struct Run {
  uint32_t begin = 0, end = 0;
  bool multi = false, valid = false;
  Access access = Access::shader_resource;
  Stages stages = kNoStages;
  AccessMask shared = 0;  // held in the shared read state of these reads (direct and compute queues)
};

// The run of accesses a takeover waits for, fed a resource's entries (one pass's accesses to it each) in
// planner order: a run of entries that only read accumulates, an entry that writes starts it over. The
// one rule behind last_access_in_order and Tail.
struct LastRun {
  bool in_reads = false;  // the entry before only read
  SyncMask sync = sync::none;
  AccessMask access = 0;
  void add(bool pure_read, SyncMask entry_sync, AccessMask entry_access) {
    if (pure_read && in_reads) {
      sync |= entry_sync;
      access |= entry_access;
    } else {
      sync = entry_sync;
      access = entry_access;
    }
    in_reads = pure_read;
  }
};

// One resource's last accesses so far where the frame is one graphics group (then planner order is
// serial order and no resource is declared: nothing reads the entries but the takeovers): what
// last_access_in_order makes of the resource's entries, kept up to date by the walk over the uses, so
// that it makes no entries. The current entry (the latest pass's uses of it) is added to the run before
// it when the next pass touches the resource, and once more at the end (takeover()).
struct Tail {
  uint32_t pass = kNone;   // the current entry's pass, kNone: untouched
  bool pure_read = false;  // the current entry only reads
  LastRun run;             // the entries before the current one
  SyncMask cur_sync = sync::none;  // the current entry's
  AccessMask cur_access = 0;
  void fold() { run.add(pure_read, cur_sync, cur_access); }
  Takeover takeover() const {
    Takeover out;
    if (pass == kNone) return out;
    LastRun r = run;
    r.add(pure_read, cur_sync, cur_access);
    out.sync = r.sync;
    out.access = r.access;
    return out;
  }
};

// One list's part of the store's arrays: its uses and its entry states.
struct Part {
  uint32_t use_begin, use_end, entry_begin, entry_end;
  OpKind kind;
};

// The phase's working arrays, kept per thread and reused from call to call (a frame graph compiled every
// frame pays for them once): cleared or assigned at every use, nothing in them outlives one call.
struct Scratch {
  std::vector<uint8_t> sync_flags;
  std::vector<uint32_t> first_of, last_of, run_of, list_of, group_of, group_size, group_slot;
  std::vector<Queue> group_queue;
  std::vector<uint32_t> start_waiters, unordered_readers;
  std::vector<Entry> touched, entries;
  std::vector<Decl> decls, frame_start, frame_end;
  std::vector<Run> runs;
  std::vector<Part> parts;
  std::vector<Tail> tails;
};

// The member table (every member of every graph resource, sets expanded as "name[m]") with each
// member's history at the frame's start, before the takeovers: transients die after their last use (no
// restore to rest) and start untouched, as do resources that start undefined; the others start at rest.
// All of it is a function of Graph::resources alone, so the last one made in this thread is kept with
// the resources it was made from and reused while they compare equal (every field of Resource and
// ResourceDesc, as their defaulted operator== compares them: same_resources below). The result's table
// shares its descriptions with the kept one (ResourceTable copies on write), so a graph compiled every
// frame neither copies nor hashes its resources' names per compile.
struct MemberTable {
  std::vector<Resource> resources;  // what it was made from
  ResourceTable table;
  std::vector<ResourceId> first_member;
  History history;
};

thread_local uint64_t member_table_builds_ = 0;

// The reuse test, run on every resource of every compile, is exactly Resource's defaulted operator== but
// cheaper: the fields other than the name are read as the 8-byte words that hold them, each word masked
// to its fields' bytes (never padding, nor the value byte of a disengaged `resting`, whose engaged flag
// and value are compared as an optional), about 3 instructions a word instead of a compare and branch
// a field; then the names by content. The masks are built from the fields' offsets, and `fields_named`
// names every field of both structs (a structured binding): a field added, removed or reordered stops
// the build here until it is listed (MemberTable.* changes each field and expects a rebuild).
#pragma GCC diagnostic push
// Resource holds a std::string (not standard layout); GCC and clang lay it out as written.
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
struct FieldBytes {
  size_t offset, size;
};
constexpr FieldBytes kWordFields[] = {
    {offsetof(Resource, desc.type), sizeof(ResourceDesc::type)},
    {offsetof(Resource, desc.size), sizeof(ResourceDesc::size)},
    {offsetof(Resource, desc.width), sizeof(ResourceDesc::width)},
    {offsetof(Resource, desc.height), sizeof(ResourceDesc::height)},
    {offsetof(Resource, desc.mips), sizeof(ResourceDesc::mips)},
    {offsetof(Resource, desc.layers), sizeof(ResourceDesc::layers)},
    {offsetof(Resource, desc.planes), sizeof(ResourceDesc::planes)},
    {offsetof(Resource, desc.format), sizeof(ResourceDesc::format)},
    {offsetof(Resource, desc.usage), sizeof(ResourceDesc::usage)},
    {offsetof(Resource, desc.placed), sizeof(ResourceDesc::placed)},
    {offsetof(Resource, desc.simultaneous_access), sizeof(ResourceDesc::simultaneous_access)},
    {offsetof(Resource, desc.swapchain), sizeof(ResourceDesc::swapchain)},
    {offsetof(Resource, transient), sizeof(Resource::transient)},
    {offsetof(Resource, imported), sizeof(Resource::imported)},
    {offsetof(Resource, count), sizeof(Resource::count)},
    {offsetof(Resource, texel_bytes), sizeof(Resource::texel_bytes)},
    {offsetof(Resource, starts_undefined), sizeof(Resource::starts_undefined)},
};
// The words after the name.
constexpr size_t kWordsFrom = offsetof(Resource, desc.name) + sizeof(std::string);
static_assert(offsetof(Resource, desc.name) == 0 && kWordsFrom % 8 == 0 && sizeof(Resource) % 8 == 0);
#pragma GCC diagnostic pop
constexpr size_t kWords = (sizeof(Resource) - kWordsFrom) / 8;
[[maybe_unused]] void fields_named(Resource& r) {
  [[maybe_unused]] auto& [desc, transient, imported, count, texel_bytes, starts_undefined] = r;
  [[maybe_unused]] auto& [name, type, size, width, height, mips, layers, planes, format, usage, placed,
                          simultaneous_access, swapchain, resting] = r.desc;
}
constexpr std::array<uint64_t, kWords> kWordMasks = [] {
  std::array<uint64_t, kWords> m{};
  for (const FieldBytes& f : kWordFields)
    for (size_t b = f.offset; b < f.offset + f.size; ++b)
      m[(b - kWordsFrom) / 8] |= uint64_t{0xff} << (8 * ((b - kWordsFrom) % 8));
  return m;
}();
static_assert(std::endian::native == std::endian::little);  // the masks' byte order

// Word W of the two resources' bytes after the name, masked (unrolled: one load pair per word with fields).
template <size_t W>
uint64_t word_diff(const unsigned char* pa, const unsigned char* pb) {
  if constexpr (kWordMasks[W] == 0) {
    return 0;
  } else {
    uint64_t x, y;
    std::memcpy(&x, pa + 8 * W, 8);
    std::memcpy(&y, pb + 8 * W, 8);
    return (x ^ y) & kWordMasks[W];
  }
}
template <size_t... W>
uint64_t words_diff(const unsigned char* pa, const unsigned char* pb, std::index_sequence<W...>) {
  return (word_diff<W>(pa, pb) | ...);
}

// Whether two strings of one length n hold the same characters: inline, as a few loads that may overlap
// (8-byte words, the last one ending at n; below 8 bytes two 4-byte ones, below 4 bytes byte by byte),
// rather than a call of memcmp for the short names resources have.
bool same_chars(const char* a, const char* b, size_t n) {
  auto load8 = [](const char* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
  };
  auto load4 = [](const char* p) {
    uint32_t x;
    std::memcpy(&x, p, 4);
    return x;
  };
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 < n; i += 8)
      if (load8(a + i) != load8(b + i)) return false;
    return load8(a + n - 8) == load8(b + n - 8);
  }
  if (n >= 4) return ((load4(a) ^ load4(b)) | (load4(a + n - 4) ^ load4(b + n - 4))) == 0;
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

bool same_resource(const Resource& a, const Resource& b) {
  const auto* pa = reinterpret_cast<const unsigned char*>(&a) + kWordsFrom;
  const auto* pb = reinterpret_cast<const unsigned char*>(&b) + kWordsFrom;
  return words_diff(pa, pb, std::make_index_sequence<kWords>()) == 0 && a.desc.resting == b.desc.resting &&
         a.desc.name.size() == b.desc.name.size() &&
         same_chars(a.desc.name.data(), b.desc.name.data(), a.desc.name.size());
}

bool same_resources(const std::vector<Resource>& a, const std::vector<Resource>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_resource(a[i], b[i])) return false;
  return true;
}

const MemberTable& member_table(const Graph& g) {
  thread_local std::optional<MemberTable> kept;
  if (kept && same_resources(kept->resources, g.resources)) return *kept;
  MemberTable mt;
  const size_t nr = g.resources.size();
  mt.first_member.resize(nr);
  size_t members = 0;
  for (const Resource& res : g.resources) members += res.count;
  mt.table.reserve(members);
  for (uint32_t r = 0; r < nr; ++r) {
    const Resource& res = g.resources[r];
    for (uint32_t m = 0; m < res.count; ++m) {
      ResourceDesc d = res.desc;
      if (res.count > 1) d.name = fmt::format("{}[{}]", res.desc.name, m);
      d.placed = d.placed || res.transient;
      const ResourceId id = mt.table.add(std::move(d));
      if (m == 0) mt.first_member[r] = id;
    }
  }
  mt.history = fresh_history(mt.table);
  for (uint32_t r = 0; r < nr; ++r) {
    const Resource& res = g.resources[r];
    for (uint32_t m = 0; m < res.count; ++m) {
      ResourceHistory& h = mt.history[mt.first_member[r] + m];
      if (res.transient)
        h.dies = true;
      else if (!res.starts_undefined)
        h.touched = h.written = true;
    }
  }
  mt.resources = g.resources;
  ++member_table_builds_;
  kept = std::move(mt);
  return *kept;
}

Stages allowed_stages(Queue q) {
  return q == Queue::direct ? kAllShading : q == Queue::compute ? stages(Stage::compute) : kNoStages;
}

// A graph resource's last accesses in serial order: the last pass's uses of it and, when that pass only
// reads it, the whole run of reads it ends (no barrier orders reads among themselves), with their sync:
// the scope a resource taking over its memory waits for. Earlier accesses are ordered before those by
// the resource's own barriers and waits. From its entries (one per pass touching it, chained from
// `first` in planner order): the entry latest in serial order if it writes, else every reading entry
// after the latest writing one.
Takeover last_access(const Schedule& s, const std::vector<Entry>& touched, uint32_t first) {
  Takeover out;
  uint32_t last = 0, last_write = 0;  // 1 + serial index, 0: none
  const Entry* latest = nullptr;
  for (uint32_t k = first; k != kNone; k = touched[k].next) {
    const Entry& x = touched[k];
    const uint32_t at = s.serial_of[x.pass] + 1;
    if (at > last) {
      last = at;
      latest = &x;
    }
    if (!x.pure_read && at > last_write) last_write = at;
  }
  if (latest == nullptr) return out;  // not touched by a live pass
  if (last == last_write) return Takeover{latest->sync, latest->accesses, kGlobalResource};
  for (uint32_t k = first; k != kNone; k = touched[k].next)
    if (touched[k].pure_read && s.serial_of[touched[k].pass] + 1 > last_write) {
      out.sync |= touched[k].sync;
      out.access |= touched[k].accesses;
    }
  return out;
}

// The same where planner order is serial order (no group was cut off by another queue's passes): the
// chain's last entry is the latest; one walk keeps the run of reads it is in (a write starts over).
[[gnu::always_inline]] inline Takeover last_access_in_order(const Entry* touched, uint32_t first) {
  LastRun run;
  for (uint32_t k = first; k != kNone; k = touched[k].next) run.add(touched[k].pure_read, touched[k].sync, touched[k].accesses);
  Takeover out;
  out.sync = run.sync;
  out.access = run.access;
  return out;
}

// A pass group's name, "graphics#N" (the direct queue), "compute#N" or "copy#N": short enough to be
// kept in the string itself (no heap block per group), built without a format string or a call: the
// prefix is one copy of a fixed 9 bytes (the longest, "graphics#"), then the digits.
std::string group_name(Queue q, uint32_t number) {
  static constexpr char kPrefix[kQueues][9] = {{'g', 'r', 'a', 'p', 'h', 'i', 'c', 's', '#'},
                                               {'c', 'o', 'm', 'p', 'u', 't', 'e', '#', 0},
                                               {'c', 'o', 'p', 'y', '#', 0, 0, 0, 0}};
  static constexpr uint8_t kPrefixSize[kQueues] = {9, 8, 5};
  static_assert(static_cast<size_t>(Queue::direct) == 0 && static_cast<size_t>(Queue::compute) == 1 &&
                static_cast<size_t>(Queue::copy) == 2);
  char text[24];
  std::memcpy(text, kPrefix[qi(q)], sizeof kPrefix[0]);
  char* const end = std::to_chars(text + kPrefixSize[qi(q)], text + sizeof text, number).ptr;
  return std::string(text, end);
}

}  // namespace

std::string_view transition_list_name(GroupInfo::Role r) {
  return r == GroupInfo::Role::frame_start ? "frame start transitions"
         : r == GroupInfo::Role::frame_end ? "frame end transitions"
                                           : "";
}

uint64_t member_table_builds() {
  return member_table_builds_;
}

Transitions transitions(const Graph& g, const Schedule& s, const Aliasing& a) {
  Transitions t;
  transitions_into(t, g, s, a);
  return t;
}

void transitions_into(Transitions& t, const Graph& g, const Schedule& s, const Aliasing& a) {
  // What the result held before keeps its storage: the list store's arrays, the compiled groups' blocks
  // (compile_all_into) and the history (handed through the planner and back as history_out).
  // The operations and the uses are kept as they are, not emptied: the walk below sets every field of each
  // operation it uses and writes every use (destroying and making the operations again cost about 20
  // instructions per pass, and value-initializing uses only to overwrite them about 10 per use).
  reuse_storage(t.store, keep(&ListStore::ops), keep(&ListStore::uses), &ListStore::entries, &ListStore::lists,
                &ListStore::list_ptrs, &ListStore::groups, &ListStore::names);
  CompileResult compiled;
  compiled.groups = std::move(t.compiled);
  History history = std::move(t.history_out);
  reuse_storage(t, keep(&Transitions::store), &Transitions::first_member, &Transitions::groups, &Transitions::info,
                &Transitions::list_passes, &Transitions::history_in);
  const size_t nr = g.resources.size(), np = g.passes.size();
  const MemberTable& mt = member_table(g);
  t.table = mt.table;  // shared, not copied
  t.first_member = mt.first_member;
  history = mt.history;

  // Groups: cut before a wait and after a signal; submission order is the order of first passes.
  thread_local Scratch scratch;
  Scratch& sc = scratch;
  std::vector<uint8_t>& sync_flags = sc.sync_flags;  // per pass: kWaits | kSignals
  constexpr uint8_t kWaits = 1, kSignals = 2;
  sync_flags.assign(np, 0);
  for (const Sync& y : s.syncs) {
    sync_flags[y.wait] |= kWaits;
    sync_flags[y.signal] |= kSignals;
  }
  std::array<uint32_t, kQueues> current;
  current.fill(kNone);
  std::array<bool, kQueues> cut{};
  bool serial_order = true;  // planner order (groups in order, passes in order) is serial order
  uint32_t groups = 0;
  // The same walk counts the uses (and, where a resource has several members, the uses per member).
  const bool no_sets = t.table.size() == nr;  // every resource one member: member ids are resource ids
  size_t uses = 0, member_uses = 0, name_bytes = 0;  // name_bytes: the pass lists' names (ListStore::names)
  const size_t ns = s.serial.size();
  std::vector<uint32_t>& group_of = sc.group_of;  // per serial position, the pass's group
  std::vector<uint32_t>& group_size = sc.group_size;
  std::vector<Queue>& group_queue = sc.group_queue;
  group_of.resize(ns);
  group_size.clear();
  group_queue.clear();
  // Through local pointers (as the walk over the uses below): a byte written (`cut`) may alias a
  // vector's members, so indexing the vectors would reload their data pointers after it.
  const Pass* const pass_at = g.passes.data();
  const Resource* const resources = g.resources.data();
  const uint32_t* const serial = s.serial.data();
  const uint8_t* const flags = sync_flags.data();
  uint32_t* const group_at = group_of.data();
  uint32_t* size_at = group_size.data();
  for (size_t i = 0; i < ns; ++i) {
    const uint32_t p = serial[i];
    const Pass& pass = pass_at[p];
    const Queue q = exec_queue(pass);
    const uint8_t f = flags[p];
    uint32_t& cg = current[qi(q)];
    if (cg == kNone || (f & kWaits) || cut[qi(q)]) {
      cg = groups++;
      group_size.push_back(0);
      group_queue.push_back(q);
      size_at = group_size.data();
    }
    serial_order = serial_order && cg + 1 == groups;
    group_at[i] = cg;
    ++size_at[cg];
    cut[qi(q)] = (f & kSignals) != 0;
    uses += pass.uses.size();
    name_bytes += pass.name.size();
    if (!no_sets)
      for (const PassUse& w : pass.uses) member_uses += resources[w.resource].count;
  }
  // Every list's pass in planner order, in one array that the groups view (no block per group): kNone
  // first and last, the pass of a frame_start and of a frame_end list if there are such groups (below).
  std::vector<uint32_t>& lp = t.list_passes;
  lp.resize(ns + 2);
  lp.front() = lp.back() = kNone;
  t.info.reserve(groups + 2);
  if (serial_order) {  // the groups one after another: planner order is serial order
    if (ns != 0) std::memcpy(lp.data() + 1, s.serial.data(), ns * sizeof(uint32_t));
  } else {
    std::vector<uint32_t>& slot = sc.group_slot;  // per group, where its next pass goes
    slot.resize(groups);
    for (uint32_t gi = 0, at = 1; gi < groups; at += group_size[gi++]) slot[gi] = at;
    for (size_t i = 0; i < ns; ++i) lp[slot[group_of[i]]++] = s.serial[i];
  }
  for (uint32_t gi = 0, at = 1; gi < groups; at += group_size[gi++])
    t.info.push_back({group_queue[gi], std::span<const uint32_t>(lp).subspan(at, group_size[gi]),
                      GroupInfo::Role::passes, {}});

  // Per resource, its entries in planner order (groups in submission order, passes in order).
  // One entry per resource a pass touches, in the order of its first use there, summing all its uses
  // in the pass: one walk over the uses, in planner order, appends them to `touched` and chains each
  // resource's entries (first_of, last_of, Entry::next); the latest entry of the resource is the pass's
  // own when the pass touched it already. The same walk writes each pass's uses into the store (one per
  // member) and remembers its list's part (its entry states are added once the declarations are known,
  // below).
  ListStore& store = t.store;
  // The lists' parts in list order: the pass lists' from parts[1] on, a frame_start list's in parts[0] and
  // a frame_end list's after the pass lists' (below). Sized once and written through a pointer.
  std::vector<Part>& parts = sc.parts;
  std::vector<uint32_t>& first_of = sc.first_of;
  std::vector<uint32_t>& last_of = sc.last_of;
  std::vector<Entry>& touched = sc.touched;
  // One graphics group: the walk keeps each resource's Tail instead of making entries (see Tail).
  const bool one_graphics_group = groups == 1 && group_queue[0] == Queue::direct;
  std::vector<Tail>& tails = sc.tails;
  if (one_graphics_group) {
    tails.assign(nr, Tail{});
  } else {
    first_of.resize(nr);  // every entry kNone (all bits set): one memset rather than assign()'s loop
    last_of.resize(nr);
    static_assert(kNone == ~uint32_t{0});
    if (nr != 0) {
      std::memset(first_of.data(), 0xff, nr * sizeof(uint32_t));
      std::memset(last_of.data(), 0xff, nr * sizeof(uint32_t));
    }
  }
  // Both arrays at their final size first (the uses: one per member of each use's resource; the entries:
  // at most one per use), written through pointers below.
  store.uses.resize(no_sets ? uses : member_uses);
  Use* out = store.uses.data();
  touched.resize(one_graphics_group ? 0 : uses);
  parts.resize(ns + 2);
  Part* part_out = parts.data() + 1;
  uint32_t entry_count = 0;
  constexpr AccessMask kWritesOrPresent = kWriteAccesses | bit(Access::present);
  AccessMask kind_m = 0;  // the last pass's accesses and stages, and its kind
  Stages kind_st = kNoStages;
  OpKind kind = kind_of(kind_m, kind_st);
  // Through local pointers: the walk writes bytes (Entry's flags and accesses), which may alias any
  // vector's members, so indexing the vectors would reload their data pointers after every such write.
  Use* const uses_base = store.uses.data();
  Entry* const tch = touched.data();
  uint32_t* const first_at = first_of.data();
  uint32_t* const last_at = last_of.data();
  Tail* const tail_at = tails.data();
  const ResourceId* const member_of = t.first_member.data();
  const GroupInfo* const infos = t.info.data();
  const auto ngroups = static_cast<uint32_t>(t.info.size());
  // The walk made once per case (one graphics group or not, sets or not): no test of either per use.
  auto walk_uses = [&]<bool kOneGraphicsGroup, bool kNoSets>() __attribute__((always_inline)) {
    for (uint32_t gi = 0; gi < ngroups; ++gi) {
      const Queue gq = infos[gi].queue;
      for (const uint32_t p : infos[gi].passes) {
        const Pass& pass = pass_at[p];
        const PassUse* const pu = pass.uses.data();
        const auto nu = static_cast<uint32_t>(pass.uses.size());
        const auto use_begin = static_cast<uint32_t>(out - uses_base);
        if constexpr (!kNoSets) {
          for (uint32_t i = 0; i < nu; ++i) {  // one use per member, made once and renumbered
            Use x = std::bit_cast<Use>(pu[i]);
            x.resource = member_of[pu[i].resource];
            for (uint32_t m = 0, k = resources[pu[i].resource].count; m < k; ++m, ++x.resource) *out++ = x;
          }
        }
        AccessMask m = 0;
        Stages st = kNoStages;
        for (uint32_t i = 0; i < nu; ++i) {
          const PassUse& w = pu[i];
          // The use as it is (a PassUse is laid out as a Use, above): 48 bytes, no call.
          if constexpr (kNoSets) {
            std::memcpy(static_cast<void*>(out), &w, sizeof(Use));
            ++out;
          }
          const AccessMask wa = bit(w.access);
          m |= wa;
          st = static_cast<Stages>(st | w.stages);
          const bool reads = (wa & kWritesOrPresent) == 0;
          if constexpr (kOneGraphicsGroup) {
            Tail& tl = tail_at[w.resource];
            const SyncMask sy = sync_of(w.access, w.stages);
            if (tl.pass == p) {  // the pass named the resource before
              tl.pure_read = tl.pure_read && reads;
              tl.cur_sync |= sy;
              tl.cur_access |= wa;
              continue;
            }
            if (tl.pass != kNone) tl.fold();
            tl.pass = p;
            tl.pure_read = reads;
            tl.cur_sync = sy;
            tl.cur_access = wa;
            continue;
          }
          const uint32_t latest = last_at[w.resource];
          if (latest != kNone && tch[latest].pass == p) {  // the pass named the resource before
            Entry& e = tch[latest];
            e.pure_read = e.pure_read && reads;
            e.single_access = e.single_access && w.access == e.read_access;
            e.accesses |= wa;
            e.stages = static_cast<Stages>(e.stages | w.stages);
            e.sync |= sync_of(w.access, w.stages);
            continue;
          }
          const uint32_t k = entry_count++;
          (latest == kNone ? first_at[w.resource] : tch[latest].next) = k;
          last_at[w.resource] = k;
          tch[k] =
              Entry{gi, p, i, reads, w.access, true, w.stages, gq, wa, sync_of(w.access, w.stages), kNone};
        }
        if (m != kind_m || st != kind_st) {  // passes in a row mostly do the same kinds of things
          kind_m = m;
          kind_st = st;
          kind = kind_of(m, st);
        }
        *part_out++ = Part{use_begin, static_cast<uint32_t>(out - uses_base), 0, 0, kind};
      }
    }
  };
  if (one_graphics_group)
    no_sets ? walk_uses.template operator()<true, true>() : walk_uses.template operator()<true, false>();
  else
    no_sets ? walk_uses.template operator()<false, true>() : walk_uses.template operator()<false, false>();
  touched.resize(entry_count);

  // A transient that takes over memory waits for the previous occupants' last accesses at its first
  // touch (the planner's takeover scope); member_table() made every transient die after its last use.
  auto last_access_of = [&](uint32_t r) __attribute__((always_inline)) {  // inline: once per previous occupant
    return one_graphics_group ? tail_at[r].takeover()
           : serial_order     ? last_access_in_order(tch, first_at[r])
                              : last_access(s, touched, first_at[r]);
  };
  ResourceHistory* const history_at = history.data();
  for (const AliasBarrier& ab : a.barriers) {
    // The union over the previous occupants; D3D12 legacy's aliasing barrier names the one API resource.
    Takeover scope;
    if (ab.previous.size() == 1) {  // the usual case
      const uint32_t p = ab.previous[0];
      scope = last_access_of(p);
      if (no_sets || resources[p].count == 1) scope.previous = member_of[p];
    } else {
      for (uint32_t p : ab.previous) {
        const Takeover last = last_access_of(p);
        scope.sync |= last.sync;
        scope.access |= last.access;
      }
    }
    if (no_sets) {
      history_at[ab.resource].takeover = scope;
    } else {
      for (uint32_t m = 0; m < resources[ab.resource].count; ++m) history_at[member_of[ab.resource] + m].takeover = scope;
    }
  }

  std::vector<Decl>& decls = sc.decls;
  std::vector<Decl>& frame_start = sc.frame_start;  // the uses of the frame_start / frame_end transition lists
  std::vector<Decl>& frame_end = sc.frame_end;
  std::vector<uint32_t>& start_waiters = sc.start_waiters;  // groups waiting for frame_start
  std::vector<uint32_t> end_waits;                          // groups frame_end waits for (moved into its GroupInfo)
  std::vector<uint32_t>& unordered_readers = sc.unordered_readers;  // per resource: groups still reading when its last toucher ends
  decls.clear();
  frame_start.clear();
  frame_end.clear();
  start_waiters.clear();
  auto name_of = [&](uint32_t p) -> const std::string& { return g.passes[p].name; };
  auto queue_of = [](const Entry& x) { return x.queue; };
  auto x_queue = queue_of;
  std::vector<Run>& runs = sc.runs;
  std::vector<uint32_t>& run_of = sc.run_of;
  // The declaration of pass p (on queue q) holding resource r in run `run`'s merged read state.
  auto run_decl = [&](uint32_t p, uint32_t r, const Run& run, Queue q) {
    if (!run.shared) return Decl{p, r, run.access, run.stages, 0};
    // Its own access on its queue: the depth test on direct lists, sampling on compute ones.
    const Access own = q == Queue::direct ? Access::depth_read : Access::shader_resource;
    return Decl{p, r, own, run.stages, run.shared};
  };
  std::vector<Entry>& entries = sc.entries;  // one resource's entries in planner order
  // In one graphics group every resource is touched in one group whose queue is the graphics one: the
  // walk below would skip them all (and there are no entries to read).
  const size_t walked = one_graphics_group ? 0 : nr;  // the resources the walk visits
  for (uint32_t r = 0; r < walked; ++r) {
    const uint32_t fr = first_at[r];
    if (fr == kNone) continue;
    const uint32_t lr = last_at[r];
    const Resource& res = resources[r];
    // Every touch in one group (entries are in group order: the first's group is the last's), as for a
    // transient of one queue's work or a frame without waits: no read run spans groups and no touch is a
    // group's first after another group's, so there are no runs to merge and nothing to declare; only
    // the frame's first and last touch (below) apply, in the state of the pass's first use: only those
    // two entries are gathered.
    const bool one_group = tch[fr].group == tch[lr].group;
    // Nor do those apply to a transient (it starts untouched and dies after its last use) or to a
    // resource the graphics queue touches first and last: nothing at all to do for them.
    if (one_group && (res.transient || infos[tch[fr].group].queue == Queue::direct)) continue;
    const std::string& rname = res.desc.name;
    if (one_group) {
      entries.resize(last_of[r] == first_of[r] ? 1 : 2);
      entries.front() = touched[first_of[r]];
      entries.back() = touched[last_of[r]];
    } else {
      entries.clear();
      for (uint32_t k = first_of[r]; k != kNone; k = touched[k].next) entries.push_back(touched[k]);
    }
    const uint32_t b = 0, e = static_cast<uint32_t>(entries.size());
    // Read runs: maximal stretches of consecutive pure reads.
    runs.clear();
    if (!one_group) {  // resize and fill inline (assign() is a call per resource)
      run_of.resize(e - b);
      std::fill(run_of.begin(), run_of.end(), kNone);
    }
    unordered_readers.clear();
    for (uint32_t i = b; i < e && e - b >= 2 && !one_group;) {
      if (!entries[i].pure_read) {
        ++i;
        continue;
      }
      Run run{i, i, false, false, entries[i].read_access, kNoStages};
      bool single = true, one_queue = true;
      for (; run.end < e && entries[run.end].pure_read; ++run.end) {
        const Entry& x = entries[run.end];
        run.multi |= x.group != entries[i].group;
        one_queue &= queue_of(x) == queue_of(entries[i]);
        single &= x.single_access && x.read_access == run.access;
        run.stages = static_cast<Stages>(run.stages | x.stages);
        run_of[run.end - b] = static_cast<uint32_t>(runs.size());
      }
      // The merged state M must be one access that every queue involved can hold: the readers', the
      // producer's (it makes the transition) and the next writer's (it declares M as its entry).
      bool ok = single;
      auto restrict_to = [&](Queue q) {
        if (is_shader_access(run.access)) run.stages = static_cast<Stages>(run.stages & allowed_stages(q));
        ok = ok && queue_allows(q, run.access, run.stages) && (is_shader_access(run.access) == (run.stages != 0));
      };
      if (i > b) restrict_to(queue_of(entries[i - 1]));
      if (run.end < e) restrict_to(queue_of(entries[run.end]));
      for (uint32_t k = i; k < run.end; ++k) restrict_to(queue_of(entries[k]));
      run.valid = ok;
      // Depth tested on the direct queue and sampled by compute: no one access, but the shared read
      // state holds both (Layout::shared_read), when only direct lists move it in and out (the
      // producer and the next writer are on the direct queue) and the shader reads are compute's.
      if (run.multi && !ok && !one_queue && g.resources[r].desc.type == ResourceType::texture) {
        AccessMask mask = 0;
        Stages st = kNoStages;
        bool fits = (i == b || queue_of(entries[i - 1]) == Queue::direct) &&
                    (run.end == e || queue_of(entries[run.end]) == Queue::direct);
        for (uint32_t k = i; k < run.end && fits; ++k) {
          mask |= entries[k].accesses;
          st = static_cast<Stages>(st | entries[k].stages);
          fits = queue_of(entries[k]) != Queue::copy;
        }
        const AccessMask both = bit(Access::depth_read) | bit(Access::shader_resource);
        if (fits && mask == both && st == stages(Stage::compute)) {
          run.shared = mask;
          run.stages = st;
          run.valid = ok = true;
        }
      }
      if (run.multi && !ok && !one_queue) {
        // Located at the first reader's use of the resource ("/passes/P/uses/U", as the validator's errors).
        const uint32_t p = entries[i].pass, use = entries[i].first_use;
        const std::string other = fmt::format("pass '{}'", name_of(entries[run.end - 1].pass));
        RuleArgs args;
        args.detail = other;
        throw Error(fmt::format("/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, use, name_of(p), rname,
                                rule_message(Rule::reads_without_shared_state, args)));
      }
      // At the end of the frame the last toucher would return it to rest while readers of other
      // queues not ordered before it may still read: those readers' groups are remembered, and the
      // restore moves to the frame_end group, which waits for them (below).
      if (run.multi && !one_queue && run.end == e) {
        const Entry& last = entries[e - 1];
        for (uint32_t k = i; k + 1 < e; ++k)
          if (entries[k].group != last.group && !happens_before(s, g, entries[k].pass, last.pass))
            unordered_readers.push_back(entries[k].group);
      }
      runs.push_back(run);
      i = run.end;
    }
    for (uint32_t i = b + 1; i < e && !one_group; ++i) {
      const Entry& x = entries[i];
      const Entry& prev = entries[i - 1];
      if (prev.group == x.group) continue;  // only a group's first touch declares
      const Run* xr = x.pure_read ? &runs[run_of[i - b]] : nullptr;
      const Run* pr = prev.pure_read ? &runs[run_of[i - 1 - b]] : nullptr;
      if (xr && xr->multi) {  // inside (or opening) a read run held in M
        if (xr->valid) decls.push_back(run_decl(x.pass, r, *xr, queue_of(x)));
        continue;
      }
      if (pr && pr->multi) {  // leaving such a run: still in M; this group transitions it itself
        if (pr->valid) decls.push_back(run_decl(x.pass, r, *pr, queue_of(x)));
        continue;
      }
      // Otherwise the previous toucher hands it on in this group's first state, if its queue can.
      const PassUse& first = g.passes[x.pass].uses[x.first_use];
      Stages st = first.stages;
      if (xr && x.single_access && xr->access == first.access) st = xr->stages;  // the run, all in this group
      if (xr && !xr->valid) st = first.stages;
      if (queue_allows(queue_of(prev), first.access, st) && (!is_shader_access(first.access) || st)) {
        decls.push_back({x.pass, r, first.access, st});
        continue;
      }
      // Neither this group's state nor the resting state (whose stages include vertex and pixel) can
      // be expressed on the previous toucher's queue (an async compute pass writing what graphics
      // reads): it hands the resource on as it used it, and this group makes the transition.
      const std::optional<Access> rest = resting_access(g.resources[r].desc);
      const bool rest_ok = !rest || queue_allows(queue_of(prev), *rest, is_shader_access(*rest) ? kAllShading : kNoStages);
      const PassUse& last = g.passes[prev.pass].uses[prev.first_use];
      if (!rest_ok && prev.single_access && queue_allows(x_queue(x), last.access, prev.stages))
        decls.push_back({x.pass, r, last.access, prev.stages});
    }

    // The frame's first and last touch of a texture, on a queue that cannot name its resting state
    // (a compute list and shader_resource for every stage; a copy list and anything but copies):
    // a graphics group submitted first makes the transition from rest and hands the texture on in
    // the state the first toucher wants; a graphics group submitted last takes it over as the last
    // toucher left it and restores it (also when readers on other queues may still be reading as
    // the last toucher finishes: the frame_end group waits for them). Transient textures start
    // untouched: only the end applies to them.
    const std::optional<Access> rest = resting_access(res.desc);
    if (!rest) continue;  // buffers have no resting layout, so no restore either
    // Only a shader_resource rest is tied to the graphics stages (D3D12 legacy: PIXEL_SHADER_RESOURCE);
    // an unordered_access rest is one state for every stage, which a compute list can name.
    const Stages rest_stages = *rest == Access::shader_resource ? kAllShading
                               : is_shader_access(*rest)        ? stages(Stage::compute)
                                                                : kNoStages;
    auto rest_ok_on = [&](Queue q) { return queue_allows(q, *rest, rest_stages); };
    // The state entry i is in for its whole group: the merged read state of a run it belongs to,
    // else its pass's first use (all of the pass's stages when the pass uses one access).
    auto state_at = [&](uint32_t i) {
      const Entry& x = entries[i];
      if (!one_group && x.pure_read && run_of[i - b] != kNone && runs[run_of[i - b]].multi && runs[run_of[i - b]].valid)
        return run_decl(x.pass, r, runs[run_of[i - b]], Queue::direct);  // for a frame_start / frame_end list
      const PassUse& u = g.passes[x.pass].uses[x.first_use];
      return Decl{x.pass, r, u.access, x.single_access ? x.stages : u.stages, 0};
    };
    if (!res.transient && queue_of(entries[b]) != Queue::direct && !rest_ok_on(queue_of(entries[b]))) {
      const Decl d = state_at(b);
      Decl own = d;  // the first toucher's list names its own access of a shared read state
      if (d.shared)
        own.access = queue_of(entries[b]) == Queue::direct ? Access::depth_read : Access::shader_resource;
      decls.push_back(own);
      frame_start.push_back(d);
      start_waiters.push_back(entries[b].group);
    }
    // A transient dies after its last use and is not restored: nothing to do at the frame's end.
    if (!res.transient && (!unordered_readers.empty() || (queue_of(entries[e - 1]) != Queue::direct &&
                                                          !rest_ok_on(queue_of(entries[e - 1]))))) {
      frame_end.push_back(state_at(e - 1));
      end_waits.push_back(entries[e - 1].group);
      end_waits.insert(end_waits.end(), unordered_readers.begin(), unordered_readers.end());
    }
  }

  // The frame_start group goes first (every group index moves up by one), the frame_end group last.
  if (!frame_start.empty()) {
    for (uint32_t& gi : end_waits) ++gi;
    t.info.insert(t.info.begin(), GroupInfo{Queue::direct, std::span<const uint32_t>(lp).first(1),
                                            GroupInfo::Role::frame_start, {}});
    for (uint32_t gi : start_waiters) {
      std::vector<uint32_t>& w = t.info[gi + 1].waits;
      if (w.empty()) w.push_back(0);
    }
  }
  if (!frame_end.empty()) {
    // Graphics groups before it are ordered by the queue itself: wait only for the other queues.
    std::erase_if(end_waits, [&](uint32_t gi) { return t.info[gi].queue == Queue::direct; });
    std::sort(end_waits.begin(), end_waits.end());
    end_waits.erase(std::unique(end_waits.begin(), end_waits.end()), end_waits.end());
    t.info.push_back(GroupInfo{Queue::direct, std::span<const uint32_t>(lp).last(1),
                               GroupInfo::Role::frame_end, std::move(end_waits)});
  }

  // Lists and groups.
  // The pass lists' entry states (their uses are in the store already), then the frame lists' uses and
  // entry states, after them in the arrays and in their places among the lists; then one operation per
  // list viewing its uses, then the lists viewing their operation and entry states: no heap block per
  // list, operation or use. The declarations, sorted by pass (std::sort: a list's entry states keep the
  // order --dump shows), go straight to their lists' parts of the entry array: a count per list, its
  // place, then each written where it belongs (no push_back, no table per pass).
  auto declare = [&](const Decl& d) {
    for (uint32_t m = 0; m < g.resources[d.resource].count; ++m)
      store.entries.push_back({t.first_member[d.resource] + m, d.access, d.stages, d.shared});
  };
  if (!decls.empty()) {  // else every pass list's entry states are empty, as the walk made its part
    std::sort(decls.begin(), decls.end(), [](const Decl& x, const Decl& y) { return x.pass < y.pass; });
    std::vector<uint32_t>& list_of = sc.list_of;  // per live pass, its list's part (1 + planner position)
    list_of.resize(np);
    uint32_t* const list_at = list_of.data();
    const uint32_t* const lp_at = lp.data();
    for (uint32_t i = 1; i <= ns; ++i) list_at[lp_at[i]] = i;
    Part* const part_at = parts.data();
    // entry_end counts the list's entry states first (the walk left it 0), then marks where the next goes.
    for (const Decl& d : decls)
      part_at[list_at[d.pass]].entry_end += no_sets ? 1 : resources[d.resource].count;
    uint32_t at = 0;
    for (uint32_t i = 1; i <= ns; ++i) {
      Part& part = part_at[i];
      part.entry_begin = at;
      at += part.entry_end;
      part.entry_end = part.entry_begin;
    }
    store.entries.resize(at);
    EntryState* const entry_at = store.entries.data();
    for (const Decl& d : decls) {
      uint32_t& end = part_at[list_at[d.pass]].entry_end;
      const ResourceId first = member_of[d.resource];
      const uint32_t n = no_sets ? 1 : resources[d.resource].count;
      for (uint32_t m = 0; m < n; ++m) entry_at[end++] = EntryState{first + m, d.access, d.stages, d.shared};
    }
  }
  auto frame_part = [&](bool start) {
    Part part{static_cast<uint32_t>(store.uses.size()), 0, static_cast<uint32_t>(store.entries.size()), 0,
              OpKind::transition};
    for (const Decl& d : start ? frame_start : frame_end) {
      for (uint32_t m = 0; m < g.resources[d.resource].count; ++m)
        store.uses.push_back(
            {t.first_member[d.resource] + m, d.access, is_shader_access(d.access) ? d.stages : kNoStages, {}});
      if (!start) declare(d);
    }
    part.use_end = static_cast<uint32_t>(store.uses.size());
    part.entry_end = static_cast<uint32_t>(store.entries.size());
    return part;
  };
  const bool has_start = !t.info.empty() && t.info.front().role == GroupInfo::Role::frame_start;
  const bool has_end = !t.info.empty() && t.info.back().role == GroupInfo::Role::frame_end;
  if (has_start) parts[0] = frame_part(true);
  if (has_end) parts[ns + 1] = frame_part(false);
  const std::span<const Part> lparts(parts.data() + (has_start ? 0 : 1), ns + has_start + has_end);
  store.ops.resize(lparts.size());  // made in place (or kept from the last compile): no temporary moved in
  for (size_t i = 0; i < lparts.size(); ++i) {
    const Part& part = lparts[i];
    Operation& op = store.ops[i];
    op.kind = part.kind;
    op.uses.set_view(std::span<const Use>(store.uses).subspan(part.use_begin, part.use_end - part.use_begin));
    op.commands = 1;
    op.full_barrier = false;  // every field: the operation may be last compile's
    if (!op.label.empty()) op.label.clear();
  }
  // The groups in one array of the store and the lists' names in one array of characters: no heap block
  // per group, list or name.
  for (const GroupInfo& info : t.info)
    if (info.role != GroupInfo::Role::passes) name_bytes += transition_list_name(info.role).size();
  store.reserve_lists(lparts.size(), name_bytes);
  store.groups.reserve(t.info.size());
  t.groups.reserve(t.info.size());
  const std::span<const Operation> ops(store.ops);
  const std::span<const EntryState> entries_of(store.entries);
  // One walk over the lists in submission order, making each in its group (one call site of the inlined
  // ListStore::add_list): a list's pass is list_passes[li + 1], kNone for a frame_start / frame_end list.
  size_t li = 0;
  for (uint32_t gi = 0; gi < t.info.size(); ++gi) {
    const GroupInfo& info = t.info[gi];
    const bool passes = info.role == GroupInfo::Role::passes;
    // Pass groups keep their numbers whether or not a frame_start group went in front of them.
    CommandListGroup& group = store.add_group(
        passes ? group_name(info.queue, gi - (has_start ? 1 : 0))
               : std::string(info.role == GroupInfo::Role::frame_start ? "graphics#frame_start" : "graphics#frame_end"),
        info.queue);
    for (const uint32_t p : info.passes) {
      const Part& part = lparts[li];
      store.add_list(group, p != kNone ? std::string_view(g.passes[p].name) : transition_list_name(info.role),
                     ops.subspan(li, 1), entries_of.subspan(part.entry_begin, part.entry_end - part.entry_begin));
      ++li;
    }
    t.groups.add_view(group);
  }
  t.history_in = history;
  compile_all_into(compiled, t.table, t.groups.span(), std::move(history), 1);
  t.compiled = std::move(compiled.groups);
  t.history_out = std::move(compiled.history_out);
}

}  // namespace baton::graph
