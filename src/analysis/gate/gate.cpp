// --fail-on evaluated on a finished report: each condition's figure or rows, its verdict
// where the noise test applies, and the gate's heading. Parsing: conditions.cpp.
#include "analysis/gate/gate.hpp"

#include "analysis/names/kernel_families.hpp"
#include "analysis/noise/noise.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "util/sanitize.hpp"
#include "util/format.hpp"
#include "util/errors.hpp"

namespace tracediff::analysis {

namespace {

using model::DiffReport;
using model::DiffRow;

// --- evaluation helpers ----------------------------------------------------------

// A name as a message can show it: util/sanitize's display_safe (a trace's names
// reach a terminal here), at most 60 code points with the middle elided.
std::string safe_name(std::string_view raw) {
  const std::string clean = display_safe(raw);
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < clean.size(); ++i)
    if ((static_cast<unsigned char>(clean[i]) & 0xC0) != 0x80) starts.push_back(i);
  constexpr std::size_t k_max = 60;
  if (starts.size() <= k_max) return clean;
  const std::size_t tail = k_max / 4, head = k_max - tail - 1;
  return clean.substr(0, starts[head]) + "\xE2\x80\xA6" + clean.substr(starts[starts.size() - tail]);
}

// Relative change in %: +inf from nothing to something.
double relative(const model::Comparison& v) {
  if (v.pct) return *v.pct;
  return v.test > 0 ? std::numeric_limits<double>::infinity()
                    : v.test < 0 ? -std::numeric_limits<double>::infinity() : 0.0;
}

bool holds(GateComparator cmp, double value, double threshold) {
  switch (cmp) {
    case GateComparator::greater: return value > threshold;
    case GateComparator::greater_equal: return value >= threshold;
    case GateComparator::less: return value < threshold;
    case GateComparator::less_equal: return value <= threshold;
  }
  return false;
}

std::string pct_text(const model::Comparison& v) {
  if (v.control == 0) return v.test == 0 ? format_pct(0.0) : format_pct(std::nullopt, true);
  return format_pct(v.pct);
}

// A measured change against the condition: the threshold first, then the noise test
// (unless the condition is raw, or the mode has none). Fills outcome and detail
// ("<subject> <measure> (<c> → <t> <basis>)").
void decide(const GateCondition& cond, const model::Comparison& v, bool noise_test, const std::string& subject,
            const std::string& basis, GateResult& result) {
  const double value = cond.unit == GateUnit::percent ? relative(v) : v.diff();
  const bool size = cond.metric == GateMetric::peak_allocated || cond.metric == GateMetric::peak_reserved ||
                    cond.metric == GateMetric::op_allocated;
  const auto number = [&](double x, bool sign) { return size ? format_size(x, sign) : format_duration_ns(to_ns(x), sign); };
  const std::string measure = cond.unit == GateUnit::percent ? pct_text(v) : number(v.diff(), true);
  result.detail = subject + " " + measure + " (" + number(v.control, false) + " \xE2\x86\x92 " +
                  number(v.test, false) + (basis.empty() ? "" : " " + basis) + ")";
  if (!holds(cond.comparator, value, cond.threshold)) {
    result.outcome = model::GateOutcome::passed;
  } else if (!noise_test || cond.raw) {
    result.outcome = model::GateOutcome::fired;
  } else if (v.verdict == model::Verdict::untestable) {
    result.outcome = model::GateOutcome::not_evaluated;
    result.detail += ", not testable: too few steps to tell it from noise (prefix the condition with raw: to gate on the threshold alone)";
  } else if (!v.significant) {
    result.outcome = model::GateOutcome::within_noise;
  } else {
    result.outcome = model::GateOutcome::fired;
  }
}

// A row as the reports show it: its label (analysis decided it), else its name.
const std::string& label_of(const DiffRow& row) { return row.label.empty() ? row.name : row.label; }

bool row_matches(const GateCondition& cond, const DiffRow& row) {
  const bool cpu = cond.metric == GateMetric::op || cond.metric == GateMetric::any_op ||
                   cond.metric == GateMetric::op_allocated;
  if (row.device != (cpu ? model::Device::cpu : model::Device::gpu)) return false;
  return glob_match(cond.pattern, row.name) ||
         (!row.full_name.empty() && row.full_name != row.name && glob_match(cond.pattern, row.full_name));
}

const model::Figure* figure(const DiffReport& r, std::string_view id) {
  for (const auto& f : r.headline)
    if (f.id == id) return &f;
  return nullptr;
}

// The rows a glob matches, summed, judged as one figure.
model::Comparison sum_of(const std::vector<const DiffRow*>& rows, const DiffReport& r) {
  model::Comparison v;
  model::Samples c, t;
  for (const auto* row : rows) {
    v.control += row->basis_control_ns();
    v.test += row->basis_test_ns();
    c.add_all(row->control_samples);
    t.add_all(row->test_samples);
  }
  c.settle();
  t.settle();
  if (v.control != 0) v.pct = 100.0 * (v.test - v.control) / v.control;
  if (!r.hta_compat) {
    const auto j = judge(c, t, noise_rule_of(r));
    v.verdict = j.verdict;
    v.significant = j.significant;
  }
  return v;
}

// The rows' self allocations per step, summed, judged as one figure (sizes: the relative
// rule alone, as the memory figures).
model::Comparison allocated_sum(const std::vector<const DiffRow*>& rows, const DiffReport& r) {
  model::Samples c, t;
  for (const auto* row : rows) {
    c.set_units(row->memory.control_samples.units());
    t.set_units(row->memory.test_samples.units());
  }
  for (const auto* row : rows) {
    c.add_all(row->memory.control_samples);
    t.add_all(row->memory.test_samples);
  }
  c.settle();
  t.settle();
  return compare_samples(c, t, noise_rule_of(r).relative());
}

[[noreturn]] void no_match(const GateCondition& cond, const char* what) {
  throw UsageError("--fail-on '" + safe_name(cond.text) + "': no " + what + " row matches '" +
                   safe_name(cond.pattern) + "' (prefix the condition with optional: if that may happen)");
}

GateResult evaluate_one(const GateCondition& cond, const DiffReport& r) {
  GateResult result;
  result.condition = cond;
  const bool noise = !r.hta_compat;
  const std::string basis = r.hta_compat ? "in total" : "per " + r.unit;
  switch (cond.metric) {
    case GateMetric::step_time:
    case GateMetric::gpu_busy: {
      const bool step = cond.metric == GateMetric::step_time;
      const auto* f = figure(r, step ? "step_time" : "gpu_busy");
      if (!f || (!step && f->value.control == 0 && f->value.test == 0)) {
        result.detail = step ? "no step time to compare (a side has no ProfilerStep)" : "no GPU busy time on either side";
        return result;
      }
      decide(cond, f->value, noise, step ? "step time" : "GPU busy time", basis, result);
      return result;
    }
    case GateMetric::peak_allocated:
    case GateMetric::peak_reserved: {
      const bool allocated = cond.metric == GateMetric::peak_allocated;
      const auto* f = figure(r, allocated ? "peak_allocated" : "peak_reserved");
      if (!f) {
        result.detail = std::string("no peak memory ") + (allocated ? "allocated" : "reserved") +
                        " to compare (a side's traces have no memory events with totals on a GPU; record them with "
                        "torch.profiler.profile(profile_memory=True))";
        return result;
      }
      decide(cond, f->value, noise, allocated ? "peak memory allocated" : "peak memory reserved", basis, result);
      return result;
    }
    case GateMetric::op:
    case GateMetric::kernel: {
      const char* what = cond.metric == GateMetric::op ? "CPU" : "GPU";
      std::vector<const DiffRow*> matched;
      for (const auto& row : r.rows)
        if (row_matches(cond, row)) matched.push_back(&row);
      if (matched.empty()) {
        if (!cond.optional) no_match(cond, what);
        result.detail = std::string("no ") + what + " row matches '" + safe_name(cond.pattern) + "' (optional)";
        return result;
      }
      const std::string subject =
          matched.size() == 1 ? safe_name(label_of(*matched[0]))
                              : std::to_string(matched.size()) + " " + what + " rows matching '" +
                                    safe_name(cond.pattern) + "'";
      decide(cond, sum_of(matched, r), noise, subject, basis, result);
      return result;
    }
    case GateMetric::op_allocated: {
      std::vector<const DiffRow*> matched;
      for (const auto& row : r.rows)
        if (row_matches(cond, row)) matched.push_back(&row);
      if (matched.empty()) {
        if (!cond.optional) no_match(cond, "CPU");
        result.detail = "no CPU row matches '" + safe_name(cond.pattern) + "' (optional)";
        return result;
      }
      if (std::none_of(matched.begin(), matched.end(), [](const DiffRow* row) { return row->memory.recorded; })) {
        result.detail = "no memory allocated to compare (the traces have no memory events; record them with "
                        "torch.profiler.profile(profile_memory=True))";
        return result;
      }
      const std::string subject =
          (matched.size() == 1 ? safe_name(label_of(*matched[0]))
                               : std::to_string(matched.size()) + " CPU rows matching '" + safe_name(cond.pattern) + "'") +
          " allocated";
      decide(cond, allocated_sum(matched, r), noise, subject, basis, result);
      return result;
    }
    case GateMetric::any_op:
    case GateMetric::any_kernel: {
      const char* what = cond.metric == GateMetric::any_op ? "CPU" : "GPU";
      std::size_t matched = 0, fired = 0, noisy = 0, untestable = 0;
      std::string shown;
      for (auto i : r.impact_order()) {
        const auto& row = r.rows[i];
        if (!row_matches(cond, row)) continue;
        ++matched;
        GateResult one;
        model::Comparison v;
        v.control = row.basis_control_ns();
        v.test = row.basis_test_ns();
        v.pct = row.pct;
        v.verdict = row.verdict;
        v.significant = row.significant;
        decide(cond, v, noise, safe_name(label_of(row)), basis, one);
        noisy += one.outcome == model::GateOutcome::within_noise;
        untestable += one.outcome == model::GateOutcome::not_evaluated;
        if (!one.fired()) continue;
        if (++fired <= 3) shown += (shown.empty() ? "" : "; ") + one.detail;
      }
      if (matched == 0) {
        if (!cond.optional) no_match(cond, what);
        result.detail = std::string("no ") + what + " row matches '" + safe_name(cond.pattern) + "' (optional)";
        return result;
      }
      const std::string rows = std::to_string(matched) + " " + what + (matched == 1 ? " row" : " rows");
      if (fired) {
        result.outcome = model::GateOutcome::fired;
        result.detail = std::to_string(fired) + " of " + rows + ": " + shown;
        if (fired > 3) result.detail += "; and " + std::to_string(fired - 3) + " more";
      } else if (untestable) {
        result.outcome = model::GateOutcome::not_evaluated;
        result.detail = std::to_string(untestable) + " of " + rows +
                        " beyond the threshold, not testable: too few steps to tell them from noise (prefix the "
                        "condition with raw: to gate on the threshold alone)";
      } else if (noisy) {
        result.outcome = model::GateOutcome::within_noise;
        result.detail = std::to_string(noisy) + " of " + rows + " beyond the threshold, all within noise";
      } else {
        result.outcome = model::GateOutcome::passed;
        result.detail = rows + " matching '" + safe_name(cond.pattern) + "', none beyond the threshold";
      }
      return result;
    }
    case GateMetric::family: {
      Family id = Family::other;
      family_from_name(cond.pattern, id);
      const std::string label = family_label(id);
      if (r.hta_compat) {
        result.detail = "kernel families are not compared with --hta-compat";
        return result;
      }
      for (const auto& f : r.families)
        if (f.id == cond.pattern) {
          decide(cond, f.time, noise, label + " kernels", basis, result);
          return result;
        }
      result.detail = "no GPU work of the family " + label + " on either side";
      return result;
    }
    case GateMetric::step_part: {
      if (r.hta_compat) {
        result.detail = "the step's parts are not compared with --hta-compat";
        return result;
      }
      const auto& sc = r.step_change;
      const model::Comparison* v = nullptr;
      std::string label = cond.pattern;
      if (cond.pattern == "exposed_comm" && sc.decided) v = &sc.exposed_comm, label = "exposed communication";
      for (const auto& p : sc.parts)
        if (p.id == cond.pattern) v = &p.value, label = p.label;
      for (const auto& f : r.breakdown)
        if (f.id == cond.pattern) v = &f.value, label = f.label;
      if (!v) {
        result.detail = "no " + label + " time on either side";
        return result;
      }
      decide(cond, *v, noise, label, basis, result);
      return result;
    }
    case GateMetric::added:
    case GateMetric::deleted:
    case GateMetric::increased:
    case GateMetric::decreased: {
      const auto change = cond.metric == GateMetric::added     ? model::Change::added
                          : cond.metric == GateMetric::deleted ? model::Change::deleted
                          : cond.metric == GateMetric::increased ? model::Change::increased
                                                                 : model::Change::decreased;
      const auto& names = r.ops_diff.of(change);
      result.outcome = holds(cond.comparator, static_cast<double>(names.size()), cond.threshold)
                           ? model::GateOutcome::fired
                           : model::GateOutcome::passed;
      result.detail = format_count(static_cast<std::int64_t>(names.size()), false) + " " + model::change_name(change);
      std::vector<std::string> first;  // the first rows of the group, by their labels
      for (auto i : r.impact_order()) {
        if (first.size() == 3) break;
        if (r.rows[i].change == change) first.push_back(safe_name(label_of(r.rows[i])));
      }
      if (!first.empty()) {
        result.detail += " (";
        for (std::size_t i = 0; i < first.size(); ++i) result.detail += (i ? ", " : "") + first[i];
        if (names.size() > first.size()) result.detail += ", \xE2\x80\xA6";
        result.detail += ")";
      }
      return result;
    }
  }
  return result;
}

}  // namespace

std::string gate_heading(const std::vector<GateResult>& results) {
  if (results.empty()) return {};
  std::size_t fired = 0, unevaluated = 0;
  for (const auto& g : results) {
    fired += g.fired();
    unevaluated += g.outcome == model::GateOutcome::not_evaluated;
  }
  const auto n = std::to_string(results.size());
  if (fired) return "Gate failed: " + std::to_string(fired) + " of " + n + " --fail-on conditions hold";
  if (unevaluated == results.size())
    return "Gate not evaluated: none of " + n + " --fail-on conditions could be measured";
  if (unevaluated)
    return "Gate passed, but " + std::to_string(unevaluated) + " of " + n + " --fail-on conditions were not evaluated";
  return "Gate passed: none of " + n + " --fail-on conditions holds";
}

std::vector<GateResult> evaluate_gate(const std::vector<GateCondition>& conditions,
                                      const model::DiffReport& report) {
  std::vector<GateResult> results;
  results.reserve(conditions.size());
  for (const auto& c : conditions) results.push_back(evaluate_one(c, report));
  return results;
}

}  // namespace tracediff::analysis
