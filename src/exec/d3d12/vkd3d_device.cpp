// The D3D12 device through vkd3d, with the Khronos validation layer injected underneath: vkd3d
// is handed our own vkGetInstanceProcAddr, whose vkCreateInstance adds the layer, debug utils and
// synchronization validation to vkd3d's instance. A messenger on that instance counts what the
// layer says about the Vulkan commands vkd3d makes of our D3D12 calls.
#define INITGUID  // exactly one file defines the IIDs
#include "vkd3d_common.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace baton::d3d12 {
namespace {

constexpr const char* kLavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  // Only the layer's VALIDATION findings count; the loader adds informational text of its own.
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  if (!(type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)) return VK_FALSE;
  auto* impl = static_cast<Device::Impl*>(user);
  const std::string id = data->pMessageIdName ? data->pMessageIdName : "(no id)";
  std::lock_guard lock(impl->log_mutex);
  if (impl->trace) std::fprintf(stderr, "[%s] %s\n", id.c_str(), data->pMessage ? data->pMessage : "");
  if (impl->log.counts[id]++ == 0) impl->log.texts.emplace_back(id, data->pMessage ? data->pMessage : "");
  return VK_FALSE;
}

VKAPI_ATTR VkResult VKAPI_CALL create_instance_with_layer(const VkInstanceCreateInfo* info,
                                                          const VkAllocationCallbacks* alloc, VkInstance* out) {
  VkInstanceCreateInfo ci = *info;
  std::vector<const char*> layers(info->ppEnabledLayerNames, info->ppEnabledLayerNames + info->enabledLayerCount);
  layers.push_back("VK_LAYER_KHRONOS_validation");
  std::vector<const char*> exts(info->ppEnabledExtensionNames,
                                info->ppEnabledExtensionNames + info->enabledExtensionCount);
  exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  static constexpr VkValidationFeatureEnableEXT kEnable[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{};
  features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = kEnable;
  features.pNext = ci.pNext;
  ci.pNext = &features;
  ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  ci.ppEnabledExtensionNames = exts.data();
  // Submit-time synchronization checks (hazards between ExecuteCommandLists calls) have no feature
  // enum in layer 1.3.239; the layer reads this variable while the instance is created. Colons
  // separate values on Linux (a comma silently disables everything). Keep a caller's setting.
  setenv("VK_LAYER_ENABLES",
         "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:"
         "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT",
         0);
  return vkCreateInstance(&ci, alloc, out);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&create_instance_with_layer);
  return vkGetInstanceProcAddr(instance, name);
}

}  // namespace

void check_hr(HRESULT hr, const char* what) {
  if (FAILED(hr)) throw Error(fmt::format("D3D12 executor: {} failed (HRESULT {:#010x})", what, static_cast<uint32_t>(hr)));
}

Com<ID3D12Resource> committed_buffer(ID3D12Device* device, D3D12_HEAP_TYPE heap, uint64_t bytes,
                                     D3D12_RESOURCE_STATES initial, const char* what) {
  D3D12_HEAP_PROPERTIES hp{};
  hp.Type = heap;
  D3D12_RESOURCE_DESC d{};
  d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  d.Width = bytes;
  d.Height = 1;
  d.DepthOrArraySize = 1;
  d.MipLevels = 1;
  d.Format = DXGI_FORMAT_UNKNOWN;
  d.SampleDesc.Count = 1;
  d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
  Com<ID3D12Resource> r;
  check_hr(device->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, initial, nullptr, IID_ID3D12Resource, r.out()),
           fmt::format("CreateCommittedResource ({})", what).c_str());
  return r;
}

D3D12_COMMAND_LIST_TYPE list_type(Queue q) {
  switch (q) {
    case Queue::direct: return D3D12_COMMAND_LIST_TYPE_DIRECT;
    case Queue::compute: return D3D12_COMMAND_LIST_TYPE_COMPUTE;
    case Queue::copy: return D3D12_COMMAND_LIST_TYPE_COPY;
  }
  return D3D12_COMMAND_LIST_TYPE_DIRECT;
}

// Polls the fence's completed value (vkd3d's fence thread advances it) with a short growing sleep.
// Not SetEventOnCompletion with an event wait: vkd3d 1.2 implements only infinite event waits, and a
// whole-suite CI run once hung 300 s in one (D3D12Watermark.PollHandsBackExactlyTheCompletedFrames,
// fine in 40 runs alone). A fence that never gets there is an error naming it after two minutes.
void wait_fence(ID3D12Fence* fence, uint64_t value) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  auto nap = std::chrono::microseconds(20);
  for (;;) {
    const uint64_t done = fence->GetCompletedValue();
    if (done >= value) return;
    if (done == UINT64_MAX) throw Error("D3D12 executor: the device was removed while waiting for a fence");
    if (Clock::now() > deadline)
      throw Error(fmt::format("D3D12 executor: the fence did not reach {} in 120 s (it is at {})", value, done));
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds(1000));
  }
}

