// --fail-on's conditions, parsed from the command line (docs/fail-on.md), and the glob
// that names rows in them.
#include <fnmatch.h>

#include <algorithm>
#include <string>

#include "analysis/gate/gate.hpp"
#include "analysis/names/kernel_families.hpp"
#include "util/errors.hpp"
#include "util/sanitize.hpp"

namespace tracediff::analysis {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw UsageError("--fail-on '" + std::string(text) + "': " + why +
                   " (expected METRIC>THRESHOLD, e.g. step_time>+5%; see docs/fail-on.md)");
}

bool is_memory_metric(GateMetric m) {
  return m == GateMetric::peak_allocated || m == GateMetric::peak_reserved || m == GateMetric::op_allocated;
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
                 {"increased", GateMetric::increased}, {"decreased", GateMetric::decreased},
                 {"peak_allocated", GateMetric::peak_allocated}, {"peak_reserved", GateMetric::peak_reserved}};
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
      // "op:GLOB.allocated": the rows' allocations, not their time.
      constexpr std::string_view k_allocated = ".allocated";
      if (p.metric == GateMetric::op && cond.pattern.size() > k_allocated.size() &&
          std::string_view(cond.pattern).ends_with(k_allocated)) {
        cond.metric = GateMetric::op_allocated;
        cond.pattern.resize(cond.pattern.size() - k_allocated.size());
      }
      if (cond.pattern.empty()) bad(raw, "'" + std::string(p.prefix) + "' needs a name or glob after it");
      known = true;
    }
  if (!known)
    bad(raw, "unknown metric '" + std::string(metric) +
                 "' (known: step_time, gpu_busy, peak_allocated, peak_reserved, op:GLOB, op:GLOB.allocated, kernel:GLOB, any-op:GLOB, any-kernel:GLOB, "
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
  // Sizes: decimal (KB, MB, GB; kB too) and binary (KiB, MiB, GiB) units.
  static constexpr struct {
    std::string_view unit;
    double bytes;
  } k_sizes[] = {{"B", 1.0},           {"KB", 1e3},           {"kB", 1e3},
                 {"MB", 1e6},          {"GB", 1e9},           {"TB", 1e12},
                 {"KiB", 1024.0},      {"MiB", 1048576.0},    {"GiB", 1073741824.0},
                 {"TiB", 1099511627776.0}};
  const bool memory = is_memory_metric(cond.metric);
  if (unit == "%") {
    cond.unit = GateUnit::percent;
    cond.threshold = value;
  } else if (memory) {
    bool found = false;
    for (const auto& u : k_sizes)
      if (unit == u.unit) {
        cond.unit = GateUnit::bytes;
        cond.threshold = value * u.bytes;
        found = true;
      }
    if (unit.empty() && value == 0) {  // "peak_allocated>0": any increase
      cond.unit = GateUnit::bytes;
      found = true;
    }
    if (!found)
      bad(raw, "'" + std::string(metric) + "' is a size: give % for a relative change, or B, KB, MB, GB, KiB, MiB, "
                                           "GiB for a difference (unit '" + display_safe(unit) + "')");
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
    for (const auto& u : k_sizes)
      if (!found && unit == u.unit)
        bad(raw, "'" + std::string(unit) + "' is a size, and " + std::string(metric) +
                     " a time: use %, ns, us, ms or s");
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

}  // namespace tracediff::analysis
