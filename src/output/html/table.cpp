// The table: the rows the page embeds (every row, up to the bound analysis decided),
// its filter toggles and captions. The rows are a block of their own
// ({{{table_rows}}}): rows[] of table_row.html.mustache, or of
// table_row_hta.html.mustache in --hta-compat.
//   has_rows, row_count, has_left_out, shown_count, left_out_count, lazy_table, pct_basis,
//   rows[] {id, nm, has_tip, tip, cat, dev, chg, chg_sym, chg_v, cls, ...}
//     per_step: vd, vd_sym, has_vd_tip, vd_tip, has_lb, lb, has_lb_href, lb_href,
//       cells[] {two, t, st} (C/step, T/step, Δ/step, Δ %, C total, T total), calls, calls_tip, fl
//     hta-compat: cc, tc, cd, td, dc, dd, dp, arrow, has_arrow, and *_v: raw sort keys
// In the default mode what only the script needs of a row (the filters' keys, the sort
// keys, the sparkline) is not in the row's markup but in render_row_data's JSON (through
// output/json_emit, compact), a dozen numbers a row (the table is half the page): see
// render_row_data below.
//   change_toggles[] {group, n}, device_toggles[] {device, n}, verdict_toggles[] {verdict, key, sym, cls, n}
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "output/html/sections.hpp"
#include "output/json_emit.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

// The filter toggles, with analysis's counts of the table's rows per change group,
// device and verdict.
void add_toggles(const DiffReport& r, data& ctx) {
  const auto& per_change = r.embedded.rows_per_change;
  const auto& per_device = r.embedded.rows_per_device;
  const auto& per_verdict = r.embedded.rows_per_verdict;
  data change_toggles = make_list();
  for (auto ch : k_changes) {
    data d;
    d.set("group", std::string(model::change_name(ch)));
    d.set("n", std::to_string(per_change[static_cast<std::size_t>(ch)]));
    change_toggles.push_back(d);
  }
  ctx.set("change_toggles", change_toggles);
  data device_toggles = make_list();
  for (auto dev : {model::Device::cpu, model::Device::gpu, model::Device::other}) {
    data d;
    d.set("device", std::string(model::device_name(dev)));
    d.set("n", std::to_string(per_device[static_cast<std::size_t>(dev)]));
    device_toggles.push_back(d);
  }
  ctx.set("device_toggles", device_toggles);
  data verdict_toggles = make_list();
  for (auto v : {model::Verdict::slower, model::Verdict::faster, model::Verdict::same, model::Verdict::untestable}) {
    const auto look = verdict_look(v);
    data d;
    d.set("verdict", std::string(look.word));
    d.set("key", std::string(model::verdict_name(v)));
    d.set("sym", std::string(look.sym));
    d.set("cls", std::string(look.cls));
    d.set("n", std::to_string(per_verdict[static_cast<std::size_t>(v)]));
    verdict_toggles.push_back(d);
  }
  ctx.set("verdict_toggles", verdict_toggles);
}

// --hta-compat: HTA's totals, nothing per step.
void totals_row(const DiffRow& row, Fields& f) {
  const auto dc = row.diff_count();
  const auto dd = row.diff_ns();
  const auto pct = row.diff_pct();
  const bool is_new = row.is_new();
  const auto tone = verdict_look(row.verdict);  // --hta-compat: the sign of the difference
  f.text("cc", format_count(static_cast<std::int64_t>(row.control.count), false));
  f.text("cc_v", std::to_string(row.control.count));
  f.text("tc", format_count(static_cast<std::int64_t>(row.test.count), false));
  f.text("tc_v", std::to_string(row.test.count));
  f.text("cd", format_duration_ns(row.control.total_ns, false));
  f.text("cd_v", std::to_string(row.control.total_ns));
  f.text("td", format_duration_ns(row.test.total_ns, false));
  f.text("td_v", std::to_string(row.test.total_ns));
  f.text("dc", format_count(dc, true));
  f.text("dc_v", std::to_string(dc));
  f.text("dd", format_duration_ns(dd, true));
  f.text("dd_v", std::to_string(dd));
  f.text("dp", format_pct(pct, is_new));
  f.text("dp_v", pct ? fixed3(*pct) : is_new ? std::string("Infinity") : std::string());
  f.text("cls", tone.cls);
  f.text("arrow", dd ? tone.sym : "");
  f.flag("has_arrow", dd != 0);
}

