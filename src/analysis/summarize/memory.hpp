#pragma once
// Memory per step and device, from PyTorch's [memory] events (profile_memory=True;
// docs/reading-the-report.md "Memory"): folded into per-step figures on the reading
// thread, from the events kept beside the trace's (model::TraceFile::memory).
#include <cstdint>
#include <utility>
#include <vector>

#include "model/summary.hpp"

namespace tracediff::analysis::detail {

// Each device's memory in each step window [begin[i], end[i]) (model::MemoryStep),
// appended to s.memory by (device_type, device_id, step). Peaks count what was
// allocated when the step began: the totals of the device's last event before it.
void summarize_memory(const model::TraceFile& f, const std::vector<std::int64_t>& begin,
                      const std::vector<std::int64_t>& end, model::FileSummary& s);

// A side's memory per step unit (model::SideSummary::memory). `units`: (file, step
// index) per step_details entry, in its order.
void collect_memory(const model::SetSummary& set, const std::vector<std::pair<std::size_t, std::uint32_t>>& units,
                    model::SideSummary& side);

}  // namespace tracediff::analysis::detail
