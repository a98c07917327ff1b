// The one JSON emitter (output/json_emit.hpp) into a string, as the HTML page's data blocks
// use it: the same bytes as into a stream, compact without the spaces, and strings that
// cannot close the <script> element that embeds them.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "output/json_emit.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
namespace json = boost::json;

namespace {

const std::string k_hostile = "aten::add</script><!--\"&'\xE2\x80\xAE\x1b\xE2\x80\xA8\xff";

// One document with every kind of value, nested, and a line break per item.
void document(output::JsonEmit& j) {
  j.begin_object().key("names").begin_array().string("plain").string(k_hostile).end_array();
  j.key("ints").begin_array();
  j.number(std::numeric_limits<std::int64_t>::min()).number(std::numeric_limits<std::uint64_t>::max());
  j.number(0).number(-7).end_array();
  j.key("flags").begin_array().boolean(true).boolean(false).null().end_array();
  j.key("rows").begin_array();
  for (int i = 0; i < 3; ++i) j.line(0).begin_array().number(i).number(std::string_view("2.5")).end_array();
  j.end_array().key(k_hostile).string("key").end_object();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_emit)

BOOST_AUTO_TEST_CASE(a_string_gets_the_bytes_a_stream_gets) {
  std::ostringstream stream;
  output::JsonEmit to_stream(stream);
  document(to_stream);
  std::string text;
  output::JsonEmit to_string(text);
  document(to_string);
  BOOST_TEST(text == stream.str());
}

BOOST_AUTO_TEST_CASE(compact_leaves_out_the_spaces_only) {
  std::string spaced, compact;
  output::JsonEmit a(spaced), b(compact);
  document(a);
  b.compact();
  document(b);
  // The hostile string holds no ", " or ": " once escaped (its quote is \"), so the only
  // spaces are the emitter's.
  std::string expected;
  for (std::size_t i = 0; i < spaced.size(); ++i) {
    expected += spaced[i];
    if ((spaced[i] == ',' || spaced[i] == ':') && i + 1 < spaced.size() && spaced[i + 1] == ' ') ++i;
  }
  BOOST_TEST(compact == expected);
  BOOST_TEST(compact.find(", ") == std::string::npos);
  BOOST_TEST(test::parse_json(compact) == test::parse_json(spaced));
  BOOST_TEST(compact.find(",\n[") != std::string::npos);  // line(0) still breaks the line
}

BOOST_AUTO_TEST_CASE(strings_cannot_close_a_script_element) {
  std::string text;
  output::JsonEmit j(text);
  document(j.compact());
  BOOST_TEST(text.find('<') == std::string::npos);
  BOOST_TEST(text.find('>') == std::string::npos);
  BOOST_TEST(text.find('&') == std::string::npos);
  BOOST_TEST(text.find("\xE2\x80\xA8") == std::string::npos);  // U+2028 ends a line in older JS
  const auto doc = test::parse_json(text).as_object();
  // The string reads back as it was given, but for the invalid byte (U+FFFD).
  const std::string back(doc.at("names").as_array().at(1).as_string());
  BOOST_TEST(back == k_hostile.substr(0, k_hostile.size() - 1) + "\xEF\xBF\xBD");
  BOOST_TEST(doc.at("ints").as_array().at(1).as_uint64() == std::numeric_limits<std::uint64_t>::max());
}

BOOST_AUTO_TEST_SUITE_END()
