// Which accesses make sense where, as data: per operation kind, and on a given resource. The
// loader checks every declared use against these before anything is planned, so a wrong
// declaration is reported where it was written rather than as a strange barrier later.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "baton/core.hpp"
#include "baton/record.hpp"

namespace baton::io {

inline constexpr int kOpKindCount = 8;

// Accesses each operation kind can perform (what the API commands behind it can touch).
inline constexpr std::array<AccessMask, kOpKindCount> kOpKindAccesses = {
    // draw: targets, depth, shader bindings, vertex/index/indirect input
    bit(Access::render_target) | bit(Access::depth_write) | bit(Access::depth_read) |
        bit(Access::shader_resource) | bit(Access::unordered_access) | bit(Access::constant_buffer) |
        bit(Access::vertex_buffer) | bit(Access::index_buffer) | bit(Access::indirect_argument),
    // dispatch: shader bindings and indirect arguments only
    bit(Access::shader_resource) | bit(Access::unordered_access) | bit(Access::constant_buffer) |
        bit(Access::indirect_argument),
    // copy
    bit(Access::copy_source) | bit(Access::copy_dest),
    // clear: render-target / depth-stencil / UAV clears, and transfer clears (Vulkan vkCmdClear*Image)
    bit(Access::render_target) | bit(Access::depth_write) | bit(Access::unordered_access) |
        bit(Access::copy_dest),
    // resolve
    bit(Access::resolve_source) | bit(Access::resolve_dest),
    // present
    bit(Access::present),
    // external: work Baton does not see (another renderer, the host): anything
    ~AccessMask{0},
    // transition: no work, only states to be in: anything a barrier can name
    ~AccessMask{0},
};

// Why `a` cannot be used on resource `d` (buffer/texture class, format class, creation usage,
// swapchain), or nullopt when it can.
std::optional<std::string> access_problem(const ResourceDesc& d, Access a);

}  // namespace baton::io
