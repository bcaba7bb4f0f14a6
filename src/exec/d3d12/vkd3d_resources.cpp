// Committed resources, views and the commands one work item becomes (d3d12_work.hpp): copies through
// CopyBufferRegion / CopyTextureRegion, clears through render-target, depth-stencil and UAV views,
// uploads from an upload-heap buffer.
#include <algorithm>
#include <bit>
#include <cstring>

#include "vkd3d_session.hpp"

namespace baton::d3d12 {
namespace {

constexpr uint32_t kHeapSlots = 4096;
constexpr uint64_t kPitch = 256;      // D3D12_TEXTURE_DATA_PITCH_ALIGNMENT
constexpr uint64_t kPlacement = 512;  // D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT

uint64_t align(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

Com<ID3D12DescriptorHeap> make_heap(ID3D12Device* device, D3D12_DESCRIPTOR_HEAP_TYPE type, bool shader_visible) {
  D3D12_DESCRIPTOR_HEAP_DESC d{};
  d.Type = type;
  d.NumDescriptors = kHeapSlots;
  d.Flags = shader_visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE;
  Com<ID3D12DescriptorHeap> h;
  check_hr(device->CreateDescriptorHeap(&d, IID_ID3D12DescriptorHeap, h.out()), "CreateDescriptorHeap");
  return h;
}

D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(ID3D12DescriptorHeap* h, uint32_t i, uint32_t size) {
  D3D12_CPU_DESCRIPTOR_HANDLE c = h->GetCPUDescriptorHandleForHeapStart();
  c.ptr += static_cast<SIZE_T>(i) * size;
  return c;
}

// A buffer location seen as a w x h footprint of `format` with a 256-byte row pitch.
D3D12_TEXTURE_COPY_LOCATION footprint(ID3D12Resource* buffer, uint64_t offset, DXGI_FORMAT format, uint32_t w,
                                      uint32_t h) {
  D3D12_TEXTURE_COPY_LOCATION l{};
  l.pResource = buffer;
  l.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
  l.PlacedFootprint.Offset = offset;
  l.PlacedFootprint.Footprint.Format = format;
  l.PlacedFootprint.Footprint.Width = w;
  l.PlacedFootprint.Footprint.Height = h;
  l.PlacedFootprint.Footprint.Depth = 1;
  l.PlacedFootprint.Footprint.RowPitch = static_cast<UINT>(align(uint64_t{w} * 4, kPitch));
  return l;
}

D3D12_TEXTURE_COPY_LOCATION subresource(ID3D12Resource* texture, uint32_t sub) {
  D3D12_TEXTURE_COPY_LOCATION l{};
  l.pResource = texture;
  l.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
  l.SubresourceIndex = sub;
  return l;
}

}  // namespace

Recorder::Recorder(ID3D12Device* device, Queue q) {
  check_hr(device->CreateCommandAllocator(list_type(q), IID_ID3D12CommandAllocator, allocator.out()),
           "CreateCommandAllocator");
  check_hr(device->CreateCommandList(0, list_type(q), allocator.get(), nullptr, IID_ID3D12GraphicsCommandList,
                                     list.out()),
           "CreateCommandList");
}

uint64_t Upload::reserve(uint64_t bytes) {
  const uint64_t offset = align(words.size() * 4, kPlacement);
  words.resize(static_cast<size_t>((offset + bytes) / 4), 0);
  return offset;
}

void Upload::create(ID3D12Device* device) {
  if (words.empty()) return;
  // Upload heaps live in GENERIC_READ forever (REFERENCE.md).
  buffer = committed_buffer(device, D3D12_HEAP_TYPE_UPLOAD, words.size() * 4, D3D12_RESOURCE_STATE_GENERIC_READ,
                            "upload");
  void* p = nullptr;
  D3D12_RANGE none{0, 0};
  check_hr(buffer->Map(0, &none, &p), "Map (upload)");
  std::memcpy(p, words.data(), words.size() * 4);
  buffer->Unmap(0, nullptr);
}

Session::Impl::Impl(Device::Impl& device_impl, const Recording& r)
    : dev(device_impl), rec(r), shapes(make_shapes(r)), needs(resource_needs(r)), items(plan_items(r, shapes)), model(shapes) {
  size_t k = 0;
  for (const auto& g : rec.groups) {
    auto& firsts = first_item.emplace_back();
    for (const CommandList* l : g->lists()) {
      firsts.push_back(k);
      k += l->ops().size();
    }
  }
  ID3D12Device* device = dev.device.get();
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const ResourceDesc& rd = rec.resources[static_cast<ResourceId>(i)];
    D3D12_HEAP_PROPERTIES hp{};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    D3D12_RESOURCE_DESC d{};
    d.SampleDesc.Count = 1;
    d.Flags = D3D12_RESOURCE_FLAG_NONE;
    if (s.buffer) {
      d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
      d.Width = uint64_t{kBufferWords} * 4;
      d.Height = 1;
      d.DepthOrArraySize = 1;
      d.MipLevels = 1;
      d.Format = DXGI_FORMAT_UNKNOWN;
      d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    } else {
      d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
      d.Width = s.width;
      d.Height = s.height;
      d.DepthOrArraySize = static_cast<UINT16>(s.layers);
      d.MipLevels = static_cast<UINT16>(s.mips);
      d.Format = format(static_cast<ResourceId>(i));
      d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
      if (needs[i].rtv) d.Flags |= D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
      if (needs[i].dsv) d.Flags |= D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
      if (rd.simultaneous_access && !s.depth()) d.Flags |= D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS;
    }
    if (needs[i].uav) d.Flags |= D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    // Baton's legacy lowering assumes every resource is created in COMMON.
    check_hr(device->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                             IID_ID3D12Resource, resources.emplace_back().out()),
             fmt::format("CreateCommittedResource '{}'", rd.name).c_str());
  }
  for (const Shape& s : shapes) tracked.emplace_back(s.buffer ? 0 : s.subresources());
  rtv_heap = make_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, false);
  dsv_heap = make_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, false);
  uav_cpu_heap = make_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, false);
  uav_gpu_heap = make_heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, true);
  rtv_size = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
  dsv_size = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_DSV);
  uav_size = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
}

