#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <string>

#include "reading/number.hpp"

using tracediff::reading::is_json_number;
using tracediff::reading::non_digit_bytes;
using tracediff::reading::parse_double;
using tracediff::reading::parse_integer;
using tracediff::reading::parse_us_to_ns;

BOOST_AUTO_TEST_SUITE(number)

BOOST_AUTO_TEST_CASE(integer_microseconds_scale_exactly) {
  // 1661938466265032 µs: x * 1000.0 in double would be off (kineto-trace-format.md §3.2).
  BOOST_TEST(*parse_us_to_ns("1661938466265032") == 1661938466265032000LL);
  BOOST_TEST(*parse_us_to_ns("0") == 0);
  BOOST_TEST(*parse_us_to_ns("-5") == -5000);
}

BOOST_AUTO_TEST_CASE(three_decimals_are_exact_nanoseconds) {
  BOOST_TEST(*parse_us_to_ns("1712195495519689.047") == 1712195495519689047LL);
  BOOST_TEST(*parse_us_to_ns("4458676388068.751") == 4458676388068751LL);
  BOOST_TEST(*parse_us_to_ns("1.5") == 1500);
  BOOST_TEST(*parse_us_to_ns("0.001") == 1);
  BOOST_TEST(*parse_us_to_ns("123.0") == 123000);
}

BOOST_AUTO_TEST_CASE(the_plain_form_shortcut_agrees_with_the_general_parse) {
  // "e0" sends the same number through the general digit-string path.
  std::uint64_t x = 88172645463325252ULL;  // xorshift: a fixed, varied sample
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const int int_len = 1 + static_cast<int>(x % 17);
    const int frac_len = static_cast<int>((x >> 8) % 5) - 1;  // -1: no point
    std::string s = (x >> 16) % 4 == 0 ? "-" : "";
    std::uint64_t y = x;
    for (int k = 0; k < int_len; ++k, y /= 10) s += static_cast<char>('0' + y % 10);
    if (frac_len >= 0) s += '.';
    for (int k = 0; k < frac_len; ++k, y /= 7) s += static_cast<char>('0' + y % 10);
    BOOST_TEST((parse_us_to_ns(s) == parse_us_to_ns(s + "e0")), s);
  }
  BOOST_TEST(!parse_us_to_ns("1.").has_value() == !parse_us_to_ns("1.e0").has_value());
}

BOOST_AUTO_TEST_CASE(extra_digits_round_half_away_from_zero) {
  BOOST_TEST(*parse_us_to_ns("2.0000000001") == 2000);
  BOOST_TEST(*parse_us_to_ns("0.0005") == 1);
  BOOST_TEST(*parse_us_to_ns("0.0004999") == 0);
  BOOST_TEST(*parse_us_to_ns("-0.0015") == -2);
}

BOOST_AUTO_TEST_CASE(exponents) {
  BOOST_TEST(*parse_us_to_ns("1.6e+15") == 1600000000000000000LL);
  BOOST_TEST(*parse_us_to_ns("1e3") == 1000000);
  BOOST_TEST(*parse_us_to_ns("15e-1") == 1500);
  BOOST_TEST(*parse_us_to_ns("1E-4") == 0);
}

BOOST_AUTO_TEST_CASE(rejects_non_numbers_and_overflow) {
  for (const char* bad : {"", "abc", "1.2.3", "NaN", "Infinity", "1e", "--1", "0x10", "1 2", "9e30",
                          "99999999999999999999"})
    BOOST_TEST(!parse_us_to_ns(bad), bad);
  BOOST_TEST(*parse_us_to_ns(" 12 ") == 12000);  // numeric strings may carry spaces
}

BOOST_AUTO_TEST_CASE(integers_and_doubles) {
  BOOST_TEST(*parse_integer("-1") == -1);
  BOOST_TEST(!parse_integer("1.5"));
  BOOST_TEST(!parse_integer("0x0"));
  BOOST_TEST(*parse_double("1712195495519689.047") == 1712195495519689.047);
  BOOST_TEST(!parse_double("nan"));
}

// RFC 8259's grammar exactly: what Boost.JSON accepts as a number, nothing more.
BOOST_AUTO_TEST_CASE(json_number_grammar) {
  for (const char* good : {"0", "-0", "7", "-12", "0.5", "10.25", "1e5", "1E+5", "2.5e-3", "-0.0e0"})
    BOOST_TEST(is_json_number(good), good);
  for (const char* bad : {"", "-", "01", "+1", ".5", "1.", "1e", "1e+", "1.2.3", "NaN", "Infinity", "0x10",
                          " 1", "1 ", "--1", "1e5.0"})
    BOOST_TEST(!is_json_number(bad), bad);
}

// The eight-at-a-time digit test behind the reader's timestamps: every byte value in
// every position, with digits around it, and the first non-digit is where it is.
BOOST_AUTO_TEST_CASE(non_digit_bytes_finds_the_first_non_digit) {
  for (int pos = 0; pos < 8; ++pos) {
    for (int b = 0; b < 256; ++b) {
      char text[8];
      for (int i = 0; i < 8; ++i) text[i] = static_cast<char>('0' + (i * 3 + pos) % 10);
      text[pos] = static_cast<char>(b);
      for (int i = pos + 1; i < 8; ++i) text[i] = static_cast<char>(0xFF);  // carries out of later bytes
      std::uint64_t w;
      std::memcpy(&w, text, 8);
      const std::uint64_t marked = non_digit_bytes(w);
      const bool digit = b >= '0' && b <= '9';
      const int first = marked ? __builtin_ctzll(marked) / 8 : 8;
      BOOST_TEST(first == (digit ? (pos == 7 ? 8 : pos + 1) : pos), "pos " << pos << " byte " << b);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
