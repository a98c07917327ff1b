#pragma once
// --perfetto and --embed-perfetto: the steps that analysis picked (each side's median
// step) read again from their traces, since summarising dropped the events, and joined
// to the report's rows (docs/perfetto.md).
#include "cli/options.hpp"
#include "model/report.hpp"

namespace tracediff::cli {

// Before reading: a summary has no events to show (UsageError).
void check_perfetto_inputs(const Options& options);

// Sets report.step_trace (and embed_step_trace); a side without steps is left out.
void attach_step_trace(const Options& options, model::DiffReport& report);

}  // namespace tracediff::cli
