// A trace's bytes: regular files only, gzip inflated by ISA-L or zlib, read ahead on a
// second thread: one thing, the input side of every reader.
#include "reading/byte_source.hpp"

#include "reading/read_ahead.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <zlib.h>

#ifndef TRACEDIFF_HAVE_ISAL
#define TRACEDIFF_HAVE_ISAL 0
#endif
#if TRACEDIFF_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

namespace tracediff::reading {

namespace {

// zlib and ISA-L count bytes in 32 bits: hand them at most this much at once.
constexpr std::size_t k_max_step = std::size_t{1} << 30;

bool byte_is(std::string_view s, std::size_t i, unsigned char b) {
  return static_cast<unsigned char>(s[i]) == b;
}

// Real traces inflate 7 to 25 times: ISIZE is a hint, and beyond this ratio a forged or
// wrapped one is not believed (the events' reservation follows the hint; a 3 KB gzip
// claiming 4 GiB reserved 400 MB). A file that truly inflates more grows as it is read.
constexpr std::uint64_t k_max_gzip_ratio = 64;

// File size for plain JSON; for gzip the ISIZE trailer (uncompressed size mod 4 GiB),
// at most k_max_gzip_ratio times the compressed size, or 20x the compressed size when
// ISIZE has clearly wrapped.
std::uint64_t size_hint_of(std::FILE* f) {
  if (std::fseek(f, 0, SEEK_END) != 0) return 0;
  const long size = std::ftell(f);
  unsigned char head[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  std::uint64_t hint = size > 0 ? static_cast<std::uint64_t>(size) : 0;
  if (size >= 18 && std::fseek(f, 0, SEEK_SET) == 0 && std::fread(head, 1, 2, f) == 2 && head[0] == 0x1f &&
      head[1] == 0x8b && std::fseek(f, size - 4, SEEK_SET) == 0 && std::fread(tail, 1, 4, f) == 4) {
    const std::uint64_t isize = tail[0] | (tail[1] << 8) | (tail[2] << 16) | (std::uint64_t{tail[3]} << 24);
    const auto compressed = static_cast<std::uint64_t>(size);
    hint = isize >= compressed ? std::min(isize, compressed * k_max_gzip_ratio) : compressed * 20;
  }
  std::fseek(f, 0, SEEK_SET);
  return hint;
}

}  // namespace

// Inflates one gzip member at a time. zlib inflates whole members (header, deflate data,
// trailer); with ISA-L, zlib still parses the header, so that both accept the same headers,
// and ISA-L inflates the deflate data and checks the trailer (CRC and ISIZE).
struct ByteSource::Inflater {
  enum class Step { more, end, error };

  z_stream z{};
  bool z_ready = false;
  bool isal = false;
#if TRACEDIFF_HAVE_ISAL
  gz_header head{};
  bool header_done = false;
  ScratchBuffer state_memory;  // 87 KB written at once: pages mapped up front, reused per thread
  inflate_state* state = nullptr;
#endif

