#include "util/escape.hpp"

#include <algorithm>

#include "util/sanitize.hpp"
#include "util/utf8.hpp"

namespace tracediff {

std::string html_escape(std::string_view raw) {
  std::string out;
  html_escape_append(out, raw);
  return out;
}

void html_escape_append(std::string& out, std::string_view s) {
  // One pass, runs of bytes that stay as they are copied whole: the report escapes
  // thousands of values, most with nothing to escape.
  std::size_t run = 0;
  std::string control;  // a control character, escaped visibly as everywhere (util/sanitize)
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::string_view with;
    std::size_t n = 1;
    if (c >= 0x80) {
      n = utf8_sequence_length(s, i);
      if (n == 0) {
        with = k_replacement;  // as utf8_sanitize
        n = 1;
      } else if (control_length(s, i)) {
        control.clear();
        append_control_escape(control, utf8_decode(s, i, n));
        with = control;
      } else {
        i += n;
        continue;
      }
    } else {
      switch (c) {
        case '&': with = "&amp;"; break;
        case '<': with = "&lt;"; break;
        case '>': with = "&gt;"; break;
        case '"': with = "&quot;"; break;
        case '\'': with = "&#39;"; break;
        case '\t': ++i; continue;  // white space in HTML, harmless on a terminal
        default:
          if (control_length(s, i) == 0) {
            ++i;
            continue;
          }
          control.clear();
          append_control_escape(control, c);
          with = control;
      }
    }
    out.append(s, run, i - run);
    out += with;
    i += n;
    run = i;
  }
  out.append(s, run);
}

std::string json_string(std::string_view raw, bool keep_invalid, bool escape_markup) {
  static constexpr char hex[] = "0123456789abcdef";
  const std::string s = keep_invalid ? std::string(raw) : utf8_sanitize(raw);
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  const auto u_escape = [&](char32_t cp) {
    out += "\\u";
    out += hex[(cp >> 12) & 15];
    out += hex[(cp >> 8) & 15];
    out += hex[(cp >> 4) & 15];
    out += hex[cp & 15];
  };
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
        if (escape_markup) u_escape(c);
        else out += static_cast<char>(c);
        break;
      default:
        // The other controls (C0, DEL, C1, bidi; U+2028/U+2029 also end a line in
        // older JavaScript) as \uXXXX: the same string, and no raw escape sequence
        // reaches a terminal that shows the JSON.
        if (c >= 0x80 && utf8_sequence_length(s, i) == 0) {
          out += static_cast<char>(c);  // an invalid byte, kept (keep_invalid)
        } else if (const auto n = control_length(s, i)) {
          u_escape(utf8_decode(s, i, n));
          i += n - 1;
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

std::string csv_text_field(std::string_view raw, bool terminal) {
  return csv_field(csv_formula_guard(terminal ? display_safe(raw) : utf8_sanitize(raw)));
}

std::string markdown_code_cell(std::string_view raw) {
  const std::string s = display_safe(raw);  // no line break, no control character
  // Inside a code span nothing is markup, but `|` still splits a GFM table cell.
  std::string body;
  std::size_t longest_ticks = 0, run = 0;
  for (char c : s) {
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
