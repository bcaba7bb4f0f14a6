// Counts the heap blocks a test binary takes through operator new: include this header in exactly one
// translation unit of the binary (it defines the replaceable allocation functions). Every plain and
// nothrow form, single and array, is replaced together, so that no block taken with one form (the
// standard library's std::get_temporary_buffer uses the nothrow new) is given back through another
// allocator's delete (AddressSanitizer reports that as alloc-dealloc-mismatch).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace baton::test {
// Atomic: the binaries that count also record frames on several threads (ThreadSanitizer runs them).
inline std::atomic<uint64_t> heap_block_count{0};
// Heap blocks taken so far by this binary.
inline uint64_t heap_blocks() { return heap_block_count.load(std::memory_order_relaxed); }
inline void* take_heap_block(std::size_t n) noexcept {
  heap_block_count.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace baton::test

// GCC 12 sees these operator new (malloc) inlined into a sized delete (free) of an including test's
// vectors and warns (-Wmismatched-new-delete); the two do match: every form is replaced together.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
  if (void* p = baton::test::take_heap_block(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = baton::test::take_heap_block(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return baton::test::take_heap_block(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return baton::test::take_heap_block(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
