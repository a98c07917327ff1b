#pragma once
// Exact time values. Kineto writes microseconds as integers or with 3 decimals;
// going through double loses nanoseconds (kineto-trace-format.md §3.2), so the
// number's text is converted with integer arithmetic.
#include <cstdint>
#include <optional>
#include <string_view>

namespace tracediff::reading {

// Microseconds as JSON number text (or the text of a numeric string) → integer
// nanoseconds. Digits past the third decimal round half away from zero. Exponents
// are accepted (`1.6e+15`). nullopt for anything that is not a finite number or does
// not fit in int64 nanoseconds.
std::optional<std::int64_t> parse_us_to_ns(std::string_view text);

// Eight characters as a little-endian word -> nonzero bits in the bytes that are not
// ASCII digits, zero when all eight are. A byte is a digit when its high nibble is 3 and
// adding 6 does not carry out of 9; a carry out of a non-digit byte marks only later
// bytes, so the lowest marked byte is the first non-digit.
inline std::uint64_t non_digit_bytes(std::uint64_t w) {
  return ((w & 0xF0F0F0F0F0F0F0F0u) ^ 0x3030303030303030u) |
         (((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) ^ 0x3030303030303030u);
}

// Plain integer text ("3", "-1", " 7 "); nullopt otherwise.
std::optional<std::int64_t> parse_integer(std::string_view text);

// Whether the whole text is a number by RFC 8259's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view text);

// The double Python's float() gives for the text (correctly rounded), for HTA parity.
std::optional<double> parse_double(std::string_view text);

}  // namespace tracediff::reading
