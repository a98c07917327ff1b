// --hta-compat: HTA 0.6's TraceDiff, quirks included (hta-tracediff-semantics.md §12).
// Every rule here is HTA's, not ours: stream-based CPU/GPU split, ts-containment in
// the last matching step of any thread, µs rounding of fractional traces in double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory_resource>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "analysis/compare/aggregate.hpp"
#include "analysis/compare/hta_events.hpp"
#include "analysis/compare/modes.hpp"
#include "analysis/names/short_name.hpp"
#include "util/arena.hpp"
#include "util/errors.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis {

std::optional<std::int64_t> hta_step_symbol(std::string_view name) {
  constexpr std::string_view prefix = "ProfilerStep#";
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  const auto rest = name.substr(prefix.size());
  if (rest.empty() || rest.size() > 18) return std::nullopt;
  std::int64_t n = 0;
  for (char c : rest) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

std::pmr::vector<HtaRow> hta_rows(const model::TraceFile& f, std::pmr::memory_resource* memory) {
  if (f.hta.size() != f.events.size()) throw std::logic_error(f.path + ": read without --hta-compat fields");
  const std::size_t n = f.events.size();
  std::pmr::vector<HtaRow> rows(n, memory);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& h = f.hta[i];
    if (f.hta_float_mode) {
      const double end = std::floor(h.ts + h.dur);  // ts + dur in double, before ts changes
      rows[i].ts = std::ceil(h.ts);
      rows[i].dur = end - rows[i].ts;
    } else {
      rows[i].ts = h.ts;
      rows[i].dur = h.dur;
    }
  }

  // Correlation links: last partner in file order wins on both sides.
  auto name_of = [&](std::size_t i) { return f.pool.get(f.events[i].name); };
  auto gpu_side = [&](std::size_t i) {
    const auto c = f.events[i].correlation;
    const auto s = f.hta[i].stream;
    return (s >= 0 && c >= 0) || name_of(i) == "Event Sync" || name_of(i) == "Context Sync";
  };
  std::unordered_map<std::int64_t, std::size_t> last_cpu, last_gpu;
  const auto linked = static_cast<std::size_t>(
      std::count_if(f.events.begin(), f.events.end(), [](const model::Event& e) { return e.correlation != -1; }));
  last_cpu.reserve(linked);  // no rehashing as they fill
  last_gpu.reserve(linked);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = f.events[i].correlation;
    if (c == -1) continue;
    (gpu_side(i) ? last_gpu : last_cpu)[c] = i;
  }

  // Steps: every kept row named ProfilerStep*, any category or thread.
  struct Step {
    double begin, end;
    std::int64_t n;
  };
  std::vector<Step> steps;
  for (std::size_t i = 0; i < n; ++i) {
    const auto nm = name_of(i);
    if (nm.substr(0, 12) != "ProfilerStep") continue;
    std::string_view rest = nm.substr(12);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty() || rest.front() != '#') continue;
    rest.remove_prefix(1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    std::int64_t num = 0;
    std::size_t d = 0;
    while (d < rest.size() && d < 18 && rest[d] >= '0' && rest[d] <= '9') num = num * 10 + (rest[d++] - '0');
    if (d == 0) continue;
    steps.push_back({rows[i].ts, rows[i].ts + rows[i].dur, num});
  }
  // Host-like rows first: GPU rows copy the iteration of their CPU partner. A row's
  // step is the LAST step in file order that contains its start: a sweep over the rows
  // by start with a heap of the open steps by file order, O((rows + steps) log steps)
  // (a search of every step for every row took hours on 100,000 steps).
  std::vector<std::size_t> host;
  for (std::size_t i = 0; i < n; ++i) {
    const auto s = f.hta[i].stream;
    const bool cpu_op = f.pool.get(f.events[i].category) == "cpu_op";
    if (s < 0 || (s == 0 && cpu_op)) host.push_back(i);
    else if (s == 0) rows[i].iteration = k_hta_nan_iteration;
  }
  std::stable_sort(host.begin(), host.end(), [&](auto a, auto b) { return rows[a].ts < rows[b].ts; });
  std::vector<std::size_t> by_begin(steps.size());
  std::iota(by_begin.begin(), by_begin.end(), std::size_t{0});
  std::stable_sort(by_begin.begin(), by_begin.end(), [&](auto a, auto b) { return steps[a].begin < steps[b].begin; });
  std::priority_queue<std::size_t> open;  // file order; a step whose end has passed is dropped when on top
  std::size_t next = 0;
  for (const auto i : host) {
    const double t = rows[i].ts;
    while (next < by_begin.size() && steps[by_begin[next]].begin <= t) open.push(by_begin[next++]);
    while (!open.empty() && !(t < steps[open.top()].end)) open.pop();  // rows come by start: gone for good
    rows[i].iteration = open.empty() ? -1 : steps[open.top()].n;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (f.hta[i].stream <= 0) continue;
    rows[i].iteration = -1;
    const auto c = f.events[i].correlation;
    if (c < 0 || !gpu_side(i)) continue;  // index_correlation stays -1 or 0: no link
    auto it = last_cpu.find(c);
    if (it == last_cpu.end() || f.hta[it->second].index == 0) continue;
    rows[i].iteration = rows[it->second].iteration;
  }
  return rows;
}

