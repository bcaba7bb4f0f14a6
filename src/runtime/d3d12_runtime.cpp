// The D3D12 runtime: one frame = build a frame graph from the engine's declarations, compile it,
// place the transients in one ID3D12Heap from their real allocation info, lower the plan to legacy
// resource states, record one command list per list in parallel, execute one ExecuteCommandLists
// per group with the schedule's waits as fence Wait / Signal, and retire the frame's objects when
// the GPU is done (include/runtime/baton/runtime_d3d12.hpp). The lowering arrives as plain data
// (d3d12_legacy_plain.hpp): directx-headers and vkd3d's headers never meet in one file.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "baton/d3d12_legacy_plain.hpp"
#include "baton/runtime_d3d12.hpp"
#include "frame_lifecycle.hpp"
#include "thread_pool.hpp"

namespace baton::runtime::d3d12 {
namespace {

namespace plain = ::baton::d3d12;
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// IIDs through vkd3d's __uuidof emulation (function-local statics: no INITGUID, so no clash with
// another library of the program that defines the IID symbols).
template <class T>
const GUID& iid() {
#ifdef _WIN32
  return __uuidof(T);
#else
  return __vkd3d_uuidof<T>();
#endif
}

void check_hr(HRESULT hr, std::string_view what) {
  if (FAILED(hr)) throw Error(fmt::format("{} failed (HRESULT {:#010x})", what, static_cast<uint32_t>(hr)));
}
template <class T>
void release(T*& p) {
  if (p) p->Release();
  p = nullptr;
}

D3D12_COMMAND_LIST_TYPE list_type(Queue q) {
  switch (q) {
    case Queue::direct: return D3D12_COMMAND_LIST_TYPE_DIRECT;
    case Queue::compute: return D3D12_COMMAND_LIST_TYPE_COMPUTE;
    case Queue::copy: return D3D12_COMMAND_LIST_TYPE_COPY;
  }
  return D3D12_COMMAND_LIST_TYPE_DIRECT;
}
std::string_view queue_name(Queue q) { return q == Queue::direct ? "direct" : q == Queue::compute ? "compute" : "copy"; }

// Blocks until `fence` reaches `value`. Polling (with a growing sleep) rather than an event:
// SetEventOnCompletion needs events the engine's device may not have been created with (vkd3d's
// pfn_signal_event), and vkd3d 1.2 has no timed event waits.
void wait_fence(ID3D12Fence* fence, uint64_t value) {
  auto nap = std::chrono::microseconds(20);
  while (fence->GetCompletedValue() < value) {
    if (fence->GetCompletedValue() == UINT64_MAX) throw Error("device removed while waiting for a fence");
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds(1000));
  }
}

// What PassContext reads: the frame's resources, and per list what its pass declared and the
// legacy state of every subresource of those after the list's before-barriers.
struct HandleTable {
  std::vector<ID3D12Resource*> resources;  // per frame resource
};
struct ListData {
  std::vector<uint32_t> declared;  // frame resources, sorted
  std::vector<std::pair<uint64_t, uint32_t>> states;  // (resource << 32 | subresource), sorted
  bool declares(uint32_t r) const { return std::binary_search(declared.begin(), declared.end(), r); }
};

// A heap of transient memory, reused by later frames once the GPU is done with its frame.
struct Heap {
  ID3D12Heap* heap = nullptr;
  uint64_t size = 0;
  D3D12_HEAP_FLAGS flags = D3D12_HEAP_FLAG_NONE;
};

// Everything a submitted frame owns until the GPU has finished it.
struct PendingFrame {
  uint64_t ticket = 0;
  std::array<uint64_t, graph::kQueues> values{};  // per logical queue: the fence value it reaches
  std::vector<ID3D12Resource*> placed;
  std::vector<ID3D12CommandAllocator*> allocators;
  std::vector<ID3D12GraphicsCommandList*> lists;
  std::optional<Heap> heap;
};

// The resource-heap kind a transient needs on resource heap tier 1 (one kind per heap).
enum class HeapKind : uint8_t { buffers, rt_ds_textures, other_textures };
HeapKind heap_kind(const D3D12_RESOURCE_DESC& d) {
  if (d.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER) return HeapKind::buffers;
  return d.Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)
             ? HeapKind::rt_ds_textures
             : HeapKind::other_textures;
}
constexpr D3D12_HEAP_FLAGS kHeapFlagOf[] = {D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS, D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES,
                                            D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES};

bool declared(const PassContext& c, Res r) {
  const auto* h = static_cast<const HandleTable*>(c.frame);
  const auto* l = static_cast<const ListData*>(c.list);
  return h && l && r.index < h->resources.size() && l->declares(r.index);
}

}  // namespace