  explicit Inflater(bool use_isal) {
    // 15 + 16: gzip wrapper only (the framing already saw the magic bytes).
    z_ready = inflateInit2(&z, 15 + 16) == Z_OK;
#if TRACEDIFF_HAVE_ISAL
    if (use_isal) {
      state_memory = ScratchBuffer(sizeof(inflate_state));
      state = ::new (state_memory.get()) inflate_state;  // a C struct: isal_inflate_init sets it up
      isal = true;
    }
#else
    (void)use_isal;
#endif
  }
  ~Inflater() {
    if (z_ready) inflateEnd(&z);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  void start_member() {
    if (z_ready) inflateReset(&z);
#if TRACEDIFF_HAVE_ISAL
    if (isal) {
      head = gz_header{};
      if (z_ready) inflateGetHeader(&z, &head);  // after each reset, which forgets it
      header_done = false;
      isal_inflate_init(state);
      state->crc_flag = ISAL_GZIP_NO_HDR_VER;  // raw deflate, then the gzip trailer, checked
    }
#endif
  }

  // From now on zlib inflates everything (call start_member next).
  void use_zlib() { isal = false; }

  // Inflates from `in` (advanced past what was used) into out[0, n); n becomes the number
  // of bytes produced. end: the member's trailer was read and matched.
  Step inflate_some(std::string_view& in, char* out, std::size_t& n) {
#if TRACEDIFF_HAVE_ISAL
    if (isal) return isal_some(in, out, n);
#endif
    const std::size_t room = std::min(n, k_max_step);
    n = 0;
    if (!z_ready) return Step::error;
    const int rc = zlib_step(in, out, room, Z_NO_FLUSH);
    n = room - z.avail_out;
    if (rc == Z_STREAM_END) return Step::end;
    return rc == Z_OK || rc == Z_BUF_ERROR ? Step::more : Step::error;
  }

 private:
  int zlib_step(std::string_view& in, char* out, std::size_t room, int flush) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(std::min(in.size(), k_max_step));
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(room);
    const uInt avail_in = z.avail_in;
    const int rc = ::inflate(&z, flush);
    in.remove_prefix(avail_in - z.avail_in);
    return rc;
  }

#if TRACEDIFF_HAVE_ISAL
  Step isal_some(std::string_view& in, char* out, std::size_t& n) {
    const std::size_t room = std::min(n, k_max_step);
    n = 0;
    if (!header_done) {
      if (!z_ready) return Step::error;
      // Z_BLOCK: zlib returns right after the header, before the first deflate block,
      // with nothing of the deflate data consumed.
      const int rc = zlib_step(in, out, 0, Z_BLOCK);
      if (rc != Z_OK && rc != Z_BUF_ERROR) return Step::error;
      if (head.done != 1) return Step::more;  // the header goes on in the next input
      header_done = true;
    }
    static unsigned char no_input = 0;
    state->next_in = in.empty() ? &no_input : reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data()));
    state->avail_in = static_cast<std::uint32_t>(std::min(in.size(), k_max_step));
    state->next_out = reinterpret_cast<std::uint8_t*>(out);
    state->avail_out = static_cast<std::uint32_t>(room);
    const std::uint32_t avail_in = state->avail_in;
    const int rc = isal_inflate(state);
    in.remove_prefix(avail_in - state->avail_in);
    n = room - state->avail_out;
    if (rc < 0) return Step::error;  // a bad CRC or ISIZE too (with block_state FINISH)
    return state->block_state == ISAL_BLOCK_FINISH ? Step::end : Step::more;
  }
#endif
};

namespace {

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

std::string not_regular(mode_t mode) {
  return std::string("not a regular file (") + file_kind(mode) + "); only regular files are read";
}

// fdopen of open_regular_file, or nullptr with error set.
std::FILE* fopen_regular(const std::string& path, std::string& error) {
  const int fd = open_regular_file(path, error);
  if (fd < 0) return nullptr;
  std::FILE* f = ::fdopen(fd, "rb");
  if (!f) {
    error = std::strerror(errno);
    ::close(fd);
  }
  return f;
}

// The file systems whose "regular" files are views of the kernel: reads may block
// (tracefs's trace_pipe), consume something (/proc/kmsg) or never end. 0 for others.
const char* pseudo_file_system(int fd) {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return nullptr;
  switch (static_cast<std::uint64_t>(fs.f_type) & 0xffffffffu) {
    case 0x9fa0: return "procfs";
    case 0x62656572: return "sysfs";
    case 0x74726163: return "tracefs";
    case 0x64626720: return "debugfs";
    case 0x73636673: return "securityfs";
    case 0x27e0eb: return "cgroup";
    case 0x63677270: return "cgroup2";
    case 0x62656570: return "configfs";
    case 0xcafe4a11: return "bpf";
    case 0xde5e81e4: return "efivarfs";
    case 0x6165676c: return "pstore";
    default: return nullptr;
  }
}

}  // namespace

