// Enhanced barriers (ID3D12GraphicsCommandList7::Barrier): value checks that need no state, then
// per subresource: legacy interop, split halves, SyncBefore NONE, NO_ACCESS, sync chaining and
// LayoutBefore.
#include <fmt/format.h>

#include <bit>

#include "d3d12_replay.hpp"

namespace baton::validate::d3d12 {

namespace {
bool same_halves(const EnhancedBarrier& a, const EnhancedBarrier& b) {
  return a.layout_before == b.layout_before && a.layout_after == b.layout_after &&
         a.access_before == b.access_before && a.access_after == b.access_after;
}
}  // namespace

// Checks on the barrier's own values (no shadow state needed).
void Replay::enhanced_checks(const EnhancedBarrier& b) {
  const int r = b.resource;
  const bool texture = b.kind == EnhancedKind::texture;
  struct Side {
    const char* name;
    uint32_t sync, access, layout;
  };
  const Side sides[2] = {{"Before", b.sync_before, b.access_before, b.layout_before},
                         {"After", b.sync_after, b.access_after, b.layout_after}};
  for (const Side& s : sides) {
    // 1331: SPLIT and NO_ACCESS stand alone; SyncX NONE requires AccessX NO_ACCESS.
    if ((s.sync & sy::split) != 0 && s.sync != sy::split)
      out_.report(MessageId::incompatible_barrier_values, r, -1, "SPLIT must stand alone",
                  fmt::format("Sync{} {}", s.name, sync_name(s.sync)));
    if ((s.access & ac::no_access) != 0 && s.access != ac::no_access)
      out_.report(MessageId::incompatible_barrier_values, r, -1, "NO_ACCESS must stand alone",
                  fmt::format("Access{} {}", s.name, access_name(s.access)));
    if (s.sync == sy::none && s.access != ac::no_access)
      out_.report(MessageId::incompatible_barrier_values, r, -1,
                  fmt::format("Sync{} NONE requires Access{} NO_ACCESS", s.name, s.name),
                  fmt::format("Access{} {}", s.name, access_name(s.access)));
    // 1333: every access bit needs a sync in which it can happen.
    if (s.sync != sy::split && s.sync != sy::none && s.access != ac::no_access) {
      const uint32_t syncs = expand_sync(s.sync) | s.sync;
      for (uint32_t rest = s.access; rest != 0; rest &= rest - 1) {
        const uint32_t bit = rest & (~rest + 1);
        if ((syncs & compatible_syncs(bit)) == 0)
          out_.report(MessageId::incompatible_barrier_sync, r, -1,
                      fmt::format("Access{} {}", s.name, access_name(bit)),
                      fmt::format("Sync{} {}", s.name, sync_name(s.sync)));
      }
    }
    if (!sync_allowed_on(list_type_, s.sync))
      out_.report(MessageId::incompatible_barrier_sync, r, -1, "this list type",
                  fmt::format("Sync{} {}", s.name, sync_name(s.sync)));
    if (!access_allowed_on(list_type_, s.access))
      out_.report(MessageId::incompatible_barrier_access, r, -1, "this list type",
                  fmt::format("Access{} {}", s.name, access_name(s.access)));
    if (!texture) continue;
    // 1332: the layout limits the accesses (UNDEFINED: NO_ACCESS unless both sides are UNDEFINED).
    const bool both_undefined = b.layout_before == ly::undefined && b.layout_after == ly::undefined;
    if (!both_undefined && s.access != ac::no_access) {
      const uint32_t allowed = s.layout == ly::undefined ? 0 : allowed_accesses(s.layout);
      if ((s.access & ~ac::no_access & ~allowed) != 0 || s.layout == ly::undefined)
        out_.report(MessageId::incompatible_barrier_access, r, -1,
                    fmt::format("Layout{} {}", s.name, layout_name(s.layout)),
                    fmt::format("Access{} {}", s.name, access_name(s.access)));
    }
    if (!layout_allowed_on(list_type_, s.layout))
      out_.report(MessageId::unsupported_barrier_layout, r, -1,
                  list_type_ == QueueType::copy ? "COMMON"
                  : list_type_ == QueueType::compute
                      ? "COMMON, GENERIC_READ, UNORDERED_ACCESS, SHADER_RESOURCE, COPY_*, COMPUTE_QUEUE_*"
                      : "non-compute-queue layouts",
                  layout_name(s.layout));
  }
  // Only direct lists transition into or out of DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE
  // (a compute list may name it on both sides: a sync/access-only barrier, no transition).
  if (texture && b.layout_before != b.layout_after) {
    for (const uint32_t l : {b.layout_before, b.layout_after}) {
      if (!layout_transition_allowed_on(list_type_, l))
        out_.report(MessageId::unsupported_barrier_layout, r, -1,
                    "transitions into or out of it on direct lists only", layout_name(l));
    }
  }
  if (texture && b.discard && b.layout_before != ly::undefined)
    out_.report(MessageId::texture_barrier_invalid_flags, r, -1, "UNDEFINED", layout_name(b.layout_before));
}

void Replay::enhanced_barrier(const EnhancedBarrier& b) {
  if (b.kind != EnhancedKind::global) {
    const TraceResource& r = res(b.resource);
    if (r.buffer != (b.kind == EnhancedKind::buffer)) {
      out_.report(MessageId::incompatible_barrier_type, b.resource, -1, r.buffer ? "buffer" : "texture",
                  b.kind == EnhancedKind::buffer ? "buffer" : "texture");
      return;
    }
  }
  enhanced_checks(b);
  if (b.kind == EnhancedKind::global) return;
  const TraceResource& r = res(b.resource);
  Subresources target;
  if (b.kind == EnhancedKind::texture && !b.range.all && b.range.mips == 0) {
    // Enhanced Barriers spec, D3D12_BARRIER_SUBRESOURCE_RANGE: NumMipLevels 0 means
    // IndexOrFirstMipLevel is a subresource index; the other fields are ignored.
    if (b.range.mip0 >= r.subresource_count()) {
      out_.report(MessageId::texture_barrier_subresources_out_of_bounds, b.resource, -1,
                  fmt::format("{} subresources", r.subresource_count()),
                  fmt::format("subresource index {} (NumMipLevels 0)", b.range.mip0));
      return;
    }
    target.index = b.range.mip0;
  } else if (b.kind == EnhancedKind::texture && !b.range.all) {
    auto count = [](uint32_t first, uint32_t n, uint32_t size) {
      return n == 0xffffffffu ? (first < size ? size - first : 0) : n;
    };
    TraceRange range = b.range;
    range.mips = count(range.mip0, range.mips, r.mips);
    range.layers = count(range.layer0, range.layers, r.layers);
    range.planes = count(range.plane0, range.planes, r.planes);
    auto inside = [](uint32_t first, uint32_t n, uint32_t size) {
      return n > 0 && first < size && n <= size - first;
    };
    if (!inside(range.mip0, range.mips, r.mips) || !inside(range.layer0, range.layers, r.layers) ||
        !inside(range.plane0, range.planes, r.planes)) {
      out_.report(MessageId::texture_barrier_subresources_out_of_bounds, b.resource, -1,
                  fmt::format("{} mips, {} layers, {} planes", r.mips, r.layers, r.planes),
                  fmt::format("mips [{},{}) layers [{},{}) planes [{},{})", b.range.mip0,
                              uint64_t{b.range.mip0} + range.mips, b.range.layer0,
                              uint64_t{b.range.layer0} + range.layers, b.range.plane0,
                              uint64_t{b.range.plane0} + range.planes));
      return;
    }
    target.range = range;
  }
  for (const auto& [lo, hi] : intervals(r, target)) {
    touch(b.resource, lo, hi);
    shadows(b.resource).update(lo, hi, [&](uint32_t sub, uint32_t n, Shadow& sh) {
      enhanced_apply(b, b.resource, sub, n, sh);
    });
    shadows(b.resource).coalesce(lo, hi);
  }
}

void Replay::enhanced_apply(const EnhancedBarrier& b, int resource, uint32_t sub, uint32_t n, Shadow& sh) {
  const bool texture = b.kind == EnhancedKind::texture;
  out_.visit(resource, sub, n);
  enter_copy_queue(resource, sub, n, sh);
  if (!sh.enhanced) {
    // 1351: a legacy state other than COMMON must be returned to COMMON first.
    if (sh.state != st::common)
      out_.report(MessageId::barrier_interop_invalid_state, resource, sub, "COMMON", state_name(sh.state), n);
    sh.enhanced = true;
    sh.layout = sh.state == st::common ? ly::common : b.layout_before;
  }
  if (b.sync_before == sy::split) {  // second half of a split barrier
    if (!sh.pending && class_of(res(resource)) != Class::texture) {
      // Enhanced Barriers spec, "Split Barriers": on a buffer or simultaneous-access texture an
      // unmatched END in this ExecuteCommandLists is unused (a warning) and does nothing.
      out_.report(MessageId::unused_cross_execute_split_barrier, resource, sub,
                  "a buffer or simultaneous-access texture", "SyncBefore SPLIT (ended, never begun here)", n);
      return;
    }
    if (!sh.pending || !sh.pending_is_enhanced) {
      out_.report(MessageId::barrier_unmatched_end, resource, sub, "", "SyncBefore SPLIT", n);
    } else if (!same_halves(sh.pending_enhanced, b)) {
      out_.report(MessageId::barrier_mismatching_begin_end, resource, sub,
                  "identical layouts and accesses in both halves",
                  fmt::format("{} -> {}", access_name(b.access_before), access_name(b.access_after)), n);
    }
  } else {
    if (sh.pending) {
      out_.report(MessageId::barrier_invalid_split_barrier, resource, sub,
                  "only its second half may come next", "another barrier", n);
    }
    // 1417: SyncBefore NONE only on the first touch in this ECL; NO_ACCESS needs AccessBefore NO_ACCESS.
    if (b.sync_before == sy::none && sh.touched) {
      out_.report(MessageId::invalid_barrier_access, resource, sub,
                  "NONE is only for the first touch in an ExecuteCommandLists",
                  "SyncBefore NONE after an earlier access or barrier", n);
    } else if (sh.no_access && b.access_before != ac::no_access) {
      out_.report(MessageId::invalid_barrier_access, resource, sub, "AccessBefore NO_ACCESS",
                  fmt::format("AccessBefore {} on a NO_ACCESS subresource", access_name(b.access_before)), n);
    }
    // 1333 (Enhanced Barriers spec, "Sequential Barriers"): any barrier after another on the same
    // subresource in the same ExecuteCommandLists must have a SyncBefore that contains the earlier
    // SyncAfter, whatever commands come in between.
    if (sh.has_prev_sync && b.sync_before != sy::none &&
        (expand_sync(sh.prev_sync_after) & ~expand_sync(b.sync_before)) != 0)
      out_.report(MessageId::incompatible_barrier_sync, resource, sub,
                  fmt::format("the previous SyncAfter {}", sync_name(sh.prev_sync_after)),
                  fmt::format("SyncBefore {}", sync_name(b.sync_before)), n);
    // 1334: LayoutBefore must be the real layout (UNDEFINED accepts any, discarding contents).
    if (texture && b.layout_before != ly::undefined && b.layout_before != sh.layout)
      out_.report(MessageId::incompatible_barrier_layout, resource, sub, layout_name(b.layout_before),
                  layout_name(sh.layout), n);
  }
  sh.touched = true;
  if (b.sync_after == sy::split) {
    sh.pending = true;
    sh.pending_is_enhanced = true;
    sh.pending_enhanced = b;
    sh.has_prev_sync = false;
    return;
  }
  sh.pending = false;
  if (texture) sh.layout = b.layout_after;
  sh.no_access = b.access_after == ac::no_access;
  sh.has_prev_sync = true;
  sh.prev_sync_after = b.sync_after;
  if (b.discard) sh.needs_init = false;
}

}  // namespace baton::validate::d3d12
