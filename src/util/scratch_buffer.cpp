#include "util/scratch_buffer.hpp"

#include <sys/mman.h>

#include <new>
#include <utility>
#include <vector>

namespace tracediff {

namespace {

constexpr std::size_t k_page = 4096;
constexpr std::size_t k_populate_max = std::size_t{4} << 20;  // bigger ones are rare: fault them in
constexpr std::size_t k_kept_max = 4;                          // per thread

std::size_t round_up(std::size_t n) { return (n + k_page - 1) / k_page * k_page; }

// The thread's kept buffers, unmapped when the thread ends.
struct Kept {
  std::vector<std::pair<char*, std::size_t>> buffers;
  ~Kept() {
    for (const auto& [data, size] : buffers) munmap(data, size);
  }
};
thread_local Kept t_kept;

}  // namespace

ScratchBuffer::ScratchBuffer(std::size_t bytes) {
  const std::size_t size = round_up(bytes == 0 ? 1 : bytes);
  auto& kept = t_kept.buffers;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].second == size) {
      m_data = kept[i].first;
      m_size = size;
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
  const int populate = size <= k_populate_max ? MAP_POPULATE : 0;
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  m_data = static_cast<char*>(p);
  m_size = size;
}

void ScratchBuffer::release_kept() {
  for (const auto& [data, size] : t_kept.buffers) munmap(data, size);
  t_kept.buffers.clear();
}

ScratchBuffer::~ScratchBuffer() {
  if (!m_data) return;
  if (m_size > k_populate_max) {
    munmap(m_data, m_size);
    return;
  }
  auto& kept = t_kept.buffers;
  if (kept.size() == k_kept_max) {  // the latest are the likeliest to be asked for next
    munmap(kept.front().first, kept.front().second);
    kept.erase(kept.begin());
  }
  kept.emplace_back(m_data, m_size);
}

ScratchBuffer::ScratchBuffer(ScratchBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}

ScratchBuffer& ScratchBuffer::operator=(ScratchBuffer&& other) noexcept {
  if (this != &other) {
    ScratchBuffer old(std::move(*this));
    m_data = std::exchange(other.m_data, nullptr);
    m_size = std::exchange(other.m_size, 0);
  }
  return *this;
}

}  // namespace tracediff
