#pragma once
// Hand-built report rows for the writer and gate tests: what analysis would decide
// for a row that is clearly steady on each side.
#include <string>

#include "model/report.hpp"

namespace tracediff::test {

// A row of per-step time control_ns -> test_ns over six steps a side, 0.1 % apart (so
// any change past --min-change is significant), `calls` calls a step, its verdict
// and relative change set as analysis would.
model::DiffRow steady_row(const std::string& name, model::Device device, double control_ns, double test_ns,
                          int calls);

}  // namespace tracediff::test
