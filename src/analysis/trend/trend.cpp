// The trend decided: change points per series, sorted by size; the rows that moved
// most; the newest run's verdict line; the gate on the newest run.
#include "analysis/trend/trend.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "analysis/trend/change_points.hpp"
#include "util/errors.hpp"
#include "util/format.hpp"

namespace tracediff::analysis {

namespace {

double abs_pct(const model::TrendChange& c) { return std::isinf(c.pct) ? INFINITY : std::fabs(c.pct); }

std::string lower_first(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && (s.size() < 2 || !(s[1] >= 'A' && s[1] <= 'Z'))) s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

std::string pct_text(double pct) {
  return std::isinf(pct) ? std::string("new") : format_pct(pct);
}

// A path as one shell word: as it is when it holds only safe characters, else in
// single quotes (a quote inside as '\'').
std::string shell_word(const std::string& s) {
  const bool safe = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           std::string_view("_./-+:=@,%").find(ch) != std::string_view::npos;
  }) && s[0] != '-';
  if (safe) return s;
  std::string out = s[0] == '-' ? "'./" : "'";
  for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

std::string run_name(const model::TrendReport& r, std::size_t run) {
  std::string out = "run " + std::to_string(run + 1);
  if (run < r.runs.size() && !r.runs[run].label.empty()) out += " (" + r.runs[run].label + ")";
  return out;
}

void decide_trend(model::TrendReport& r, const NoiseRule& rule) {
  r.min_change = rule.min_change;
  r.changes.clear();
  for (std::size_t si = 0; si < r.series.size(); ++si) {
    auto& s = r.series[si];
    s.changes.clear();
    // Each run's median's standard error, from its steps' spread: 1.2533 sigma / sqrt(units),
    // sigma = IQR / 1.349.
    std::vector<double> v(s.value.begin(), s.value.end()), spread(s.value.size());
    for (std::size_t i = 0; i < spread.size(); ++i)
      spread[i] = 0.929 * (static_cast<double>(s.hi[i]) - s.lo[i]) /
                  std::sqrt(static_cast<double>(std::max<std::size_t>(1, r.runs[i].units)));
    const NoiseRule own = s.bytes ? rule.relative() : rule;
    for (const auto& cp : change_points(v, spread, own, r.alpha, r.newest_sds, r.newest_min_runs)) {
      model::TrendChange c;
      c.series = si;
      c.run = cp.at;
      c.before_run = cp.at;
      while (c.before_run > 0 && std::isnan(s.value[--c.before_run])) {}
      c.before = cp.before;
      c.after = cp.after;
      c.pct = cp.before == 0 ? INFINITY : 100.0 * (cp.after - cp.before) / std::fabs(cp.before);
      c.confidence = 1.0 - cp.p;
      c.newest = cp.newest;
      c.command = "tracediff " + shell_word(r.runs[c.before_run].path) + " " + shell_word(r.runs[c.run].path) +
                  " -o diff.html";
      r.changes.push_back(c);
    }
  }
  // The step's own figures first (the headline's, then the breakdown), then kernel
  // families, each by relative size; then rows by their size in time (a row that appears
  // with a few µs is "new", yet small).
  const auto rank_of = [&](const model::TrendChange& c) {
    const auto& s = r.series[c.series];
    return s.kind == model::SeriesKind::figure ? (s.headline ? 0 : 1) : s.kind == model::SeriesKind::family ? 2 : 3;
  };
  std::stable_sort(r.changes.begin(), r.changes.end(), [&](const model::TrendChange& a, const model::TrendChange& b) {
    const int ra = rank_of(a), rb = rank_of(b);
    if (ra != rb) return ra < rb;
    const double x = ra == 3 ? std::fabs(a.after - a.before) : abs_pct(a);
    const double y = rb == 3 ? std::fabs(b.after - b.before) : abs_pct(b);
    if (x != y) return x > y;
    return a.series != b.series ? a.series < b.series : a.run < b.run;
  });
  for (std::size_t i = 0; i < r.changes.size(); ++i) r.series[r.changes[i].series].changes.push_back(i);
  for (auto& s : r.series)
    std::sort(s.changes.begin(), s.changes.end(),
              [&](std::size_t a, std::size_t b) { return r.changes[a].run < r.changes[b].run; });

  // Rows that moved most: those with a change, by their largest |Δ|; then the heaviest.
  std::vector<std::pair<double, std::size_t>> moved, heavy;
  for (std::size_t si = 0; si < r.series.size(); ++si) {
    const auto& s = r.series[si];
    if (s.kind != model::SeriesKind::row) continue;
    double d = -1;
    for (const auto ci : s.changes) d = std::max(d, std::fabs(r.changes[ci].after - r.changes[ci].before));
    if (d >= 0) moved.emplace_back(d, si);
    else heavy.emplace_back(s.value.empty() ? 0.0 : static_cast<double>(s.value.back()), si);
  }
  const auto by_size = [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
  std::sort(moved.begin(), moved.end(), by_size);
  std::sort(heavy.begin(), heavy.end(), by_size);
  moved.insert(moved.end(), heavy.begin(), heavy.end());
  r.moved.clear();
  for (std::size_t i = 0; i < moved.size() && i < k_trend_moved_rows; ++i) r.moved.push_back(moved[i].second);

  // The verdict: the step time's latest change (or that it has none), then how many
  // other series changed on the newest run.
  const std::size_t newest = r.runs.empty() ? 0 : r.runs.size() - 1;
  const model::TrendSeries* step = nullptr;
  for (const auto& s : r.series)
    if (s.kind == model::SeriesKind::figure && (s.id == "step_time" || !step)) step = &s;
  if (r.runs.empty()) {
    r.verdict = "No runs.";
  } else if (!step) {
    r.verdict = "No figures to follow in these runs.";
  } else if (step->changes.empty()) {
    r.verdict = lower_first(step->label) + ": no change over " + std::to_string(r.runs.size()) + " runs (beyond " +
                format_pct(r.min_change.pct).substr(1) + " and the noise)";
    r.verdict[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(r.verdict[0])));
    // The headline's other time figure that changed most in time is then the finding.
    const model::TrendChange* most = nullptr;
    for (const auto& c : r.changes) {
      const auto& s = r.series[c.series];
      if (s.kind != model::SeriesKind::figure || !s.headline || s.bytes || &s == step) continue;
      if (!most || std::fabs(c.after - c.before) > std::fabs(most->after - most->before)) most = &c;
    }
    if (most)
      r.verdict += "; " + r.series[most->series].label + " " + pct_text(most->pct) +
                   (most->run == newest ? " at the newest run, " : " since ") + run_name(r, most->run);
  } else {
    const auto& c = r.changes[step->changes.back()];
    r.verdict = step->label + " " + pct_text(c.pct) + (c.run == newest ? " at the newest run, " : " since ") +
                run_name(r, c.run);
  }
  std::size_t at_newest = 0;
  for (const auto& c : r.changes)
    if (c.run == newest && &r.series[c.series] != step) ++at_newest;
  if (at_newest > 0 && !r.runs.empty())
    r.verdict += "; " + std::to_string(at_newest) + (at_newest == 1 ? " other series changed" : " other series changed") +
                 " at the newest run";
}

model::GateCondition parse_trend_condition(std::string_view text) {
  constexpr std::string_view prefix = "trend:";
  if (!text.starts_with(prefix) || text.size() == prefix.size())
    throw UsageError("--fail-on '" + std::string(text) +
                     "': tracediff trend takes 'trend:FIGURE', e.g. 'trend:step_time' or 'trend:gemm' (docs/trend.md)");
  const auto id = text.substr(prefix.size());
  for (const char ch : id)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
      throw UsageError("--fail-on '" + std::string(text) + "': a figure or family id is lower case letters, digits and '_'");
  model::GateCondition c;
  c.text = std::string(text);
  c.pattern = std::string(id);
  return c;
}

void evaluate_trend_gate(model::TrendReport& r, const std::vector<model::GateCondition>& conditions) {
  r.gate.clear();
  const std::size_t newest = r.runs.empty() ? 0 : r.runs.size() - 1;
  for (const auto& cond : conditions) {
    model::GateResult g;
    g.condition = cond;
    const model::TrendSeries* s = nullptr;
    for (const auto& x : r.series)
      if (x.kind != model::SeriesKind::row && x.id == cond.pattern) {
        s = &x;
        break;
      }
    if (!s) {
      g.outcome = model::GateOutcome::not_evaluated;
      g.detail = "no figure or kernel family '" + cond.pattern + "' in these runs";
    } else {
      g.outcome = model::GateOutcome::passed;
      g.detail = "no change at the newest run";
      for (const auto ci : s->changes) {
        const auto& c = r.changes[ci];
        if (c.run != newest) continue;
        g.outcome = model::GateOutcome::fired;
        g.detail = lower_first(s->label) + " " + pct_text(c.pct) + " at " + run_name(r, c.run) + " against " +
                   run_name(r, c.before_run) + " (confidence " + std::to_string(static_cast<int>(std::floor(c.confidence * 1000)) / 10) + "." +
                   std::to_string(static_cast<int>(std::floor(c.confidence * 1000)) % 10) + " %)";
      }
    }
    r.gate.push_back(std::move(g));
  }
}

}  // namespace tracediff::analysis
