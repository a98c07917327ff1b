// tracediff_floor: how fast can one thread possibly read a set of traces?
//
// For every input file, one after another on ONE thread:
//   1. read the whole file into memory;
//   2. if it is gzip (magic 1f 8b), inflate it whole with libdeflate, member by
//      member (multi-member gzip is legal and produced by some writers);
//   3. run one Boost.JSON basic_parser<NullHandler>::write_some over the bytes,
//      with a handler that accepts everything and stores nothing.
// Prints the bytes of JSON parsed and the wall time, and the split into
// read / inflate / parse (wall, and thread CPU time, which load barely affects). This is the "floor" that scripts/bench.sh compares
// tracediff against: the cost of just decoding the input, nothing else.
//
// usage: tracediff_floor [--tsv] PATH...   (PATH: a file, or a directory whose
//        *.json and *.json.gz files are read, like tracediff does)

#include <boost/json/basic_parser_impl.hpp>
#include <libdeflate.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "null_handler.hpp"

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;


// A growable byte buffer that, unlike std::vector, does not zero what it allocates
// (value-initialising hundreds of MB would be measured as "inflate" time). It is
// mmap'ed with MADV_HUGEPAGE: with 4 KiB pages, first-touching a 1 GB buffer costs
// ~260k page faults, which in a VM took ~2 s of system time, more than a quarter of
// the floor; a streaming reader with a small, reused buffer never pays that.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  unsigned char* data() const { return m_data; }
  std::size_t cap() const { return m_cap; }
  std::size_t size = 0;

  // Capacity >= n, keeping the first `size` bytes.
  void reserve(std::size_t n) {
    if (n <= m_cap) return;
    n = (n + k_huge - 1) / k_huge * k_huge;
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, n, MADV_HUGEPAGE);  // a hint; fine if THP is off
    if (size > 0) std::memcpy(p, m_data, size);
    release();
    m_data = static_cast<unsigned char*>(p);
    m_cap = n;
  }

 private:
  static constexpr std::size_t k_huge = std::size_t(2) << 20;
  void release() {
    if (m_data != nullptr) munmap(m_data, m_cap);
    m_data = nullptr;
    m_cap = 0;
  }
  unsigned char* m_data = nullptr;
  std::size_t m_cap = 0;
};

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// CPU time of this thread: unlike wall time, barely affected by other load on the machine.
double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

bool is_trace_name(const std::string& name) {
  auto ends = [&](std::string_view suf) {
    return name.size() >= suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0;
  };
  return ends(".json") || ends(".json.gz");
}

std::vector<std::string> expand(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return {path};
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(path, ec)) {
    if (e.is_regular_file(ec) && is_trace_name(e.path().filename().string())) {
      files.push_back(e.path().string());
    }
  }
  if (ec) throw std::runtime_error(path + ": " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

void read_file(const std::string& path, Buffer& bytes) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw std::runtime_error(path + ": " + std::strerror(errno));
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  bytes.size = 0;
  bytes.reserve((ec ? 0 : size + size / 8) + 1);
  for (;;) {  // normally one fread; loops if the file grew or file_size failed
    if (bytes.size == bytes.cap()) bytes.reserve(bytes.cap() * 2);
    const std::size_t n = std::fread(bytes.data() + bytes.size, 1, bytes.cap() - bytes.size, f.get());
    bytes.size += n;
    if (n == 0) break;
  }
  if (std::ferror(f.get())) throw std::runtime_error(path + ": read error");
}

// Inflates every gzip member of `in` into `out` (resized to the JSON size).
void gunzip(struct libdeflate_decompressor* d, const Buffer& in, Buffer& out, const std::string& path) {
  // ISIZE (last 4 bytes, little endian) is the size mod 2^32 of the LAST member's
  // output: exact for the usual single-member file < 4 GiB, only a hint otherwise.
  std::size_t hint = 0;
  if (in.size >= 18) {
    const unsigned char* t = in.data() + in.size - 4;
    hint = std::size_t(t[0]) | std::size_t(t[1]) << 8 | std::size_t(t[2]) << 16 | std::size_t(t[3]) << 24;
  }
  // +1: a member that fills the buffer exactly is told apart from one that needs more;
  // +1/8: the next file, if a little bigger, reuses the buffer (untouched slack is free).
  out.size = 0;
  out.reserve(std::max<std::size_t>({hint + hint / 8 + 1, in.size * 4, 1 << 16}));
  std::size_t in_pos = 0, out_pos = 0;
  while (in_pos < in.size) {
    std::size_t in_used = 0, out_got = 0;
    const auto r = libdeflate_gzip_decompress_ex(d, in.data() + in_pos, in.size - in_pos,
                                                 out.data() + out_pos, out.cap() - out_pos,
                                                 &in_used, &out_got);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      out.size = out_pos;
      out.reserve(out.cap() * 2);  // retry this member with room to spare
      continue;
    }
    if (r != LIBDEFLATE_SUCCESS) {
      throw std::runtime_error(path + ": corrupt gzip data (libdeflate result " + std::to_string(int(r)) + ")");
    }
    in_pos += in_used;
    out_pos += out_got;
    // Some writers pad after the last member with zeros; stop there.
    if (in_pos + 2 > in.size || in.data()[in_pos] != 0x1f || in.data()[in_pos + 1] != 0x8b) break;
  }
  out.size = out_pos;
}

