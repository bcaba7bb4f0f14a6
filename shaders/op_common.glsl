// Shared by every shader of the Vulkan executor. The data check depends on this file and on
// src/exec/vulkan_model.cpp computing exactly the same function: keep them in step.
//
// Each stage sees one descriptor set (SET) with six arrays of MAXB slots. lavapipe offers neither
// dynamic indexing of image/texel-buffer arrays nor partially bound descriptors, so every slot is
// indexed by a constant (the EACH macro unrolls) and every slot holds a descriptor (unused ones
// point at dummies the executor owns).
#define MAXB 6

layout(set = SET, binding = 0) uniform usamplerBuffer srv_buf[MAXB];
layout(set = SET, binding = 1) uniform usampler2D srv_tex[MAXB];
layout(set = SET, binding = 2) uniform sampler2D srv_depth[MAXB];
layout(set = SET, binding = 3) uniform CB { uvec4 v[16]; } cbs[MAXB];
layout(set = SET, binding = 4) buffer SB { uint d[]; } uav_buf[MAXB];
layout(set = SET, binding = 5, r32ui) uniform uimage2D uav_tex[MAXB];

// counts[s]: 4 bits per category for stage s (0 = vertex or compute, 1 = fragment):
// srv_buf, srv_tex, srv_depth, cbs, uav_buf, uav_tex. masks[s]: bit k = uav_buf k is a buffer
// whose first 16 words hold fixed draw/dispatch/index arguments; bit 8+k / 16+k = uav_buf k /
// uav_tex k reads its old value (read-modify-write; only where the old value is defined).
layout(push_constant) uniform PC {
  uint seed;
  uint flags;
  uint counts[2];
  uint masks[2];
  uint area_w;
  uint area_h;
  uint spin;  // extra ALU iterations per invocation (bench/gpu_barrier_cost); results unchanged
} pc;

const uint kFlagStorageWrites = 2u;  // this pass performs the storage writes of the operation
const uint kFlagVertexAttr = 4u;     // the vertex attribute is a declared vertex_buffer read
const uint kFlagIndirect = 8u;       // the dispatch was indirect: its group counts are inputs
const uint kFlagDepth = 16u;         // a depth attachment is bound: write gl_FragDepth

const uint kStructWords = 16u;
const uint kStruct[16] = uint[16](0u, 1u, 2u, 0u, 3u, 1u, 0u, 0u, 0u, 1u, 1u, 1u, 0u, 0u, 0u, 0u);

uint bmix(uint h, uint v) {
  h ^= v;
  h *= 0x9E3779B1u;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  return h;
}

// Makes an operation take longer without changing what it writes: `pc.spin` rounds of mixing whose
// result is folded in only for a spin count nobody uses (the compiler cannot drop the loop).
uint spin(uint h) {
  uint acc = h;
  for (uint i = 0u; i < pc.spin; ++i) acc = bmix(acc, i);
  return pc.spin == 0xFFFFFFFFu ? acc : h;
}

uint count_of(uint s, uint category) { return (pc.counts[s] >> (4u * category)) & 15u; }

#define EACH(F) F(0) F(1) F(2) F(3) F(4) F(5)

// The digest of everything the stage reads, at abstract texel index j (each input is read at
// j modulo its own texel count, in category then slot order).
uint digest(uint h, uint j, uint s) {
#define READ_BUF(k) if (k < count_of(s, 0u)) { uint n = uint(textureSize(srv_buf[k])); h = bmix(h, texelFetch(srv_buf[k], int(j % n)).x); }
#define READ_TEX(k) if (k < count_of(s, 1u)) { ivec2 z = textureSize(srv_tex[k], 0); uint t = j % uint(z.x * z.y); h = bmix(h, texelFetch(srv_tex[k], ivec2(int(t % uint(z.x)), int(t / uint(z.x))), 0).x); }
#define READ_DEPTH(k) if (k < count_of(s, 2u)) { ivec2 z = textureSize(srv_depth[k], 0); uint t = j % uint(z.x * z.y); h = bmix(h, floatBitsToUint(texelFetch(srv_depth[k], ivec2(int(t % uint(z.x)), int(t / uint(z.x))), 0).x)); }
#define READ_CB(k) if (k < count_of(s, 3u)) { uint t = j % 64u; h = bmix(h, cbs[k].v[t >> 2][t & 3u]); }
  EACH(READ_BUF)
  EACH(READ_TEX)
  EACH(READ_DEPTH)
  EACH(READ_CB)
  return h;
}

uint out_seed(uint slot) { return bmix(pc.seed, 0x100u + slot); }

// Storage outputs: invocation `first` of `stride` handles texels first, first + stride, ... of
// every output. Buffer k gets output slot k, image k slot 8 + k. The digest is computed once per
// texel index and shared by all outputs (keeps the shader small enough for lavapipe to compile fast).
uint storage_len(uint s) {
  uint n = 0u;
#define LEN_BUF(k) if (k < count_of(s, 4u)) n = max(n, uint(uav_buf[k].d.length()));
#define LEN_TEX(k) if (k < count_of(s, 5u)) { ivec2 z = imageSize(uav_tex[k]); n = max(n, uint(z.x * z.y)); }
  EACH(LEN_BUF)
  EACH(LEN_TEX)
  return n;
}

void storage_writes(uint base, uint s, uint first, uint stride) {
  uint n = storage_len(s);
  for (uint j = first; j < n; j += stride) {
    uint dg = digest(base, j, s);
#define WRITE_BUF(k) if (k < count_of(s, 4u) && j < uint(uav_buf[k].d.length())) { \
      uint v; \
      if (((pc.masks[s] >> uint(k)) & 1u) != 0u && j < kStructWords) v = kStruct[j]; \
      else { v = bmix(dg, out_seed(uint(k))); if (((pc.masks[s] >> (8u + uint(k))) & 1u) != 0u) v = bmix(v, uav_buf[k].d[j]); } \
      uav_buf[k].d[j] = v; }
#define WRITE_TEX(k) if (k < count_of(s, 5u)) { \
      ivec2 z = imageSize(uav_tex[k]); \
      if (j < uint(z.x * z.y)) { \
        ivec2 p = ivec2(int(j % uint(z.x)), int(j / uint(z.x))); \
        uint v = bmix(dg, out_seed(8u + uint(k))); \
        if (((pc.masks[s] >> (16u + uint(k))) & 1u) != 0u) v = bmix(v, imageLoad(uav_tex[k], p).x); \
        imageStore(uav_tex[k], p, uvec4(v)); } }
    EACH(WRITE_BUF)
    EACH(WRITE_TEX)
  }
}
