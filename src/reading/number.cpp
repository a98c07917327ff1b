#include "reading/number.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

namespace tracediff::reading {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
// The number eight ASCII digits make (check them with non_digit_bytes first).
std::uint64_t eight_digit_value(std::uint64_t w) {  // little-endian: the first digit is the low byte
  w = ((w & 0x0F0F0F0F0F0F0F0Fu) * 2561) >> 8;
  w = ((w & 0x00FF00FF00FF00FFu) * 6553601) >> 16;
  return ((w & 0x0000FFFF0000FFFFu) * 42949672960001u) >> 32;
}

// Kineto's usual forms, "123" and "123.456" (up to 16 integer and 3 fraction
// digits), without building a digit string; the rest goes the general way.
std::optional<std::int64_t> parse_plain_us(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* const int_begin = p;
  std::int64_t v = 0;
  // Epoch microseconds have 16 digits: eight at a time.
  while (end - p >= 8 && p - int_begin <= 8 && non_digit_bytes(load8(p)) == 0) {
    v = v * 100000000 + static_cast<std::int64_t>(eight_digit_value(load8(p)));
    p += 8;
  }
  while (p != end && is_digit(*p) && p - int_begin < 17) v = v * 10 + (*p++ - '0');
  const auto int_digits = p - int_begin;
  if (int_digits == 0 || int_digits > 16) return std::nullopt;
  std::int64_t frac = 0;
  int scale = 1000;
  if (p != end && *p == '.') {
    ++p;
    const char* const frac_begin = p;
    while (p != end && is_digit(*p) && p - frac_begin < 3) {
      frac = frac * 10 + (*p++ - '0');
      scale /= 10;
    }
    if (p == frac_begin) return std::nullopt;
  }
  if (p != end) return std::nullopt;
  std::int64_t ns = 0;
  if (__builtin_mul_overflow(v, 1000, &ns) || __builtin_add_overflow(ns, frac * scale, &ns)) return std::nullopt;
  return negative ? -ns : ns;
}

}  // namespace

std::optional<std::int64_t> parse_us_to_ns(std::string_view text) {
  if (const auto plain = parse_plain_us(text)) return plain;
  std::string_view s = trim(text);
  if (s.empty()) return std::nullopt;
  bool negative = false;
  if (s.front() == '-' || s.front() == '+') {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  // Split into integer digits, fraction digits and exponent.
  std::size_t i = 0;
  const std::size_t int_begin = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  std::string_view int_digits = s.substr(int_begin, i - int_begin);
  std::string_view frac_digits;
  if (i < s.size() && s[i] == '.') {
    const std::size_t fb = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    frac_digits = s.substr(fb, i - fb);
  }
  if (int_digits.empty() && frac_digits.empty()) return std::nullopt;
  long exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    const std::size_t eb = i;
    while (i < s.size() && is_digit(s[i]) && i - eb < 6) exponent = exponent * 10 + (s[i++] - '0');
    if (i == eb || (i < s.size() && is_digit(s[i]))) return std::nullopt;
    if (eneg) exponent = -exponent;
  }
  if (i != s.size()) return std::nullopt;

  // All significant digits in one string; the decimal point sits after `point` digits.
  // Value in ns = digits × 10^(3 + exponent − fraction length).
  std::string digits(int_digits);
  digits += frac_digits;
  long shift = 3 + exponent - static_cast<long>(frac_digits.size());
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  digits.erase(0, first);
  if (shift > 0) {
    if (digits.size() + static_cast<std::size_t>(shift) > 19) return std::nullopt;
    digits.append(static_cast<std::size_t>(shift), '0');
    shift = 0;
  }
  // shift <= 0: drop -shift digits, rounding half away from zero on the first dropped.
  bool round_up = false;
  if (shift < 0) {
    const auto drop = static_cast<std::size_t>(-shift);
    if (drop > digits.size()) {
      digits.clear();  // below half a nanosecond
    } else {
      round_up = digits[digits.size() - drop] >= '5';
      digits.resize(digits.size() - drop);
    }
  }
  if (digits.size() > 19) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : digits) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  if (round_up) ++v;
  if (v > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  const auto r = static_cast<std::int64_t>(v);
  return negative ? -r : r;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view text) {
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

bool is_json_number(std::string_view w) {
  std::size_t i = 0;
  if (i < w.size() && w[i] == '-') ++i;
  if (i == w.size()) return false;
  if (w[i] == '0') ++i;
  else if (is_digit(w[i])) while (i < w.size() && is_digit(w[i])) ++i;
  else return false;
  if (i < w.size() && w[i] == '.') {
    const std::size_t b = ++i;
    while (i < w.size() && is_digit(w[i])) ++i;
    if (i == b) return false;
  }
  if (i < w.size() && (w[i] == 'e' || w[i] == 'E')) {
    ++i;
    if (i < w.size() && (w[i] == '+' || w[i] == '-')) ++i;
    const std::size_t b = i;
    while (i < w.size() && is_digit(w[i])) ++i;
    if (i == b) return false;
  }
  return i == w.size();
}

}  // namespace tracediff::reading
