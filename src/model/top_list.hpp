#pragma once
// A top list (TopList): the largest significant changes, each with where it was called
// from, and what the list leaves out. Part of the report (model/report.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/call_tree_diff.hpp"

namespace tracediff::model {

// The largest significant changes, in order: indices into DiffReport::rows.
struct TopList {
  std::vector<std::size_t> rows;
  // Per row, its node in the call tree: the path that carries most of its change
  // (k_no_node: none).
  std::vector<std::uint32_t> nodes;
  // Per row, where it was called from, as every view shows it: the names of its node's
  // ancestors (display-safe), outermost first, "…" where some are left out (empty at the
  // top level). Views join them with " › " (util/display_name's path_text).
  std::vector<std::vector<std::string>> paths;
  // Per row, how much of its change that path carries, in words before it: "in" (nearly
  // all of it) or "49 % in"; empty with an empty path.
  std::vector<std::string> path_words;
  // Per row, that share as a number in [0, 1] (the path node's Δ over the row's, of the
  // means; 0 when the path moved the other way); nullopt without a path or a per-step Δ.
  std::vector<std::optional<double>> path_shares;
  // Significant rows left out because one call inside explains at least 90 % of their
  // change, and the row listed for it (or counted in `more`) was reached through them.
  std::size_t folded = 0;
  // GPU work on one side only in a family that has names on the other side only too:
  // the same work under other names (another library or vendor), told by the kernel
  // families' figures, not as a new and a gone kernel each.
  std::size_t renamed = 0;
  // Kernels of an algorithm swap within a family whose time stayed the same
  // (DiffRow::swapped), told by one note.
  std::size_t swapped = 0;
  // Rows that wait for the GPU (DiffRow::waits_for_gpu), told by one note.
  std::size_t waiting = 0;
  std::size_t more = 0;          // significant, beyond the list's length
  std::size_t within_noise = 0;  // the same direction, within noise
  std::size_t untestable = 0;    // the same direction, not testable
  // No row could be tested (too few steps on a side): rows are then the largest raw
  // changes, to be shown as not testable, never as real.
  bool raw = false;
  // The significant changes the list counts: listed, and `more` beyond its length
  // (what the verdict line counts too; 0 for a raw list).
  // Frames of threads that launch no GPU work, asleep in wait, acquire, sleep or select
  // (DiffRow::sleeping): their time is no work.
  std::size_t sleeping = 0;
  std::size_t significant() const { return raw ? 0 : rows.size() + more; }
};

}  // namespace tracediff::model
