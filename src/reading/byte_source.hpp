#pragma once
// Reads a trace file in chunks, inflating gzip on the fly (detected by its magic
// bytes, not the name), so memory stays bounded whatever the file's size.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tracediff::reading {

// Estimated JSON size of a trace file without reading it (see ByteSource::size_hint).
std::uint64_t estimate_json_size(const std::string& path);

class ByteSource {
 public:
  static constexpr std::size_t k_chunk = 1 << 18;

  // Opens the file; on failure ok() is false and error() says why.
  explicit ByteSource(const std::string& path);
  // Reads from memory (tests, fuzzing). Gzip is detected the same way.
  explicit ByteSource(std::string_view bytes);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  bool ok() const { return m_error.empty(); }
  const std::string& error() const { return m_error; }
  bool gzip() const { return m_gzip; }
  // True when the stream ended early or was corrupt; chunks before that were delivered.
  bool damaged() const { return m_damaged; }
  std::uint64_t bytes_in() const { return m_bytes_in; }   // raw bytes read
  // Expected size of the (inflated) JSON, from the file size or gzip's ISIZE trailer;
  // 0 when unknown. Only a hint: ISIZE is modulo 4 GiB and a stream may be cut.
  std::uint64_t size_hint() const { return m_size_hint; }
  std::uint64_t bytes_out() const { return m_bytes_out; } // bytes delivered

  // Next chunk of (inflated) bytes; false at the end or after an error.
  bool next(std::string_view& chunk);

 private:
  struct Inflater;
  bool read_raw(std::string_view& raw);
  void detect();

  std::FILE* m_file = nullptr;
  std::string_view m_memory;
  bool m_from_memory = false;
  std::vector<char> m_raw;
  std::vector<char> m_out;
  std::string_view m_pending;  // raw bytes read but not yet inflated
  std::unique_ptr<Inflater> m_inflater;
  bool m_gzip = false;
  bool m_detected = false;
  bool m_eof = false;
  bool m_damaged = false;
  std::string m_error;
  std::uint64_t m_bytes_in = 0, m_bytes_out = 0;
  std::uint64_t m_size_hint = 0;
};

}  // namespace tracediff::reading
