// The report's mustache context (templates/report.html.mustache). Every string is
// UTF-8-sanitised; the template escapes it ({{x}}) except our own assets
// ({{{css}}}, {{{chart_js}}}, {{{report_js}}}), {{{data_json}}} (json_string-escaped)
// and the blocks rendered from templates of their own: {{{table_rows}}} (rows[] of
// table_row.html.mustache, or table_row_hta.html.mustache in --hta-compat) and
// {{{launchers}}} (launchers[] of launchers.html.mustache).
//   control_label, test_label, generator, csp, css, chart_js, report_js, data_json
//   per_step (the default mode; false in --hta-compat, which keeps HTA's totals), unit ("step")
//   cards[], metrics[]  {metric, c, t, delta, pct, cls: worse|better|same|neutral, arrow, has_arrow}
//   has_whole_trace, whole_trace_text, has_notes, notes[] (strings), settings
//   compared[] {what, c, t}; has_files, files[] {side, path, rank, rank_source, events, size, truncated}
//   findings (per_step): n_slower, n_faster, n_same, threshold_rule, has_spread, has_findings,
//     top_slower[]/top_faster[] {href, nm, has_tip, tip, delta, pct, has_lb, lb},
//     top_launchers[] {href, nm, delta, pct, cls, arrow}
//   has_step_section: step_stats[], step_went[] {what, has_note, note, c, t, delta, pct, cls, arrow,
//     has_arrow, has_bars, cw, tw}, gpu_stacks[] {side, sc, total, segs[] {cls, w, tip}},
//     step_details[] {side, sc, rank, step, dur, busy, idle, kernel, comm, memcpy, memset, cpu, rt},
//     step_details_n, has_step_cut, step_cut,
//     has_ranks, rank_rows[] {rank, cn, cm, cb, tn, tm, tb, delta, pct, cls, arrow, has_arrow, cw, tw, most},
//     spread_c, spread_t, has_changed_most, changed_most
//   groups[] {group, sym, size, has_names, names[] (strings)}, groups_basis
//   charts[] {id, title, subtitle, empty, height, bars[], has_self, self_title, self_subtitle, self_bars[]}
//     bars: {label, has_tip, tip, cw, tw, dw (bar widths, %), ct, tt, dt, dcls: pos|neg|zero [v-VERDICT]}
//   has_rows, row_count, pct_basis, rows[] {id, nm, has_tip, tip, cat, dev, chg, chg_sym, chg_v, cls, ...}
//     per_step: vd, vd_sym, vd_v, has_vd_tip, vd_tip, has_lb, lb, has_lb_href, lb_href,
//       cells[] {cls, v, has_s, sv, two, t, st} (C/step, T/step, Δ/step, Δ %, C total, T total),
//       calls, calls_v, calls_tip
//     hta-compat: cc, tc, cd, td, dc, dd, dp, arrow, has_arrow, and *_v: raw sort keys
//   change_toggles[] {group, n}, device_toggles[] {device, n}, verdict_toggles[] {verdict, sym, cls, n}
//   has_launchers, launcher_count, launchers[] {id, nm, has_tip, tip, c, t, d, p, cls, arrow, has_arrow, nk,
//     kernels[] {has_href, href, nm, c, t, d, p, cls}, has_more, more}
//   has_diagnostics, diagnostic_total, diagnostic_counts[] {id, description, count},
//   has_samples, diagnostic_samples[] {id, file, offset, message}
#include "output/html_writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/escape.hpp"
#include "util/format.hpp"
#include "output/template_render.hpp"
#include "util/embedded.hpp"

#ifndef TRACEDIFF_VERSION
#define TRACEDIFF_VERSION "unknown"
#endif