// One numeric cell of the per-step table: the inclusive text, and the self text when
// it reads differently (the page switches them by CSS). Its sort keys are in the row data.
void cell(Fields f, const std::string& txt, const std::string& stxt) {
  f.flag("two", stxt != txt);
  f.text("t", txt);
  f.text("st", stxt);
}

// Both sides' values per step unit for the sparkline (one scale for both), as analysis
// binned them (model::Embedded::sparks; at most k_spark_points a side, so 2,000 rows add
// at most about 0.7 MB): the spread behind the verdict, warm-up steps, bimodal steps and
// noise at a glance. Each point is its y in the 72 × 18 box report.js draws (px from the
// top, whole ones); 0 with fewer than two units a side.
void sparkline(const std::array<std::vector<double>, 2>& spark, JsonEmit& j) {
  const auto& c = spark[0];
  const auto& t = spark[1];
  if (c.size() < 2 && t.size() < 2) {
    j.number(0);
    return;
  }
  double top = 0;
  for (double v : c) top = std::max(top, std::abs(v));
  for (double v : t) top = std::max(top, std::abs(v));
  constexpr double h = 18;
  const auto line = [&](const std::vector<double>& v) {
    j.begin_array();
    if (v.size() >= 2)
      for (const double x : v) {
        const double y = top > 0 ? h - 1 - (h - 2) * std::abs(x) / top : h - 1;
        j.number(static_cast<int>(std::nearbyint(y)));  // as printf rounds
      }
    j.end_array();
  };
  j.begin_array();
  line(c);
  line(t);
  j.end_array();
}

// A sort key as JSON: a number, null where there is none, "Infinity" as a string.
void key_json(JsonEmit& j, const std::string& k) {
  if (k.empty()) j.null();
  else if (k == "Infinity") j.string(k);
  else j.number(std::string_view(k));
}

