#include "model/summary.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

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

WithRows::WithRows(const FileSummary& f) : m_file(&f) {
  if (!f.deferred) return;
  m_own = f.deferred->file(f);
  m_own->run = f.run;  // set when the side was put together, after the summary was read
  m_file = &*m_own;
}

namespace {

std::uint64_t add_durations(std::uint64_t total, std::int64_t v) {
  const auto n = static_cast<std::uint64_t>(std::max<std::int64_t>(v, 0));
  return n > k_max_durations - std::min(total, k_max_durations) ? k_max_durations : total + n;
}

// The durations of the rows defer_rows leaves in the summary.
std::uint64_t row_durations(const FileSummary& f) {
  std::uint64_t t = 0;
  for (const auto& c : f.cells) t = add_durations(add_durations(add_durations(t, c.total_ns), c.self_ns), c.wait_ns);
  for (const auto& c : f.tree_cells) t = add_durations(add_durations(t, c.total_ns), c.self_ns);
  return t;
}

}  // namespace

std::uint64_t duration_total(const FileSummary& f) {
  std::uint64_t t = f.deferred_ns;
  for (const auto& st : f.steps)
    for (const auto& field : k_step_fields) t = add_durations(t, st.detail.*field.field);
  for (const auto& l : f.launches) t = add_durations(t, l.total_ns);
  return add_durations(t, static_cast<std::int64_t>(std::min(row_durations(f), k_max_durations)));
}

void defer_rows(FileSummary& f, std::shared_ptr<const DeferredRows> source, std::uint32_t index) {
  f.deferred_ns = row_durations(f);
  f.deferred = std::move(source);
  f.deferred_index = index;
  // Swapped with empty ones: `= {}` would keep their capacity.
  const auto drop = [](auto& rows) { std::remove_reference_t<decltype(rows)>().swap(rows); };
  drop(f.cells);
  drop(f.tree_cells);
  drop(f.memory_cells);
  drop(f.tree_memory);
  drop(f.work_cells);
  drop(f.path_cells);
  drop(f.what_if_cells);
}

void undefer_rows(SetSummary& set) {
  for (auto& f : set.files) {
    if (!f.deferred) continue;
    auto whole = f.deferred->file(f);
    whole.run = f.run;
    f = std::move(whole);
  }
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
