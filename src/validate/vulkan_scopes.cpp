// Vulkan stage and access set algebra: meta stages and accesses expanded, and the logically
// earlier / later stages that a barrier's execution scopes include (Vulkan spec "pipeline stage
// order"). Tables, not switch ladders.
#include <array>

#include "vulkan_replay.hpp"

namespace baton::validate::vulkan {

namespace {
// VkPipelineStageFlagBits2
constexpr uint64_t kTop = 0x1, kDrawIndirect = 0x2, kVertexInput = 0x4, kVertexShader = 0x8,
                   kTessControl = 0x10, kTessEval = 0x20, kGeometry = 0x40, kFragment = 0x80,
                   kEarlyTests = 0x100, kLateTests = 0x200, kColorOutput = 0x400, kCompute = 0x800,
                   kAllTransfer = 0x1000, kBottom = 0x2000, kHost = 0x4000, kAllGraphics = 0x8000,
                   kAllCommands = 0x10000, kCopy = 0x100000000, kResolve = 0x200000000, kBlit = 0x400000000,
                   kClear = 0x800000000, kIndexInput = 0x1000000000, kVertexAttributeInput = 0x2000000000,
                   kPreRasterization = 0x4000000000, kTask = 0x80000, kMesh = 0x100000,
                   kRayTracing = 0x200000, kAccelerationStructureBuild = 0x2000000;

constexpr uint64_t kTransferStages = kCopy | kResolve | kBlit | kClear;
// Spec, "Pipeline Stages": PRE_RASTERIZATION_SHADERS and ALL_GRAPHICS include the task and mesh shader
// stages; ray tracing and acceleration-structure builds are neither graphics nor transfer.
constexpr uint64_t kPreRasterStages = kVertexShader | kTessControl | kTessEval | kGeometry | kTask | kMesh;
constexpr uint64_t kGraphicsStages = kDrawIndirect | kIndexInput | kVertexAttributeInput | kPreRasterStages |
                                     kFragment | kEarlyTests | kLateTests | kColorOutput;
constexpr uint64_t kRealStages =
    kGraphicsStages | kCompute | kTransferStages | kHost | kRayTracing | kAccelerationStructureBuild;

struct Meta {
  uint64_t bit, stands_for;
};
constexpr std::array kMetaStages{
    Meta{kAllCommands, kRealStages},           Meta{kAllGraphics, kGraphicsStages},
    Meta{kAllTransfer, kTransferStages},       Meta{kVertexInput, kIndexInput | kVertexAttributeInput},
    Meta{kPreRasterization, kPreRasterStages},
};

// Pipelines in logical order; a stage's earlier/later stages come from every pipeline it is in.
constexpr std::array kGraphicsOrder{kDrawIndirect, kIndexInput,  kVertexAttributeInput,
                                    kVertexShader, kTessControl, kTessEval,
                                    kGeometry,     kEarlyTests,  kFragment,
                                    kLateTests,    kColorOutput};
constexpr std::array kComputeOrder{kDrawIndirect, kCompute};
// The mesh shading pipeline (spec, "Pipeline Stages", the order of a graphics pipeline with mesh
// shading) and the ray tracing pipeline; an acceleration-structure build is a pipeline of one stage.
constexpr std::array kMeshOrder{kDrawIndirect, kTask,      kMesh,       kEarlyTests,
                                kFragment,     kLateTests, kColorOutput};
constexpr std::array kRayTracingOrder{kDrawIndirect, kRayTracing};

template <size_t N>
void add_ordered(const std::array<uint64_t, N>& order, uint64_t stages, bool earlier, uint64_t& out) {
  for (size_t i = 0; i < N; ++i) {
    if ((stages & order[i]) == 0) continue;
    if (earlier)
      for (size_t j = 0; j < i; ++j) out |= order[j];
    else
      for (size_t j = i + 1; j < N; ++j) out |= order[j];
  }
}

// VkAccessFlagBits2
constexpr uint64_t kShaderRead = 0x20, kShaderWrite = 0x40, kMemoryRead = 0x8000, kMemoryWrite = 0x10000,
                   kSampledRead = 0x100000000, kStorageRead = 0x200000000, kStorageWrite = 0x400000000;
constexpr uint64_t kAccelerationStructureRead = 0x200000, kAccelerationStructureWrite = 0x400000;
constexpr uint64_t kReadBits = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x80 | 0x200 | 0x800 | 0x2000 | kSampledRead |
                               kStorageRead | kAccelerationStructureRead;
constexpr uint64_t kWriteBits = 0x100 | 0x400 | 0x1000 | 0x4000 | kStorageWrite | kAccelerationStructureWrite;
}  // namespace

uint64_t expand_stages(uint64_t s) {
  for (const Meta& m : kMetaStages) {
    if ((s & m.bit) != 0) s |= m.stands_for;
  }
  return s & kRealStages;
}

uint64_t src_exec_scope(uint64_t s) {
  if ((s & kBottom) != 0) s |= kAllCommands;  // BOTTOM_OF_PIPE in a first scope waits for everything
  uint64_t out = expand_stages(s);
  add_ordered(kGraphicsOrder, out, true, out);
  add_ordered(kComputeOrder, out, true, out);
  add_ordered(kMeshOrder, out, true, out);
  add_ordered(kRayTracingOrder, out, true, out);
  return out;
}

uint64_t dst_exec_scope(uint64_t s) {
  if ((s & kTop) != 0) s |= kAllCommands;  // TOP_OF_PIPE in a second scope blocks everything
  uint64_t out = expand_stages(s);
  add_ordered(kGraphicsOrder, out, false, out);
  add_ordered(kComputeOrder, out, false, out);
  add_ordered(kMeshOrder, out, false, out);
  add_ordered(kRayTracingOrder, out, false, out);
  return out;
}

uint64_t expand_accesses(uint64_t a) {
  if ((a & kMemoryRead) != 0) a |= kReadBits;
  if ((a & kMemoryWrite) != 0) a |= kWriteBits;
  if ((a & kShaderRead) != 0) a |= kSampledRead | kStorageRead;
  if ((a & kShaderWrite) != 0) a |= kStorageWrite;
  return a & (kReadBits | kWriteBits);
}

bool has_write(uint64_t a) {
  return (expand_accesses(a) & kWriteBits) != 0;
}
bool has_read(uint64_t a) {
  return (expand_accesses(a) & kReadBits) != 0;
}

}  // namespace baton::validate::vulkan