struct Totals {
  std::uint64_t files = 0, raw_bytes = 0, json_bytes = 0;
  Clock::duration read{}, inflate{}, parse{};
  double read_cpu = 0, inflate_cpu = 0, parse_cpu = 0;
};

// raw and json_buf are reused from file to file, like a real reader would.
void process(const std::string& path, struct libdeflate_decompressor* d, Buffer& raw, Buffer& json_buf,
             Totals& t) {
  const double c0 = thread_cpu();
  const auto t0 = Clock::now();
  read_file(path, raw);
  const auto t1 = Clock::now();
  const double c1 = thread_cpu();
  const bool gz = raw.size >= 2 && raw.data()[0] == 0x1f && raw.data()[1] == 0x8b;
  std::string_view text;
  if (gz) {
    gunzip(d, raw, json_buf, path);
    text = std::string_view(reinterpret_cast<const char*>(json_buf.data()), json_buf.size);
  } else {
    text = std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size);
  }
  const auto t2 = Clock::now();
  const double c2 = thread_cpu();

  json::basic_parser<bench::NullHandler> p{json::parse_options{}};
  json::error_code ec;
  const std::size_t n = p.write_some(false, text.data(), text.size(), ec);
  if (ec) {
    throw std::runtime_error(path + ": JSON error at byte " + std::to_string(n) + ": " + ec.message());
  }
  const auto t3 = Clock::now();
  const double c3 = thread_cpu();

  ++t.files;
  t.raw_bytes += raw.size;
  t.json_bytes += text.size();
  t.read += t1 - t0;
  t.inflate += t2 - t1;
  t.parse += t3 - t2;
  t.read_cpu += c1 - c0;
  t.inflate_cpu += c2 - c1;
  t.parse_cpu += c3 - c2;
}

}  // namespace

int main(int argc, char** argv) {
  bool tsv = false;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::puts(
          "usage: tracediff_floor [--tsv] PATH...\n"
          "Single-threaded floor: whole-file libdeflate inflate + Boost.JSON null parse of\n"
          "each file (a directory means its *.json and *.json.gz files), one after another.\n"
          "  --tsv   print one line: files raw_bytes json_bytes wall_s read_s inflate_s parse_s\n"
          "          read_cpu_s inflate_cpu_s parse_cpu_s   (phases: wall, then thread CPU time)");
      return 0;
    }
    if (a == "--tsv") {
      tsv = true;
    } else {
      paths.emplace_back(a);
    }
  }
  if (paths.empty()) {
    std::fputs("tracediff_floor: no input (see --help)\n", stderr);
    return 2;
  }

  try {
    const auto start = Clock::now();
    std::unique_ptr<struct libdeflate_decompressor, void (*)(struct libdeflate_decompressor*)> d(
        libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
    if (!d) throw std::runtime_error("libdeflate_alloc_decompressor failed");
    Buffer raw, json_buf;
    Totals t;
    for (const auto& path : paths) {
      const auto files = expand(path);
      if (files.empty()) throw std::runtime_error(path + ": no *.json or *.json.gz files");
      for (const auto& f : files) process(f, d.get(), raw, json_buf, t);
    }
    const double wall = seconds(Clock::now() - start);
    if (tsv) {
      std::printf("%llu\t%llu\t%llu\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\n", (unsigned long long)t.files,
                  (unsigned long long)t.raw_bytes, (unsigned long long)t.json_bytes, wall, seconds(t.read),
                  seconds(t.inflate), seconds(t.parse), t.read_cpu, t.inflate_cpu, t.parse_cpu);
    } else {
      std::printf("files        %llu\n", (unsigned long long)t.files);
      std::printf("input bytes  %llu\n", (unsigned long long)t.raw_bytes);
      std::printf("JSON bytes   %llu (%.1f MB)\n", (unsigned long long)t.json_bytes, t.json_bytes / 1e6);
      std::printf("wall         %.3f s (%.0f MB/s of JSON)\n", wall, wall > 0 ? t.json_bytes / 1e6 / wall : 0.0);
      std::printf("             wall      thread CPU\n");
      std::printf("  read       %.3f s   %.3f s\n", seconds(t.read), t.read_cpu);
      std::printf("  inflate    %.3f s   %.3f s\n", seconds(t.inflate), t.inflate_cpu);
      std::printf("  parse      %.3f s   %.3f s\n", seconds(t.parse), t.parse_cpu);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracediff_floor: %s\n", e.what());
    return 1;
  }
  return 0;
}
