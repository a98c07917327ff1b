#pragma once
// Folded stacks (`frame;frame;frame VALUE`, one line per path): the call tree of one
// side as flamegraph.pl, difffolded.pl and speedscope read it. Written from
// DiffReport::call_tree, all of it (what --json-full-tree writes), never re-decided.
#include <ostream>
#include <string>
#include <string_view>

#include "model/report.hpp"

namespace tracediff::output {

struct FoldedOptions {
  bool test = false;  // which side: control (false) or test
  // Host time (false): each host node's line holds its self time, so that a path's lines
  // sum to its inclusive time. GPU time (true): each GPU node's time under the host path
  // that launched it, so that a path's lines sum to the GPU time launched under it.
  bool gpu = false;
};

// Values are µs per step unit, integers: the lines' exact values are summed in the
// tree's pre-order and each line gets the rounded running sum less the one before it,
// so every subtree (a run of lines) sums to its exact figure within 1 µs, and the
// whole file to the rounded total. Lines of 0 are left out.
void write_folded(const model::DiffReport& report, std::ostream& out, const FoldedOptions& options);

// A frame as the format allows: a name as util/sanitize's display_exact writes it
// (controls and invalid bytes as \xNN, a backslash as \\), and ';' (the separator) as
// \x3b, so that two names never read alike and no line breaks inside a frame.
std::string folded_frame(std::string_view name);

}  // namespace tracediff::output
