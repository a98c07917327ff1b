#pragma once
// The step file for Perfetto and chrome://tracing (--perfetto, --embed-perfetto;
// docs/perfetto.md): Chrome-trace JSON of model::StepTrace, one process per side and
// rank, each event's row Δ and verdict in its args, the top regressions flagged. It
// only prints what analysis chose. Same input: byte-identical output.
#include <ostream>

#include "model/report.hpp"
#include "model/step_events.hpp"

namespace tracediff::output {

void write_perfetto(const model::DiffReport& report, const model::StepTrace& trace, std::ostream& out);

}  // namespace tracediff::output
