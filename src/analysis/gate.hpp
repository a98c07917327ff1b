#pragma once
// The CI gate behind --fail-on: conditions on a finished DiffReport that turn a
// comparison into a non-zero exit status. Reads only model::DiffReport. Grammar and
// examples: docs/fail-on.md.
//
//   EXPR       := METRIC COMPARATOR THRESHOLD
//   METRIC     := step_time | gpu_busy | added | deleted | increased | decreased
//               | op:GLOB | kernel:GLOB | any-op:GLOB | any-kernel:GLOB
//   COMPARATOR := > | >= | < | <=
//   THRESHOLD  := [+|-] NUMBER [% | ns | us | µs | ms | s]
//
//   step_time>+5%          mean step time grew by more than 5 %
//   kernel:*gemm*>+2ms     the GEMM kernels together gained more than 2 ms per step
//   added>0                some operator or kernel is new
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.hpp"

namespace tracediff::analysis {

enum class GateMetric : std::uint8_t {
  step_time,   // mean step time (ProfilerStep durations)
  gpu_busy,    // GPU busy time per step (SideSummary::step_mean.gpu_busy_ns)
  op,          // CPU rows matching the glob, summed, per step
  kernel,      // GPU rows matching the glob, summed, per step
  any_op,      // each CPU row matching the glob on its own
  any_kernel,  // each GPU row matching the glob on its own
  added,       // ops_diff group sizes
  deleted,
  increased,
  decreased,
};

enum class GateComparator : std::uint8_t { greater, greater_equal, less, less_equal };

enum class GateUnit : std::uint8_t {
  percent,  // relative change of the metric, in %
  ns,       // absolute change (Δ), threshold in nanoseconds
  count,    // a plain number: group sizes (time metrics accept only 0, read as 0 ns)
};

struct GateCondition {
  std::string text;      // the expression as given (for messages)
  GateMetric metric = GateMetric::step_time;
  std::string pattern;   // the glob of op/kernel metrics
  GateComparator comparator = GateComparator::greater;
  GateUnit unit = GateUnit::percent;
  double threshold = 0;  // % for percent, ns for ns, a number for count
};

// Parses one --fail-on expression. Throws UsageError with a message that names the
// expression and says what is wrong.
GateCondition parse_gate_condition(std::string_view text);

struct GateResult {
  const GateCondition* condition = nullptr;
  bool evaluated = false;  // false: nothing to measure (no steps, no row matches the glob)
  bool fired = false;      // the condition holds
  std::string detail;      // what was measured, or why nothing was:
                           // "step time +12.3% (77.5 ms → 87.0 ms)"
};

// Evaluates each condition on the report, one result per condition, same order.
std::vector<GateResult> evaluate_gate(const std::vector<GateCondition>& conditions,
                                      const model::DiffReport& report);

// Shell-style glob on the whole string: '*' any run, '?' one byte, '\' escapes the
// next character. Visible for testing.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace tracediff::analysis
