#version 450
// Vertex stage of a draw: a full-screen triangle (vertex indices 0, 1, 2, which is also what the
// executor's structural index buffers hold). Vertex-stage reads feed the flat digest `vd`.
#define SET 0
#include "op_common.glsl"
layout(location = 0) in uint vattr;
layout(location = 0) flat out uint vd;
void main() {
  uint idx = uint(gl_VertexIndex);
  gl_Position = vec4(float((idx << 1) & 2u) * 2.0 - 1.0, float(idx & 2u) * 2.0 - 1.0, 0.5, 1.0);
  uint base = bmix(pc.seed, 0x55u);
  if ((pc.flags & kFlagVertexAttr) != 0u) base = bmix(base, vattr);
  vd = digest(base, 0u, 0u);
  // Vertex invocations may run more than once, so vertex-stage storage writes never read back
  // (the executor clears the read-modify-write bits of stage 0 for draws).
  if ((pc.flags & kFlagStorageWrites) != 0u) storage_writes(base, 0u, 0u, 1u);
}
