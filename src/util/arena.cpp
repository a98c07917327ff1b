#include "util/arena.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace tracediff {

namespace {

constexpr std::size_t k_huge = std::size_t{2} << 20;
std::size_t round_up(std::size_t n) { return (n + k_huge - 1) / k_huge * k_huge; }

// A 2 MiB-aligned mapping of `len` bytes (a multiple of 2 MiB), its first `huge` bytes
// on huge pages: a huge page more is mapped, then the unaligned head and the tail are
// unmapped.
void* map_huge(std::size_t len, std::size_t huge) {
  void* base = mmap(nullptr, len + k_huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  const auto a = (b + k_huge - 1) / k_huge * k_huge;
  if (a > b) munmap(base, a - b);
  munmap(reinterpret_cast<void*>(a + len), k_huge - (a - b));
#ifdef MADV_HUGEPAGE
  if (huge) madvise(reinterpret_cast<void*>(a), std::min(huge, len), MADV_HUGEPAGE);  // advice: failure changes nothing
#endif
  return reinterpret_cast<void*>(a);
}

}  // namespace

Arena::First::First(std::size_t bytes, std::size_t surely_used) : mapped(bytes >= 2 * k_huge) {
  size = mapped ? round_up(bytes) : bytes == 0 ? 1 : bytes;
  data = mapped ? map_huge(size, std::min(bytes, surely_used) / k_huge * k_huge) : ::operator new(size);
}

Arena::First::~First() {
  if (mapped) munmap(data, size);
  else ::operator delete(data);
}

Arena::Arena(std::size_t bytes, std::size_t surely_used)
    : m_first(bytes, surely_used),
      m_arena(m_first.data, m_first.size,
              m_first.mapped ? static_cast<std::pmr::memory_resource*>(&m_mapped) : std::pmr::get_default_resource()) {}

// Past the first block: what runs over an estimate, on huge pages as before.
void* Arena::Mapped::do_allocate(std::size_t bytes, std::size_t) {
  const std::size_t len = round_up(bytes == 0 ? 1 : bytes);
  return map_huge(len, len);
}

void Arena::Mapped::do_deallocate(void* p, std::size_t bytes, std::size_t) {
  munmap(p, round_up(bytes == 0 ? 1 : bytes));
}

}  // namespace tracediff
