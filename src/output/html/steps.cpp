// The step section (default mode, steps or whole traces on both sides): step time,
// where it went, GPU time stacked, every step, and ranks side by side. Every figure
// and verdict is the report's (step_stats, breakdown, rank_rows).
//   has_step_section, step_title: step_stats[], step_went[] (figure_row),
//     gpu_stacks[] {side, sc, total, segs[] {cls, w, tip}}, has_gpu_stacks,
//     step_details[] {side, sc, rank, step, warm, dur, busy, idle, spill, host, kernel, comm, memcpy, memset, cpu, rt},
//     step_details_n, has_step_cut, step_cut, has_step_chart, step_chart (an inline SVG: step time per step),
//     has_ranks, rank_rows[] {rank, cn, cm, cb, tn, tm, tb, delta, pct, cls, arrow, has_arrow, vd, cw, tw, most},
//     has_ranks_left_out, ranks_shown, ranks_left_out, rank_count (the rank rows the page embeds: analysis's bound),
//     spread_c, spread_t, has_changed_most, changed_most,
//     stragglers[] {text}, has_waits, by_seq, and per rank row has_waits, cwait, clast, twait, tlast, dwait
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "output/html/sections.hpp"
#include "output/svg.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

const std::string k_dash = "\xE2\x80\x94";

// GPU time per step, stacked: busy and idle (together step time x GPUs), then what
// ran on past the step's end.
void gpu_stacks(const DiffReport& r, data& ctx) {
  struct Seg {
    const char* cls;
    const char* name;
    std::int64_t model::StepDetail::*field;
  };
  static constexpr Seg segs[] = {{"g-busy", "GPU busy", &model::StepDetail::gpu_busy_ns},
                                 {"g-idle", "GPU idle", &model::StepDetail::gpu_idle_ns},
                                 {"g-spill", "Past the step's end", &model::StepDetail::gpu_spill_ns}};
  const auto total = [](const model::StepDetail& s) {
    std::int64_t sum = 0;
    for (const auto& g : segs) sum += std::max<std::int64_t>(s.*g.field, 0);
    return sum;
  };
  const double gmax = static_cast<double>(std::max(total(r.control.step_mean), total(r.test.step_mean)));
  ctx.set("has_gpu_stacks", gmax > 0);
  data stacks = make_list();
  for (const auto* side : {&r.control, &r.test}) {
    const auto& m = side->step_mean;
    data s;
    s.set("side", side_label(*side, side == &r.test));
    s.set("sc", std::string(side == &r.control ? "c" : "t"));
    s.set("total", format_duration_ns(m.gpu_busy_ns + m.gpu_idle_ns, false) +
                       (m.gpu_spill_ns ? " + " + format_duration_ns(m.gpu_spill_ns, false) : std::string()));
    data list = make_list();
    for (const auto& g : segs) {
      const auto v = std::max<std::int64_t>(m.*g.field, 0);
      if (v == 0) continue;
      data seg;
      seg.set("cls", std::string(g.cls));
      seg.set("w", width_pct(static_cast<double>(v), gmax));
      std::string tip = std::string(g.name) + ": " + format_duration_ns(v, false);
      if (g.field == &model::StepDetail::gpu_busy_ns)
        tip += " (launched: compute " + format_duration_ns(m.kernel_ns, false) + ", communication " +
               format_duration_ns(m.comm_ns, false) + ", memcpy " + format_duration_ns(m.memcpy_ns, false) +
               ", memset " + format_duration_ns(m.memset_ns, false) + ")";
      seg.set("tip", tip);
      list.push_back(seg);
    }
    s.set("segs", list);
    stacks.push_back(s);
  }
  ctx.set("gpu_stacks", stacks);
}