ID3D12Resource* PassContext::resource(Res r) const {
  return declared(*this, r) ? static_cast<const HandleTable*>(frame)->resources[r.index] : nullptr;
}

D3D12_RESOURCE_STATES PassContext::state(Res r, uint32_t subresource) const {
  if (!declared(*this, r)) return D3D12_RESOURCE_STATE_COMMON;
  const auto* l = static_cast<const ListData*>(list);
  const uint64_t key = uint64_t{r.index} << 32 | subresource;
  const auto it = std::lower_bound(l->states.begin(), l->states.end(), std::make_pair(key, 0u),
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return it != l->states.end() && it->first == key ? static_cast<D3D12_RESOURCE_STATES>(it->second)
                                                   : D3D12_RESOURCE_STATE_COMMON;
}

// ---------------------------------------------------------------------------------------------
// Frame building: cheap, no D3D12 calls; problems are kept and reported by submit.
Res Frame::import_resource(std::string name, ID3D12Resource* resource, const D3D12_RESOURCE_DESC& desc,
                           D3D12_RESOURCE_STATES state, std::optional<Access> rest) {
  if (!resource) errors_.push_back(fmt::format("imported resource '{}' has no ID3D12Resource", name));
  Resource r;
  r.name = std::move(name);
  r.resource = resource;
  r.desc = desc;
  r.state = state;
  r.rest = rest;
  resources_.push_back(std::move(r));
  return Res{static_cast<uint32_t>(resources_.size() - 1)};
}

Res Frame::create_resource(std::string name, const D3D12_RESOURCE_DESC& desc) {
  Resource r;
  r.name = std::move(name);
  r.transient = true;
  r.desc = desc;
  resources_.push_back(std::move(r));
  return Res{static_cast<uint32_t>(resources_.size() - 1)};
}

void Frame::add_pass(PassDesc pass) { declare_pass(std::move(pass), resources_.size(), passes_, errors_); }

void Frame::output(Res r) { declare_output(r, resources_.size(), outputs_, errors_); }

// ---------------------------------------------------------------------------------------------
struct Runtime::Impl {
  DeviceDesc dev;
  RuntimeOptions opt;
  std::unique_ptr<ThreadPool> pool;
  D3D12_RESOURCE_HEAP_TIER heap_tier = D3D12_RESOURCE_HEAP_TIER_1;
  std::array<ID3D12Fence*, graph::kQueues> fence{};  // per logical queue (direct, compute, copy)
  std::array<uint64_t, graph::kQueues> fence_value{};
  uint64_t next_ticket = 0, completed_ticket = 0;
  std::deque<PendingFrame> pending;
  std::vector<Heap> free_heaps;
  Frame frame;
  std::mutex mutex;  // the runtime is driven from one thread; this only guards against misuse

  ~Impl() {
    if (!dev.device) return;
    try {
      wait_idle();
    } catch (const std::exception&) {
      // A lost device: release what we hold anyway.
    }
    while (!pending.empty()) retire_front();
    for (Heap& h : free_heaps) release(h.heap);
    for (ID3D12Fence*& f : fence) release(f);
    for (ID3D12CommandQueue* q : {dev.direct, dev.compute, dev.copy})
      if (q) q->Release();
    dev.device->Release();
  }

  ID3D12CommandQueue* queue_of(Queue q) const {
    ID3D12CommandQueue* x = q == Queue::compute ? dev.compute : q == Queue::copy ? dev.copy : dev.direct;
    return x ? x : dev.direct;
  }
  // The logical queue a group really runs on (async groups without their queue run on direct).
  Queue real_queue(Queue q) const { return queue_of(q) == dev.direct ? Queue::direct : q; }

  void init() {
    dev.device->AddRef();
    for (ID3D12CommandQueue* q : {dev.direct, dev.compute, dev.copy})
      if (q) q->AddRef();
    D3D12_FEATURE_DATA_D3D12_OPTIONS o{};
    check_hr(dev.device->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof(o)),
             "CheckFeatureSupport (D3D12_OPTIONS)");
    heap_tier = o.ResourceHeapTier;
    for (ID3D12Fence*& f : fence)
      check_hr(dev.device->CreateFence(0, D3D12_FENCE_FLAG_NONE, iid<ID3D12Fence>(), reinterpret_cast<void**>(&f)),
               "CreateFence");
    const uint32_t threads = opt.threads ? opt.threads : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
    opt.threads = threads;
    if (!opt.jobs) pool = std::make_unique<ThreadPool>(threads);
  }

  void run_jobs(uint32_t count, const std::function<void(uint32_t)>& job) {
    if (opt.jobs)
      opt.jobs(count, job);
    else
      pool->run(count, job);
  }

  bool finished(const PendingFrame& f) const {
    for (size_t q = 0; q < graph::kQueues; ++q)
      if (f.values[q] && fence[q]->GetCompletedValue() < f.values[q]) return false;
    return true;
  }
  void retire_front() {
    PendingFrame& f = pending.front();
    for (ID3D12GraphicsCommandList*& l : f.lists) release(l);
    for (ID3D12CommandAllocator*& a : f.allocators) release(a);
    for (ID3D12Resource*& r : f.placed) release(r);
    if (f.heap) free_heaps.push_back(*f.heap);
    completed_ticket = std::max(completed_ticket, f.ticket);
    pending.pop_front();
  }
  void retire_finished() {
    while (!pending.empty() && finished(pending.front())) retire_front();
  }
  void wait_front() {
    const PendingFrame& f = pending.front();
    for (size_t q = 0; q < graph::kQueues; ++q)
      if (f.values[q]) wait_fence(fence[q], f.values[q]);
    retire_front();
  }
  void frame_error(std::string text) { frame.errors_.push_back(std::move(text)); }
  // Every queue the runtime uses signals its fence once more and the CPU waits for all of them.
  void wait_idle() {
    for (Queue q : {Queue::direct, Queue::compute, Queue::copy}) {
      const size_t i = graph::qi(q);
      if (real_queue(q) != q || !fence[i]) continue;  // (no fence: init failed before making it)
      check_hr(queue_of(q)->Signal(fence[i], ++fence_value[i]), "ID3D12CommandQueue::Signal");
      wait_fence(fence[i], fence_value[i]);
    }
  }

  Heap take_heap(uint64_t size, uint64_t alignment, D3D12_HEAP_FLAGS flags) {
    size_t best = free_heaps.size();
    for (size_t i = 0; i < free_heaps.size(); ++i)
      if (free_heaps[i].size >= size && free_heaps[i].flags == flags &&
          (best == free_heaps.size() || free_heaps[i].size < free_heaps[best].size))
        best = i;
    if (best != free_heaps.size()) {
      Heap h = free_heaps[best];
      free_heaps.erase(free_heaps.begin() + static_cast<std::ptrdiff_t>(best));
      return h;
    }
    D3D12_HEAP_DESC hd{};
    hd.SizeInBytes = size;
    hd.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    hd.Alignment = alignment > D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT ? D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT : 0;
    hd.Flags = flags;
    Heap h;
    h.size = size;
    h.flags = flags;
    check_hr(dev.device->CreateHeap(&hd, iid<ID3D12Heap>(), reinterpret_cast<void**>(&h.heap)),
             fmt::format("CreateHeap ({} bytes for the frame's transients)", size));
    return h;
  }

  FrameInfo submit_frame();
};

