#pragma once
// One small SVG writer for the pages' inline charts (the HTML report's step chart and memory
// timeline, trend's charts): elements with attributes, appended to a string, so that every
// chart escapes its text and formats its numbers the one way.
//
//   std::string out;
//   svg::Writer w(out);
//   w.open("svg").attr("viewBox", "0 0 720 172");
//   w.open("text").attr("x", svg::short_number(50)).text("0 ns").end();  // <text x="50">0 ns</text>
//   w.open("polyline").attr("points", points.text()).end();              // <polyline points="..."/>
//   w.end();                                                              // </svg>
//
// Attribute values and text are html_escape'd (util/escape): a unit, a label or a name from
// a trace cannot end the attribute or open an element. Numbers are written as the charts
// always wrote them: coordinates from data with one decimal, a chart's fixed frame as short
// as printf's %g.
#include <string>
#include <string_view>
#include <vector>

namespace tracediff::output::svg {

// A coordinate computed from data: one decimal ("712.0", "34.5", "-0.3").
std::string one_decimal(double v);
// A number of a chart's fixed frame, as short as it reads (printf's %g: "56", "12", "2.5").
std::string short_number(double v);

// A polyline's or polygon's points: "x,y x,y ...", each coordinate with one decimal.
class Points {
 public:
  Points& add(double x, double y);
  bool empty() const { return m_text.empty(); }
  const std::string& text() const { return m_text; }

 private:
  std::string m_text;
};

class Writer {
 public:
  explicit Writer(std::string& out) : m_out(out) {}

  // <name: its attributes follow. A child or text ends the start tag; end() ends the
  // element: "/>" when it has neither, else "</name>".
  Writer& open(std::string_view name);
  Writer& attr(std::string_view name, std::string_view value);
  Writer& text(std::string_view s);
  // The chart's own words, with no < or & in them, as they are: html_escape would write
  // the apostrophe of "the step's start" as &#39;, which the page never did.
  Writer& own_text(std::string_view s);
  Writer& end();

 private:
  void end_start_tag();

  std::string& m_out;
  std::vector<std::string> m_open;  // the elements open, innermost last
  bool m_in_start_tag = false;
};

}  // namespace tracediff::output::svg
