#pragma once
// Why the step moved: the step time split into parts of the GPUs' timeline (StepPart),
// the waterfall, the equation and the bottom line (StepChange). Part of the report
// (model/report.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "model/figure.hpp"

namespace tracediff::model {

// Why the step moved (docs/reading-the-report.md "Why the step moved"): the step time on each GPU split into
// exclusive parts of its timeline (StepDetail's GPU parts, per GPU: each file's parts over
// its GPUs with work, averaged over step units), so that the parts' Δs add up to the step
// time's Δ; decided by analysis/decide/step_change.cpp, printed by every view.
struct StepPart {
  std::string id;     // "gpu_compute", "gpu_overlap", "exposed.all_reduce", "gpu_mem", "idle.host_launch", ...
  std::string label;  // "GPU compute", "Exposed all-reduce", "Idle: waiting for launches", ...
  Comparison value;   // per step per GPU, judged
  // What moved it, largest |Δ| first: kernel families (ids) for the GPU parts, and rows
  // (indices into DiffReport::rows): a family's kernels, or the host rows behind idle time.
  std::vector<std::string> families;
  std::vector<std::size_t> rows;
};

struct StepChange {
  bool decided = false;           // false: no GPU work on either side (no timeline to split)
  Comparison step;                // step time per step (the headline's, the sum of the parts)
  std::vector<StepPart> parts;    // every part with time on a side, in timeline order
  std::vector<std::size_t> bars;  // the waterfall's bars: the parts with the largest |Δ|, in that order
  double rest_diff = 0;           // the step's Δ less the bars' (the other parts): the waterfall closes
  Comparison exposed_comm;        // the exposed collectives together (the gate's exposed_comm)
  // "Step +46.6 ms = GPU compute +21.0 ms, exposed all-reduce +7.9 ms, other parts +1.2 ms"
  std::string equation;
  // One sentence, under the verdict line in every view: the step's change and the parts
  // that moved it most, each with what moved it most.
  std::string bottom_line;
};

}  // namespace tracediff::model