namespace tracediff::output {

using templates::data;

namespace detail {

std::string shorten_name(std::string_view name, std::size_t max_chars) {
  std::string s = utf8_sanitize(name);
  if (s.size() <= max_chars || max_chars < 8) return s;  // no more code points than bytes
  const auto is_start = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  const auto n = static_cast<std::size_t>(std::count_if(s.begin(), s.end(), is_start));
  if (n <= max_chars) return s;
  // Byte offset of code point k.
  const auto offset = [&](std::size_t k) {
    for (std::size_t i = 0; i < s.size(); ++i)
      if (is_start(s[i]) && k-- == 0) return i;
    return s.size();
  };
  const std::size_t tail = max_chars / 4;
  const std::size_t head = max_chars - tail - 1;
  return s.substr(0, offset(head)) + "\xE2\x80\xA6" + s.substr(offset(n - tail));
}

}  // namespace detail

namespace {

using model::Change;
using model::DiffReport;
using model::DiffRow;
using model::SideStats;
using model::SideSummary;

constexpr Change k_changes[] = {Change::added, Change::deleted, Change::increased,
                                Change::decreased, Change::unchanged};

using templates::append;
using templates::Fields;
using templates::make_list;
using templates::put;

std::string text(std::string_view s) { return utf8_sanitize(s); }

// "0-3, 5, 7" for a list of integers, runs of consecutive values joined.
template <typename Int>
std::string ranges(const std::vector<Int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(v[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(v[j]);
    i = j + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += text(s);
  }
  return out;
}

std::optional<double> relative_pct(std::int64_t control, std::int64_t test) {
  if (control == 0) return std::nullopt;
  return 100.0 * static_cast<double>(test - control) / static_cast<double>(control);
}

// A bar's width as a percentage of the largest value in its chart, one decimal.
std::string width_pct(double v, double max) {
  if (!(max > 0) || !(v > 0)) return "0";
  auto tenths = static_cast<std::uint64_t>(std::llround(std::min(v / max, 1.0) * 1000.0));
  if (tenths < 3) tenths = 3;  // keep a non-zero value visible
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::uint64_t magnitude(std::int64_t n) {
  return n < 0 ? ~static_cast<std::uint64_t>(n) + 1 : static_cast<std::uint64_t>(n);
}

// A number for data-v attributes and JSON: locale-independent.
std::string fixed3(double v) {
  if (!std::isfinite(v)) return "0";
  if (v == 0) v = 0;  // no "-0.000"
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  return std::string(buf, r.ptr);
}

// A sort key with at most 3 decimals, trailing zeros dropped ("0", "2.5", "-13.411").
std::string key3(double v) {
  std::string s = fixed3(v);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// Per-step means are fractional nanoseconds: shown and keyed as whole ones.
std::int64_t round_ns(double v) {
  if (!std::isfinite(v)) return 0;
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN + 1;
  return std::llround(v);
}

// An element id or link: "r12", "#l3".
std::string tag(std::string_view prefix, std::size_t n) {
  std::string out(prefix);
  out += std::to_string(n);
  return out;
}

std::string dur(double ns, bool with_sign) { return format_duration_ns(round_ns(ns), with_sign); }

std::optional<double> rel(double c, double t) {
  if (c == 0) return std::nullopt;
  return 100.0 * (t - c) / c;
}
std::string pct_text(double c, double t) { return format_pct(rel(c, t), c == 0 && t != 0); }
// The sort key of a percentage: empty when there is no base, "Infinity" when new.
std::string pct_key(double c, double t) {
  const auto p = rel(c, t);
  if (p) return key3(*p);
  return c == 0 && t != 0 ? std::string("Infinity") : std::string();
}

// --- tones -----------------------------------------------------------------------

// How a duration change reads: regression (slower) or improvement (faster).
struct Tone {
  const char* cls;
  const char* arrow;
};
constexpr const char* k_up = "\xE2\x96\xB2";    // ▲
constexpr const char* k_down = "\xE2\x96\xBC";  // ▼
constexpr const char* k_approx = "\xE2\x89\x88";  // ≈

Tone duration_tone(double diff) {
  if (diff > 0) return {"worse", k_up};
  if (diff < 0) return {"better", k_down};
  return {"same", ""};
}

// Figures without a noise test of their own (step time, its breakdown, launchers):
// in the default mode a change under the --min-change thresholds is grey ("same"),
// its arrow kept. --hta-compat has no thresholds: by sign alone, as before.
Tone change_tone(const DiffReport& r, double c, double t) {
  const double d = t - c;
  const Tone tone = duration_tone(d);
  if (r.hta_compat || d == 0) return tone;
  const double mag = std::fabs(d);
  if (mag < r.min_change_us * 1000.0 || (c > 0 && 100.0 * mag / c < r.min_change_pct))
    return {"same", tone.arrow};
  return tone;
}

// A row's verdict, as the table shows it: class, symbol, word, sort order.
struct VerdictLook {
  const char* cls;
  const char* sym;
  const char* word;
  int ord;
};
VerdictLook verdict_look(model::Verdict v) {
  switch (v) {
    case model::Verdict::slower: return {"worse", k_up, "slower", 0};
    case model::Verdict::faster: return {"better", k_down, "faster", 1};
    case model::Verdict::same: break;
  }
  return {"same", k_approx, "same", 2};
}

bool is_profiler_step(const DiffRow& row) {
  return row.name.rfind("ProfilerStep#", 0) == 0 || row.full_name.rfind("ProfilerStep#", 0) == 0;
}

bool has_steps(const SideSummary& s) { return !s.whole_trace && !s.step_times.steps.empty(); }

// The per-step presentation: the default mode (rows carry per-step figures).
bool per_step_mode(const DiffReport& r) { return !r.hta_compat; }

// The step section needs steps and their breakdown on both sides.
bool has_step_section(const DiffReport& r) {
  return per_step_mode(r) && has_steps(r.control) && has_steps(r.test) && !r.control.step_details.empty() &&
         !r.test.step_details.empty();
}

// What one "per step" unit is: a step on a rank, or a whole trace file.
std::string unit_word(const DiffReport& r) {
  if (r.control.whole_trace && r.test.whole_trace) return "trace";
  if (r.control.whole_trace || r.test.whole_trace) return "unit";
  return "step";
}

std::string display_name(const DiffRow& row) { return detail::shorten_name(row.name); }

// The full name for a tooltip, when it says more than the shown name.
std::string tip_name(const DiffRow& row) {
  const std::string shown = display_name(row);
  const std::string full = text(row.full_name.empty() ? row.name : row.full_name);
  if (full != shown) return full;
  return {};
}

// Where things sit in the page, for links between the table and the launcher view.
struct Anchors {
  std::vector<std::size_t> order;                // table order (row indices)
  std::vector<std::size_t> pos;                  // row index -> table position
  std::map<std::string, std::size_t> launcher;   // launcher name -> its position in by_launcher
  std::map<std::string, std::size_t> gpu_row;    // GPU row name -> table position (first)
};

Anchors make_anchors(const DiffReport& r) {
  Anchors a;
  a.order = r.impact_order();
  a.pos.assign(r.rows.size(), 0);
  for (std::size_t p = 0; p < a.order.size(); ++p) a.pos[a.order[p]] = p;
  for (std::size_t k = 0; k < r.by_launcher.size(); ++k) a.launcher.emplace(r.by_launcher[k].launcher, k);
  for (std::size_t p = 0; p < a.order.size(); ++p) {
    const auto& row = r.rows[a.order[p]];
    if (row.device == model::Device::gpu) a.gpu_row.emplace(row.name, p);
  }
  return a;
}

// --- headline --------------------------------------------------------------------

data metric_row(std::string label, std::string c, std::string t, std::string delta,
                std::string pct, const char* cls, const char* arrow) {
  data d;
  d.set("metric", label);
  d.set("c", c);
  d.set("t", t);
  d.set("delta", delta);
  d.set("pct", pct);
  d.set("cls", std::string(cls));
  d.set("arrow", std::string(arrow));
  d.set("has_arrow", *arrow != '\0');
  return d;
}

data duration_metric(const DiffReport& r, const std::string& label, std::int64_t c, std::int64_t t) {
  const auto tone = change_tone(r, static_cast<double>(c), static_cast<double>(t));
  return metric_row(label, format_duration_ns(c, false), format_duration_ns(t, false),
                    format_duration_ns(t - c, true), format_pct(relative_pct(c, t), c == 0 && t != 0),
                    tone.cls, tone.arrow);
}

data count_metric(const std::string& label, std::uint64_t c, std::uint64_t t) {
  const auto ci = static_cast<std::int64_t>(c), ti = static_cast<std::int64_t>(t);
  return metric_row(label, format_count(ci, false), format_count(ti, false), format_count(ti - ci, true),
                    format_pct(relative_pct(ci, ti), ci == 0 && ti != 0), "neutral", "");
}

void add_headline(const DiffReport& r, data& ctx) {
  const auto& c = r.control;
  const auto& t = r.test;
  data metrics = make_list();
  data cards = make_list();
  const bool steps = has_steps(c) && has_steps(t);
  const bool step_section = has_step_section(r);
  if (steps) {
    auto mean = duration_metric(r, "Step time, mean", c.step_times.mean_ns, t.step_times.mean_ns);
    cards.push_back(mean);
    if (!step_section) {  // else the step section has them all
      metrics.push_back(mean);
      metrics.push_back(duration_metric(r, "Step time, median", c.step_times.median_ns, t.step_times.median_ns));
      metrics.push_back(metric_row("Step time, min – max",
                                   format_duration_ns(c.step_times.min_ns, false) + " \xE2\x80\x93 " +
                                       format_duration_ns(c.step_times.max_ns, false),
                                   format_duration_ns(t.step_times.min_ns, false) + " \xE2\x80\x93 " +
                                       format_duration_ns(t.step_times.max_ns, false),
                                   "", "", "neutral", ""));
    }
  }
  auto cpu_time = duration_metric(r, "CPU operators, total time", c.cpu_total.total_ns, t.cpu_total.total_ns);
  auto gpu_time = duration_metric(r, "GPU work, total time", c.gpu_total.total_ns, t.gpu_total.total_ns);
  if (step_section) {
    cards.push_back(duration_metric(r, "GPU busy per step", c.step_mean.gpu_busy_ns, t.step_mean.gpu_busy_ns));
    cards.push_back(duration_metric(r, "GPU idle per step", c.step_mean.gpu_idle_ns, t.step_mean.gpu_idle_ns));
  } else {
    cards.push_back(cpu_time);
    cards.push_back(gpu_time);
  }
  metrics.push_back(count_metric("CPU operators, count", c.cpu_total.count, t.cpu_total.count));
  metrics.push_back(cpu_time);
  metrics.push_back(count_metric("GPU work (kernels, memcpy, memset), count", c.gpu_total.count,
                                 t.gpu_total.count));
  metrics.push_back(gpu_time);
  ctx.set("cards", cards);
  ctx.set("metrics", metrics);

  // Whole-trace mode, said plainly.
  std::string whole;
  if (c.whole_trace && t.whole_trace)
    whole = "Neither side has ProfilerStep annotations: each whole trace was compared, every event included.";
  else if (c.whole_trace)
    whole = "The control side has no ProfilerStep annotations: its whole trace was compared, every event included.";
  else if (t.whole_trace)
    whole = "The test side has no ProfilerStep annotations: its whole trace was compared, every event included.";
  ctx.set("has_whole_trace", !whole.empty());
  ctx.set("whole_trace_text", whole);

  data notes = make_list();
  for (const auto& n : r.notes) notes.push_back(data(text(n)));
  ctx.set("has_notes", !r.notes.empty());
  ctx.set("notes", notes);

  // What was compared, one line per property, control and test side by side.
  data compared = make_list();
  const auto add = [&](const std::string& what, std::string cv, std::string tv) {
    data d;
    d.set("what", what);
    d.set("c", cv.empty() ? std::string("\xE2\x80\x94") : cv);  // —
    d.set("t", tv.empty() ? std::string("\xE2\x80\x94") : tv);
    compared.push_back(d);
  };
  const auto files = [](const SideSummary& s) {
    std::uint64_t events = 0, bytes = 0;
    for (const auto& f : s.files) {
      events += f.events;
      bytes += f.json_bytes;
    }
    return format_count(static_cast<std::int64_t>(s.files.size()), false) +
           (s.files.size() == 1 ? " file, " : " files, ") +
           format_count(static_cast<std::int64_t>(events), false) + " events, " + format_bytes(bytes) +
           " of JSON";
  };
  const auto ranks = [](const SideSummary& s) {
    std::string out = ranges(s.ranks);
    if (!s.available_ranks.empty() && s.available_ranks != s.ranks)
      out += " (of " + ranges(s.available_ranks) + ")";
    return out;
  };
  const auto iters = [](const SideSummary& s) {
    if (s.whole_trace) return std::string("whole trace (no ProfilerStep)");
    std::string out = ranges(s.iterations);
    if (!s.available_iterations.empty() && s.available_iterations != s.iterations)
      out += " (of " + ranges(s.available_iterations) + ")";
    return out;
  };
  add("Inputs", join(c.inputs, ", "), join(t.inputs, ", "));
  add("Files", files(c), files(t));
  add("Ranks", ranks(c), ranks(t));
  add("Steps", iters(c), iters(t));
  add("Steps timed", format_count(static_cast<std::int64_t>(c.step_times.steps.size()), false),
      format_count(static_cast<std::int64_t>(t.step_times.steps.size()), false));
  if (per_step_mode(r))
    add("Step units (the per-" + unit_word(r) + " divisor)", format_count(static_cast<std::int64_t>(c.units), false),
        format_count(static_cast<std::int64_t>(t.units), false));
  add("GPUs", join(c.gpu_names, ", "), join(t.gpu_names, ", "));
  ctx.set("compared", compared);

  data file_rows = make_list();
  for (const auto* side : {&c, &t}) {
    for (const auto& f : side->files) {
      data d;
      d.set("side", std::string(side == &c ? "control" : "test"));
      d.set("path", text(f.path));
      d.set("rank", std::to_string(f.rank));
      d.set("rank_source", std::string(model::rank_source_name(f.rank_source)));
      d.set("events", format_count(static_cast<std::int64_t>(f.events), false));
      d.set("size", format_bytes(f.json_bytes));
      d.set("truncated", f.truncated);
      file_rows.push_back(d);
    }
  }
  ctx.set("files", file_rows);
  ctx.set("has_files", !c.files.empty() || !t.files.empty());

  std::string settings = "Devices: " + text(r.device_filter);
  settings += r.short_names ? " \xC2\xB7 names: short (--short-names)" : " \xC2\xB7 names: full";
  if (r.hta_compat) settings += " \xC2\xB7 HTA-compatible mode (--hta-compat)";
  ctx.set("settings", settings);
}

// The verdict counts and the largest real changes per step: what a reader wants first.
void add_findings(const DiffReport& r, const Anchors& a, data& ctx) {
  const bool on = per_step_mode(r);
  ctx.set("per_step", on);
  if (!on) return;
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
  ctx.set("unit", unit_word(r));
  const bool spread = r.control.units >= 2 && r.test.units >= 2;
  ctx.set("has_spread", spread);
}

// --- step time and where it went ---------------------------------------------------

data step_row(const DiffReport& r, const std::string& what, const std::string& note, std::int64_t c,
              std::int64_t t, double bar_max) {
  const auto tone = change_tone(r, static_cast<double>(c), static_cast<double>(t));
  data d;
  d.set("what", what);
  d.set("has_note", !note.empty());
  d.set("note", note);
  d.set("c", format_duration_ns(c, false));
  d.set("t", format_duration_ns(t, false));
  d.set("delta", format_duration_ns(t - c, true));
  d.set("pct", format_pct(relative_pct(c, t), c == 0 && t != 0));
  d.set("cls", std::string(tone.cls));
  d.set("arrow", std::string(tone.arrow));
  d.set("has_arrow", *tone.arrow != '\0');
  d.set("has_bars", bar_max > 0);
  d.set("cw", width_pct(static_cast<double>(c), bar_max));
  d.set("tw", width_pct(static_cast<double>(t), bar_max));
  return d;
}

void add_steps(const DiffReport& r, data& ctx) {
  const bool on = has_step_section(r);
  ctx.set("has_step_section", on);
  if (!on) return;
  const auto& c = r.control;
  const auto& t = r.test;

  data stats = make_list();
  {
    const auto cn = static_cast<std::int64_t>(c.step_times.steps.size());
    const auto tn = static_cast<std::int64_t>(t.step_times.steps.size());
    data d = metric_row("", format_count(cn, false), format_count(tn, false), format_count(tn - cn, true),
                        "", "neutral", "");
    d.set("what", std::string("Steps timed"));
    d.set("has_note", false);
    d.set("has_bars", false);
    stats.push_back(d);
  }
  const auto& cs = c.step_times;
  const auto& ts = t.step_times;
  const double smax = static_cast<double>(std::max(cs.max_ns, ts.max_ns));
  stats.push_back(step_row(r, "Mean", "", cs.mean_ns, ts.mean_ns, smax));
  stats.push_back(step_row(r, "Median", "", cs.median_ns, ts.median_ns, smax));
  stats.push_back(step_row(r, "Min", "", cs.min_ns, ts.min_ns, smax));
  stats.push_back(step_row(r, "Max", "", cs.max_ns, ts.max_ns, smax));
  ctx.set("step_stats", stats);

  // Where the step time went: means per step.
  const auto& cm = c.step_mean;
  const auto& tm = t.step_mean;
  const double bmax = static_cast<double>(std::max(
      {cm.dur_ns, tm.dur_ns, cm.gpu_busy_ns, tm.gpu_busy_ns, cm.gpu_idle_ns, tm.gpu_idle_ns, cm.kernel_ns,
       tm.kernel_ns, cm.comm_ns, tm.comm_ns, cm.memcpy_ns, tm.memcpy_ns, cm.memset_ns, tm.memset_ns,
       cm.cpu_self_ns, tm.cpu_self_ns, cm.runtime_ns, tm.runtime_ns}));
  data went = make_list();
  went.push_back(step_row(r, "Step time", "wall clock, ProfilerStep", cm.dur_ns, tm.dur_ns, bmax));
  went.push_back(step_row(r, "GPU busy", "kernels, memcpy, memset; overlaps once", cm.gpu_busy_ns, tm.gpu_busy_ns, bmax));
  went.push_back(step_row(r, "GPU idle", "step time \xC3\x97 GPUs \xE2\x88\x92 busy", cm.gpu_idle_ns, tm.gpu_idle_ns, bmax));
  went.push_back(step_row(r, "Compute kernels", "", cm.kernel_ns, tm.kernel_ns, bmax));
  went.push_back(step_row(r, "Communication kernels", "NCCL, RCCL, HCCL", cm.comm_ns, tm.comm_ns, bmax));
  went.push_back(step_row(r, "Memcpy", "", cm.memcpy_ns, tm.memcpy_ns, bmax));
  went.push_back(step_row(r, "Memset", "", cm.memset_ns, tm.memset_ns, bmax));
  went.push_back(step_row(r, "CPU operators, self time", "", cm.cpu_self_ns, tm.cpu_self_ns, bmax));
  went.push_back(step_row(r, "Runtime calls", "CUDA runtime and driver API", cm.runtime_ns, tm.runtime_ns, bmax));
  ctx.set("step_went", went);

  // GPU time per step, stacked: compute | communication | memcpy | memset | idle.
  struct Seg {
    const char* cls;
    const char* name;
    std::int64_t model::StepDetail::*field;
  };
  static constexpr Seg segs[] = {{"g-kernel", "Compute kernels", &model::StepDetail::kernel_ns},
                                 {"g-comm", "Communication kernels", &model::StepDetail::comm_ns},
                                 {"g-memcpy", "Memcpy", &model::StepDetail::memcpy_ns},
                                 {"g-memset", "Memset", &model::StepDetail::memset_ns},
                                 {"g-idle", "GPU idle", &model::StepDetail::gpu_idle_ns}};
  const auto sum = [&](const model::StepDetail& s) {
    std::int64_t total = 0;
    for (const auto& g : segs) total += std::max<std::int64_t>(s.*g.field, 0);
    return total;
  };
  const double gmax = static_cast<double>(std::max(sum(cm), sum(tm)));
  data stacks = make_list();
  for (const auto* side : {&c, &t}) {
    const auto& m = side->step_mean;
    data s;
    s.set("side", text(side->label.empty() ? (side == &c ? "Control" : "Test") : side->label));
    s.set("sc", std::string(side == &c ? "c" : "t"));
    s.set("total", format_duration_ns(sum(m), false));
    data list = make_list();
    for (const auto& g : segs) {
      const auto v = std::max<std::int64_t>(m.*g.field, 0);
      if (v == 0) continue;
      data seg;
      seg.set("cls", std::string(g.cls));
      seg.set("w", width_pct(static_cast<double>(v), gmax));
      seg.set("tip", std::string(g.name) + ": " + format_duration_ns(v, false));
      list.push_back(seg);
    }
    s.set("segs", list);
    stacks.push_back(s);
  }
  ctx.set("gpu_stacks", stacks);

  // Every step's figures, both sides (at most k_max per side).
  constexpr std::size_t k_max = 100;
  data details = make_list();
  std::string cut;
  for (const auto* side : {&c, &t}) {
    const auto& list = side->step_details;
    for (std::size_t i = 0; i < list.size() && i < k_max; ++i) {
      const auto& s = list[i];
      data d;
      d.set("side", text(side->label.empty() ? (side == &c ? "Control" : "Test") : side->label));
      d.set("sc", std::string(side == &c ? "c" : "t"));
      d.set("rank", std::to_string(s.rank));
      d.set("step", std::to_string(s.step));
      for (const auto& [key, v] : {std::pair{"dur", s.dur_ns}, {"busy", s.gpu_busy_ns}, {"idle", s.gpu_idle_ns},
                                   {"kernel", s.kernel_ns}, {"comm", s.comm_ns}, {"memcpy", s.memcpy_ns},
                                   {"memset", s.memset_ns}, {"cpu", s.cpu_self_ns}, {"rt", s.runtime_ns}})
        d.set(key, format_duration_ns(v, false));
      details.push_back(d);
    }
    if (list.size() > k_max) {
      if (!cut.empty()) cut += "; ";
      cut += text(side->label) + ": the first " + std::to_string(k_max) + " of " +
             format_count(static_cast<std::int64_t>(list.size()), false);
    }
  }
  ctx.set("step_details", details);
  ctx.set("step_details_n", format_count(static_cast<std::int64_t>(c.step_details.size() + t.step_details.size()), false));
  ctx.set("has_step_cut", !cut.empty());
  ctx.set("step_cut", cut + " (every step is in the JSON output)");

  // Ranks side by side, when a side has more than one.
  const bool ranks = c.rank_details.size() > 1 || t.rank_details.size() > 1;
  ctx.set("has_ranks", ranks);
  if (!ranks) return;
  const auto& cr = c.rank_details;
  const auto& tr = t.rank_details;
  const bool same_ids = cr.size() == tr.size() && std::equal(cr.begin(), cr.end(), tr.begin(), [](auto& x, auto& y) {
                          return x.rank == y.rank;
                        });
  data rows = make_list();
  const std::size_t n = std::max(cr.size(), tr.size());
  const double rmax = [&] {
    std::int64_t m = 0;
    for (const auto& x : cr) m = std::max(m, x.step_mean_ns);
    for (const auto& x : tr) m = std::max(m, x.step_mean_ns);
    return static_cast<double>(m);
  }();
  for (std::size_t i = 0; i < n; ++i) {
    const model::RankDetail* a = i < cr.size() ? &cr[i] : nullptr;
    const model::RankDetail* b = i < tr.size() ? &tr[i] : nullptr;
    data d;
    std::string label;
    if (a && b && (same_ids || a->rank == b->rank)) label = std::to_string(a->rank);
    else label = (a ? std::to_string(a->rank) : std::string("\xE2\x80\x94")) + " \xE2\x86\x92 " +
                 (b ? std::to_string(b->rank) : std::string("\xE2\x80\x94"));
    d.set("rank", label);
    const std::string dash = "\xE2\x80\x94";
    d.set("cn", a ? std::to_string(a->steps) : dash);
    d.set("cm", a ? format_duration_ns(a->step_mean_ns, false) : dash);
    d.set("cb", a ? format_duration_ns(a->gpu_busy_mean_ns, false) : dash);
    d.set("tn", b ? std::to_string(b->steps) : dash);
    d.set("tm", b ? format_duration_ns(b->step_mean_ns, false) : dash);
    d.set("tb", b ? format_duration_ns(b->gpu_busy_mean_ns, false) : dash);
    const bool both = a && b;
    const auto tone = both ? change_tone(r, static_cast<double>(a->step_mean_ns), static_cast<double>(b->step_mean_ns))
                           : Tone{"neutral", ""};
    d.set("delta", both ? format_duration_ns(b->step_mean_ns - a->step_mean_ns, true) : dash);
    d.set("pct", both ? format_pct(relative_pct(a->step_mean_ns, b->step_mean_ns)) : dash);
    d.set("cls", std::string(tone.cls));
    d.set("arrow", std::string(tone.arrow));
    d.set("has_arrow", *tone.arrow != '\0');
    d.set("cw", width_pct(a ? static_cast<double>(a->step_mean_ns) : 0, rmax));
    d.set("tw", width_pct(b ? static_cast<double>(b->step_mean_ns) : 0, rmax));
    const bool most = both && r.ranks.changed_most_control_rank && r.ranks.changed_most_test_rank &&
                      *r.ranks.changed_most_control_rank == a->rank && *r.ranks.changed_most_test_rank == b->rank;
    d.set("most", most);
    rows.push_back(d);
  }
  ctx.set("rank_rows", rows);
  ctx.set("spread_c", format_duration_ns(r.ranks.control_spread_ns, false));
  ctx.set("spread_t", format_duration_ns(r.ranks.test_spread_ns, false));
  std::string most;
  if (r.ranks.changed_most_control_rank && r.ranks.changed_most_test_rank) {
    const int a = *r.ranks.changed_most_control_rank, b = *r.ranks.changed_most_test_rank;
    most = a == b ? "rank " + std::to_string(a) : "rank " + std::to_string(a) + " \xE2\x86\x92 " + std::to_string(b);
    most += " (" + format_pct(r.ranks.changed_most_pct) + " mean step time)";
  }
  ctx.set("has_changed_most", !most.empty());
  ctx.set("changed_most", most);
}

// --- by launching operator -----------------------------------------------------------

bool has_launchers(const DiffReport& r) { return per_step_mode(r) && !r.by_launcher.empty(); }

// The launchers themselves are a block of their own (render_list).
void add_launchers(const DiffReport& r, data& ctx) {
  const bool on = has_launchers(r);
  ctx.set("has_launchers", on);
  if (!on) return;
  ctx.set("launcher_count", format_count(static_cast<std::int64_t>(r.by_launcher.size()), false));
}

// Launcher k with its first kernels.
void launcher_row(const DiffReport& r, const Anchors& a, std::size_t k, Fields& f) {
  const double cu = r.control.units ? static_cast<double>(r.control.units) : 1.0;
  const double tu = r.test.units ? static_cast<double>(r.test.units) : 1.0;
  constexpr std::size_t k_kernels = 25;
  const auto& l = r.by_launcher[k];
  const auto tone = change_tone(r, l.control_per_step_ns, l.test_per_step_ns);
  f.text("id", tag("l", k));
  const auto shown = detail::shorten_name(l.launcher);
  f.text("nm", shown);
  const auto full = text(l.launcher);
  f.flag("has_tip", full != shown);
  f.text("tip", full);
  f.text("c", dur(l.control_per_step_ns, false));
  f.text("t", dur(l.test_per_step_ns, false));
  f.text("d", dur(l.test_per_step_ns - l.control_per_step_ns, true));
  f.text("p", pct_text(l.control_per_step_ns, l.test_per_step_ns));
  f.text("cls", tone.cls);
  f.text("arrow", tone.arrow);
  f.flag("has_arrow", *tone.arrow != '\0');
  f.text("nk", std::to_string(l.kernels.size()));
  auto& kernels = f.objects("kernels", std::min(l.kernels.size(), k_kernels));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& kn = l.kernels[i];
    const double kc = static_cast<double>(kn.control_ns) / cu, kt = static_cast<double>(kn.test_ns) / tu;
    const auto kt_tone = change_tone(r, kc, kt);
    Fields e = f.item(kernels, i);
    const auto row = a.gpu_row.find(kn.name);
    e.flag("has_href", row != a.gpu_row.end());
    e.text("href", row != a.gpu_row.end() ? tag("#r", row->second) : std::string());
    e.text("nm", detail::shorten_name(kn.name));
    e.text("c", dur(kc, false));
    e.text("t", dur(kt, false));
    e.text("d", dur(kt - kc, true));
    e.text("p", pct_text(kc, kt));
    e.text("cls", kt_tone.cls);
  }
  const bool more = l.kernels.size() > k_kernels;
  f.flag("has_more", more);
  f.text("more", more ? format_count(static_cast<std::int64_t>(l.kernels.size() - k_kernels), false) +
                            " more (every kernel is in the JSON output)"
                      : std::string());
}

// --- ops_diff groups -------------------------------------------------------------

void add_groups(const DiffReport& r, data& ctx) {
  data groups = make_list();
  for (auto ch : k_changes) {
    const auto& names = r.ops_diff.of(ch);
    data g;
    g.set("group", std::string(model::change_name(ch)));
    g.set("sym", std::string(model::change_symbol(ch)));
    g.set("size", format_count(static_cast<std::int64_t>(names.size()), false));
    data list = make_list();
    for (const auto& n : names) append(list, data(text(n)));
    put(g, "names", std::move(list));
    g.set("has_names", !names.empty());
    append(groups, std::move(g));
  }
  put(ctx, "groups", std::move(groups));
  ctx.set("groups_basis", std::string(per_step_mode(r) ? "by count per step" : "by count, as HTA's ops_diff"));
}

// --- charts ----------------------------------------------------------------------

struct ChartRow {
  const DiffRow* row;
  double c, t, d;
  std::string ct, tt, dt;
  const char* verdict;  // colours the difference bar; nullptr: no verdict applies
};

struct ChartSet {
  std::string title, subtitle;
  std::vector<ChartRow> rows;
};

struct Chart {
  std::string id;
  bool durations;
  ChartSet main;
  bool has_self = false;
  ChartSet self;  // self time instead of inclusive (default mode, durations)
};

ChartRow duration_row(const DiffRow& row, double c, double t, const char* verdict) {
  return {&row, c, t, t - c, dur(c, false), dur(t, false), dur(t - c, true), verdict};
}

std::vector<Chart> build_charts(const DiffReport& r, const std::vector<std::size_t>& order, int top) {
  const auto n = static_cast<std::size_t>(std::max(top, 0));
  const bool ps = per_step_mode(r);
  std::vector<std::size_t> candidates;
  for (auto i : order)
    if (!is_profiler_step(r.rows[i])) candidates.push_back(i);

  // The top n of the candidates by a magnitude, ties in impact order.
  const auto top_by = [&](auto&& mag) {
    std::vector<std::size_t> v = candidates;
    std::stable_sort(v.begin(), v.end(), [&](std::size_t a, std::size_t b) { return mag(r.rows[a]) > mag(r.rows[b]); });
    if (v.size() > n) v.resize(n);
    return v;
  };

  Chart count{"count", false, {}, false, {}};
  Chart duration{"duration", true, {}, false, {}};
  if (!ps) {
    for (auto i : top_by([](const DiffRow& x) { return magnitude(x.diff_count()); })) {
      const auto& row = r.rows[i];
      const auto c = static_cast<std::int64_t>(row.control.count), t = static_cast<std::int64_t>(row.test.count);
      count.main.rows.push_back({&row, static_cast<double>(c), static_cast<double>(t), static_cast<double>(t - c),
                                 format_count(c, false), format_count(t, false), format_count(t - c, true), nullptr});
    }
    for (std::size_t k = 0; k < candidates.size() && k < n; ++k) {
      const auto& row = r.rows[candidates[k]];
      duration.main.rows.push_back(duration_row(row, static_cast<double>(row.control.total_ns),
                                                static_cast<double>(row.test.total_ns), nullptr));
    }
    count.main.title = "Count difference";
    count.main.subtitle = "Top " + std::to_string(count.main.rows.size()) + " operators by |\xCE\x94 count|";
    duration.main.title = "Duration difference";
    duration.main.subtitle =
        "Top " + std::to_string(duration.main.rows.size()) + " operators by |\xCE\x94 total duration|";
    return {count, duration};
  }

  const std::string unit = unit_word(r);
  for (auto i : top_by([](const DiffRow& x) { return std::fabs(x.test_step.count - x.control_step.count); })) {
    const auto& row = r.rows[i];
    const double c = row.control_step.count, t = row.test_step.count;
    count.main.rows.push_back({&row, c, t, t - c, format_count_per_step(c, false), format_count_per_step(t, false),
                               format_count_per_step(t - c, true), nullptr});
  }
  for (std::size_t k = 0; k < candidates.size() && k < n; ++k) {
    const auto& row = r.rows[candidates[k]];
    duration.main.rows.push_back(duration_row(row, row.control_step.total_ns, row.test_step.total_ns,
                                              model::verdict_name(row.verdict)));
  }
  duration.has_self = true;
  for (auto i : top_by([](const DiffRow& x) { return std::fabs(x.test_step.self_ns - x.control_step.self_ns); })) {
    const auto& row = r.rows[i];
    duration.self.rows.push_back(duration_row(row, row.control_step.self_ns, row.test_step.self_ns, nullptr));
  }
  count.main.title = "Calls per " + unit;
  count.main.subtitle = "Top " + std::to_string(count.main.rows.size()) + " by |\xCE\x94 calls per " + unit + "|";
  duration.main.title = "Inclusive time per " + unit;
  duration.main.subtitle = "Top " + std::to_string(duration.main.rows.size()) + " by |\xCE\x94 per " + unit +
                           "|; \xCE\x94 bar coloured by verdict";
  duration.self.title = "Self time per " + unit;
  duration.self.subtitle =
      "Top " + std::to_string(duration.self.rows.size()) + " by |\xCE\x94 self time per " + unit + "|";
  return {count, duration};
}

data chart_bars(const ChartSet& set) {
  double max = 0;
  for (const auto& cr : set.rows) max = std::max({max, std::fabs(cr.c), std::fabs(cr.t), std::fabs(cr.d)});
  data rows = make_list();
  for (const auto& cr : set.rows) {
    data d;
    d.set("label", display_name(*cr.row));
    const auto tip = tip_name(*cr.row);
    d.set("has_tip", !tip.empty());
    d.set("tip", tip);
    d.set("cw", width_pct(std::fabs(cr.c), max));
    d.set("tw", width_pct(std::fabs(cr.t), max));
    d.set("dw", width_pct(std::fabs(cr.d), max));
    d.set("ct", cr.ct);
    d.set("tt", cr.tt);
    d.set("dt", cr.dt);
    std::string cls = cr.d > 0 ? "pos" : cr.d < 0 ? "neg" : "zero";
    if (cr.verdict) cls += std::string(" v-") + cr.verdict;
    d.set("dcls", cls);
    rows.push_back(d);
  }
  return rows;
}

void add_charts(const std::vector<Chart>& charts, data& ctx) {
  data list = make_list();
  for (const auto& ch : charts) {
    data c;
    c.set("id", ch.id);
    c.set("title", ch.main.title);
    c.set("subtitle", ch.main.subtitle);
    c.set("empty", ch.main.rows.empty());
    const auto rows = std::max(ch.main.rows.size(), ch.has_self ? ch.self.rows.size() : 0);
    c.set("height", std::to_string(80 + 36 * rows));
    c.set("bars", chart_bars(ch.main));
    c.set("has_self", ch.has_self);
    c.set("self_title", ch.self.title);
    c.set("self_subtitle", ch.self.subtitle);
    c.set("self_bars", chart_bars(ch.self));
    list.push_back(c);
  }
  ctx.set("charts", list);
}

// The data the report's script draws the charts from. Every string goes through
// json_string, which escapes < > & so nothing can close the <script> element.
std::string chart_json(const DiffReport& r, const std::vector<Chart>& charts) {
  const bool ps = per_step_mode(r);
  const auto num = [&](double v, bool durations) {
    if (durations || !ps) return std::to_string(round_ns(v));
    return key3(v);
  };
  const auto rows_json = [&](const ChartSet& set, bool durations) {
    std::string j = "[";
    bool first = true;
    for (const auto& cr : set.rows) {
      if (!first) j += ',';
      first = false;
      const auto& row = *cr.row;
      j += "{\"label\":" + json_string(display_name(row));
      j += ",\"name\":" + json_string(row.full_name.empty() ? row.name : row.full_name);
      j += ",\"c\":" + num(cr.c, durations) + ",\"t\":" + num(cr.t, durations) + ",\"d\":" + num(cr.d, durations);
      j += ",\"ct\":" + json_string(cr.ct) + ",\"tt\":" + json_string(cr.tt) + ",\"dt\":" + json_string(cr.dt);
      if (cr.verdict) j += ",\"v\":" + json_string(cr.verdict);
      j += "}";
    }
    return j + "]";
  };
  std::string j = "{\"labels\":[";
  j += json_string(r.control.label.empty() ? "Control" : r.control.label);
  j += ',';
  j += json_string(r.test.label.empty() ? "Test" : r.test.label);
  j += "],\"per_step\":";
  j += ps ? "true" : "false";
  j += ",\"unit\":" + json_string(unit_word(r));
  j += ",\"charts\":[";
  bool first_chart = true;
  for (const auto& ch : charts) {
    if (!first_chart) j += ',';
    first_chart = false;
    j += "{\"id\":" + json_string(ch.id) + ",\"unit\":" + json_string(ch.durations ? "ns" : "count") +
         ",\"rows\":" + rows_json(ch.main, ch.durations);
    if (ch.has_self) j += ",\"self\":" + rows_json(ch.self, ch.durations);
    j += "}";
  }
  j += "]}";
  return j;
}

// --- the table -------------------------------------------------------------------

// Counts per change group, device and verdict, for the filter toggles.
void add_toggles(const DiffReport& r, data& ctx) {
  std::array<std::size_t, 5> per_change{};
  std::array<std::size_t, 3> per_device{};
  std::array<std::size_t, 3> per_verdict{};
  for (const auto& row : r.rows) {
    ++per_change[static_cast<std::size_t>(row.change)];
    ++per_device[static_cast<std::size_t>(row.device)];
    ++per_verdict[static_cast<std::size_t>(row.verdict)];
  }
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
  for (auto v : {model::Verdict::slower, model::Verdict::faster, model::Verdict::same}) {
    const auto look = verdict_look(v);
    data d;
    d.set("verdict", std::string(look.word));
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
  const bool is_new = row.control.total_ns == 0 && row.test.total_ns != 0;
  const auto tone = duration_tone(static_cast<double>(dd));
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
  f.text("arrow", tone.arrow);
  f.flag("has_arrow", *tone.arrow != '\0');
}

// One numeric cell of the per-step table: the inclusive value, and the self value
// when it differs (data-s for sorting; both texts when they read differently).
void cell(Fields f, const char* cls, const std::string& v, const std::string& txt, const std::string& sv,
          const std::string& stxt) {
  f.text("cls", cls);
  f.text("v", v);
  const bool has_s = !sv.empty() && sv != v;
  f.flag("has_s", has_s);
  f.text("sv", sv);
  f.flag("two", has_s && stxt != txt);
  f.text("t", txt);
  f.text("st", stxt);
}

// The default mode: per step first (inclusive and self), totals after, verdict.
void per_step_row(const DiffRow& row, const Anchors& a, bool spread, Fields& f) {
  const auto& cs = row.control_step;
  const auto& ts = row.test_step;
  const auto look = verdict_look(row.verdict);
  f.text("cls", look.cls);
  f.text("vd", look.word);
  f.text("vd_sym", look.sym);
  f.text("vd_v", std::to_string(look.ord));
  f.flag("has_vd_tip", spread);
  f.text("vd_tip", spread ? "step-to-step \xCF\x83: " + dur(cs.stddev_ns, false) + " \xE2\x86\x92 " +
                                dur(ts.stddev_ns, false)
                          : std::string());
  const bool has_lb = !row.launched_by.empty();
  f.flag("has_lb", has_lb);
  f.text("lb", detail::shorten_name(row.launched_by, 48));
  const auto l = has_lb ? a.launcher.find(row.launched_by) : a.launcher.end();
  f.flag("has_lb_href", l != a.launcher.end());
  f.text("lb_href", l != a.launcher.end() ? tag("#l", l->second) : std::string());

  auto& cells = f.objects("cells", 6);
  const auto key = [](double v) { return std::to_string(round_ns(v)); };
  cell(f.item(cells, 0), "n", key(cs.total_ns), dur(cs.total_ns, false), key(cs.self_ns), dur(cs.self_ns, false));
  cell(f.item(cells, 1), "n", key(ts.total_ns), dur(ts.total_ns, false), key(ts.self_ns), dur(ts.self_ns, false));
  cell(f.item(cells, 2), "n d", key(row.diff_per_step_ns()), dur(row.diff_per_step_ns(), true),
       key(ts.self_ns - cs.self_ns), dur(ts.self_ns - cs.self_ns, true));
  const bool is_new = cs.total_ns == 0 && ts.total_ns != 0;
  const auto pct = row.diff_pct();
  cell(f.item(cells, 3), "n d", pct ? key3(*pct) : is_new ? std::string("Infinity") : std::string(),
       format_pct(pct, is_new), pct_key(cs.self_ns, ts.self_ns), pct_text(cs.self_ns, ts.self_ns));
  cell(f.item(cells, 4), "n tot", std::to_string(row.control.total_ns), format_duration_ns(row.control.total_ns, false),
       std::to_string(row.control.self_ns), format_duration_ns(row.control.self_ns, false));
  cell(f.item(cells, 5), "n tot", std::to_string(row.test.total_ns), format_duration_ns(row.test.total_ns, false),
       std::to_string(row.test.self_ns), format_duration_ns(row.test.self_ns, false));

  const auto cc = format_count_per_step(cs.count, false), tc = format_count_per_step(ts.count, false);
  f.text("calls", cc == tc ? cc : cc + " \xE2\x86\x92 " + tc);
  f.text("calls_v", key3(ts.count - cs.count));
  f.text("calls_tip", format_count(static_cast<std::int64_t>(row.control.count), false) + " \xE2\x86\x92 " +
                          format_count(static_cast<std::int64_t>(row.test.count), false) + " calls in all");
}

// Row p of the table.
void table_row(const DiffReport& r, const Anchors& a, std::size_t p, Fields& f) {
  const bool spread = r.control.units >= 2 && r.test.units >= 2;
  const auto& row = r.rows[a.order[p]];
  if (per_step_mode(r)) per_step_row(row, a, spread, f);
  else totals_row(row, f);
  f.text("id", tag("r", p));
  f.text("nm", display_name(row));
  const auto tip = tip_name(row);
  f.flag("has_tip", !tip.empty());
  f.text("tip", tip);
  f.text("cat", text(row.category));
  f.text("dev", model::device_name(row.device));
  f.text("chg", model::change_name(row.change));
  f.text("chg_sym", model::change_symbol(row.change));
  f.text("chg_v", std::to_string(static_cast<int>(row.change)));
}

// The rows themselves are a block of their own (render_list).
void add_table(const DiffReport& r, data& ctx) {
  ctx.set("row_count", format_count(static_cast<std::int64_t>(r.rows.size()), false));
  ctx.set("has_rows", !r.rows.empty());
  ctx.set("pct_basis", std::string(r.hta_compat ? "Relative change of the total duration"
                                                 : "Relative change of the duration per " + unit_word(r)));
  add_toggles(r, ctx);
}

// --- diagnostics -----------------------------------------------------------------

void add_diagnostics(const DiffReport& r, data& ctx) {
  const auto& diag = r.diagnostics;
  data counts = make_list();
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (diag.count(id) == 0) continue;
    data d;
    d.set("id", std::string(model::diag_name(id)));
    d.set("description", std::string(model::diag_description(id)));
    d.set("count", format_count(static_cast<std::int64_t>(diag.count(id)), false));
    counts.push_back(d);
  }
  data samples = make_list();
  for (const auto& s : diag.samples()) {
    data d;
    d.set("id", std::string(model::diag_name(s.id)));
    d.set("file", text(s.file));
    d.set("offset", s.offset == 0 ? std::string("\xE2\x80\x94") : format_count(static_cast<std::int64_t>(s.offset), false));
    d.set("message", text(s.message));
    samples.push_back(d);
  }
  ctx.set("has_diagnostics", diag.total() > 0);
  ctx.set("diagnostic_total", format_count(static_cast<std::int64_t>(diag.total()), false));
  ctx.set("diagnostic_counts", counts);
  ctx.set("has_samples", !diag.samples().empty());
  ctx.set("diagnostic_samples", samples);
}

std::string_view asset(std::string_view name) {
  const auto bytes = embedded_file(name);
  if (bytes.empty()) throw std::runtime_error("embedded asset missing: " + std::string(name));
  return bytes;
}

// A long list rendered on its own: templates/NAME, an item of `key` at a time
// (Stencils). Without its last line break: the page's line with the {{{block}}}
// tag ends the block.
std::string render_list(std::string_view name, const std::string& key, std::size_t n, std::size_t bytes_each,
                        const std::function<void(std::size_t, Fields&)>& fill) {
  templates::Stencils stencils(name, key);
  std::string out;
  out.reserve(n * bytes_each);
  for (std::size_t i = 0; i < n; ++i) stencils.render([&](Fields& f) { fill(i, f); }, out);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// 'sha256-...', hashed at build time (cmake/EmbedScript.cmake).
std::string script_hash(std::string_view name) {
  return "'sha256-" + std::string(embedded_sha256_base64(name)) + "'";
}

}  // namespace

void write_html(const model::DiffReport& report, const HtmlOptions& options, std::ostream& out) {
  const auto anchors = make_anchors(report);
  // The table's rows are half the page: a second thread renders them while this one
  // builds and renders the rest; they are written out where the page has them.
  auto rows = std::async(std::launch::async, [&] {
    return render_list(per_step_mode(report) ? "table_row.html.mustache" : "table_row_hta.html.mustache", "rows",
                       report.rows.size(), 1280,
                       [&](std::size_t p, Fields& row) { table_row(report, anchors, p, row); });
  });

  auto tmpl = templates::load("report.html.mustache");
  templates::StreamSink sink(out);
  data ctx;
  const std::string control = text(report.control.label.empty() ? "Control" : report.control.label);
  const std::string test = text(report.test.label.empty() ? "Test" : report.test.label);
  ctx.set("control_label", control);
  ctx.set("test_label", test);
  ctx.set("generator", std::string("tracediff ") + TRACEDIFF_VERSION);
  // No network at all; scripts only ours (by hash), so injected markup could run nothing.
  ctx.set("csp", "default-src 'none'; script-src " + script_hash("chart.umd.min.js") + " " +
                     script_hash("report.js") +
                     "; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  // The assets go straight from the binary to the output.
  for (const auto* name : {"report.css", "chart.umd.min.js", "report.js"}) asset(name);  // throws if missing
  put(ctx, "css", templates::block(sink, [] { return asset("report.css"); }));
  put(ctx, "chart_js", templates::block(sink, [] { return asset("chart.umd.min.js"); }));
  put(ctx, "report_js", templates::block(sink, [] { return asset("report.js"); }));

  add_headline(report, ctx);
  add_findings(report, anchors, ctx);
  add_steps(report, ctx);
  add_groups(report, ctx);
  const auto charts = build_charts(report, anchors.order, options.top);
  add_charts(charts, ctx);
  ctx.set("data_json", chart_json(report, charts));
  add_table(report, ctx);
  add_launchers(report, ctx);
  add_diagnostics(report, ctx);

  const std::string launchers =
      has_launchers(report)
          ? render_list("launchers.html.mustache", "launchers", report.by_launcher.size(), 2560,
                        [&](std::size_t k, Fields& row) { launcher_row(report, anchors, k, row); })
          : std::string();
  put(ctx, "launchers", templates::block(sink, [&] { return std::string_view(launchers); }));
  std::string table;
  put(ctx, "table_rows", templates::block(sink, [&] {
        table = rows.get();
        return std::string_view(table);
      }));

  tmpl.render(ctx, sink);
  templates::check(tmpl, "report.html.mustache");
  sink.flush();
}

}  // namespace tracediff::output