void Device::Impl::wait_idle(ID3D12CommandQueue* q) {
  check_hr(q->Signal(fence.get(), ++fence_value), "ID3D12CommandQueue::Signal");
  wait_fence(fence.get(), fence_value);
}

uint32_t ValidationLog::total() const {
  uint32_t n = 0;
  for (const auto& [id, c] : counts) n += c;
  return n;
}

std::string ValidationLog::summary() const {
  if (counts.empty()) return "none";
  std::string s;
  for (const auto& [id, c] : counts) s += fmt::format("{}{}={}", s.empty() ? "" : " ", id, c);
  return s;
}

Device::Device(const DeviceOptions& options) : impl_(std::make_unique<Impl>()) {
  setenv("VK_DRIVER_FILES", kLavapipe, 0);  // lavapipe unless the caller chose a driver
  Impl& d = *impl_;
  d.validation = options.validation;
  d.trace = std::getenv("BATON_D3D12_TRACE") != nullptr;  // every message on stderr, for debugging
  if (!options.validation) {
    check_hr(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_ID3D12Device, d.device.out()), "D3D12CreateDevice");
  } else {
    vkd3d_instance_create_info ici{};
    ici.type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ici.pfn_signal_event = vkd3d_signal_event;  // vkd3d-utils events for SetEventOnCompletion
    ici.wchar_size = sizeof(WCHAR);
    ici.pfn_vkGetInstanceProcAddr = get_instance_proc;
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    ici.instance_extensions = extensions;
    ici.instance_extension_count = 1;
    check_hr(vkd3d_create_instance(&ici, &d.instance), "vkd3d_create_instance (with the validation layer)");
    const VkInstance vk = vkd3d_instance_get_vk_instance(d.instance);
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(vk, "vkCreateDebugUtilsMessengerEXT"));
    d.destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(vk, "vkDestroyDebugUtilsMessengerEXT"));
    if (!create || !d.destroy_messenger) throw Error("D3D12 executor: VK_EXT_debug_utils is missing (validation layer)");
    VkDebugUtilsMessengerCreateInfoEXT mci{};
    mci.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    mci.pfnUserCallback = on_message;
    mci.pUserData = &d;
    if (create(vk, &mci, nullptr, &d.messenger) != VK_SUCCESS) throw Error("D3D12 executor: messenger creation failed");
    vkd3d_device_create_info dci{};
    dci.type = VKD3D_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dci.minimum_feature_level = D3D_FEATURE_LEVEL_11_0;
    dci.instance = d.instance;
    check_hr(vkd3d_create_device(&dci, IID_ID3D12Device, d.device.out()), "vkd3d_create_device");
  }
  for (Queue q : {Queue::direct, Queue::compute, Queue::copy}) {
    D3D12_COMMAND_QUEUE_DESC qd{};
    qd.Type = list_type(q);
    Com<ID3D12CommandQueue>& slot = q == Queue::direct ? d.direct : q == Queue::compute ? d.compute : d.copy;
    check_hr(d.device->CreateCommandQueue(&qd, IID_ID3D12CommandQueue, slot.out()), "CreateCommandQueue");
  }
  check_hr(d.device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_ID3D12Fence, d.fence.out()), "CreateFence");
}

Device::~Device() {
  Impl& d = *impl_;
  d.fence.reset();
  d.direct.reset();
  d.compute.reset();
  d.copy.reset();
  d.device.reset();
  if (d.messenger) d.destroy_messenger(vkd3d_instance_get_vk_instance(d.instance), d.messenger, nullptr);
  if (d.instance) vkd3d_instance_decref(d.instance);
}

bool Device::validation_enabled() const { return impl_->validation; }

std::string Device::vulkan_device_name() const {
  VkPhysicalDeviceProperties p{};
  vkGetPhysicalDeviceProperties(vkd3d_get_vk_physical_device(impl_->device.get()), &p);
  return p.deviceName;
}

ValidationLog Device::take_messages() {
  std::lock_guard lock(impl_->log_mutex);
  ValidationLog out = std::move(impl_->log);
  impl_->log = {};
  return out;
}

}  // namespace baton::d3d12
