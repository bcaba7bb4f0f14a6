#version 450
// Compute work of one operation (dispatch, or a clear through unordered access).
#define SET 0
#include "op_common.glsl"
layout(local_size_x = 64) in;
void main() {
  uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
  uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
  uint base = spin(pc.seed);
  if ((pc.flags & kFlagIndirect) != 0u)
    base = bmix(bmix(bmix(base, gl_NumWorkGroups.x), gl_NumWorkGroups.y), gl_NumWorkGroups.z);
  storage_writes(base, 0u, group * 64u + gl_LocalInvocationID.x, groups * 64u);
}
