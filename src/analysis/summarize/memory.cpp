#include "analysis/summarize/memory.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace tracediff::analysis::detail {

void summarize_memory(const model::TraceFile& f, const std::vector<std::int64_t>& begin,
                      const std::vector<std::int64_t>& end, model::FileSummary& s) {
  const auto& m = f.memory;
  if (m.empty()) return;
  // By device, then time; events of one time keep their file order (an allocation and
  // its free in one microsecond).
  std::vector<std::uint32_t> order(m.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::tie(m[a].device_type, m[a].device_id, m[a].ts_ns) < std::tie(m[b].device_type, m[b].device_id, m[b].ts_ns);
  });
  std::vector<std::int64_t> ts(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) ts[i] = m[order[i]].ts_ns;
  for (std::size_t g0 = 0; g0 < order.size();) {
    const auto& first = m[order[g0]];
    std::size_t g1 = g0;
    while (g1 < order.size() && m[order[g1]].device_type == first.device_type && m[order[g1]].device_id == first.device_id)
      ++g1;
    for (std::uint32_t step = 0; step < begin.size(); ++step) {
      const auto lo = static_cast<std::size_t>(std::lower_bound(ts.begin() + static_cast<std::ptrdiff_t>(g0),
                                                                ts.begin() + static_cast<std::ptrdiff_t>(g1), begin[step]) -
                                               ts.begin());
      const auto hi = static_cast<std::size_t>(std::lower_bound(ts.begin() + static_cast<std::ptrdiff_t>(lo),
                                                                ts.begin() + static_cast<std::ptrdiff_t>(g1), end[step]) -
                                               ts.begin());
      model::MemoryStep out;
      out.step = step;
      out.device_type = first.device_type;
      out.device_id = first.device_id;
      // What the step began with: the totals after the device's last event before it.
      if (lo > g0) {
        out.peak_allocated = m[order[lo - 1]].total_allocated;
        out.peak_reserved = m[order[lo - 1]].total_reserved;
      }
      std::int64_t running = 0;
      for (std::size_t i = lo; i < hi; ++i) {
        const auto& e = m[order[i]];
        out.peak_allocated = std::max(out.peak_allocated, e.total_allocated);
        out.peak_reserved = std::max(out.peak_reserved, e.total_reserved);
        // Sizes are below 2^63 each; a hostile file's sum saturates instead of overflowing.
        if (__builtin_add_overflow(running, e.bytes, &running)) running = e.bytes > 0 ? INT64_MAX : INT64_MIN;
        out.peak_growth = std::max(out.peak_growth, running);
        if (e.bytes > 0) {
          ++out.allocations;
          if (__builtin_add_overflow(out.allocated_bytes, e.bytes, &out.allocated_bytes)) out.allocated_bytes = INT64_MAX;
        }
      }
      out.net_change = running;
      s.memory.push_back(out);
    }
    g0 = g1;
  }
}

void collect_memory(const model::SetSummary& set, const std::vector<std::pair<std::size_t, std::uint32_t>>& units,
                    model::SideSummary& side) {
  // Per file, each of its steps' unit (-1: not selected).
  std::vector<std::vector<std::int64_t>> unit_of(set.files.size());
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& [file, step] = units[u];
    if (set.files[file].memory.empty()) continue;
    auto& v = unit_of[file];
    if (v.empty()) v.assign(set.files[file].steps.size(), -1);
    if (step < v.size()) v[step] = static_cast<std::int64_t>(u);
  }
  for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
    if (unit_of[fi].empty()) continue;
    for (const auto& ms : set.files[fi].memory) {
      if (ms.step >= unit_of[fi].size() || unit_of[fi][ms.step] < 0) continue;
      auto out = ms;
      out.step = static_cast<std::uint32_t>(unit_of[fi][ms.step]);
      side.memory.push_back(out);
    }
  }
  std::sort(side.memory.begin(), side.memory.end(), [](const model::MemoryStep& a, const model::MemoryStep& b) {
    return std::tie(a.device_type, a.device_id, a.step) < std::tie(b.device_type, b.device_id, b.step);
  });
}

}  // namespace tracediff::analysis::detail
