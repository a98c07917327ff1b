#include "model/summary.hpp"

#include <algorithm>
#include <string>

namespace tracediff::model {

void shrink_to_fit(FileSummary& f) {
  f.gpu_names.shrink_to_fit();
  f.keys.shrink_to_fit();
  f.launchers.shrink_to_fit();
  f.launcher_shapes.shrink_to_fit();
  f.graph_launchers.shrink_to_fit();
  f.steps.shrink_to_fit();
  f.cells.shrink_to_fit();
  f.launches.shrink_to_fit();
  f.tree.shrink_to_fit();
  f.tree_cells.shrink_to_fit();
  f.collective_keys.shrink_to_fit();
  f.collectives.shrink_to_fit();
  f.memory.shrink_to_fit();
  f.memory_cells.shrink_to_fit();
  f.tree_memory.shrink_to_fit();
}

void bound_durations(FileSummary& f, std::uint64_t& total) {
  std::uint64_t clamped = 0;
  const auto bound = [&](std::int64_t& v) {
    v = std::max<std::int64_t>(v, 0);  // no path makes one negative; a negative must not wrap the total
    const auto n = static_cast<std::uint64_t>(v);
    const auto left = k_max_durations - total;
    if (n > left) {
      v = static_cast<std::int64_t>(left);
      ++clamped;
    }
    total += static_cast<std::uint64_t>(v);
  };
  for (auto& st : f.steps)
    for (const auto& field : k_step_fields) bound(st.detail.*field.field);
  for (auto& c : f.cells) {
    bound(c.total_ns);
    bound(c.self_ns);
    bound(c.wait_ns);
  }
  for (auto& l : f.launches) bound(l.total_ns);
  for (auto& c : f.tree_cells) {
    bound(c.total_ns);
    bound(c.self_ns);
  }
  if (clamped)
    f.diagnostics.report(DiagId::summary_durations_clamped, f.path, 0,
                         std::to_string(clamped) + " durations clamped: the side's durations add up past 2^61 ns",
                         clamped);
}

void bound_durations(SetSummary& set) {
  std::uint64_t total = 0;
  for (auto& f : set.files) bound_durations(f, total);
}

}  // namespace tracediff::model
