// The insides of a Session: committed resources, descriptor heaps for clears, and the command
// recording helpers the group executor, the readback and the external renderer share.
#pragma once

#include <vector>

#include "vkd3d_common.hpp"
#include "d3d12_work.hpp"

namespace baton::d3d12 {

// One command list with its allocator, alive until its ExecuteCommandLists has completed.
struct Recorder {
  Com<ID3D12CommandAllocator> allocator;
  Com<ID3D12GraphicsCommandList> list;
  Recorder(ID3D12Device* device, Queue q);
};

// An upload-heap buffer filled on the CPU before recording; slots are 512-byte aligned
// (D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT).
struct Upload {
  Com<ID3D12Resource> buffer;
  std::vector<uint32_t> words;  // CPU image of the whole buffer
  uint64_t reserve(uint64_t bytes);  // returns the offset
  void create(ID3D12Device* device);  // after every reserve: creates, maps and copies `words`
};

struct Session::Impl {
  Device::Impl& dev;
  const Recording& rec;
  std::vector<Shape> shapes;
  std::vector<Needs> needs;
  std::vector<OpItems> items;
  std::vector<std::vector<size_t>> first_item;  // [group][list] -> index of its op 0 in items
  Model model;
  std::vector<Com<ID3D12Resource>> resources;
  Com<ID3D12DescriptorHeap> rtv_heap, dsv_heap, uav_cpu_heap, uav_gpu_heap;
  uint32_t rtv_next = 0, dsv_next = 0, uav_next = 0;
  uint32_t rtv_size = 0, dsv_size = 0, uav_size = 0;
  // The executor's own view of every texture subresource's real legacy state, which vkd3d's Vulkan
  // layout follows once promotion and decay are emulated (ExecOptions::emulate_texture_promotion).
  struct Tracked {
    uint32_t state = 0;     // created in COMMON
    bool promoted = false;  // reached by (emulated) implicit promotion in the current ECL
  };
  std::vector<std::vector<Tracked>> tracked;  // per resource, per subresource; empty for buffers
  bool emulate = true;
  size_t barrier_counter = 0;  // over the whole session, for ExecOptions::skip_barrier
  D3D12RunResult stats;        // counts gathered while executing

  Impl(Device::Impl& d, const Recording& r);
  DXGI_FORMAT format(ResourceId r) const;
  // A slot in each heap, cycling (heaps are sized for many clears per group; each group waits).
  D3D12_CPU_DESCRIPTOR_HANDLE rtv(ResourceId r, uint32_t sub);
  D3D12_CPU_DESCRIPTOR_HANDLE dsv(ResourceId r, uint32_t sub);
  // (cpu handle of the non-shader-visible heap, gpu handle of the shader-visible one)
  std::pair<D3D12_CPU_DESCRIPTOR_HANDLE, D3D12_GPU_DESCRIPTOR_HANDLE> uav(ResourceId r, uint32_t sub);

  void reserve_uploads(const Item& item, Upload& up, std::vector<uint64_t>& offsets) const;
  void record_item(ID3D12GraphicsCommandList* cl, const Item& item, Upload& up, uint64_t offset);
  void clear_rtv(ID3D12GraphicsCommandList* cl, SubRef s, uint32_t value);

  // Explicit transitions (Baton's, the readback's, another renderer's) move the tracked state.
  void track(const PlainBarrier& b);
  // Emulated implicit promotion before a command that needs `needed` on `s`: appends the explicit
  // barrier the runtime's promotion stands for, when REFERENCE.md's table allows one.
  void promote(SubRef s, uint32_t needed, std::vector<D3D12_RESOURCE_BARRIER>& out);
  // Emulated decay at the end of an ExecuteCommandLists on queue q.
  void decay(Queue q, std::vector<D3D12_RESOURCE_BARRIER>& out);
};

// The states a work item's command needs, per subresource.
std::vector<std::pair<SubRef, uint32_t>> needed_states(const Item& item, const std::vector<Shape>& shapes);

}  // namespace baton::d3d12
