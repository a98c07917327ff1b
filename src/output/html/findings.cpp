// The findings (default mode): the verdict counts and the largest real changes per
// step, what a reader wants first.
//   n_slower, n_faster, n_same, has_findings,
//   has_top_slower, has_top_faster, top_slower[]/top_faster[] {href, nm, has_tip, tip, delta, pct, has_lb, lb},
//   has_top_launchers, top_launchers[] {href, nm, delta, pct, cls, arrow}
//   threshold_rule, has_spread (read by the verdict legend of the headline)
#include <array>
#include <string>
#include <string_view>

#include "output/html/sections.hpp"
#include "output/html_writer.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

void add_findings(const DiffReport& r, const Anchors& a, data& ctx) {
  if (!per_step_mode(r)) return;
  std::array<std::size_t, 3> n{};
  data slower = make_list(), faster = make_list();
  std::size_t ns = 0, nf = 0;
  constexpr std::size_t k_top = 5;
  for (std::size_t p = 0; p < a.order.size(); ++p) {
    const auto& row = r.rows[a.order[p]];
    ++n[static_cast<std::size_t>(row.verdict)];
    if (row.verdict == model::Verdict::same || is_profiler_step(row)) continue;
    auto& count = row.verdict == model::Verdict::slower ? ns : nf;
    if (count >= k_top) continue;
    ++count;
    data d;
    d.set("href", tag("#r", p));
    d.set("nm", display_name(row));
    const auto tip = tip_name(row);
    d.set("has_tip", !tip.empty());
    d.set("tip", tip);
    d.set("delta", dur(row.diff_per_step_ns(), true));
    d.set("pct", format_pct(row.diff_pct(), row.control_step.total_ns == 0 && row.test_step.total_ns != 0));
    d.set("has_lb", !row.launched_by.empty());
    d.set("lb", detail::shorten_name(row.launched_by, 48));
    (row.verdict == model::Verdict::slower ? slower : faster).push_back(d);
  }
  const auto count = [&](model::Verdict v) { return n[static_cast<std::size_t>(v)]; };
  ctx.set("n_slower", format_count(static_cast<std::int64_t>(count(model::Verdict::slower)), false));
  ctx.set("n_faster", format_count(static_cast<std::int64_t>(count(model::Verdict::faster)), false));
  ctx.set("n_same", format_count(static_cast<std::int64_t>(count(model::Verdict::same)), false));
  ctx.set("top_slower", slower);
  ctx.set("top_faster", faster);
  ctx.set("has_top_slower", ns > 0);
  ctx.set("has_top_faster", nf > 0);

  // Launchers whose GPU time per step moved past the thresholds.
  data launchers = make_list();
  std::size_t nl = 0;
  for (std::size_t k = 0; k < r.by_launcher.size() && nl < k_top; ++k) {
    const auto& l = r.by_launcher[k];
    const auto tone = change_tone(r, l.control_per_step_ns, l.test_per_step_ns);
    if (std::string_view(tone.cls) == "same") continue;
    ++nl;
    data d;
    d.set("href", tag("#l", k));
    d.set("nm", detail::shorten_name(l.launcher, 60));
    d.set("delta", dur(l.test_per_step_ns - l.control_per_step_ns, true));
    d.set("pct", pct_text(l.control_per_step_ns, l.test_per_step_ns));
    d.set("cls", std::string(tone.cls));
    d.set("arrow", std::string(tone.arrow));
    launchers.push_back(d);
  }
  ctx.set("top_launchers", launchers);
  ctx.set("has_top_launchers", nl > 0);
  ctx.set("has_findings", ns + nf + nl > 0);

  // The thresholds behind the verdicts, in words.
  std::string rule = "at least " + format_count_per_step(r.min_change_pct, false) + "% of " +
                     text(r.control.label.empty() ? "Control" : r.control.label) + "'s time per " +
                     unit_word(r);
  if (r.min_change_us > 0)
    rule += " and " + format_duration_ns(round_ns(r.min_change_us * 1000.0), false);
  ctx.set("threshold_rule", rule);
  const bool spread = r.control.units >= 2 && r.test.units >= 2;
  ctx.set("has_spread", spread);
}

}  // namespace tracediff::output::html
