#pragma once
// Reads a trace file in chunks, inflating gzip on the fly (detected by its magic
// bytes, not the name), so memory stays bounded whatever the file's size.
//
// Gzip is inflated by Intel ISA-L when the build has it (TRACEDIFF_HAVE_ISAL, about 3x
// faster), else by zlib. zlib is the reference: the bytes delivered, damaged(), ok(),
// error(), bytes_in() and bytes_out() are meant to be the same with either, damaged input
// included. How: zlib parses each member's header (ISA-L would take reserved flags);
// ISA-L's bytes of a member are handed out 32 KiB behind it until the member's trailer
// (CRC, ISIZE) matched, because ISA-L sometimes notices damage a little later than zlib;
// and when ISA-L stops inside a member (corrupt data, a cut, a bad CRC or ISIZE, a read
// error), zlib inflates the member again from its start, skips what was handed out, and
// takes over. So the bytes before the damage and the verdict are zlib's. The known
// difference left: ISA-L accepts Huffman code sets that zlib rejects as incomplete or
// oversubscribed ("invalid code lengths set", "invalid literal/lengths set", "invalid
// distances set"); a member damaged just there may be inflated in full by ISA-L (its CRC
// matching) where zlib reports damage at that block, or hand out more garbage than 32 KiB.
//
// Gzip framing, the same with both: members are inflated one after another; after a
// member, input that does not start with 1f 8b is trailing garbage and ends the stream
// without damage (as gzip(1) does); input that ends inside a member, corrupt data and a
// bad CRC or ISIZE are damage.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/scratch_buffer.hpp"

namespace tracediff::reading {

class ReadAhead;

// Estimated JSON size of a trace file without reading it (see ByteSource::size_hint);
// 0 for what open_regular_file refuses.
std::uint64_t estimate_json_size(const std::string& path);

// Opens path for reading only when it is a regular file (symlinks followed) that can be
// read to an end. A FIFO would block the open, and then a read, until a writer comes;
// /dev/zero or /dev/urandom never end; opening some devices does something by itself;
// and "regular" files of pseudo file systems (procfs, sysfs, tracefs, debugfs, ...) can
// block forever (trace_pipe, /proc/kmsg) or change as they are read. So: stat first, then
// open without blocking, then check the opened file again (the name may have been swapped
// in between), its file system, and that a first read would not block. Returns the
// descriptor, or -1 with error saying why ("not a regular file (a FIFO)", or strerror);
// `refused` (when given) is set when the file was refused for what it is, not because
// the system failed to open it.
int open_regular_file(const std::string& path, std::string& error, bool* refused = nullptr);

class ByteSource {
 public:
  static constexpr std::size_t k_chunk = 1 << 18;

  // Which library inflates gzip: best is ISA-L when the build has it and the input can be
  // read again from a member's start (memory, regular files), else zlib.
  enum class Inflate { best, zlib };

  // Opens the file (a regular file only: open_regular_file); on failure ok() is false
  // and error() says why.
  explicit ByteSource(const std::string& path, Inflate inflate = Inflate::best);
  // Reads from memory (tests, fuzzing). Gzip is detected the same way.
  explicit ByteSource(std::string_view bytes, Inflate inflate = Inflate::best);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // True when this build can inflate with ISA-L.
  static bool isal_available();
  // True when this source inflates gzip with ISA-L (known once the first byte was asked for;
  // false for plain input and after a fallback to zlib on damage).
  bool inflating_with_isal() const;

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

  // Read a source through next() or through read(), not both.
  //
  // Next chunk of (inflated) bytes; false at the end or after an error. The chunk stays
  // valid until the next call.
  bool next(std::string_view& chunk);

  // Fills dst with up to cap bytes of (inflated) input; returns how many, 0 at the end of
  // input or after an error (damaged()/ok() then say which). Returns 0 only when no more
  // bytes will come. Fills as much of cap as the input allows, less up to 32 KiB with
  // ISA-L (held back, they come first next time). For cap > 64 KiB gzip is inflated
  // straight into dst and plain files are read straight into dst (after the bytes that
  // gzip detection read); smaller reads are copied out of an internal chunk.
  std::size_t read(char* dst, std::size_t cap);

  // From now on read() is served by a thread of its own that inflates (or reads) a few
  // MiB ahead, so that this file's inflating and its reader's scanning use two cores.
  // Call before the first read(); only read() may be used then, and the other accessors
  // once read() has returned 0 (or after the source is destroyed, for nothing).
  void read_ahead();

 private:
  static constexpr std::size_t k_hold = 1 << 15;  // see inflate_gzip
  struct Inflater;
  std::size_t read_now(char* dst, std::size_t cap);  // read() on this thread
  bool read_raw(std::string_view& raw);
  bool next_raw(std::string_view& raw);
  void detect();
  std::size_t read_plain(char* dst, std::size_t cap);
  std::size_t inflate_gzip(char* dst, std::size_t cap);
  bool begin_member();
  bool fall_back_to_zlib();
  std::uint64_t pending_offset() const;

  std::FILE* m_file = nullptr;
  bool m_rewindable = false;  // regular file: a member can be read again from its start
  std::string_view m_memory;
  bool m_from_memory = false;
  Inflate m_inflate = Inflate::best;
  ScratchBuffer m_raw;  // k_chunk bytes (files)
  ScratchBuffer m_out;  // k_chunk: next()'s chunks; read()'s when it asks for little
  std::string_view m_staged;    // what read() has not yet handed out of m_out
  std::vector<char> m_hold;     // inflated by ISA-L, held back until more follows (< k_hold)
  std::unique_ptr<char[]> m_scratch;  // k_chunk: bytes skipped after a fallback to zlib
  std::string_view m_pending;   // raw bytes read but not yet inflated
  std::string_view m_held;      // raw bytes read after m_pending (a member split 1f | 8b)
  char m_carry = 0;             // the 1f of such a member
  std::unique_ptr<Inflater> m_inflater;
  bool m_gzip = false;
  bool m_detected = false;
  bool m_eof = false;
  bool m_damaged = false;
  bool m_finished = false;       // gzip: no more bytes will come
  bool m_in_member = false;      // gzip: between a member's 1f 8b and its trailer
  bool m_flush = false;          // gzip: the last inflate filled its output; it may hold more
  std::uint64_t m_member_start = 0;  // raw offset of the current member
  std::uint64_t m_member_out = 0;    // bytes of the current member delivered (not held back)
  std::uint64_t m_skip = 0;          // inflated bytes to skip (already delivered)
  std::uint64_t m_read_error_at = UINT64_MAX;  // raw offset where reading failed
  std::string m_error;
  std::uint64_t m_bytes_in = 0, m_bytes_out = 0;
  std::uint64_t m_size_hint = 0;
  std::unique_ptr<ReadAhead> m_ahead;  // declared last: its thread stops before the rest goes
};

}  // namespace tracediff::reading
