// vkd3d's side of the D3D12 executor: headers, the device's insides and small helpers. Only the
// vkd3d_*.cpp files include this; it must never meet Debian's directx-headers (lower_d3d12.hpp) in
// one translation unit (the two declare the same types with different calling conventions).
#pragma once

// vkd3d_windows.h defines min/max macros unless told not to.
#define NOMINMAX
// Methods returning a struct (GetCPUDescriptorHandleForHeapStart, GetDesc) are implemented by vkd3d
// with the Windows ABI: the result goes through a hidden pointer. Without this the C++ vtable
// declares a plain struct return, the call passes no pointer and vkd3d writes through garbage.
#define WIDL_EXPLICIT_AGGREGATE_RETURNS
#include <vkd3d_utils.h>

#include <fmt/format.h>

#include <mutex>
#include <string>

#include "baton/exec_d3d12.hpp"

namespace baton::d3d12 {

// The public header's pinned states against vkd3d's own enum.
static_assert(state::render_target == D3D12_RESOURCE_STATE_RENDER_TARGET);
static_assert(state::copy_dest == D3D12_RESOURCE_STATE_COPY_DEST);
static_assert(state::copy_source == D3D12_RESOURCE_STATE_COPY_SOURCE);
static_assert(state::generic_read == D3D12_RESOURCE_STATE_GENERIC_READ);
static_assert(state::present == D3D12_RESOURCE_STATE_PRESENT);

// Throws Error naming the call and the HRESULT.
void check_hr(HRESULT hr, const char* what);

// COM pointer that releases on scope exit (vkd3d has no WRL).
template <class T>
class Com {
 public:
  Com() = default;
  ~Com() { reset(); }
  Com(const Com&) = delete;
  Com& operator=(const Com&) = delete;
  Com(Com&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  Com& operator=(Com&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_;
      o.p_ = nullptr;
    }
    return *this;
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  void** out() {
    reset();
    return reinterpret_cast<void**>(&p_);
  }
  void reset() {
    if (p_) p_->Release();
    p_ = nullptr;
  }

 private:
  T* p_ = nullptr;
};

struct Device::Impl {
  bool validation = false;
  bool trace = false;
  struct vkd3d_instance* instance = nullptr;  // only with validation (we own a reference)
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = nullptr;
  Com<ID3D12Device> device;
  Com<ID3D12CommandQueue> direct, compute, copy;
  Com<ID3D12Fence> fence;  // the executor's own waits
  uint64_t fence_value = 0;

  std::mutex log_mutex;  // the layer may call back from vkd3d's fence thread
  ValidationLog log;

  ID3D12CommandQueue* queue(Queue q) const {
    return q == Queue::direct ? direct.get() : q == Queue::compute ? compute.get() : copy.get();
  }
  // Signals the executor's fence on the queue and blocks until the GPU reaches it.
  void wait_idle(ID3D12CommandQueue* q);
};

D3D12_COMMAND_LIST_TYPE list_type(Queue q);
// Blocks until `fence` reaches `value` (vkd3d 1.2: only infinite event waits work).
void wait_fence(ID3D12Fence* fence, uint64_t value);

// A committed buffer of `bytes` in `heap`, created in `initial` (upload heaps: GENERIC_READ,
// readback heaps: COPY_DEST, both forever; REFERENCE.md). `what` names it in the error.
Com<ID3D12Resource> committed_buffer(ID3D12Device* device, D3D12_HEAP_TYPE heap, uint64_t bytes,
                                     D3D12_RESOURCE_STATES initial, const char* what);

}  // namespace baton::d3d12
