// The findings (default mode): the verdict counts, the top regressions and
// improvements and the launchers that moved, as the report decided them.
//   n_slower, n_faster, n_same, n_untested, has_untested, has_findings,
//   has_top_slower, has_top_faster, top_slower_title, top_faster_title, top_slower_more, top_faster_more,
//   n_left_out, has_left_out,
//   top_raw, top_slower[]/top_faster[] {has_href, href, nm, has_tip, tip, delta, pct, by_calls, words, has_calls,
//     calls, has_mean, mean, has_path, path_words, path, has_lb, lb},
//   has_top_launchers, top_launchers[] {has_href, href, nm, delta, pct, cls, arrow}
//   threshold_rule, between_runs, control_runs, test_runs (read by the verdict legend of the headline)
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "output/html/sections.hpp"
#include "output/human_writers.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

// Items a list shows: as many as analysis embedded.
std::size_t shown(const DiffReport& r, std::size_t n) { return std::min(n, r.embedded.list_items); }

data list_of(const DiffReport& r, const Anchors& a, const model::TopList& list) {
  data items = make_list();
  for (std::size_t k = 0; k < shown(r, list.rows.size()); ++k) {
    const auto i = list.rows[k];
    if (i >= r.rows.size()) continue;
    const auto& row = r.rows[i];
    data d;
    const auto href = row_href(a, i);
    d.set("has_href", !href.empty());
    d.set("href", href);
    d.set("nm", label_of(row));
    const auto tip = tip_name(row);
    d.set("has_tip", !tip.empty());
    d.set("tip", tip);
    d.set("delta", dur(row.shown.diff_ns(), true));
    d.set("pct", pct_text(row.shown.pct, row.shown.is_new()));
    d.set("by_calls", row.by_calls && row.significant);
    d.set("words", std::string(model::row_words(row)));
    // Calls per step and the change of the time per call, when both sides have calls
    // and their number changed (a row new or gone says so already).
    const auto calls = output::detail::calls_text(row);
    const bool has_calls = row.per_call_pct && calls.find("\xE2\x86\x92") != std::string::npos;
    d.set("has_calls", has_calls);
    d.set("calls", has_calls ? "calls " + calls + ", " + output::detail::per_call_text(row) + " per call" : std::string());
    const auto mean = output::detail::mean_words(row);
    d.set("has_mean", !mean.empty());
    d.set("mean", mean);
    const auto path = k < list.paths.size() ? path_text(list.paths[k]) : std::string();
    d.set("has_path", !path.empty());
    d.set("path", fit(path, k_line_bytes));
    d.set("path_words", k < list.path_words.size() ? list.path_words[k] : std::string());
    d.set("has_lb", !row.launched_by.empty());
    d.set("lb", fit(row.launched_by_label, k_label_bytes));
    items.push_back(d);
  }
  return items;
}

// "3 more significant; 28 within noise; 4 not testable": the items the page does not
// list among them.
std::string more_text(const DiffReport& r, const model::TopList& list) {
  const auto hidden = list.rows.size() - shown(r, list.rows.size());
  std::string out;
  const auto add = [&](std::size_t n, const char* what) {
    if (n) out += (out.empty() ? "" : "; ") + format_count(static_cast<std::int64_t>(n), false) + what;
  };
  add(list.more + (list.raw ? 0 : hidden), " more significant");
  add(list.folded, " folded along the stack");
  add(list.renamed, " renamed within their kernel family");
  add(list.swapped, list.swapped == 1 ? " algorithm swap" : " algorithm swaps");
  add(list.waiting, " wait for the GPU");
  add(list.sleeping, list.sleeping == 1 ? " thread asleep" : " threads asleep");
  add(list.within_noise, " within noise");
  add(list.untestable + (list.raw ? hidden : 0), " not testable");
  return out;
}

}  // namespace

void add_findings(const DiffReport& r, const Anchors& a, data& ctx) {
  if (!per_step_mode(r)) return;
  // The counts every view prints (DiffReport::verdict_counts): the lists' own.
  const auto& v = r.verdict_counts;
  const auto count = [](std::size_t n) { return format_count(static_cast<std::int64_t>(n), false); };
  ctx.set("n_slower", count(v.regressions));
  ctx.set("n_faster", count(v.improvements));
  ctx.set("n_same", count(v.same));
  ctx.set("n_untested", count(v.untestable));
  ctx.set("has_untested", v.untestable > 0);
  ctx.set("n_left_out", count(v.left_out));
  ctx.set("has_left_out", v.left_out > 0);

  const bool raw = r.top_regressions.raw;
  ctx.set("top_raw", raw);
  ctx.set("top_slower", list_of(r, a, r.top_regressions));
  ctx.set("top_faster", list_of(r, a, r.top_improvements));
  ctx.set("has_top_slower", !r.top_regressions.rows.empty());
  ctx.set("has_top_faster", !r.top_improvements.rows.empty());
  ctx.set("top_slower_title", std::string(raw ? "Largest increases per " + r.unit + ", not testable" : "Slower per " + r.unit));
  ctx.set("top_faster_title", std::string(raw ? "Largest decreases per " + r.unit + ", not testable" : "Faster per " + r.unit));
  ctx.set("top_slower_more", more_text(r, r.top_regressions));
  ctx.set("top_faster_more", more_text(r, r.top_improvements));

  data launchers = make_list();
  for (std::size_t j = 0; j < shown(r, r.top_launchers.size()); ++j) {
    const auto k = r.top_launchers[j];
    if (k >= r.by_launcher.size()) continue;
    const auto& l = r.by_launcher[k];
    const auto look = verdict_look(l.time.verdict);
    data d;
    const bool linked = a.launcher.count(l.launcher) && a.launcher.at(l.launcher) == k;
    d.set("has_href", linked);
    d.set("href", linked ? tag("#l", k) : std::string());
    d.set("nm", fit(l.label, k_label_bytes));
    d.set("delta", dur(l.time.diff(), true));
    d.set("pct", pct_text(l.time.pct, l.time.is_new()));
    d.set("cls", std::string(look.cls));
    d.set("arrow", std::string(look.sym));
    launchers.push_back(d);
  }
  ctx.set("top_launchers", launchers);
  ctx.set("has_top_launchers", !r.top_launchers.empty());
  ctx.set("has_findings", !r.top_regressions.rows.empty() || !r.top_improvements.rows.empty() ||
                              !r.top_launchers.empty() || r.top_regressions.within_noise ||
                              r.top_improvements.within_noise);

  // The thresholds behind the verdicts, in words.
  std::string rule = "at least " + format_count_per_step(r.min_change.pct, false) + "% of " +
                     side_label(r.control, false) + "'s median per " + r.unit;
  if (r.min_change.ns > 0)
    rule += " and " + format_duration_ns(round_ns(r.min_change.ns), false);
  ctx.set("threshold_rule", rule);
  ctx.set("between_runs", r.between_runs);
  ctx.set("control_runs", std::to_string(r.control.runs.size()));
  ctx.set("test_runs", std::to_string(r.test.runs.size()));
}

}  // namespace tracediff::output::html
