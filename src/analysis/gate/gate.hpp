#pragma once
// The CI gate behind --fail-on: conditions on a finished DiffReport that turn a
// comparison into a non-zero exit status. Reads only model::DiffReport; its results
// go into the report (DiffReport::gate) for every writer to show. Grammar and
// examples: docs/fail-on.md.
//
//   EXPR       := [raw:] [optional:] METRIC COMPARATOR THRESHOLD
//   METRIC     := step_time | gpu_busy | added | deleted | increased | decreased
//               | op:GLOB | kernel:GLOB | any-op:GLOB | any-kernel:GLOB | family:ID
//   COMPARATOR := > | >= | < | <=
//   THRESHOLD  := [+|-] NUMBER [% | ns | us | µs | ms | s]
//
//   step_time>+5%          mean step time grew by more than 5 %
//   kernel:*gemm*>+2ms     the GEMM kernels together gained more than 2 ms per step
//   added>0                some operator or kernel is new
//   family:gemm>+5%        GPU time in GEMM kernels grew by more than 5 % per step
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/gate_conditions.hpp"
#include "model/report.hpp"

namespace tracediff::analysis {

using model::GateComparator;
using model::GateCondition;
using model::GateMetric;
using model::GateResult;
using model::GateUnit;

// Parses one --fail-on expression. Throws UsageError with a message that names the
// expression and says what is wrong.
GateCondition parse_gate_condition(std::string_view text);

// Evaluates each condition on the report, one result per condition, same order.
// A time condition fires only on a change the report calls significant, unless it
// is raw (or --hta-compat, which has no noise test). Throws UsageError for a
// condition whose glob matches no row, unless it is optional.
std::vector<GateResult> evaluate_gate(const std::vector<GateCondition>& conditions,
                                      const model::DiffReport& report);

// What the gate came to, in one line: failed, passed, passed with conditions not
// evaluated, or not evaluated at all. Empty without conditions.
std::string gate_heading(const std::vector<GateResult>& results);

// Shell-style glob on the whole string: '*' any run, '?' one byte, '\' escapes the
// next character; '[' is literal (fnmatch(3) underneath). Visible for testing.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace tracediff::analysis
