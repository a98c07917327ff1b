// `tracediff trend -o trend.html`: one self-contained page without script (its CSP
// allows none), through templates/trend.html.mustache. Charts are inline SVG drawn here
// through output/svg (deterministic: fixed-precision coordinates); every string from a
// trace, a path or a label is html_escape'd where it is put.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "output/svg.hpp"
#include "output/template_render.hpp"
#include "output/trend_writers.hpp"
#include "util/escape.hpp"
#include "util/format.hpp"

#ifndef TRACEDIFF_VERSION
#define TRACEDIFF_VERSION "unknown"
#endif

namespace tracediff::output {

namespace {

constexpr std::size_t k_changes_shown = 200;
constexpr std::size_t k_runs_shown = 2000;

std::string amount(const model::TrendSeries& s, double v) {
  if (!std::isfinite(v)) return "–";
  return s.bytes ? format_size(v, false) : format_duration_ns(to_ns(v), false);
}

std::string run_text(const model::TrendReport& r, std::size_t i) {
  std::string out = "run " + std::to_string(i + 1);
  if (!r.runs[i].label.empty()) out += " (" + r.runs[i].label + ")";
  return out;
}

std::string pct_text(double pct) { return std::isfinite(pct) ? format_pct(pct) : std::string("new"); }

struct Box {
  double w, h, left, right, top, bottom;
};

// The series' line, its p25-p75 band (axes and change points with a full chart).
std::string chart_svg(const model::TrendReport& r, const model::TrendSeries& s, const Box& b, bool full) {
  const std::size_t n = s.value.size();
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < n; ++i)
    for (const float v : {s.value[i], s.lo[i], s.hi[i]})
      if (std::isfinite(v)) lo = std::min<double>(lo, v), hi = std::max<double>(hi, v);
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (full) lo = std::min(lo, 0.0);  // from zero: a 2 % change must not look like a cliff
  if (!(hi > lo)) hi = lo + std::max(1.0, std::abs(lo));  // a flat line: lo + 1 is lo past 2^53
  const double pw = b.w - b.left - b.right, ph = b.h - b.top - b.bottom;
  const auto x = [&](std::size_t i) { return b.left + (n > 1 ? pw * static_cast<double>(i) / static_cast<double>(n - 1) : pw / 2); };
  const auto y = [&](double v) { return b.top + ph * (1 - (v - lo) / (hi - lo)); };
  using svg::one_decimal;
  std::string out;
  svg::Writer w(out);
  w.open("svg").attr("viewBox", "0 0 " + one_decimal(b.w) + " " + one_decimal(b.h)).attr("width", one_decimal(b.w));
  w.attr("height", one_decimal(b.h)).attr("role", "img").attr("aria-label", s.label);
  // The band, a polygon per stretch of runs with values: p75 forth, p25 back.
  std::vector<svg::Points> bands;
  svg::Points up, line;
  std::vector<std::pair<double, double>> down;
  const auto flush = [&] {
    if (!up.empty()) {
      for (auto it = down.rbegin(); it != down.rend(); ++it) up.add(it->first, it->second);
      bands.push_back(std::move(up));
    }
    up = {};
    down.clear();
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.value[i])) {
      flush();
      continue;
    }
    up.add(x(i), y(s.hi[i]));
    down.emplace_back(x(i), y(s.lo[i]));
    line.add(x(i), y(s.value[i]));
  }
  flush();
  // This page's points have always ended in a space.
  const auto points = [](const svg::Points& p) { return p.empty() ? std::string() : p.text() + ' '; };
  for (const auto& band : bands) w.open("polygon").attr("class", "band").attr("points", points(band)).end();
  w.open("polyline").attr("class", "line").attr("points", points(line)).end();
  if (full) {
    w.open("text").attr("x", one_decimal(b.left - 4)).attr("y", one_decimal(b.top + 8)).attr("text-anchor", "end");
    w.text(amount(s, hi)).end();
    w.open("text").attr("x", one_decimal(b.left - 4)).attr("y", one_decimal(b.h - b.bottom)).attr("text-anchor", "end");
    w.text(amount(s, lo)).end();
    w.open("text").attr("x", one_decimal(b.left)).attr("y", one_decimal(b.h - 4)).text("run 1").end();
    w.open("text").attr("x", one_decimal(b.w - b.right)).attr("y", one_decimal(b.h - 4)).attr("text-anchor", "end");
    w.text("run " + std::to_string(n)).end();
    for (const auto ci : s.changes) {
      const auto& c = r.changes[ci];
      w.open("line").attr("class", "cp").attr("x1", one_decimal(x(c.run))).attr("x2", one_decimal(x(c.run)));
      w.attr("y1", one_decimal(b.top)).attr("y2", one_decimal(b.h - b.bottom));
      w.open("title").text(pct_text(c.pct) + " since " + run_text(r, c.run)).end().end();
      w.open("circle").attr("class", "cpdot").attr("cx", one_decimal(x(c.run))).attr("cy", one_decimal(y(c.after)));
      w.attr("r", "3").end();
    }
  }
  w.end();
  return out;
}

std::string what(const model::TrendSeries& s) {
  if (s.kind == model::SeriesKind::row) return "<code>" + html_escape(s.label) + "</code> <span class=\"muted\">" + html_escape(s.id) + "</span>";
  return html_escape(s.label) + (s.kind == model::SeriesKind::family ? " <span class=\"muted\">kernel family</span>" : "");
}