std::vector<std::int64_t> hta_iterations(const model::TraceSet& set) {
  std::set<std::int64_t> iterations;
  for (const auto& f : set.files)
    for (const auto& e : f.events)
      if (auto n = hta_step_symbol(f.pool.get(e.name))) iterations.insert(*n);
  return {iterations.begin(), iterations.end()};
}

namespace detail {

namespace {

constexpr std::int64_t k_nan = k_hta_nan_iteration;

std::vector<int> ranks_of(const model::TraceSet& set) {
  std::set<int> r;
  for (const auto& f : set.files) r.insert(f.rank);
  return {r.begin(), r.end()};
}

}  // namespace

model::DiffReport compare_hta(const model::TraceSet& control, const model::TraceSet& test,
                              const CompareOptions& options) {
  model::DiffReport report;
  report.hta_compat = true;
  const model::TraceSet* sets[2] = {&control, &test};
  const Selection* selections[2] = {&options.control, &options.test};
  model::SideSummary* summaries[2] = {&report.control, &report.test};
  SideTable tables[2], full_tables[2];

  for (int side = 0; side < 2; ++side) {
    const auto& set = *sets[side];
    auto& summary = *summaries[side];
    fill_summary(set, summary);
    summary.available_ranks = ranks_of(set);

    std::size_t events = 0;
    for (const auto& f : set.files) events += f.events.size();
    Arena arena(events * sizeof(HtaRow) + 4096);  // for the rows
    std::vector<std::pmr::vector<HtaRow>> rows;
    for (const auto& f : set.files) rows.push_back(hta_rows(f, arena.get()));
    const auto iterations = hta_iterations(set);
    summary.available_iterations = iterations;
    if (iterations.empty())
      throw Fatal(set.label + ": no ProfilerStep iteration; HTA cannot compare such traces "
                              "(run without --hta-compat to compare them whole)");

    const auto& sel = *selections[side];
    summary.ranks = sel.ranks       ? *sel.ranks
                    : sel.all_ranks ? summary.available_ranks
                                    : std::vector<int>{summary.available_ranks.front()};
    summary.iterations = sel.iterations       ? *sel.iterations
                         : sel.all_iterations ? summary.available_iterations
                                              : std::vector<std::int64_t>{*iterations.begin()};
    check_selection(set.label, summary);

    const std::set<int> rank_set(summary.ranks.begin(), summary.ranks.end());
    const std::set<std::int64_t> iter_set(summary.iterations.begin(), summary.iterations.end());
    for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
      const auto& f = set.files[fi];
      if (!rank_set.count(f.rank)) continue;
      // A rank listed twice counts twice in HTA (§4).
      const auto times = std::count(summary.ranks.begin(), summary.ranks.end(), f.rank);
      // Per name, its rows and step number, found once: later events of the name only
      // count (a row keeps the smallest full name and the first device, already set).
      struct NameRows {
        KeyStats* key = nullptr;
        KeyStats* full = nullptr;  // --short-names: the full name's row, for ops_diff
        std::optional<std::int64_t> step;
      };
      std::vector<NameRows> by_name(f.pool.size());
      for (std::size_t i = 0; i < f.events.size(); ++i) {
        const auto& r = rows[fi][i];
        if (r.iteration == k_nan || !iter_set.count(r.iteration)) continue;
        const auto stream = f.hta[i].stream;
        if (options.device == DeviceFilter::cpu && stream != -1) continue;
        if (options.device == DeviceFilter::gpu && stream == -1) continue;
        const auto& e = f.events[i];
        const auto device = stream == -1 ? model::Device::cpu : model::Device::gpu;
        const auto dur_ns = std::llround(r.dur * 1000.0);
        auto& nr = by_name[e.name];
        if (!nr.key) {
          const std::string full(f.pool.get(e.name));
          nr.key = &row_of(tables[side], "", options.short_names ? shorten_name(full) : full, full, device);
          if (options.short_names) nr.full = &row_of(full_tables[side], "", full, full, device);
          nr.step = hta_step_symbol(full);
        }
        for (long k = 0; k < times; ++k) {
          for (auto* row : {nr.key, nr.full}) {
            if (!row) continue;
            row->stats.count += 1;
            add_sat(row->stats.total_ns, dur_ns);
          }
          if (nr.step) summary.step_times.steps.push_back({f.rank, *nr.step, dur_ns});
        }
      }
    }
    summarize_steps(summary.step_times);
  }

  build_rows(tables[0], tables[1], /*hta_order=*/true, report);
  if (options.short_names) {
    // HTA's ops_diff ignores use_short_name (§5.1, Q19).
    model::DiffReport full;
    build_rows(full_tables[0], full_tables[1], true, full);
    report.ops_diff = std::move(full.ops_diff);
  }
  for (auto& row : report.rows) row.per_step_basis = false;
  for (const auto* set : {&control, &test}) {
    const auto& side = set == &control ? report.control.label : report.test.label;
    report.diagnostics.merge(set->diagnostics, side);
    for (const auto& f : set->files) report.diagnostics.merge(f.diagnostics, side);
  }
  finish_report(report, options);
  return report;
}

}  // namespace detail
}  // namespace tracediff::analysis