int open_regular_file(const std::string& path, std::string& error, bool* refused) {
  auto refuse = [&](std::string why) {
    error = std::move(why);
    if (refused) *refused = true;
    return -1;
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    error = std::strerror(errno);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) return refuse(not_regular(st.st_mode));
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return -1;
  }
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const bool regular = S_ISREG(st.st_mode);
    error = regular ? std::strerror(errno) : not_regular(st.st_mode);
    if (refused) *refused = !regular;
    ::close(fd);
    return -1;
  }
  if (const char* fs = pseudo_file_system(fd)) {
    ::close(fd);
    return refuse(std::string("not a regular file (on ") + fs +
                  ", a pseudo file system whose reads may block or never end); only regular files are read");
  }
  // A regular file of an ordinary file system is always readable at once; one whose
  // driver says otherwise (a FUSE or kernel file that streams) would block the read.
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, 50) == 0) {
    ::close(fd);
    return refuse("not a regular file (its first read would block); only regular files are read");
  }
  // Blocking reads from here on (O_NONBLOCK means nothing to a regular file, but say so).
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

std::uint64_t estimate_json_size(const std::string& path) {
  std::string error;
  std::FILE* f = fopen_regular(path, error);
  if (!f) return 0;
  const auto hint = size_hint_of(f);
  std::fclose(f);
  return hint;
}

ByteSource::ByteSource(const std::string& path, Inflate inflate) {
  m_inflate = inflate;
  m_file = fopen_regular(path, m_error);
  if (!m_file) return;
  struct stat st {};
  m_rewindable = ::fstat(::fileno(m_file), &st) == 0 && S_ISREG(st.st_mode);
  m_size_hint = size_hint_of(m_file);
  m_raw = ScratchBuffer(k_chunk);
}

ByteSource::ByteSource(std::string_view bytes, Inflate inflate) {
  m_memory = bytes;
  m_from_memory = true;
  m_rewindable = true;
  m_inflate = inflate;
  m_size_hint = bytes.size();
}

ByteSource::~ByteSource() {
  m_ahead.reset();  // its thread reads m_file
  if (m_file) std::fclose(m_file);
}

void ByteSource::read_ahead() {
  if (!m_ahead) m_ahead = std::make_unique<ReadAhead>([this](char* dst, std::size_t cap) { return read_now(dst, cap); });
}

bool ByteSource::isal_available() { return TRACEDIFF_HAVE_ISAL != 0; }

bool ByteSource::inflating_with_isal() const { return m_inflater && m_inflater->isal; }

bool ByteSource::read_raw(std::string_view& raw) {
  if (m_eof) return false;
  if (m_from_memory) {
    raw = m_memory;
    m_eof = true;
    m_bytes_in += raw.size();
    return !raw.empty();
  }
  std::size_t want = k_chunk;
  if (m_read_error_at != UINT64_MAX) {
    // Reading a member again after reading failed: stop where it failed (the error stands).
    if (m_bytes_in >= m_read_error_at) {
      m_eof = true;
      return false;
    }
    want = static_cast<std::size_t>(std::min<std::uint64_t>(want, m_read_error_at - m_bytes_in));
  }
  const std::size_t n = std::fread(m_raw.get(), 1, want, m_file);
  if (n == 0) {
    if (std::ferror(m_file)) {
      m_error = std::strerror(errno);
      m_damaged = true;
      m_read_error_at = m_bytes_in;
    }
    m_eof = true;
    return false;
  }
  m_bytes_in += n;
  raw = std::string_view(m_raw.get(), n);
  return true;
}

bool ByteSource::next_raw(std::string_view& raw) {
  if (!m_held.empty()) {
    raw = m_held;
    m_held = {};
    return true;
  }
  return read_raw(raw);
}

std::uint64_t ByteSource::pending_offset() const { return m_bytes_in - m_held.size() - m_pending.size(); }

