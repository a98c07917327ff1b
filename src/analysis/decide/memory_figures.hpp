#pragma once
// Memory (docs/reading-the-report.md "Memory"): each device's figures per step, judged
// by the noise rule, the headline's peak memory (GPU), or the note that says how to
// record memory when a side has none.
#include <string_view>
#include <vector>

#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

void decide_memory(model::DiffReport& report, const NoiseRule& rule);

// A side's headline peak memory (ID "peak_allocated" or "peak_reserved") in each step unit
// that has it, as decide_memory judges it; empty without (`tracediff trend`).
std::vector<double> memory_peak_samples(const model::SideSummary& side, std::string_view id);

}  // namespace tracediff::analysis::detail