// Step time per step for both sides, warm-up steps marked, as an inline SVG (drawn
// without script, in print, in either theme): the points analysis binned
// (model::Embedded::step_chart: a bin with a warm-up step is marked), through
// output/svg, which escapes its text, so the markup is put in as it is ({{{step_chart}}}).
void step_chart(const DiffReport& r, data& ctx) {
  const auto& sides = r.embedded.step_chart;
  double top = 0;
  for (const auto& pts : sides)
    for (const auto& p : pts) top = std::max(top, p.ns);
  const bool any = sides[0].size() >= 2 || sides[1].size() >= 2;
  ctx.set("has_step_chart", any);
  if (!any) {
    ctx.set("step_chart", std::string());
    return;
  }
  const auto& unit = r.unit;  // the only text in the markup, escaped by the writer
  // Plot area: x 56..712, y 8..148 of a 720 × 172 box.
  constexpr double x0 = 56, x1 = 712, y0 = 8, y1 = 148;
  const std::size_t most = std::max(sides[0].size(), sides[1].size());
  using svg::short_number;
  std::string out;
  svg::Writer w(out);
  w.open("svg").attr("class", "step-chart").attr("viewBox", "0 0 720 172").attr("role", "img");
  w.attr("aria-label", unit + " time per " + unit);
  // The axes: 0 and the largest value, the steps in order.
  w.open("line").attr("class", "ax").attr("x1", short_number(x0)).attr("y1", short_number(y1));
  w.attr("x2", short_number(x1)).attr("y2", short_number(y1)).end();
  w.open("line").attr("class", "grid").attr("x1", short_number(x0)).attr("y1", short_number(y0));
  w.attr("x2", short_number(x1)).attr("y2", short_number(y0)).end();
  w.open("text").attr("class", "tick").attr("x", "50").attr("y", "152").attr("text-anchor", "end").text("0").end();
  w.open("text").attr("class", "tick").attr("x", "50").attr("y", short_number(y0 + 4)).attr("text-anchor", "end");
  w.text(format_duration_ns(static_cast<std::int64_t>(std::llround(top)), false)).end();
  w.open("text").attr("class", "tick").attr("x", "384").attr("y", "168").attr("text-anchor", "middle");
  w.text(unit + "s in order (rank, then " + unit + ")").end();
  for (int k = 0; k < 2; ++k) {
    const auto& pts = sides[k];
    if (pts.empty()) continue;
    const auto x = [&](std::size_t i) {
      return most < 2 ? x0 : x0 + (x1 - x0) * static_cast<double>(i) / static_cast<double>(most - 1);
    };
    const auto y = [&](double v) { return top > 0 ? y1 - (y1 - y0) * v / top : y1; };  // 0 at the bottom
    const std::string cls = k == 0 ? "c" : "t";
    svg::Points line;
    for (std::size_t i = 0; i < pts.size(); ++i) line.add(x(i), y(pts[i].ns));
    w.open("polyline").attr("class", cls).attr("points", line.text()).end();
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (!pts[i].warm && pts.size() > 60) continue;  // dots for short runs; warm-up always marked
      w.open("circle").attr("class", pts[i].warm ? cls + " warm" : cls);
      w.attr("cx", svg::one_decimal(x(i))).attr("cy", svg::one_decimal(y(pts[i].ns)));
      w.attr("r", pts[i].warm ? "4" : "2.5").end();
    }
  }
  w.end();
  ctx.set("step_chart", out);
}

// Every step's figures, both sides, warm-up steps marked: the steps analysis listed
// (model::Embedded::step_rows, the first k_step_rows of each side).
void step_details(const DiffReport& r, data& ctx) {
  data details = make_list();
  std::string cut;
  std::size_t n = 0;
  for (int k = 0; k < 2; ++k) {
    const auto* side = k == 0 ? &r.control : &r.test;
    const auto& list = r.embedded.step_rows[k];
    const std::size_t all = r.embedded.steps_of[k];
    n += all;
    for (const auto& ref : list) {
      const auto& steps = ref.warm ? side->warmup : side->step_details;
      if (ref.index >= steps.size()) continue;
      const auto& s = steps[ref.index];
      data d;
      d.set("side", side_label(*side, side == &r.test));
      d.set("sc", std::string(side == &r.control ? "c" : "t"));
      d.set("rank", std::to_string(s.rank));
      d.set("step", s.step < 0 ? std::string("whole") : std::to_string(s.step));  // a trace without steps
      d.set("warm", ref.warm);
      for (const auto& [key, v] :
           {std::pair{"dur", s.dur_ns}, {"busy", s.gpu_busy_ns}, {"idle", s.gpu_idle_ns}, {"spill", s.gpu_spill_ns},
            {"host", s.host_busy_ns}, {"kernel", s.kernel_ns}, {"comm", s.comm_ns}, {"memcpy", s.memcpy_ns},
            {"memset", s.memset_ns}, {"cpu", s.cpu_self_ns}, {"rt", s.runtime_ns}})
        d.set(key, format_duration_ns(v, false));
      details.push_back(d);
    }
    if (all > list.size()) {
      if (!cut.empty()) cut += "; ";
      cut += side_label(*side, side == &r.test) + ": the first " + std::to_string(list.size()) + " of " +
             format_count(static_cast<std::int64_t>(all), false);
    }
  }
  ctx.set("step_details", details);
  ctx.set("step_details_n", format_count(static_cast<std::int64_t>(n), false));
  ctx.set("has_step_cut", !cut.empty());
  ctx.set("step_cut", cut + " (every step is in the JSON output)");
}