void ByteSource::detect() {
  m_detected = true;
  std::string_view raw;
  if (!read_raw(raw)) return;
  m_pending = raw;
  // A gzip member starts with 1f 8b.
  if (raw.size() >= 2 && byte_is(raw, 0, 0x1f) && byte_is(raw, 1, 0x8b)) {
    m_gzip = true;
    // ISA-L needs a second read of a damaged member (see fall_back_to_zlib).
    const bool isal = TRACEDIFF_HAVE_ISAL && m_inflate == Inflate::best && m_rewindable;
    m_inflater = std::make_unique<Inflater>(isal);
  }
}

bool ByteSource::begin_member() {
  if (m_pending.empty() && !next_raw(m_pending)) return false;  // the end (or a read error)
  // What follows a member and is not another one is trailing garbage: ignored.
  if (!byte_is(m_pending, 0, 0x1f)) {
    m_pending = {};
    return false;
  }
  if (m_pending.size() == 1) {
    // The magic bytes are split between two reads: look at the next one.
    m_carry = m_pending[0];
    std::string_view more;
    if (!next_raw(more) || !byte_is(more, 0, 0x8b)) {
      m_pending = {};
      return false;
    }
    m_pending = std::string_view(&m_carry, 1);
    m_held = more;
  } else if (!byte_is(m_pending, 1, 0x8b)) {
    m_pending = {};
    return false;
  }
  m_member_start = pending_offset();
  m_member_out = 0;
  m_in_member = true;
  m_flush = false;
  m_inflater->start_member();
  return true;
}

// ISA-L stopped inside a member (damage, input cut short, a read error) where zlib may
// deliver more bytes or stop elsewhere: inflate the member again with zlib from its
// start, skipping the bytes already delivered. zlib inflates the rest of the stream.
bool ByteSource::fall_back_to_zlib() {
  if (!m_inflater || !m_inflater->isal) return false;
  if (m_from_memory) {
    m_pending = m_memory.substr(static_cast<std::size_t>(m_member_start));
    m_held = {};
  } else {
    // Reads keep to multiples of k_chunk, as the first time, so bytes_in ends as with zlib.
    const std::uint64_t grid = m_member_start - m_member_start % k_chunk;
    const std::uint64_t bytes_in = m_bytes_in;
    std::clearerr(m_file);
    if (::fseeko(m_file, static_cast<off_t>(grid), SEEK_SET) != 0) return false;
    m_bytes_in = grid;
    m_eof = false;
    m_held = {};
    std::string_view raw;
    if (!read_raw(raw) || raw.size() <= m_member_start - grid) {
      m_bytes_in = bytes_in;
      m_eof = true;
      return false;
    }
    m_pending = raw.substr(static_cast<std::size_t>(m_member_start - grid));
  }
  m_inflater->use_zlib();
  m_inflater->start_member();
  m_skip = m_member_out;
  if (m_skip > 0 && !m_scratch) m_scratch = std::make_unique_for_overwrite<char[]>(k_chunk);
  m_flush = false;
  return true;
}

