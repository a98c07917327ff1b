// What a comparison says beyond its rows, decided once for every writer: the order
// of the steps of deciding (decide, decide_hta), the labels names are shown by, the
// verdict counts and the calls counts.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis/decide/decide.hpp"
#include "analysis/decide/critical_path.hpp"
#include "analysis/decide/embedded.hpp"
#include "analysis/decide/figures.hpp"
#include "analysis/decide/host_wait.hpp"
#include "analysis/decide/memory_figures.hpp"
#include "analysis/decide/notes.hpp"
#include "analysis/decide/step_change.hpp"
#include "analysis/decide/top_lists.hpp"
#include "analysis/noise/noise.hpp"
#include "model/summary.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"
#include "util/sanitize.hpp"

namespace tracediff::analysis::detail {

namespace {

// Both sides have steps or neither has (compare_summaries refuses a mix).
std::string unit_of(const model::DiffReport& r) { return r.control.whole_trace ? "trace" : "step"; }

std::string side_label(const model::SideSummary& s, const char* fallback) {
  return s.label.empty() ? fallback : s.label;
}


// Labels that tell names apart within the report (util/display_name).
void labels(model::DiffReport& r) {
  constexpr std::size_t k_chars = 60;
  std::vector<std::string_view> names;
  for (const auto& row : r.rows) names.push_back(row.full_name.empty() || r.short_names ? row.name : row.full_name);
  auto shown = distinct_labels(names, k_chars);
  for (std::size_t i = 0; i < r.rows.size(); ++i) r.rows[i].label = std::move(shown[i]);
  for (auto& row : r.rows)
    if (!row.test_name.empty()) row.test_label = elide(simplify_name(row.test_name), k_chars);
  // The same name in two categories (a Triton kernel and the cpu_op named after it):
  // the category tells them apart.
  // (Hash maps of views: ordered maps of copied labels were a tenth of this pass on
  // 300,000 names. Nothing below depends on their order.)
  std::unordered_map<std::string_view, std::string_view> a_category;  // label -> a category it has
  std::unordered_set<std::string_view> in_several;                    // labels with more than one
  for (const auto& row : r.rows) {
    const auto [it, fresh] = a_category.try_emplace(row.label, row.category);
    if (!fresh && it->second != row.category) in_several.insert(row.label);
  }
  std::vector<bool> tag(r.rows.size());
  for (std::size_t i = 0; i < r.rows.size(); ++i) tag[i] = in_several.count(r.rows[i].label) > 0;
  for (std::size_t i = 0; i < r.rows.size(); ++i)  // the labels change: the maps' views go first
    if (tag[i]) r.rows[i].label += " [" + display_safe(r.rows[i].category) + "]";
  names.clear();
  for (const auto& l : r.by_launcher) names.push_back(l.launcher);
  shown = distinct_labels(names, k_chars);
  std::unordered_map<std::string_view, std::string_view> launcher_label;
  for (std::size_t i = 0; i < r.by_launcher.size(); ++i) {
    r.by_launcher[i].label = std::move(shown[i]);
    launcher_label[r.by_launcher[i].launcher] = r.by_launcher[i].label;
  }
  for (auto& row : r.rows)
    if (!row.launched_by.empty()) {
      const auto it = launcher_label.find(row.launched_by);
      row.launched_by_label = it != launcher_label.end() ? std::string(it->second) : row.launched_by;
    }
  std::unordered_map<std::string_view, std::string_view> row_label;
  for (const auto& row : r.rows)
    if (row.device == model::Device::gpu) row_label.emplace(row.name, row.label);
  for (auto& l : r.by_launcher)
    for (auto& k : l.kernels) {
      const auto it = row_label.find(k.name);
      k.label = it != row_label.end() ? std::string(it->second) : elide(simplify_name(k.name), k_chars);
    }
}

}  // namespace

// The rows by what the report says of them, with the top lists' counts: every view
// prints these, so the verdict line, the cards and the lists agree.
void verdict_counts(model::DiffReport& r) {
  auto& v = r.verdict_counts;
  const auto& up = r.top_regressions;
  const auto& down = r.top_improvements;
  v.regressions = up.significant();
  v.improvements = down.significant();
  for (const auto* l : {&up, &down}) {
    v.left_out += l->raw ? 0 : l->folded + l->renamed + l->swapped + l->waiting + l->sleeping;
    v.waiting += l->raw ? 0 : l->waiting;
  }
  for (const auto& row : r.rows) {
    if (r.hta_compat) continue;
    if (row.verdict == model::Verdict::untestable) ++v.untestable;
    else if (!row.significant) ++v.same;
  }
}

// The families every view lists: what changed beyond noise first, then what moved most,
// so that a view never hides a significant family behind a larger one within noise.
void families_shown(model::DiffReport& r) {
  auto& shown = r.families_shown;
  for (std::size_t i = 0; i < r.families.size(); ++i)
    if (r.families[i].time.significant) shown.push_back(i);
  r.families_changed = shown.size();
  for (std::size_t i = 0; i < r.families.size() && shown.size() < model::k_families_shown; ++i)
    if (!r.families[i].time.significant) shown.push_back(i);
}

// Calls per step unit of the rows of each device (totals in --hta-compat): counts,
// not judged.
void counts(model::DiffReport& r) {
  const double cu = r.hta_compat || !r.control.units ? 1.0 : static_cast<double>(r.control.units);
  const double tu = r.hta_compat || !r.test.units ? 1.0 : static_cast<double>(r.test.units);
  const auto add = [&](const char* id, const char* label, const char* note, const model::SideStats& c,
                       const model::SideStats& t) {
    model::Figure f;
    f.id = id;
    f.label = label;
    f.note = note;
    f.judged = false;
    f.duration = false;
    f.value.control = static_cast<double>(c.count) / cu;
    f.value.test = static_cast<double>(t.count) / tu;
    if (f.value.control != 0) f.value.pct = 100.0 * (f.value.test - f.value.control) / f.value.control;
    r.counts.push_back(std::move(f));
  };
  add("cpu_calls", "CPU operator calls", "host events of the operator categories", r.control.cpu_total,
      r.test.cpu_total);
  add("gpu_items", "GPU work items", "kernels, memcpy, memset", r.control.gpu_total, r.test.gpu_total);
}

void decide(model::DiffReport& r, const CompareOptions& options) {
  const NoiseRule rule = noise_rule_for(options, r);
  r.control.label = side_label(r.control, "Control");
  r.test.label = side_label(r.test, "Test");
  r.unit = unit_of(r);
  decide_figures(r, rule);
  families_shown(r);
  const auto n = static_cast<std::size_t>(std::max(options.top, 0));
  mark_swaps(r);
  mark_waits(r);
  r.top_regressions = top_list(r, true, n);
  r.top_improvements = top_list(r, false, n);
  verdict_counts(r);
  for (std::size_t k = 0; k < r.by_launcher.size() && r.top_launchers.size() < n; ++k)
    if (r.by_launcher[k].time.significant) r.top_launchers.push_back(k);
  sides_differ(r);
  notes(r);
  decide_memory(r, rule);
  r.allocates_more = allocation_list(r, true, n);
  r.allocates_less = allocation_list(r, false, n);
  counts(r);
  labels(r);
  decide_step_change(r, rule);
  decide_critical_path(r, rule, options);
  decide_embedded(r, n);
}

void decide_hta(model::DiffReport& r, const CompareOptions& options) {
  r.unit = "step";
  // No noise test in HTA: a verdict is the sign of the difference of the totals.
  const auto by_sign = [](double d) {
    return d > 0 ? model::Verdict::slower : d < 0 ? model::Verdict::faster : model::Verdict::same;
  };
  for (auto& row : r.rows) row.verdict = by_sign(static_cast<double>(row.diff_ns()));
  const auto total = [&](const char* id, const char* label, const model::SideStats& c, const model::SideStats& t) {
    model::Figure f;
    f.id = id;
    f.label = label;
    f.note = "HTA's sum of inclusive times";
    f.value.control = static_cast<double>(c.total_ns);
    f.value.test = static_cast<double>(t.total_ns);
    if (c.total_ns != 0) f.value.pct = 100.0 * (f.value.test - f.value.control) / f.value.control;
    f.value.verdict = by_sign(f.value.diff());
    f.judged = false;
    r.headline.push_back(std::move(f));
  };
  total("cpu_total", "CPU operators, total time", r.control.cpu_total, r.test.cpu_total);
  total("gpu_total", "GPU work, total time", r.control.gpu_total, r.test.gpu_total);
  counts(r);
  const auto n = static_cast<std::size_t>(std::max(options.top, 0));
  r.top_regressions = top_list(r, true, n);
  r.top_improvements = top_list(r, false, n);
  verdict_counts(r);
  labels(r);
  decide_embedded(r, n);
}

}  // namespace tracediff::analysis::detail
