#pragma once
// An arena for a stage's large short-lived arrays, all freed at its end. A large one
// is a mapping of its own on transparent huge pages: first-touching fresh memory in
// 4 KiB pages costs a page fault each (about 10 µs in a VM guest: a third of
// summarising a file), a 2 MiB page one. Being unmapped at the end, its huge pages
// never linger in the heap. Where the kernel declines them, it is plain mapped memory.
#include <cstddef>
#include <cstdint>
#include <memory_resource>

namespace tracediff {

class Arena {
 public:
  // `bytes`: room for everything (only what is touched becomes resident; more is
  // taken when needed). Under 4 MiB, plain heap memory. `surely_used`: what will be
  // touched at least; huge pages cover only the whole 2 MiB pages within it, 4 KiB
  // pages the rest, so that the memory resident is what is used, not that rounded up
  // to 2 MiB (an arena half-way into its last huge page held up to 2 MiB for nothing).
  explicit Arena(std::size_t bytes, std::size_t surely_used = SIZE_MAX);
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  std::pmr::memory_resource* get() { return &m_arena; }

 private:
  class Mapped final : public std::pmr::memory_resource {
    void* do_allocate(std::size_t bytes, std::size_t alignment) override;
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override;
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
  };
  // The first block, handed to the arena as its initial buffer: a block the arena
  // takes from upstream keeps its bookkeeping in its last bytes, and touching them
  // made the block's last huge page resident (2 MiB, and 0.2-0.4 ms to clear) for
  // nothing. Declared before m_arena: unmapped after it is gone.
  struct First {
    First(std::size_t bytes, std::size_t surely_used);
    ~First();
    First(const First&) = delete;
    First& operator=(const First&) = delete;
    bool mapped;  // else heap memory (under 4 MiB)
    void* data = nullptr;
    std::size_t size = 0;
  };
  Mapped m_mapped;
  First m_first;
  std::pmr::monotonic_buffer_resource m_arena;
};

}  // namespace tracediff
