#include "util/escape.hpp"

#include <algorithm>
#include <cstdint>

namespace tracediff {

namespace {

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  std::size_t n;
  std::uint32_t min;
  std::uint32_t cp;
  if ((b0 & 0xE0) == 0xC0) { n = 2; min = 0x80; cp = b0 & 0x1F; }
  else if ((b0 & 0xF0) == 0xE0) { n = 3; min = 0x800; cp = b0 & 0x0F; }
  else if ((b0 & 0xF8) == 0xF0) { n = 4; min = 0x10000; cp = b0 & 0x07; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::string utf8_sanitize(std::string_view s) {
  if (is_ascii(s)) return std::string(s);  // most names
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string html_escape(std::string_view raw) {
  std::string out;
  html_escape_append(out, raw);
  return out;
}

void html_escape_append(std::string& out, std::string_view s) {
  // One pass, runs of bytes that stay as they are copied whole: the report escapes
  // thousands of values, most with nothing to escape.
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::string_view with;
    if (c >= 0x80) {
      const auto n = utf8_sequence_length(s, i);
      if (n != 0) {
        i += n;
        continue;
      }
      with = "\xEF\xBF\xBD";  // as utf8_sanitize
    } else {
      switch (c) {
        case '&': with = "&amp;"; break;
        case '<': with = "&lt;"; break;
        case '>': with = "&gt;"; break;
        case '"': with = "&quot;"; break;
        case '\'': with = "&#39;"; break;
        default: ++i; continue;
      }
    }
    out.append(s, run, i - run);
    out += with;
    run = ++i;
  }
  out.append(s, run);
}

std::string json_string(std::string_view raw) {
  static constexpr char hex[] = "0123456789abcdef";
  const std::string s = utf8_sanitize(raw);
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<':
      case '>':
      case '&':
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else if (c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(s[i + 2]) == 0xA8 ||
                    static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
          // U+2028/U+2029 end a line in older JavaScript.
          out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
          i += 2;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string csv_field(std::string_view raw) {
  const std::string s = utf8_sanitize(raw);
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string markdown_code_cell(std::string_view raw) {
  std::string s = utf8_sanitize(raw);
  // Inside a code span nothing is markup, but `|` still splits a GFM table cell.
  std::string body;
  std::size_t longest_ticks = 0, run = 0;
  for (char c : s) {
    if (c == '\n' || c == '\r') c = ' ';
    if (c == '`') longest_ticks = std::max(longest_ticks, ++run);
    else run = 0;
    if (c == '|') body += "\\|";
    else body += c;
  }
  const std::string fence(longest_ticks + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace tracediff
