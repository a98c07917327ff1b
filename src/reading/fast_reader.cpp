// A scanner for well-formed Kineto files (SSE2 and SWAR), as strict as Boost.JSON with
// our options; at the first sign of trouble trace_reader.cpp reads the file again. One
// thing: a scanner, long because each field has its fast path.
#include "reading/fast_reader.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <memory>
#include <optional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "reading/event_sink.hpp"
#include "reading/number.hpp"
#include "reading/shape_text.hpp"
#include "util/scratch_buffer.hpp"

namespace tracediff::reading {

namespace {

using detail::EventFields;
using detail::FieldView;
using detail::ValueType;

// How scanning one unit (a top-level member or one traceEvents entry) ended.
enum class St : std::uint8_t {
  ok,
  more,  // the unit runs past the bytes in the window: read more, scan it again
  bail,  // not for the fast path: the tolerant reader takes the file
};

// Boost.JSON fails at depth 512 (the reader's max_depth); stay well inside it.
constexpr int k_max_depth = 400;
// The tolerant reader keeps 64 bytes of a number's text; longer ones are its business.
constexpr std::size_t k_max_number = 63;
// Boost.JSON rejects exponents past INT_MAX; more than 8 digits is the tolerant reader's.
constexpr std::ptrdiff_t k_max_exponent_digits = 8;
// Kept strings longer than this are truncated with a warning by the tolerant reader.
constexpr std::size_t k_max_kept_string = 1 << 20;
constexpr std::size_t k_max_window = 64 << 20;  // a bigger unit goes to the tolerant reader
constexpr std::size_t k_pad = 64;               // readable bytes after the data (16-byte loads)

bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if ((c | 32) >= 'a' && (c | 32) <= 'f') return (c | 32) - 'a' + 10;
  return -1;
}

// First byte at or after p that ends a run of plain string bytes: '"', '\\' or a
// control byte. The window's NUL terminator guarantees one.
const char* find_special(const char* p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i ctrl_max = _mm_set1_epi8(0x1f);
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i ctrl = _mm_cmpeq_epi8(_mm_max_epu8(v, ctrl_max), ctrl_max);  // v <= 0x1f
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), ctrl);
    if (const int mask = _mm_movemask_epi8(hit)) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#else
  for (;; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20) return p;
  }
#endif
}

// The closing quote of a string body starting at p when no escape or control byte
// comes before it; nullptr otherwise (the caller then walks the string). Decided from
// the masks alone, without loading the byte found.
const char* plain_string_end(const char* p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i ctrl_max = _mm_set1_epi8(0x1f);
  for (;; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto q = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)));
    const auto other = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(_mm_max_epu8(v, ctrl_max), ctrl_max))));
    if (other) return q && (q & -q) < (other & -other) ? p + __builtin_ctz(q) : nullptr;
    if (q) return p + __builtin_ctz(q);
  }
#else
  (void)p;
  return nullptr;
#endif
}

// First byte at or after p that is not a digit (epoch timestamps have 16). The
// window's NUL terminator and padding make the 8-byte loads safe.
const char* skip_digits(const char* p) {
  for (;;) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if (const std::uint64_t not_digit = non_digit_bytes(w)) return p + (__builtin_ctzll(not_digit) >> 3);
    p += 8;
  }
}

// First byte at or after p that is not JSON whitespace. The window's NUL terminator
// guarantees one.
const char* skip_ws_run(const char* p) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i tab = _mm_set1_epi8('\t');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, nl)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(w)) & 0xffffu;
    if (other) return p + __builtin_ctz(other);
    p += 16;
  }
#else
  while (is_ws(*p)) ++p;
  return p;
#endif
}

// The scanner over one window of bytes [begin, end), NUL-terminated and padded.
// Functions take the position by reference and leave it after what they consumed;
// they have no effect on the trace until the unit they belong to is complete.
class Scanner {
 public:
  void set_end(const char* end) { m_end = end; }
  // Where the last key read by key() starts (its opening quote).
  const char* key_quote() const { return m_key_quote; }
  // Decoded strings of the unit being scanned live until the next unit starts.
  void new_unit() { m_decoded_used = 0; }

  St fail(const char* p) const { return p >= m_end ? St::more : St::bail; }
  static void ws(const char*& p) {
    if (!is_ws(*p)) return;
    if (!is_ws(*++p)) return;
    p = skip_ws_run(p);  // pretty-printed traces indent with runs of spaces
  }

