#pragma once
// Hand-built report rows for the writer and gate tests: what analysis would decide
// for a row that is clearly steady on each side.
#include <cstdint>
#include <string>

#include "model/report.hpp"

namespace tracediff::test {

// A row of per-step time control_ns -> test_ns over six steps a side, 0.1 % apart (so
// any change past --min-change is significant), `calls` calls a step, its verdict
// and relative change set as analysis would.
model::DiffRow steady_row(const std::string& name, model::Device device, double control_ns, double test_ns,
                          int calls);

// A report of six steps a side on rank 0, step i taking control_step_ns + i (test_step_ns
// + i) with GPU busy control_busy_ns + i (test_busy_ns + i), labelled Control and Test;
// no rows.
model::DiffReport six_step_report(std::int64_t control_step_ns, std::int64_t test_step_ns,
                                  std::int64_t control_busy_ns = 0, std::int64_t test_busy_ns = 0);

}  // namespace tracediff::test
