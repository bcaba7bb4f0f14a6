// Executing groups: one ID3D12GraphicsCommandList per Baton list, Baton's legacy barriers at the
// reserved points (one ResourceBarrier call each, DiscardResource right after), one
// ExecuteCommandLists per group; then the readback and the comparison with the CPU model.
#include <chrono>
#include <cstring>

#include "vkd3d_session.hpp"

namespace baton::d3d12 {
namespace {

constexpr uint64_t kPitch = 256;
constexpr uint64_t kPlacement = 512;
uint64_t align(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

D3D12_RESOURCE_BARRIER transition(ID3D12Resource* r, uint32_t sub, uint32_t before, uint32_t after) {
  D3D12_RESOURCE_BARRIER b{};
  b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  b.Transition.pResource = r;
  b.Transition.Subresource = sub;
  b.Transition.StateBefore = static_cast<D3D12_RESOURCE_STATES>(before);
  b.Transition.StateAfter = static_cast<D3D12_RESOURCE_STATES>(after);
  return b;
}

}  // namespace

Session::Session(Device& device, const Recording& rec) {
  check_runnable(rec);
  impl_ = std::make_unique<Impl>(device.impl(), rec);
}

Session::~Session() = default;

void Session::enter(const LegacyStates& initial) {
  Impl& s = *impl_;
  std::vector<D3D12_RESOURCE_BARRIER> batch;
  for (ResourceId r = 0; r < s.shapes.size() && r < initial.size(); ++r)
    for (uint32_t sub = 0; sub < initial[r].size(); ++sub) {
      const uint32_t st = initial[r][sub];
      if (st == state::common) continue;
      batch.push_back(transition(s.resources[r].get(), s.shapes[r].buffer ? 0 : sub, state::common, st));
      if (!s.shapes[r].buffer) s.tracked[r][sub].state = st;
      if (s.shapes[r].buffer) break;  // a buffer is one subresource
    }
  if (batch.empty()) return;
  Recorder rec(s.dev.device.get(), Queue::direct);
  ID3D12GraphicsCommandList* cl = rec.list.get();
  cl->ResourceBarrier(static_cast<UINT>(batch.size()), batch.data());
  check_hr(cl->Close(), "Close (initial states)");
  ID3D12CommandList* lists[] = {cl};
  s.dev.direct->ExecuteCommandLists(1, lists);
  s.dev.wait_idle(s.dev.direct.get());
}

void Session::execute(size_t index, const PlainGroup& group, const ExecOptions& options) {
  Impl& s = *impl_;
  const CommandListGroup& rg = *s.rec.groups.at(index);
  if (group.lists.size() != rg.lists().size())
    throw Error(fmt::format("group '{}': the plan has {} lists, the recording {} (D3D12 executor)", rg.name(),
                            group.lists.size(), rg.lists().size()));
  ID3D12Device* device = s.dev.device.get();
  s.emulate = options.emulate_texture_promotion;

  // Uploads first: the upload buffer is filled before any list is recorded.
  Upload up;
  std::vector<std::vector<uint64_t>> offsets(group.lists.size());
  for (size_t l = 0; l < group.lists.size(); ++l) {
    const size_t first = s.first_item[index][l];
    for (size_t o = 0; o < rg.lists()[l]->ops().size(); ++o)
      for (const Item& item : s.items[first + o].items) s.reserve_uploads(item, up, offsets[l]);
  }
  up.create(device);

  std::vector<Recorder> recorders;
  recorders.reserve(group.lists.size());
  for (size_t l = 0; l < group.lists.size(); ++l) {
    const PlainList& pl = group.lists[l];
    const CommandList& rl = *rg.lists()[l];
    ID3D12GraphicsCommandList* cl = recorders.emplace_back(device, rl.queue()).list.get();
    size_t next_upload = 0, point = 0;
    auto emit_points = [&](uint32_t op, Where where) {
      for (; point < pl.points.size() && pl.points[point].op == op && pl.points[point].where == where; ++point) {
        const PlainPoint& p = pl.points[point];
        std::vector<D3D12_RESOURCE_BARRIER> batch;
        for (const PlainBarrier& b : p.barriers) {
          const size_t k = s.barrier_counter++;
          if (options.skip_barrier && *options.skip_barrier == k) continue;
          ID3D12Resource* r = b.resource == kGlobalResource ? nullptr : s.resources.at(b.resource).get();
          D3D12_RESOURCE_BARRIER rb{};
          switch (b.kind) {
            case BarrierKind::transition: rb = transition(r, b.subresource, b.before, b.after); break;
            case BarrierKind::uav:
              rb.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
              rb.UAV.pResource = r;
              break;
            case BarrierKind::aliasing:
              rb.Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
              rb.Aliasing.pResourceBefore =
                  b.previous == kGlobalResource ? nullptr : s.resources.at(b.previous).get();
              rb.Aliasing.pResourceAfter = r;
              break;
          }
          batch.push_back(rb);
          s.track(b);
        }
        if (!batch.empty()) {
          cl->ResourceBarrier(static_cast<UINT>(batch.size()), batch.data());
          ++s.stats.barrier_calls;
          s.stats.barriers += static_cast<uint32_t>(batch.size());
        }
        for (ResourceId r : p.discards) {
          cl->DiscardResource(s.resources.at(r).get(), nullptr);
          s.model.discard(r);
          ++s.stats.discards;
        }
      }
    };
    const size_t first = s.first_item[index][l];
    for (uint32_t o = 0; o < rl.ops().size(); ++o) {
      if (point < pl.points.size() && pl.points[point].op < o)
        throw Error(fmt::format("group '{}' list '{}': plan points out of order at op {}", rg.name(), rl.name(), o));
      emit_points(o, Where::before);
      for (const Item& item : s.items[first + o].items) {
        std::vector<D3D12_RESOURCE_BARRIER> promotions;
        for (const auto& [sub, needed] : needed_states(item, s.shapes)) s.promote(sub, needed, promotions);
        if (!promotions.empty()) cl->ResourceBarrier(static_cast<UINT>(promotions.size()), promotions.data());
        const bool uses_upload = std::holds_alternative<CopyItem>(item) ? !std::get<CopyItem>(item).src
                                                                         : std::get<ClearItem>(item).how ==
                                                                               ClearItem::How::upload;
        s.record_item(cl, item, up, uses_upload ? offsets[l].at(next_upload++) : 0);
        s.model.apply(item);
      }
      emit_points(o, Where::after);
      ++s.stats.ops;
    }
    if (point != pl.points.size())
      throw Error(fmt::format("group '{}' list '{}': the plan has a barrier point past the last op", rg.name(), rl.name()));
    if (l + 1 == group.lists.size()) {
      // No decay between the lists of one ECL: only after the last one.
      std::vector<D3D12_RESOURCE_BARRIER> decays;
      s.decay(rg.queue(), decays);
      if (!decays.empty()) cl->ResourceBarrier(static_cast<UINT>(decays.size()), decays.data());
    }
    check_hr(cl->Close(), fmt::format("Close (group '{}' list '{}')", rg.name(), rl.name()).c_str());
  }
  std::vector<ID3D12CommandList*> lists;
  for (Recorder& r : recorders) lists.push_back(r.list.get());
  ID3D12CommandQueue* q = s.dev.queue(rg.queue());
  q->ExecuteCommandLists(static_cast<UINT>(lists.size()), lists.data());
  s.dev.wait_idle(q);
  ++s.stats.groups;
  s.stats.lists += static_cast<uint32_t>(lists.size());
}

void Session::finish(const LegacyStates& real_states, D3D12RunResult& out) {
  Impl& s = *impl_;
  ID3D12Device* device = s.dev.device.get();
  // Readback layout: every subresource (stencil planes excepted) at a 512-aligned offset.
  struct Slot {
    ResourceId res;
    uint32_t sub;
    uint64_t offset, pitch_words;
  };
  std::vector<Slot> slots;
  uint64_t size = 0;
  for (ResourceId r = 0; r < s.shapes.size(); ++r) {
    const Shape& sh = s.shapes[r];
    for (uint32_t sub = 0; sub < sh.subresources(); ++sub) {
      if (sh.depth() && sh.plane(sub) != 0) continue;
      const uint64_t pitch = sh.buffer ? kBufferRow * 4 : align(uint64_t{sh.w(sub)} * 4, kPitch);
      size = align(size, kPlacement);
      slots.push_back(Slot{r, sub, size, pitch / 4});
      size += pitch * sh.h(sub);
    }
  }
  // Readback heaps live in COPY_DEST forever (REFERENCE.md).
  Com<ID3D12Resource> readback = committed_buffer(device, D3D12_HEAP_TYPE_READBACK, std::max<uint64_t>(size, 256),
                                                  D3D12_RESOURCE_STATE_COPY_DEST, "readback");
  Recorder rec(device, Queue::direct);
  ID3D12GraphicsCommandList* cl = rec.list.get();
  // Out of the real states into COPY_SOURCE. COMMON needs no barrier: copy reads promote every
  // resource out of COMMON implicitly, which this readback relies on (and so checks).
  std::vector<D3D12_RESOURCE_BARRIER> batch;
  auto to_source = [&](ResourceId r, uint32_t sub) {
    const uint32_t st = state_at(real_states, r, sub);
    if (st == state::copy_source) return;
    if (st == state::common) {
      if (!s.shapes[r].buffer) s.promote(SubRef{r, sub}, state::copy_source, batch);  // emulated, when on
      return;
    }
    batch.push_back(transition(s.resources[r].get(), sub, st, state::copy_source));
  };
  for (const Slot& sl : slots) {
    to_source(sl.res, sl.sub);
    if (s.shapes[sl.res].planes == 2) to_source(sl.res, sl.sub + s.shapes[sl.res].mips * s.shapes[sl.res].layers);
  }
  if (!batch.empty()) cl->ResourceBarrier(static_cast<UINT>(batch.size()), batch.data());
  for (const Slot& sl : slots) {
    const Shape& sh = s.shapes[sl.res];
    ID3D12Resource* src = s.resources[sl.res].get();
    if (sh.buffer) {
      cl->CopyBufferRegion(readback.get(), sl.offset, src, 0, uint64_t{kBufferWords} * 4);
      continue;
    }
    D3D12_TEXTURE_COPY_LOCATION to{};
    to.pResource = readback.get();
    to.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    to.PlacedFootprint.Offset = sl.offset;
    to.PlacedFootprint.Footprint.Format = sh.planes == 2 ? DXGI_FORMAT_R32_TYPELESS : s.format(sl.res);
    to.PlacedFootprint.Footprint.Width = sh.w(sl.sub);
    to.PlacedFootprint.Footprint.Height = sh.h(sl.sub);
    to.PlacedFootprint.Footprint.Depth = 1;
    to.PlacedFootprint.Footprint.RowPitch = static_cast<UINT>(sl.pitch_words * 4);
    D3D12_TEXTURE_COPY_LOCATION from{};
    from.pResource = src;
    from.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    from.SubresourceIndex = sl.sub;
    cl->CopyTextureRegion(&to, 0, 0, 0, &from, nullptr);
  }
  check_hr(cl->Close(), "Close (readback)");
  ID3D12CommandList* lists[] = {cl};
  s.dev.direct->ExecuteCommandLists(1, lists);
  s.dev.wait_idle(s.dev.direct.get());

  const uint32_t* words = nullptr;
  D3D12_RANGE all{0, static_cast<SIZE_T>(size)};
  check_hr(readback->Map(0, &all, reinterpret_cast<void**>(const_cast<uint32_t**>(&words))), "Map (readback)");
  for (const Slot& sl : slots) {
    const Shape& sh = s.shapes[sl.res];
    const std::vector<int64_t>& want = s.model.at(sl.res, sl.sub);
    Mismatch m;
    m.resource = sl.res;
    m.resource_name = s.rec.resources[sl.res].name;
    m.subresource = sl.sub;
    const uint32_t w = sh.w(sl.sub);
    for (uint32_t t = 0; t < want.size(); ++t) {
      if (want[t] < 0) continue;
      ++m.checked;
      const uint32_t got = words[sl.offset / 4 + (t / w) * sl.pitch_words + t % w];
      if (got != static_cast<uint32_t>(want[t]) && m.wrong++ == 0) {
        m.first_texel = t;
        m.expected = static_cast<uint32_t>(want[t]);
        m.got = got;
      }
    }
    if (m.checked == 0) ++out.subresources_undefined;
    else ++out.subresources_checked;
    if (m.wrong) out.mismatches.push_back(m);
  }
  D3D12_RANGE none{0, 0};
  readback->Unmap(0, &none);
  out.groups += s.stats.groups;
  out.lists += s.stats.lists;
  out.ops += s.stats.ops;
  out.barriers += s.stats.barriers;
  out.barrier_calls += s.stats.barrier_calls;
  out.discards += s.stats.discards;
  out.emulated_promotions += s.stats.emulated_promotions;
  out.emulated_decays += s.stats.emulated_decays;
}

std::string to_string(const Mismatch& m) {
  return fmt::format("resource '{}' subresource {}: {} of {} texels wrong, first at texel {}: expected {:#x}, got {:#x}",
                     m.resource_name, m.subresource, m.wrong, m.checked, m.first_texel, m.expected, m.got);
}

D3D12RunResult run(Device& device, const Recording& rec, const PlainPlan& plan, const ExecOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  device.take_messages();  // earlier messages are not this run's
  D3D12RunResult out;
  {
    Session session(device, rec);
    if (plan.groups.size() != rec.groups.size())
      throw Error(fmt::format("the plan has {} groups, the recording {} (D3D12 executor)", plan.groups.size(),
                              rec.groups.size()));
    if (!plan.initial_states.empty()) session.enter(plan.initial_states);
    for (size_t g = 0; g < plan.groups.size(); ++g) session.execute(g, plan.groups[g], options);
    session.finish(plan.final_states, out);
  }
  out.omitted_by_promotion = static_cast<uint32_t>(plan.omitted.size());
  out.validation = device.take_messages();
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

void ExternalRenderer::render(Session& session, ResourceId texture, uint32_t value) {
  Session::Impl& s = session.impl();
  if (texture >= s.shapes.size() || s.shapes[texture].buffer || s.shapes[texture].depth() || !s.needs[texture].rtv)
    throw Error(fmt::format("external renderer: resource {} is not a colour texture created for render_target use",
                            texture));
  ID3D12Device* device = s.dev.device.get();
  ID3D12Resource* r = s.resources[texture].get();
  issued_.clear();
  Recorder rec(device, Queue::direct);
  ID3D12GraphicsCommandList* cl = rec.list.get();
  // Its own bookkeeping: one whole-resource state, as such renderers keep.
  auto to = [&](uint32_t after) {
    if (tracked_ == after) return;
    const D3D12_RESOURCE_BARRIER b = transition(r, kAllSubresources, tracked_, after);
    cl->ResourceBarrier(1, &b);
    issued_.push_back(PlainBarrier{BarrierKind::transition, texture, kAllSubresources, tracked_, after});
    s.track(issued_.back());  // the executor's view follows whatever really happened
    tracked_ = after;
  };
  to(state::render_target);
  const Shape& sh = s.shapes[texture];
  for (uint32_t sub = 0; sub < sh.subresources(); ++sub) {
    s.clear_rtv(cl, SubRef{texture, sub}, value);
    s.model.fill(texture, sub, clear_bits(sh, sub, value));
  }
  to(state::common);  // it hands the texture back in COMMON
  check_hr(cl->Close(), "Close (external renderer)");
  ID3D12CommandList* lists[] = {cl};
  s.dev.direct->ExecuteCommandLists(1, lists);
  s.dev.wait_idle(s.dev.direct.get());
}

}  // namespace baton::d3d12
