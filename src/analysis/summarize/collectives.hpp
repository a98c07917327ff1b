#pragma once
// Which rank everyone waited on (docs/reading-the-report.md "Which rank everyone waited on"). Clocks
// differ across hosts, so start times are never compared across ranks. A collective
// kernel that starts early waits inside itself until the last rank arrives, so per
// collective, matched across ranks, wait(rank) = dur(rank) - min over ranks of dur,
// and the rank with the shortest kernel arrived last.
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/summarize/step_assignment.hpp"
#include "model/side.hpp"
#include "model/summary.hpp"

namespace tracediff::analysis::detail {

// A file's communication kernels per step, in GPU order, with what identifies each
// across ranks (model::CollectiveCall). `step_at`: each event's step index, -1 outside.
void summarize_collectives(const model::TraceFile& f, const LaunchIndex& launch_of, const std::int32_t* step_at,
                           model::FileSummary& s);

// The side's collectives matched across its ranks: each unit's wait and each rank's
// last arrivals. `units`: (file, step index) per step_details entry, in its order.
void match_collectives(const model::SetSummary& set, const std::vector<std::pair<std::size_t, std::uint32_t>>& units,
                       model::SideSummary& side);

}  // namespace tracediff::analysis::detail
