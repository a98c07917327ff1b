#pragma once
// The machine-readable writers. Each reads the DiffReport as it is.
#include <ostream>

#include "model/report.hpp"

namespace tracediff::output {

// CSV, RFC 4180. Default mode: fixed columns (see README "Output columns").
// --hta-compat: HTA's columns and row order.
void write_csv(const model::DiffReport& report, std::ostream& out);

// JSON: inputs, rows, ops_diff, steps and diagnostics.
void write_json(const model::DiffReport& report, std::ostream& out);

}  // namespace tracediff::output
