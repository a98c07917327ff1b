#pragma once
// The allocator of a file's event array. A big array is filled once from start to
// end, and first-touch page faults of 4 KiB pages cost about 10 µs each on a virtual
// machine (1,200 of them for the events of one 34 MB trace, a tenth of the run), so
// arrays of 4 MiB or more are 2 MiB-aligned and asked to use transparent huge pages.
// Where the kernel does not offer them nothing changes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tracediff::model {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t k_huge = std::size_t{2} << 20;
  static constexpr std::size_t k_threshold = std::size_t{4} << 20;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < k_threshold) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + k_huge - 1) / k_huge * k_huge;
    void* p = std::aligned_alloc(k_huge, rounded);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < k_threshold) ::operator delete(p);
    else std::free(p);
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace tracediff::model