DXGI_FORMAT Session::Impl::format(ResourceId r) const {
  const Shape& s = shapes[r];
  if (s.buffer) return DXGI_FORMAT_R32_UINT;
  switch (s.format) {
    case FormatClass::color: return DXGI_FORMAT_R32_FLOAT;
    case FormatClass::depth: return DXGI_FORMAT_D32_FLOAT;
    case FormatClass::depth_stencil: return DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
  }
  return DXGI_FORMAT_R32_FLOAT;
}

D3D12_CPU_DESCRIPTOR_HANDLE Session::Impl::rtv(ResourceId r, uint32_t sub) {
  const Shape& s = shapes[r];
  D3D12_RENDER_TARGET_VIEW_DESC v{};
  v.Format = format(r);
  v.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
  v.Texture2DArray.MipSlice = s.mip(sub);
  v.Texture2DArray.FirstArraySlice = s.layer(sub);
  v.Texture2DArray.ArraySize = 1;
  const D3D12_CPU_DESCRIPTOR_HANDLE h = cpu_at(rtv_heap.get(), rtv_next++ % kHeapSlots, rtv_size);
  dev.device->CreateRenderTargetView(resources[r].get(), &v, h);
  return h;
}

D3D12_CPU_DESCRIPTOR_HANDLE Session::Impl::dsv(ResourceId r, uint32_t sub) {
  const Shape& s = shapes[r];
  D3D12_DEPTH_STENCIL_VIEW_DESC v{};
  v.Format = format(r);
  v.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2DARRAY;
  v.Texture2DArray.MipSlice = s.mip(sub);
  v.Texture2DArray.FirstArraySlice = s.layer(sub);
  v.Texture2DArray.ArraySize = 1;
  const D3D12_CPU_DESCRIPTOR_HANDLE h = cpu_at(dsv_heap.get(), dsv_next++ % kHeapSlots, dsv_size);
  dev.device->CreateDepthStencilView(resources[r].get(), &v, h);
  return h;
}

std::pair<D3D12_CPU_DESCRIPTOR_HANDLE, D3D12_GPU_DESCRIPTOR_HANDLE> Session::Impl::uav(ResourceId r, uint32_t sub) {
  const Shape& s = shapes[r];
  D3D12_UNORDERED_ACCESS_VIEW_DESC v{};
  v.Format = format(r);
  if (s.buffer) {
    v.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    v.Buffer.FirstElement = 0;
    v.Buffer.NumElements = kBufferWords;
  } else {
    v.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
    v.Texture2DArray.MipSlice = s.mip(sub);
    v.Texture2DArray.FirstArraySlice = s.layer(sub);
    v.Texture2DArray.ArraySize = 1;
  }
  const uint32_t i = uav_next++ % kHeapSlots;
  const D3D12_CPU_DESCRIPTOR_HANDLE cpu = cpu_at(uav_cpu_heap.get(), i, uav_size);
  D3D12_CPU_DESCRIPTOR_HANDLE gpu_cpu = cpu_at(uav_gpu_heap.get(), i, uav_size);
  dev.device->CreateUnorderedAccessView(resources[r].get(), nullptr, &v, cpu);
  dev.device->CreateUnorderedAccessView(resources[r].get(), nullptr, &v, gpu_cpu);
  D3D12_GPU_DESCRIPTOR_HANDLE gpu = uav_gpu_heap->GetGPUDescriptorHandleForHeapStart();
  gpu.ptr += uint64_t{i} * uav_size;
  return {cpu, gpu};
}

