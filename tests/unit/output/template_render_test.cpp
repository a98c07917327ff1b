#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "output/template_render.hpp"

using namespace tracediff::output;
using templates::data;
using templates::Fields;

namespace {

struct Launcher {
  std::string nm, tip, c, more;
  bool has_tip, has_more;
  std::vector<std::pair<bool, std::string>> kernels;  // has_href, name
};

// Every field launchers.html.mustache reads, as output/html/launchers.cpp writes them.
void fill(const Launcher& l, std::size_t k, Fields& f) {
  f.text("id", "l" + std::to_string(k));
  f.text("nm", l.nm);
  f.flag("has_tip", l.has_tip);
  f.text("tip", l.tip);
  f.text("c", l.c);
  f.text("t", "2 ms");
  f.text("d", "+1 ms");
  f.text("p", "+100%");
  f.text("cls", "worse");
  f.text("arrow", "\xE2\x96\xB2");
  f.flag("has_arrow", true);
  f.text("nk", std::to_string(l.kernels.size()));
  auto& kernels = f.objects("kernels", l.kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    Fields e = f.item(kernels, i);
    e.flag("has_href", l.kernels[i].first);
    e.text("href", "#r" + std::to_string(i));
    e.text("nm", l.kernels[i].second);
    e.text("c", "1");
    e.text("t", "2");
    e.text("d", "3");
    e.text("p", "4");
    e.text("cls", "same");
  }
  f.flag("has_more", l.has_more);
  f.text("more", l.more);
}

// What kainjow renders for the items, each on its own.
std::string plain(const std::vector<Launcher>& items) {
  auto tmpl = templates::load("launchers.html.mustache");
  std::string out;
  templates::StringSink sink(out);
  for (std::size_t k = 0; k < items.size(); ++k) {
    data obj;
    Fields f(obj);
    fill(items[k], k, f);
    data ctx;
    data list = templates::make_list();
    templates::append(list, std::move(obj));
    templates::put(ctx, "launchers", std::move(list));
    tmpl.render(ctx, sink);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(template_render)

BOOST_AUTO_TEST_CASE(stencils_render_what_kainjow_renders) {
  const std::vector<Launcher> items = {
      {"aten::mm", "", "1 ms", "", false, false, {{true, "gemm"}, {false, "gemv"}}},
      {"aten::mm <b>&\"'", "full", "1 ms", "", true, false, {{true, "k<1>"}, {false, "k2"}}},  // same shape
      {"", "", "", "", false, true, {}},                                                      // empty values
      {"  ", " \t", " ", "more", true, true, {{true, " "}}},                                  // blank values
      {"\x01" "0\x02 \x01" "1\x03", "bad \xff utf-8", "\xC3\xA9", "", true, false, {{false, "\x01"}}},
      {"aten::mm", "", "3 ms", "", false, false, {{true, "gemm2"}, {false, "gemv2"}}},  // first shape again
  };
  templates::Stencils stencils("launchers.html.mustache", "launchers");
  std::string out;
  for (std::size_t k = 0; k < items.size(); ++k) stencils.render([&](Fields& f) { fill(items[k], k, f); }, out);
  BOOST_TEST(out == plain(items));
  BOOST_TEST(stencils.shapes() < items.size());
}

BOOST_AUTO_TEST_CASE(stream_sink_keeps_the_order_of_lines_and_blocks) {
  std::ostringstream os;
  templates::StreamSink sink(os);
  sink << std::string("a\n");
  sink.block("BLOCK");
  sink << std::string(100 * 1024, 'x');
  sink << std::string("b");
  sink.flush();
  BOOST_TEST(os.str() == "a\nBLOCK" + std::string(100 * 1024, 'x') + "b");
}

BOOST_AUTO_TEST_SUITE_END()
