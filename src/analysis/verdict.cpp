// The verdict line: gate first (it decides the exit code), then the count of
// significant regressions or improvements, with the step time as the figure that
// says how much; "no significant change" only when nothing stands out of the noise.
#include "analysis/verdict.hpp"

#include <cstdint>

#include "util/format.hpp"

namespace tracediff::analysis {

namespace {

constexpr const char* k_red = "\xE2\x9D\x8C";                   // ❌
constexpr const char* k_green = "\xE2\x9C\x85";                 // ✅
constexpr const char* k_warn = "\xE2\x9A\xA0\xEF\xB8\x8F";      // ⚠️
constexpr const char* k_arrow = " \xE2\x86\x92 ";               // →

const model::Figure* step_figure(const model::DiffReport& r) {
  for (const auto& f : r.headline)
    if (f.id == "step_time") return &f;
  return r.headline.empty() ? nullptr : &r.headline.front();
}

std::string lower_first(std::string s) {
  // "Step time" -> "step time"; an acronym ("CPU operators", "GPU busy") stays.
  if (s.size() > 1 && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// "step time +60.1% (77.5 ms → 124 ms)", with "within noise" or "not testable" when so.
std::string figure_words(const model::Figure& f, bool judged) {
  const auto& v = f.value;
  std::string out = lower_first(f.label) + " " + format_pct(v.pct, v.is_new()) + " (" +
                    format_duration_ns(to_ns(v.control), false) + k_arrow + format_duration_ns(to_ns(v.test), false) + ")";
  if (judged && f.judged && !v.significant)
    out += v.verdict == model::Verdict::untestable ? ", not testable" : ", within noise";
  return out;
}

std::string counted(std::size_t n, const char* one, const char* many) {
  return format_count(static_cast<std::int64_t>(n), false) + " " + (n == 1 ? one : many);
}

const char* things(const model::DiffReport& r) {
  return r.device_filter == "cpu" ? "operators" : r.device_filter == "gpu" ? "kernels" : "operators and kernels";
}

}  // namespace

std::string verdict_line(const model::DiffReport& r) {
  std::size_t slower = 0, faster = 0, untestable = 0;
  for (const auto& row : r.rows) {
    if (row.verdict == model::Verdict::untestable) ++untestable;
    if (!row.significant) continue;
    slower += row.verdict == model::Verdict::slower;
    faster += row.verdict == model::Verdict::faster;
  }
  const auto* step = step_figure(r);
  const bool judged = !r.hta_compat;
  const std::string how = step ? ": " + figure_words(*step, judged) : std::string();

  std::size_t fired = 0, unevaluated = 0;
  for (const auto& g : r.gate) {
    fired += g.fired();
    unevaluated += g.outcome == model::GateOutcome::not_evaluated;
  }
  if (fired) {
    std::string out = std::string(k_red) + " Gate failed (" + format_count(static_cast<std::int64_t>(fired), false) +
                      " of " + counted(r.gate.size(), "condition", "conditions") + ")";
    if (judged && slower) out += ", " + counted(slower, "significant regression", "significant regressions");
    return out + how;
  }
  if (r.hta_compat) return "HTA-compatible totals (no noise test)" + how;
  if (slower) return std::string(k_red) + " " + counted(slower, "significant regression", "significant regressions") + how;
  const char* sign = unevaluated ? k_warn : k_green;
  if (faster) return std::string(sign) + " " + counted(faster, "significant improvement", "significant improvements") + how;
  if (step && step->value.verdict == model::Verdict::untestable)
    return std::string(k_warn) + " Too few steps to tell a change from noise" + how;
  std::string out = std::string(sign) + " No significant change in " +
                    format_count(static_cast<std::int64_t>(r.rows.size() - untestable), false) + " " + things(r);
  if (untestable) out += " (" + format_count(static_cast<std::int64_t>(untestable), false) + " not testable)";
  return out;
}

}  // namespace tracediff::analysis
