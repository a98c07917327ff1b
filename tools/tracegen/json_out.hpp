// Buffered, streaming text sink for tracegen: plain file, gzip file, or a byte
// counter (used to size --target-mb runs without writing anything).
#pragma once

#include <zlib.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace tracegen {

class JsonOut {
 public:
  // Counting sink.
  JsonOut() : m_buf(new char[k_cap]) {}

  JsonOut(const std::string& path, bool gzip) : m_buf(new char[k_cap]), m_path(path) {
    if (gzip) {
      // zlib's gzip header carries mtime 0 and no file name, so output is reproducible.
      m_gz = gzopen(path.c_str(), "wb6");
      if (m_gz == nullptr) {
        throw std::runtime_error("cannot open " + path + " for writing");
      }
      gzbuffer(m_gz, 1U << 20);
    } else {
      m_file = std::fopen(path.c_str(), "wb");
      if (m_file == nullptr) {
        throw std::runtime_error("cannot open " + path + " for writing");
      }
    }
  }

  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  ~JsonOut() {
    if (m_gz != nullptr) {
      gzclose(m_gz);
    }
    if (m_file != nullptr) {
      std::fclose(m_file);
    }
  }

  void put(std::string_view s) {
    if (s.empty()) {
      return;  // a default string_view has data() == nullptr, which memcpy must not see
    }
    if (s.size() > k_cap - m_len) {
      flush();
      if (s.size() > k_cap) {
        write_raw(s.data(), s.size());
        return;
      }
    }
    std::memcpy(m_buf.get() + m_len, s.data(), s.size());
    m_len += s.size();
  }

  void put(char c) {
    if (m_len == k_cap) {
      flush();
    }
    m_buf[m_len++] = c;
  }

  // put_all("\"id\": ", 42, ", ") writes text pieces and integers in order.
  template <typename... Ts>
  void put_all(const Ts&... xs) {
    (put_any(xs), ...);
  }

  void put_int(int64_t v) {
    reserve(24);
    m_len = static_cast<size_t>(std::to_chars(m_buf.get() + m_len, m_buf.get() + k_cap, v).ptr - m_buf.get());
  }

  // Shortest round-trip form; locale-independent.
  void put_double(double v) {
    reserve(32);
    m_len = static_cast<size_t>(std::to_chars(m_buf.get() + m_len, m_buf.get() + k_cap, v).ptr - m_buf.get());
  }

  // Non-negative nanoseconds as microseconds with exactly 3 decimals (Kineto ns builds).
  void put_us3(int64_t ns) {
    if (ns < 0) {
      put('-');
      ns = -ns;
    }
    put_int(ns / 1000);
    reserve(4);
    const auto frac = static_cast<int>(ns % 1000);
    m_buf[m_len++] = '.';
    m_buf[m_len++] = static_cast<char>('0' + frac / 100);
    m_buf[m_len++] = static_cast<char>('0' + frac / 10 % 10);
    m_buf[m_len++] = static_cast<char>('0' + frac % 10);
  }

  // Quoted JSON string. Names are mostly static ASCII, but --add-kernel and
  // --name-prefix come from the user.
  void put_str(std::string_view s) {
    put('"');
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c != '"' && c != '\\' && c >= 0x20) {
        continue;
      }
      put(s.substr(start, i - start));
      if (c == '"' || c == '\\') {
        put('\\');
        put(static_cast<char>(c));
      } else {
        static constexpr char k_hex[] = "0123456789abcdef";
        put("\\u00");
        put(k_hex[c >> 4]);
        put(k_hex[c & 15]);
      }
      start = i + 1;
    }
    put(s.substr(start));
    put('"');
  }

  uint64_t bytes() const { return m_total + m_len; }

  void finish() {
    flush();
    if (m_gz != nullptr) {
      const int rc = gzclose(m_gz);
      m_gz = nullptr;
      if (rc != Z_OK) {
        throw std::runtime_error("error closing " + m_path);
      }
    }
    if (m_file != nullptr) {
      const int rc = std::fclose(m_file);
      m_file = nullptr;
      if (rc != 0) {
        throw std::runtime_error("error closing " + m_path);
      }
    }
  }

 private:
  static constexpr size_t k_cap = size_t{4} << 20;

  template <typename T>
  void put_any(const T& x) {
    if constexpr (std::is_same_v<T, char>) {
      put(x);
    } else if constexpr (std::is_integral_v<T>) {
      put_int(static_cast<int64_t>(x));
    } else {
      put(std::string_view(x));
    }
  }

  void reserve(size_t n) {
    if (k_cap - m_len < n) {
      flush();
    }
  }

  void flush() {
    write_raw(m_buf.get(), m_len);
    m_len = 0;
  }

  void write_raw(const char* p, size_t n) {
    m_total += n;
    if (n == 0) {
      return;
    }
    if (m_gz != nullptr) {
      if (gzwrite(m_gz, p, static_cast<unsigned>(n)) != static_cast<int>(n)) {
        throw std::runtime_error("write error on " + m_path);
      }
    } else if (m_file != nullptr) {
      if (std::fwrite(p, 1, n, m_file) != n) {
        throw std::runtime_error("write error on " + m_path);
      }
    }
  }

  std::unique_ptr<char[]> m_buf;
  size_t m_len = 0;
  uint64_t m_total = 0;
  std::string m_path;
  FILE* m_file = nullptr;
  gzFile m_gz = nullptr;
};

}  // namespace tracegen
