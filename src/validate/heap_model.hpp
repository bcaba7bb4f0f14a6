// Heaps and placed resources: which resource occupies each byte range of each heap. A placed
// resource becomes the occupant of its bytes when it is activated (its first access, or an access
// that starts its contents over: a barrier from UNDEFINED, a D3D12 aliasing barrier naming it);
// the resources whose bytes it takes are its previous occupants, and each of them is *evicted*:
// any later access to it is a use after takeover (BATON-HEAP-USE-AFTER-TAKEOVER) until it is
// activated again. Shared by the Vulkan and D3D12 replays, which decide what an activation is and
// what orders a takeover after the previous occupants' last accesses.
#pragma once

#include <baton/validate.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace baton::validate {

class HeapModel {
 public:
  explicit HeapModel(const Trace& t);

  // A previous occupant and the bytes (of the new occupant's range) it held.
  struct Previous {
    int resource = kNoResource;
    uint64_t lo = 0, hi = 0;
  };
  // Who took a resource's memory since its activation (kNoResource: nobody) and the bytes.
  struct Eviction {
    int by = kNoResource;
    uint64_t lo = 0, hi = 0;
  };

  bool placed(int r) const { return res(r).placement.heap != kNotPlaced; }
  bool activated(int r) const { return activated_[static_cast<size_t>(r)]; }
  const Eviction& evicted(int r) const { return evicted_[static_cast<size_t>(r)]; }
  // `r` becomes the occupant of all its bytes; returns the other resources that held some of them
  // (one entry per resource, the union of the bytes it held), in resource order.
  std::vector<Previous> activate(int r);
  // "heap 'H' bytes [lo, hi)"
  std::string bytes(int r, uint64_t lo, uint64_t hi) const;

 private:
  const TraceResource& res(int r) const { return trace_.resources[static_cast<size_t>(r)]; }
  struct Segment {
    uint64_t hi;
    int occupant;
  };
  const Trace& trace_;
  std::vector<std::map<uint64_t, Segment>> heaps_;  // per heap: lo -> [lo, hi) held by occupant
  std::vector<bool> activated_;
  std::vector<Eviction> evicted_;
};

// Per submission, which earlier submissions are ordered before it (same queue, or through the
// semaphores it and its queue's earlier submissions waited for): [s][t].
std::vector<std::vector<bool>> submission_order(const Trace& t);

}  // namespace baton::validate