// Inflates into dst[0, cap), cap > k_hold. With ISA-L, the last k_hold bytes of a member
// not yet checked by its trailer are held back (kept in m_hold for the next call): where
// zlib sees damage, ISA-L sometimes goes on for a few more bytes (hundreds at most in
// tests) before it notices, and bytes not yet delivered can still be dropped for zlib's.
std::size_t ByteSource::inflate_gzip(char* dst, std::size_t cap) {
  using Step = Inflater::Step;
  std::size_t filled = m_hold.size();
  std::size_t unchecked = filled;  // ISA-L's bytes of this member at the end of dst[0, filled)
  if (filled > 0) std::memcpy(dst, m_hold.data(), filled);
  m_hold.clear();
  while (filled < cap && !m_finished) {
    if (!m_in_member && !begin_member()) {
      m_finished = true;
      break;
    }
    // An inflater that filled its output may hold more before it needs input.
    if (m_pending.empty() && !m_flush && !next_raw(m_pending)) {
      // Input ended (or reading failed) inside a member.
      filled -= unchecked;
      unchecked = 0;
      if (fall_back_to_zlib()) continue;
      m_damaged = true;
      m_finished = true;
      break;
    }
    const bool skipping = m_skip > 0;
    char* out = skipping ? m_scratch.get() : dst + filled;
    const std::size_t room =
        skipping ? static_cast<std::size_t>(std::min<std::uint64_t>(m_skip, k_chunk)) : cap - filled;
    const std::size_t in_before = m_pending.size();
    const bool isal = m_inflater->isal;
    std::size_t n = room;
    const Step step = m_inflater->inflate_some(m_pending, out, n);
    m_flush = n == room;
    if (skipping) {
      m_skip -= n;
    } else {
      filled += n;
      if (isal) unchecked += n;
      else m_member_out += n;
    }
    if (step == Step::end) {
      m_in_member = false;
      m_member_out += unchecked;  // checked now
      unchecked = 0;
      // zlib found the member shorter than what ISA-L delivered: stop there.
      if (m_skip > 0) m_damaged = m_finished = true;
      continue;
    }
    const bool stuck = step == Step::more && n == 0 && !m_pending.empty() && m_pending.size() == in_before;
    if (step == Step::error || stuck) {
      filled -= unchecked;  // zlib says what comes
      unchecked = 0;
      if (fall_back_to_zlib()) continue;
      m_damaged = true;
      m_finished = true;
    }
  }
  if (unchecked > 0) {
    const std::size_t hold = std::min(unchecked, k_hold);
    m_hold.assign(dst + filled - hold, dst + filled);
    filled -= hold;
    m_member_out += unchecked - hold;
  }
  return filled;
}

std::size_t ByteSource::read_plain(char* dst, std::size_t cap) {
  std::size_t filled = std::min(cap, m_pending.size());
  if (filled > 0) {
    std::memcpy(dst, m_pending.data(), filled);  // what detection read
    m_pending.remove_prefix(filled);
  }
  if (filled < cap && !m_from_memory && !m_eof) {
    const std::size_t want = cap - filled;
    const std::size_t n = std::fread(dst + filled, 1, want, m_file);
    if (n < want) {
      if (std::ferror(m_file)) {
        m_error = std::strerror(errno);
        m_damaged = true;
      }
      m_eof = true;
    }
    m_bytes_in += n;
    filled += n;
  }
  m_bytes_out += filled;
  return filled;
}

std::size_t ByteSource::read(char* dst, std::size_t cap) { return m_ahead ? m_ahead->read(dst, cap) : read_now(dst, cap); }

std::size_t ByteSource::read_now(char* dst, std::size_t cap) {
  if (cap == 0 || (!ok() && !m_damaged)) return 0;
  if (!m_detected) detect();
  if (!m_gzip) return read_plain(dst, cap);
  std::size_t n = 0;
  if (m_staged.empty() && cap > 2 * k_hold) {
    n = inflate_gzip(dst, cap);
  } else {
    // Small reads are served from a chunk inflated ahead.
    if (m_staged.empty()) {
      if (!m_out) m_out = ScratchBuffer(k_chunk);
      m_staged = std::string_view(m_out.get(), inflate_gzip(m_out.get(), k_chunk));
    }
    n = std::min(cap, m_staged.size());
    if (n > 0) std::memcpy(dst, m_staged.data(), n);
    m_staged.remove_prefix(n);
  }
  m_bytes_out += n;
  return n;
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
  if (!m_out) m_out = ScratchBuffer(k_chunk);
  const std::size_t n = inflate_gzip(m_out.get(), k_chunk);
  if (n == 0) return false;
  chunk = std::string_view(m_out.get(), n);
  m_bytes_out += n;
  return true;
}

}  // namespace tracediff::reading
