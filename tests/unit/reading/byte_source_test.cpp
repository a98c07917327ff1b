// ByteSource: gzip inflated by ISA-L (Inflate::best, when the build has it) must look
// exactly like zlib (Inflate::zlib): the same bytes, damaged(), ok(), error(), bytes_in(),
// bytes_out(), whether read through next() or read() with small or large caps, on
// valid, multi-member, cut, corrupt and padded streams, from memory and from files.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <memory>
#include <fstream>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "reading/byte_source.hpp"
#include "support/test_support.hpp"

using tracediff::reading::ByteSource;
using Inflate = ByteSource::Inflate;

namespace {

// Deflates data with zlib: window_bits 15 + 16 for a gzip member, -15 for raw deflate.
std::string deflate_with(const std::string& data, int level, int strategy, int window_bits) {
  z_stream z{};
  BOOST_REQUIRE(deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, strategy) == Z_OK);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  BOOST_REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string gzip_of(const std::string& data, int level = 6, int strategy = Z_DEFAULT_STRATEGY) {
  return deflate_with(data, level, strategy, 15 + 16);
}

void put_le32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}

// A gzip member built by hand: header with the given flags (FEXTRA, FNAME, FCOMMENT,
// FHCRC filled in as asked), raw deflate, CRC32 and ISIZE.
std::string gzip_member(const std::string& data, unsigned char flags, std::size_t extra_len = 0) {
  std::string m("\x1f\x8b\x08", 3);
  m += static_cast<char>(flags);
  m += std::string("\x00\x00\x00\x00\x00\xff", 6);
  if (flags & 0x04) {
    BOOST_REQUIRE(extra_len <= 0xffff);
    m += static_cast<char>(extra_len & 0xff);
    m += static_cast<char>(extra_len >> 8);
    m += std::string(extra_len, 'x');
  }
  if (flags & 0x08) m += std::string("trace.json\0", 11);
  if (flags & 0x10) m += std::string("a comment\0", 10);
  if (flags & 0x02) {
    const auto hcrc = crc32(0, reinterpret_cast<const Bytef*>(m.data()), static_cast<uInt>(m.size()));
    m += static_cast<char>(hcrc & 0xff);
    m += static_cast<char>((hcrc >> 8) & 0xff);
  }
  m += deflate_with(data, 6, Z_DEFAULT_STRATEGY, -15);
  put_le32(m, static_cast<std::uint32_t>(
                  crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()))));
  put_le32(m, static_cast<std::uint32_t>(data.size()));
  return m;
}

// Trace-like JSON; `noise` makes it compress less (more deflate blocks per byte).
std::string trace_text(std::size_t events, unsigned seed, bool noise = false) {
  std::mt19937 rng(seed);
  std::string s = "{\"traceEvents\": [\n";
  for (std::size_t i = 0; i < events; ++i) {
    s += "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"op_" + std::to_string(rng() % 60) +
         "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(1000 + i * 13 + rng() % 9) +
         ", \"dur\": " + std::to_string(rng() % 5000);
    if (noise) s += ", \"id\": \"" + std::to_string(rng()) + std::to_string(rng()) + "\"";
    s += "},\n";
  }
  return s + "{}]}\n";
}

struct Outcome {
  std::string bytes;
  bool damaged = false, ok = false, gzip = false;
  std::string error;
  std::uint64_t out = 0, in = 0;
  bool isal = false;  // still inflating with ISA-L at the end (not compared)
  bool operator==(const Outcome& o) const {
    return bytes == o.bytes && damaged == o.damaged && ok == o.ok && gzip == o.gzip && error == o.error &&
           out == o.out && in == o.in;
  }
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << "{" << o.bytes.size() << " bytes, damaged " << o.damaged << ", ok " << o.ok << ", gzip "
            << o.gzip << ", error '" << o.error << "', bytes_out " << o.out << ", bytes_in " << o.in << "}";
}

