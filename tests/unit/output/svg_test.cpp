// The pages' SVG writer (output/svg.hpp): elements closed as they were opened, text and
// attribute values escaped, numbers in the charts' two forms.
#include <boost/test/unit_test.hpp>

#include <string>

#include "output/svg.hpp"
#include "util/escape.hpp"

using namespace tracediff;
using namespace tracediff::output;

BOOST_AUTO_TEST_SUITE(svg_writer)

BOOST_AUTO_TEST_CASE(elements_end_as_they_were_opened) {
  std::string out;
  svg::Writer w(out);
  w.open("svg").attr("viewBox", "0 0 10 10");
  w.open("line").attr("x1", "1").end();                // no content: />
  w.open("text").attr("x", "2").text("").end();        // text, even empty: </text>
  w.open("line").open("title").text("t").end().end();  // a child: </line>
  w.end();
  BOOST_TEST(out == std::string("<svg viewBox=\"0 0 10 10\">") + "<line x1=\"1\"/>" + "<text x=\"2\"></text>" +
                        "<line><title>t</title></line>" + "</svg>");
}

BOOST_AUTO_TEST_CASE(text_and_values_are_escaped) {
  const std::string hostile = "a\"b'<script>&\x1b\xE2\x80\xAE";
  std::string out;
  svg::Writer w(out);
  w.open("text").attr("aria-label", hostile).text(hostile).end();
  BOOST_TEST(out == "<text aria-label=\"" + html_escape(hostile) + "\">" + html_escape(hostile) + "</text>");
  // Nothing of the text can open or close an element, or end the attribute.
  const auto inner = out.substr(out.find('"') + 1, out.rfind("</text>") - out.find('"') - 1);
  BOOST_TEST(inner.find('<') == std::string::npos);
  std::string own;
  svg::Writer(own).open("text").own_text("the step's start").end();
  BOOST_TEST(own == "<text>the step's start</text>");
}

BOOST_AUTO_TEST_CASE(numbers_in_the_charts_two_forms) {
  BOOST_TEST(svg::one_decimal(712) == "712.0");
  BOOST_TEST(svg::one_decimal(34.46) == "34.5");
  BOOST_TEST(svg::short_number(56) == "56");
  BOOST_TEST(svg::short_number(2.5) == "2.5");
  svg::Points p;
  BOOST_TEST(p.empty());
  p.add(1, 2.25).add(3.04, -4);
  BOOST_TEST(p.text() == svg::one_decimal(1) + "," + svg::one_decimal(2.25) + " " + svg::one_decimal(3.04) + "," +
                             svg::one_decimal(-4));
}

BOOST_AUTO_TEST_SUITE_END()
