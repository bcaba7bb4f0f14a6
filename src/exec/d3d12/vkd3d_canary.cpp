// The oracle's canary: a copy out of a buffer right after a copy into it, with the barrier between
// them left out. The validation layer under vkd3d must report the read-after-write hazard, or the
// oracle is not live and a clean run means nothing.
#include "vkd3d_session.hpp"

namespace baton::d3d12 {
namespace {

Com<ID3D12Resource> buffer(ID3D12Device* device, D3D12_HEAP_TYPE heap, D3D12_RESOURCE_STATES initial) {
  return committed_buffer(device, heap, 4096, initial, "canary");
}

}  // namespace

CanaryResult run_canary(Device& device) {
  Device::Impl& d = device.impl();
  device.take_messages();
  {
    Com<ID3D12Resource> upload = buffer(d.device.get(), D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_GENERIC_READ);
    Com<ID3D12Resource> middle = buffer(d.device.get(), D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON);
    Com<ID3D12Resource> readback = buffer(d.device.get(), D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COPY_DEST);
    Recorder rec(d.device.get(), Queue::direct);
    rec.list->CopyBufferRegion(middle.get(), 0, upload.get(), 0, 4096);  // promotes middle to COPY_DEST
    // Missing here: COPY_DEST -> COPY_SOURCE on middle.
    rec.list->CopyBufferRegion(readback.get(), 0, middle.get(), 0, 4096);
    check_hr(rec.list->Close(), "Close (canary)");
    ID3D12CommandList* lists[] = {rec.list.get()};
    d.direct->ExecuteCommandLists(1, lists);
    d.wait_idle(d.direct.get());
  }
  CanaryResult out;
  out.log = device.take_messages();
  out.live = out.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE") > 0;
  return out;
}

}  // namespace baton::d3d12