  // p at the opening quote. text is the raw content; escaped says whether it has
  // escapes (validated, not decoded).
  St string(const char*& p, std::string_view& text, bool& escaped) const {
    const char* s = ++p;
    escaped = false;
    if (const char* end = plain_string_end(p)) {  // most strings
      text = std::string_view(s, static_cast<std::size_t>(end - s));
      p = end + 1;
      return St::ok;
    }
    for (;;) {
      p = find_special(p);
      if (*p == '"') {
        text = std::string_view(s, static_cast<std::size_t>(p - s));
        ++p;
        return St::ok;
      }
      if (*p != '\\') return fail(p);  // a raw control byte, or the end of the window
      escaped = true;
      const char e = p[1];
      if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
        p += 2;
        continue;
      }
      if (e != 'u') return fail(p + 1);
      int code = 0;
      for (int i = 2; i < 6; ++i) {
        const int h = hex_value(p[i]);
        if (h < 0) return fail(p + i);
        code = code * 16 + h;
      }
      // Surrogates have pairing rules (and Boost.JSON errors); leave them to it.
      if (code >= 0xD800 && code <= 0xDFFF) return St::bail;
      p += 6;
    }
  }

  // RFC 8259 number grammar, as Boost.JSON checks it.
  St number(const char*& p, std::string_view& text) const {
    const char* s = p;
    if (*p == '-') ++p;
    if (*p == '0') {
      ++p;
    } else if (is_digit(*p)) {
      p = skip_digits(p);
    } else {
      return fail(p);
    }
    if (*p == '.') {
      ++p;
      if (!is_digit(*p)) return fail(p);
      while (is_digit(*p)) ++p;
    }
    if (*p == 'e' || *p == 'E') {
      ++p;
      if (*p == '+' || *p == '-') ++p;
      const char* digits = p;
      if (!is_digit(*p)) return fail(p);
      while (is_digit(*p)) ++p;
      if (p - digits > k_max_exponent_digits) return St::bail;
    }
    if (p >= m_end) return St::more;  // the number may go on in the next bytes
    if (static_cast<std::size_t>(p - s) > k_max_number) return St::bail;
    text = std::string_view(s, static_cast<std::size_t>(p - s));
    return St::ok;
  }

  St literal(const char*& p, std::string_view word) const {
    for (const char c : word) {
      if (*p != c) return fail(p);
      ++p;
    }
    return St::ok;
  }

  // After an element or member: ",", "," + the closer (trailing commas are accepted,
  // as by the tolerant reader), or the closer.
  St after_item(const char*& p, char closer, bool& closed) const {
    if (*p != ',') ws(p);
    if (*p == ',') {
      ++p;
      if (*p == ' ' && !is_ws(p[1]) && p[1] != closer) {  // `, "next"`
        ++p;
        closed = false;
        return St::ok;
      }
      ws(p);
      closed = *p == closer;
      if (closed) ++p;
      return St::ok;
    }
    if (*p != closer) return fail(p);
    ++p;
    closed = true;
    return St::ok;
  }

  // Any value, checked and skipped.
  St skip(const char*& p, int depth) {
    switch (*p) {
      case '"': {
        std::string_view text;
        bool escaped;
        return string(p, text, escaped);
      }
      case '{': return skip_container(p, depth + 1, '}');
      case '[': return skip_container(p, depth + 1, ']');
      case 't': return literal(p, "true");
      case 'f': return literal(p, "false");
      case 'n': return literal(p, "null");
      default: {
        std::string_view text;
        return number(p, text);
      }
    }
  }

  // A kept field's value. A container leaves the field as it was, as it does in the
  // tolerant reader.
  St scalar(const char*& p, FieldView& v, int depth) {
    switch (*p) {
      case '"': {
        std::string_view text;
        bool escaped;
        if (const St s = string(p, text, escaped); s != St::ok) return s;
        if (escaped) text = decode(text);
        if (text.size() > k_max_kept_string) return St::bail;
        v = {ValueType::string, text};
        return St::ok;
      }
      case '{':
      case '[': return skip(p, depth);
      case 't': v = {ValueType::other, {}}; return literal(p, "true");
      case 'f': v = {ValueType::other, {}}; return literal(p, "false");
      case 'n': v = {ValueType::null, {}}; return literal(p, "null");
      default: {
        std::string_view text;
        if (const St s = number(p, text); s != St::ok) return s;
        v = {ValueType::number, text};
        return St::ok;
      }
    }
  }

  // A member's key and its ":"; p is left at the value.
  St key(const char*& p, std::string_view& name) {
    if (*p != '"') return fail(p);
    m_key_quote = p;
    bool escaped;
    if (const St s = string(p, name, escaped); s != St::ok) return s;
    if (escaped) name = decode(name);  // keys are matched decoded, as by the tolerant reader
    if (*p != ':') {
      ws(p);
      if (*p != ':') return fail(p);
    }
    ++p;
    if (*p == ' ' && !is_ws(p[1])) {
      ++p;
      return St::ok;
    }
    ws(p);
    return St::ok;
  }

  // p at an object's "{"; calls member(key, p) for each member, with p at its value.
  template <typename Member>
  St object(const char*& p, int depth, Member&& member) {
    if (depth > k_max_depth) return St::bail;
    ++p;
    ws(p);
    if (*p == '}') {
      ++p;
      return St::ok;
    }
    for (;;) {
      std::string_view name;
      if (const St s = key(p, name); s != St::ok) return s;
      if (const St s = member(name, p); s != St::ok) return s;
      bool closed = false;
      if (const St s = after_item(p, '}', closed); s != St::ok) return s;
      if (closed) return St::ok;
    }
  }

  // p at an array's "["; calls element(p) for each element.
  template <typename Element>
  St array(const char*& p, int depth, Element&& element) {
    if (depth > k_max_depth) return St::bail;
    ++p;
    ws(p);
    if (*p == ']') {
      ++p;
      return St::ok;
    }
    for (;;) {
      if (const St s = element(p); s != St::ok) return s;
      bool closed = false;
      if (const St s = after_item(p, ']', closed); s != St::ok) return s;
      if (closed) return St::ok;
    }
  }

 private:
  // A validated string body with escapes (no surrogates: string() gave up on those),
  // decoded as Boost.JSON decodes it.
  std::string_view decode(std::string_view raw) {
    if (m_decoded_used == m_decoded.size()) m_decoded.emplace_back();
    std::string& out = m_decoded[m_decoded_used++];
    out.clear();
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '\\') {
        out += raw[i];
        continue;
      }
      const char e = raw[++i];
      switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = 0;
          for (int k = 1; k <= 4; ++k) code = code * 16 + static_cast<unsigned>(hex_value(raw[i + k]));
          i += 4;
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: out += e;  // '"', '\\', '/'
      }
    }
    return out;
  }

  St skip_container(const char*& p, int depth, char closer) {
    if (closer == '}')
      return object(p, depth, [&](std::string_view, const char*& q) { return skip(q, depth); });
    return array(p, depth, [&](const char*& q) { return skip(q, depth); });
  }

  const char* m_end = nullptr;
  const char* m_key_quote = nullptr;
  std::deque<std::string> m_decoded;  // a deque: decoded views stay valid as it grows
  std::size_t m_decoded_used = 0;
};

