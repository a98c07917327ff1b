#include "analysis/gate/gate.hpp"

#include "analysis/names/families.hpp"
#include "analysis/noise/noise.hpp"

#include <fnmatch.h>

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

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw UsageError("--fail-on '" + std::string(text) + "': " + why +
                   " (expected METRIC>THRESHOLD, e.g. step_time>+5%; see docs/fail-on.md)");
}

bool is_count_metric(GateMetric m) {
  return m == GateMetric::added || m == GateMetric::deleted || m == GateMetric::increased ||
         m == GateMetric::decreased;
}

// "+5", "-0.5", "12.25" -> value; false on anything else (no exponents, inf, nan).
bool parse_number(std::string_view s, double& value) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 40) return false;
  bool dot = false, digit = false;
  double v = 0, scale = 1;
  for (char c : s) {
    if (c == '.') {
      if (dot) return false;
      dot = true;
    } else if (c >= '0' && c <= '9') {
      digit = true;
      if (dot) {
        scale /= 10;
        v += (c - '0') * scale;
      } else {
        v = v * 10 + (c - '0');
      }
    } else {
      return false;
    }
  }
  if (!digit) return false;
  value = negative ? -v : v;
  return true;
}

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
  const std::string measure =
      cond.unit == GateUnit::percent ? pct_text(v) : format_duration_ns(to_ns(v.diff()), true);
  result.detail = subject + " " + measure + " (" + format_duration_ns(to_ns(v.control), false) + " \xE2\x86\x92 " +
                  format_duration_ns(to_ns(v.test), false) + (basis.empty() ? "" : " " + basis) + ")";
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
  const bool cpu = cond.metric == GateMetric::op || cond.metric == GateMetric::any_op;
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

// fnmatch(3) with no flags: '*' crosses '/' and leading dots, '\' escapes, case
// counts; the program keeps the C locale, so '?' is one byte. Two of its rules are
// not ours (docs/fail-on.md): '[' opens a bracket expression, and a trailing '\'
// matches nothing; both are made literal. It needs NUL-terminated strings, and a name
// from a trace may hold NUL bytes: those become a byte the pattern lacks, which only
// '*' and '?' match, as before.
bool glob_match(std::string_view pattern, std::string_view text) {
  std::string pat;
  pat.reserve(pattern.size() + 4);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size()) {
      pat += pattern.substr(i++, 2);
      continue;
    }
    if (pattern[i] == '[' || pattern[i] == '\\') pat += '\\';
    pat += pattern[i];
  }
  std::string txt(text);
  if (txt.find('\0') != std::string::npos) {
    unsigned char stand_in = 1;
    while (stand_in < 255 && pattern.find(static_cast<char>(stand_in)) != std::string_view::npos) ++stand_in;
    std::replace(txt.begin(), txt.end(), '\0', static_cast<char>(stand_in));
  }
  // A pattern with NUL bytes (none from a command line) would be cut at the first.
  return ::fnmatch(pat.c_str(), txt.c_str(), 0) == 0;
}

