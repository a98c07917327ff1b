#pragma once
// The step each side shows in a trace viewer (--perfetto, docs/perfetto.md): its median
// step by step time, and that step's events joined to the report's rows.
#include <cstddef>
#include <optional>

#include "analysis/summarize/summarize.hpp"
#include "model/report.hpp"
#include "model/step_events.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

// Events a side keeps at most (the longest), and the bytes they may take (names and
// categories, and up to 300 bytes of JSON each): the file stays small enough to attach.
constexpr std::size_t k_step_trace_max_events = 100'000;
constexpr std::size_t k_step_trace_max_bytes = 16u << 20;

// The side's median step by duration: an index into step_details (the lower one of an
// even count; equal times in (rank, step) order); nullopt without steps.
std::optional<std::size_t> median_step(const model::SideSummary& side);

// The events of step_details[step] of one side, read again from `file` (a file of that
// step's rank), each with its row in `report` and its time on the step's critical path
// (found again as the side's summaries found it: `summarize`). nullopt when the file has
// no such step.
std::optional<model::StepTraceSide> step_trace_side(const model::TraceFile& file, const model::DiffReport& report,
                                                    bool test, std::size_t step, const SummarizeOptions& summarize);

// Once the sides are attached: a note for each side whose step lost events to the bound.
void note_step_trace(model::DiffReport& report);

}  // namespace tracediff::analysis
