// Runtime scaling (issue 12, item 5): a chain of N passes through the runtime on a real device,
// per frame build + compile + place memory + record + submit + wait + read back and check.
// Pass 0 fills transient buffer b0; pass i copies b(i-1) into b(i); the last pass copies into a
// host-visible imported buffer that is checked. Prints per-size medians and T(10N)/T(N) against the
// target (<= 11), and the memory the transients really used.
//
//   runtime_bench [--device lavapipe|gpu] [--sizes 1000,10000] [--frames 3] [--validation]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "baton/exec_vulkan.hpp"
#include "baton/runtime.hpp"

using namespace baton;
using namespace baton::runtime;

namespace {

constexpr uint64_t kBytes = 256;
using Clock = std::chrono::steady_clock;

struct Host {
  VkDevice dev;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  uint32_t* words = nullptr;
  Host(exec::VulkanContext& c) : dev(c.device()) {
    info.size = kBytes;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    vkCreateBuffer(dev, &info, nullptr, &buffer);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = c.host_memory_type();
    vkAllocateMemory(dev, &ai, nullptr, &memory);
    vkBindBufferMemory(dev, buffer, memory, 0);
    void* p = nullptr;
    vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &p);
    words = static_cast<uint32_t*>(p);
  }
  ~Host() {
    vkDestroyBuffer(dev, buffer, nullptr);
    vkFreeMemory(dev, memory, nullptr);
  }
};

void build_chain(Frame& f, size_t n, const Host& out, uint32_t value) {
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = kBytes;
  bi.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  const Res o = f.import_buffer("out", out.buffer, out.info);
  std::vector<Res> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = f.create_buffer(fmt::format("b{}", i), bi);
  for (size_t i = 0; i < n; ++i) {
    PassDesc p;
    p.name = fmt::format("p{}", i);
    if (i == 0) {
      p.uses = {{b[0], Access::copy_dest}};
      p.execute = [=](PassContext& c) { vkCmdFillBuffer(c.cmd, c.buffer(b[0]), 0, kBytes, value); };
    } else {
      p.uses = {{b[i - 1], Access::copy_source}, {b[i], Access::copy_dest}};
      const Res from = b[i - 1], to = b[i];
      p.execute = [=](PassContext& c) {
        VkBufferCopy r{0, 0, kBytes};
        vkCmdCopyBuffer(c.cmd, c.buffer(from), c.buffer(to), 1, &r);
      };
    }
    f.add_pass(std::move(p));
  }
  PassDesc last;
  last.name = "read_back";
  last.uses = {{b[n - 1], Access::copy_source}, {o, Access::copy_dest}};
  const Res src = b[n - 1];
  last.execute = [=](PassContext& c) {
    VkBufferCopy r{0, 0, kBytes};
    vkCmdCopyBuffer(c.cmd, c.buffer(src), c.buffer(o), 1, &r);
  };
  f.add_pass(std::move(last));
  f.output(o);
}

}  // namespace

int main(int argc, char** argv) {
  exec::ContextOptions co;
  co.validation = false;
  std::vector<size_t> sizes{1000, 10000};
  int frames = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      co.device = std::string_view(argv[++i]) == "gpu" ? exec::DeviceKind::gpu : exec::DeviceKind::lavapipe;
    } else if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      std::string s = argv[++i];
      for (size_t p = 0; p < s.size();) {
        const size_t q = std::min(s.find(',', p), s.size());
        sizes.push_back(std::stoul(s.substr(p, q - p)));
        p = q + 1;
      }
    } else if (a == "--frames" && i + 1 < argc) {
      frames = std::stoi(argv[++i]);
    } else if (a == "--validation") {
      co.validation = true;
    } else {
      fmt::print(stderr, "usage: runtime_bench [--device lavapipe|gpu] [--sizes N,M] [--frames K] [--validation]\n");
      return 2;
    }
  }
  exec::VulkanContext ctx(co);
  DeviceDesc d;
  d.physical = ctx.physical_device();
  d.device = ctx.device();
  d.graphics = {ctx.queue(), ctx.queue_family()};
  auto rt = Runtime::create(d);
  if (!rt.ok()) {
    fmt::print(stderr, "runtime_bench: {}\n", rt.error());
    return 1;
  }
  fmt::print("runtime_bench on {} (validation {}), chain of N copy passes, {} frames per size\n", ctx.device_name(),
             co.validation ? "on" : "off", frames);
  Host out(ctx);
  std::vector<double> medians;
  bool ok = true;
  for (size_t n : sizes) {
    std::vector<double> ms;
    FrameInfo last;
    for (int k = 0; k < frames; ++k) {
      const uint32_t value = 0x1000u + static_cast<uint32_t>(k);
      const auto t0 = Clock::now();
      build_chain(rt.value()->begin_frame(), n, out, value);
      Result<FrameInfo> r = rt.value()->submit();
      if (!r.ok()) {
        fmt::print(stderr, "runtime_bench: {}\n", r.error());
        return 1;
      }
      if (!rt.value()->sync().ok()) return 1;
      size_t wrong = 0;
      for (size_t w = 0; w < kBytes / 4; ++w) wrong += out.words[w] != value;
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      ok = ok && wrong == 0;
      last = r.value();
    }
    std::sort(ms.begin(), ms.end());
    medians.push_back(ms[ms.size() / 2]);
    fmt::print("N={:>6}: median {:9.1f} ms (compile {:.1f}, record {:.1f}, submit {:.1f}), {} command buffers, "
               "{} barriers, heap {} B, aliased {} B, unaliased {} B\n",
               n, medians.back(), last.compile_ms, last.record_ms, last.submit_ms, last.command_buffers, last.barriers,
               last.memory.heap_bytes, last.memory.aliased_bytes, last.memory.unaliased_bytes);
  }
  for (size_t i = 1; i < sizes.size(); ++i) {
    const double ratio = medians[i] / medians[i - 1];
    const double scale = static_cast<double>(sizes[i]) / static_cast<double>(sizes[i - 1]);
    fmt::print("T({})/T({}) = {:.2f} (target <= {:.0f}: {})\n", sizes[i], sizes[i - 1], ratio, scale * 1.1,
               ratio <= scale * 1.1 ? "met" : "MISSED");
  }
  fmt::print("data: {}\n", ok ? "correct in every frame" : "WRONG");
  return ok ? 0 : 1;
}
