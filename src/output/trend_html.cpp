// `tracediff trend -o trend.html`: one self-contained page without script (its CSP
// allows none), through templates/trend.html.mustache. Charts are inline SVG drawn here
// (deterministic: fixed-precision coordinates); every string from a trace, a path or
// a label is html_escape'd where it is put.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

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

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

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
std::string svg(const model::TrendReport& r, const model::TrendSeries& s, const Box& b, bool full) {
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
  std::string out = "<svg viewBox=\"0 0 " + fixed(b.w) + " " + fixed(b.h) + "\" width=\"" + fixed(b.w) + "\" height=\"" +
                    fixed(b.h) + "\" role=\"img\" aria-label=\"" + html_escape(s.label) + "\">";
  // The band, a polygon per stretch of runs with values.
  std::string band, line;
  const auto flush = [&](std::string& up, std::string& down) {
    if (!up.empty()) band += "<polygon class=\"band\" points=\"" + up + down + "\"/>";
    up.clear();
    down.clear();
  };
  std::string up, down;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.value[i])) {
      flush(up, down);
      continue;
    }
    up += fixed(x(i)) + "," + fixed(y(s.hi[i])) + " ";
    down.insert(0, fixed(x(i)) + "," + fixed(y(s.lo[i])) + " ");
    line += fixed(x(i)) + "," + fixed(y(s.value[i])) + " ";
  }
  flush(up, down);
  out += band + "<polyline class=\"line\" points=\"" + line + "\"/>";
  if (full) {
    out += "<text x=\"" + fixed(b.left - 4) + "\" y=\"" + fixed(b.top + 8) + "\" text-anchor=\"end\">" +
           html_escape(amount(s, hi)) + "</text>";
    out += "<text x=\"" + fixed(b.left - 4) + "\" y=\"" + fixed(b.h - b.bottom) + "\" text-anchor=\"end\">" +
           html_escape(amount(s, lo)) + "</text>";
    out += "<text x=\"" + fixed(b.left) + "\" y=\"" + fixed(b.h - 4) + "\">run 1</text>";
    out += "<text x=\"" + fixed(b.w - b.right) + "\" y=\"" + fixed(b.h - 4) + "\" text-anchor=\"end\">run " +
           std::to_string(n) + "</text>";
    for (const auto ci : s.changes) {
      const auto& c = r.changes[ci];
      out += "<line class=\"cp\" x1=\"" + fixed(x(c.run)) + "\" x2=\"" + fixed(x(c.run)) + "\" y1=\"" + fixed(b.top) +
             "\" y2=\"" + fixed(b.h - b.bottom) + "\"><title>" +
             html_escape(pct_text(c.pct) + " since " + run_text(r, c.run)) + "</title></line>";
      out += "<circle class=\"cpdot\" cx=\"" + fixed(x(c.run)) + "\" cy=\"" + fixed(y(c.after)) + "\" r=\"3\"/>";
    }
  }
  return out + "</svg>";
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
    out += "<figure><figcaption>" + what(s) + "</figcaption>" + svg(r, s, box, true) + "</figure>\n";
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
    out += "<tr><td>" + what(s) + "</td><td class=\"spark\">" + svg(r, s, spark, false) + "</td><td class=\"num\">" +
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
