// Completion watermark on an own ID3D12Fence, and its load test.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "vkd3d_session.hpp"

namespace baton::d3d12 {

struct FenceWatermark::Impl {
  Device::Impl& dev;
  Com<ID3D12Fence> fence;
};

FenceWatermark::FenceWatermark(Device& device) : impl_(new Impl{device.impl(), {}}) {
  check_hr(device.impl().device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_ID3D12Fence, impl_->fence.out()),
           "CreateFence (watermark)");
}

FenceWatermark::~FenceWatermark() {
  // The fence must outlive the GPU work that signals it.
  if (last_signalled_ && impl_->fence->GetCompletedValue() < last_signalled_) wait(last_signalled_);
}

void FenceWatermark::signal(uint64_t frame_no) {
  if (frame_no <= last_signalled_)
    throw Error(fmt::format("watermark: frame {} signalled after frame {} (frame numbers must increase)", frame_no,
                            last_signalled_));
  check_hr(impl_->dev.direct->Signal(impl_->fence.get(), frame_no), "ID3D12CommandQueue::Signal (watermark)");
  last_signalled_ = frame_no;
  pending_.push_back(frame_no);
}

// GetCompletedValue reads the fence's value; no lock of ours around it.
uint64_t FenceWatermark::completed() const { return impl_->fence->GetCompletedValue(); }

std::vector<uint64_t> FenceWatermark::poll() {
  const uint64_t done = completed();  // one reading decides the whole poll
  std::vector<uint64_t> out;
  while (!pending_.empty() && pending_.front() <= done) {
    out.push_back(pending_.front());
    pending_.pop_front();
  }
  return out;
}

void FenceWatermark::wait(uint64_t frame_no) { wait_fence(impl_->fence.get(), frame_no); }

namespace {

Com<ID3D12Resource> small_buffer(ID3D12Device* device, D3D12_HEAP_TYPE heap, D3D12_RESOURCE_STATES initial) {
  return committed_buffer(device, heap, 256, initial, "watermark");
}

// One frame slot: its allocator and list (reset only when recycled), its buffers (the upload is
// rewritten and the readback read only when recycled).
struct Slot {
  Recorder rec;
  Com<ID3D12Resource> upload, middle, readback;
  uint64_t frame = 0;  // 0: free
  Slot(ID3D12Device* device)
      : rec(device, Queue::direct),
        upload(small_buffer(device, D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_GENERIC_READ)),
        middle(small_buffer(device, D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON)),
        readback(small_buffer(device, D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COPY_DEST)) {
    check_hr(rec.list->Close(), "Close (watermark slot)");  // lists are created recording
  }
};

uint32_t payload(uint64_t frame, uint32_t j) { return static_cast<uint32_t>(frame * 2654435761u) ^ j; }

}  // namespace

WatermarkLoadResult watermark_load_test(Device& device, uint32_t frames, uint32_t ring) {
  const auto t0 = std::chrono::steady_clock::now();
  Device::Impl& d = device.impl();
  ID3D12Device* dev = d.device.get();
  device.take_messages();
  WatermarkLoadResult out;
  {
    std::vector<std::unique_ptr<Slot>> slots;
    for (uint32_t i = 0; i < std::max(1u, ring); ++i) slots.push_back(std::make_unique<Slot>(dev));
    FenceWatermark wm(device);
    auto poll = [&] {
      const uint64_t before = wm.completed();
      const std::vector<uint64_t> done = wm.poll();
      const uint64_t after = wm.completed();
      ++out.polls;
      for (uint64_t f : done) {
        auto it = std::find_if(slots.begin(), slots.end(), [&](const auto& s) { return s->frame == f; });
        Slot& s = **it;
        // Never early: the fence says done and the frame's copy has landed.
        const uint32_t* p = nullptr;
        D3D12_RANGE all{0, 256};
        auto read_slot = [&] {
          check_hr(s.readback->Map(0, &all, reinterpret_cast<void**>(const_cast<uint32_t**>(&p))),
                   "Map (watermark)");
          bool ok = true;
          for (uint32_t j = 0; j < 64 && ok; ++j) ok = p[j] == payload(f, j);
          const uint32_t first = p[0];
          D3D12_RANGE none{0, 0};
          s.readback->Unmap(0, &none);
          return std::pair<bool, uint32_t>(ok, first);
        };
        auto [landed, held_word] = read_slot();
        landed = landed && f <= after;
        if (!landed) {
          // Classify: does the payload appear later with nothing more from us (up to 2 s)?
          bool late = false;
          const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
          while (!late && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            late = read_slot().first;
          }
          if (late)
            ++out.late_landings;
          else
            ++out.early;
          if (out.first_anomaly.empty()) {
            std::string held_what = "an unknown word";
            for (uint64_t g = f; g > 0 && f - g <= 4ull * slots.size(); --g)
              if (held_word == payload(g, 0)) held_what = fmt::format("frame {}'s payload", g);
            if (held_word == 0) held_what = "zeros";
            out.first_anomaly = fmt::format(
                "frame {} handed back with completed() {} before / {} after the poll; its readback held {}; "
                "the payload {}",
                f, before, after, held_what, late ? "landed later without further work" : "never landed");
          }
        }
        s.frame = 0;
      }
      // Never held past one poll after completion: everything the fence had reached before the poll
      // must have been handed back by it.
      for (const auto& s : slots)
        if (s->frame != 0 && s->frame <= before) ++out.held;
    };
    for (uint64_t f = 1; f <= frames; ++f) {
      auto free_slot = [&] {
        return std::find_if(slots.begin(), slots.end(), [](const auto& s) { return s->frame == 0; });
      };
      while (free_slot() == slots.end()) {
        poll();
        if (free_slot() == slots.end()) std::this_thread::yield();
      }
      Slot& s = **free_slot();
      uint32_t* p = nullptr;
      D3D12_RANGE none{0, 0};
      check_hr(s.upload->Map(0, &none, reinterpret_cast<void**>(&p)), "Map (watermark upload)");
      for (uint32_t j = 0; j < 64; ++j) p[j] = payload(f, j);
      s.upload->Unmap(0, nullptr);
      // Recycling: the allocator is reset only now that the watermark handed its frame back.
      check_hr(s.rec.allocator->Reset(), "ID3D12CommandAllocator::Reset");
      check_hr(s.rec.list->Reset(s.rec.allocator.get(), nullptr), "ID3D12GraphicsCommandList::Reset");
      ID3D12GraphicsCommandList* cl = s.rec.list.get();
      cl->CopyBufferRegion(s.middle.get(), 0, s.upload.get(), 0, 256);  // promotion to COPY_DEST
      D3D12_RESOURCE_BARRIER b{};
      b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
      b.Transition.pResource = s.middle.get();
      b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
      b.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
      b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
      cl->ResourceBarrier(1, &b);
      cl->CopyBufferRegion(s.readback.get(), 0, s.middle.get(), 0, 256);
      check_hr(cl->Close(), "Close (watermark frame)");
      ID3D12CommandList* lists[] = {cl};
      d.direct->ExecuteCommandLists(1, lists);
      wm.signal(f);
      s.frame = f;
      out.max_in_flight = std::max<uint64_t>(out.max_in_flight, wm.pending());
      ++out.frames;
      poll();
    }
    while (wm.pending() > 0) {
      poll();
      std::this_thread::yield();
    }
  }
  out.validation = device.take_messages();
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace baton::d3d12
