#version 450
#include "common.glsl"
// A procedural scene in view space: a floor, a back wall and three pyramids (one emissive).
// Triangle t is vertices 3t..3t+2; its face normal is computed from the three corners.
layout(push_constant) uniform Push { vec2 jitter; } pc;  // sub-pixel offset in NDC (TAA)
layout(location = 0) flat out vec3 v_normal;
layout(location = 1) flat out vec4 v_albedo;  // a = 1: emissive

const int kPyramids = 3;
const vec4 kPyramid[kPyramids] = vec4[](vec4(-1.6, -1.0, -6.0, 1.1),  // base centre xyz, half size
                                        vec4(0.4, -1.0, -4.5, 0.8), vec4(1.9, -1.0, -7.5, 1.3));
const vec4 kPyramidColour[kPyramids] = vec4[](vec4(0.85, 0.25, 0.2, 0.0), vec4(1.0, 0.8, 0.35, 1.0),
                                              vec4(0.25, 0.55, 0.9, 0.0));

vec3 corner(int tri, int k, out vec4 albedo) {
  if (tri < 4) {  // floor (0, 1) and back wall (2, 3)
    const vec3 floor_q[4] = vec3[](vec3(-5, -1, -1), vec3(5, -1, -1), vec3(5, -1, -10), vec3(-5, -1, -10));
    const vec3 wall_q[4] = vec3[](vec3(-5, -1, -10), vec3(5, -1, -10), vec3(5, 4, -10), vec3(-5, 4, -10));
    const int idx[6] = int[](0, 1, 2, 0, 2, 3);
    const int i = idx[(tri & 1) * 3 + k];
    albedo = tri < 2 ? vec4(0.6, 0.6, 0.55, 0.0) : vec4(0.45, 0.5, 0.45, 0.0);
    return tri < 2 ? floor_q[i] : wall_q[i];
  }
  const int p = (tri - 4) / 4, side = (tri - 4) % 4;
  const vec4 b = kPyramid[p];
  albedo = kPyramidColour[p];
  const vec2 dirs[4] = vec2[](vec2(-1, 0), vec2(0, -1), vec2(1, 0), vec2(0, 1));
  if (k == 2) return b.xyz + vec3(0, 2.0 * b.w, 0);  // apex
  const vec2 d = dirs[(side + k) % 4] * b.w;
  return b.xyz + vec3(d.x, 0, d.y);
}

void main() {
  const int tri = gl_VertexIndex / 3, k = gl_VertexIndex % 3;
  vec4 albedo;
  const vec3 p0 = corner(tri, 0, albedo), p1 = corner(tri, 1, albedo), p2 = corner(tri, 2, albedo);
  vec3 n = normalize(cross(p1 - p0, p2 - p0));
  if (dot(n, -(p0 + p1 + p2)) < 0.0) n = -n;  // face the camera
  const vec3 p = k == 0 ? p0 : (k == 1 ? p1 : p2);
  v_normal = n;
  v_albedo = albedo;
  const float w = -p.z;
  gl_Position = vec4(kFocal * p.x + pc.jitter.x * w, -kFocal * p.y + pc.jitter.y * w, kDepthA * p.z + kDepthB, w);
}
