// Shared by the sample's shaders: the camera (view space, y up, looking down -z) and its depth.
const float kFocal = 1.7320508;  // 1 / tan(30 degrees): a 60-degree vertical field of view
const float kNear = 0.5;
const float kFar = 50.0;
const float kDepthA = kFar / (kNear - kFar);
const float kDepthB = kNear * kFar / (kNear - kFar);
// View-space distance (along -z) of a depth-buffer value: 0 is the near plane, 1 the far plane.
float linear_depth(float d) { return kDepthB / (kDepthA + d); }

// Bilinear 2x upsampling of `small` at full-resolution texel p with the fixed weights 9/16, 3/16,
// 3/16, 1/16 (texel centres fall a quarter texel from the small texels'): no hardware filtering,
// so every device computes the same sums.
vec3 upsample(sampler2D small, ivec2 p) {
  const ivec2 size = textureSize(small, 0), q = p >> 1, o = (p & 1) * 2 - 1;
  const ivec2 qx = clamp(q + ivec2(o.x, 0), ivec2(0), size - 1), qy = clamp(q + ivec2(0, o.y), ivec2(0), size - 1);
  const ivec2 qxy = clamp(q + o, ivec2(0), size - 1);
  return (9.0 * texelFetch(small, q, 0).rgb + 3.0 * texelFetch(small, qx, 0).rgb + 3.0 * texelFetch(small, qy, 0).rgb +
          texelFetch(small, qxy, 0).rgb) / 16.0;
}
