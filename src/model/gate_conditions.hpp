#pragma once
// The CI gate behind --fail-on, as data: the conditions (parsed by analysis/gate)
// and what each came to on a report (DiffReport::gate), which every writer shows.
// Grammar and examples: docs/fail-on.md.
#include <cstdint>
#include <string>

namespace tracediff::model {

enum class GateMetric : std::uint8_t {
  step_time,   // step time per step
  gpu_busy,    // GPU busy time per step
  op,          // CPU rows matching the glob, summed, per step
  kernel,      // GPU rows matching the glob, summed, per step
  any_op,      // each CPU row matching the glob on its own
  any_kernel,  // each GPU row matching the glob on its own
  added,       // ops_diff group sizes
  deleted,
  increased,
  decreased,
  family,      // a kernel family's GPU time per step (pattern: its id, analysis/names/kernel_families)
  step_part,   // a part of the step (pattern: exposed_comm, a StepPart id, host_wait, host_idle)
  peak_allocated,  // the headline's peak memory allocated (GPU) per step
  peak_reserved,   // the headline's peak memory reserved (GPU) per step
  op_allocated,    // "op:GLOB.allocated": CPU rows matching the glob, their self allocations summed, per step
};

enum class GateComparator : std::uint8_t { greater, greater_equal, less, less_equal };

enum class GateUnit : std::uint8_t {
  percent,  // relative change of the metric, in %
  ns,       // absolute change (Δ), threshold in nanoseconds
  count,    // a plain number: group sizes (time metrics accept only 0, read as 0 ns)
  bytes,    // absolute change of a memory metric, threshold in bytes
};

struct GateCondition {
  std::string text;      // the expression as given (for messages)
  GateMetric metric = GateMetric::step_time;
  std::string pattern;   // the glob of op/kernel metrics; the family id of family metrics
  GateComparator comparator = GateComparator::greater;
  GateUnit unit = GateUnit::percent;
  double threshold = 0;  // % for percent, ns for ns, bytes for bytes, a number for count
  // "raw:": the threshold alone decides, not the noise test (by default a time
  // condition fires only on a change the report calls significant).
  bool raw = false;
  // "optional:": a pattern that matches no row is no error.
  bool optional = false;
};

enum class GateOutcome : std::uint8_t {
  fired,          // the condition holds: exit 3
  passed,         // measured, and it does not hold
  within_noise,   // past the threshold, but not a significant change: does not fire
  not_evaluated,  // nothing to measure (no steps, an optional pattern that matches nothing,
                  // a figure that cannot be tested)
};

struct GateResult {
  GateCondition condition;
  GateOutcome outcome = GateOutcome::not_evaluated;
  // What was measured, or why nothing was: "step time +12.3% (77.5 ms → 87.0 ms per step)".
  std::string detail;
  bool fired() const { return outcome == GateOutcome::fired; }
};

const char* gate_outcome_name(GateOutcome o);  // "fired", "passed", "within_noise", "not_evaluated"

}  // namespace tracediff::model
