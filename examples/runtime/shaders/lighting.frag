#version 450
// Deferred lighting: one directional light, ambient scaled by SSAO, emissive surfaces, a sky.
layout(set = 0, binding = 0) uniform sampler2D u_albedo;
layout(set = 0, binding = 1) uniform sampler2D u_normal;
layout(set = 0, binding = 2) uniform sampler2D u_depth;
layout(set = 0, binding = 3) uniform sampler2D u_ao;
layout(location = 0) out vec4 o_hdr;
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  const float d = texelFetch(u_depth, p, 0).r;
  if (d == 1.0) {
    const float t = gl_FragCoord.y / float(textureSize(u_depth, 0).y);
    o_hdr = vec4(mix(vec3(0.35, 0.5, 0.8), vec3(0.1, 0.15, 0.3), t), 1.0);
    return;
  }
  const vec4 a = texelFetch(u_albedo, p, 0);
  const vec3 n = texelFetch(u_normal, p, 0).xyz;
  const float ao = texelFetch(u_ao, p, 0).r;
  const vec3 l = normalize(vec3(0.4, 0.8, 0.45));
  const vec3 lit = a.rgb * (0.5 * ao + 0.9 * max(dot(n, l), 0.0));
  o_hdr = vec4(a.a > 0.5 ? a.rgb * 4.0 : lit, 1.0);
}
