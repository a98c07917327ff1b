#pragma once
// The top regressions and improvements, and the swaps they leave out.
#include "analysis/compare_options.hpp"
#include "model/report.hpp"
#include <cstddef>

namespace tracediff::analysis::detail {

// Which way a row moved, by the Δ the lists print (the medians'), else the means'.
double direction(const model::DiffRow& row);
// Rows of one family whose kernels were swapped for others of that family.
void mark_swaps(model::DiffReport& r);
// The significant rows of one direction, at most n of them.
model::TopList top_list(const model::DiffReport& r, bool slower, std::size_t n);
// The rows that allocate significantly more (or less) per step, at most n of them.
model::TopList allocation_list(const model::DiffReport& r, bool more, std::size_t n);

}  // namespace tracediff::analysis::detail