FieldView* event_field(EventFields& f, std::string_view key) {
  switch (key.size()) {
    case 2:
      if (key == "ph") return &f.ph;
      if (key == "ts") return &f.ts;
      break;
    case 3:
      if (key == "cat") return &f.cat;
      if (key == "dur") return &f.dur;
      if (key == "pid") return &f.pid;
      if (key == "tid") return &f.tid;
      break;
    case 4:
      if (key == "name") return &f.name;
      break;
  }
  return nullptr;
}

class FastReader {
 public:
  FastReader(ByteSource& source, model::TraceFile& file, const ReadOptions& options, std::size_t window)
      : m_source(source), m_file(file), m_sink(file, options), m_window(std::max<std::size_t>(window, 1)),
        m_by_shape(options.by_shape) {}

  // False: give the file to the tolerant reader.
  bool run();

 private:
  enum class State { start, top_first, top_next, top_member, events_first, events_next, event, done };

  // Keeps the bytes from `keep` on, moves them to the front and reads more after
  // them. False when nothing more came (end of input) or the unit is too large.
  bool refill(std::size_t keep);
  St unit(const char*& p);
  St events(const char*& p, const char*& start);
  St top_member(const char*& p);
  St event(const char*& p);
  St distributed_info(const char*& p, std::uint64_t key_offset);
  St device_properties(const char*& p, std::uint64_t key_offset);
  St shape_value(const char*& p, int depth, detail::ShapeBuilder& b);

