#include "reading/repair.hpp"

#include <cstdio>

#include "reading/number.hpp"

namespace tracediff::reading {

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// Characters of a bare word: numbers, literals, NaN, -Infinity, N/A, ...
bool is_word(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' ||
         c == '.' || c == '_' || c == '/';
}

unsigned hex4(std::string_view h) {
  unsigned v = 0;
  for (char c : h) v = v * 16 + static_cast<unsigned>(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  return v;
}


}  // namespace

std::optional<RepairedEvent> repair_event(std::string_view text, std::size_t max_bytes) {
  if (text.empty() || text.front() != '{') return std::nullopt;
  const std::size_t n = text.size() < max_bytes ? text.size() : max_bytes;
  std::string out;
  out.reserve(n < 4096 ? n + 16 : 4096);
  bool changed = false;
  int depth = 0;
  bool comma_is_stray = false;  // just after "{", "[" or ",": a comma here is dropped
  bool want_value = false;      // just after ":": a missing value becomes null
  std::size_t i = 0;
  while (i < n) {
    const char c = text[i];
    if (is_ws(c)) {
      out += c;
      ++i;
      continue;
    }
    if (want_value && (c == ',' || c == '}' || c == ']')) {
      out += "null";  // `"rank": ,` (kineto on-demand metadata)
      changed = true;
    }
    want_value = false;
    if (c == '"') {
      out += c;
      bool closed = false;
      for (++i; i < n && !closed;) {
        const auto d = static_cast<unsigned char>(text[i]);
        if (d == '"') {
          out += '"';
          ++i;
          closed = true;
        } else if (d == '\\') {
          if (i + 1 >= n) return std::nullopt;
          const char e = text[i + 1];
          const bool simple = e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                              e == 'r' || e == 't';
          if (simple) {
            out.append(text.substr(i, 2));
            i += 2;
          } else if (e == 'u' && i + 5 < n && is_hex(text[i + 2]) && is_hex(text[i + 3]) &&
                     is_hex(text[i + 4]) && is_hex(text[i + 5])) {
            // Python's json.dump writes surrogate-escaped bytes as lone surrogates
            // (`\udcff`), which Boost.JSON rejects: make those U+FFFD.
            const unsigned u = hex4(text.substr(i + 2, 4));
            if (u >= 0xD800 && u <= 0xDBFF && i + 11 < n && text[i + 6] == '\\' && text[i + 7] == 'u' &&
                is_hex(text[i + 8]) && is_hex(text[i + 9]) && is_hex(text[i + 10]) &&
                is_hex(text[i + 11]) && hex4(text.substr(i + 8, 4)) >= 0xDC00 &&
                hex4(text.substr(i + 8, 4)) <= 0xDFFF) {
              out.append(text.substr(i, 12));  // a proper pair
              i += 12;
            } else if (u >= 0xD800 && u <= 0xDFFF) {
              out += "\\ufffd";
              i += 6;
              changed = true;
            } else {
              out.append(text.substr(i, 6));
              i += 6;
            }
          } else {
            out += "\\\\";  // unknown escape: keep the backslash as a character
            ++i;
            changed = true;
          }
        } else if (d < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(d));
          out += buf;
          ++i;
          changed = true;
        } else {
          out += static_cast<char>(d);
          ++i;
        }
      }
      if (!closed) return std::nullopt;
      comma_is_stray = false;
    } else if (c == '{' || c == '[') {
      ++depth;
      out += c;
      ++i;
      comma_is_stray = true;
    } else if (c == '}' || c == ']') {
      --depth;
      out += c;
      ++i;
      comma_is_stray = false;
      if (depth == 0) {
        if (!changed) return std::nullopt;
        return RepairedEvent{std::move(out), i};
      }
    } else if (c == ',') {
      ++i;
      if (comma_is_stray) {
        changed = true;
      } else {
        out += c;
        comma_is_stray = true;
      }
    } else if (is_word(c)) {
      const std::size_t b = i;
      while (i < n && is_word(text[i])) ++i;
      const std::string_view w = text.substr(b, i - b);
      if (w == "true" || w == "false" || w == "null" || is_json_number(w)) {
        out.append(w);
      } else {
        // NaN, Infinity, N/A, nan, ...: kept as text (word characters need no escaping),
        // so messages show them and numeric fields still reject them.
        out += '"';
        out.append(w);
        out += '"';
        changed = true;
      }
      comma_is_stray = false;
    } else {
      // ":" or a byte JSON has no use for here; Boost.JSON judges the result.
      out += c;
      ++i;
      want_value = c == ':';
      comma_is_stray = false;
    }
  }
  return std::nullopt;
}

}  // namespace tracediff::reading
