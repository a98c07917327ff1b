// Why the step moved (DiffReport::step_change): the bottom line, the equation, and a
// waterfall from the control's step time to the test's, one bar per part that analysis
// chose, the rest summed: static bars (the page without JavaScript) and why_json (through
// output/json_emit), from which the report's script draws the same with Chart.js.
//   has_why, why_line, why_equation, why_bars[] {label, delta, cls, left, width, has_link, link, has_href, href},
//   why_json
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "output/html/sections.hpp"
#include "output/json_emit.hpp"

namespace tracediff::output::html {

namespace {

struct Bar {
  std::string label;
  double from, to;     // ns per step
  std::string delta;   // as shown
  const char* cls;     // "step", or the verdict's look
  std::string link;    // what moved it most, for people
  std::string href;    // where the page shows it: its row in the table, or the families
};

const char* part_class(const model::Comparison& v) {
  if (v.verdict == model::Verdict::untestable) return "untested";
  if (!v.significant) return "same";
  return v.diff() > 0 ? "worse" : "better";
}

// What moved a part most, and where the page shows it.
std::pair<std::string, std::string> link_of(const DiffReport& r, const Anchors& a, const model::StepPart& p) {
  for (const auto& f : r.families)
    if (!p.families.empty() && f.id == p.families.front())
      return {f.label + " " + dur(f.time.diff(), true), "#families"};
  if (!p.rows.empty()) {
    const auto& row = r.rows[p.rows.front()];
    return {fit(row.label, k_label_bytes) + " " + dur(row.shown.diff_ns(), true), row_href(a, p.rows.front())};
  }
  return {};
}

std::vector<Bar> bars_of(const DiffReport& r, const Anchors& a) {
  const auto& sc = r.step_change;
  std::vector<Bar> bars;
  const double c = sc.step.control, t = sc.step.test;
  bars.push_back({side_label(r.control, false) + " step", 0, c, dur(c, false), "step", {}, {}});
  double at = c;
  for (const auto i : sc.bars) {
    const auto& p = sc.parts[i];
    const double d = p.value.diff();
    auto [link, href] = link_of(r, a, p);
    bars.push_back({p.label, at, at + d, dur(d, true), part_class(p.value), std::move(link), std::move(href)});
    at += d;
  }
  if (sc.rest_diff != 0) {
    bars.push_back({"Other parts", at, at + sc.rest_diff, dur(sc.rest_diff, true), "same", {}, {}});
    at += sc.rest_diff;
  }
  bars.push_back({side_label(r.test, true) + " step", 0, t, dur(t, false), "step", {}, {}});
  return bars;
}

}  // namespace

void add_why(const DiffReport& r, const Anchors& a, data& ctx) {
  const auto& sc = r.step_change;
  ctx.set("has_why", sc.decided);
  if (!sc.decided) return;
  ctx.set("why_line", sc.bottom_line);
  ctx.set("why_equation", sc.equation);
  const auto bars = bars_of(r, a);
  double top = 0;
  for (const auto& b : bars) top = std::max({top, b.from, b.to});
  data list = make_list();
  std::string json;
  JsonEmit j(json);
  j.compact().begin_object().key("bars").begin_array();
  for (std::size_t k = 0; k < bars.size(); ++k) {
    const auto& b = bars[k];
    const double lo = std::min(b.from, b.to), hi = std::max(b.from, b.to);
    const auto pct = [&](double v) { return top > 0 ? std::to_string(std::lround(1000 * v / top) / 10.0) : "0"; };
    data d;
    d.set("label", b.label);
    d.set("delta", b.delta);
    d.set("cls", std::string(b.cls));
    d.set("left", pct(lo));
    d.set("width", pct(std::max(hi - lo, top / 500)));
    d.set("has_link", !b.link.empty());
    d.set("link", b.link);
    d.set("has_href", !b.href.empty());
    d.set("href", b.href);
    list.push_back(d);
    j.begin_object().key("label").string(b.label).key("from").number(std::llround(b.from));
    j.key("to").number(std::llround(b.to)).key("text").string(b.delta).key("cls").string(b.cls);
    j.key("link").string(b.link).end_object();
  }
  j.end_array().end_object();
  ctx.set("why_bars", list);
  ctx.set("why_json", json);
}

}  // namespace tracediff::output::html