namespace {

// A trace name for a legacy state (docs/trace-format.md: the enum's name without its prefix).
nlohmann::json state_json(uint32_t s) { return plain::state_name(s); }
nlohmann::json sub_json(uint32_t sub) {
  return sub == plain::kAllSubresources ? nlohmann::json("all") : nlohmann::json(sub);
}

}  // namespace

FrameInfo Runtime::Impl::submit_frame() {
  Frame f = std::move(frame);
  frame = Frame{};
  if (!f.errors_.empty()) throw Error(f.errors_.front());
  FrameInfo info;
  const auto t0 = Clock::now();
  const size_t nr = f.resources_.size();

  // The frame graph. Async passes whose queue the engine did not give run as direct passes.
  std::vector<graph::Resource> resources;
  resources.reserve(nr);
  for (const Frame::Resource& r : f.resources_) {
    graph::Resource gr;
    gr.desc = describe_resource(r.name, r.desc);
    if (r.rest) gr.desc.resting = r.rest;
    gr.transient = r.transient;
    gr.imported = !r.transient;
    resources.push_back(std::move(gr));
  }
  for (PassDesc& p : f.passes_)
    if (p.async && real_queue(p.queue) == Queue::direct) p.async = false;
  auto g = std::make_shared<graph::Graph>(runtime::build_graph(std::move(resources), f.passes_, f.outputs_));

  // Real sizes and alignments of the transients (no object needed: GetResourceAllocationInfo).
  graph::CompileOptions co;
  co.schedule = opt.schedule;
  co.aliasing.enabled = opt.aliasing;
  co.run_checks = opt.checks;
  std::vector<MemoryRequirement> reqs(nr, MemoryRequirement{0, 1, ~0u});
  uint32_t kinds = 0;
  for (uint32_t r = 0; r < nr; ++r) {
    const Frame::Resource& fr = f.resources_[r];
    if (!fr.transient) continue;
    const D3D12_RESOURCE_ALLOCATION_INFO ai = dev.device->GetResourceAllocationInfo(0, 1, &fr.desc);
    if (ai.SizeInBytes == UINT64_MAX || ai.SizeInBytes == 0)
      throw Error(fmt::format("transient '{}': GetResourceAllocationInfo refused its D3D12_RESOURCE_DESC", fr.name));
    reqs[r] = MemoryRequirement{ai.SizeInBytes, std::max<uint64_t>(ai.Alignment, 1), ~0u};
    kinds |= 1u << static_cast<unsigned>(heap_kind(fr.desc));
  }
  // Resource heap tier 1 allows one kind of resource per heap: buffers, render-target/depth textures
  // and other textures cannot share one, and the aliasing plan is one address space.
  D3D12_HEAP_FLAGS heap_flags = D3D12_HEAP_FLAG_NONE;  // tier 2: ALLOW_ALL_BUFFERS_AND_TEXTURES
  if (heap_tier == D3D12_RESOURCE_HEAP_TIER_1 && kinds != 0) {
    if (kinds & (kinds - 1))
      throw Error("the frame's transients mix buffers, render-target/depth textures and other textures, which "
                  "resource heap tier 1 cannot place in one heap (Baton places a frame's transients in one heap)");
    for (unsigned k = 0; k < 3; ++k)
      if (kinds == 1u << k) heap_flags = kHeapFlagOf[k];
  }
  set_real_sizes(*g, reqs, 1, co.aliasing);

  auto compiled = std::make_shared<graph::GraphCompileResult>(graph::compile_graph(*g, co));
  if (!compiled->findings.empty()) throw Error("frame graph check failed: " + compiled->findings.front());
  const graph::Transitions& t = compiled->trans;
  const graph::Aliasing& al = compiled->aliasing;
  info.culled = static_cast<uint32_t>(compiled->culled.culled.size());

  PendingFrame pf;
  struct Cleanup {
    Impl& impl;
    PendingFrame& pf;
    bool armed = true;
    ~Cleanup() {
      if (!armed) return;
      for (ID3D12GraphicsCommandList*& l : pf.lists) release(l);
      for (ID3D12CommandAllocator*& a : pf.allocators) release(a);
      for (ID3D12Resource*& r : pf.placed) release(r);
      if (pf.heap) impl.free_heaps.push_back(*pf.heap);
    }
  } cleanup{*this, pf};

  // Memory: one heap; each placed transient created at its planned offset. Culled transients are
  // never created (their handle stays null).
  HandleTable handles;
  handles.resources.assign(nr, nullptr);
  for (uint32_t r = 0; r < nr; ++r)
    if (!f.resources_[r].transient) handles.resources[r] = f.resources_[r].resource;
  const MemberPlacement mp = member_placement(*g, *compiled, reqs, co.aliasing);
  nlohmann::json trace_resources = nlohmann::json::array();
  if (al.heap_size > 0 && !al.placements.empty()) {
    pf.heap = take_heap(al.heap_size, co.aliasing.alignment, heap_flags);
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (const graph::Placement& p : al.placements) {
      const Frame::Resource& fr = f.resources_[p.resource];
      const uint64_t at = mp.offset[t.first_member[p.resource]];
      ID3D12Resource* res = nullptr;
      check_hr(dev.device->CreatePlacedResource(pf.heap->heap, at, &fr.desc, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                iid<ID3D12Resource>(), reinterpret_cast<void**>(&res)),
               fmt::format("CreatePlacedResource (transient '{}' at offset {} of a {}-byte heap)", fr.name, at,
                           pf.heap->size));
      pf.placed.push_back(res);
      handles.resources[p.resource] = res;
      ranges.emplace_back(at, reqs[p.resource].size);
    }
    info.memory.heaps = 1;
    info.memory.heap_bytes = pf.heap->size;
    info.memory.aliased_bytes = aliased_bytes(ranges);
    info.memory.unaliased_bytes = al.unaliased;
    info.memory.alignment = co.aliasing.alignment;
  }

  // The legacy lowering from where the frame really starts: imported resources in the engine's
  // state, transients in COMMON (created so).
  plain::LegacyStates initial(t.table.size());
  std::vector<uint32_t> res_of(t.table.size(), graph::kNone);
  for (uint32_t r = 0; r < nr; ++r) {
    res_of[t.first_member[r]] = r;
    if (f.resources_[r].transient) continue;
    const ResourceDesc& d = t.table[t.first_member[r]];
    const uint32_t subs = d.type == ResourceType::buffer ? 1 : d.mips * d.layers * d.planes;
    initial[t.first_member[r]].assign(subs, static_cast<uint32_t>(f.resources_[r].state));
  }
  const plain::PlainPlan plan = plain::legacy_plan(t.table, t.compiled, &initial);
  const size_t ng = plan.groups.size();
  if (ng != t.info.size()) throw Error("internal: the legacy plan and the frame's groups differ in number");
  for (uint32_t r = 0; r < nr; ++r) {
    const ResourceId m = t.first_member[r];
    info.final_states.push_back(m < plan.final_states.size() ? plan.final_states[m] : std::vector<uint32_t>{});
  }

  // Group waits: the schedule's signal/wait pairs and the frame_start / frame_end groups' own.
  const std::vector<std::vector<uint32_t>> waits_of = group_waits(*g, *compiled);
  if (waits_of.size() != ng) throw Error("internal: the frame's waits and groups differ in number");
  info.compile_ms = ms_since(t0);

  // Recording: one command list per list; lists split into contiguous chunks, one per job, each job
  // with its own allocators (an allocator records one list at a time).
  const auto t1 = Clock::now();
  struct ListRef {
    uint32_t group, list;
  };
  std::vector<ListRef> lists;
  for (uint32_t gi = 0; gi < ng; ++gi) {
    if (plan.groups[gi].lists.size() != t.info[gi].passes.size())
      throw Error(fmt::format("internal: group '{}' has {} lists in the plan, {} passes", plan.groups[gi].name,
                              plan.groups[gi].lists.size(), t.info[gi].passes.size()));
    for (uint32_t li = 0; li < t.info[gi].passes.size(); ++li) lists.push_back({gi, li});
  }
  // Per list: the first barrier's frame-wide number (RuntimeOptions::drop_barrier), what its pass
  // declared and the states after its before-barriers (a sequential replay of the plan).
  std::vector<uint32_t> first_barrier(lists.size(), 0);
  std::vector<ListData> list_data(lists.size());
  {
    std::vector<std::vector<uint32_t>> cur(t.table.size());
    for (ResourceId m = 0; m < t.table.size(); ++m) {
      const ResourceDesc& d = t.table[m];
      const uint32_t subs = d.type == ResourceType::buffer ? 1 : d.mips * d.layers * d.planes;
      cur[m] = initial[m].empty() ? std::vector<uint32_t>(subs, 0u) : initial[m];
    }
    auto apply = [&](const plain::PlainPoint& pt) {
      for (const plain::PlainBarrier& b : pt.barriers) {
        if (b.kind != plain::BarrierKind::transition || b.resource >= cur.size()) continue;
        if (b.subresource == plain::kAllSubresources)
          std::fill(cur[b.resource].begin(), cur[b.resource].end(), b.after);
        else if (b.subresource < cur[b.resource].size())
          cur[b.resource][b.subresource] = b.after;
      }
    };
    uint32_t counter = 0;
    for (size_t i = 0; i < lists.size(); ++i) {
      const plain::PlainList& pl = plan.groups[lists[i].group].lists[lists[i].list];
      first_barrier[i] = counter;
      for (const plain::PlainPoint& pt : pl.points) {
        if (pt.op != 0)
          throw Error(fmt::format("internal: list '{}' has a barrier point at op {} (one op per pass)", pl.name, pt.op));
        counter += static_cast<uint32_t>(pt.barriers.size());
        if (pt.where == Where::before) apply(pt);
      }
      const uint32_t pass = t.info[lists[i].group].passes[lists[i].list];
      ListData& ld = list_data[i];
      if (pass != graph::kNone) {
        for (const Use& u : f.passes_[pass].uses) ld.declared.push_back(u.res.index);
        std::sort(ld.declared.begin(), ld.declared.end());
        ld.declared.erase(std::unique(ld.declared.begin(), ld.declared.end()), ld.declared.end());
        for (uint32_t r : ld.declared) {
          const std::vector<uint32_t>& c = cur[t.first_member[r]];
          for (uint32_t sub = 0; sub < c.size(); ++sub) ld.states.emplace_back(uint64_t{r} << 32 | sub, c[sub]);
        }
      }
      for (const plain::PlainPoint& pt : pl.points)
        if (pt.where == Where::after) apply(pt);
    }
  }

  const uint32_t jobs = static_cast<uint32_t>(std::min<size_t>(std::max(1u, opt.threads), std::max<size_t>(lists.size(), 1)));
  std::vector<ID3D12GraphicsCommandList*> cls(lists.size(), nullptr);
  std::vector<std::array<ID3D12CommandAllocator*, graph::kQueues>> allocators(jobs, {nullptr, nullptr, nullptr});
  std::vector<std::string> job_error(jobs);
  std::vector<std::array<uint32_t, 4>> job_counts(jobs, {0, 0, 0, 0});  // barriers, calls, aliasing, discards
  std::vector<nlohmann::json> list_commands(opt.record_trace ? lists.size() : 0);
  auto list_name = [&](size_t i) {
    return fmt::format("{}/{}", plan.groups[lists[i].group].name, plan.groups[lists[i].group].lists[lists[i].list].name);
  };
  auto resource_name = [&](ResourceId m) -> nlohmann::json {
    return m == kGlobalResource ? nlohmann::json(nullptr) : nlohmann::json(t.table[m].name);
  };
  const std::function<void(uint32_t)> record_job = [&](uint32_t j) {
    const size_t begin = lists.size() * j / jobs, end = lists.size() * (j + 1) / jobs;
    size_t i = begin;
    try {
      for (; i < end; ++i) {
        const ListRef& lr = lists[i];
        const Queue q = real_queue(t.info[lr.group].queue);
        ID3D12CommandAllocator*& alloc = allocators[j][graph::qi(q)];
        if (!alloc)
          check_hr(dev.device->CreateCommandAllocator(list_type(q), iid<ID3D12CommandAllocator>(),
                                                      reinterpret_cast<void**>(&alloc)),
                   "CreateCommandAllocator");
        ID3D12GraphicsCommandList* cl = nullptr;
        check_hr(dev.device->CreateCommandList(0, list_type(q), alloc, nullptr, iid<ID3D12GraphicsCommandList>(),
                                               reinterpret_cast<void**>(&cl)),
                 fmt::format("CreateCommandList (list '{}')", list_name(i)));
        cls[i] = cl;
        const plain::PlainList& pl = plan.groups[lr.group].lists[lr.list];
        const uint32_t pass = t.info[lr.group].passes[lr.list];
        nlohmann::json* commands = opt.record_trace ? &list_commands[i] : nullptr;
        if (commands) *commands = nlohmann::json::array();
        uint32_t number = first_barrier[i];
        auto points_at = [&](Where w) {
          for (const plain::PlainPoint& pt : pl.points) {
            if (pt.where != w) continue;
            std::vector<D3D12_RESOURCE_BARRIER> batch;
            nlohmann::json recorded = nlohmann::json::array();
            for (const plain::PlainBarrier& b : pt.barriers) {
              if (opt.drop_barrier && *opt.drop_barrier == number++) continue;
              D3D12_RESOURCE_BARRIER rb{};
              ID3D12Resource* r = b.resource == kGlobalResource ? nullptr : handles.resources.at(res_of.at(b.resource));
              switch (b.kind) {
                case plain::BarrierKind::transition:
                  rb.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
                  rb.Transition.pResource = r;
                  rb.Transition.Subresource = b.subresource;
                  rb.Transition.StateBefore = static_cast<D3D12_RESOURCE_STATES>(b.before);
                  rb.Transition.StateAfter = static_cast<D3D12_RESOURCE_STATES>(b.after);
                  if (commands)
                    recorded.push_back({{"type", "transition"}, {"resource", resource_name(b.resource)},
                                        {"subresource", sub_json(b.subresource)}, {"before", state_json(b.before)},
                                        {"after", state_json(b.after)}});
                  break;
                case plain::BarrierKind::uav:
                  rb.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
                  rb.UAV.pResource = r;
                  if (commands) recorded.push_back({{"type", "uav"}, {"resource", resource_name(b.resource)}});
                  break;
                case plain::BarrierKind::aliasing:
                  rb.Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
                  rb.Aliasing.pResourceBefore =
                      b.previous == kGlobalResource ? nullptr : handles.resources.at(res_of.at(b.previous));
                  rb.Aliasing.pResourceAfter = r;
                  ++job_counts[j][2];
                  if (commands)
                    recorded.push_back({{"type", "aliasing"}, {"before", resource_name(b.previous)},
                                        {"after", resource_name(b.resource)}});
                  break;
              }
              batch.push_back(rb);
            }
            if (!batch.empty()) {
              cl->ResourceBarrier(static_cast<UINT>(batch.size()), batch.data());
              job_counts[j][0] += static_cast<uint32_t>(batch.size());
              ++job_counts[j][1];
              if (commands) commands->push_back({{"barrier", std::move(recorded)}});
            }
            for (ResourceId m : pt.discards) {
              cl->DiscardResource(handles.resources.at(res_of.at(m)), nullptr);
              ++job_counts[j][3];
              if (commands) commands->push_back({{"discard", {{"resource", t.table[m].name}, {"subresource", "all"}}}});
            }
          }
        };
        points_at(Where::before);
        if (pass != graph::kNone) {
          const PassDesc& pd = f.passes_[pass];
          if (commands)
            for (const Use& u : pd.uses) {
              const ResourceDesc& d = t.table[t.first_member[u.res.index]];
              const uint32_t st = plain::legacy_state_of_use(d, u.access, u.stages);
              const Box b = resolve(d, u.range);
              if (d.type == ResourceType::buffer || b == full_box(d)) {
                commands->push_back({{"use", {{"resource", d.name}, {"subresource", "all"}, {"as", state_json(st)}}}});
                continue;
              }
              for (uint32_t p = b.p0; p < b.p1; ++p)
                for (uint32_t l = b.l0; l < b.l1; ++l)
                  for (uint32_t mip = b.m0; mip < b.m1; ++mip)
                    commands->push_back({{"use",
                                          {{"resource", d.name},
                                           {"subresource", mip + l * d.mips + p * d.mips * d.layers},
                                           {"as", state_json(st)}}}});
            }
          if (pd.execute) {
            PassContext ctx;
            ctx.cmd = cl;
            ctx.pass = pd.name;
            ctx.frame = &handles;
            ctx.list = &list_data[i];
            pd.execute(ctx);
          }
        }
        points_at(Where::after);
        check_hr(cl->Close(), fmt::format("ID3D12GraphicsCommandList::Close (list '{}')", list_name(i)));
      }
    } catch (const std::exception& e) {
      job_error[j] = i < end ? fmt::format("recording list '{}': {}", list_name(i), e.what()) : e.what();
    }
  };
  run_jobs(jobs, record_job);
  for (auto& per_queue : allocators)
    for (ID3D12CommandAllocator* a : per_queue)
      if (a) pf.allocators.push_back(a);
  for (ID3D12GraphicsCommandList* cl : cls)
    if (cl) pf.lists.push_back(cl);
  for (const std::string& e : job_error)
    if (!e.empty()) throw Error(e);
  for (const auto& c : job_counts) {
    info.barriers += c[0];
    info.barrier_calls += c[1];
    info.aliasing_barriers += c[2];
    info.discards += c[3];
  }
  info.command_lists = static_cast<uint32_t>(cls.size());
  info.record_ms = ms_since(t1);

  // Submission: one ExecuteCommandLists per group. Each group signals its queue's fence; a group
  // waits (ID3D12CommandQueue::Wait) for every group of another queue it depends on.
  const auto t2 = Clock::now();
  std::vector<uint64_t> value_of(ng, 0);
  std::array<uint64_t, graph::kQueues> value = fence_value;
  for (uint32_t gi = 0; gi < ng; ++gi) value_of[gi] = ++value[graph::qi(real_queue(t.info[gi].queue))];
  nlohmann::json submissions = nlohmann::json::array();
  std::vector<uint8_t> waited_for(ng, 0);
  uint32_t wait_number = 0;
  size_t next_list = 0;
  for (uint32_t gi = 0; gi < ng; ++gi) {
    const Queue q = real_queue(t.info[gi].queue);
    ID3D12CommandQueue* queue = queue_of(q);
    nlohmann::json waits = nlohmann::json::array();
    for (uint32_t from : waits_of[gi]) {
      const Queue fq = real_queue(t.info[from].queue);
      if (fq == q) continue;  // one queue orders its own submissions
      if (from >= gi)
        throw Error(fmt::format("group {} waits for later group {}", plan.groups[gi].name, plan.groups[from].name));
      if (opt.drop_wait && *opt.drop_wait == wait_number++) continue;
      check_hr(queue->Wait(fence[graph::qi(fq)], value_of[from]),
               fmt::format("ID3D12CommandQueue::Wait (group {} for group {})", plan.groups[gi].name, plan.groups[from].name));
      waited_for[from] = 1;
      waits.push_back(fmt::format("fence {}", plan.groups[from].name));
      ++info.fence_waits;
    }
    std::vector<ID3D12CommandList*> batch;
    nlohmann::json names = nlohmann::json::array();
    for (size_t li = 0; li < t.info[gi].passes.size(); ++li, ++next_list) {
      batch.push_back(cls[next_list]);
      if (opt.record_trace) names.push_back(list_name(next_list));
    }
    queue->ExecuteCommandLists(static_cast<UINT>(batch.size()), batch.data());
    check_hr(queue->Signal(fence[graph::qi(q)], value_of[gi]),
             fmt::format("ID3D12CommandQueue::Signal (group {})", plan.groups[gi].name));
    if (opt.record_trace)
      submissions.push_back({{"queue", queue_name(q)}, {"type", queue_name(q)}, {"lists", std::move(names)},
                             {"wait", std::move(waits)}});
  }
  if (opt.record_trace)
    for (uint32_t gi = 0; gi < ng; ++gi)
      submissions[gi]["signal"] = waited_for[gi] ? nlohmann::json::array({fmt::format("fence {}", plan.groups[gi].name)})
                                                 : nlohmann::json::array();
  info.groups = static_cast<uint32_t>(ng);
  for (size_t q = 0; q < graph::kQueues; ++q)
    if (value[q] != fence_value[q]) pf.values[q] = value[q];
  fence_value = value;
  info.submit_ms = ms_since(t2);

  if (opt.record_trace) {
    nlohmann::json tr;
    tr["api"] = "d3d12";
    tr["heaps"] = nlohmann::json::array();
    if (pf.heap) tr["heaps"].push_back({{"name", "transients"}, {"bytes", pf.heap->size}});
    tr["resources"] = nlohmann::json::array();
    for (ResourceId m = 0; m < t.table.size(); ++m) {
      const ResourceDesc& d = t.table[m];
      const uint32_t r = res_of[m];
      const Frame::Resource& fr = f.resources_[r];
      nlohmann::json jr{{"name", d.name}, {"type", d.type == ResourceType::buffer ? "buffer" : "texture"}};
      if (d.type != ResourceType::buffer) {
        jr["mips"] = d.mips;
        jr["layers"] = d.layers;
        jr["planes"] = d.planes;
      }
      nlohmann::json flags = nlohmann::json::array();
      if (fr.desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET) flags.push_back("render_target");
      if (fr.desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL) flags.push_back("depth_stencil");
      if (fr.desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS) flags.push_back("unordered_access");
      if (fr.desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS) flags.push_back("simultaneous_access");
      const bool placed = fr.transient && handles.resources[r] != nullptr;
      if (placed) flags.push_back("placed");
      jr["flags"] = std::move(flags);
      if (!fr.transient && d.type != ResourceType::buffer) jr["initial"] = state_json(static_cast<uint32_t>(fr.state));
      if (placed) jr["placement"] = {{"heap", "transients"}, {"offset", mp.offset[m]}, {"bytes", reqs[r].size}};
      tr["resources"].push_back(std::move(jr));
    }
    tr["lists"] = nlohmann::json::array();
    for (size_t i = 0; i < lists.size(); ++i)
      tr["lists"].push_back({{"name", list_name(i)},
                             {"type", queue_name(real_queue(t.info[lists[i].group].queue))},
                             {"commands", std::move(list_commands[i])}});
    tr["submissions"] = std::move(submissions);
    info.trace = tr.dump(1);
  }

  pf.ticket = info.ticket = ++next_ticket;
  cleanup.armed = false;
  pending.push_back(std::move(pf));
  info.graph = std::move(g);
  info.compiled = std::move(compiled);
  return info;
}

