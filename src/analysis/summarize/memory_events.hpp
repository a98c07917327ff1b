#pragma once
// Memory per step and device, from PyTorch's [memory] events (profile_memory=True;
// docs/reading-the-report.md "Memory"): folded into per-step figures on the reading
// thread, from the events kept beside the trace's (model::TraceFile::memory).
#include <cstdint>
#include <utility>
#include <vector>

#include "model/side.hpp"
#include "model/summary.hpp"

namespace tracediff::analysis::detail {

// What the per-operator figures count: allocations on a device, the host's own memory
// (Device Type 0) left out; traces without a device type count whole.
inline bool device_allocation(const model::MemoryEvent& m) { return m.bytes > 0 && m.device_type != 0; }

// Per memory event: for an allocation with an Addr, the time of its free (the next free
// of that address on its device), INT64_MAX when never freed in the trace; -1 for the
// others (frees, and allocations without an Addr, which cannot be matched).
std::vector<std::int64_t> free_times(const model::TraceFile& f);

// The memory timeline of the file's median step by duration (model::MemoryTimeline): on
// the GPU with the most memory events in it (the lowest id on a tie), else on any device
// but the host's. `owner`: Nesting::mem_owner.
void summarize_memory_timeline(const model::TraceFile& f, const std::vector<std::int64_t>& begin,
                               const std::vector<std::int64_t>& end, const std::vector<std::uint32_t>& owner,
                               model::FileSummary& s);

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
