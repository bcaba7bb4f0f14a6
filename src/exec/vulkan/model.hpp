// The CPU reference model of the data check: what every subresource must contain after the work
// items run, computed with the same mixing function as the shaders. Texels whose value depends on
// undefined contents (a texture never written, a read of one) carry kUndefined and are not compared.
#pragma once

#include <map>
#include <vector>

#include "work.hpp"

namespace baton::exec {

inline constexpr uint64_t kUndefined = uint64_t{1} << 32;

// What the host writes into a buffer at creation (textures start undefined).
uint32_t initial_word(ResourceId r, uint32_t j, bool structural);
// The clear value a seeded texture subresource starts with (depth: depth_of(value), stencil 0).
uint32_t initial_texel(const Sub& s);

class Model {
 public:
  // `placed`: per resource, bound into shared memory (RunOptions::shared); such a resource starts
  // undefined (its memory is shared with others, so neither seeds nor initial words hold), except
  // the structural words of a structural buffer, which the executor keeps out of shared memory.
  Model(const std::vector<Geometry>& geo, bool seeded_textures, const std::vector<uint8_t>& placed = {});
  // Decides the read-modify-write bits of the item from what is defined now; call before apply.
  void prepare(Work& w) const;
  void apply(const Work& w);
  const std::vector<uint64_t>& at(const Sub& s) const { return data_.at(s); }

 private:
  std::vector<uint64_t>& ref(const Sub& s) { return data_.at(s); }
  uint64_t digest(uint64_t h, uint32_t j, const StageSet& set) const;
  void storage_writes(uint64_t base, const StageSet& set, uint32_t seed);
  uint32_t rmw_bits(const StageSet& set) const;
  void apply(const ComputeWork& w);
  void apply(const DrawPass& w);
  void apply(const CopyWork& w);
  void apply(const ClearWork& w);

  const std::vector<Geometry>& geo_;
  std::map<Sub, std::vector<uint64_t>> data_;
};

}  // namespace baton::exec