// ---------------------------------------------------------------------------------------------
Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

Result<std::unique_ptr<Runtime>> Runtime::create(const DeviceDesc& device, RuntimeOptions options) {
  using R = Result<std::unique_ptr<Runtime>>;
  if (!device.device || !device.direct)
    return R::failure("D3D12 runtime: DeviceDesc needs an ID3D12Device and a direct command queue");
  if (options.frames_in_flight == 0) return R::failure("D3D12 runtime: frames_in_flight must be at least 1");
  auto impl = std::make_unique<Impl>();
  impl->dev = device;
  impl->opt = std::move(options);
  try {
    impl->init();
  } catch (const std::exception& e) {
    return R::failure(std::string("D3D12 runtime: ") + e.what());
  }
  return R(std::unique_ptr<Runtime>(new Runtime(std::move(impl))));
}

Frame& Runtime::begin_frame() { return lifecycle::begin_frame(*impl_); }
Result<FrameInfo> Runtime::submit() { return lifecycle::submit(*impl_); }
uint64_t Runtime::completed() { return lifecycle::completed(*impl_); }
Status Runtime::wait(uint64_t ticket) { return lifecycle::wait(*impl_, ticket); }
Status Runtime::sync() { return lifecycle::sync(*impl_); }

size_t Runtime::frames_pending() const { return impl_->pending.size(); }

}  // namespace baton::runtime::d3d12
