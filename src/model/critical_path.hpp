#pragma once
// What bounded each step (docs/critical-path.md): the longest chain of dependent work in
// the step's graph (operators on their thread, launch to kernel, kernel to kernel on a
// stream, GPU to host at synchronisations), its length and its split by what bounds it,
// per file and step; the time each row's own work spends on it; and what-ifs (a row's
// work shortened, the path found again). Kept per file and step in the summary; the
// comparison's figures are in model/critical_path_report.hpp.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tracediff::model {

// HTA's bound types (its get_critical_path_breakdown's bound_by), and data loading.
enum class Bound : std::uint8_t {
  cpu,            // host operators' own time
  data_loading,   // host time inside the data loader (--data-load-pattern)
  gpu_compute,    // kernels, memcpy and memset
  gpu_comm,       // communication kernels
  launch,         // from a launch call's start to its kernel's start, the stream empty
  kernel_kernel,  // gaps between kernels on a stream
};
inline constexpr std::size_t k_bound_count = 6;
const char* bound_id(Bound b);     // "cpu_bound", "data_loading", "gpu_compute_bound", ...
const char* bound_label(Bound b);  // "CPU", "data loading", "GPU compute", ...

// One step's path: its length, the step's own duration bounds nothing here.
struct StepPath {
  bool recorded = false;  // false: no path (a summary without it, or no events in the step)
  std::int64_t length_ns = 0;
  std::array<std::int64_t, k_bound_count> bound_ns{};  // add up to length_ns
  std::uint64_t events = 0;  // events with time on the path
};

// One (key, step)'s own work on the path: the time of its edges there.
struct PathCell {
  std::uint32_t key = 0;   // index into FileSummary::keys
  std::uint32_t step = 0;  // index into FileSummary::steps
  std::int64_t ns = 0;
};

// A what-if asked of a file: the work it shortens and by how much.
struct WhatIf {
  std::string spec;       // as given ("aten::mm*0.8", "family:gemm*0.5", "launch*0"), or "" for a row's
  std::int32_t key = -1;  // the row's key (index into FileSummary::keys) when it is a row's
  double factor = 1;      // the work's new length over its old
};

// One (what-if, step)'s outcome: how much shorter the path became.
struct WhatIfCell {
  std::uint32_t what = 0;  // index into FileSummary::what_ifs
  std::uint32_t step = 0;
  std::int64_t saved_ns = 0;
};

}  // namespace tracediff::model
