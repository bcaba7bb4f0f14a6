// Vulkan replay: submissions in order, barriers (layout transitions, ownership transfers, scopes),
// uses (layout, ownership, hazards), present.
#include "vulkan_replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <baton/core.hpp>

#include "names.hpp"

namespace baton::validate::vulkan {

namespace {
constexpr uint64_t kLayoutTransition = uint64_t{1} << 63;  // pseudo stage/access of a transition
constexpr uint32_t kPresentSrc = 1000001002;
constexpr uint32_t kUndefined = 0;
constexpr uint64_t kAllAccesses = 0x8000 | 0x10000;  // MEMORY_READ | MEMORY_WRITE

std::string stage_name(uint64_t s) {
  return names::format_flags(names::vk_stages(), s);
}
std::string access_name(uint64_t a) {
  return names::format_flags(names::vk_accesses(), a);
}
std::string layout_name(uint32_t l) {
  return names::format_enum(names::vk_layouts(), l);
}
// The stages an access reaches on its queue: its own, and those later barriers of its queue ordered it
// before (the chain). A semaphore signal's first scope holds the access when they meet its stages.
Reach reach(const Write& w) {
  return {w.signaled};
}
Reach reach(const Read& r) {
  return {r.signaled};
}
}  // namespace

Replay::Replay(const Trace& t, Reporter& out, const ValidateOptions& options)
    : trace_(t), out_(out), options_(options), heaps_(t) {}

void Replay::run() {
  shadows_.resize(trace_.resources.size());
  ghosts_.resize(trace_.resources.size());
  byte_segments();
  for (size_t i = 0; i < trace_.resources.size(); ++i) {
    Shadow init;
    init.layout = trace_.resources[i].buffer ? kUndefined : trace_.resources[i].initial;
    const bool buffer = trace_.resources[i].buffer;
    shadows_[i] = Runs<Shadow>(
        buffer ? static_cast<uint32_t>(starts_[i].size()) : trace_.resources[i].subresource_count(), init);
    shadows_[i].count_into(out_.stats());
  }
  ordered_end_.assign(trace_.submissions.size(), OrderedSet{});
  sub_queue_.assign(trace_.submissions.size(), -1);
  events_.assign(trace_.events.size(), EventState{});
  for (size_t s = 0; s < trace_.submissions.size(); ++s) execute(static_cast<int>(s));
}

void Replay::execute(int submission) {
  const TraceSubmission& sub = trace_.submissions[static_cast<size_t>(submission)];
  if (sub.step == Step::acquire) {
    acquire_image(submission);
    return;
  }
  const auto q = queues_.try_emplace(sub.queue, static_cast<int>(queues_.size())).first->second;
  if (logs_.size() <= static_cast<size_t>(q)) logs_.resize(static_cast<size_t>(q) + 1);
  family_ = sub.family;
  // Semaphores (Ordered): what earlier submissions on this queue were ordered by stays in effect (their
  // waits, and the barriers that chained with them, order later work of the queue too).
  ordered_.clear();
  for (int earlier = submission - 1; earlier >= 0; --earlier) {
    if (trace_.submissions[static_cast<size_t>(earlier)].queue == sub.queue) {
      ordered_ = ordered_end_[static_cast<size_t>(earlier)];
      break;
    }
  }
  sub_queue_[static_cast<size_t>(submission)] = q;
  for (const HostWait& h : sub.host_wait) host_wait(h, submission);
  const uint64_t all_accesses = expand_accesses(kAllAccesses);
  for (const Grant& g : host_) add(ordered_, g.queue, g.upto, g.o, g.partial);
  // A present's waits order only the presentation engine's read, not later work of its queue.
  const OrderedSet before_waits = sub.step == Step::present ? ordered_ : OrderedSet{};
  for (size_t w = 0; w < sub.wait.size(); ++w) {
    const Signal t = signaler(sub.wait[w], sub.wait_value_of(w), submission, true);
    if (t.submission < 0) continue;  // the initial value or a host signal: orders no device work
    const uint64_t mask = sub.wait_stage_of(w);
    if (sub.step == Step::present)
      wait_for(t, kPresentEngine, kPresentEngine, kPresentEngine);
    else
      wait_for(t, dst_exec_scope(mask), expand_stages(mask), all_accesses);
  }
  now_.queue = q;
  now_.submission = submission;
  if (sub.step == Step::present) {
    present_image(submission);
    ordered_end_[static_cast<size_t>(submission)] = before_waits;
    return;
  }
  for (int li : sub.lists) commands(li);
  out_.at_submission(submission);
  mark_signals(submission);
  ordered_end_[static_cast<size_t>(submission)] = ordered_;
  now_.list = now_.command = -1;
  for (int r : sub.present) {
    shadows_[static_cast<size_t>(r)].for_each(
        0, shadows_[static_cast<size_t>(r)].size(), [&](uint32_t s, uint32_t n, const Shadow& sh) {
          if (sh.layout != kPresentSrc)
            out_.report(MessageId::vk_present_layout, r, s, layout_name(kPresentSrc), layout_name(sh.layout),
                        n);
        });
  }
}

// One list's commands in order. vkCmdExecuteCommands runs each secondary list's commands at that point
// of the primary, as if recorded there (spec, "Secondary Command Buffer Execution"; the Khronos layer
// checks the secondary's accesses against the primary's state when it is executed): messages name the
// secondary list and its command.
void Replay::commands(int li) {
  const TraceList& list = trace_.lists[static_cast<size_t>(li)];
  for (size_t c = 0; c < list.commands.size(); ++c) {
    now_.list = li;
    now_.command = static_cast<int>(c);
    ++now_.seq;
    out_.at_command(li, static_cast<int>(c));
    const Command& cmd = list.commands[c];
    if (const auto* b = std::get_if<BarrierCmd>(&cmd)) {
      barrier_call(*b);
    } else if (const auto* se = std::get_if<SetEventCmd>(&cmd)) {
      set_event(*se);
    } else if (const auto* we = std::get_if<WaitEventsCmd>(&cmd)) {
      wait_events(*we);
    } else if (const auto* u = std::get_if<UseCmd>(&cmd)) {
      use(*u);
    } else if (const auto* cl = std::get_if<ClearCmd>(&cmd)) {
      use(UseCmd{cl->resource, cl->subresources, cl->as});
    } else if (const auto* ex = std::get_if<ExecuteCmd>(&cmd)) {
      for (int secondary : ex->lists) commands(secondary);  // the loader allows no nesting
    } else if (const auto* br = std::get_if<BeginRenderingCmd>(&cmd)) {
      begin_rendering(*br);
    } else if (std::holds_alternative<EndRenderingCmd>(cmd)) {
      end_rendering();
    }
  }
}

namespace {
// Load and store operations' accesses (Vulkan spec, "Load Operations", "Store Operations"; the Khronos
// synchronization validator's tables): a color attachment's at COLOR_ATTACHMENT_OUTPUT, a depth
// attachment's load at EARLY_FRAGMENT_TESTS and store at LATE_FRAGMENT_TESTS. LOAD reads; CLEAR and
// DONT_CARE write (DONT_CARE may write undefined values); STORE and DONT_CARE write; NONE accesses nothing.
constexpr uint64_t kColorOutput = 0x400, kEarlyTests = 0x100, kLateTests = 0x200;
constexpr uint64_t kColorRead = 0x80, kColorWrite = 0x100, kDepthRead = 0x200, kDepthWrite = 0x400;
struct OpAccess {
  uint64_t stage = 0, access = 0;  // access 0: none
};
constexpr OpAccess load_access(LoadOp op, bool depth) {
  switch (op) {
    case LoadOp::load:
      return {depth ? kEarlyTests : kColorOutput, depth ? kDepthRead : kColorRead};
    case LoadOp::clear:
    case LoadOp::dont_care:
      return {depth ? kEarlyTests : kColorOutput, depth ? kDepthWrite : kColorWrite};
    case LoadOp::none:
      break;
  }
  return {};
}
constexpr OpAccess store_access(StoreOp op, bool depth) {
  if (op == StoreOp::none) return {};
  return {depth ? kLateTests : kColorOutput, depth ? kDepthWrite : kColorWrite};
}
constexpr uint64_t kAttachmentStages = kColorOutput | kEarlyTests | kLateTests;
constexpr uint64_t kAttachmentAccesses = kColorRead | kColorWrite | kDepthRead | kDepthWrite;
}  // namespace

// Attachment accesses of one render pass instance are ordered among themselves: the load operations
// happen-before the instance's other accesses to the attachment, the store operations after them, and
// draws' attachment accesses in rasterization order (spec, "Load Operations", "Store Operations",
// "Rasterization Order"). So an attachment access sees the instance's earlier attachment accesses of
// that subresource as ordered and visible; accesses from before the instance still need barriers.
void Replay::in_rendering(Shadow& sh) const {
  if (!rendering_) return;
  Write& w = sh.write;
  if (w.valid && w.where.seq >= rendering_->seq && w.where.queue == now_.queue &&
      (w.stage & kAttachmentStages) != 0 && (w.access & kAttachmentAccesses) != 0) {
    w.visible.emplace_back(kAttachmentStages, kAttachmentAccesses);
    w.chain |= dst_exec_scope(kAttachmentStages);
  }
  for (Read& r : sh.reads)
    if (r.where.seq >= rendering_->seq && r.where.queue == now_.queue && (r.stage & kAttachmentStages) != 0 &&
        (r.access & kAttachmentAccesses) != 0) {
      r.barriers |= dst_exec_scope(kAttachmentStages);
      r.own |= dst_exec_scope(kAttachmentStages);
    }
}

void Replay::attachment_access(const RenderingAttachment& a, uint64_t stage, uint64_t acc,
                               bool check_layout) {
  touch_placed(a.resource, false, false, describe(now_, stage, acc, false));
  auto one = [&](uint32_t sub, uint32_t n, Shadow& sh) {
    out_.visit(a.resource, sub, n);
    if (check_layout) {
      ownership(a.resource, sub, n, sh);
      if (sh.layout != a.layout)
        out_.report(MessageId::vk_invalid_image_layout, a.resource, sub, layout_name(a.layout),
                    layout_name(sh.layout), n);
    }
    if (acc == 0) return;
    catch_up(sh);
    in_rendering(sh);
    access(a.resource, sub, n, sh, stage, acc);
  };
  shadows_[static_cast<size_t>(a.resource)].update(a.subresource, a.subresource + 1, one);
  shadows_[static_cast<size_t>(a.resource)].coalesce(a.subresource, a.subresource + 1);
  if (acc == 0) return;
  ghost_owner_ = a.resource;
  ghost_visits(ghosts_[static_cast<size_t>(a.resource)].size());
  for (Ghost& g : ghosts_[static_cast<size_t>(a.resource)]) {
    ghost_ = &g;
    access(a.resource, 0, g.subresources, g.sh, stage, acc);
  }
  ghost_ = nullptr;
  drop_ghosts(a.resource);
}

// vkCmdBeginRendering: each attachment must be in its layout (the use of a layout, as for any access),
// and its load operation accesses it (a clear or don't-care load is a write: it needs the earlier
// accesses ordered before it, as a copy into the image would).
void Replay::begin_rendering(const BeginRenderingCmd& c) {
  rendering_ = Rendering{now_.seq, c.attachments};
  for (const RenderingAttachment& a : c.attachments) {
    const OpAccess op = load_access(a.load, a.depth);
    attachment_access(a, expand_stages(op.stage), op.access, true);
  }
}

// vkCmdEndRendering: the store operations.
void Replay::end_rendering() {
  if (!rendering_) return;  // (the loader pairs them)
  for (const RenderingAttachment& a : rendering_->attachments) {
    const OpAccess op = store_access(a.store, a.depth);
    attachment_access(a, expand_stages(op.stage), op.access, false);
  }
  rendering_.reset();
}

bool Ordered::covers(const Ordered& o) const {
  if ((o.exec & ~exec) != 0 || (o.host && !host)) return false;
  return std::all_of(o.visible.begin(), o.visible.end(), [&](const auto& v) {
    return std::any_of(visible.begin(), visible.end(), [&](const auto& mine) {
      return (v.first & ~mine.first) == 0 && (v.second & ~mine.second) == 0;
    });
  });
}

void Replay::add(OrderedSet& set, int queue, int upto, const Ordered& o, int partial) {
  // Grant a's first scope holds every access grant b's holds.
  const auto wider = [](int a, int b) { return a < 0 || a == b; };
  for (Grant& g : set) {
    if (g.queue != queue) continue;
    if (g.upto >= upto && wider(g.partial, partial) && g.o.covers(o)) return;  // nothing new
  }
  for (Grant& g : set) {
    if (g.queue != queue || g.upto != upto || g.partial != partial) continue;
    g.o.exec |= o.exec;
    g.o.host = g.o.host || o.host;
    for (const auto& [vs, va] : o.visible) g.o.grant(0, vs, va);
    const Ordered merged = g.o;
    set.erase(std::remove_if(set.begin(), set.end(),
                             [&](const Grant& x) {
                               return x.queue == queue && x.upto < upto && wider(partial, x.partial) &&
                                      merged.covers(x.o);
                             }),
              set.end());
    return;
  }
  set.erase(std::remove_if(set.begin(), set.end(),
                           [&](const Grant& x) {
                             return x.queue == queue && x.upto <= upto && wider(partial, x.partial) &&
                                    o.covers(x.o);
                           }),
            set.end());
  set.push_back(Grant{queue, upto, o, partial});
}

const Ordered* Replay::lookup(const OrderedSet& set, const Where& w, const Reach& reach) const {
  if (w.submission < 0 || w.queue < 0) return nullptr;
  const Ordered* one = nullptr;
  int n = 0;
  for (const Grant& g : set) {
    if (g.queue != w.queue || g.upto < w.submission ||
        (g.partial >= 0 && ((reach.signaled >> g.partial) & 1) == 0))
      continue;
    if (n++ == 0) {
      one = &g.o;
      continue;
    }
    if (n == 2) scratch_ = *one;
    scratch_.exec |= g.o.exec;
    scratch_.host = scratch_.host || g.o.host;
    for (const auto& [vs, va] : g.o.visible) scratch_.grant(0, vs, va);
  }
  return n <= 1 ? one : &scratch_;
}

void Ordered::grant(uint64_t exec_stages, uint64_t stages, uint64_t accesses) {
  exec |= exec_stages;
  if (accesses == 0 || stages == 0) return;
  for (auto& [vs, va] : visible) {
    if (vs == stages) {
      va |= accesses;
      return;
    }
  }
  visible.emplace_back(stages, accesses);
}

// The submission whose signal a wait (or a host wait on a timeline value) waits for: a binary
// semaphore's latest signal; a timeline semaphore's first signal to `value` or more (signals raise the
// value, trace_load.cpp), -1 for a value the semaphore starts with (0).
Replay::Signal Replay::signaler(const std::string& semaphore, std::optional<uint64_t> value, int before,
                                bool host_signals_of_before) const {
  if (value && *value == 0) return {};
  if (!value) {
    for (int t = before - 1; t >= 0; --t) {
      const TraceSubmission& s = trace_.submissions[static_cast<size_t>(t)];
      for (size_t g = 0; g < s.signal.size(); ++g)
        if (s.signal[g] == semaphore) return {t, s.signal_stage_of(g), static_cast<int>(g)};
    }
    return {};
  }
  // Host signals of a submission are made before it (trace_load.cpp: values rise in trace order).
  for (int t = 0; t <= before; ++t) {
    const TraceSubmission& s = trace_.submissions[static_cast<size_t>(t)];
    if (t < before || host_signals_of_before)
      for (const HostSignal& h : s.host_signal)
        if (h.semaphore == semaphore && h.value >= *value) return {};
    if (t == before) break;
    for (size_t g = 0; g < s.signal.size(); ++g)
      if (s.signal[g] == semaphore && s.signal_value_of(g).value_or(0) >= *value)
        return {t, s.signal_stage_of(g), static_cast<int>(g)};
  }
  return {};
}

// The signal's first synchronization scope is every command of its queue up to the signal, limited to
// the stages of its stageMask and the logically earlier ones (spec, "Semaphore Signaling"; ALL_COMMANDS:
// every stage, layout transitions too). So the wait orders the accesses in those stages (or chained to
// them by a later barrier of their queue) of t and of the earlier submissions of t's queue, and
// whatever t's work was ordered after where that ordering reaches the signal's stages (a chain through
// t's commands).
uint64_t Replay::signal_exec(uint64_t stage_mask) {
  return (stage_mask & kVkAllCommands) != 0 ? kAnyStage : src_exec_scope(stage_mask);
}

int Replay::partial_of(const Signal& s) const {
  const auto it = partials_.find({s.submission, s.index});
  return it == partials_.end() ? -1 : it->second;
}

void Replay::mark_signals(int submission) {
  const TraceSubmission& sub = trace_.submissions[static_cast<size_t>(submission)];
  const int q = sub_queue_[static_cast<size_t>(submission)];
  bool caught_up = false;
  for (size_t g = 0; g < sub.signal.size(); ++g) {
    const uint64_t mask = sub.signal_stage_of(g);
    if ((mask & kVkAllCommands) != 0) continue;
    const int id = static_cast<int>(partials_.size());
    if (id >= kMaxPartialSignals)
      throw Error(
          fmt::format("{}:/submissions/{}/signal/{}: more than {} semaphore signals with a stage mask other "
                      "than ALL_COMMANDS (not modelled)",
                      trace_.source, submission, g, kMaxPartialSignals));
    partials_[{submission, static_cast<int>(g)}] = id;
    if (!caught_up) catch_up_all();  // chains up to date with every barrier so far
    caught_up = true;
    const uint64_t exec = src_exec_scope(mask), stages = expand_stages(mask), bit = uint64_t{1} << id;
    auto mark = [&](Shadow& sh) {
      if (sh.write.valid && sh.write.where.queue == q &&
          ((sh.write.stage & stages) != 0 || (sh.write.chain & exec) != 0))
        sh.write.signaled |= bit;
      for (Read& r : sh.reads)
        if (r.where.queue == q && ((r.stage | r.barriers) & exec) != 0) r.signaled |= bit;
    };
    for (Runs<Shadow>& runs : shadows_) {
      out_.stats()->visits += runs.run_count();
      runs.for_all([&](uint32_t, uint32_t, Shadow& sh) { mark(sh); });
    }
    for (auto& gs : ghosts_) {
      ghost_visits(gs.size());
      for (Ghost& gh : gs) mark(gh.sh);
    }
  }
}

void Replay::wait_for(const Signal& t, uint64_t exec, uint64_t stages, uint64_t accesses) {
  Ordered o;
  o.grant(exec, stages, accesses);
  const size_t ts = static_cast<size_t>(t.submission);
  const OrderedSet theirs = ordered_end_[ts];
  const uint64_t src = signal_exec(t.stage);
  add(ordered_, sub_queue_[ts], t.submission, o, partial_of(t));
  for (const Grant& g : theirs)
    if (g.o.exec != 0 && (g.o.exec & src) != 0) add(ordered_, g.queue, g.upto, o, g.partial);
}

// A host wait before `submission`: what it waited for is done before every later submission is made, on
// any queue. vkWaitForFences: the fence's submission (its first scope: all earlier commands of its queue);
// vkWaitSemaphores: the submission whose signal reached the value; vkQueueWaitIdle: the queue's last
// submission; vkDeviceWaitIdle: all of them. Like a semaphore wait, each also covers what it waited for.
void Replay::host_wait(const HostWait& h, int submission) {
  Ordered all;
  const uint64_t all_stages = dst_exec_scope(kVkAllCommands);
  all.grant(all_stages, all_stages, expand_accesses(kAllAccesses));
  all.host = true;
  auto done = [&](int t, const Signal& sig = {}) {
    if (t < 0) return;
    const uint64_t src = signal_exec(sig.stage);
    add(host_, sub_queue_[static_cast<size_t>(t)], t, all, sig.submission == t ? partial_of(sig) : -1);
    for (const Grant& g : ordered_end_[static_cast<size_t>(t)])
      if (g.o.exec != 0 && (g.o.exec & src) != 0) add(host_, g.queue, g.upto, all, g.partial);
  };
  auto last = [&](auto&& pred) {
    for (int t = submission - 1; t >= 0; --t)
      if (pred(trace_.submissions[static_cast<size_t>(t)])) return t;
    return -1;
  };
  switch (h.kind) {
    case HostWait::Kind::fence:
      done(last([&](const TraceSubmission& s) { return s.fence == h.name; }));
      break;
    case HostWait::Kind::queue:
      done(last([&](const TraceSubmission& s) { return s.queue == h.name; }));
      break;
    case HostWait::Kind::semaphore: {
      const Signal sig = signaler(h.name, h.value, submission, false);
      done(sig.submission, sig);
    } break;
    case HostWait::Kind::device:
      // Each queue's last submission: its grant covers the queue's earlier ones.
      for (int t = submission - 1; t >= 0; --t) {
        const int q = sub_queue_[static_cast<size_t>(t)];
        if (std::none_of(host_.begin(), host_.end(),
                         [&](const Grant& g) { return g.queue == q && g.upto >= t && g.o.host; }))
          done(t);
      }
      break;
  }
}

const Ordered* Replay::ordered(const Where& w, const Reach& reach) const {
  return lookup(ordered_, w, reach);
}

bool Replay::sem_exec(const Where& w, const Reach& reach, uint64_t stage) const {
  const Ordered* o = ordered(w, reach);
  return o && o->exec != 0 && (stage & ~o->exec) == 0;
}

namespace {
// Whether every (stage, access) pair of an access is in one of the (stages, accesses) scopes (they add
// up, as the Khronos layer's write barriers do). An access with no stage needs one scope with its bits.
bool covers(const std::vector<std::pair<uint64_t, uint64_t>>& scopes, uint64_t stage, uint64_t bits) {
  for (uint64_t rest = stage; rest != 0; rest &= rest - 1) {
    const uint64_t bit = rest & (~rest + 1);
    uint64_t accesses = 0;
    for (const auto& [vs, va] : scopes) {
      if ((vs & bit) != 0) accesses |= va;
    }
    if ((bits & ~accesses) != 0) return false;
  }
  return stage != 0 ||
         std::any_of(scopes.begin(), scopes.end(), [&](const auto& v) { return (bits & ~v.second) == 0; });
}
}  // namespace

bool Replay::sem_visible(const Where& w, const Reach& reach, uint64_t stage, uint64_t access) const {
  const Ordered* o = ordered(w, reach);
  return o && sem_exec(w, reach, stage) && covers(o->visible, stage, expand_accesses(access));
}

void Replay::chain_waits(const OrderedSet& before,
                         const std::vector<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>>& scopes) {
  std::vector<Grant> grants;
  for (const Grant& g : before)
    for (const auto& sc : scopes)
      if ((g.o.exec & std::get<0>(sc)) != 0) {
        Grant more{g.queue, g.upto, {}, g.partial};
        more.o.grant(std::get<1>(sc), std::get<2>(sc), std::get<3>(sc));
        grants.push_back(std::move(more));
      }
  for (const Grant& g : grants) add(ordered_, g.queue, g.upto, g.o, g.partial);
}

std::string Replay::describe(const Where& w, uint64_t stage, uint64_t access, bool layout_transition) const {
  if (stage == kPresentEngine && w.list < 0 && w.submission >= 0) {
    const TraceSubmission& step = trace_.submissions[static_cast<size_t>(w.submission)];
    return fmt::format("the presentation engine ({} of '{}', submissions[{}])",
                       step.step == Step::acquire ? "vkAcquireNextImageKHR" : "vkQueuePresentKHR",
                       res(step.image).name, w.submission);
  }
  std::string what = layout_transition ? "a layout transition"
                                       : fmt::format("{} at {}", access_name(access), stage_name(stage));
  if (w.list >= 0)
    what += fmt::format(" (list '{}' command {})", trace_.lists[static_cast<size_t>(w.list)].name, w.command);
  return what;
}

std::vector<std::pair<uint32_t, uint32_t>> Replay::subresources(int resource, const TraceRange& r,
                                                                bool& in_bounds) const {
  const TraceResource& t = res(resource);
  in_bounds = true;
  if (r.all) return {{0, t.subresource_count()}};
  auto count = [](uint32_t first, uint32_t n, uint32_t size) {
    return n == 0xffffffffu ? (first < size ? size - first : 0) : n;
  };
  const uint32_t mips = count(r.mip0, r.mips, t.mips), layers = count(r.layer0, r.layers, t.layers),
                 planes = count(r.plane0, r.planes, t.planes);
  auto inside = [](uint32_t first, uint32_t n, uint32_t size) {
    return n > 0 && first < size && n <= size - first;
  };
  if (!inside(r.mip0, mips, t.mips) || !inside(r.layer0, layers, t.layers) ||
      !inside(r.plane0, planes, t.planes)) {
    in_bounds = false;
    return {};
  }
  return intervals(t, r.mip0, mips, r.layer0, layers, r.plane0, planes);
}

void Replay::byte_segments() {
  starts_.assign(trace_.resources.size(), {});
  for (size_t i = 0; i < trace_.resources.size(); ++i)
    if (trace_.resources[i].buffer) starts_[i] = {0};
  auto add = [&](int r, const ByteRange& b) {
    if (r < 0 || !res(r).buffer) return;
    for (const uint64_t at : {b.offset, b.end()})
      if (at != 0 && at != kWholeSize) starts_[static_cast<size_t>(r)].push_back(at);
  };
  auto barriers = [&](const std::vector<Barrier>& bs) {
    for (const Barrier& one : bs)
      if (const auto* b = std::get_if<VkBarrier>(&one); b && b->kind == VkBarrierKind::buffer)
        add(b->resource, b->bytes);
  };
  for (const TraceList& list : trace_.lists)
    for (const Command& cmd : list.commands) {
      if (const auto* b = std::get_if<BarrierCmd>(&cmd)) {
        barriers(b->barriers);
      } else if (const auto* se = std::get_if<SetEventCmd>(&cmd)) {
        barriers(se->barriers);
      } else if (const auto* we = std::get_if<WaitEventsCmd>(&cmd)) {
        for (const WaitEventsCmd::Wait& w : we->waits) barriers(w.barriers);
      } else if (const auto* u = std::get_if<UseCmd>(&cmd)) {
        add(u->resource, u->subresources.bytes);
      } else if (const auto* cl = std::get_if<ClearCmd>(&cmd)) {
        add(cl->resource, cl->subresources.bytes);
      }
    }
  for (std::vector<uint64_t>& st : starts_) {
    std::sort(st.begin(), st.end());
    st.erase(std::unique(st.begin(), st.end()), st.end());
  }
}

std::pair<uint32_t, uint32_t> Replay::segments(int r, const ByteRange& b) const {
  const std::vector<uint64_t>& st = starts_[static_cast<size_t>(r)];
  // Both ends start segments (byte_segments), so the range is [the one at offset, the one at its end).
  const auto lo = static_cast<uint32_t>(std::upper_bound(st.begin(), st.end(), b.offset) - st.begin()) - 1;
  const auto hi = b.end() == kWholeSize
                      ? static_cast<uint32_t>(st.size())
                      : static_cast<uint32_t>(std::lower_bound(st.begin(), st.end(), b.end()) - st.begin());
  return {lo, std::max(lo, hi)};
}

// Whether the last write is in a barrier's first scope: its stage in the first access scope's
// stages and its access in the access mask, or ordered before the first execution scope by an
// earlier barrier (the chain). Only accesses of this queue (others are ordered only by semaphores).
bool Replay::in_first_scope(const Write& w, const Scope& s) const {
  if (w.valid && sem_chain(w.where, reach(w), s.src_exec)) return true;  // through a wait (Ordered)
  return w.valid && w.where.queue == now_.queue &&
         (((w.stage & s.src_stages) != 0 && (w.access & s.src_access) != 0) || (w.chain & s.src_exec) != 0);
}

// Whether a barrier with first execution scope `src_exec` chains with the wait that ordered the access
// at `w` (judged on the waits as the event's set saw them, during an event wait).
bool Replay::sem_chain(const Where& w, const Reach& reach, uint64_t src_exec) const {
  const Ordered* o = lookup(ev_ ? ev_->ordered : ordered_, w, reach);
  return o && (o->exec & src_exec) != 0;
}

void Replay::pend(Shadow& sh) {
  if (sh.touched) return;
  sh.touched = true;
  touched_.push_back(&sh);
}

// A barrier's effect on earlier accesses, judged on the state before the call and kept pending.
const Shadow* Replay::at_set(const Shadow& sh) const {
  if (!ev_) return &sh;
  if (at_.resource < 0 || static_cast<size_t>(at_.resource) >= ev_->snapshot.size()) return nullptr;
  const Runs<Shadow>& then = ev_->snapshot[static_cast<size_t>(at_.resource)];
  if (at_.sub >= then.size()) return nullptr;
  return &then.at(at_.sub);
}

bool Replay::write_in_scope(const Shadow& sh, const Scope& s) const {
  if (!ev_) return in_first_scope(sh.write, s);
  if (!sh.write.valid || sh.write.where.seq >= ev_->where.seq) return false;  // written after the set
  const Shadow* then = at_set(sh);
  return then && in_first_scope(then->write, s);
}

const Read* Replay::read_at_set(const Shadow& sh, const Read& r) const {
  if (!ev_) return &r;
  if (r.where.seq >= ev_->where.seq) return nullptr;
  const Shadow* then = at_set(sh);
  if (!then) return nullptr;
  for (const Read& old : then->reads)
    if (old.where.seq == r.where.seq) return &old;
  return nullptr;
}

void Replay::catch_up(Shadow& sh) {
  auto log_of = [&](const Where& w) -> const ExecLog* {
    return w.queue >= 0 && static_cast<size_t>(w.queue) < logs_.size() ? &logs_[static_cast<size_t>(w.queue)] : nullptr;
  };
  Write& w = sh.write;
  if (const ExecLog* log = w.valid ? log_of(w.where) : nullptr; log && w.log_pos < log->size()) {
    if (w.chain != 0) w.chain |= log->added(w.chain, w.log_pos, log->size());
    w.log_pos = log->size();
  }
  for (Read& r : sh.reads)
    if (const ExecLog* log = log_of(r.where); log && r.log_pos < log->size()) {
      r.barriers |= log->added(r.stage | r.barriers, r.log_pos, log->size());
      r.log_pos = log->size();
    }
}

void Replay::catch_up_all() {
  for (Runs<Shadow>& runs : shadows_) runs.for_all([&](uint32_t, uint32_t, Shadow& sh) { catch_up(sh); });
  for (auto& gs : ghosts_)
    for (Ghost& g : gs) catch_up(g.sh);
}

void Replay::apply(Shadow& sh, const Scope& s, bool own) {
  catch_up(sh);
  if (write_in_scope(sh, s)) {
    pend(sh);
    if (s.dst_access != 0) sh.pending_visible.emplace_back(s.dst_stages, s.dst_access);
    sh.pending_chain |= s.dst_exec;
  }
  for (Read& r : sh.reads) {
    const Read* then = read_at_set(sh, r);
    if (then && ((r.where.queue == now_.queue &&
                  ((then->stage & s.src_exec) != 0 || (then->barriers & s.src_exec) != 0)) ||
                 sem_chain(r.where, reach(r), s.src_exec))) {
      pend(sh);
      r.pending |= s.dst_exec;
      if (own) r.pending_own |= s.dst_exec;
    }
  }
}

// The end of a barrier call: layout transitions become the last write (visible to what the
// call's barriers made visible), chains and visibility grow.
void Replay::commit() {
  for (Shadow* sh : touched_) {
    if (sh->pending_transition) {
      sh->reads.clear();
      sh->write = Write{true, kLayoutTransition, kLayoutTransition, true, now_, {}, 0, log_now()};
    }
    for (Read& r : sh->reads) {
      r.barriers |= r.pending;
      r.own |= r.pending_own;
      r.pending = r.pending_own = 0;
    }
    sh->write.visible.insert(sh->write.visible.end(), sh->pending_visible.begin(), sh->pending_visible.end());
    sh->write.chain |= sh->pending_chain;
    sh->pending_visible.clear();
    sh->pending_chain = 0;
    sh->pending_transition = false;
    sh->touched = false;
  }
  touched_.clear();
  // Equal neighbours merge only now: touched_ holds pointers into the runs during the call.
  for (const auto& [resource, lo, hi] : call_ranges_)
    shadows_[static_cast<size_t>(resource)].coalesce(lo, hi);
  call_ranges_.clear();
}

// One vkCmdPipelineBarrier2 call. Besides its memory dependency on its own subresources, every
// buffer and image barrier is an execution dependency for all earlier work in its source stages
// (Vulkan spec, "Execution and Memory Dependencies": the synchronization scopes of a barrier are
// stages, not resources), so earlier reads of any resource in those stages are ordered before
// its second scope. All of it is judged on the state before the call. The resources the call names
// (and their ghosts) get that execution dependency here, with the call's own barriers; every other
// resource gets it from the queue's ExecLog when it is next looked at (catch_up), which is the same
// state the eager walk over every resource gave (`ValidateOptions::vk_eager_execution_dependencies`
// keeps that walk as the reference the tests compare with). An event's wait judges on the state at
// the set, so it walks every resource.
void Replay::barrier_call(const BarrierCmd& call) {
  std::vector<ExecLog::Pair> exec;  // (src_exec, dst_exec) of buffer/image barriers
  std::vector<int> named;
  // Placed resources named by the call are activated before any of its barriers is judged (a
  // barrier from UNDEFINED starts an image over), so that their ghosts see the whole call.
  for (const Barrier& one : call.barriers) {
    const VkBarrier& b = std::get<VkBarrier>(one);
    if (b.kind == VkBarrierKind::memory) continue;
    const bool image = b.kind == VkBarrierKind::image;
    touch_placed(b.resource, image && b.old_layout == kUndefined, image,
                 image ? fmt::format("a barrier from {}", layout_name(b.old_layout)) : "a buffer barrier");
    if (std::find(named.begin(), named.end(), b.resource) == named.end()) named.push_back(b.resource);
  }
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>> scopes;  // for the chains with waits
  for (const Barrier& one : call.barriers) {
    const VkBarrier& b = std::get<VkBarrier>(one);
    // A memory barrier chains every access of the waited work; a buffer or image barrier makes only its
    // own resource visible (in_first_scope), and its execution dependency reaches the other resources
    // only where barriers order all resources (ValidateOptions).
    if (b.kind == VkBarrierKind::memory)
      scopes.emplace_back(src_exec_scope(b.src_stage), dst_exec_scope(b.dst_stage),
                          expand_stages(b.dst_stage), expand_accesses(b.dst_access));
    else if (options_.vk_barrier_orders_all_resources)
      scopes.emplace_back(src_exec_scope(b.src_stage), dst_exec_scope(b.dst_stage), 0, 0);
  }
  for (const Barrier& one : call.barriers) {
    const VkBarrier& b = std::get<VkBarrier>(one);
    barrier(b);
    if (b.kind == VkBarrierKind::memory || !options_.vk_barrier_orders_all_resources) continue;
    const ExecLog::Pair e{src_exec_scope(b.src_stage), dst_exec_scope(b.dst_stage)};
    if (std::find(exec.begin(), exec.end(), e) == exec.end()) exec.push_back(e);
  }
  // The log holds what a call does to accesses of its own queue. An access a semaphore wait ordered
  // (a grant) also takes the call where the wait's scope chains with it (sem_chain), which the log
  // does not express: such a call walks every resource, as does an event's wait.
  const OrderedSet& grants = ev_ ? ev_->ordered : ordered_;
  const bool chains_with_a_wait = std::any_of(grants.begin(), grants.end(), [&](const Grant& g) {
    return std::any_of(exec.begin(), exec.end(), [&](const ExecLog::Pair& e) { return (g.o.exec & e.first) != 0; });
  });
  const bool eager = ev_ != nullptr || options_.vk_eager_execution_dependencies || chains_with_a_wait;
  auto exec_on = [&](int r, const Scope& only_exec) {
    shadows_[static_cast<size_t>(r)].for_all([&](uint32_t first, uint32_t, Shadow& sh) {
      at_ = {r, first};
      if (sh.write.valid || !sh.reads.empty()) apply(sh, only_exec, false);
    });
  };
  auto exec_on_ghosts = [&](std::vector<Ghost>& gs, const Scope& only_exec) {
    ghost_visits(gs.size());
    for (Ghost& g : gs) {
      at_ = {g.from, g.index};
      apply(g.sh, only_exec, false);
    }
  };
  for (const auto& [src, dst] : exec) {
    const Scope only_exec{src, 0, 0, dst, 0, 0};
    if (eager) {
      for (size_t r = 0; r < shadows_.size(); ++r) exec_on(static_cast<int>(r), only_exec);
      for (auto& gs : ghosts_) exec_on_ghosts(gs, only_exec);
    } else {
      for (int r : named) {
        exec_on(r, only_exec);
        exec_on_ghosts(ghosts_[static_cast<size_t>(r)], only_exec);
      }
    }
  }
  commit();
  if (!eager && !exec.empty()) {
    ExecLog& log = logs_[static_cast<size_t>(now_.queue)];
    log.append(exec);
    // The named resources have this call's dependency already: their accesses of this queue are
    // up to date with the log including it.
    auto current = [&](Shadow& sh) {
      if (sh.write.valid && sh.write.where.queue == now_.queue) sh.write.log_pos = log.size();
      for (Read& r : sh.reads)
        if (r.where.queue == now_.queue) r.log_pos = log.size();
    };
    for (int r : named) {
      shadows_[static_cast<size_t>(r)].for_all([&](uint32_t, uint32_t, Shadow& sh) { current(sh); });
      for (Ghost& g : ghosts_[static_cast<size_t>(r)]) current(g.sh);
    }
  }
  // After the call's own judgement (which sees the waits as they were before it).
  chain_waits(ev_ ? ev_->ordered : ordered_, scopes);
  for (const Barrier& one : call.barriers) {
    const VkBarrier& b = std::get<VkBarrier>(one);
    if (b.kind != VkBarrierKind::memory) drop_ghosts(b.resource);
  }
}

// A placed resource's first access (or an image barrier from UNDEFINED, which starts its contents
// over) makes it the occupant of its bytes; the previous occupants' shadows become its ghosts. Any
// other access after another resource took over its memory is a use after takeover.
void Replay::touch_placed(int r, bool starts_undefined, bool image_barrier, const std::string& what) {
  if (!heaps_.placed(r)) return;
  const HeapModel::Eviction ev = heaps_.evicted(r);
  if (heaps_.activated(r) && ev.by == kNoResource) return;  // still the occupant
  if (heaps_.activated(r) && !starts_undefined) {
    out_.report(MessageId::heap_use_after_takeover, r, -1,
                fmt::format("'{}' ({})", res(ev.by).name, heaps_.bytes(r, ev.lo, ev.hi)), what);
    return;
  }
  const std::vector<HeapModel::Previous> prev = heaps_.activate(r);
  std::vector<Ghost>& mine = ghosts_[static_cast<size_t>(r)];
  out_.stats()->live -= mine.size();
  mine.clear();
  if (prev.empty()) return;
  std::string names;
  for (const HeapModel::Previous& p : prev)
    names += fmt::format("{}'{}' ({})", names.empty() ? "" : ", ", res(p.resource).name,
                         heaps_.bytes(r, p.lo, p.hi));
  if (!res(r).buffer && !starts_undefined)
    out_.report(
        MessageId::heap_takeover_layout, r, -1, names,
        image_barrier ? what + " (oldLayout must be UNDEFINED)" : what + " with no barrier from UNDEFINED");
  // An access is the occupant's own (tag -1) or, in the occupant's ghosts, an earlier occupant's.
  auto tagged = [](Shadow sh, int occupant) {
    if (sh.write.where.occupant < 0) sh.write.where.occupant = occupant;
    for (Read& rd : sh.reads)
      if (rd.where.occupant < 0) rd.where.occupant = occupant;
    return sh;
  };
  auto keep = [&](Ghost g) {
    if (g.lo >= g.hi) return;
    const bool any = (g.sh.write.valid && g.sh.write.where.occupant >= 0) ||
                     std::any_of(g.sh.reads.begin(), g.sh.reads.end(),
                                 [](const Read& rd) { return rd.where.occupant >= 0; });
    if (any) mine.push_back(std::move(g));
  };
  // One ghost per run of the previous occupant's shadow (and per ghost it carried), so the ghosts cost
  // what the previous occupants' accesses split them into, not their subresource count.
  for (const HeapModel::Previous& p : prev) {
    const Runs<Shadow>& theirs = shadows_[static_cast<size_t>(p.resource)];
    // (A buffer's runs are byte segments of its one subresource.)
    const bool buffer = res(p.resource).buffer;
    theirs.for_each(0, theirs.size(), [&](uint32_t first, uint32_t n, const Shadow& sh) {
      keep(Ghost{p.resource, p.lo, p.hi, buffer ? 1 : n, first, tagged(sh, p.resource)});
    });
    const std::vector<Ghost>& carried = ghosts_[static_cast<size_t>(p.resource)];
    ghost_visits(carried.size());
    for (const Ghost& g : carried)
      keep(Ghost{g.from, std::max(g.lo, p.lo), std::min(g.hi, p.hi), g.subresources, g.index,
                 tagged(g.sh, p.resource)});
  }
  out_.stats()->live += mine.size();
}

void Replay::drop_ghosts(int r) {
  std::vector<Ghost>& gs = ghosts_[static_cast<size_t>(r)];
  const size_t before = gs.size();
  gs.erase(std::remove_if(gs.begin(), gs.end(),
                          [](const Ghost& g) {
                            return !(g.sh.write.valid && g.sh.write.where.occupant >= 0) &&
                                   std::none_of(g.sh.reads.begin(), g.sh.reads.end(),
                                                [](const Read& rd) { return rd.where.occupant >= 0; });
                          }),
           gs.end());
  out_.stats()->live -= before - gs.size();
}

// A hazard found on a shadow, or on a ghost: there it is an unordered takeover when the earlier access
// is a previous occupant's (the resource's own accesses are reported by its own shadow).
// `n`: the subresources sharing the shadow (for a ghost, those of the previous occupant it stands for).
void Replay::hazard(MessageId id, int resource, uint32_t sub, uint32_t n, const Where& earlier,
                    const std::string& what, const std::string& me) {
  if (ghost_ == nullptr) {
    out_.report(id, resource, sub, what, me);
    return;
  }
  if (earlier.occupant < 0) return;
  out_.report(MessageId::heap_unordered_takeover, ghost_owner_, -1,
              fmt::format("'{}' ({}), last accessed by {}", res(earlier.occupant).name,
                          heaps_.bytes(ghost_owner_, ghost_->lo, ghost_->hi), what),
              fmt::format("{} ({})", me, catalog_entry(id).name), n);
}

// vkCmdSetEvent2: the event remembers where it was set and what it saw then (EventState).
void Replay::set_event(const SetEventCmd& c) {
  EventState& e = events_.at(static_cast<size_t>(c.event));
  e.set = true;
  e.queue = now_.queue;
  e.where = now_;
  e.dependency = c.barriers;
  e.ordered = ordered_;
  // The snapshot is a copy of the runs (memory follows the runs, as the shadows do); its runs count
  // into the replay's limits while the event holds it.
  auto runs = [](const std::vector<Runs<Shadow>>& rs) {
    uint64_t n = 0;
    for (const Runs<Shadow>& r : rs) n += r.run_count();
    return n;
  };
  out_.stats()->live -= runs(e.snapshot);
  catch_up_all();  // the snapshot is the state at the set, with every execution dependency until then
  e.snapshot = shadows_;
  const uint64_t taken = runs(e.snapshot);
  out_.stats()->live += taken;
  out_.stats()->visits += taken;
}

void Replay::split_at_snapshot(const EventState& e, std::vector<int>& split) {
  for (size_t r = 0; r < e.snapshot.size() && r < shadows_.size(); ++r) {
    if (e.snapshot[r].run_count() < 2) continue;
    split.push_back(static_cast<int>(r));
    e.snapshot[r].for_each(0, e.snapshot[r].size(), [&](uint32_t first, uint32_t n, const Shadow&) {
      shadows_[r].update(first, first + n, [](uint32_t, uint32_t, Shadow&) {});
    });
  }
}

// vkCmdWaitEvents2: each event's dependency is replayed as a barrier call whose first scope is the
// set's (ev_): accesses after the set are outside it, and so are chains that grew after it. The wait's
// dependency info must be the set's (VUID-vkCmdWaitEvents2-pEvents-03838).
void Replay::wait_events(const WaitEventsCmd& c) {
  for (const WaitEventsCmd::Wait& w : c.waits) {
    const EventState& e = events_.at(static_cast<size_t>(w.event));
    const std::string name = fmt::format("event '{}'", trace_.events.at(static_cast<size_t>(w.event)));
    if (!e.set || e.queue != now_.queue) {
      out_.report(MessageId::vk_event_wait_not_set, -1, -1,
                  e.set ? "was set on another queue" : "no vkCmdSetEvent2 set before", name);
      continue;
    }
    const bool same = e.dependency.size() == w.barriers.size() &&
                      std::equal(e.dependency.begin(), e.dependency.end(), w.barriers.begin(),
                                 [](const Barrier& a, const Barrier& b) {
                                   const auto* x = std::get_if<VkBarrier>(&a);
                                   const auto* y = std::get_if<VkBarrier>(&b);
                                   return x && y && *x == *y;
                                 });
    if (!same)
      out_.report(MessageId::vk_event_dependency_mismatch, -1, -1,
                  fmt::format("set at list '{}' command {}",
                              trace_.lists[static_cast<size_t>(e.where.list)].name, e.where.command),
                  name);
    std::vector<int> split;
    split_at_snapshot(e, split);
    ev_ = &e;
    barrier_call(BarrierCmd{w.barriers});
    ev_ = nullptr;
    for (int r : split) shadows_[static_cast<size_t>(r)].coalesce();
  }
}

// A layout transition is a write performed by the barrier: it must be ordered after every earlier
// access (first scope), and is visible only to the second access scope. Layout transitions of one
// queue happen in submission order relative to each other (Vulkan spec, "Image Layout
// Transitions"), so an earlier transition of this queue needs no dependency.
void Replay::transition(int resource, uint32_t sub, uint32_t n, Shadow& sh, const Scope& s) {
  catch_up(sh);
  const Write& w = sh.write;
  // A semaphore wait orders the signaling submission's accesses before this transition only
  // through a dependency chain: the transition happens after the barrier's first execution scope,
  // which must overlap the wait's second scope (ALL_COMMANDS here). With a first scope of NONE or
  // TOP_OF_PIPE the transition may run before the wait completes (spec, "Semaphore Waiting",
  // "Image Layout Transitions"); found by the differential test (docs/replay.md).
  const auto waited = [&](const Where& where, const Reach& from) {
    const Ordered* o = ordered(where, from);
    return o && (o->host || (s.src_exec & o->exec) != 0);  // host-waited work is done before the submission
  };
  for (const Read& r : sh.reads) {
    if (waited(r.where, reach(r))) continue;
    const Read* then = read_at_set(sh, r);
    const bool ordered = then && r.where.queue == now_.queue &&
                         ((then->stage & s.src_exec) != 0 || (then->barriers & s.src_exec) != 0);
    if (!ordered) {
      hazard(MessageId::vk_hazard_write_after_read, resource, sub, n, r.where,
             describe(r.where, r.stage, r.access, false), describe(now_, 0, 0, true));
      break;
    }
  }
  // The reads stand in for the write when this barrier orders each of them by its own scope or
  // through barriers naming the subresource (see Read::own); otherwise the write is checked as well,
  // after a write-after-read too (as in access()).
  const bool checked_by_reads =
      !sh.reads.empty() && std::all_of(sh.reads.begin(), sh.reads.end(), [&](const Read& r) {
        const Read* then = read_at_set(sh, r);
        return waited(r.where, reach(r)) ||
               (then && ((then->stage & s.src_exec) != 0 || (then->own & s.src_exec) != 0));
      });
  if (!checked_by_reads && w.valid && !waited(w.where, reach(w))) {
    const bool ordered = write_in_scope(sh, s) || (w.layout_transition && w.where.queue == now_.queue);
    if (!ordered)
      hazard(against(w, MessageId::vk_hazard_write_after_write), resource, sub, n, w.where,
             describe(w.where, w.stage, w.access, w.layout_transition), describe(now_, 0, 0, true));
  }
  pend(sh);
  sh.pending_transition = true;
  if (s.dst_access != 0) sh.pending_visible.emplace_back(s.dst_stages, s.dst_access);
  sh.pending_chain |= s.dst_exec;
}

bool Replay::ownership(int resource, uint32_t sub, uint32_t n, Shadow& sh) {
  if ((res(resource).flags & flag::concurrent) != 0) return true;
  if (sh.in_transfer || (sh.owner != kNoOwner && sh.owner != family_)) {
    out_.report(
        MessageId::vk_queue_family_not_owner, resource, sub,
        sh.in_transfer ? fmt::format("none (released to {})", sh.transfer_to) : std::to_string(sh.owner),
        std::to_string(family_), n);
    return false;
  }
  sh.owner = family_;
  return true;
}

void Replay::barrier(const VkBarrier& b) {
  const Scope scope{src_exec_scope(b.src_stage), expand_stages(b.src_stage), expand_accesses(b.src_access),
                    dst_exec_scope(b.dst_stage), expand_stages(b.dst_stage), expand_accesses(b.dst_access)};
  if (b.kind == VkBarrierKind::memory) {
    for (size_t r = 0; r < shadows_.size(); ++r)
      shadows_[r].for_all([&](uint32_t first, uint32_t, Shadow& sh) {
        at_ = {static_cast<int>(r), first};
        apply(sh, scope);
      });
    for (auto& gs : ghosts_) {
      ghost_visits(gs.size());
      for (Ghost& g : gs) {
        at_ = {g.from, g.index};
        apply(g.sh, scope);
      }
    }
    return;
  }
  bool in_bounds = true;
  std::vector<std::pair<uint32_t, uint32_t>> subs;
  if (b.kind == VkBarrierKind::buffer)
    subs.push_back(segments(b.resource, b.bytes));
  else
    subs = subresources(b.resource, b.kind == VkBarrierKind::image ? b.range : TraceRange{}, in_bounds);
  if (!in_bounds)
    throw Error(fmt::format("{}: list '{}' command {}: image barrier range out of bounds for '{}'",
                            trace_.source, trace_.lists[static_cast<size_t>(now_.list)].name, now_.command,
                            res(b.resource).name));
  const bool image = b.kind == VkBarrierKind::image;
  const bool transfer = b.src_family != b.dst_family && b.src_family != kVkQueueFamilyIgnored &&
                        b.dst_family != kVkQueueFamilyIgnored &&
                        (res(b.resource).flags & flag::concurrent) == 0;
  auto one = [&](uint32_t sub, uint32_t n, Shadow& sh) {
    at_ = {b.resource, sub};
    out_.visit(b.resource, sub, n);
    if (transfer && family_ == b.dst_family) {
      // Acquire: must match a release to this family; the layout transition happened at release.
      if (!sh.in_transfer || sh.transfer_to != family_ ||
          (image && (sh.transfer_old != b.old_layout || sh.transfer_new != b.new_layout)))
        out_.report(
            MessageId::vk_queue_family_unmatched_acquire, b.resource, sub,
            sh.in_transfer ? fmt::format("release to family {}", sh.transfer_to) : "no release in flight",
            fmt::format("{} -> {}", b.src_family, b.dst_family), n);
      sh.in_transfer = false;
      sh.owner = family_;
      if (image) sh.layout = b.new_layout;
      apply(sh, scope);
      return;
    }
    if (transfer) {
      // Release: recorded on the owning family.
      if (family_ != b.src_family || (sh.owner != kNoOwner && sh.owner != family_))
        out_.report(MessageId::vk_queue_family_release_not_owner, b.resource, sub,
                    sh.owner == kNoOwner ? "no owner yet"
                                         : fmt::format("owner {}, recorded on {}", sh.owner, family_),
                    fmt::format("{} -> {}", b.src_family, b.dst_family), n);
    } else if (image && b.old_layout == kUndefined) {
      sh.owner = family_;  // discarding contents: any family may take the image
      sh.in_transfer = false;
    } else if (!ownership(b.resource, sub, n, sh)) {
      return;
    }
    if (image) {
      if (b.old_layout != kUndefined && b.old_layout != sh.layout)
        out_.report(MessageId::vk_barrier_old_layout, b.resource, sub, layout_name(sh.layout),
                    layout_name(b.old_layout), n);
      if (b.old_layout != b.new_layout)
        transition(b.resource, sub, n, sh, scope);
      else
        apply(sh, scope);
      sh.layout = b.new_layout;
    } else {
      apply(sh, scope);
    }
    if (transfer) {
      sh.in_transfer = true;
      sh.transfer_to = b.dst_family;
      sh.transfer_old = b.old_layout;
      sh.transfer_new = b.new_layout;
      sh.owner = kNoOwner;
    }
  };
  for (const auto& [lo, hi] : subs) {
    // A run split while the call has effects pending on it: both halves carry them.
    shadows_[static_cast<size_t>(b.resource)].update(lo, hi, one, [&](Shadow& copy) {
      if (copy.touched) touched_.push_back(&copy);
    });
    call_ranges_.emplace_back(b.resource, lo, hi);
  }
  // The memory taken over: the barrier orders (or, as a layout transition, writes) the shared bytes.
  const bool transitions = image && b.old_layout != b.new_layout;
  ghost_owner_ = b.resource;
  ghost_visits(ghosts_[static_cast<size_t>(b.resource)].size());
  for (Ghost& g : ghosts_[static_cast<size_t>(b.resource)]) {
    ghost_ = &g;
    at_ = {g.from, g.index};
    if (transitions)
      transition(b.resource, 0, g.subresources, g.sh, scope);
    else
      apply(g.sh, scope);
  }
  ghost_ = nullptr;
}

void Replay::use(const UseCmd& u) {
  const TraceResource& r = res(u.resource);
  std::vector<std::pair<uint32_t, uint32_t>> subs;
  if (r.buffer) {
    subs.push_back(segments(u.resource, u.subresources.bytes));
  } else if (u.subresources.index != kAllSubresources) {
    const uint32_t i = run_order(r).run(static_cast<uint32_t>(u.subresources.index));  // shadows' run index
    subs.emplace_back(i, i + 1);
  } else {
    bool in_bounds = true;  // checked by the loader
    subs = subresources(u.resource, u.subresources.range, in_bounds);
  }
  const uint64_t stage = expand_stages(u.as.vk_stage);
  touch_placed(u.resource, false, false, describe(now_, stage, u.as.vk_access, false));
  // A draw's attachment access to an attachment of the render pass instance (rasterization order).
  const bool attachment = rendering_ && (stage & kAttachmentStages) != 0 &&
                          (u.as.vk_access & kAttachmentAccesses) != 0 &&
                          std::any_of(rendering_->attachments.begin(), rendering_->attachments.end(),
                                      [&](const RenderingAttachment& a) { return a.resource == u.resource; });
  auto one = [&](uint32_t sub, uint32_t n, Shadow& sh) {
    out_.visit(u.resource, sub, n);
    ownership(u.resource, sub, n, sh);
    if (!r.buffer && sh.layout != u.as.vk_layout)
      out_.report(MessageId::vk_invalid_image_layout, u.resource, sub, layout_name(u.as.vk_layout),
                  layout_name(sh.layout), n);
    if (attachment) {
      catch_up(sh);
      in_rendering(sh);
    }
    access(u.resource, sub, n, sh, stage, u.as.vk_access);
  };
  for (const auto& [lo, hi] : subs) {
    shadows_[static_cast<size_t>(u.resource)].update(lo, hi, one);
    shadows_[static_cast<size_t>(u.resource)].coalesce(lo, hi);
  }
  ghost_owner_ = u.resource;
  ghost_visits(ghosts_[static_cast<size_t>(u.resource)].size());
  for (Ghost& g : ghosts_[static_cast<size_t>(u.resource)]) {
    ghost_ = &g;
    access(u.resource, 0, g.subresources, g.sh, stage, u.as.vk_access);
  }
  ghost_ = nullptr;
  drop_ghosts(u.resource);
}

// Whether the reads since the last write stand in for it: there are some, and each is synced or
// ordered before `stage` by barriers of its own (then the reads were checked against the write).
bool Replay::write_checked_by_reads(const Shadow& sh, uint64_t stage) const {
  if (sh.reads.empty()) return false;
  return std::all_of(sh.reads.begin(), sh.reads.end(), [&](const Read& rd) {
    return sem_exec(rd.where, reach(rd), stage) ||
           ((rd.where.queue == now_.queue || ordered(rd.where, reach(rd))) && (stage & ~rd.own) == 0);
  });
}

// Hazard detection for one access, then the access becomes the newest in the shadow.
void Replay::access(int resource, uint32_t sub, uint32_t n, Shadow& sh, uint64_t stage, uint64_t acc) {
  catch_up(sh);
  const uint64_t bits = expand_accesses(acc);
  const std::string me = describe(now_, stage, acc, false);
  Write& w = sh.write;
  // Visible when every (stage, access) pair of the access is in some barrier's second access
  // scope (the scopes add up, as the Khronos layer's write barriers do).
  auto visible = [&](const Write& wr) {
    if (sem_visible(wr.where, reach(wr), stage, acc)) return true;
    return (wr.where.queue == now_.queue || ordered(wr.where, reach(wr))) && covers(wr.visible, stage, bits);
  };
  if (has_write(acc)) {
    for (const Read& rd : sh.reads) {
      if (sem_exec(rd.where, reach(rd), stage) ||
          ((rd.where.queue == now_.queue || ordered(rd.where, reach(rd))) && (stage & ~rd.barriers) == 0))
        continue;
      hazard(MessageId::vk_hazard_write_after_read, resource, sub, n, rd.where,
             describe(rd.where, rd.stage, rd.access, false), me);
      break;
    }
    // With reads since the write that this write is ordered after by their own barriers, only WAR
    // is checked (the reads were checked against the write). Otherwise the write is checked too, even
    // after a write-after-read: unordered with the read, it can be unordered with the write as well
    // (seed 345 of the submission-sync run: the layer reports that write-after-write at submit time).
    // A read-modify-write access reports the read side first, as the Khronos layer does.
    if (!write_checked_by_reads(sh, stage) && w.valid && !visible(w))
      hazard(against(w, has_read(acc) ? MessageId::vk_hazard_read_after_write
                                      : MessageId::vk_hazard_write_after_write),
             resource, sub, n, w.where, describe(w.where, w.stage, w.access, w.layout_transition), me);
    sh.reads.clear();
    sh.write = Write{true, stage, bits, false, now_, {}, 0, log_now()};
    return;
  }
  // A read after an earlier read of the same stages that was already checked adds nothing.
  // (A semaphore or host wait that orders an earlier read counts as one of its own barriers: the layer
  // applies a wait as a barrier on every imported access.)
  uint64_t read_barriers = 0;
  for (const Read& rd : sh.reads) {
    if (rd.where.queue == now_.queue) read_barriers |= rd.own | rd.replaced_own;
    if (const Ordered* o = ordered(rd.where, reach(rd))) read_barriers |= o->exec;
  }
  if (w.valid && (stage & read_barriers) == 0 && !visible(w) && !acquire_waited(w))
    hazard(against(w, MessageId::vk_hazard_read_after_write), resource, sub, n, w.where,
           describe(w.where, w.stage, w.access, w.layout_transition), me);
  for (Read& rd : sh.reads) {
    if (rd.stage == stage && rd.where.queue == now_.queue) {
      const uint64_t replaced = rd.own | rd.replaced_own;
      rd = Read{stage, bits, 0, now_, 0, 0, 0, log_now()};
      rd.replaced_own = replaced;
      return;
    }
  }
  sh.reads.push_back(Read{stage, bits, 0, now_, 0, 0, 0, log_now()});
}

}  // namespace baton::validate::vulkan
