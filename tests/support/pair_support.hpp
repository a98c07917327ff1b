#pragma once
// A control/test pair built in code for the analysis and writer suites: steps of host
// operators (each launching its kernels) on one rank, read and compared in memory.
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "model/report.hpp"
#include "model/trace.hpp"

namespace tracediff::test {

// One operator of every step: `name` (cpu_op) for op_us, launching `kernel` (kernel_us,
// none when empty) from inside it; `parent`, when set, is a cpu_op around it.
struct StepOp {
  StepOp(std::string n, long op = 10, std::string k = {}, long k_us = 0, std::string p = {})
      : name(std::move(n)), op_us(op), kernel(std::move(k)), kernel_us(k_us), parent(std::move(p)) {}
  std::string name;
  long op_us = 10;
  std::string kernel;
  long kernel_us = 0;
  std::string parent;
};

// `steps` ProfilerSteps 10 ms apart, the ops one after another in each; step s adds s
// microseconds of jitter to every duration (the sides are steady, not identical).
std::string steps_trace(const std::vector<StepOp>& ops, int steps = 6);

// The trace(s) as one side's set (rank i for the i-th).
model::TraceSet set_of(const std::string& label, const std::vector<std::string>& jsons, bool hta_compat = false);

// Both sides through analysis::compare_traces.
model::DiffReport compare_pair(const std::string& control, const std::string& test,
                               const analysis::CompareOptions& options = {});

// The report's row named `name`, or null.
const model::DiffRow* row_named(const model::DiffReport& report, const std::string& name);

}  // namespace tracediff::test