// cap 0 reads through next(), others through read(dst, cap).
Outcome drain(ByteSource& s, std::size_t cap) {
  Outcome o;
  bool sizes_ok = true;
  if (cap == 0) {
    std::string_view chunk;
    while (s.next(chunk)) {
      sizes_ok = sizes_ok && !chunk.empty();
      o.bytes.append(chunk);
    }
    sizes_ok = sizes_ok && !s.next(chunk);  // the end stays the end
  } else {
    const auto buf = std::make_unique_for_overwrite<char[]>(cap);  // not zeroed: 1 MiB for 1 KiB is slow
    while (const std::size_t n = s.read(buf.get(), cap)) {
      sizes_ok = sizes_ok && n <= cap;
      o.bytes.append(buf.get(), n);
    }
    sizes_ok = sizes_ok && s.read(buf.get(), cap) == 0;
  }
  BOOST_TEST(sizes_ok, "cap " << cap);
  o.damaged = s.damaged();
  o.ok = s.ok();
  o.gzip = s.gzip();
  o.error = s.error();
  o.out = s.bytes_out();
  o.in = s.bytes_in();
  o.isal = s.inflating_with_isal();
  BOOST_TEST(o.out == o.bytes.size());
  return o;
}

Outcome from_memory(const std::string& input, Inflate how, std::size_t cap) {
  ByteSource s{std::string_view(input), how};
  return drain(s, cap);
}

Outcome from_file(const std::string& path, Inflate how, std::size_t cap, bool read_ahead = false) {
  ByteSource s{path, how};
  if (read_ahead) s.read_ahead();
  return drain(s, cap);
}

constexpr std::size_t k_all_caps[] = {0, 1, 7, 4096, 65537, 1 << 20};
constexpr std::size_t k_some_caps[] = {0, 7, 1 << 20};

// Reads input every way with both inflaters; all must agree. Returns the outcome.
// Valid gzip is inflated by ISA-L to the end when the build has it (no fallback to zlib).
template <std::size_t N>
Outcome same_every_way(const std::string& input, const std::size_t (&caps)[N], const std::string& what) {
  const Outcome ref = from_memory(input, Inflate::zlib, 0);
  for (const auto how : {Inflate::zlib, Inflate::best})
    for (const std::size_t cap : caps) {
      const Outcome o = from_memory(input, how, cap);
      BOOST_TEST((o == ref), what << ": " << (how == Inflate::best ? "best" : "zlib") << ", cap " << cap << ": "
                                  << o << " vs zlib via next(): " << ref);
      if (how == Inflate::best && ref.gzip && !ref.damaged)
        BOOST_TEST(o.isal == ByteSource::isal_available(), what << ", cap " << cap << ": fell back to zlib");
    }
  return ref;
}

Outcome same_every_way(const std::string& input, const std::string& what) {
  return same_every_way(input, k_all_caps, what);
}

