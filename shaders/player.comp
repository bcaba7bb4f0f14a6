#version 450
// The trace player's one-access dispatches (src/exec/trace_player.cpp): each touches binding 0 in
// exactly one way, so that the synchronization validator records one access of one kind. Compiled
// with -O0 so that a read whose value is unused stays in the SPIR-V (the layer records the
// accesses of statically used descriptors).
layout(local_size_x = 1) in;
#if MODE == 0
layout(std430, set = 0, binding = 0) readonly buffer B { uint d[]; };
void main() { uint x = d[0]; }
#elif MODE == 1
layout(std430, set = 0, binding = 0) writeonly buffer B { uint d[]; };
void main() { d[0] = 1u; }
#elif MODE == 2
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D img;
void main() { uvec4 x = imageLoad(img, ivec2(0)); }
#elif MODE == 3
layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D img;
void main() { imageStore(img, ivec2(0), uvec4(1u)); }
#else
layout(set = 0, binding = 0) uniform usampler2D tex;
void main() { uvec4 x = texelFetch(tex, ivec2(0), 0); }
#endif
