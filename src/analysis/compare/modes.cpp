// What both ways to compare share: a side's inputs and selection, the step times'
// statistics, and the report's finish (device filter, name mode, the Δ each row shows,
// the CPU/GPU totals).
#include "analysis/compare/modes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "util/errors.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis::detail {

void fill_summary(const model::TraceSet& set, model::SideSummary& summary) {
  summary.label = set.label;
  summary.inputs = set.inputs;
  std::set<std::string> gpus;
  for (const auto& f : set.files) {
    summary.files.push_back({f.path, f.rank, f.rank_source, f.events.size(), f.json_bytes, f.truncated, {}});
    gpus.insert(f.gpu_names.begin(), f.gpu_names.end());
  }
  summary.gpu_names.assign(gpus.begin(), gpus.end());
}

namespace {
template <class T>
std::string join(const std::vector<T>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}
}  // namespace

void check_selection(const std::string& label, const model::SideSummary& s) {
  for (int r : s.ranks)
    if (!std::binary_search(s.available_ranks.begin(), s.available_ranks.end(), r))
      throw UsageError(label + " has no rank " + std::to_string(r) + " (it has " +
                       join(s.available_ranks) + ")");
  for (auto i : s.iterations)
    if (!std::binary_search(s.available_iterations.begin(), s.available_iterations.end(), i))
      throw UsageError(label + " has no step " + std::to_string(i) +
                       (s.available_iterations.empty() ? std::string(" (it has no ProfilerStep)")
                                                       : " (it has " + join(s.available_iterations) + ")"));
}

// The Δ every list prints (the per-step medians the default mode set, the totals in
// --hta-compat), and calls apart from time (model::DiffRow says what each field is).
void shown_and_calls(model::DiffRow& row, double min_change_pct) {
  auto& s = row.shown;
  if (!row.per_step_basis) {
    s.control_ns = static_cast<double>(row.control.total_ns);
    s.test_ns = static_cast<double>(row.test.total_ns);
  }
  s.pct = s.control_ns == 0 ? std::nullopt : std::optional<double>(100.0 * s.diff_ns() / s.control_ns);
  const double mean_d = row.basis_diff_ns();
  s.mean_differs = std::fabs(mean_d - s.diff_ns()) >= 0.25 * std::max(std::fabs(mean_d), std::fabs(s.diff_ns())) &&
                   mean_d != s.diff_ns();
  // Per call and the split, of the Δ the lists print (medians per step over calls per step):
  // the same basis as that Δ, so that equal calls give a per-call change equal to its Δ%.
  // Outermost calls: one inside a call of its name adds no time of its own.
  const auto outer = [&](const model::SideStats& st, double all) {
    return st.count ? all * static_cast<double>(st.count - std::min(st.nested, st.count)) / static_cast<double>(st.count)
                    : 0.0;
  };
  const double cc = outer(row.control, row.per_step_basis ? row.control_step.count : static_cast<double>(row.control.count));
  const double tc = outer(row.test, row.per_step_basis ? row.test_step.count : static_cast<double>(row.test.count));
  row.control_calls = cc;
  row.test_calls = tc;
  const double ct = s.control_ns, tt = s.test_ns;
  row.control_per_call_ns = cc > 0 ? ct / cc : 0;
  row.test_per_call_ns = tc > 0 ? tt / tc : 0;
  row.per_call_pct = cc > 0 && tc > 0 && row.control_per_call_ns > 0
                         ? std::optional<double>(100.0 * (row.test_per_call_ns - row.control_per_call_ns) /
                                                 row.control_per_call_ns)
                         : std::nullopt;
  // Δ = Δcalls × control's per call + test's calls × Δ per call; a row new on the test
  // side changed by its calls alone.
  if (cc > 0) {
    row.diff_from_calls_ns = (tc - cc) * row.control_per_call_ns;
    row.diff_from_per_call_ns = (tt - ct) - row.diff_from_calls_ns;
  } else {
    row.diff_from_calls_ns = tt - ct;
    row.diff_from_per_call_ns = 0;
  }
  // "More calls", not "slower": the calls moved the verdict's way while the time per
  // call did not, by the noise rule's minimum.
  const bool up = row.verdict == model::Verdict::slower;
  row.by_calls = row.significant && row.per_call_pct && (up ? tc > cc : tc < cc) &&
                 (up ? *row.per_call_pct < min_change_pct : *row.per_call_pct > -min_change_pct);
}

void finish_report(model::DiffReport& report, const CompareOptions& options) {
  report.device_filter = options.device == DeviceFilter::cpu   ? "cpu"
                         : options.device == DeviceFilter::gpu ? "gpu"
                                                               : "all";
  report.short_names = options.short_names;
  report.min_change = options.min_change;
  report.by_shape = options.by_shape;
  // The relative change of each row, once: per step, or of the totals in --hta-compat.
  for (auto& row : report.rows) {
    const double c = row.basis_control_ns();
    const double d = row.basis_diff_ns();
    row.pct = c == 0 ? std::nullopt : std::optional<double>(100.0 * d / c);
    const double cs = row.per_step_basis ? row.control_step.self_ns : static_cast<double>(row.control.self_ns);
    const double ts = row.per_step_basis ? row.test_step.self_ns : static_cast<double>(row.test.self_ns);
    row.self_pct = cs == 0 ? std::nullopt : std::optional<double>(100.0 * (ts - cs) / cs);
    shown_and_calls(row, options.min_change.pct);
  }
  for (const auto& row : report.rows) {
    if (row.device == model::Device::other) continue;
    const bool gpu = row.device == model::Device::gpu;
    auto& c = gpu ? report.control.gpu_total : report.control.cpu_total;
    auto& t = gpu ? report.test.gpu_total : report.test.cpu_total;
    c.count += row.control.count;
    add_sat(c.total_ns, row.control.total_ns);
    add_sat(c.self_ns, row.control.self_ns);
    t.count += row.test.count;
    add_sat(t.total_ns, row.test.total_ns);
    add_sat(t.self_ns, row.test.self_ns);
  }
}

void summarize_steps(model::StepTimes& st) {
  std::sort(st.steps.begin(), st.steps.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.step < b.step;
  });
  if (st.steps.empty()) return;
  std::vector<std::int64_t> d;
  for (const auto& s : st.steps) d.push_back(s.dur_ns);
  std::sort(d.begin(), d.end());
  st.min_ns = d.front();
  st.max_ns = d.back();
  const std::size_t n = d.size();
  st.median_ns = n % 2 ? d[n / 2] : static_cast<std::int64_t>((__int128{d[n / 2 - 1]} + d[n / 2]) / 2);
  __int128 sum = 0;
  for (auto v : d) sum += v;
  st.mean_ns = static_cast<std::int64_t>(sum / static_cast<__int128>(n));
}

}  // namespace tracediff::analysis::detail
