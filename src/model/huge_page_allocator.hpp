#pragma once
// The allocator of a file's event array. A big array is filled once from start to
// end, and first-touch page faults of 4 KiB pages cost about 13 µs each on a virtual
// machine (1,200 of them for the events of one 34 MB trace, a tenth of the run).
// Arrays of 4 MiB or more come from the heap as usual; from their first 2 MiB
// boundary on they are asked to use transparent huge pages, and the pages before it,
// written first, are mapped up front (MADV_POPULATE_WRITE: about 1.4 µs a page).
// Not aligned_alloc: it leaves the unused stretch before an aligned block (0 to 2 MiB,
// wherever the heap happens to be) as a free chunk that later small allocations,
// such as the comparison's, take and then fault in page by page. Where the kernel
// offers neither advice, nothing changes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
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
    void* p = ::operator new(bytes);
    if (bytes >= k_threshold) advise(reinterpret_cast<std::uintptr_t>(p), bytes);
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p); }

  // Advice only: failure changes nothing.
  static void advise([[maybe_unused]] std::uintptr_t begin, [[maybe_unused]] std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t k_page = 4096;
    constexpr int k_populate_write = 23;  // MADV_POPULATE_WRITE, Linux 5.14
    const std::uintptr_t end = begin + bytes;
    const std::uintptr_t huge = (begin + k_huge - 1) / k_huge * k_huge;
    // A file's events fill about half of what is reserved for them: map no more.
    const std::uintptr_t head_end = std::min(huge, begin + bytes / 4);
    const std::uintptr_t head = begin / k_page * k_page;
    if (head_end > head) madvise(reinterpret_cast<void*>(head), head_end - head, k_populate_write);
    if (end > huge + k_huge) madvise(reinterpret_cast<void*>(huge), (end - huge) / k_huge * k_huge, MADV_HUGEPAGE);
#endif
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace tracediff::model
