// The host waiting for the GPU (docs/reading-the-report.md "The host waiting for the GPU"): which rows are
// mostly the host blocked in a synchronising call, and what the GPU ran meanwhile.
#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/decide/host_wait.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"
#include "util/sanitize.hpp"

namespace tracediff::analysis::detail {

// A host row waits for the GPU when, on the side where its time per step is larger,
// half of that time or more is the host blocked on the GPU inside it. Kineto's GPU-side
// spans of the waits ("Stream Sync", cuda_sync) are that wait itself.
void mark_waits(model::DiffReport& r) {
  for (auto& row : r.rows) {
    if (row.category == "cuda_sync" && row.per_step_basis) row.waits_for_gpu = true;
    if (row.device != model::Device::cpu || !row.per_step_basis) continue;
    const auto& side = row.test_step.total_ns > row.control_step.total_ns ? row.test_step : row.control_step;
    row.waits_for_gpu = side.total_ns > 0 && 2 * side.wait_ns >= side.total_ns;
  }
}

// One note: how the host's wait changed, in which rows the lists leave out for it,
// and what the GPU ran during the waits on the side that waited more: the GPU time
// that overlapped them by kernel family (streams add up), the work queued before the
// syncs. The Markdown elides notes past 300 characters: the note stays short.
void wait_note(model::DiffReport& r) {
  const auto waiting = r.top_regressions.waiting + r.top_improvements.waiting;
  if (!waiting) return;
  const auto& c = r.control.step_mean;
  const auto& t = r.test.step_mean;
  const double d = static_cast<double>(t.host_wait_ns) - static_cast<double>(c.host_wait_ns);
  std::string names;
  std::size_t named = 0;
  for (const auto i : r.impact_order()) {
    const auto& row = r.rows[i];
    if (!row.waits_for_gpu || !(row.significant || r.top_regressions.raw)) continue;
    if (++named > 3) break;
    names += (names.empty() ? "" : ", ") + elide(display_safe(row.name), 40);
  }
  const bool test_waits = d >= 0;
  std::map<std::string, double> by_family;  // label -> GPU time per unit during the waits
  double gpu = 0;
  for (const auto& row : r.rows) {
    if (row.device != model::Device::gpu) continue;
    const double ns = (test_waits ? row.test_step : row.control_step).wait_ns;
    if (ns <= 0) continue;
    std::string label = "other";
    for (const auto& f : r.families)
      if (f.id == row.family) label = f.label;
    by_family[label] += ns;
    gpu += ns;
  }
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [label, ns] : by_family) order.push_back({ns, label});
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::string ran;
  double rest = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto pct = std::llround(100 * order[k].first / gpu);
    if (k < 3 && pct > 0) ran += (ran.empty() ? "" : ", ") + order[k].second + " " + std::to_string(pct) + " %";
    else rest += order[k].first;
  }
  if (rest > 0 && !ran.empty()) ran += ", other " + std::to_string(std::llround(100 * rest / gpu)) + " %";
  const auto& side = test_waits ? r.test.label : r.control.label;
  r.notes.push_back("The host waits for the GPU " + format_duration_ns(to_ns(d), true) + " per " + r.unit + " (" +
                    format_duration_ns(c.host_wait_ns, false) + " \xE2\x86\x92 " +
                    format_duration_ns(t.host_wait_ns, false) + ")" + (names.empty() ? "" : ", in " + names) + ": " +
                    format_count(static_cast<std::int64_t>(waiting), false) + (waiting == 1 ? " row" : " rows") +
                    " left out of the top lists. " +
                    (ran.empty() ? "No GPU work ran during the waits on " + side + "."
                                 : "Meanwhile on " + side + " the GPU ran " + ran + ": the work queued before the syncs."));
}

}  // namespace tracediff::analysis::detail