void ranks(const DiffReport& r, data& ctx) {
  ctx.set("has_ranks", !r.rank_rows.empty());
  if (r.rank_rows.empty()) return;
  std::vector<std::size_t> shown;  // as analysis embedded them
  for (auto k : r.embedded.rank_rows)
    if (k < r.rank_rows.size()) shown.push_back(k);
  const auto count = [](std::size_t n) { return format_count(static_cast<std::int64_t>(n), false); };
  ctx.set("has_ranks_left_out", shown.size() < r.rank_rows.size());
  ctx.set("ranks_shown", count(shown.size()));
  ctx.set("ranks_left_out", count(r.rank_rows.size() - shown.size()));
  ctx.set("rank_count", count(r.rank_rows.size()));
  double rmax = 0;
  for (auto k : shown) rmax = std::max({rmax, r.rank_rows[k].step_time.control, r.rank_rows[k].step_time.test});
  // Waits when collectives were matched across a side's ranks (analysis/summarize/collectives.hpp).
  const bool waits = r.control.collectives.matched + r.test.collectives.matched > 0;
  ctx.set("has_waits", waits);
  ctx.set("by_seq", r.ranks.matched_by_seq);
  data lines = make_list();
  for (const auto& line : r.ranks.straggler_lines) {
    data d;
    d.set("text", line);
    lines.push_back(d);
  }
  ctx.set("stragglers", lines);
  data rows = make_list();
  for (auto k : shown) {
    const auto& x = r.rank_rows[k];
    data d;
    const auto id = [](const std::optional<int>& v) { return v ? std::to_string(*v) : k_dash; };
    d.set("rank", x.control_rank == x.test_rank ? id(x.control_rank)
                                                : id(x.control_rank) + " \xE2\x86\x92 " + id(x.test_rank));
    const bool c = x.control_rank.has_value(), t = x.test_rank.has_value();
    d.set("cn", c ? std::to_string(x.control_steps) : k_dash);
    d.set("cm", c ? dur(x.step_time.control, false) : k_dash);
    d.set("cb", c ? dur(x.gpu_busy.control, false) : k_dash);
    d.set("tn", t ? std::to_string(x.test_steps) : k_dash);
    d.set("tm", t ? dur(x.step_time.test, false) : k_dash);
    d.set("tb", t ? dur(x.gpu_busy.test, false) : k_dash);
    const auto look = verdict_look(x.step_time.verdict);
    d.set("delta", c && t ? dur(x.step_time.diff(), true) : k_dash);
    d.set("pct", c && t ? pct_text(x.step_time.pct, x.step_time.is_new()) : k_dash);
    d.set("cls", std::string(look.cls));
    d.set("arrow", std::string(look.sym));
    d.set("has_arrow", c && t);
    d.set("vd", std::string(look.word));
    d.set("cw", width_pct(x.step_time.control, rmax));
    d.set("tw", width_pct(x.step_time.test, rmax));
    d.set("most", x.changed_most);
    d.set("has_waits", waits);
    const auto last = [&](const model::LastArrivals& l) {
      return count(l.count) + " of " + count(l.of) + (l.of ? " (" + std::to_string(std::lround(100 * l.share)) + " %)" : "");
    };
    d.set("cwait", c ? dur(x.wait.control, false) : k_dash);
    d.set("twait", t ? dur(x.wait.test, false) : k_dash);
    d.set("clast", c ? last(x.control_last) : k_dash);
    d.set("tlast", t ? last(x.test_last) : k_dash);
    d.set("dwait", c && t ? dur(x.wait.diff(), true) : k_dash);
    rows.push_back(d);
  }
  ctx.set("rank_rows", rows);
  ctx.set("spread_c", format_duration_ns(r.ranks.control_spread_ns, false));
  ctx.set("spread_t", format_duration_ns(r.ranks.test_spread_ns, false));
  std::string most;
  if (r.ranks.changed_most_control_rank && r.ranks.changed_most_test_rank) {
    const int a = *r.ranks.changed_most_control_rank, b = *r.ranks.changed_most_test_rank;
    most = a == b ? "rank " + std::to_string(a) : "rank " + std::to_string(a) + " \xE2\x86\x92 " + std::to_string(b);
    most += " (" + format_pct(r.ranks.changed_most_pct) + " step time)";
  }
  ctx.set("has_changed_most", !most.empty());
  ctx.set("changed_most", most);
}

}  // namespace

void add_steps(const DiffReport& r, data& ctx) {
  const bool on = has_step_section(r);
  ctx.set("has_step_section", on);
  if (!on) return;
  ctx.set("step_title", std::string(r.unit == "trace" ? "Trace time" : "Step time"));

  data stats = make_list();
  for (const auto& f : r.step_stats) stats.push_back(figure_row(f, 0));
  ctx.set("step_stats", stats);
  ctx.set("has_step_stats", !r.step_stats.empty());

  double bmax = 0;
  for (const auto& f : r.breakdown) bmax = std::max({bmax, f.value.control, f.value.test});
  data went = make_list();
  for (const auto& f : r.breakdown) went.push_back(figure_row(f, bmax));
  ctx.set("step_went", went);

  gpu_stacks(r, ctx);
  step_chart(r, ctx);
  step_details(r, ctx);
  ranks(r, ctx);
}

}  // namespace tracediff::output::html
