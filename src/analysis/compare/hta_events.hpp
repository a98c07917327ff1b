#pragma once
// HTA's view of each event (hta-tracediff-semantics.md §2.2, §3): what --hta-compat
// counts, and what the Python module's LabeledTrace.extract_ops shows, one row per
// event. The traces must have been read with ReadOptions::hta_compat.
#include <cstdint>
#include <limits>
#include <memory_resource>
#include <optional>
#include <string_view>
#include <vector>

#include "model/trace.hpp"

namespace tracediff::analysis {

// An event's iteration where HTA leaves it NaN (stream-0 GPU work, §3.1).
constexpr std::int64_t k_hta_nan_iteration = std::numeric_limits<std::int64_t>::min();

struct HtaRow {
  double ts = 0, dur = 0;        // after §2.2's rounding of fractional traces
  std::int64_t iteration = -1;   // -1: outside every step; k_hta_nan_iteration
};

// One row per event of FILE, in its order: §2.2 rounding, §2.6 links, §3.1 iterations.
std::pmr::vector<HtaRow> hta_rows(const model::TraceFile& file,
                                  std::pmr::memory_resource* memory = std::pmr::get_default_resource());

// §3.2: every N of a "ProfilerStep#N" name in any file of SET, ascending.
std::vector<std::int64_t> hta_iterations(const model::TraceSet& set);

// The integer after "ProfilerStep#", as HTA's iteration list reads it.
std::optional<std::int64_t> hta_step_symbol(std::string_view name);

}  // namespace tracediff::analysis
