#include "analysis/perfetto/step_trace.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/summarize/step_assignment.hpp"

namespace tracediff::analysis {

std::optional<std::size_t> median_step(const model::SideSummary& side) {
  const auto& d = side.step_details;
  if (d.empty()) return std::nullopt;
  std::vector<std::size_t> order(d.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a].dur_ns < d[b].dur_ns; });
  return order[(order.size() - 1) / 2];
}

namespace {

// Rows by (category, name) on one side: the key, the full name and the test side's own
// name where names were matched across versions.
std::map<std::pair<std::string_view, std::string_view>, std::size_t> row_index(const model::DiffReport& r, bool test) {
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> m;
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    if (test && !row.test_name.empty()) m.try_emplace({row.category, row.test_name}, i);
    m.try_emplace({row.category, row.full_name}, i);
    m.try_emplace({row.category, row.name}, i);
  }
  return m;
}

std::string process_name(const model::SideSummary& side, int rank) {
  std::string label = side.label;
  if (!label.empty() && label[0] >= 'a' && label[0] <= 'z') label[0] = static_cast<char>(label[0] - 'a' + 'A');
  return label + " \xC2\xB7 rank " + std::to_string(rank);  // U+00B7
}

}  // namespace

std::optional<model::StepTraceSide> step_trace_side(const model::TraceFile& file, const model::DiffReport& report,
                                                    bool test, std::size_t step, const SummarizeOptions& summarize) {
  const auto& summary = test ? report.test : report.control;
  const auto& detail = summary.step_details.at(step);
  const detail::LaunchIndex launches(file);
  const auto steps = detail::assign_steps(file, launches, std::pmr::get_default_resource(), summarize.marker);
  // The step's critical path, as the comparison found it, by event.
  std::vector<std::pair<std::uint32_t, std::int64_t>> on_path;
  if (summarize.critical_path.enabled && !report.hta_compat) {
    auto so = summarize;
    so.call_tree = false;
    so.critical_path.auto_rows = 0;
    so.critical_path.what_if.clear();
    so.critical_path.path_events_step = summary.whole_trace ? model::k_whole_trace_step : detail.step;
    so.critical_path.path_events = &on_path;
    summarize_file(file, so);
  }
  const auto& ev = file.events;

  // Which events: those of the step (GPU work by its launch), or all in whole-trace mode.
  std::int32_t want = -1;
  std::int64_t begin = 0;
  if (!summary.whole_trace) {
    for (std::size_t k = 0; k < steps.steps.size(); ++k)
      if (steps.steps[k].step == detail.step) want = static_cast<std::int32_t>(k), begin = steps.steps[k].begin_ns;
    if (want < 0) return std::nullopt;
  }
  std::vector<std::uint32_t> chosen;
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (summary.whole_trace || steps.step_at[i] == want) chosen.push_back(static_cast<std::uint32_t>(i));
  if (chosen.empty() && summary.whole_trace) return std::nullopt;
  if (summary.whole_trace) {
    begin = ev[chosen.front()].ts_ns;
    for (auto i : chosen) begin = std::min(begin, ev[i].ts_ns);
  }

  model::StepTraceSide out;
  out.process = process_name(summary, file.rank);
  out.file = file.path;
  out.test = test;
  out.rank = file.rank;
  out.step = detail.step;
  out.whole_trace = summary.whole_trace;
  out.dur_ns = detail.dur_ns;
  // The bound keeps the longest events (ties in file order) within its count and bytes,
  // then file order again.
  const auto path_ns = [&](std::uint32_t i) -> std::int64_t {
    const auto p = std::lower_bound(on_path.begin(), on_path.end(), std::pair<std::uint32_t, std::int64_t>{i, INT64_MIN});
    return p != on_path.end() && p->first == i ? p->second : 0;
  };
  // An event on the critical path is written twice (its own thread, the path's track).
  const auto cost = [&](std::uint32_t i) {
    return (file.pool.get(ev[i].name).size() + file.pool.get(ev[i].category).size() + 300) * (path_ns(i) > 0 ? 2 : 1);
  };
  std::size_t bytes = 0;
  for (const auto i : chosen) bytes += cost(i);
  std::size_t copies = 0;  // the path's events, written again
  for (const auto i : chosen) copies += path_ns(i) > 0;
  if (chosen.size() + copies > k_step_trace_max_events || bytes > k_step_trace_max_bytes) {
    std::stable_sort(chosen.begin(), chosen.end(), [&](auto a, auto b) { return ev[a].dur_ns > ev[b].dur_ns; });
    std::size_t keep = 0;
    std::size_t written = 0;
    for (bytes = 0; keep < chosen.size(); ++keep) {
      const std::size_t n = path_ns(chosen[keep]) > 0 ? 2 : 1;
      if (written + n > k_step_trace_max_events || bytes + cost(chosen[keep]) > k_step_trace_max_bytes) break;
      bytes += cost(chosen[keep]);
      written += n;
    }
    out.left_out = chosen.size() - keep;
    chosen.resize(keep);
    std::sort(chosen.begin(), chosen.end());
  }

  const auto rows = row_index(report, test);
  std::map<std::size_t, std::int32_t> top;
  for (std::size_t k = 0; k < report.top_regressions.rows.size(); ++k)
    top.try_emplace(report.top_regressions.rows[k], static_cast<std::int32_t>(k));
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> threads;
  out.events.reserve(chosen.size());
  for (auto i : chosen) {
    const auto& e = ev[i];
    model::StepTraceEvent t;
    t.name = file.pool.get(e.name);
    t.category = file.pool.get(e.category);
    t.ts_ns = e.ts_ns - begin;
    t.dur_ns = e.dur_ns;
    t.gpu = model::is_gpu_work(e.kind);
    const auto [th, fresh] = threads.try_emplace({e.pid, e.tid}, static_cast<std::uint32_t>(out.threads.size()));
    if (fresh)
      out.threads.push_back("pid " + std::string(file.pool.get(e.pid)) + " \xC2\xB7 tid " + std::string(file.pool.get(e.tid)));
    t.thread = th->second;
    t.path_ns = path_ns(i);
    if (const auto r = rows.find({t.category, t.name}); r != rows.end()) {
      t.row = static_cast<std::int64_t>(r->second);
      if (const auto p = top.find(r->second); p != top.end()) t.top = p->second;
    }
    out.events.push_back(std::move(t));
  }
  return out;
}

void note_step_trace(model::DiffReport& report) {
  if (!report.step_trace) return;
  for (const auto& side : report.step_trace->sides) {
    if (!side.left_out) continue;
    const auto kept = side.events.size();
    report.notes.push_back("The Perfetto step file keeps the " + std::to_string(kept) + " longest of " +
                           std::to_string(kept + side.left_out) + " events of " + side.process + "'s " +
                           (side.whole_trace ? std::string("trace") : "step " + std::to_string(side.step)) +
                           " (its bound: " + std::to_string(k_step_trace_max_events) + " events and " +
                           std::to_string(k_step_trace_max_bytes >> 20) +
                           " MiB of names a side, so that it stays small enough to attach; docs/perfetto.md).");
  }
}

}  // namespace tracediff::analysis
