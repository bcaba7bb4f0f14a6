#version 450
#include "common.glsl"
// The resolved colour plus bloom (mip 0 of the chain, half resolution), Reinhard, gamma 2.
layout(set = 0, binding = 0) uniform sampler2D u_history;
layout(set = 0, binding = 1) uniform sampler2D u_bloom;
layout(location = 0) out vec4 o_colour;
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  const vec3 c = texelFetch(u_history, p, 0).rgb + 0.6 * upsample(u_bloom, p);
  o_colour = vec4(sqrt(c / (1.0 + c)), 1.0);
}