// Offsets of the deflate blocks in a gzip member (where zlib's Z_BLOCK stops).
std::vector<std::size_t> block_offsets(const std::string& gz) {
  std::vector<std::size_t> offsets;
  z_stream z{};
  inflateInit2(&z, 15 + 16);
  std::string out(1 << 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (inflate(&z, Z_BLOCK) != Z_OK) break;
    if (z.data_type & 128) offsets.push_back(gz.size() - z.avail_in);
  }
  inflateEnd(&z);
  return offsets;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

const std::string& json() {
  static const std::string s = trace_text(1500, 1);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(byte_source)

BOOST_AUTO_TEST_CASE(isal_is_used_when_built_in_and_zlib_when_asked) {
  const std::string gz = gzip_of(json());
  ByteSource best{std::string_view(gz)}, zlib{std::string_view(gz), Inflate::zlib};
  char c;
  BOOST_TEST(best.read(&c, 1) == 1u);
  BOOST_TEST(zlib.read(&c, 1) == 1u);
  BOOST_TEST(best.inflating_with_isal() == ByteSource::isal_available());
  BOOST_TEST(!zlib.inflating_with_isal());
  BOOST_TEST_MESSAGE("ISA-L built in: " << ByteSource::isal_available());
}

BOOST_AUTO_TEST_CASE(valid_streams_inflate_identically) {
  for (const auto& [what, gz] : std::vector<std::pair<std::string, std::string>>{
           {"level 6", gzip_of(json())},
           {"level 1", gzip_of(json(), 1)},
           {"level 9 huffman only", gzip_of(json(), 9, Z_HUFFMAN_ONLY)},
           {"stored", gzip_of(json(), 0)},
           {"fixed codes", gzip_of(json(), 6, Z_FIXED)},
           {"empty member", gzip_of("")},
           {"header with extra, name, comment and header CRC", gzip_member(json(), 0x1e, 300)},
       }) {
    const auto o = same_every_way(gz, what);
    BOOST_TEST((o.bytes == (what == "empty member" ? std::string() : json())), what);
    BOOST_TEST(!o.damaged, what);
    BOOST_TEST(o.ok, what);
    BOOST_TEST(o.gzip, what);
    BOOST_TEST(o.in == gz.size(), what);
  }
}

BOOST_AUTO_TEST_CASE(members_are_concatenated) {
  const std::string& j = json();
  const std::string gz = gzip_of(j.substr(0, 1000)) + gzip_of(j.substr(1000, 50000), 1) + gzip_of("") +
                         gzip_member(j.substr(51000), 0x08);
  const auto o = same_every_way(gz, "three members and an empty one");
  BOOST_TEST((o.bytes == j));
  BOOST_TEST(!o.damaged);
  // The second member damaged: the first one's bytes, then damage.
  std::string bad = gz;
  const std::size_t second = gzip_of(j.substr(0, 1000)).size();
  bad[second + 200] ^= 0x55;
  const auto d = same_every_way(bad, "second member corrupt");
  BOOST_TEST(d.damaged);
  BOOST_TEST(starts_with(d.bytes, j.substr(0, 1000)));
}

BOOST_AUTO_TEST_CASE(trailing_garbage_is_ignored_unless_it_starts_a_member) {
  const std::string gz = gzip_of(json());
  for (const std::string& tail :
       {std::string("garbage\n"), std::string(4096, '\0'), std::string("\x1f"), std::string("\x1f\x00junk", 6),
        std::string("\x8b\x1f"), std::string(" \x1f\x8b")}) {
    const auto o = same_every_way(gz + tail, "tail of " + std::to_string(tail.size()) + " bytes");
    BOOST_TEST((o.bytes == json()));
    BOOST_TEST(!o.damaged);
    BOOST_TEST(o.ok);
  }
  // 1f 8b starts a member: cut short, that is damage (after the complete member's bytes).
  for (const std::string& tail : {std::string("\x1f\x8b"), std::string("\x1f\x8b\x08\x00", 4),
                                  gzip_of("more").substr(0, 15), std::string("\x1f\x8b\x07garbage")}) {
    const auto o = same_every_way(gz + tail, "member start of " + std::to_string(tail.size()) + " bytes");
    BOOST_TEST(starts_with(o.bytes, json()));
    BOOST_TEST(o.damaged);
  }
}

BOOST_AUTO_TEST_CASE(cut_streams_deliver_what_came_before_the_cut) {
  const std::string gz = gzip_of(json());
  std::vector<std::size_t> cuts;
  for (std::size_t c = 2; c <= 24; ++c) cuts.push_back(c);  // inside the header and the first block header
  for (std::size_t c = 24; c < gz.size() - 8; c += gz.size() / 29) cuts.push_back(c);
  for (std::size_t c = gz.size() - 8; c < gz.size(); ++c) cuts.push_back(c);  // inside the trailer
  for (const std::size_t cut : cuts) {
    const auto o = same_every_way(gz.substr(0, cut), "cut at " + std::to_string(cut));
    BOOST_TEST(o.damaged, cut);
    BOOST_TEST(o.ok, cut);
    BOOST_TEST(starts_with(json(), o.bytes), cut);
    if (cut >= gz.size() - 8) BOOST_TEST((o.bytes == json()), cut);  // only the trailer is missing
  }
  // Every cut of a small stream of each kind of block.
  const std::string small = trace_text(60, 2);
  for (const auto& [what, g] : std::vector<std::pair<std::string, std::string>>{
           {"dynamic", gzip_of(small)}, {"fixed", gzip_of(small, 6, Z_FIXED)}, {"stored", gzip_of(small, 0)}}) {
    const std::size_t step = what == "stored" ? 7 : 1;
    for (std::size_t cut = 0; cut < g.size(); cut += step) {
      const auto o = same_every_way(g.substr(0, cut), k_some_caps, what + " cut at " + std::to_string(cut));
      if (cut >= 2) BOOST_TEST((o.damaged && starts_with(small, o.bytes)), what << " cut at " << cut);
    }
  }
}

BOOST_AUTO_TEST_CASE(corrupt_streams_deliver_what_came_before_the_damage) {
  const std::string gz = gzip_of(json());
  // One byte flipped in the deflate data, past the first block's code tables.
  for (std::size_t i = 1; i <= 10; ++i) {
    const std::size_t at = 200 + (gz.size() - 220) * i / 11;
    for (const unsigned char x : {0x01, 0xff}) {
      std::string bad = gz;
      bad[at] = static_cast<char>(bad[at] ^ x);
      const auto o = same_every_way(bad, "byte " + std::to_string(at) + " ^ " + std::to_string(x));
      BOOST_TEST(o.damaged);
      BOOST_TEST(o.ok);
    }
  }
  // A bad CRC or ISIZE: every byte, then damage.
  for (std::size_t from_end = 1; from_end <= 8; ++from_end) {
    std::string bad = gz;
    bad[gz.size() - from_end] ^= 0x10;
    const auto o = same_every_way(bad, (from_end > 4 ? "bad CRC " : "bad ISIZE ") + std::to_string(from_end));
    BOOST_TEST((o.bytes == json()));
    BOOST_TEST(o.damaged);
  }
  // Header damage is zlib's call with both (ISA-L alone would take reserved flags).
  for (const std::size_t at : {2u, 3u}) {
    std::string bad = gz;
    bad[at] ^= 0x80;
    const auto o = same_every_way(bad, "header byte " + std::to_string(at));
    BOOST_TEST(o.damaged);
    BOOST_TEST(o.bytes.empty());
  }
  std::string bad_hcrc = gzip_member(json(), 0x02);
  bad_hcrc[10] ^= 1;
  BOOST_TEST(same_every_way(bad_hcrc, "bad header CRC").damaged);
}

// Reads that end just past where zlib saw damage: ISA-L may notice it later (it takes
// code sets that zlib rejects and decodes on until a symbol is invalid), after such a read
// returned, and must not have handed out those bytes.
BOOST_AUTO_TEST_CASE(damage_that_isal_notices_late_is_not_handed_out) {
  const std::string text = trace_text(8000, 1);
  const std::string gz = gzip_of(text);
  const auto blocks = block_offsets(gz);
  BOOST_TEST_REQUIRE(blocks.size() >= 4u);  // the header's end, 2+ blocks, the last block's end
  int cases = 0;
  for (std::size_t b = 1; b < 3; ++b)
    for (std::size_t at = blocks[b]; at < blocks[b] + 30 && at + 8 < gz.size(); ++at) {
      std::string bad = gz;
      bad[at] = static_cast<char>(bad[at] ^ 0x04);  // in the block's code tables
      const Outcome ref = from_memory(bad, Inflate::zlib, 1 << 20);
      if (!ref.damaged) continue;
      ++cases;
      for (const std::size_t past : {1, 5, 40}) {
        const std::size_t cap = ref.bytes.size() + past;
        const Outcome o = from_memory(bad, Inflate::best, cap);
        BOOST_TEST((o == ref), "byte " << at << ", cap " << cap << ": " << o << " vs " << ref);
      }
    }
  BOOST_TEST(cases > 30);
}

// Every byte of a small stream flipped. ISA-L accepts Huffman code sets that zlib rejects
// (incomplete or oversubscribed); that is the one known difference: ISA-L inflates such a
// member in full when its CRC matches, where zlib stops with damage at that block.
BOOST_AUTO_TEST_CASE(every_flipped_byte_gives_zlibs_result) {
  const std::string small = trace_text(60, 3);
  int accepted_by_isal_only = 0, cases = 0;
  for (const auto& [what, g] : std::vector<std::pair<std::string, std::string>>{
           {"dynamic", gzip_of(small)}, {"fixed", gzip_of(small, 6, Z_FIXED)}, {"stored", gzip_of(small, 0)}}) {
    const std::size_t step = what == "stored" ? 5 : 1;
    for (std::size_t at = 0; at < g.size(); at += step) {
      for (const unsigned char x : {0x04, 0xa5}) {
        std::string bad = g;
        bad[at] = static_cast<char>(bad[at] ^ x);
        const Outcome ref = from_memory(bad, Inflate::zlib, 0);
        for (const auto how : {Inflate::zlib, Inflate::best})
          for (const std::size_t cap : k_some_caps) {
            const Outcome o = from_memory(bad, how, cap);
            ++cases;
            if (how == Inflate::best && ref.damaged && !o.damaged && o.bytes == small) {
              if (cap == 0) ++accepted_by_isal_only;
              continue;
            }
            BOOST_TEST((o == ref), what << " byte " << at << " ^ " << int(x) << ", "
                                        << (how == Inflate::best ? "best" : "zlib") << ", cap " << cap << ": "
                                        << o << " vs " << ref);
          }
      }
    }
  }
  BOOST_TEST_MESSAGE(accepted_by_isal_only << " flipped streams only ISA-L accepts, of " << cases / 6);
  BOOST_TEST(accepted_by_isal_only * 100 < cases / 6);  // rare
}

BOOST_AUTO_TEST_CASE(empty_and_plain_input) {
  const auto empty = same_every_way("", "empty");
  BOOST_TEST(empty.bytes.empty());
  BOOST_TEST(!empty.damaged);
  BOOST_TEST(empty.ok);
  BOOST_TEST(!empty.gzip);
  for (const std::string& plain : {json(), std::string("\x1f"), std::string("\x1f\x8c rest"), std::string("{}")}) {
    const auto o = same_every_way(plain, "plain of " + std::to_string(plain.size()) + " bytes");
    BOOST_TEST((o.bytes == plain));
    BOOST_TEST(!o.gzip);
    BOOST_TEST(!o.damaged);
  }
}

// Files: reads of k_chunk, members split across them, damage found chunks after the
// member's start (read again from there), and bytes_in.
BOOST_AUTO_TEST_CASE(files_read_in_chunks_agree) {
  namespace fs = std::filesystem;
  const std::string dir = tracediff::test::temp_dir("byte-source");
  const std::string big = trace_text(40000, 4, true);
  const std::string gz = gzip_of(big, 1);
  BOOST_TEST_REQUIRE(gz.size() > 3 * ByteSource::k_chunk);

  // A first member of k_chunk - 1 bytes (padded with an extra field): the next member's
  // 1f 8b is split between the first and second reads.
  std::string part, first;
  for (std::size_t events = 1000; first.size() + 60000 < ByteSource::k_chunk; events += 250) {
    part = trace_text(events, 5, true);
    first = gzip_member(part, 0x04, 0);
  }
  BOOST_TEST_REQUIRE(first.size() < ByteSource::k_chunk - 1);
  first = gzip_member(part, 0x04, ByteSource::k_chunk - 1 - first.size());
  BOOST_TEST_REQUIRE(first.size() == ByteSource::k_chunk - 1);
  const std::string second = gzip_of(big.substr(0, 300000));

  std::vector<std::pair<std::string, std::string>> cases = {
      {"big", gz},
      {"big cut in the third chunk", gz.substr(0, 2 * ByteSource::k_chunk + 1000)},
      {"big cut at a chunk's end", gz.substr(0, 2 * ByteSource::k_chunk)},
      {"split magic", first + second},
      {"split magic, second member cut", first + second.substr(0, second.size() / 2)},
      {"split magic, lone 1f at the end", first + "\x1f"},
      {"split magic, 1f then garbage", first + std::string("\x1f\x00garbage", 9)},
      {"garbage past the next chunk", gz + std::string(ByteSource::k_chunk + 5, 'g')},
  };
  for (int i = 1; i <= 6; ++i) {
    std::string bad = gz;
    bad[bad.size() * i / 7] ^= 0x21;
    cases.emplace_back("big, flip " + std::to_string(i), bad);
  }
  std::string bad_second = first + second;
  bad_second[first.size() + second.size() / 2] ^= 0x42;
  cases.emplace_back("split magic, second member corrupt", bad_second);
  std::string bad_crc = gz;
  bad_crc[gz.size() - 6] ^= 1;
  cases.emplace_back("big, bad CRC", bad_crc);

  for (const auto& [what, bytes] : cases) {
    const std::string path = dir + "/t.json.gz";
    tracediff::test::write_file(path, bytes);
    const Outcome ref = from_file(path, Inflate::zlib, 0);
    for (const auto how : {Inflate::zlib, Inflate::best})
      for (const std::size_t cap : {std::size_t{0}, std::size_t{4096}, std::size_t{1} << 20}) {
        const Outcome o = from_file(path, how, cap);
        BOOST_TEST((o == ref), what << ", " << (how == Inflate::best ? "best" : "zlib") << ", cap " << cap << ": "
                                    << o << " vs " << ref);
        if (how == Inflate::best && !ref.damaged)
          BOOST_TEST(o.isal == ByteSource::isal_available(), what << ", cap " << cap << ": fell back to zlib");
      }
    // Inflated ahead on a second thread: the same, whatever the reads' sizes.
    for (const std::size_t cap : {std::size_t{4096}, std::size_t{300000}, std::size_t{3} << 20}) {
      const Outcome o = from_file(path, Inflate::best, cap, true);
      BOOST_TEST((o == ref), what << ", read ahead, cap " << cap << ": " << o << " vs " << ref);
    }
    // The same bytes from memory (bytes_in differs: memory is read at once).
    Outcome mem = from_memory(bytes, Inflate::best, 0);
    mem.in = ref.in;
    BOOST_TEST((mem == ref), what << " from memory: " << mem << " vs " << ref);
    if (what == "big" || what.starts_with("garbage")) {
      BOOST_TEST((ref.bytes == big));
      BOOST_TEST(!ref.damaged);
    }
    if (what == "big") BOOST_TEST(ref.in == gz.size());
    if (what.starts_with("split magic")) BOOST_TEST(starts_with(ref.bytes, part), what);
    if (what == "split magic") BOOST_TEST((ref.bytes == part + big.substr(0, 300000)));
    if (what == "split magic, lone 1f at the end" || what == "split magic, 1f then garbage")
      BOOST_TEST((ref.bytes == part && !ref.damaged), what);
    if (what.find("cut") != std::string::npos || what.find("corrupt") != std::string::npos ||
        what.find("CRC") != std::string::npos)
      BOOST_TEST(ref.damaged, what);
  }
  fs::remove_all(dir);
}

// Read sizes put the ends of reads everywhere in a multi-chunk file: valid gzip must be
// inflated by ISA-L to its end (no fallback to zlib, which would be slow, not wrong).
BOOST_AUTO_TEST_CASE(valid_files_are_inflated_by_isal_to_the_end_whatever_the_read_size) {
  namespace fs = std::filesystem;
  const std::string dir = tracediff::test::temp_dir("byte-source");
  std::mt19937 rng(3);
  std::string text;
  for (int i = 0; i < 300000; ++i) text += "{\"a\":" + std::to_string(rng() % 100000) + "},";
  const std::string path = dir + "/t.json.gz";
  tracediff::test::write_file(path, gzip_of(text));
  int fell_back = 0;
  for (std::size_t cap = 65537; cap < 3000000; cap = cap * 107 / 100 + 13) {
    ByteSource s{path};
    const Outcome o = drain(s, cap);
    BOOST_TEST((o.bytes == text && !o.damaged), "cap " << cap);
    fell_back += o.isal != ByteSource::isal_available();
  }
  BOOST_TEST(fell_back == 0);
  fs::remove_all(dir);
}

// A reader that gives up early (the fast path meeting a syntax error) destroys its
// source mid-file: the thread inflating ahead stops, whatever it was doing.
BOOST_AUTO_TEST_CASE(a_source_read_ahead_can_be_dropped_at_any_time) {
  namespace fs = std::filesystem;
  const std::string dir = tracediff::test::temp_dir("byte-source");
  const std::string big = trace_text(40000, 6, true);
  const std::string path = dir + "/t.json.gz";
  tracediff::test::write_file(path, gzip_of(big, 1));
  std::vector<char> buf(70000);
  for (std::size_t reads = 0; reads < 40; reads += 3) {
    ByteSource s{path};
    s.read_ahead();
    std::string got;
    for (std::size_t r = 0; r < reads; ++r) got.append(buf.data(), s.read(buf.data(), buf.size()));
    BOOST_TEST((got == big.substr(0, got.size())), "after " << reads << " reads");
    BOOST_TEST(got.size() >= std::min(big.size(), reads * std::size_t{1}), "after " << reads << " reads");
  }
  // A source never read from, and one that cannot be opened.
  {
    ByteSource s{path};
    s.read_ahead();
  }
  ByteSource missing{dir + "/missing.json.gz"};
  missing.read_ahead();
  BOOST_TEST(missing.read(buf.data(), buf.size()) == 0u);
  BOOST_TEST(!missing.ok());
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(unreadable_and_unseekable_files) {
  namespace fs = std::filesystem;
  const std::string dir = tracediff::test::temp_dir("byte-source");
  // A directory opens but cannot be read; a missing file does not open.
  for (const std::string& path : {dir, dir + "/missing.json.gz"}) {
    const Outcome ref = from_file(path, Inflate::zlib, 0);
    BOOST_TEST(!ref.ok);
    BOOST_TEST(!ref.error.empty());
    for (const auto how : {Inflate::zlib, Inflate::best})
      for (const std::size_t cap : k_some_caps) BOOST_TEST((from_file(path, how, cap) == ref), path << " " << cap);
  }
  // A FIFO, a device, or a symlink to one is refused without blocking and without
  // reading (a FIFO with no writer would block the open; /dev/zero never ends).
  const std::string fifo = dir + "/pipe.json.gz";
  BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_symlink("/dev/zero", dir + "/zero.json");
  for (const auto& [path, kind] : {std::pair<std::string, std::string>{fifo, "a FIFO"},
                                   {dir + "/zero.json", "a character device"},
                                   {"/dev/null", "a character device"}}) {
    for (const auto how : {Inflate::zlib, Inflate::best}) {
      ByteSource s{path, how};
      BOOST_TEST(!s.ok(), path);
      BOOST_TEST(s.error() == "not a regular file (" + kind + "); only regular files are read", s.error());
      std::string buf(1 << 16, '\0');
      BOOST_TEST(s.read(buf.data(), buf.size()) == 0u);
    }
    BOOST_TEST(tracediff::reading::estimate_json_size(path) == 0u);
    std::string error;
    BOOST_TEST(tracediff::reading::open_regular_file(path, error) == -1);
    BOOST_TEST(error.find(kind) != std::string::npos, error);
  }
  fs::remove_all(dir);
}

// Files of procfs and sysfs are "regular" but views of the kernel: refused for what they
// are (named directly, that is fatal), as a FIFO is; an ordinary file is not.
BOOST_AUTO_TEST_CASE(pseudo_file_systems_are_refused) {
  namespace fs = std::filesystem;
  for (const std::string path : {"/proc/self/status", "/proc/self/maps", "/sys/kernel/mm/transparent_hugepage/enabled"}) {
    if (!fs::exists(path)) continue;
    ByteSource s{path};
    BOOST_TEST(!s.ok(), path);
    BOOST_TEST(s.error().rfind("not a regular file (on ", 0) == 0, s.error());
    std::string error;
    bool refused = false;
    BOOST_TEST(tracediff::reading::open_regular_file(path, error, &refused) == -1);
    BOOST_TEST(refused, path);
    BOOST_TEST(error.find(path.starts_with("/proc") ? "on procfs" : "on sysfs") != std::string::npos, error);
  }
  const auto dir = tracediff::test::temp_dir("bs-plain");
  tracediff::test::write_file(dir + "/t.json", "{}");
  std::string error;
  bool refused = false;
  const int fd = tracediff::reading::open_regular_file(dir + "/t.json", error, &refused);
  BOOST_TEST(fd >= 0, error);
  BOOST_TEST(!refused);
  if (fd >= 0) ::close(fd);
  // Not found is no refusal: the system said no.
  BOOST_TEST(tracediff::reading::open_regular_file(dir + "/none.json", error, &refused) == -1);
  BOOST_TEST(!refused);
  fs::remove_all(dir);
}

// A gzip's ISIZE is a hint: a forged one (4 GiB in a few hundred bytes) is not believed
// past 64 times the compressed size; a true one is.
BOOST_AUTO_TEST_CASE(a_forged_isize_is_only_a_hint) {
  namespace fs = std::filesystem;
  const auto dir = tracediff::test::temp_dir("bs-isize");
  std::string json = "{\"traceEvents\": [";
  std::mt19937 random(7);  // numbers: inflates a few times, as traces do
  for (int i = 0; i < 2000; ++i) json += (i ? "," : "") + std::to_string(random());
  json += "]}";
  std::string gz = tracediff::test::gzip_bytes(json);
  tracediff::test::write_file(dir + "/true.json.gz", gz);
  BOOST_TEST(tracediff::reading::estimate_json_size(dir + "/true.json.gz") == json.size());
  gz.replace(gz.size() - 4, 4, std::string("\xf0\xff\xff\xff", 4));
  tracediff::test::write_file(dir + "/forged.json.gz", gz);
  const auto hint = tracediff::reading::estimate_json_size(dir + "/forged.json.gz");
  BOOST_TEST(hint <= 64 * gz.size());
  BOOST_TEST(hint >= gz.size());
  ByteSource s{dir + "/forged.json.gz"};
  BOOST_TEST(s.size_hint() == hint);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
