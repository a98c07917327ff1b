// `tracediff trend --markdown`: the newest run's verdict first, then the gate, the
// changes (largest first) and the rows that moved most. Names and labels from traces
// and the command line are inline code or escaped text (util/escape, markdown_text).
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "output/human_writers.hpp"
#include "output/trend_writers.hpp"
#include "util/escape.hpp"
#include "util/format.hpp"

namespace tracediff::output {

namespace {

constexpr std::size_t k_changes_listed = 30;

std::string amount(const model::TrendSeries& s, double v) {
  return s.bytes ? format_size(v, false) : format_duration_ns(to_ns(v), false);
}

std::string run_cell(const model::TrendReport& r, std::size_t i) {
  std::string out = std::to_string(i + 1);
  if (!r.runs[i].label.empty()) out += " " + markdown_code_cell(r.runs[i].label);
  return out;
}

std::string what_cell(const model::TrendSeries& s) {
  if (s.kind == model::SeriesKind::row) return markdown_code_cell(s.label) + " (" + detail::markdown_text(s.id) + ")";
  return detail::markdown_text(s.label) + (s.kind == model::SeriesKind::family ? " (kernel family)" : "");
}

std::string pct_cell(double pct) { return std::isfinite(pct) ? format_pct(pct) : std::string("new"); }

}  // namespace

void write_trend_markdown(const model::TrendReport& r, std::ostream& out) {
  out << "### " << detail::markdown_text(r.verdict) << "\n\n";
  out << r.runs.size() << " runs";
  if (!r.runs.empty())
    out << ", from run 1" << (r.runs.front().label.empty() ? "" : " (" + detail::markdown_text(r.runs.front().label) + ")")
        << " to run " << r.runs.size()
        << (r.runs.back().label.empty() ? "" : " (" + detail::markdown_text(r.runs.back().label) + ")");
  out << ". A change is a Pettitt split at p < " << r.alpha << " or the newest run beyond " << r.newest_sds
      << " robust SDs, and at least " << format_pct(r.min_change.pct).substr(1) << " (docs/trend.md).";
  if (!r.folded_note.empty()) out << " " << r.folded_note;
  out << "\n\n";
  for (const auto& g : r.gate) {
    const char* mark = g.fired() ? "**Fails**" : g.outcome == model::GateOutcome::not_evaluated ? "Not evaluated" : "Passes";
    out << "- " << mark << ": " << markdown_code_cell(g.condition.text) << ": " << detail::markdown_text(g.detail) << "\n";
  }
  if (!r.gate.empty()) out << "\n";
  if (r.changes.empty()) {
    out << "No change points.\n";
    return;
  }
  out << "| Figure or row | First run after | Before → after | Change | Confidence |\n";
  out << "|---|---|---|---:|---:|\n";
  for (std::size_t i = 0; i < r.changes.size() && i < k_changes_listed; ++i) {
    const auto& c = r.changes[i];
    const auto& s = r.series[c.series];
    out << "| " << what_cell(s) << " | " << run_cell(r, c.run) << (c.newest ? " (newest)" : "") << " | "
        << amount(s, c.before) << " → " << amount(s, c.after) << " | " << pct_cell(c.pct) << " | "
        << std::floor(c.confidence * 1000) / 10 << " % |\n";
  }
  if (r.changes.size() > k_changes_listed)
    out << "\n" << r.changes.size() - k_changes_listed << " more changes in the JSON and the page.\n";
  out << "\nTo see one change in full, compare the runs around it:\n\n";
  std::vector<std::string_view> shown;  // each pair of runs once
  for (std::size_t i = 0; i < r.changes.size() && shown.size() < 3; ++i) {
    const std::string_view cmd = r.changes[i].command;
    if (std::find(shown.begin(), shown.end(), cmd) != shown.end()) continue;
    shown.push_back(cmd);
    out << "    " << detail::terminal_safe(r.changes[i].command) << "\n";
  }
}

}  // namespace tracediff::output
