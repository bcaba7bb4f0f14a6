#version 450
// Temporal accumulation into the persistent history image (read and written in place): the
// history clamped to the 3x3 neighbourhood of the current frame, blended with it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform Push { uint first; } pc;  // 1 on the first frame: no history yet
layout(set = 0, binding = 0) uniform sampler2D u_current;
layout(set = 0, binding = 1, rgba16f) uniform image2D u_history;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy), size = imageSize(u_history);
  if (any(greaterThanEqual(p, size))) return;
  const vec3 c = texelFetch(u_current, p, 0).rgb;
  if (pc.first != 0u) {  // the history is undefined (imported undefined): not read
    imageStore(u_history, p, vec4(c, 1.0));
    return;
  }
  vec3 lo = c, hi = c;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) {
      const vec3 s = texelFetch(u_current, clamp(p + ivec2(x, y), ivec2(0), size - 1), 0).rgb;
      lo = min(lo, s);
      hi = max(hi, s);
    }
  const vec3 h = clamp(imageLoad(u_history, p).rgb, lo, hi);
  imageStore(u_history, p, vec4(mix(h, c, 0.25), 1.0));
}