void Session::Impl::reserve_uploads(const Item& item, Upload& up, std::vector<uint64_t>& offsets) const {
  if (const auto* c = std::get_if<CopyItem>(&item)) {
    if (c->src) return;
    const uint64_t off = up.reserve(uint64_t{kBufferWords} * 4);
    for (uint32_t j = 0; j < kBufferWords; ++j) up.words[static_cast<size_t>(off / 4 + j)] = host_word(c->seed, j);
    offsets.push_back(off);
    return;
  }
  const auto& c = std::get<ClearItem>(item);
  if (c.how != ClearItem::How::upload) return;
  const Shape& s = shapes[c.dst.res];
  const uint32_t w = s.w(c.dst.sub), h = s.h(c.dst.sub);
  const uint64_t pitch_words = align(uint64_t{w} * 4, kPitch) / 4;
  const uint64_t off = up.reserve(pitch_words * 4 * h);
  const uint32_t bits = clear_bits(s, c.dst.sub, c.value);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) up.words[static_cast<size_t>(off / 4 + y * pitch_words + x)] = bits;
  offsets.push_back(off);
}

void Session::Impl::clear_rtv(ID3D12GraphicsCommandList* cl, SubRef s, uint32_t value) {
  const float v = static_cast<float>(value);
  const FLOAT color[4] = {v, v, v, v};
  cl->ClearRenderTargetView(rtv(s.res, s.sub), color, 0, nullptr);
}

void Session::Impl::record_item(ID3D12GraphicsCommandList* cl, const Item& item, Upload& up, uint64_t offset) {
  if (const auto* c = std::get_if<ClearItem>(&item)) {
    const Shape& s = shapes[c->dst.res];
    ID3D12Resource* dst = resources[c->dst.res].get();
    switch (c->how) {
      case ClearItem::How::rtv: clear_rtv(cl, c->dst, c->value); break;
      case ClearItem::How::dsv: {
        D3D12_CLEAR_FLAGS flags = D3D12_CLEAR_FLAG_DEPTH;
        if (s.planes == 2) flags = static_cast<D3D12_CLEAR_FLAGS>(flags | D3D12_CLEAR_FLAG_STENCIL);
        cl->ClearDepthStencilView(dsv(c->dst.res, c->dst.sub), flags, depth_value(c->value),
                                  static_cast<UINT8>(c->value & 0xffu), 0, nullptr);
        break;
      }
      case ClearItem::How::uav: {
        const auto [cpu, gpu] = uav(c->dst.res, c->dst.sub);
        ID3D12DescriptorHeap* heaps[] = {uav_gpu_heap.get()};
        cl->SetDescriptorHeaps(1, heaps);
        if (s.buffer) {
          const UINT v[4] = {c->value, c->value, c->value, c->value};
          cl->ClearUnorderedAccessViewUint(gpu, cpu, dst, v, 0, nullptr);
        } else {
          const float f = static_cast<float>(c->value);
          const FLOAT v[4] = {f, f, f, f};
          cl->ClearUnorderedAccessViewFloat(gpu, cpu, dst, v, 0, nullptr);
        }
        break;
      }
      case ClearItem::How::upload:
        if (s.buffer) {
          cl->CopyBufferRegion(dst, 0, up.buffer.get(), offset, uint64_t{kBufferWords} * 4);
        } else {
          const D3D12_TEXTURE_COPY_LOCATION to = subresource(dst, c->dst.sub);
          const D3D12_TEXTURE_COPY_LOCATION from =
              footprint(up.buffer.get(), offset, format(c->dst.res), s.w(c->dst.sub), s.h(c->dst.sub));
          cl->CopyTextureRegion(&to, 0, 0, 0, &from, nullptr);
        }
        break;
    }
    return;
  }
  const auto& c = std::get<CopyItem>(item);
  const Shape& ds = shapes[c.dst.res];
  ID3D12Resource* dst = resources[c.dst.res].get();
  ID3D12Resource* src = c.src ? resources[c.src->res].get() : up.buffer.get();
  const bool src_buffer = !c.src || shapes[c.src->res].buffer;
  const uint32_t sw = c.src ? shapes[c.src->res].w(c.src->sub) : kBufferRow;
  const uint32_t sh = c.src ? shapes[c.src->res].h(c.src->sub) : kBufferRows;
  const uint32_t rw = std::min(ds.w(c.dst.sub), sw), rh = std::min(ds.h(c.dst.sub), sh);
  const uint64_t src_offset = c.src ? 0 : offset;
  if (src_buffer && ds.buffer) {
    cl->CopyBufferRegion(dst, 0, src, src_offset, uint64_t{kBufferWords} * 4);
    return;
  }
  // A buffer side is a footprint in the texture side's format, pitch 256 bytes: 64 words a row, so
  // a buffer holds a 64 x 16 image exactly.
  const DXGI_FORMAT fmt = ds.buffer ? format(c.src->res) : format(c.dst.res);
  const D3D12_TEXTURE_COPY_LOCATION to =
      ds.buffer ? footprint(dst, 0, fmt == DXGI_FORMAT_D32_FLOAT_S8X24_UINT ? DXGI_FORMAT_R32_TYPELESS : fmt, kBufferRow, kBufferRows)
                : subresource(dst, c.dst.sub);
  const D3D12_TEXTURE_COPY_LOCATION from =
      src_buffer ? footprint(src, src_offset, fmt, kBufferRow, kBufferRows) : subresource(src, c.src->sub);
  D3D12_BOX box{0, 0, 0, rw, rh, 1};
  cl->CopyTextureRegion(&to, 0, 0, 0, &from, &box);
}

}  // namespace baton::d3d12