// The default mode: per step first (inclusive and self), totals after, verdict.
void per_step_row(const DiffRow& row, const Anchors& a, Fields& f) {
  const auto& cs = row.control_step;
  const auto& ts = row.test_step;
  const auto look = verdict_look(row.verdict);
  f.text("cls", look.cls);
  f.text("vd", (row.by_calls || row.waits_for_gpu) && row.significant ? model::row_words(row) : look.word);
  f.text("vd_sym", look.sym);
  const bool judged = row.verdict != model::Verdict::untestable;
  f.flag("has_vd_tip", judged);
  f.text("vd_tip", judged ? "median " + dur(row.median_diff_ns, true) + "; \xCF\x83 from one to the next: " +
                                dur(cs.stddev_ns, false) + " \xE2\x86\x92 " + dur(ts.stddev_ns, false)
                          : std::string());
  const bool has_lb = !row.launched_by.empty();
  f.flag("has_lb", has_lb);
  f.text("lb", fit(row.launched_by_label, k_label_bytes));
  const auto l = has_lb ? a.launcher.find(row.launched_by) : a.launcher.end();
  f.flag("has_lb_href", l != a.launcher.end());
  f.text("lb_href", l != a.launcher.end() ? tag("#l", l->second) : std::string());

  auto& cells = f.objects("cells", 6);
  const bool is_new = row.is_new();
  const auto pct = row.diff_pct();
  const bool self_new = row.self_is_new();
  cell(f.item(cells, 0), dur(cs.total_ns, false), dur(cs.self_ns, false));
  cell(f.item(cells, 1), dur(ts.total_ns, false), dur(ts.self_ns, false));
  cell(f.item(cells, 2), dur(row.diff_per_step_ns(), true), dur(row.diff_self_per_step_ns(), true));
  cell(f.item(cells, 3), pct_text(pct, is_new), pct_text(row.self_pct, self_new));
  cell(f.item(cells, 4), format_duration_ns(row.control.total_ns, false),
       format_duration_ns(row.control.self_ns, false));
  cell(f.item(cells, 5), format_duration_ns(row.test.total_ns, false),
       format_duration_ns(row.test.self_ns, false));

  // --by-shape: FLOPs per call and TFLOP/s, in a column shown when any row has them.
  f.flag("has_flops", a.has_flops);
  if (a.has_flops) {
    std::string fl;
    if (row.flops_per_call) {
      fl = format_flops(*row.flops_per_call);
      const auto tf = [](const std::optional<double>& v) { return v ? format_rate(*v) : std::string("?"); };
      if (row.control_tflops || row.test_tflops)
        fl += " \xC2\xB7 " + tf(row.control_tflops) + " \xE2\x86\x92 " + tf(row.test_tflops) + " TFLOP/s";
    }
    // Inductor's own figures (kernel_flop, kernel_num_gb): the kernel's achieved rates.
    const auto& w = row.work;
    const auto rate = [](const std::optional<double>& c, const std::optional<double>& t, const std::optional<double>& pct,
                         const char* unit) {
      const auto one = [](const std::optional<double>& v) { return v ? format_rate(*v) : std::string("?"); };
      return c || t ? one(c) + " \xE2\x86\x92 " + one(t) + unit + (pct ? " (" + format_pct(pct) + ")" : std::string())
                    : std::string();
    };
    for (const auto& part : {rate(w.control_tflops, w.test_tflops, w.tflops_pct, " TFLOP/s"),
                             rate(w.control_gbps, w.test_gbps, w.gbps_pct, " GB/s")})
      if (!part.empty()) fl += (fl.empty() ? "" : " \xC2\xB7 ") + part;
    f.text("fl", fl);
  }

  const auto cc = format_count_per_step(cs.count, false), tc = format_count_per_step(ts.count, false);
  f.text("calls", cc == tc ? cc : cc + " \xE2\x86\x92 " + tc);
  f.text("calls_tip", format_count(static_cast<std::int64_t>(row.control.count), false) + " \xE2\x86\x92 " +
                          format_count(static_cast<std::int64_t>(row.test.count), false) + " calls in all");
}

// What the script needs of a row of the default mode, in the page's #row-data:
//   [change, device, verdict, calls, spark, C/step, T/step, Δ/step, Δ %, C total, T total(, FLOPs)]
// change, device: positions in the lists "changes", "devices"; verdict: its order (the
// verdict column's sort key), a position in "verdicts"; calls: Δ calls per unit; spark:
// see sparkline(); then each numeric cell's sort key, or [inclusive, self] where the self
// time's differs; the FLOPs column's only with --by-shape.
void row_data(const DiffRow& row, const std::array<std::vector<double>, 2>& spark, const Anchors& a, JsonEmit& j) {
  const auto& cs = row.control_step;
  const auto& ts = row.test_step;
  const auto key = [](double v) { return std::to_string(round_ns(v)); };
  j.begin_array();
  j.number(static_cast<int>(row.change)).number(static_cast<int>(row.device)).number(verdict_look(row.verdict).ord);
  j.number(std::string_view(key3(ts.count - cs.count)));
  sparkline(spark, j);
  const auto both = [&](const std::string& v, const std::string& sv) {
    if (sv.empty() || sv == v) return key_json(j, v);
    j.begin_array();
    key_json(j, v);
    key_json(j, sv);
    j.end_array();
  };
  const bool is_new = row.is_new();
  both(key(cs.total_ns), key(cs.self_ns));
  both(key(ts.total_ns), key(ts.self_ns));
  both(key(row.diff_per_step_ns()), key(row.diff_self_per_step_ns()));
  both(pct_key(row.diff_pct(), is_new), pct_key(row.self_pct, row.self_is_new()));
  both(std::to_string(row.control.total_ns), std::to_string(row.control.self_ns));
  both(std::to_string(row.test.total_ns), std::to_string(row.test.self_ns));
  if (a.has_flops) key_json(j, row.flops_per_call ? key3(*row.flops_per_call) : std::string());
  j.end_array();
}

