#pragma once
// What bounded each step (docs/critical-path.md): the step's events as a graph of
// dependencies, HTA's lightweight critical path model, and its longest path, per file
// and step, on the reading thread (the events are dropped after). The options are the
// comparison's (--critical-path-model, --data-load-pattern, --what-if).
#include <cstdint>
#include <functional>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

// --what-if WHAT*FACTOR: the work named gets FACTOR times its length (0.8: 20 % faster).
struct WhatIfSpec {
  enum class Target : std::uint8_t {
    name,    // a row's name, exactly (an operator, a kernel, a runtime call)
    family,  // family:ID, a kernel family (docs/kernel-families.md)
    launch,  // launch: every launch delay (launch call to kernel start, the stream empty)
    gaps,    // gaps: every gap between kernels on a stream
  };
  std::string text;  // as given
  Target target = Target::name;
  std::string value;  // the name or the family's id
  double factor = 1;
};
// Parses one --what-if; nullopt with `error` set when it is not one.
std::optional<WhatIfSpec> parse_what_if(std::string_view text, std::string& error);

struct CriticalPathOptions {
  bool enabled = true;
  // HTA's model exactly (--hta-compat, or --critical-path-model hta): its zero weights
  // (every cudaEventQuery and cudaMemcpyAsync), no GPU-to-host edge without the trace's
  // cuda_sync events, the profiler's own operators on the path.
  bool hta_model = false;
  // Host time inside an operator whose name holds this is data loading ("" : none).
  std::string data_load_pattern = "DataLoader";
  std::vector<WhatIfSpec> what_if;
  // Per step, the rows with the most time on the path each get a what-if at this factor.
  std::size_t auto_rows = 5;
  double auto_factor = 0.8;
  // --perfetto: the events on the path of the step of this number (whole trace: -1), and
  // each one's time on it, by event, into *path_events (the step file marks them).
  std::optional<std::int64_t> path_events_step;
  std::vector<std::pair<std::uint32_t, std::int64_t>>* path_events = nullptr;
};

namespace detail {

struct StepWindows;
struct WaitingCalls;
class LaunchIndex;
class NameFacts;

// The file's steps' paths into s.steps[].path, s.path_cells, s.what_ifs and
// s.what_if_cells. `key_of` gives an event's key, asked only of events `in_rows`;
// `profiler` is Nesting::profiler (the profiler's own work).
void critical_paths(const model::TraceFile& f, const LaunchIndex& launch_of, const StepWindows& windows,
                    const WaitingCalls& waiting, const std::pmr::vector<std::uint8_t>& profiler, NameFacts& names,
                    const CriticalPathOptions& options, const std::function<std::uint32_t(std::uint32_t)>& key_of,
                    const std::function<bool(std::uint32_t)>& in_rows, model::FileSummary& s);

}  // namespace detail
}  // namespace tracediff::analysis
