#pragma once
// What a finished comparison says, decided once for every writer: the headline and
// the step breakdown with their verdicts, ranks side by side, the top regressions and
// improvements, the labels names are shown by, where the sides differ, and the notes.
// Internal to analysis/.
#include <cstdint>
#include <set>

#include "analysis/compare.hpp"
#include "model/report.hpp"
#include "model/summary.hpp"

namespace tracediff::analysis {
struct NoiseRule;
}

namespace tracediff::analysis::detail {


// Step details are kept in (rank, step) order; this orders them by rank alone, for
// std::equal_range over one rank's steps.
struct RankLess {
  bool operator()(const model::StepDetail& d, int rank) const { return d.rank < rank; }
  bool operator()(int rank, const model::StepDetail& d) const { return rank < d.rank; }
};

// What a side's selected files ran on: GPU models and counts, world sizes, CUDA
// versions, graphs, compiled regions.
void describe_side(const model::SetSummary& set, const std::set<int>& ranks, model::SideMeta& meta);

// The headline, the breakdown and the rank rows (figures.cpp).
void decide_figures(model::DiffReport& report, const analysis::NoiseRule& rule);

// Why the step moved: the step split into the parts of each GPU's timeline, their
// waterfall, what moved each part, the bottom line (step_change.cpp). After the top
// lists, the families and the labels.
void decide_step_change(model::DiffReport& report, const analysis::NoiseRule& rule);

// The rows that wait for the GPU (DiffRow::waits_for_gpu), and the note on what the GPU
// ran while the host waited, after the top lists (host_wait.cpp).
void mark_waits(model::DiffReport& report);
void wait_note(model::DiffReport& report);

// Default mode: everything above, from the rows, launchers and step details.
void decide(model::DiffReport& report, const CompareOptions& options);

// --hta-compat: HTA's totals as the headline, verdicts by the sign of the difference
// (HTA has no noise test), top lists by raw difference.
void decide_hta(model::DiffReport& report, const CompareOptions& options);

}  // namespace tracediff::analysis::detail