// Row p of the table.
void table_row(const DiffReport& r, const Anchors& a, std::size_t p, Fields& f) {
  const auto& row = r.rows[a.order[p]];
  if (per_step_mode(r)) per_step_row(row, a, f);
  else totals_row(row, f);
  f.text("id", tag("r", p));
  f.text("nm", label_of(row));
  f.flag("has_tn", !row.test_name.empty());
  f.text("tn", fit(row.test_label, k_label_bytes));
  f.text("tn_why", row.matched_by);
  const auto tip = tip_name(row);
  f.flag("has_tip", !tip.empty());
  f.text("tip", tip);
  f.text("cat", fit(row.category, k_short_bytes));
  f.text("chg", model::change_name(row.change));
  f.text("chg_sym", model::change_symbol(row.change));
  if (per_step_mode(r)) return;  // the rest is in the row data
  f.text("dev", model::device_name(row.device));
  f.text("chg_v", std::to_string(static_cast<int>(row.change)));
}

}  // namespace

void add_table(const DiffReport& r, const Anchors& a, data& ctx) {
  const auto count = [](std::size_t n) { return format_count(static_cast<std::int64_t>(n), false); };
  ctx.set("row_count", count(r.rows.size()));
  ctx.set("has_rows", !r.rows.empty());
  // Rows left out: said above the table, with where the rest is.
  ctx.set("has_left_out", a.rows_left_out > 0);
  ctx.set("shown_count", count(a.order.size()));
  ctx.set("left_out_count", count(a.rows_left_out));
  // A table of more than a hundred rows is laid out only once it comes into view
  // (report.css): the top of the page shows at once, not after a layout of every row
  // (the pair's 430 rows: interactive in 0.5 s instead of 0.9 s in Chromium).
  ctx.set("lazy_table", a.order.size() > 100);
  ctx.set("pct_basis", std::string(r.hta_compat ? "Relative change of the total duration"
                                                 : "Relative change of the duration per " + r.unit));
  add_toggles(r, ctx);
  ctx.set("has_flops", a.has_flops);
}

std::string render_table_rows(const DiffReport& r, const Anchors& a) {
  return render_list(per_step_mode(r) ? "table_row.html.mustache" : "table_row_hta.html.mustache", "rows",
                     a.order.size(), 1280, [&](std::size_t p, Fields& row) { table_row(r, a, p, row); });
}

std::string render_row_data(const DiffReport& r, const Anchors& a) {
  if (!per_step_mode(r)) return {};
  std::string out;
  out.reserve(160 + a.order.size() * 110);
  JsonEmit j(out);
  j.compact().begin_object();
  // The names of the positions the rows give (model order), for the filters' keys.
  j.key("changes").begin_array();
  for (int i = 0; i <= static_cast<int>(Change::unchanged); ++i) j.string(model::change_name(static_cast<Change>(i)));
  j.end_array().key("devices").begin_array();
  for (int i = 0; i <= static_cast<int>(model::Device::other); ++i)
    j.string(model::device_name(static_cast<model::Device>(i)));
  std::array<const char*, 4> verdicts{};
  for (auto v : {model::Verdict::slower, model::Verdict::faster, model::Verdict::same, model::Verdict::untestable})
    verdicts[static_cast<std::size_t>(verdict_look(v).ord)] = model::verdict_name(v);
  j.end_array().key("verdicts").begin_array();
  for (const auto* v : verdicts) j.string(v);
  j.end_array().key("rows").begin_array();
  for (std::size_t p = 0; p < a.order.size(); ++p) {
    static const std::array<std::vector<double>, 2> none;
    row_data(r.rows[a.order[p]], p < r.embedded.sparks.size() ? r.embedded.sparks[p] : none, a, j.line(0));
  }
  j.end_array().end_object();
  return out;
}

}  // namespace tracediff::output::html
