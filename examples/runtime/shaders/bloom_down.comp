#version 450
// One step of the bloom mip chain: each texel of the destination mip is the average of the 2x2
// source texels under it; the first step (PREFILTER) keeps only what is brighter than 1.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D u_src;  // a view of one mip (or the HDR image)
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D u_dst;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_dst)))) return;
  vec3 sum = vec3(0.0);
  for (int i = 0; i < 4; ++i) {
    vec3 c = texelFetch(u_src, 2 * p + ivec2(i & 1, i >> 1), 0).rgb;
#ifdef PREFILTER
    c = max(c - vec3(1.0), vec3(0.0));
#endif
    sum += c;
  }
  imageStore(u_dst, p, vec4(sum * 0.25, 1.0));
}
