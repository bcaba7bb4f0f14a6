#version 450
// Fragment stage of a draw: NCOLOR uint outputs, optional depth, fragment-stage reads and storage
// writes (each texel by exactly one pixel of the render area).
#define SET 1
#include "op_common.glsl"
layout(location = 0) flat in uint vd;
#if NCOLOR > 0
layout(location = 0) out uint c0;
#endif
#if NCOLOR > 1
layout(location = 1) out uint c1;
#endif
#if NCOLOR > 2
layout(location = 2) out uint c2;
#endif
#if NCOLOR > 3
layout(location = 3) out uint c3;
#endif
void main() {
  uvec2 p = uvec2(gl_FragCoord.xy);
  uint j = p.y * pc.area_w + p.x;
  uint dg = digest(spin(vd), j, 1u);
#if NCOLOR > 0
  c0 = bmix(dg, out_seed(16u));
#endif
#if NCOLOR > 1
  c1 = bmix(dg, out_seed(17u));
#endif
#if NCOLOR > 2
  c2 = bmix(dg, out_seed(18u));
#endif
#if NCOLOR > 3
  c3 = bmix(dg, out_seed(19u));
#endif
  if ((pc.flags & kFlagDepth) != 0u) gl_FragDepth = float(bmix(dg, out_seed(24u)) >> 16) / 65536.0;
  if ((pc.flags & kFlagStorageWrites) != 0u) storage_writes(vd, 1u, j, pc.area_w * pc.area_h);
}
