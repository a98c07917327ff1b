#include <boost/test/unit_test.hpp>

#include <string>

#include "util/utf8.hpp"

using namespace tracediff;

namespace {

// U+FFFD n times: what n invalid bytes become.
std::string replacements(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += k_replacement;
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(utf8)

BOOST_AUTO_TEST_CASE(sequence_lengths_of_valid_text) {
  const std::string s = "a\xC2\xB5\xE6\xBC\xA2\xF0\x9F\x98\x80";  // a µ 漢 😀
  BOOST_TEST(utf8_sequence_length(s, 0) == 1u);
  BOOST_TEST(utf8_sequence_length(s, 1) == 2u);
  BOOST_TEST(utf8_sequence_length(s, 3) == 3u);
  BOOST_TEST(utf8_sequence_length(s, 6) == 4u);
  BOOST_TEST((utf8_decode(s, 1, 2) == U'\u00B5'));
  BOOST_TEST((utf8_decode(s, 3, 3) == U'\u6F22'));
  BOOST_TEST((utf8_decode(s, 6, 4) == U'\U0001F600'));
  BOOST_TEST(utf8_sanitize(s) == s);
}

BOOST_AUTO_TEST_CASE(malformed_sequences_are_one_replacement_per_byte) {
  struct Case {
    std::string bytes;
    const char* why;
  };
  const Case cases[] = {
      {"\x80", "stray continuation"},
      {"\xFF", "never a lead byte"},
      {"\xF5\x80\x80\x80", "lead byte past U+10FFFF"},
      {"\xC0\xAF", "overlong '/'"},
      {"\xE0\x80\xAF", "overlong, three bytes"},
      {"\xED\xA0\x80", "surrogate U+D800"},
      {"\xF4\x90\x80\x80", "U+110000"},
      {"\xE2\x82", "cut short"},
      {"\xF0\x9F\x98", "cut short, four bytes"},
      {"\xC3(", "continuation missing"},
  };
  for (const auto& c : cases) {
    BOOST_TEST(utf8_sequence_length(c.bytes, 0) == 0u, c.why);
    const auto next = utf8_next(c.bytes, 0);
    BOOST_TEST(!next.valid, c.why);
    BOOST_TEST(next.bytes == 1u, c.why);
    BOOST_TEST((next.value == U'\uFFFD'), c.why);
    // Each byte that starts no valid sequence is one U+FFFD; '(' stays.
    const std::size_t bad = c.bytes.back() == '(' ? 1 : c.bytes.size();
    BOOST_TEST(utf8_sanitize(c.bytes) == replacements(bad) + (bad < c.bytes.size() ? "(" : ""), c.why);
    BOOST_TEST(display_width(c.bytes) == c.bytes.size(), c.why);  // one column per U+FFFD
  }
  // The largest and the smallest of each length are valid.
  BOOST_TEST(utf8_sequence_length("\xF4\x8F\xBF\xBF", 0) == 4u);
  BOOST_TEST(utf8_sequence_length("\xEF\xBF\xBF", 0) == 3u);
  BOOST_TEST(utf8_sequence_length("\xC2\x80", 0) == 2u);
  BOOST_TEST(utf8_sequence_length("\xE0\xA0\x80", 0) == 3u);
  BOOST_TEST(utf8_sequence_length("\xF0\x90\x80\x80", 0) == 4u);
  BOOST_TEST(utf8_sequence_length(std::string("\0", 1), 0) == 1u);
}

BOOST_AUTO_TEST_CASE(counting_and_locating_code_points) {
  const std::string s = "a\xC2\xB5\xE6\xBC\xA2z";  // a µ 漢 z
  BOOST_TEST(utf8_count(s) == 4u);
  BOOST_TEST(utf8_count("") == 0u);
  BOOST_TEST(utf8_byte_of(s, 0) == 0u);
  BOOST_TEST(utf8_byte_of(s, 2) == 3u);
  BOOST_TEST(utf8_byte_of(s, 4) == s.size());
  BOOST_TEST(utf8_byte_of(s, 9) == s.size());
  BOOST_TEST(utf8_byte_of_last(s, 1) == s.size() - 1);
  BOOST_TEST(utf8_byte_of_last(s, 2) == 3u);
  BOOST_TEST(utf8_byte_of_last(s, 9) == 0u);
  BOOST_TEST(utf8_floor(s, 4) == 3u);  // inside 漢
  BOOST_TEST(utf8_floor(s, 5) == 3u);
  BOOST_TEST(utf8_floor(s, 3) == 3u);
  BOOST_TEST(utf8_floor(s, s.size()) == s.size());
}

BOOST_AUTO_TEST_CASE(wide_characters_take_two_columns) {
  BOOST_TEST(display_width("abc") == 3u);
  BOOST_TEST(display_width("\xC2\xB5s") == 2u);                  // µs
  BOOST_TEST(display_width("\xE6\xBC\xA2\xE5\xAD\x97") == 4u);   // 漢字
  BOOST_TEST(display_width("\xED\x95\x9C") == 2u);               // 한 (Hangul syllable)
  BOOST_TEST(display_width("\xEF\xBC\xA1") == 2u);               // Ａ (fullwidth)
  BOOST_TEST(display_width("\xF0\x9F\x98\x80") == 2u);           // 😀
  BOOST_TEST(display_width("\xF0\xA0\x80\x80") == 2u);           // U+20000 (CJK extension B)
  BOOST_TEST(display_width("\xE3\x80\xBF") == 1u);               // U+303F, half-width in its block
  BOOST_TEST(code_point_width(U'\u10FF') == 1u);
  BOOST_TEST(code_point_width(U'\u1100') == 2u);
  BOOST_TEST(code_point_width(U'\uFF61') == 1u);  // halfwidth katakana punctuation
}

BOOST_AUTO_TEST_CASE(combining_and_zero_width_marks_count_one_column) {
  // As the terminal writer has always counted them: a column each. Terminals
  // differ on these; the tables stay aligned for the names people write.
  BOOST_TEST(display_width("e\xCC\x81") == 2u);        // e + U+0301
  BOOST_TEST(display_width("a\xE2\x80\x8B" "b") == 3u);  // U+200B
  BOOST_TEST(code_point_width(U'\u0301') == 1u);
}

BOOST_AUTO_TEST_CASE(elision_keeps_head_and_tail_within_the_width) {
  BOOST_TEST(elide_middle("short", 10) == "short");
  BOOST_TEST(elide_middle("exactly10!", 10) == "exactly10!");
  BOOST_TEST(elide_middle("abcdefghijklmnopqrstuvwxyz", 10) == "abcdefg\xE2\x80\xA6yz");  // 7 + … + 2
  BOOST_TEST(elide_middle("abcdefghijk", 1) == "\xE2\x80\xA6");
  BOOST_TEST(elide_middle("abcdefghijk", 0) == "");
  BOOST_TEST(elide_middle("abc", 2) == "a\xE2\x80\xA6");  // no room for a tail
  for (std::size_t w = 0; w < 30; ++w) {
    const auto e = elide_middle("abcdefghijklmnopqrstuvwxyz", w);
    BOOST_TEST(display_width(e) <= w, w);
  }
}

BOOST_AUTO_TEST_CASE(elision_cuts_between_code_points_and_counts_columns) {
  const std::string wide = "\xE6\xBC\xA2\xE5\xAD\x97\xE6\xBC\xA2\xE5\xAD\x97\xE6\xBC\xA2\xE5\xAD\x97";  // 6 wide
  // 9 columns: head budget 6 (3 wide), tail budget 2 (1 wide), "…" 1.
  BOOST_TEST(elide_middle(wide, 9) == wide.substr(0, 9) + std::string(k_ellipsis) + wide.substr(15));
  // 8 columns: head budget 6, tail budget 1: no wide character fits the tail.
  BOOST_TEST(elide_middle(wide, 8) == wide.substr(0, 9) + std::string(k_ellipsis));
  for (std::size_t w = 1; w < 14; ++w) {
    const auto e = elide_middle(wide, w);
    BOOST_TEST(display_width(e) <= w, w);
    BOOST_TEST(utf8_sanitize(e) == e, w);  // never a code point cut in two
  }
  // A combining mark is a code point of its own: it may be parted from its base.
  const std::string marks = "e\xCC\x81\xCC\x81\xCC\x81\xCC\x81xyz";  // e + 4 marks + xyz
  const auto e = elide_middle(marks, 5);
  BOOST_TEST(display_width(e) <= 5u);
  BOOST_TEST(utf8_sanitize(e) == e);
}

BOOST_AUTO_TEST_SUITE_END()
