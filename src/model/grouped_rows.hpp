#pragma once
// GPU time grouped from the rows: by the host event that launched it (LauncherRow) and by
// kernel family (FamilyRow). Part of the report (model/report.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/diff_row.hpp"
#include "model/figure.hpp"

namespace tracediff::model {

// Kernel families a view lists (DiffReport::families_shown): every significant one, and
// others until this many are listed. The JSON's families has them all.
inline constexpr std::size_t k_families_shown = 5;

// GPU time by the host event that launched it (through the correlation id of the
// runtime call, then the cpu_op around that call on its thread at --launcher's level,
// else the innermost annotation or Python frame around it).
struct LauncherRow {
  std::string launcher;  // CPU operator name; "(unknown)" when the launch has no enclosing op
  std::string label;     // as views show it
  bool graph_replay = false;  // some of its GPU work was replayed from a CUDA/HIP graph it launched
  Comparison time;       // GPU time per step, judged
  std::int64_t control_ns = 0, test_ns = 0;
  struct Kernel {
    std::string name;
    std::string label;
    std::int64_t control_ns = 0, test_ns = 0;
    Comparison time;  // per step, judged
  };
  std::vector<Kernel> kernels;  // by |Δ| descending, then name
};

// GPU time by kernel family (analysis/names/kernel_families.cpp): what a comparison across vendors or
// library versions can match when kernel names differ ("GEMM +3.2 ms per step").
struct FamilyRow {
  std::string id, label;     // "gemm", "GEMM" (analysis::family_name, family_label)
  Comparison time;           // GPU time per step, judged from the per-unit sums of its rows' samples
  std::size_t kernels = 0;   // distinct names (rows) in the family, both sides together
  std::vector<std::size_t> rows;  // its rows (indices into DiffReport::rows), by |Δ per step| descending
  DiffRow::Work work;             // Inductor's figures over its rows that have them
};

}  // namespace tracediff::model
