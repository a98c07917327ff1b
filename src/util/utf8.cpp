#include "util/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

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

char32_t utf8_decode(std::string_view s, std::size_t i, std::size_t n) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  char32_t cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

CodePoint utf8_next(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return {b0, 1, true};
  const auto n = utf8_sequence_length(s, i);
  if (n == 0) return {0xFFFD, 1, false};
  return {utf8_decode(s, i, n), n, true};
}

std::string utf8_sanitize(std::string_view s) {
  if (is_ascii(s)) return std::string(s);  // most names
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += k_replacement;
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::size_t utf8_count(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !utf8_continuation(c); }));
}

std::size_t utf8_byte_of(std::string_view s, std::size_t k) {
  std::size_t i = 0;
  for (; i < s.size(); ++i)
    if (!utf8_continuation(s[i]) && k-- == 0) break;
  return i;
}

std::size_t utf8_byte_of_last(std::string_view s, std::size_t k) {
  std::size_t i = s.size();
  while (k > 0 && i > 0)
    if (!utf8_continuation(s[--i])) --k;
  return i;
}

std::size_t utf8_floor(std::string_view s, std::size_t i) {
  while (i > 0 && i < s.size() && utf8_continuation(s[i])) --i;
  return i;
}

std::size_t code_point_width(char32_t c) {
  if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
      (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
      (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1FAFF) ||
      (c >= 0x20000 && c <= 0x3FFFD))
    return 2;
  return 1;
}

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto cp = utf8_next(s, i);
    w += code_point_width(cp.value);
    i += cp.bytes;
  }
  return w;
}

std::string elide_middle(std::string_view s, std::size_t max_width) {
  if (display_width(s) <= max_width) return std::string(s);
  if (max_width == 0) return {};
  if (max_width == 1) return std::string(k_ellipsis);
  struct Cp {
    std::size_t start, end, width;
  };
  std::vector<Cp> cps;
  for (std::size_t i = 0; i < s.size();) {
    const auto cp = utf8_next(s, i);
    cps.push_back({i, i + cp.bytes, code_point_width(cp.value)});
    i += cp.bytes;
  }
  const std::size_t tail_budget = (max_width - 1) / 4;
  const std::size_t head_budget = max_width - 1 - tail_budget;
  std::size_t head_end = 0, w = 0;
  while (head_end < cps.size() && w + cps[head_end].width <= head_budget) w += cps[head_end++].width;
  std::size_t tail_start = cps.size(), tw = 0;
  while (tail_start > head_end && tw + cps[tail_start - 1].width <= tail_budget)
    tw += cps[--tail_start].width;
  std::string out(s.substr(0, head_end ? cps[head_end - 1].end : 0));
  out += k_ellipsis;
  if (tail_start < cps.size()) out += s.substr(cps[tail_start].start);
  return out;
}

}  // namespace tracediff
