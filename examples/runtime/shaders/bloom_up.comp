#version 450
#include "common.glsl"
// The way back up the chain: each texel of mip i adds mip i+1, upsampled, to what it holds.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D u_small;       // mip i+1
layout(set = 0, binding = 1, rgba16f) uniform image2D u_big;  // mip i, read and written
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_big)))) return;
  imageStore(u_big, p, vec4(imageLoad(u_big, p).rgb + upsample(u_small, p), 1.0));
}
