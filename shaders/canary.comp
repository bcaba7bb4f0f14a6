#version 450
// The oracle's canary: dst = f(src). Run twice, src0 -> a then a -> b, with the barrier between
// them left out on purpose: a live synchronization validator reports exactly one
// read-after-write (on a). Bindings are readonly/writeonly so that the layer sees one read and
// one write, not two writes.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint d[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  d[i] = s[i] * 2u + 1u;
}
