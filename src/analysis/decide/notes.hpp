#pragma once
// Where the sides differ and the report's plain-language notes.
#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

// Where the sides' inputs differ: GPUs, versions, world sizes.
void sides_differ(model::DiffReport& r);
void notes(model::DiffReport& r);

}  // namespace tracediff::analysis::detail