  ByteSource& m_source;
  model::TraceFile& m_file;
  detail::EventSink m_sink;
  detail::TopKeys m_top_keys;
  Scanner m_scan;
  ScratchBuffer m_buf;
  std::size_t m_window;
  std::size_t m_cap = 0, m_len = 0;
  std::uint64_t m_base = 0;  // offset of m_buf[0] in the (inflated) JSON
  bool m_eof = false;
  State m_state = State::start;
  bool m_saw_events = false;
  bool m_by_shape = false;
  detail::ShapeBuilder m_dims{false}, m_types{true};
};

bool FastReader::refill(std::size_t keep) {
  if (m_eof) return false;
  if (!m_buf) {
    m_cap = m_window;
    m_buf = ScratchBuffer(m_cap + k_pad);  // not cleared: every byte is read into first
    std::memset(m_buf.get() + m_cap, 0, k_pad);
  } else if (keep == 0 && m_len == m_cap) {
    if (m_cap >= k_max_window) return false;
    ScratchBuffer bigger(2 * m_cap + k_pad);
    std::memset(bigger.get() + 2 * m_cap, 0, k_pad);
    std::memcpy(bigger.get(), m_buf.get(), m_len);
    m_buf = std::move(bigger);
    m_cap *= 2;
  } else {
    std::memmove(m_buf.get(), m_buf.get() + keep, m_len - keep);
    m_base += keep;
    m_len -= keep;
  }
  const std::size_t got = m_source.read(m_buf.get() + m_len, m_cap - m_len);
  if (got == 0) m_eof = true;
  m_len += got;
  m_buf.get()[m_len] = '\0';
  m_scan.set_end(m_buf.get() + m_len);
  return got > 0;
}

bool FastReader::run() {
  if (!refill(0)) return false;
  const char* p = m_buf.get();
  while (m_state != State::done) {
    const char* start = p;
    m_scan.new_unit();
    const St s = m_state == State::event ? events(p, start) : unit(p);
    if (s == St::bail) return false;
    if (s == St::more) {
      if (!refill(static_cast<std::size_t>(start - m_buf.get()))) return false;
      p = m_buf.get();
    }
  }
  // No traceEvents: the tolerant reader says what the file is (without reading on).
  if (!m_saw_events) return false;
  // What follows the document is ignored, but read: a damaged gzip tail is still found.
  while (refill(m_len)) {
  }
  return m_source.ok() && !m_source.damaged();
}

// One step of the document: advances the state only when the unit is complete.
St FastReader::unit(const char*& p) {
  bool closed = false;
  Scanner::ws(p);  // a unit may start at a window's edge, before the whitespace
  switch (m_state) {
    case State::start:
      // A UTF-8 byte order mark (Windows editors and tools) is not JSON; skip it.
      if (m_base == 0 && p == m_buf.get() && *p == '\xEF') {
        if (const St s = m_scan.literal(p, "\xEF\xBB\xBF"); s != St::ok) return s;
      }
      Scanner::ws(p);
      if (*p != '{') return m_scan.fail(p);  // legacy arrays, not JSON: the tolerant reader
      ++p;
      m_state = State::top_first;
      return St::ok;
    case State::top_first:
      Scanner::ws(p);
      if (*p == '}') {
        ++p;
        m_state = State::done;
        return St::ok;
      }
      m_state = State::top_member;
      return St::ok;
    case State::top_member: return top_member(p);
    case State::top_next:
      if (const St s = m_scan.after_item(p, '}', closed); s != St::ok) return s;
      m_state = closed ? State::done : State::top_member;
      return St::ok;
    case State::events_first:
      Scanner::ws(p);
      if (*p == ']') {
        ++p;
        m_state = State::top_next;
        return St::ok;
      }
      m_state = State::event;
      return St::ok;
    case State::event:
      if (const St s = event(p); s != St::ok) return s;
      m_state = State::events_next;
      return St::ok;
    case State::events_next:
      if (const St s = m_scan.after_item(p, ']', closed); s != St::ok) return s;
      m_state = closed ? State::top_next : State::event;
      return St::ok;
    case State::done: return St::ok;
  }
  return St::bail;
}

