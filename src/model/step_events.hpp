#pragma once
// One step of each side, as its events ran, for a trace viewer (--perfetto,
// --embed-perfetto; docs/perfetto.md): analysis picks the step and joins each event to
// its row; output/perfetto_writer prints it as Chrome-trace JSON.
#include <cstdint>
#include <string>
#include <vector>

namespace tracediff::model {

struct StepTraceEvent {
  std::string name, category;
  std::int64_t ts_ns = 0;    // from the step's start
  std::int64_t dur_ns = 0;
  std::uint32_t thread = 0;  // index into StepTraceSide::threads
  std::int64_t row = -1;     // index into DiffReport::rows; -1: no row (left out of the rows)
  std::int32_t top = -1;     // its place in DiffReport::top_regressions (0 first); -1: none
  std::int64_t path_ns = 0;  // its own time on the step's critical path (docs/critical-path.md); 0: off it
  bool gpu = false;          // GPU work (kernel, memcpy, memset)
};

struct StepTraceSide {
  std::string process;       // "Control · rank 0"
  std::string file;          // the trace it came from
  bool test = false;
  int rank = 0;
  std::int64_t step = 0;     // its step number
  bool whole_trace = false;  // no steps: the whole trace of the side's median file
  std::int64_t dur_ns = 0;   // the step's time
  std::vector<std::string> threads;  // "pid 1 · tid 7", in order of first event
  std::vector<StepTraceEvent> events;  // in file order
  std::uint64_t left_out = 0;  // events over the bound (the shortest), not in `events`
};

struct StepTrace {
  std::vector<StepTraceSide> sides;  // control, then test
};

}  // namespace tracediff::model
