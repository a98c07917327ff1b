#pragma once
// Events of one file -> its per-step summary (model/summary.hpp): counts, inclusive
// and self time per (category, name) and step, where each step's time went, and
// which CPU operator launched each piece of GPU work.
#include <cstdint>

#include "analysis/summarize/critical_path.hpp"
#include "analysis/summarize/step_marker.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

// Which host event around a launch is its launcher (the "by launching operator" view,
// --launcher). A launch with no operator around it goes to the innermost annotation or
// Python frame around it at every level, and to "(no enclosing operator)" only without.
enum class LauncherLevel : std::uint8_t {
  innermost,  // the innermost cpu_op (aten::addmm under aten::linear)
  outermost,  // the outermost cpu_op (aten::linear)
  module,     // the innermost nn.Module Python frame (with_stack), else the innermost cpu_op
};
const char* launcher_level_name(LauncherLevel level);  // "innermost", ...

struct SummarizeOptions {
  LauncherLevel launcher = LauncherLevel::innermost;
  // With a marker, host events whose names match it define the steps (--step-marker,
  // analysis/summarize/step_assignment.hpp); a marker that defines none leaves a warning in the summary.
  const StepMarker* marker = nullptr;
  // --by-shape: the traces are read with each cpu_op's input shapes (ReadOptions::by_shape),
  // and the keys, call paths and launchers keep them (SummaryKey::shape).
  bool by_shape = false;
  // The call tree (paths and their per-step cells): only for outputs that show it. A
  // summary written to a file always has it.
  bool call_tree = true;
  // What bounded each step (critical_path.hpp).
  CriticalPathOptions critical_path{};
};

model::FileSummary summarize_file(const model::TraceFile& file, const SummarizeOptions& options = {});

// The set's files' summaries (a file not summarised yet is summarised here, with the marker).
model::SetSummary summarize_set(const model::TraceSet& set, const SummarizeOptions& options = {});
// The same, taking each file's summary instead of copying it (the set is left without).
model::SetSummary summarize_set(model::TraceSet&& set, const SummarizeOptions& options = {});

}  // namespace tracediff::analysis
