#include "analysis/compare.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "analysis/aggregate.hpp"
#include "analysis/modes.hpp"
#include "analysis/short_name.hpp"
#include "analysis/steps.hpp"
#include "util/errors.hpp"

namespace tracediff::analysis {

namespace detail {

void fill_summary(const model::TraceSet& set, model::SideSummary& summary) {
  summary.label = set.label;
  summary.inputs = set.inputs;
  std::set<std::string> gpus;
  for (const auto& f : set.files) {
    summary.files.push_back({f.path, f.rank, f.rank_source, f.events.size(), f.json_bytes, f.truncated});
    gpus.insert(f.gpu_names.begin(), f.gpu_names.end());
  }
  summary.gpu_names.assign(gpus.begin(), gpus.end());
}

namespace {
template <class T>
std::string join(const std::vector<T>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}
}  // namespace

void check_selection(const std::string& label, const model::SideSummary& s) {
  for (int r : s.ranks)
    if (!std::binary_search(s.available_ranks.begin(), s.available_ranks.end(), r))
      throw UsageError(label + " has no rank " + std::to_string(r) + " (it has " +
                       join(s.available_ranks) + ")");
  for (auto i : s.iterations)
    if (!std::binary_search(s.available_iterations.begin(), s.available_iterations.end(), i))
      throw UsageError(label + " has no step " + std::to_string(i) +
                       (s.available_iterations.empty() ? std::string(" (it has no ProfilerStep)")
                                                       : " (it has " + join(s.available_iterations) + ")"));
}

model::DiffReport compare_default(const model::TraceSet& control, const model::TraceSet& test,
                                  const CompareOptions& options) {
  model::DiffReport report;
  const model::TraceSet* sets[2] = {&control, &test};
  const Selection* selections[2] = {&options.control, &options.test};
  model::SideSummary* summaries[2] = {&report.control, &report.test};
  SideTable tables[2];

  for (int side = 0; side < 2; ++side) {
    const auto& set = *sets[side];
    auto& summary = *summaries[side];
    fill_summary(set, summary);

    std::vector<FileSteps> file_steps;
    std::set<int> ranks;
    std::set<std::int64_t> iterations;
    for (const auto& f : set.files) {
      file_steps.push_back(assign_steps(f));
      ranks.insert(f.rank);
      for (const auto& w : file_steps.back().host_steps) iterations.insert(w.step);
    }
    summary.available_ranks.assign(ranks.begin(), ranks.end());
    summary.available_iterations.assign(iterations.begin(), iterations.end());
    summary.whole_trace = iterations.empty();
    const auto& sel = *selections[side];
    summary.ranks = sel.ranks ? *sel.ranks : summary.available_ranks;
    summary.iterations = sel.iterations ? *sel.iterations : summary.available_iterations;
    check_selection(set.label, summary);
    if (summary.whole_trace)
      report.notes.push_back(set.label + " has no ProfilerStep: its traces are compared whole.");

    const std::set<int> rank_set(summary.ranks.begin(), summary.ranks.end());
    const std::set<std::int64_t> iter_set(summary.iterations.begin(), summary.iterations.end());
    for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
      const auto& f = set.files[fi];
      if (!rank_set.count(f.rank)) continue;
      const auto& fs = file_steps[fi];
      for (const auto& w : fs.host_steps)
        if (iter_set.count(w.step))
          summary.step_times.steps.push_back({f.rank, w.step, w.end_ns - w.begin_ns});

      // Aggregate by (category id, name id) first: no string work per event.
      struct Acc {
        model::SideStats stats;
        model::Device device;
      };
      std::unordered_map<std::uint64_t, Acc> acc;
      std::uint64_t outside = 0;
      for (std::size_t i = 0; i < f.events.size(); ++i) {
        const auto& e = f.events[i];
        const auto it = fs.iteration[i];
        if (!summary.whole_trace && !iter_set.count(it)) {
          if (it == k_no_step && model::device_of(e.kind) == model::Device::cpu) ++outside;
          continue;
        }
        const auto device = model::device_of(e.kind);
        if (options.device == DeviceFilter::cpu && device != model::Device::cpu) continue;
        if (options.device == DeviceFilter::gpu && device != model::Device::gpu) continue;
        // Step spans are step times, reported apart (HTA quirk Q1).
        if ((e.kind == model::Kind::user_annotation || e.kind == model::Kind::cpu_op ||
             e.kind == model::Kind::gpu_user_annotation) &&
            profiler_step_number(f.pool.get(e.name)))
          continue;
        auto& a = acc[(static_cast<std::uint64_t>(e.category) << 32) | e.name];
        a.device = device;
        a.stats.count += 1;
        a.stats.total_ns += e.dur_ns;
      }
      if (outside)
        report.diagnostics.report(model::DiagId::event_outside_steps, f.path, 0,
                                  std::to_string(outside) + " host events outside every ProfilerStep");
      if (fs.gpu_unlinked)
        report.diagnostics.report(model::DiagId::event_gpu_unlinked, f.path, 0,
                                  std::to_string(fs.gpu_unlinked) + " GPU events without their launch");
      for (const auto& [key, a] : acc) {
        const std::string category(f.pool.get(static_cast<std::uint32_t>(key >> 32)));
        const std::string full(f.pool.get(static_cast<std::uint32_t>(key & 0xffffffffu)));
        const std::string name = options.short_names ? shorten_name(full) : full;
        auto [t, inserted] = tables[side].try_emplace({category, name});
        auto& k = t->second;
        if (inserted || full < k.full_name) k.full_name = full;
        k.device = a.device;
        k.stats.count += a.stats.count;
        k.stats.total_ns += a.stats.total_ns;
      }
    }
    summarize_steps(summary.step_times);
  }
  build_rows(tables[0], tables[1], /*hta_order=*/false, report);
  return report;
}

}  // namespace detail

model::DiffReport compare_traces(const model::TraceSet& control, const model::TraceSet& test,
                                 const CompareOptions& options) {
  auto report = options.hta_compat ? detail::compare_hta(control, test, options)
                                   : detail::compare_default(control, test, options);
  report.device_filter = options.device == DeviceFilter::cpu   ? "cpu"
                         : options.device == DeviceFilter::gpu ? "gpu"
                                                               : "all";
  report.short_names = options.short_names;
  report.diagnostics.merge(control.diagnostics);
  report.diagnostics.merge(test.diagnostics);
  for (const auto* set : {&control, &test})
    for (const auto& f : set->files) report.diagnostics.merge(f.diagnostics);
  for (auto& row : report.rows) {
    auto& total = row.device == model::Device::gpu ? report.control.gpu_total
                                                   : report.control.cpu_total;
    auto& ttotal = row.device == model::Device::gpu ? report.test.gpu_total : report.test.cpu_total;
    if (row.device == model::Device::other) continue;
    total.count += row.control.count;
    total.total_ns += row.control.total_ns;
    ttotal.count += row.test.count;
    ttotal.total_ns += row.test.total_ns;
  }
  return report;
}

}  // namespace tracediff::analysis
