// D3D12 enumerator names and values (D3D12_RESOURCE_STATES, D3D12_BARRIER_SYNC, _ACCESS, _LAYOUT),
// written from the API documentation; tests/validate/names_test.cpp checks them against
// Debian's directx-headers.
#include <array>

#include "names.hpp"

namespace baton::validate::names {

namespace {
constexpr std::array kStates{
    Name{"COMMON", 0x0},
    Name{"PRESENT", 0x0},
    Name{"VERTEX_AND_CONSTANT_BUFFER", 0x1},
    Name{"INDEX_BUFFER", 0x2},
    Name{"RENDER_TARGET", 0x4},
    Name{"UNORDERED_ACCESS", 0x8},
    Name{"DEPTH_WRITE", 0x10},
    Name{"DEPTH_READ", 0x20},
    Name{"NON_PIXEL_SHADER_RESOURCE", 0x40},
    Name{"PIXEL_SHADER_RESOURCE", 0x80},
    Name{"STREAM_OUT", 0x100},
    Name{"INDIRECT_ARGUMENT", 0x200},
    Name{"PREDICATION", 0x200},
    Name{"COPY_DEST", 0x400},
    Name{"COPY_SOURCE", 0x800},
    Name{"RESOLVE_DEST", 0x1000},
    Name{"RESOLVE_SOURCE", 0x2000},
    Name{"RAYTRACING_ACCELERATION_STRUCTURE", 0x400000},
    Name{"SHADING_RATE_SOURCE", 0x1000000},
    Name{"GENERIC_READ", 0xac3},
    Name{"ALL_SHADER_RESOURCE", 0xc0},
};

constexpr std::array kSyncs{
    Name{"NONE", 0x0},
    Name{"ALL", 0x1},
    Name{"DRAW", 0x2},
    Name{"INDEX_INPUT", 0x4},
    Name{"INPUT_ASSEMBLER", 0x4},  // the older headers' name for INDEX_INPUT
    Name{"VERTEX_SHADING", 0x8},
    Name{"PIXEL_SHADING", 0x10},
    Name{"DEPTH_STENCIL", 0x20},
    Name{"RENDER_TARGET", 0x40},
    Name{"COMPUTE_SHADING", 0x80},
    Name{"RAYTRACING", 0x100},
    Name{"COPY", 0x200},
    Name{"RESOLVE", 0x400},
    Name{"EXECUTE_INDIRECT", 0x800},
    Name{"PREDICATION", 0x800},
    Name{"ALL_SHADING", 0x1000},
    Name{"NON_PIXEL_SHADING", 0x2000},
    Name{"EMIT_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO", 0x4000},
    Name{"CLEAR_UNORDERED_ACCESS_VIEW", 0x8000},
    Name{"VIDEO_DECODE", 0x100000},
    Name{"VIDEO_PROCESS", 0x200000},
    Name{"VIDEO_ENCODE", 0x400000},
    Name{"BUILD_RAYTRACING_ACCELERATION_STRUCTURE", 0x800000},
    Name{"COPY_RAYTRACING_ACCELERATION_STRUCTURE", 0x1000000},
    Name{"SPLIT", 0x80000000},
};

constexpr std::array kAccesses{
    Name{"COMMON", 0x0},
    Name{"VERTEX_BUFFER", 0x1},
    Name{"CONSTANT_BUFFER", 0x2},
    Name{"INDEX_BUFFER", 0x4},
    Name{"RENDER_TARGET", 0x8},
    Name{"UNORDERED_ACCESS", 0x10},
    Name{"DEPTH_STENCIL_WRITE", 0x20},
    Name{"DEPTH_STENCIL_READ", 0x40},
    Name{"SHADER_RESOURCE", 0x80},
    Name{"STREAM_OUTPUT", 0x100},
    Name{"INDIRECT_ARGUMENT", 0x200},
    Name{"PREDICATION", 0x200},
    Name{"COPY_DEST", 0x400},
    Name{"COPY_SOURCE", 0x800},
    Name{"RESOLVE_DEST", 0x1000},
    Name{"RESOLVE_SOURCE", 0x2000},
    Name{"RAYTRACING_ACCELERATION_STRUCTURE_READ", 0x4000},
    Name{"RAYTRACING_ACCELERATION_STRUCTURE_WRITE", 0x8000},
    Name{"SHADING_RATE_SOURCE", 0x10000},
    Name{"VIDEO_DECODE_READ", 0x20000},
    Name{"VIDEO_DECODE_WRITE", 0x40000},
    Name{"VIDEO_PROCESS_READ", 0x80000},
    Name{"VIDEO_PROCESS_WRITE", 0x100000},
    Name{"VIDEO_ENCODE_READ", 0x200000},
    Name{"VIDEO_ENCODE_WRITE", 0x400000},
    Name{"NO_ACCESS", 0x80000000},
};

constexpr std::array kLayouts{
    Name{"UNDEFINED", 0xffffffff},
    Name{"COMMON", 0},
    Name{"PRESENT", 0},
    Name{"GENERIC_READ", 1},
    Name{"RENDER_TARGET", 2},
    Name{"UNORDERED_ACCESS", 3},
    Name{"DEPTH_STENCIL_WRITE", 4},
    Name{"DEPTH_STENCIL_READ", 5},
    Name{"SHADER_RESOURCE", 6},
    Name{"COPY_SOURCE", 7},
    Name{"COPY_DEST", 8},
    Name{"RESOLVE_SOURCE", 9},
    Name{"RESOLVE_DEST", 10},
    Name{"SHADING_RATE_SOURCE", 11},
    Name{"VIDEO_DECODE_READ", 12},
    Name{"VIDEO_DECODE_WRITE", 13},
    Name{"VIDEO_PROCESS_READ", 14},
    Name{"VIDEO_PROCESS_WRITE", 15},
    Name{"VIDEO_ENCODE_READ", 16},
    Name{"VIDEO_ENCODE_WRITE", 17},
    Name{"DIRECT_QUEUE_COMMON", 18},
    Name{"DIRECT_QUEUE_GENERIC_READ", 19},
    Name{"DIRECT_QUEUE_UNORDERED_ACCESS", 20},
    Name{"DIRECT_QUEUE_SHADER_RESOURCE", 21},
    Name{"DIRECT_QUEUE_COPY_SOURCE", 22},
    Name{"DIRECT_QUEUE_COPY_DEST", 23},
    Name{"COMPUTE_QUEUE_COMMON", 24},
    Name{"COMPUTE_QUEUE_GENERIC_READ", 25},
    Name{"COMPUTE_QUEUE_UNORDERED_ACCESS", 26},
    Name{"COMPUTE_QUEUE_SHADER_RESOURCE", 27},
    Name{"COMPUTE_QUEUE_COPY_SOURCE", 28},
    Name{"COMPUTE_QUEUE_COPY_DEST", 29},
    Name{"VIDEO_QUEUE_COMMON", 30},
    // Newer than Debian's directx-headers 1.606 (DirectX-Headers d3d12.h, D3D12_BARRIER_LAYOUT).
    Name{"DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE", 31},
};
}  // namespace

std::span<const Name> d3d12_states() {
  return kStates;
}
std::span<const Name> d3d12_syncs() {
  return kSyncs;
}
std::span<const Name> d3d12_accesses() {
  return kAccesses;
}
std::span<const Name> d3d12_layouts() {
  return kLayouts;
}

}  // namespace baton::validate::names
