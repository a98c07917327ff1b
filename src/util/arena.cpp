#include "util/arena.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace tracediff {

namespace {

constexpr std::size_t k_huge = std::size_t{2} << 20;
std::size_t round_up(std::size_t n) { return (n + k_huge - 1) / k_huge * k_huge; }

// A 2 MiB-aligned mapping of `len` bytes (a multiple of 2 MiB) on huge pages: a huge
// page more is mapped, then the unaligned head and the tail are unmapped.
void* map_huge(std::size_t len) {
  void* base = mmap(nullptr, len + k_huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  const auto a = (b + k_huge - 1) / k_huge * k_huge;
  if (a > b) munmap(base, a - b);
  munmap(reinterpret_cast<void*>(a + len), k_huge - (a - b));
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(a), len, MADV_HUGEPAGE);  // advice: failure changes nothing
#endif
  return reinterpret_cast<void*>(a);
}

}  // namespace

Arena::First::First(std::size_t bytes) : mapped(bytes >= 2 * k_huge) {
  size = mapped ? round_up(bytes) : bytes == 0 ? 1 : bytes;
  data = mapped ? map_huge(size) : ::operator new(size);
}

Arena::First::~First() {
  if (mapped) munmap(data, size);
  else ::operator delete(data);
}

Arena::Arena(std::size_t bytes)
    : m_first(bytes),
      m_arena(m_first.data, m_first.size,
              m_first.mapped ? static_cast<std::pmr::memory_resource*>(&m_mapped) : std::pmr::get_default_resource()) {}

void* Arena::Mapped::do_allocate(std::size_t bytes, std::size_t) { return map_huge(round_up(bytes == 0 ? 1 : bytes)); }

void Arena::Mapped::do_deallocate(void* p, std::size_t bytes, std::size_t) {
  munmap(p, round_up(bytes == 0 ? 1 : bytes));
}

}  // namespace tracediff