GateCondition parse_gate_condition(std::string_view raw) {
  GateCondition cond;
  cond.text = std::string(raw);
  auto text = trim(raw);
  if (text.empty()) bad(raw, "empty expression");
  // Qualifiers, in any order: "raw:" (the threshold alone decides) and "optional:"
  // (a glob may match nothing).
  for (bool more = true; more;) {
    more = false;
    for (auto [word, flag] : {std::pair<std::string_view, bool*>{"raw:", &cond.raw}, {"optional:", &cond.optional}})
      if (text.substr(0, word.size()) == word) {
        if (*flag) bad(raw, "'" + std::string(word) + "' given twice");
        *flag = true;
        text = trim(text.substr(word.size()));
        more = true;
      }
  }
  if (text.empty()) bad(raw, "no metric after the qualifiers");

  // The comparator is the last '<' or '>': kernel names hold '<' and '>' (templates),
  // a threshold never does.
  const auto at = text.find_last_of("<>");
  if (at == std::string_view::npos) bad(raw, "no comparator (>, >=, <, <=)");
  const bool or_equal = at + 1 < text.size() && text[at + 1] == '=';
  cond.comparator = text[at] == '>' ? (or_equal ? GateComparator::greater_equal : GateComparator::greater)
                                    : (or_equal ? GateComparator::less_equal : GateComparator::less);
  const auto metric = trim(text.substr(0, at));
  auto threshold = trim(text.substr(at + (or_equal ? 2 : 1)));
  if (metric.empty()) bad(raw, "no metric before the comparator");
  if (threshold.empty()) bad(raw, "no threshold after the comparator");

  // Metric.
  static constexpr struct {
    std::string_view name;
    GateMetric metric;
  } k_plain[] = {{"step_time", GateMetric::step_time}, {"gpu_busy", GateMetric::gpu_busy},
                 {"added", GateMetric::added},         {"deleted", GateMetric::deleted},
                 {"increased", GateMetric::increased}, {"decreased", GateMetric::decreased}};
  static constexpr struct {
    std::string_view prefix;
    GateMetric metric;
  } k_prefixed[] = {{"op:", GateMetric::op},
                    {"kernel:", GateMetric::kernel},
                    {"any-op:", GateMetric::any_op},
                    {"any-kernel:", GateMetric::any_kernel},
                    {"family:", GateMetric::family}};
  // The step's parts (docs/reading-the-report.md "Why the step moved"): by their ids.
  static constexpr std::string_view k_parts[] = {
      "exposed_comm",        "gpu_compute",          "gpu_overlap",        "gpu_mem",
      "idle.host_launch",    "idle.host_sync",       "idle.stream",        "idle.other",
      "exposed.all_reduce",  "exposed.all_gather",   "exposed.reduce_scatter", "exposed.all_to_all",
      "exposed.broadcast",   "exposed.send_recv",    "exposed.other",      "host_wait",
      "host_idle"};
  bool known = false;
  for (const auto& p : k_plain)
    if (metric == p.name) {
      cond.metric = p.metric;
      known = true;
    }
  for (const auto p : k_parts)
    if (!known && metric == p) {
      cond.metric = GateMetric::step_part;
      cond.pattern = std::string(p);
      known = true;
    }
  for (const auto& p : k_prefixed)
    if (!known && metric.substr(0, p.prefix.size()) == p.prefix) {
      cond.metric = p.metric;
      cond.pattern = std::string(metric.substr(p.prefix.size()));
      if (cond.pattern.empty()) bad(raw, "'" + std::string(p.prefix) + "' needs a name or glob after it");
      known = true;
    }
  if (!known)
    bad(raw, "unknown metric '" + std::string(metric) +
                 "' (known: step_time, gpu_busy, op:GLOB, kernel:GLOB, any-op:GLOB, any-kernel:GLOB, "
                 "family:ID, added, deleted, increased, decreased; the step's parts: exposed_comm, gpu_compute, "
                 "gpu_overlap, gpu_mem, idle.host_launch, idle.host_sync, idle.stream, idle.other, exposed.KIND, "
                 "host_wait, host_idle)");
  if (cond.metric == GateMetric::family) {
    Family f;
    if (!family_from_name(cond.pattern, f))
      bad(raw, "unknown kernel family '" + display_safe(cond.pattern) + "' (known: " + family_ids() + ")");
  }

  // Threshold: [+|-]NUMBER[ ]UNIT.
  std::size_t num_end = 0;
  while (num_end < threshold.size() &&
         (threshold[num_end] == '+' || threshold[num_end] == '-' || threshold[num_end] == '.' ||
          (threshold[num_end] >= '0' && threshold[num_end] <= '9')))
    ++num_end;
  double value = 0;
  if (!parse_number(threshold.substr(0, num_end), value))
    bad(raw, "threshold '" + std::string(threshold) + "' is not a number with an optional unit");
  const auto unit = trim(threshold.substr(num_end));
  static constexpr struct {
    std::string_view unit;
    double ns;
  } k_units[] = {{"ns", 1.0},
                 {"us", 1e3},
                 {"\xC2\xB5s", 1e3},  // µ (micro sign)
                 {"\xCE\xBCs", 1e3},  // μ (Greek mu)
                 {"ms", 1e6},
                 {"s", 1e9}};
  if (unit == "%") {
    cond.unit = GateUnit::percent;
    cond.threshold = value;
  } else if (unit.empty()) {
    cond.unit = GateUnit::count;
    cond.threshold = value;
  } else {
    bool found = false;
    for (const auto& u : k_units)
      if (unit == u.unit) {
        cond.unit = GateUnit::ns;
        cond.threshold = value * u.ns;
        found = true;
      }
    if (!found) bad(raw, "unknown unit '" + std::string(unit) + "' (use %, ns, us, ms or s, or none for a count)");
  }

  if (is_count_metric(cond.metric)) {
    if (cond.unit != GateUnit::count)
      bad(raw, std::string(metric) + " is a number of rows: give a plain count (e.g. " + std::string(metric) +
                   ">0)");
  } else if (cond.unit == GateUnit::count) {
    if (value != 0) bad(raw, "a time threshold needs a unit: % for a relative change, or ns, us, ms, s for a difference");
    cond.unit = GateUnit::ns;  // "op:x>0": any increase
  }
  return cond;
}

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
