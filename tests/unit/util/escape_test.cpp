#include <boost/test/unit_test.hpp>

#include "util/escape.hpp"

using namespace tracediff;

BOOST_AUTO_TEST_SUITE(escape)

BOOST_AUTO_TEST_CASE(html_escapes_markup_and_quotes) {
  BOOST_TEST(html_escape("</script><img src=x onerror='a'>&\"") ==
             "&lt;/script&gt;&lt;img src=x onerror=&#39;a&#39;&gt;&amp;&quot;");
}

BOOST_AUTO_TEST_CASE(json_in_script_cannot_close_the_element) {
  const auto s = json_string("</script><!--\"\\\n\x01");
  BOOST_TEST(s == R"("\u003c/script\u003e\u003c!--\"\\\n\u0001")");
  BOOST_TEST(s.find('<') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(json_escapes_line_separators) {
  BOOST_TEST(json_string("a\xE2\x80\xA8z") == R"("a\u2028z")");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_becomes_replacement_character) {
  BOOST_TEST(utf8_sanitize("ok\xff\xc3(") == "ok\xEF\xBF\xBD\xEF\xBF\xBD(");
  BOOST_TEST(utf8_sanitize("\xC3\xA9\xE2\x82\xAC") == "\xC3\xA9\xE2\x82\xAC");
  BOOST_TEST(utf8_sanitize("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
}

BOOST_AUTO_TEST_CASE(csv_quotes_per_rfc4180) {
  BOOST_TEST(csv_field("plain") == "plain");
  BOOST_TEST(csv_field("a,b") == "\"a,b\"");
  BOOST_TEST(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  BOOST_TEST(csv_field("two\nlines") == "\"two\nlines\"");
}

BOOST_AUTO_TEST_CASE(markdown_cell_cannot_break_the_table) {
  BOOST_TEST(markdown_code_cell("a|b") == "`a\\|b`");
  BOOST_TEST(markdown_code_cell("x`y") == "``x`y``");
  BOOST_TEST(markdown_code_cell("`x") == "`` `x ``");
  BOOST_TEST(markdown_code_cell("<b>\nq") == "`<b>\\nq`");  // one line: the break shown, not taken
}

BOOST_AUTO_TEST_SUITE_END()
