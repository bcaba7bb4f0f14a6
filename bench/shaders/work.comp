// One pass of the GPU frame benchmark (bench/gpu_frame.cpp): reads INPUTS sampled images (each
// at the texel matching this pixel's position, whatever its size), mixes them with `iterations`
// rounds of arithmetic, and writes every texel of its storage image. Compiled once per input count
// (glslc -DINPUTS=0..4): a statically used binding must be valid, so each pipeline declares only
// the inputs it reads.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
#if INPUTS > 0
layout(set = 0, binding = 1) uniform sampler2D in0;
#endif
#if INPUTS > 1
layout(set = 0, binding = 2) uniform sampler2D in1;
#endif
#if INPUTS > 2
layout(set = 0, binding = 3) uniform sampler2D in2;
#endif
#if INPUTS > 3
layout(set = 0, binding = 4) uniform sampler2D in3;
#endif
layout(set = 0, binding = 0, rgba16f) uniform writeonly image2D result;
layout(push_constant) uniform Push {
  ivec2 size;
  int iterations;
  float seed;
} pc;

vec4 fetch(sampler2D s, vec2 uv) {
  ivec2 n = textureSize(s, 0);
  return texelFetch(s, clamp(ivec2(uv * vec2(n)), ivec2(0), n - 1), 0);
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= pc.size.x || p.y >= pc.size.y) return;
  vec2 uv = (vec2(p) + 0.5) / vec2(pc.size);
  vec4 acc = vec4(uv, pc.seed, 1.0);
#if INPUTS > 0
  acc += fetch(in0, uv);
#endif
#if INPUTS > 1
  acc += fetch(in1, uv);
#endif
#if INPUTS > 2
  acc += fetch(in2, uv);
#endif
#if INPUTS > 3
  acc += fetch(in3, uv);
#endif
  for (int i = 0; i < pc.iterations; ++i) acc = fract(acc * 1.618034 + vec4(0.1234, 0.5678, 0.9101, 0.1121));
  imageStore(result, p, acc);
}
