// The memory section (default mode, memory events on both sides): what each operator
// allocates more or less per step (DiffReport::allocates_more / allocates_less), and the
// median step's allocated bytes over time on both sides as inline SVG (output/svg; drawn
// without script, in print, in either theme), absolute or as a share of the step by a CSS-only
// switch, each side's peak marked and its operator named.
//   has_memory_section, memory_lists[] {title, rows[] (figure_row)}, has_memory_chart,
//   memory_chart_abs, memory_chart_norm (SVG markup, numbers only), memory_peaks[] {side, sc, text}
#include <algorithm>
#include <cmath>
#include <string>

#include "output/html/sections.hpp"
#include "output/svg.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

// Both sides' points in one box: x the time from the step's start (absolute, or over
// the step's duration), y the bytes from the smaller side's lowest to the larger peak.
std::string timeline_svg(const DiffReport& r, bool share) {
  const model::MemoryTimeline* sides[2] = {r.control.memory_timeline ? &*r.control.memory_timeline : nullptr,
                                           r.test.memory_timeline ? &*r.test.memory_timeline : nullptr};
  double x_max = 0, lo = 0, hi = 0;
  bool first = true;
  for (const auto* t : sides) {
    if (!t) continue;
    x_max = std::max(x_max, share ? 1.0 : static_cast<double>(t->step_ns));
    for (const auto& [ns, bytes] : t->points) {
      const auto b = static_cast<double>(bytes);
      lo = first ? b : std::min(lo, b), hi = first ? b : std::max(hi, b);
      first = false;
    }
  }
  if (!(hi > lo)) hi = lo + std::max(1.0, std::abs(lo));  // a flat line: lo + 1 is lo past 2^53
  constexpr double x0 = 64, x1 = 712, y0 = 8, y1 = 148;
  const auto y = [&](double b) { return y1 - (y1 - y0) * (b - lo) / (hi - lo); };
  using svg::short_number;
  std::string out;
  svg::Writer w(out);
  w.open("svg").attr("class", "step-chart mem-chart").attr("viewBox", "0 0 720 172").attr("role", "img");
  w.attr("aria-label", "memory allocated over the median " + r.unit);
  w.open("line").attr("class", "ax").attr("x1", short_number(x0)).attr("y1", short_number(y1));
  w.attr("x2", short_number(x1)).attr("y2", short_number(y1)).end();
  w.open("line").attr("class", "grid").attr("x1", short_number(x0)).attr("y1", short_number(y0));
  w.attr("x2", short_number(x1)).attr("y2", short_number(y0)).end();
  w.open("text").attr("class", "tick").attr("x", "58").attr("y", "152").attr("text-anchor", "end");
  w.text(format_size(lo, false)).end();
  w.open("text").attr("class", "tick").attr("x", "58").attr("y", short_number(y0 + 4)).attr("text-anchor", "end");
  w.text(format_size(hi, false)).end();
  w.open("text").attr("class", "tick").attr("x", "388").attr("y", "168").attr("text-anchor", "middle");
  if (share) {
    w.text("share of the " + r.unit + " (0 to 100 %)");
  } else {
    w.text("time from the " + r.unit);
    w.own_text("'s start (0 to " + format_duration_ns(static_cast<std::int64_t>(x_max), false) + ")");
  }
  w.end();
  for (int k = 0; k < 2; ++k) {
    const auto* t = sides[k];
    if (!t || t->points.empty()) continue;
    const double span = share ? std::max<double>(1.0, static_cast<double>(t->step_ns)) : std::max(1.0, x_max);
    const auto x = [&](std::int64_t ns) { return x0 + (x1 - x0) * std::clamp(static_cast<double>(ns) / span, 0.0, 1.0); };
    const char* cls = k == 0 ? "c" : "t";
    // A step line: memory stays at a value until the next event.
    svg::Points line;
    for (std::size_t i = 0; i < t->points.size(); ++i) {
      const auto& [ns, bytes] = t->points[i];
      if (i) line.add(x(ns), y(static_cast<double>(t->points[i - 1].second)));
      line.add(x(ns), y(static_cast<double>(bytes)));
    }
    line.add(x(t->step_ns), y(static_cast<double>(t->points.back().second)));
    w.open("polyline").attr("class", cls).attr("points", line.text()).end();
    w.open("circle").attr("class", std::string(cls) + " peak").attr("cx", svg::one_decimal(x(t->peak_ns)));
    w.attr("cy", svg::one_decimal(y(static_cast<double>(t->peak_bytes)))).attr("r", "4").end();
  }
  w.end();
  return out;
}

}  // namespace

void add_memory(const DiffReport& r, data& ctx) {
  const bool timeline = r.control.memory_timeline || r.test.memory_timeline;
  const bool lists = !r.allocates_more.rows.empty() || !r.allocates_less.rows.empty();
  const bool has = per_step_mode(r) && !r.memory.empty() && (timeline || lists);
  ctx.set("has_memory_section", has);
  ctx.set("has_memory_chart", has && timeline);
  if (!has) return;
  data groups = make_list();
  for (const auto& [title, list] : {std::pair{"Allocates more", &r.allocates_more}, std::pair{"Allocates less", &r.allocates_less}}) {
    if (list->rows.empty()) continue;
    double max = 0;
    for (const auto i : list->rows) max = std::max({max, r.rows[i].memory.allocated.control, r.rows[i].memory.allocated.test});
    data rows = make_list();
    for (const auto i : list->rows) {
      model::Figure fig;
      fig.label = label_of(r.rows[i]);
      fig.value = r.rows[i].memory.allocated;
      fig.bytes = true;
      fig.duration = false;
      rows.push_back(figure_row(fig, max));
    }
    data g;
    g.set("title", std::string(title));
    g.set("rows", rows);
    groups.push_back(g);
  }
  ctx.set("memory_lists", groups);
  if (!timeline) return;
  ctx.set("memory_chart_abs", timeline_svg(r, false));
  ctx.set("memory_chart_norm", timeline_svg(r, true));
  data peaks = make_list();
  for (int k = 0; k < 2; ++k) {
    const auto& side = k == 0 ? r.control : r.test;
    if (!side.memory_timeline) continue;
    const auto& t = *side.memory_timeline;
    const auto& d = side.step_details[t.step];
    std::string line = "peak " + format_size(static_cast<double>(t.peak_bytes), false) + " at " +
                       format_duration_ns(t.peak_ns, false) + " into " + r.unit + " " + std::to_string(d.step) +
                       " (rank " + std::to_string(d.rank) + ", " +
                       format_duration_ns(t.step_ns, false) + ", " + model::memory_device_name(t.device_type, t.device_id) +
                       (t.totals ? ", Total Allocated" : ", growth from the start") + ")" +
                       (t.peak_op.empty() ? ", in no operator" : ", in ");
    data p;
    p.set("side", side_label(side, k == 1));
    p.set("sc", std::string(k == 0 ? "c" : "t"));
    p.set("text", line);
    p.set("has_op", !t.peak_op.empty());
    p.set("op", fit(t.peak_op, k_label_bytes));
    peaks.push_back(p);
  }
  ctx.set("memory_peaks", peaks);
}

}  // namespace tracediff::output::html
