#pragma once
// Which ProfilerStep each event belongs to, in the default mode (not HTA's rules):
// a host event belongs to the ProfilerStep#N of the same process that contains its
// start; GPU work belongs to the step of the runtime call that launched it (GPU work
// lags the CPU, so its own time would place it a step late). Internal to analysis/.
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string_view>
#include <vector>

#include "analysis/summarize/step_marker.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis::detail {

constexpr std::int64_t k_no_step = -1;

// N of "ProfilerStep#N" (spaces allowed around '#'), if the name is one.
std::optional<std::int64_t> profiler_step_number(std::string_view name);

struct StepWindow {
  std::int64_t step = 0;
  std::int64_t begin_ns = 0, end_ns = 0;
  std::uint32_t pid = 0;
  std::int32_t index = -1;  // into FileSteps::steps: the step of its number; -1 none
};

// correlation id -> the runtime/driver call that launched it (files hold millions of
// launches). Ids come from a counter, so they are usually dense: then a table indexed
// by id, no larger than the sorted array of (id, event) pairs (and its sort buffer)
// used otherwise, itself a third of the memory of a hash map.
class LaunchIndex {
 public:
  explicit LaunchIndex(const model::TraceFile& file,
                       std::pmr::memory_resource* memory = std::pmr::get_default_resource());
  // The launch event's index, or -1. With several launches of one id the last wins.
  std::int64_t find(std::int64_t correlation) const;

 private:
  static constexpr std::uint32_t k_none = ~0u;
  std::int64_t m_base = 0;
  std::pmr::vector<std::uint32_t> m_dense;  // by correlation - m_base; k_none: no launch
  std::pmr::vector<std::pair<std::int64_t, std::uint32_t>> m_index;  // when ids are sparse
};

// What a --step-marker did to a file's steps.
enum class MarkerOutcome : std::uint8_t {
  not_given,
  spans,     // the matches cover the work: each is a step
  markers,   // short matches once per iteration: a step runs from one to the next
  no_match,  // nothing matched: steps as without the marker
  no_step,   // matches, but none makes a step (one instant, or one marker): as without it
};

struct FileSteps {
  std::vector<StepWindow> host_steps;        // CPU-side step spans (ProfilerStep or marker), by start
  // The file's steps: the first span of each step number, by start (a number twice, in
  // several processes, is one step, timed by its first span).
  std::vector<StepWindow> steps;
  // Per event: its step, an index into `steps`; k_no_step when none. (A step's index,
  // not its number: 4 bytes an event, and what the summariser keys on.)
  std::pmr::vector<std::int32_t> step_at;
  std::uint64_t gpu_unlinked = 0;            // GPU events whose launch is missing
  std::uint64_t gpu_unplaced = 0;            // of those, the ones outside every step
  MarkerOutcome marker = MarkerOutcome::not_given;
  std::uint64_t marker_matches = 0;          // the outermost matching events
  std::uint64_t marker_gave_up = 0;          // names not matched: the engine gave up, or past k_max_give_ups
  std::uint64_t marker_over_budget = 0;      // names not asked: the file's matching budget was spent
  // Per pool id, when the marker's matches are spans: 1 for a name that matches. Those
  // events are steps, as ProfilerStep spans are (no operator, no call-tree node).
  std::vector<std::uint8_t> marker_span_name;
  // ProfilerStep spans whose number the same process already had, after that span
  // ended: no step (assign_steps). Counted for the step_number_repeated diagnostic.
  std::uint64_t repeated_steps = 0;
  std::vector<StepWindow> repeated;  // those spans (the accounting's repeated_step)

  // The step number of an event; k_no_step when none.
  std::int64_t iteration(std::size_t event) const {
    return step_at[event] < 0 ? k_no_step : steps[static_cast<std::size_t>(step_at[event])].step;
  }
};

// Host kinds whose names a step marker is matched against.
inline bool marker_kind(model::Kind k) {
  return k == model::Kind::cpu_op || k == model::Kind::user_annotation || k == model::Kind::python_function;
}

// `memory` holds the per-event vector. With a marker, host events whose names match
// it define the steps (ProfilerStep spans, if any, then only stay out of the rows);
// when it defines none, the steps are as without it.
FileSteps assign_steps(const model::TraceFile& file, const LaunchIndex& launches,
                       std::pmr::memory_resource* memory = std::pmr::get_default_resource(),
                       const StepMarker* marker = nullptr);

}  // namespace tracediff::analysis::detail