std::string charts(const model::TrendReport& r) {
  std::string out;
  const Box box{520, 170, 70, 10, 8, 20};
  for (const auto& s : r.series) {
    const bool family_changed = s.kind == model::SeriesKind::family && !s.changes.empty();
    if (!(s.kind == model::SeriesKind::figure && s.headline) && !family_changed) continue;
    out += "<figure><figcaption>" + what(s) + "</figcaption>" + chart_svg(r, s, box, true) + "</figure>\n";
  }
  return out;
}

std::string changes(const model::TrendReport& r) {
  if (r.changes.empty()) return "<p>No change points.</p>";
  std::string out =
      "<table><thead><tr><th>Figure or row</th><th>First run after</th><th>Before → after</th><th>Change</th>"
      "<th>Confidence</th><th>Compare the two runs</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < r.changes.size() && i < k_changes_shown; ++i) {
    const auto& c = r.changes[i];
    const auto& s = r.series[c.series];
    char conf[32];
    std::snprintf(conf, sizeof conf, "%.1f %%", std::floor(c.confidence * 1000) / 10);
    out += "<tr><td>" + what(s) + "</td><td>" + html_escape(run_text(r, c.run)) + (c.newest ? " (newest)" : "") +
           "</td><td class=\"num\">" + html_escape(amount(s, c.before) + " → " + amount(s, c.after)) +
           "</td><td class=\"num " + (c.pct > 0 ? "up" : "down") + "\">" + html_escape(pct_text(c.pct)) +
           "</td><td class=\"num\">" + conf + "</td><td><code>" + html_escape(c.command) + "</code></td></tr>\n";
  }
  out += "</tbody></table>";
  if (r.changes.size() > k_changes_shown)
    out += "<p class=\"muted\">" + std::to_string(r.changes.size() - k_changes_shown) + " more changes in the JSON.</p>";
  return out;
}

std::string rows(const model::TrendReport& r) {
  if (r.moved.empty()) return "<p>No rows.</p>";
  std::string out = "<table><thead><tr><th>Row</th><th>Series</th><th>Newest</th><th>Changes</th></tr></thead><tbody>\n";
  const Box spark{200, 28, 2, 2, 3, 3};
  for (const auto i : r.moved) {
    const auto& s = r.series[i];
    std::string list;
    for (const auto ci : s.changes) {
      const auto& c = r.changes[ci];
      list += (list.empty() ? "" : "; ") + pct_text(c.pct) + " at run " + std::to_string(c.run + 1);
    }
    out += "<tr><td>" + what(s) + "</td><td class=\"spark\">" + chart_svg(r, s, spark, false) + "</td><td class=\"num\">" +
           html_escape(amount(s, s.value.empty() ? NAN : s.value.back())) + "</td><td>" + html_escape(list) +
           "</td></tr>\n";
  }
  return out + "</tbody></table>";
}

std::string runs(const model::TrendReport& r) {
  std::string out = "<table><thead><tr><th>Run</th><th>Label</th><th>Path</th><th>Step units</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < r.runs.size() && i < k_runs_shown; ++i) {
    const auto& run = r.runs[i];
    out += "<tr><td class=\"num\">" + std::to_string(i + 1) + "</td><td>" + html_escape(run.label) + "</td><td><code>" +
           html_escape(run.path) + "</code></td><td class=\"num\">" + std::to_string(run.units) +
           (run.warmup ? " (" + std::to_string(run.warmup) + " warm-up left out)" : "") + "</td></tr>\n";
  }
  out += "</tbody></table>";
  if (r.runs.size() > k_runs_shown)
    out += "<p class=\"muted\">" + std::to_string(r.runs.size() - k_runs_shown) + " more runs in the JSON.</p>";
  return out;
}

}  // namespace

void write_trend_html(const model::TrendReport& r, std::ostream& out) {
  auto tmpl = templates::load("trend.html.mustache");
  templates::data ctx;
  ctx.set("csp", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  ctx.set("generator", std::string("tracediff ") + TRACEDIFF_VERSION);
  ctx.set("runs_text", std::to_string(r.runs.size()) + " runs");
  ctx.set("verdict", r.verdict);
  char method[512];
  std::snprintf(method, sizeof method,
                "Each point: a run's median over its step units (warm-up left out), its band the p25–p75 of those "
                "units. A change: a Pettitt split at p < %g, or the newest run beyond %g robust SDs of the runs "
                "before it; and at least %g %% (docs/trend.md).",
                r.alpha, r.newest_sds, r.min_change.pct);
  ctx.set("method", std::string(method) + (r.folded_note.empty() ? "" : " " + r.folded_note));
  std::string gate;
  for (const auto& g : r.gate)
    gate += "<li><strong>" +
            std::string(g.fired() ? "Fails" : g.outcome == model::GateOutcome::not_evaluated ? "Not evaluated" : "Passes") +
            "</strong>: <code>" + html_escape(g.condition.text) + "</code>: " + html_escape(g.detail) + "</li>";
  ctx.set("has_gate", !r.gate.empty());
  ctx.set("gate", gate);
  ctx.set("charts", charts(r));
  ctx.set("changes", changes(r));
  ctx.set("rows", rows(r));
  ctx.set("runs", runs(r));
  out << tmpl.render(ctx);
  templates::check(tmpl, "trend.html.mustache");
}

}  // namespace tracediff::output
