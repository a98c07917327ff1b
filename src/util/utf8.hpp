#pragma once
// UTF-8, once for every writer: decoding with one policy for invalid bytes, counting
// and locating code points, the columns a terminal gives text, and eliding to a width.
//
// Invalid bytes (overlong forms, surrogates, past U+10FFFF, stray or missing
// continuation bytes) are each one U+FFFD: utf8_sanitize("a\xff") is "a\uFFFD",
// utf8_next reads that byte as U+FFFD of one byte.
#include <cstddef>
#include <string>
#include <string_view>

namespace tracediff {

inline constexpr std::string_view k_ellipsis = "\xE2\x80\xA6";     // U+2026, what elision leaves
inline constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD, for an invalid byte

// A byte inside a sequence (10xxxxxx), not the start of a code point.
inline bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence starting at s[i] (1 to 4), or 0 if invalid
// (overlong, surrogate, past U+10FFFF, cut short).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// The code point of the valid UTF-8 sequence of n bytes at s[i].
char32_t utf8_decode(std::string_view s, std::size_t i, std::size_t n);

// The code point at s[i] and its bytes; an invalid byte is U+FFFD of one byte.
struct CodePoint {
  char32_t value;
  std::size_t bytes;
  bool valid;
};
CodePoint utf8_next(std::string_view s, std::size_t i);

// Replaces each invalid byte with U+FFFD; valid text is returned unchanged.
std::string utf8_sanitize(std::string_view s);

// These take valid UTF-8 (utf8_sanitize's output) and count code points.
std::size_t utf8_count(std::string_view s);
// Byte offset of code point number k (s.size() when k is the count or more).
std::size_t utf8_byte_of(std::string_view s, std::size_t k);
// Byte offset where the last k code points start (0 when s has fewer).
std::size_t utf8_byte_of_last(std::string_view s, std::size_t k);
// i, or the start of the code point that s[i] is inside of.
std::size_t utf8_floor(std::string_view s, std::size_t i);

// Terminal columns: 2 for East Asian Wide and Fullwidth blocks (enough to keep CJK
// names aligned), 1 for everything else, combining and zero-width marks included.
std::size_t code_point_width(char32_t c);
// Columns of s (an invalid byte is one U+FFFD: one column).
std::size_t display_width(std::string_view s);
// s in at most max_width columns: its head and a quarter of the room at its tail,
// joined with "…", cut between code points.
std::string elide_middle(std::string_view s, std::size_t max_width);

}  // namespace tracediff
