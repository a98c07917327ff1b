#pragma once
// Ranks: each side's per rank (RankDetail) and its collectives matched across ranks
// (CollectiveMatch), and both sides' ranks side by side (RankRow, RankComparison) with the
// rank each waited on (Straggler). Part of the report (model/report.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/figure.hpp"

namespace tracediff::model {

struct RankDetail {
  int rank = 0;
  std::size_t steps = 0;
  std::int64_t step_mean_ns = 0;
  std::int64_t gpu_busy_mean_ns = 0;
};

// How often one rank arrived last at the collectives it took part in (docs/reading-the-report.md "Which
// rank everyone waited on").
struct LastArrivals {
  std::uint64_t count = 0;  // collectives it arrived last at
  std::uint64_t of = 0;     // collectives it took part in, matched on another rank too
  double share = 0;         // count / of (0 without any)
};

// Collectives matched across one side's ranks (analysis/summarize/collectives.hpp).
struct CollectiveMatch {
  std::uint64_t matched = 0;        // collective instances seen on two ranks or more
  std::uint64_t by_seq = 0;         // of which matched by NCCL sequence number (the rest by kind and order)
  std::vector<std::int64_t> wait_ns;  // per step_details entry: its collectives' time waiting for the last arrival
  struct Rank {
    int rank = 0;
    LastArrivals last;
  };
  std::vector<Rank> ranks;          // selected ranks, ascending
};

// One rank of each side, paired by rank id (or by position when the sides' ranks differ).
struct RankRow {
  std::optional<int> control_rank, test_rank;
  std::size_t control_steps = 0, test_steps = 0;
  Comparison step_time, gpu_busy;  // per step, judged
  // Time per step its collective kernels waited for the last rank to arrive, judged;
  // and how often it was that last rank.
  Comparison wait;
  LastArrivals control_last, test_last;
  bool changed_most = false;
};

// The rank a side waited on: it arrived last at most collectives (at least half, and
// twice as often as any other rank).
struct Straggler {
  int rank = 0;
  LastArrivals last;
  double others_wait_ns = 0;                 // the other ranks' mean wait per step
  std::optional<double> others_wait_diff_ns; // its change from the other side's same ranks; nullopt when none
};

// Ranks side by side: which one changed most (by mean step time, among ranks whose
// change is significant).
struct RankComparison {
  std::int64_t control_spread_ns = 0, test_spread_ns = 0;  // max − min of rank step means
  std::optional<int> changed_most_control_rank, changed_most_test_rank;
  double changed_most_pct = 0;
  std::optional<Straggler> control_straggler, test_straggler;
  // One sentence per side that has a straggler, as every view prints it: "Test: rank 3
  // arrived last at 92 % of collectives; the others waited 4.1 ms per step for it (+3.9 ms
  // against Control's wait for its rank 3)".
  std::vector<std::string> straggler_lines;
  bool matched_by_seq = false;  // some collectives matched by NCCL sequence number
};

}  // namespace tracediff::model
