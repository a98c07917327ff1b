#include "reading/byte_source.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace tracediff::reading {

struct ByteSource::Inflater {
  z_stream z{};
  bool ended = false;  // a member finished and no more input followed
  Inflater() {
    // 15 + 16: gzip wrapper only (detection already saw the magic bytes).
    inflateInit2(&z, 15 + 16);
  }
  ~Inflater() { inflateEnd(&z); }
};

namespace {

// File size for plain JSON; for gzip the ISIZE trailer (uncompressed size mod 4 GiB),
// or 20x the compressed size when ISIZE has clearly wrapped.
std::uint64_t size_hint_of(std::FILE* f) {
  if (std::fseek(f, 0, SEEK_END) != 0) return 0;
  const long size = std::ftell(f);
  unsigned char head[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  std::uint64_t hint = size > 0 ? static_cast<std::uint64_t>(size) : 0;
  if (size >= 18 && std::fseek(f, 0, SEEK_SET) == 0 && std::fread(head, 1, 2, f) == 2 && head[0] == 0x1f &&
      head[1] == 0x8b && std::fseek(f, size - 4, SEEK_SET) == 0 && std::fread(tail, 1, 4, f) == 4) {
    const std::uint64_t isize = tail[0] | (tail[1] << 8) | (tail[2] << 16) | (std::uint64_t{tail[3]} << 24);
    hint = isize >= static_cast<std::uint64_t>(size) ? isize : static_cast<std::uint64_t>(size) * 20;
  }
  std::fseek(f, 0, SEEK_SET);
  return hint;
}

}  // namespace

std::uint64_t estimate_json_size(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return 0;
  const auto hint = size_hint_of(f);
  std::fclose(f);
  return hint;
}

ByteSource::ByteSource(const std::string& path) {
  m_file = std::fopen(path.c_str(), "rb");
  if (!m_file) {
    m_error = std::strerror(errno);
    return;
  }
  m_size_hint = size_hint_of(m_file);
  m_raw.resize(k_chunk);
}

ByteSource::ByteSource(std::string_view bytes)
    : m_memory(bytes), m_from_memory(true), m_size_hint(bytes.size()) {}

ByteSource::~ByteSource() {
  if (m_file) std::fclose(m_file);
}

bool ByteSource::read_raw(std::string_view& raw) {
  if (m_eof) return false;
  if (m_from_memory) {
    raw = m_memory;
    m_eof = true;
    m_bytes_in += raw.size();
    return !raw.empty();
  }
  const std::size_t n = std::fread(m_raw.data(), 1, m_raw.size(), m_file);
  if (n == 0) {
    if (std::ferror(m_file)) {
      m_error = std::strerror(errno);
      m_damaged = true;
    }
    m_eof = true;
    return false;
  }
  m_bytes_in += n;
  raw = std::string_view(m_raw.data(), n);
  return true;
}

void ByteSource::detect() {
  m_detected = true;
  std::string_view raw;
  if (!read_raw(raw)) return;
  m_pending = raw;
  // A gzip member starts with 1f 8b.
  if (raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f &&
      static_cast<unsigned char>(raw[1]) == 0x8b) {
    m_gzip = true;
    m_inflater = std::make_unique<Inflater>();
    m_out.resize(k_chunk);
  }
}

bool ByteSource::next(std::string_view& chunk) {
  if (!ok() && !m_damaged) return false;
  if (!m_detected) detect();
  if (!m_gzip) {
    if (m_pending.empty() && !read_raw(m_pending)) return false;
    chunk = m_pending;
    m_pending = {};
    m_bytes_out += chunk.size();
    return true;
  }
  if (m_damaged) return false;
  z_stream& z = m_inflater->z;
  for (;;) {
    if (m_pending.empty()) {
      if (!read_raw(m_pending)) {
        // Input ended: fine after a complete member, damage otherwise.
        if (!m_inflater->ended) m_damaged = true;
        return false;
      }
    }
    if (m_inflater->ended) {
      // Another gzip member follows (multi-member files are valid gzip).
      inflateReset(&z);
      m_inflater->ended = false;
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(m_pending.data()));
    z.avail_in = static_cast<uInt>(m_pending.size());
    z.next_out = reinterpret_cast<Bytef*>(m_out.data());
    z.avail_out = static_cast<uInt>(m_out.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    m_pending = std::string_view(reinterpret_cast<const char*>(z.next_in), z.avail_in);
    const std::size_t produced = m_out.size() - z.avail_out;
    if (rc == Z_STREAM_END) {
      m_inflater->ended = true;
      // Trailing garbage after the last member that is not another member: ignore it.
      if (!m_pending.empty() && static_cast<unsigned char>(m_pending[0]) != 0x1f) m_pending = {};
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      m_damaged = true;
      if (produced == 0) return false;
    }
    if (produced > 0) {
      chunk = std::string_view(m_out.data(), produced);
      m_bytes_out += produced;
      return true;
    }
    if (m_damaged) return false;
  }
}

}  // namespace tracediff::reading
