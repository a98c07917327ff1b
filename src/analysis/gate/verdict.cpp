// The verdict line: what the user asked first (the step time: slower, faster, the same,
// not testable; peak memory when it grew significantly), then the gate when there is
// one, then what moved significantly with the counts that the top lists print.
#include "analysis/gate/verdict.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "util/format.hpp"

namespace tracediff::analysis {

namespace {

constexpr const char* k_red = "\xE2\x9D\x8C";                   // ❌
constexpr const char* k_green = "\xE2\x9C\x85";                 // ✅
constexpr const char* k_warn = "\xE2\x9A\xA0\xEF\xB8\x8F";      // ⚠️
constexpr const char* k_neutral = "\xE2\x9A\xAA";               // ⚪
constexpr const char* k_arrow = " \xE2\x86\x92 ";               // →

const model::Figure* step_figure(const model::DiffReport& r) {
  for (const auto& f : r.headline)
    if (f.id == "step_time") return &f;
  return r.headline.empty() ? nullptr : &r.headline.front();
}

// Peak memory allocated when it grew significantly: a faster step that needs more
// memory is a regression for whoever trains near the limit (issue 29).
const model::Figure* memory_grew(const model::DiffReport& r) {
  for (const auto& f : r.headline)
    if (f.id == "peak_allocated" && f.value.significant && f.value.verdict == model::Verdict::slower) return &f;
  return nullptr;
}

// How a real change was told from noise, after its verdict: between runs, or within one
// run a side, whose run-to-run noise nobody measured (docs/is-it-real.md "Several runs").
std::string how_judged(const model::DiffReport& r) {
  if (r.between_runs) {
    const auto c = r.control.runs.size(), t = r.test.runs.size();
    return " (judged between runs, " + (c == t ? std::to_string(c) + " a side" : std::to_string(c) + " and " + std::to_string(t)) + ")";
  }
  return " (within one run: run-to-run noise not measured)";
}

// Of the headline's time figures other than the step, the real change largest in time.
const model::Figure* largest_real_time_figure(const model::DiffReport& r) {
  const model::Figure* best = nullptr;
  for (const auto& f : r.headline)
    if (f.id != "step_time" && f.judged && f.duration && !f.bytes && !f.direction_only && f.value.significant &&
        (!best || std::fabs(f.value.diff()) > std::fabs(best->value.diff())))
      best = &f;
  return best;
}

// "Step time +60.1% (77.5 ms → 124 ms), slower": the verdict in words after the figure.
std::string figure_words(const model::Figure& f, bool judged, const std::string& how = {}) {
  const auto& v = f.value;
  const auto value = [&](double x) { return f.bytes ? format_size(x, false) : format_duration_ns(to_ns(x), false); };
  std::string out = f.label + " " + format_pct(v.pct, v.is_new()) + " (" + value(v.control) + k_arrow + value(v.test) + ")";
  if (judged && f.judged) out += std::string(", ") + model::figure_words(f) + (v.significant ? how : std::string());
  // Near the level but not past it: say how near, so "within noise" is not read as "no change".
  if (judged && f.judged && !v.significant && v.p_value < 0.1) {
    char p[32];
    std::snprintf(p, sizeof p, "%.3f", v.p_value);
    out += std::string(" (p = ") + p + ", needs < 0.01)";
  }
  return out;
}

std::string lower_first(std::string s) {
  // "Step time" -> "step time"; an acronym ("CPU operators", "GPU busy") stays.
  if (s.size() > 1 && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

std::string counted(std::size_t n, const char* one, const char* many) {
  return format_count(static_cast<std::int64_t>(n), false) + " " + (n == 1 ? one : many);
}

// "3 significant regressions, 1 improvement", "no significant change", or for a report
// where nothing is testable what its lists are.
std::string moved(const model::DiffReport& r) {
  const auto& v = r.verdict_counts;
  if (r.top_regressions.raw)
    return "too few " + (r.between_runs ? std::string("run") : r.unit) +
           "s to judge any operator or kernel; the lists show the largest raw changes";
  if (!v.regressions && !v.improvements) return "no significant change in operators and kernels";
  std::string out;
  if (v.regressions) out = counted(v.regressions, "significant regression", "significant regressions");
  if (v.improvements)
    out += out.empty() ? counted(v.improvements, "significant improvement", "significant improvements")
                       : ", " + counted(v.improvements, "improvement", "improvements");
  return out;
}

}  // namespace

Verdict decide_verdict(const model::DiffReport& r) {
  Verdict v;
  const auto* step = step_figure(r);
  if (r.hta_compat) {
    v.line = v.text =
        "HTA-compatible totals (no noise test)" + (step ? ": " + lower_first(figure_words(*step, false)) : std::string());
    return v;
  }
  std::size_t fired = 0, unevaluated = 0;
  for (const auto& g : r.gate) {
    fired += g.fired();
    unevaluated += g.outcome == model::GateOutcome::not_evaluated;
  }
  const auto* memory = memory_grew(r);
  const auto step_verdict = step ? step->value.verdict : model::Verdict::untestable;
  const bool step_known = step && step->value.significant;
  std::string gate;
  if (fired) {
    v.mark = model::Mark::fail;
    gate = "Gate failed (" + format_count(static_cast<std::int64_t>(fired), false) + " of " +
           counted(r.gate.size(), "condition", "conditions") + ")";
  } else if (unevaluated) {
    v.mark = model::Mark::warn;
    gate = "Gate not evaluated (" + format_count(static_cast<std::int64_t>(unevaluated), false) + " of " +
           counted(r.gate.size(), "condition", "conditions") + " not testable)";
  } else if (!r.gate.empty()) {
    v.mark = model::Mark::pass;
    gate = "Gate passed (" + counted(r.gate.size(), "condition", "conditions") + ")";
  } else if (memory) {
    v.mark = model::Mark::fail;
  } else if (step_known) {
    v.mark = step_verdict == model::Verdict::slower ? model::Mark::fail : model::Mark::pass;
  }
  const char* sign = v.mark == model::Mark::fail   ? k_red
                     : v.mark == model::Mark::pass ? k_green
                     : v.mark == model::Mark::warn ? k_warn
                                                   : k_neutral;
  const auto how = how_judged(r);
  std::string what = step ? figure_words(*step, true, how) : std::string();
  if (step && !step->value.significant) {
    // Between runs, a step change past --min-change that is "same": the runs overlap.
    if (r.between_runs && step->value.verdict == model::Verdict::same && step->value.pct &&
        std::fabs(*step->value.pct) >= r.min_change.pct && r.control.between_run_spread_pct && r.test.between_run_spread_pct) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " (the runs overlap: their medians spread %.1f%% and %.1f%%)",
                    *r.control.between_run_spread_pct, *r.test.between_run_spread_pct);
      what += buf;
    }
    // The step within noise, a time figure not: the largest such change is the finding.
    if (const auto* moved_most = largest_real_time_figure(r))
      what += "; " + lower_first(figure_words(*moved_most, true, how));
  }
  if (memory) what += (what.empty() ? "" : "; ") + lower_first(figure_words(*memory, true, how));
  if (!gate.empty() && !what.empty()) what = gate + ": " + lower_first(what);
  else if (!gate.empty()) what = gate;
  std::string rows = moved(r);
  // Said once: after the step's verdict when it is real, else after the rows' counts.
  const bool step_said = (step && step->value.significant) || (memory && memory->value.significant) ||
                         (step && largest_real_time_figure(r));
  if (!step_said && (r.verdict_counts.regressions || r.verdict_counts.improvements) && !r.top_regressions.raw) rows += how;
  v.text = what + (what.empty() ? "" : "; ") + rows;
  v.line = std::string(sign) + " " + v.text;
  return v;
}

std::string verdict_line(const model::DiffReport& report) { return decide_verdict(report).line; }

void judge(model::DiffReport& report, const std::vector<GateCondition>& fail_on) {
  report.gate = evaluate_gate(fail_on, report);
  report.gate_heading = gate_heading(report.gate);
  auto verdict = decide_verdict(report);
  report.verdict_line = std::move(verdict.line);
  report.verdict_mark = verdict.mark;
  report.verdict_text = std::move(verdict.text);
}

}  // namespace tracediff::analysis