// The units of the traceEvents array, event after event, without going back to
// run()'s loop: start follows the unit being scanned, for refill().
St FastReader::events(const char*& p, const char*& start) {
  for (;;) {
    if (const St s = unit(p); s != St::ok) return s;  // an event
    start = p;
    if (const St s = unit(p); s != St::ok) return s;  // what follows it
    if (m_state != State::event) return St::ok;
    start = p;
    m_scan.new_unit();
  }
}

St FastReader::top_member(const char*& p) {
  std::string_view key;
  if (const St s = m_scan.key(p, key); s != St::ok) return s;
  St s = St::ok;
  // The last traceEvents that is an array holds the events (TopKeys).
  const std::uint64_t key_offset = m_base + static_cast<std::uint64_t>(m_scan.key_quote() - m_buf.get());
  if (key == "traceEvents" && *p == '[') {
    ++p;
    m_top_keys.begin(detail::TopKeys::trace_events, m_file, key_offset);
    m_saw_events = true;
    m_state = State::events_first;
    return St::ok;
  }
  if (key == "distributedInfo" && *p == '{') {
    s = distributed_info(p, key_offset);
  } else if (key == "deviceProperties" && *p == '[') {
    s = device_properties(p, key_offset);
  } else if (key == "baseTimeNanoseconds") {
    FieldView v;
    s = m_scan.scalar(p, v, 1);
    if (s == St::ok && (v.type == ValueType::number || v.type == ValueType::string))
      if (const auto t = parse_integer(v.text)) m_file.base_time_ns = *t;
  } else if (key == "cuda_runtime_version" || key == "cuda_driver_version") {
    FieldView v;
    s = m_scan.scalar(p, v, 1);
    if (s == St::ok && (v.type == ValueType::number || v.type == ValueType::string))
      if (const auto t = parse_integer(v.text); t && *t >= 0)
        (key == "cuda_runtime_version" ? m_file.cuda_runtime_version : m_file.cuda_driver_version) = *t;
  } else {
    s = m_scan.skip(p, 1);
  }
  if (s == St::ok) m_state = State::top_next;
  return s;
}

St FastReader::distributed_info(const char*& p, std::uint64_t key_offset) {
  // Rank may be written as text by on-demand traces (kineto-trace-format.md §1.4).
  std::optional<int> rank, world_size;
  const St s = m_scan.object(p, 2, [&](std::string_view key, const char*& q) {
    const bool is_rank = key == "rank";
    if (!is_rank && key != "world_size") return m_scan.skip(q, 2);
    FieldView v;
    const St r = m_scan.scalar(q, v, 2);
    if (r == St::ok && (v.type == ValueType::number || v.type == ValueType::string)) {
      const auto n = parse_integer(v.text);
      if (n && *n >= 0 && *n < (1 << 30)) (is_rank ? rank : world_size) = static_cast<int>(*n);
    }
    return r;
  });
  if (s != St::ok) return s;
  m_top_keys.begin(detail::TopKeys::distributed_info, m_file, key_offset);  // once whole: a unit may be scanned again
  if (rank) {
    m_file.rank = *rank;
    m_file.rank_source = model::RankSource::distributed_info;
  }
  if (world_size) m_file.world_size = *world_size;
  return St::ok;
}

St FastReader::device_properties(const char*& p, std::uint64_t key_offset) {
  std::vector<std::string_view> names;
  const St s = m_scan.array(p, 2, [&](const char*& q) {
    if (*q != '{') return m_scan.skip(q, 2);
    return m_scan.object(q, 3, [&](std::string_view key, const char*& r) {
      if (key != "name") return m_scan.skip(r, 3);
      FieldView v;
      const St t = m_scan.scalar(r, v, 3);
      if (t == St::ok && v.type == ValueType::string) names.push_back(v.text);
      return t;
    });
  });
  if (s != St::ok) return s;
  m_top_keys.begin(detail::TopKeys::device_properties, m_file, key_offset);
  for (const auto name : names) m_file.gpu_names.emplace_back(name);
  return St::ok;
}

