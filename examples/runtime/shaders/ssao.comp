#version 450
#include "common.glsl"
// Screen-space ambient occlusion: the fraction of 8 fixed neighbours (pushed out along the normal)
// that lie in front of the pixel by a little, from the depth buffer. Integer offsets only.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D u_depth;
layout(set = 0, binding = 1) uniform sampler2D u_normal;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D u_ao;
void main() {
  const ivec2 size = imageSize(u_ao), p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, size))) return;
  const vec4 n = texelFetch(u_normal, p, 0);
  if (n.a == 0.0) {
    imageStore(u_ao, p, vec4(1.0));
    return;
  }
  const float zc = linear_depth(texelFetch(u_depth, p, 0).r);
  const ivec2 centre = p + ivec2(round(vec2(n.x, -n.y) * 2.0));
  const ivec2 offsets[8] = ivec2[](ivec2(5, 0), ivec2(-5, 0), ivec2(0, 5), ivec2(0, -5), ivec2(4, 4),
                                   ivec2(-4, 4), ivec2(4, -4), ivec2(-4, -4));
  float occluded = 0.0;
  for (int i = 0; i < 8; ++i) {
    const ivec2 q = clamp(centre + offsets[i], ivec2(0), size - 1);
    const float dz = zc - linear_depth(texelFetch(u_depth, q, 0).r);
    if (dz > 0.05 && dz < 1.5) occluded += 1.0;
  }
  imageStore(u_ao, p, vec4(1.0 - 0.7 * occluded / 8.0));
}
