#pragma once
// A reading thread's input buffers. Each file needs the same few buffers of the same
// sizes, and first-touching fresh memory costs a page fault per 4 KiB page (10-18 µs
// each in a VM guest; a 256 KiB buffer takes about 1 ms). So a buffer that is given
// back is kept for the thread's next file, and a new one is mapped with its pages
// already in place (MAP_POPULATE, about a quarter of that cost): it is written at
// once anyway. Contents are not cleared between uses.
#include <cstddef>

namespace tracediff {

class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  // At least `bytes`, from this thread's kept buffers or freshly mapped.
  explicit ScratchBuffer(std::size_t bytes);
  ~ScratchBuffer();  // kept for this thread's next use (the last few given back)
  ScratchBuffer(ScratchBuffer&& other) noexcept;
  ScratchBuffer& operator=(ScratchBuffer&& other) noexcept;
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;

  // Unmaps this thread's kept buffers: it reads no more files.
  static void release_kept();

  char* get() const { return m_data; }
  std::size_t size() const { return m_size; }
  explicit operator bool() const { return m_data != nullptr; }

 private:
  char* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace tracediff
