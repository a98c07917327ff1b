#include "analysis/summarize/memory_events.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
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
  // Steps in time order, none overlapping the next (ProfilerStep's): a device's steps can
  // then be found from its events rather than by trying every step.
  bool ordered = true;
  for (std::size_t k = 1; k < begin.size() && ordered; ++k) ordered = end[k - 1] <= begin[k] && begin[k - 1] <= begin[k];
  std::vector<std::uint32_t> its_steps;
  for (std::size_t g0 = 0; g0 < order.size();) {
    const auto& first = m[order[g0]];
    std::size_t g1 = g0;
    while (g1 < order.size() && m[order[g1]].device_type == first.device_type && m[order[g1]].device_id == first.device_id)
      ++g1;
    const auto one_step = [&](std::uint32_t step) {
      const auto lo = static_cast<std::size_t>(std::lower_bound(ts.begin() + static_cast<std::ptrdiff_t>(g0),
                                                                ts.begin() + static_cast<std::ptrdiff_t>(g1), begin[step]) -
                                               ts.begin());
      const auto hi = static_cast<std::size_t>(std::lower_bound(ts.begin() + static_cast<std::ptrdiff_t>(lo),
                                                                ts.begin() + static_cast<std::ptrdiff_t>(g1), end[step]) -
                                               ts.begin());
      return std::pair{lo, hi};
    };
    // Memory steps stay within the events: a device with at least as many events as the
    // file has steps gets every step (those without its events carry its level, with
    // zero allocations), one with fewer (a stray allocation on a device of its own) only
    // the steps it has events in. 1,500 devices of one event over 1,500 steps made 2.25
    // million memory steps from 1,500 events.
    its_steps.clear();
    if (g1 - g0 >= begin.size()) {
      for (std::uint32_t step = 0; step < begin.size(); ++step) its_steps.push_back(step);
    } else if (ordered) {
      for (std::size_t i = g0; i < g1; ++i) {
        const auto k = std::upper_bound(begin.begin(), begin.end(), ts[i]) - begin.begin() - 1;
        if (k >= 0 && ts[i] < end[static_cast<std::size_t>(k)] && (its_steps.empty() || its_steps.back() != k))
          its_steps.push_back(static_cast<std::uint32_t>(k));
      }
    } else {
      for (std::uint32_t step = 0; step < begin.size(); ++step) {
        const auto [lo, hi] = one_step(step);
        if (lo < hi) its_steps.push_back(step);
      }
    }
    for (const auto step : its_steps) {
      const auto [lo, hi] = one_step(step);
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

namespace tracediff::analysis::detail {

std::vector<std::int64_t> free_times(const model::TraceFile& f) {
  const auto& m = f.memory;
  std::vector<std::int64_t> out(m.size(), -1);
  std::vector<std::uint32_t> order(m.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return m[a].ts_ns < m[b].ts_ns; });
  // (device, address) -> the allocation there not freed yet.
  std::unordered_map<std::uint64_t, std::uint32_t> open;
  const auto where = [](const model::MemoryEvent& e) {
    return (std::uint64_t(std::uint8_t(e.device_type)) << 56) ^ (std::uint64_t(std::uint16_t(e.device_id)) << 40) ^ e.addr;
  };
  for (const auto j : order) {
    const auto& e = m[j];
    if (e.addr == 0 || e.bytes == 0) continue;
    if (e.bytes > 0) {
      out[j] = INT64_MAX;
      open[where(e)] = j;  // an address allocated again without its free: the newer one holds it
    } else if (const auto it = open.find(where(e)); it != open.end()) {
      out[it->second] = e.ts_ns;
      open.erase(it);
    }
  }
  return out;
}

void summarize_memory_timeline(const model::TraceFile& f, const std::vector<std::int64_t>& begin,
                               const std::vector<std::int64_t>& end, const std::vector<std::uint32_t>& owner,
                               model::FileSummary& s) {
  const auto& m = f.memory;
  if (m.empty() || begin.empty()) return;
  // The median step by duration (the lower one of an even count; the first of equals).
  std::vector<std::uint32_t> by_dur(begin.size());
  std::iota(by_dur.begin(), by_dur.end(), 0u);
  std::stable_sort(by_dur.begin(), by_dur.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return end[a] - begin[a] < end[b] - begin[b]; });
  const auto step = by_dur[(by_dur.size() - 1) / 2];
  const auto b = begin[step], e = end[step];
  // The device: the GPU (any but the host's) with the most events in the step.
  std::map<std::pair<int, int>, std::size_t> seen;
  for (const auto& x : m)
    if (x.device_type != 0 && x.ts_ns >= b && x.ts_ns < e) ++seen[{x.device_type, x.device_id}];
  if (seen.empty()) return;
  auto device = seen.begin();
  for (auto it = seen.begin(); it != seen.end(); ++it)
    if (it->second > device->second) device = it;
  const auto [type, id] = device->first;
  std::vector<std::uint32_t> order;  // the device's events, by time then file order
  for (std::uint32_t j = 0; j < m.size(); ++j)
    if (m[j].device_type == type && m[j].device_id == id) order.push_back(j);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return m[x].ts_ns < m[y].ts_ns; });
  model::MemoryTimeline t;
  t.step = step;
  t.step_ns = e - b;
  t.device_type = type;
  t.device_id = id;
  const auto first = std::lower_bound(order.begin(), order.end(), b, [&](std::uint32_t j, std::int64_t v) { return m[j].ts_ns < v; });
  t.totals = std::all_of(first, order.end(), [&](std::uint32_t j) { return m[j].ts_ns >= e || m[j].total_allocated >= 0; });
  // What was allocated when the step began: the totals after the device's last event before it.
  std::int64_t value = t.totals && first != order.begin() ? m[*(first - 1)].total_allocated : 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> all{{0, value}};
  std::vector<std::uint32_t> at{~0u};  // each point's memory event
  for (auto it = first; it != order.end() && m[*it].ts_ns < e; ++it) {
    const auto& x = m[*it];
    if (t.totals) value = x.total_allocated;
    else if (__builtin_add_overflow(value, x.bytes, &value)) value = x.bytes > 0 ? INT64_MAX : INT64_MIN;
    all.push_back({x.ts_ns - b, value});
    at.push_back(*it);
  }
  std::size_t peak = 0;
  for (std::size_t k = 1; k < all.size(); ++k)
    if (all[k].second > all[peak].second) peak = k;
  t.peak_ns = all[peak].first;
  t.peak_bytes = all[peak].second;
  if (at[peak] != ~0u && at[peak] < owner.size() && owner[at[peak]] != ~0u)
    t.peak_op = std::string(f.pool.get(f.events[owner[at[peak]]].name));
  // At most k_timeline_points: the lowest and the highest point of each of half as many
  // runs of points, in time order, so that the peak and the troughs stay.
  if (all.size() <= model::k_timeline_points) {
    t.points = std::move(all);
  } else {
    const std::size_t runs = model::k_timeline_points / 2;
    for (std::size_t r = 0; r < runs; ++r) {
      const std::size_t lo = all.size() * r / runs, hi = all.size() * (r + 1) / runs;
      std::size_t low = lo, high = lo;
      for (std::size_t k = lo; k < hi; ++k) {
        if (all[k].second < all[low].second) low = k;
        if (all[k].second > all[high].second) high = k;
      }
      t.points.push_back(all[std::min(low, high)]);
      if (low != high) t.points.push_back(all[std::max(low, high)]);
    }
  }
  s.memory_timeline = std::move(t);
}

}  // namespace tracediff::analysis::detail