// An args["Input Dims"] or args["Input type"] value, token by token into b (the
// tolerant reader feeds it Boost.JSON's events, so both give the same text).
St FastReader::shape_value(const char*& p, int depth, detail::ShapeBuilder& b) {
  switch (*p) {
    case '[': {
      b.begin_array();
      const St s = m_scan.array(p, depth + 1, [&](const char*& q) { return shape_value(q, depth + 1, b); });
      b.end_array();
      return s;
    }
    case '"': {
      FieldView v;
      const St s = m_scan.scalar(p, v, depth);
      b.string(v.text);
      return s;
    }
    case '{':
    case 't':
    case 'f':
    case 'n': b.other(); return m_scan.skip(p, depth);
    default: {
      FieldView v;
      const St s = m_scan.scalar(p, v, depth);
      b.number(v.text);
      return s;
    }
  }
}

// A [memory] event's args (event_sink.hpp), by length first: most args are none of them.
FieldView* memory_field(EventFields& f, std::string_view arg) {
  switch (arg.size()) {
    case 4: return arg == "Addr" ? &f.addr : nullptr;
    case 5: return arg == "Bytes" ? &f.bytes : nullptr;
    case 9: return arg == "Device Id" ? &f.device_id : nullptr;
    case 11: return arg == "Device Type" ? &f.device_type : nullptr;
    case 14: return arg == "Total Reserved" ? &f.total_reserved : nullptr;
    case 15: return arg == "Total Allocated" ? &f.total_allocated : nullptr;
    default: return nullptr;
  }
}

// One traceEvents entry. Only objects are events; anything else is checked and
// skipped, as the tolerant reader ignores it.
St FastReader::event(const char*& p) {
  if (*p != '{') return m_scan.skip(p, 2);
  EventFields f;
  const char* first_key = nullptr;
  const St s = m_scan.object(p, 3, [&](std::string_view key, const char*& q) {
    if (!first_key) first_key = m_scan.key_quote();
    if (FieldView* v = event_field(f, key)) return m_scan.scalar(q, *v, 3);
    if (key != "args" || *q != '{') return m_scan.skip(q, 3);
    return m_scan.object(q, 4, [&](std::string_view arg, const char*& r) {
      if (arg == "correlation") return m_scan.scalar(r, f.correlation, 4);
      if (arg == "stream") return m_scan.scalar(r, f.stream, 4);
      if (arg.size() == 3 && (arg == "Seq" || arg == "seq")) return m_scan.scalar(r, f.seq, 4);
      if (arg.size() == 18 && arg == "Process Group Name") return m_scan.scalar(r, f.group, 4);
      if (FieldView* v = memory_field(f, arg)) return m_scan.scalar(r, *v, 4);
      if (arg.size() == 11 && arg == "kernel_flop") return m_scan.scalar(r, f.kernel_flop, 4);
      if (arg.size() == 13 && arg == "kernel_num_gb") return m_scan.scalar(r, f.kernel_num_gb, 4);
      if (m_by_shape && arg.size() == 10 && (arg == "Input Dims" || arg == "Input type")) {
        auto& b = arg[6] == 'D' ? m_dims : m_types;
        b.reset();  // a key given twice: the last one counts, as for the other fields
        if (const St t = shape_value(r, 4, b); t != St::ok) return t;
        (arg[6] == 'D' ? f.dims : f.types) = b.text();
        return St::ok;
      }
      return m_scan.skip(r, 4);
    });
  });
  if (s != St::ok) return s;
  // Without a key no message is ever written about the event; 0 is as good as any.
  const std::uint64_t offset = first_key ? m_base + static_cast<std::uint64_t>(first_key - m_buf.get()) : 0;
  m_sink.add(f, offset);
  return St::ok;
}

}  // namespace

std::optional<ReadResult> read_trace_fast(ByteSource& source, const std::string& path,
                                          const ReadOptions& options, std::size_t window) {
  ReadResult result;
  model::TraceFile& file = result.file;
  file.path = path;
  detail::reserve_events(file, source.size_hint(), options);
  FastReader reader(source, file, options, window);
  if (!reader.run()) return std::nullopt;
  file.gzip = source.gzip();
  file.json_bytes = source.bytes_out();
  file.bytes_on_disk = source.bytes_in();
  if (file.events.empty()) detail::skip_file(result, model::DiagId::file_skipped_no_events, "no complete events to compare");
  return result;
}

}  // namespace tracediff::reading
