#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>

#include "util/format.hpp"

using namespace tracediff;

BOOST_AUTO_TEST_SUITE(format)

BOOST_AUTO_TEST_CASE(durations_pick_a_unit_and_three_significant_digits) {
  BOOST_TEST(format_duration_ns(0, false) == "0 ns");
  BOOST_TEST(format_duration_ns(0, true) == "0 ns");
  BOOST_TEST(format_duration_ns(812, false) == "812 ns");
  BOOST_TEST(format_duration_ns(999, false) == "999 ns");
  BOOST_TEST(format_duration_ns(1000, false) == "1.00 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(1234, false) == "1.23 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(1235, false) == "1.24 \xC2\xB5s");  // half away from zero
  BOOST_TEST(format_duration_ns(12'345, false) == "12.3 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(123'456, false) == "123 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(1'250'000, true) == "+1.25 ms");
  BOOST_TEST(format_duration_ns(-65'432'100, true) == "-65.4 ms");
  BOOST_TEST(format_duration_ns(-65'432'100, false) == "-65.4 ms");
  BOOST_TEST(format_duration_ns(2'500'000'000, false) == "2.50 s");
  BOOST_TEST(format_duration_ns(1'234'567'890'123, false) == "1,235 s");
}

BOOST_AUTO_TEST_CASE(durations_round_up_into_the_next_digit_or_unit) {
  BOOST_TEST(format_duration_ns(9'996, false) == "10.0 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(99'960, false) == "100 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(999'500, false) == "1.00 ms");
  BOOST_TEST(format_duration_ns(999'499, false) == "999 \xC2\xB5s");
  BOOST_TEST(format_duration_ns(999'999'999, false) == "1.00 s");
}

BOOST_AUTO_TEST_CASE(durations_survive_the_extremes) {
  const auto min = std::numeric_limits<std::int64_t>::min();
  const auto max = std::numeric_limits<std::int64_t>::max();
  BOOST_TEST(format_duration_ns(max, true) == "+9,223,372,037 s");
  BOOST_TEST(format_duration_ns(min, true) == "-9,223,372,037 s");
}

BOOST_AUTO_TEST_CASE(counts_have_thousands_separators_and_signs) {
  BOOST_TEST(format_count(0, true) == "0");
  BOOST_TEST(format_count(7, false) == "7");
  BOOST_TEST(format_count(999, true) == "+999");
  BOOST_TEST(format_count(1000, false) == "1,000");
  BOOST_TEST(format_count(1'234'567, true) == "+1,234,567");
  BOOST_TEST(format_count(-12'345, true) == "-12,345");
  BOOST_TEST(format_count(-12'345, false) == "-12,345");
  BOOST_TEST(format_count(std::numeric_limits<std::int64_t>::min(), false) == "-9,223,372,036,854,775,808");
}

BOOST_AUTO_TEST_CASE(percentages_are_signed_with_one_decimal) {
  BOOST_TEST(format_pct(12.34) == "+12.3%");
  BOOST_TEST(format_pct(-4.0) == "-4.0%");
  BOOST_TEST(format_pct(0.0) == "0.0%");
  BOOST_TEST(format_pct(-0.04) == "0.0%");  // no "-0.0%"
  BOOST_TEST(format_pct(0.05) == "+0.1%");
  BOOST_TEST(format_pct(12345.67) == "\xC3\x97" "124");       // ten times or more: a factor
  BOOST_TEST(format_pct(899.9) == "+899.9%");
  BOOST_TEST(format_pct(900.0) == "\xC3\x97" "10.0");
  BOOST_TEST(format_pct(3286.7) == "\xC3\x97" "33.9");
  BOOST_TEST(format_pct(131353.1) == "\xC3\x97" "1,315");
  BOOST_TEST(format_pct(-100.0) == "-100.0%");
}

BOOST_AUTO_TEST_CASE(missing_percentages_say_why) {
  BOOST_TEST(format_pct(std::nullopt) == "n/a");
  BOOST_TEST(format_pct(std::nullopt, true) == "new");
  BOOST_TEST(format_pct(std::numeric_limits<double>::infinity()) == "n/a");
  BOOST_TEST(format_pct(std::numeric_limits<double>::quiet_NaN()) == "n/a");
}

BOOST_AUTO_TEST_CASE(bytes_use_decimal_units) {
  BOOST_TEST(format_bytes(0) == "0 B");
  BOOST_TEST(format_bytes(999) == "999 B");
  BOOST_TEST(format_bytes(1000) == "1.00 kB");
  BOOST_TEST(format_bytes(34'213'000) == "34.2 MB");
  BOOST_TEST(format_bytes(999'999) == "1.00 MB");
  BOOST_TEST(format_bytes(std::numeric_limits<std::uint64_t>::max()) == "18.4 EB");
}

BOOST_AUTO_TEST_SUITE_END()
