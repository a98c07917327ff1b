// The default mode: per-step, noise-aware comparison of two sets of file summaries
// (collect each side into per-key samples; make, judge and order the rows; analysis/
// compare.cpp then hands the report to decide/). One thing: the comparison of the two
// sides' cells.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <future>
#include <map>
#include <numeric>
#include <set>
#include <string_view>

#include "analysis/compare/accounting.hpp"
#include "analysis/call_tree/call_tree.hpp"
#include "analysis/summarize/collectives.hpp"
#include "analysis/summarize/memory_events.hpp"
#include "analysis/names/blocking.hpp"
#include "analysis/names/kernel_families.hpp"
#include "analysis/names/flops.hpp"
#include "analysis/compare/modes.hpp"
#include "analysis/names/name_match.hpp"
#include "analysis/noise/noise.hpp"
#include "analysis/names/short_name.hpp"
#include "util/errors.hpp"
#include "util/move_into_order.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis {

namespace {

// (category, name or short name): views of the summaries' strings (or of SideData::short_names),
// which outlive the comparison; copies of every name were allocations and page faults on the
// report's critical path.
using Key = std::pair<std::string_view, std::string_view>;

// What one side contributes to one row.
struct SideAgg {
  model::SideStats stats;
  model::Device device = model::Device::cpu;
  std::string_view full_name;
  std::string_view renamed_from;  // the test side's own name, when paired with another
  const char* matched_by = nullptr;
  model::Samples per_unit;  // total ns in each step unit it occurs in, for the noise test
  std::string_view shape;   // --by-shape: the key's input shapes
  std::optional<double> flops;  // --by-shape: FLOPs per call (analysis/names/flops.hpp)
  // Device allocations (model::MemoryCell), summed; self bytes in each step unit.
  std::int64_t alloc_self_bytes = 0, alloc_bytes = 0, held_bytes = 0;
  std::uint64_t alloc_self_count = 0, alloc_count = 0;
  model::Samples alloc_per_unit;
  model::Samples path_per_unit;     // its own work on the critical path (model::PathCell)
  std::vector<double> saved_ns;     // what-if: the path saved in each unit it was computed in
  double what_if_factor = 1;
  // Inductor's figures (model::WorkCell), summed over the selected steps.
  std::int64_t flop = 0, flop_ns = 0, bytes = 0, bytes_ns = 0;
  bool on_launch_thread = false;  // some of its events ran on a thread that launches GPU work
};

struct SideData {
  std::map<Key, SideAgg> rows;
  // launcher -> key -> GPU ns in each step unit
  std::map<std::string_view, std::map<Key, model::Samples>> launches;
  std::set<std::string_view> graph_launchers;  // launchers that replayed graphs
  std::deque<std::string> short_names;  // what --short-names and --by-shape keys view (a deque: they stay put)
  // --by-shape: GPU ns launched by each operator (by name and shapes), whatever --device
  // keeps: what an operator's TFLOP/s is against.
  std::map<std::string_view, double> launched_ns;
  std::size_t units = 0;
  bool memory = false;  // a selected file has [memory] events
  detail::SideTree tree;
};

struct Unit {
  std::size_t file;
  std::uint32_t step;
};

bool keep_key(const model::SummaryKey& k, model::Device device, const CompareOptions& options) {
  const bool keep = options.device == DeviceFilter::all ||
                    (options.device == DeviceFilter::cpu && device == model::Device::cpu) ||
                    (options.device == DeviceFilter::gpu && device == model::Device::gpu);
  if (!keep) return false;
  // --categories picks the host categories that count as operators.
  if (device == model::Device::cpu && options.categories)
    return std::find(options.categories->begin(), options.categories->end(), k.category) != options.categories->end();
  return true;
}

// Every selected step of every selected file (one per file when whole), in (rank,
// step) order. A file's first step far outside its others is warm-up: left out
// (and reported) unless the steps were chosen by hand or --keep-warmup.
std::vector<Unit> step_units(const model::SetSummary& set, const std::set<int>& ranks,
                             const std::set<std::int64_t>& iterations, bool any_steps, bool detect_warmup,
                             model::SideSummary& summary, std::set<std::pair<std::size_t, std::uint32_t>>& warm) {
  std::vector<Unit> units;
  for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
    const auto& f = set.files[fi];
    if (!ranks.count(f.rank) || f.has_steps != any_steps) continue;
    std::vector<Unit> mine;
    for (std::uint32_t si = 0; si < f.steps.size(); ++si)
      if (!any_steps || iterations.count(f.steps[si].step)) mine.push_back({fi, si});
    std::sort(mine.begin(), mine.end(), [&](const Unit& a, const Unit& b) { return f.steps[a.step].step < f.steps[b.step].step; });
    if (detect_warmup && any_steps) {
      std::vector<double> durations, unlaunched;
      for (const auto& u : mine) {
        durations.push_back(static_cast<double>(f.steps[u.step].detail.dur_ns));
        unlaunched.push_back(static_cast<double>(f.steps[u.step].detail.unlaunched_ns));
      }
      const bool backlog = !is_warmup(durations) && is_backlog(unlaunched, durations);
      if (is_warmup(durations) || backlog) {
        summary.warmup_backlog.push_back(backlog);
        auto d = f.steps[mine.front().step].detail;
        d.rank = f.rank;
        d.step = f.steps[mine.front().step].step;
        summary.warmup.push_back(d);
        warm.insert({fi, mine.front().step});
        mine.erase(mine.begin());
      }
    }
    units.insert(units.end(), mine.begin(), mine.end());
  }
  std::stable_sort(units.begin(), units.end(), [&](const Unit& a, const Unit& b) {
    const auto& fa = set.files[a.file];
    const auto& fb = set.files[b.file];
    if (fa.rank != fb.rank) return fa.rank < fb.rank;
    return fa.steps[a.step].step < fb.steps[b.step].step;
  });
  return units;
}

// The value at fraction q of `sorted` (linear between neighbours).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (at - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

// Several runs: each run's files, steps and step time, and the run of each unit; the
// spread of the step time between the runs and within them.
void describe_runs(const model::SetSummary& set, const std::vector<Unit>& units, model::SideSummary& summary) {
  if (set.runs.size() < 2) return;
  summary.runs.resize(set.runs.size());
  std::vector<std::set<std::string>> gpus(set.runs.size());
  for (std::size_t r = 0; r < set.runs.size(); ++r) summary.runs[r].inputs = set.runs[r];
  for (const auto& f : set.files) {
    if (f.run >= summary.runs.size()) continue;
    ++summary.runs[f.run].files;
    gpus[f.run].insert(f.gpu_names.begin(), f.gpu_names.end());
  }
  std::vector<std::vector<double>> steps(set.runs.size());
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto run = set.files[units[u].file].run;
    summary.unit_runs.push_back(run);
    if (run < steps.size()) steps[run].push_back(static_cast<double>(summary.step_details[u].dur_ns));
  }
  std::vector<double> medians, spreads;
  for (std::size_t r = 0; r < set.runs.size(); ++r) {
    auto& info = summary.runs[r];
    info.gpu_names.assign(gpus[r].begin(), gpus[r].end());
    auto& s = steps[r];
    info.units = s.size();
    if (s.empty()) continue;
    std::sort(s.begin(), s.end());
    info.step_median_ns = std::llround(quantile(s, 0.5));
    info.step_p25_ns = std::llround(quantile(s, 0.25));
    info.step_p75_ns = std::llround(quantile(s, 0.75));
    medians.push_back(quantile(s, 0.5));
    if (info.step_median_ns > 0) spreads.push_back(100.0 * static_cast<double>(info.step_p75_ns - info.step_p25_ns) /
                                                   static_cast<double>(info.step_median_ns));
  }
  // A run left without files (all of them given before, in another run: read once) is no run.
  std::vector<std::uint32_t> renumber(summary.runs.size(), 0);
  std::vector<model::RunInfo> kept;
  for (std::size_t r = 0; r < summary.runs.size(); ++r) {
    renumber[r] = static_cast<std::uint32_t>(kept.size());
    if (summary.runs[r].files > 0) kept.push_back(std::move(summary.runs[r]));
  }
  summary.runs = std::move(kept);
  for (auto& run : summary.unit_runs) run = renumber[run];
  if (summary.runs.size() < 2) {
    summary.runs.clear();
    summary.unit_runs.clear();
    return;
  }
  std::sort(medians.begin(), medians.end());
  std::sort(spreads.begin(), spreads.end());
  if (medians.size() >= 2 && quantile(medians, 0.5) > 0)
    summary.between_run_spread_pct = 100.0 * (quantile(medians, 0.75) - quantile(medians, 0.25)) / quantile(medians, 0.5);
  if (!spreads.empty()) summary.within_run_spread_pct = quantile(spreads, 0.5);
}

// The side's memory timeline: of its files' median steps that are selected, the one
// whose duration is nearest the side's median step time (the first file's on a tie).
void pick_timeline(const model::SetSummary& set, const std::vector<Unit>& units, model::SideSummary& summary) {
  const model::MemoryTimeline* best = nullptr;
  std::size_t best_unit = 0;
  std::int64_t best_off = INT64_MAX;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& t = set.files[units[u].file].memory_timeline;
    if (!t || t->step != units[u].step) continue;
    const auto off = std::llabs(t->step_ns - summary.step_times.median_ns);
    if (off < best_off) best = &*t, best_unit = u, best_off = off;
  }
  if (!best) return;
  summary.memory_timeline = *best;
  summary.memory_timeline->step = static_cast<std::uint32_t>(best_unit);
}

// What a side's selected files ran on: GPU models and counts, world sizes, CUDA
// versions, graphs, compiled regions.
void describe_side(const model::SetSummary& set, const std::set<int>& ranks, model::SideMeta& meta) {
  std::map<std::string, std::size_t> gpus;  // model -> most devices of it in one file
  std::set<int> world;
  std::set<std::int64_t> runtime, driver;
  std::set<int> active;
  std::set<std::string> levels;
  for (const auto& f : set.files) {
    if (!ranks.count(f.rank)) continue;
    std::map<std::string, std::size_t> here;
    for (const auto& g : f.gpu_names) ++here[g];
    for (const auto& [g, n] : here) gpus[g] = std::max(gpus[g], n);
    if (f.world_size) world.insert(*f.world_size);
    if (f.cuda_runtime_version) runtime.insert(*f.cuda_runtime_version);
    if (f.cuda_driver_version) driver.insert(*f.cuda_driver_version);
    active.insert(f.gpus_with_work);
    meta.cuda_graphs = meta.cuda_graphs || f.cuda_graphs;
    meta.compiled = meta.compiled || f.compiled;
    if (!f.launcher_level.empty()) levels.insert(f.launcher_level);
  }
  for (const auto& [g, n] : gpus) meta.gpus.push_back(n > 1 ? g + " \xC3\x97 " + std::to_string(n) : g);
  meta.world_sizes.assign(world.begin(), world.end());
  meta.cuda_runtime.assign(runtime.begin(), runtime.end());
  meta.cuda_driver.assign(driver.begin(), driver.end());
  meta.gpus_with_work.assign(active.begin(), active.end());
  meta.launcher_levels.assign(levels.begin(), levels.end());
}

SideData collect(const model::SetSummary& set, const Selection& sel, const CompareOptions& options,
                 const Renames& renames, model::SideSummary& summary) {
  SideData data;
  summary.label = set.label;
  summary.inputs = set.inputs;
  std::set<std::string> gpus;
  std::set<int> ranks;
  std::set<std::int64_t> iterations;
  bool any_steps = false;
  for (const auto& f : set.files) {
    summary.files.push_back({f.path, f.rank, f.rank_source, f.events, f.json_bytes, f.truncated, {}});
    gpus.insert(f.gpu_names.begin(), f.gpu_names.end());
    ranks.insert(f.rank);
    if (f.has_steps) {
      any_steps = true;
      for (const auto& st : f.steps) iterations.insert(st.step);
    }
  }
  summary.gpu_names.assign(gpus.begin(), gpus.end());
  summary.available_ranks.assign(ranks.begin(), ranks.end());
  summary.available_iterations.assign(iterations.begin(), iterations.end());
  summary.whole_trace = !any_steps;
  summary.ranks = sel.ranks ? *sel.ranks : summary.available_ranks;
  summary.iterations = sel.iterations ? *sel.iterations : summary.available_iterations;
  detail::check_selection(set.label, summary);
  const std::set<int> rank_set(summary.ranks.begin(), summary.ranks.end());
  const std::set<std::int64_t> iter_set(summary.iterations.begin(), summary.iterations.end());
  describe_side(set, rank_set, summary.meta);
  std::vector<std::string> unmarked;
  for (const auto& f : set.files) {
    if (!rank_set.count(f.rank)) continue;
    if (f.step_marker_shape == model::StepMarkerShape::none) {
      if (f.has_steps) unmarked.push_back(f.path);
      continue;
    }
    const bool spans = f.step_marker_shape == model::StepMarkerShape::spans;
    auto it = std::find_if(summary.step_markers.begin(), summary.step_markers.end(),
                           [&](const auto& m) { return m.pattern == f.step_marker && m.spans == spans; });
    if (it == summary.step_markers.end()) it = summary.step_markers.insert(it, {f.step_marker, spans, 0, 0, 0, {}});
    it->files += 1;
    add_sat(it->matches, f.step_marker_matches);
    it->steps += f.steps.size();
    it->paths.push_back(f.path);
  }
  if (!summary.step_markers.empty()) summary.unmarked_files = std::move(unmarked);
  if (!any_steps) {  // the step marker most of the side's files suggest
    std::map<std::string, std::size_t> votes;
    for (const auto& f : set.files)
      if (rank_set.count(f.rank) && !f.marker_hint.empty()) ++votes[f.marker_hint];
    std::size_t most = 0;
    for (const auto& [pattern, n] : votes)
      if (n > most) most = n, summary.marker_hint = pattern;
    for (const auto& f : set.files)
      if (!summary.marker_hint.empty() && f.marker_hint == summary.marker_hint) {
        summary.marker_hint_name = f.marker_hint_name;
        summary.marker_hint_count = f.marker_hint_count;
        break;
      }
  }

  std::set<std::pair<std::size_t, std::uint32_t>> warm;
  const auto units = step_units(set, rank_set, iter_set, any_steps, !sel.iterations && !options.keep_warmup, summary, warm);
  data.units = units.size();
  summary.units = units.size();
  data.tree = detail::SideTree(units.size());

  std::map<std::pair<std::size_t, std::uint32_t>, std::size_t> unit_of;
  for (std::size_t u = 0; u < units.size(); ++u) unit_of[{units[u].file, units[u].step}] = u;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& f = set.files[units[u].file];
    auto d = f.steps[units[u].step].detail;
    d.rank = f.rank;
    d.step = f.steps[units[u].step].step;
    summary.step_details.push_back(d);
    summary.step_paths.push_back(f.steps[units[u].step].path);
    summary.step_times.steps.push_back({d.rank, d.step, d.dur_ns});
  }
  detail::summarize_steps(summary.step_times);
  describe_runs(set, units, summary);
  {
    std::vector<std::pair<std::size_t, std::uint32_t>> file_steps;
    for (const auto& u : units) file_steps.emplace_back(u.file, u.step);
    detail::match_collectives(set, file_steps, summary);
    detail::collect_memory(set, file_steps, summary);
  }

  // Each file's rows once (a summary read part by part decodes them here, a file at a
  // time): its accounting, then, when its rank and steps are compared, its rows.
  const auto kept = [&](const model::SummaryKey& k) { return keep_key(k, model::device_of(k.kind), options); };
  model::Accounting accounting;
  for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
    // `h` names (its keys and launchers live as long as the comparison: rows and tree
    // nodes view them); `f` has the rows, which may be the file decoded again.
    const auto& h = set.files[fi];
    const model::WithRows whole(h);
    const auto& f = *whole;
    // Each step's unit, -1 where it is not compared.
    std::vector<std::int64_t> unit_of_step(f.steps.size(), -1);
    for (auto u = unit_of.lower_bound({fi, 0}); u != unit_of.end() && u->first.first == fi; ++u)
      if (u->first.second < unit_of_step.size()) unit_of_step[u->first.second] = static_cast<std::int64_t>(u->second);
    const auto unit_at = [&](std::uint32_t step) { return step < unit_of_step.size() ? unit_of_step[step] : -1; };
    {
      auto a = detail::account_file(f, fi, [&](std::size_t, std::uint32_t step) { return unit_at(step) >= 0; }, warm, kept);
      accounting += a;
      if (fi < summary.files.size()) summary.files[fi].accounting = std::move(a);
    }
    if (!rank_set.count(f.rank) || f.has_steps != any_steps) continue;
    // Row keys of this file's keys, resolved once (short names are not cheap).
    std::vector<const Key*> key_of;
    std::vector<SideAgg*> agg_of;
    std::vector<std::string_view> tree_names;  // per key: the name it is matched by
    for (const auto& k : h.keys) {
      const model::Device device = model::device_of(k.kind);
      const Rename* r = renames.find(k.category, k.name);
      std::string_view category = r ? std::string_view(r->category) : std::string_view(k.category);
      std::string_view full = r ? std::string_view(r->to) : std::string_view(k.name);
      // --by-shape: an operator's rows and tree nodes by name and input shapes.
      const bool shaped = options.by_shape && !k.shape.empty();
      if (shaped) full = data.short_names.emplace_back(model::shaped_name(full, k.shape));
      tree_names.push_back(full);
      if (!keep_key(k, device, options)) {
        key_of.push_back(nullptr);
        agg_of.push_back(nullptr);
        continue;
      }
      std::string_view name = full;
      if (options.short_names)
        name = shaped ? data.short_names.emplace_back(
                            model::shaped_name(shorten_name(r ? std::string_view(r->to) : std::string_view(k.name)), k.shape))
                      : data.short_names.emplace_back(shorten_name(full));
      const Key key{category, name};
      auto [it, inserted] = data.rows.try_emplace(key);
      auto& a = it->second;
      if (inserted) {
        a.device = device;
        a.full_name = full;
        a.per_unit.set_units(units.size());
        if (shaped) {
          a.shape = k.shape;
          a.flops = flops_per_call(k.name, k.shape);
        }
      } else if (full < a.full_name) {
        a.full_name = full;
      }
      if (r && (a.renamed_from.empty() || k.name < a.renamed_from)) {
        a.renamed_from = k.name;
        a.matched_by = match_reason_name(r->reason);
      }
      key_of.push_back(&it->first);
      agg_of.push_back(&a);
      const auto k_index = static_cast<std::uint32_t>(key_of.size() - 1);
      if (!std::binary_search(f.off_launch_keys.begin(), f.off_launch_keys.end(), k_index)) a.on_launch_thread = true;
    }
    for (const auto& c : f.cells) {
      auto* a = agg_of[c.key];
      if (!a) continue;
      const auto u = unit_at(c.step);
      if (u < 0) continue;
      add_sat(a->stats.count, c.count);
      add_sat(a->stats.total_ns, c.total_ns);
      add_sat(a->stats.self_ns, c.self_ns);
      add_sat(a->stats.wait_ns, c.wait_ns);
      a->stats.nested += c.nested;
      a->per_unit.add(static_cast<std::uint32_t>(u), static_cast<double>(c.total_ns));
    }
    data.memory |= !f.memory.empty();
    for (const auto& c : f.memory_cells) {
      auto* a = c.key < agg_of.size() ? agg_of[c.key] : nullptr;
      if (!a) continue;
      const auto u = unit_at(c.step);
      if (u < 0) continue;
      add_sat(a->alloc_self_bytes, c.self_bytes);
      add_sat(a->alloc_bytes, c.bytes);
      add_sat(a->held_bytes, c.held_bytes);
      add_sat(a->alloc_self_count, c.self_count);
      add_sat(a->alloc_count, c.count);
      if (c.self_bytes) {
        a->alloc_per_unit.set_units(units.size());
        a->alloc_per_unit.add(static_cast<std::uint32_t>(u), static_cast<double>(c.self_bytes));
      }
    }
    for (const auto& c : f.path_cells) {
      auto* a = c.key < agg_of.size() ? agg_of[c.key] : nullptr;
      const auto u = unit_at(c.step);
      if (!a || u < 0) continue;
      a->path_per_unit.set_units(units.size());
      a->path_per_unit.add(static_cast<std::uint32_t>(u), static_cast<double>(c.ns));
    }
    for (const auto& c : f.what_if_cells) {
      const auto& what = f.what_ifs[c.what];
      const auto u = unit_at(c.step);
      if (u < 0) continue;
      if (what.key >= 0) {
        auto* a = static_cast<std::size_t>(what.key) < agg_of.size() ? agg_of[static_cast<std::size_t>(what.key)] : nullptr;
        if (!a) continue;
        a->saved_ns.push_back(static_cast<double>(c.saved_ns));
        a->what_if_factor = what.factor;
      } else {
        auto it = std::find_if(summary.what_ifs.begin(), summary.what_ifs.end(),
                               [&](const auto& w) { return w.spec == what.spec; });
        if (it == summary.what_ifs.end()) it = summary.what_ifs.insert(it, {what.spec, what.factor, {}});
        it->saved_ns.push_back(static_cast<double>(c.saved_ns));
      }
    }
    for (const auto& c : f.work_cells) {
      auto* a = c.key < agg_of.size() ? agg_of[c.key] : nullptr;
      if (!a || unit_at(c.step) < 0) continue;
      add_sat(a->flop, c.flop);
      add_sat(a->flop_ns, c.flop_ns);
      add_sat(a->bytes, c.bytes);
      add_sat(a->bytes_ns, c.bytes_ns);
    }
    // --by-shape: launchers by name and shapes, as the operators' rows are keyed.
    const bool shaped_launchers = options.by_shape && h.launcher_shapes.size() == h.launchers.size();
    std::vector<std::string_view> shaped_launcher(shaped_launchers ? h.launchers.size() : 0);
    for (const auto& l : f.launches) {
      const auto u = unit_at(l.step);
      if (u < 0) continue;
      std::string_view who = h.launchers[l.launcher];
      if (const Rename* r = renames.find_host(who)) who = r->to;
      if (shaped_launchers && !h.launcher_shapes[l.launcher].empty()) {
        auto& s = shaped_launcher[l.launcher];
        if (s.empty()) s = data.short_names.emplace_back(model::shaped_name(who, h.launcher_shapes[l.launcher]));
        who = s;
      }
      if (options.by_shape) data.launched_ns[who] += static_cast<double>(l.total_ns);
      if (!key_of[l.key]) continue;
      if (std::binary_search(f.graph_launchers.begin(), f.graph_launchers.end(), l.launcher))
        data.graph_launchers.insert(who);
      auto& per_unit = data.launches[who][*key_of[l.key]];
      per_unit.set_units(units.size());
      per_unit.add(static_cast<std::uint32_t>(u), static_cast<double>(l.total_ns));
    }
    data.tree.add_file(f, h.keys, unit_of_step, options.device != DeviceFilter::cpu,
                       renames.empty() && !options.by_shape ? nullptr : &tree_names);
  }
  summary.accounting = std::move(accounting);
  data.tree.finish(k_tree_budget);
  for (auto& [key, a] : data.rows) {
    a.per_unit.settle();
    a.alloc_per_unit.settle();
    a.path_per_unit.settle();
  }
  pick_timeline(set, units, summary);
  for (auto& [who, per_key] : data.launches)
    for (auto& [key, per_unit] : per_key) per_unit.settle();

  // Per rank: mean step time and GPU busy time.
  std::map<int, model::RankDetail> by_rank;
  for (const auto& d : summary.step_details) {
    auto& r = by_rank[d.rank];
    r.rank = d.rank;
    ++r.steps;
    add_sat(r.step_mean_ns, d.dur_ns);
    add_sat(r.gpu_busy_mean_ns, d.gpu_busy_ns);
  }
  for (auto& [rank, r] : by_rank) {
    r.step_mean_ns /= static_cast<std::int64_t>(r.steps);
    r.gpu_busy_mean_ns /= static_cast<std::int64_t>(r.steps);
    summary.rank_details.push_back(r);
  }
  // Where the time went, on average over the units.
  auto& m = summary.step_mean;
  if (!summary.step_details.empty()) {
    const auto n = static_cast<std::int64_t>(summary.step_details.size());
    for (const auto& d : summary.step_details)
      for (const auto& f : model::k_step_fields) add_sat(m.*f.field, d.*f.field);
    for (const auto& f : model::k_step_fields) m.*f.field /= n;
  }
  return data;
}

model::PerStep per_step(const SideAgg* a, std::size_t units) {
  model::PerStep p;
  if (!a || units == 0) return p;
  const double n = static_cast<double>(units);
  p.count = static_cast<double>(a->stats.count) / n;
  p.total_ns = static_cast<double>(a->stats.total_ns) / n;
  p.self_ns = static_cast<double>(a->stats.self_ns) / n;
  p.wait_ns = static_cast<double>(a->stats.wait_ns) / n;
  p.stddev_ns = stddev(a->per_unit);
  return p;
}

// HTA's groups, on per-step counts: a side with twice the steps needs twice the calls.
model::Change change_per_step(std::uint64_t c, std::size_t cu, std::uint64_t t, std::size_t tu) {
  using model::Change;
  if (c == 0 && t > 0) return Change::added;
  if (c > 0 && t == 0) return Change::deleted;
  const auto lhs = static_cast<unsigned __int128>(t) * cu;
  const auto rhs = static_cast<unsigned __int128>(c) * tu;
  return lhs > rhs ? Change::increased : lhs < rhs ? Change::decreased : Change::unchanged;
}

// --by-shape: the row's shapes, FLOPs per call, and per side the achieved TFLOP/s:
// FLOPs of its calls over the GPU time it launched (the kernels whose launch it is the
// launcher of, --launcher's level). Host time would be wrong for asynchronous CUDA, so
// a side without launched GPU time has no TFLOP/s.
void shape_figures(const SideAgg* ca, const SideAgg* ta, const SideData& c, const SideData& t, model::DiffRow& row) {
  const SideAgg& any = ca ? *ca : *ta;
  if (any.shape.empty()) return;
  row.shape = any.shape;
  row.flops_per_call = any.flops;
  if (!any.flops) return;
  const auto tflops = [&](const SideAgg* a, const SideData& side) -> std::optional<double> {
    if (!a || a->stats.count == 0) return std::nullopt;
    const auto it = side.launched_ns.find(a->full_name);
    if (it == side.launched_ns.end() || it->second <= 0) return std::nullopt;
    const double v = *any.flops * static_cast<double>(a->stats.count) / it->second / 1000.0;  // FLOP/ns = GFLOP/s
    return std::isfinite(v) ? std::optional(v) : std::nullopt;
  };
  row.control_tflops = tflops(ca, c);
  row.test_tflops = tflops(ta, t);
}

// A row's Inductor figures (DiffRow::Work): its sides' sums, then the rates.
void work_figures(const SideAgg* ca, const SideAgg* ta, model::DiffRow& row) {
  const auto sums = [](const SideAgg* a) {
    model::DiffRow::Work::Sums out;
    if (a) out = {static_cast<double>(a->flop), static_cast<double>(a->flop_ns), static_cast<double>(a->bytes),
                  static_cast<double>(a->bytes_ns)};
    return out;
  };
  row.work = work_rates(sums(ca), sums(ta));
}

// A row's allocations per step unit on each side, and its self bytes per step judged
// (docs/reading-the-report.md "Memory per operator").
void memory_figures(const SideAgg* ca, const SideAgg* ta, std::size_t cu, std::size_t tu, const NoiseRule& rule,
                    model::DiffRow& row) {
  auto& m = row.memory;
  m.recorded = true;
  const auto side = [](const SideAgg* a, std::size_t units, model::DiffRow::MemorySide& out, model::Samples& samples) {
    samples = model::Samples(units);
    if (!a || units == 0) return;
    const double n = static_cast<double>(units);
    out.allocated = static_cast<double>(a->alloc_bytes) / n;
    out.allocated_self = static_cast<double>(a->alloc_self_bytes) / n;
    out.allocations = static_cast<double>(a->alloc_count) / n;
    out.allocations_self = static_cast<double>(a->alloc_self_count) / n;
    out.held = static_cast<double>(a->held_bytes) / n;
    samples = a->alloc_per_unit;
    samples.set_units(units);
  };
  side(ca, cu, m.control, m.control_samples);
  side(ta, tu, m.test, m.test_samples);
  if (m.control_samples.values().empty() && m.test_samples.values().empty()) return;  // allocated nothing: "same"
  m.allocated = compare_samples(m.control_samples, m.test_samples, rule.relative());  // sizes: --min-change-us is a time
}

// A row's own work on the critical path per step unit, and its what-if's saving.
void path_figures(const SideAgg* ca, const SideAgg* ta, std::size_t cu, std::size_t tu, model::DiffRow& row) {
  auto& p = row.path;
  p.control_samples = ca ? ca->path_per_unit : model::Samples(cu);
  p.test_samples = ta ? ta->path_per_unit : model::Samples(tu);
  p.control_samples.set_units(cu);
  p.test_samples.set_units(tu);
  if (ca && !ca->saved_ns.empty())
    p.control_saved_ns = median(ca->saved_ns), p.control_what_if_steps = ca->saved_ns.size(), p.factor = ca->what_if_factor;
  if (ta && !ta->saved_ns.empty())
    p.test_saved_ns = median(ta->saved_ns), p.test_what_if_steps = ta->saved_ns.size(), p.factor = ta->what_if_factor;
}

// GPU time by launching operator, with its kernels; and each GPU row's main launcher.
void launchers(const SideData& c, const SideData& t, const NoiseRule& rule, model::DiffReport& report) {
  std::map<Key, std::pair<double, std::string_view>> top_launcher;  // key -> (ns on both sides, launcher)
  std::map<std::string_view, std::map<Key, std::pair<const model::Samples*, const model::Samples*>>> both;
  for (const auto& [who, per_key] : c.launches)
    for (const auto& [key, v] : per_key) both[who][key].first = &v;
  for (const auto& [who, per_key] : t.launches)
    for (const auto& [key, v] : per_key) both[who][key].second = &v;
  const model::Samples c_zero(c.units), t_zero(t.units);
  for (const auto& [who, per_key] : both) {
    model::LauncherRow lr;
    lr.launcher = who;
    lr.graph_replay = c.graph_launchers.count(who) || t.graph_launchers.count(who);
    model::Samples lc(c.units), lt(t.units);
    for (const auto& [key, sides] : per_key) {
      const auto& kc = sides.first ? *sides.first : c_zero;
      const auto& kt = sides.second ? *sides.second : t_zero;
      lc.add_all(kc);
      lt.add_all(kt);
      model::LauncherRow::Kernel k;
      k.name = key.second;
      k.control_ns = static_cast<std::int64_t>(kc.sum());
      k.test_ns = static_cast<std::int64_t>(kt.sum());
      k.time = compare_samples(kc, kt, rule);
      const double ns = kc.sum() + kt.sum();
      auto& best = top_launcher[key];
      if (ns > best.first || (ns == best.first && (best.second.empty() || who < best.second))) best = {ns, who};
      lr.kernels.push_back(std::move(k));
    }
    lc.settle();
    lt.settle();
    lr.control_ns = static_cast<std::int64_t>(lc.sum());
    lr.test_ns = static_cast<std::int64_t>(lt.sum());
    lr.time = compare_samples(lc, lt, rule);
    std::sort(lr.kernels.begin(), lr.kernels.end(), [](auto& a, auto& b) {
      const double da = std::fabs(a.time.diff()), db = std::fabs(b.time.diff());
      return da != db ? da > db : a.name < b.name;
    });
    report.by_launcher.push_back(std::move(lr));
  }
  for (auto& row : report.rows)
    if (auto it = top_launcher.find({row.category, row.name}); it != top_launcher.end())
      row.launched_by = it->second.second;
  std::sort(report.by_launcher.begin(), report.by_launcher.end(), [](auto& a, auto& b) {
    const double da = std::fabs(a.time.diff()), db = std::fabs(b.time.diff());
    return da != db ? da > db : a.launcher < b.launcher;
  });
}

// A file's own warnings go to the side that compares its rank (to both when both do);
// a file that neither compares, to the side that read it (Control when both did), so
// that ranks 0-3 against ranks 4-7 of one directory file rank 5's under Test only.
void merge_diagnostics(model::DiffReport& report, const model::SetSummary& control, const model::SetSummary& test) {
  const auto compares = [](const model::SideSummary& side, const model::FileSummary& f) {
    return std::find(side.ranks.begin(), side.ranks.end(), f.rank) != side.ranks.end();
  };
  const auto compared_in = [&](const model::SetSummary& set, const model::SideSummary& side, const std::string& path) {
    return std::any_of(set.files.begin(), set.files.end(),
                       [&](const model::FileSummary& g) { return g.path == path && compares(side, g); });
  };
  const auto read_by = [](const model::SetSummary& set, const std::string& path) {
    return std::any_of(set.files.begin(), set.files.end(), [&](const model::FileSummary& g) { return g.path == path; });
  };
  for (const auto* set : {&control, &test}) {
    const bool is_control = set == &control;
    const auto& side = is_control ? report.control : report.test;
    const auto& other_set = is_control ? test : control;
    const auto& other = is_control ? report.test : report.control;
    report.diagnostics.merge(set->diagnostics, side.label);
    for (const auto& f : set->files)
      if (compares(side, f) || (!compared_in(other_set, other, f.path) && (is_control || !read_by(control, f.path))))
        report.diagnostics.merge(f.diagnostics, side.label);
  }
}

// Steps on one side and whole traces on the other: a trace holds many steps, so its
// figures against per-step ones would read as changes of every row. Refused: the
// whole side can be given steps (--step-marker), which compares like with like.
void check_same_unit(const model::SetSummary& control, const model::SetSummary& test) {
  const auto stepped = [](const model::SetSummary& s) {
    return std::any_of(s.files.begin(), s.files.end(), [](const model::FileSummary& f) { return f.has_steps; });
  };
  // Within a side too: a file without steps beside files with them would be left out whole.
  for (const auto* side : {&control, &test}) {
    if (!stepped(*side)) continue;
    const auto stepless = std::find_if(side->files.begin(), side->files.end(), [](const model::FileSummary& f) { return !f.has_steps; });
    if (stepless == side->files.end()) continue;
    const bool is_control = side == &control;
    throw Fatal(stepless->path + " (" + (side->label.empty() ? (is_control ? "Control" : "Test") : side->label) +
                ", rank " + std::to_string(stepless->rank) +
                ") has no steps while other files of its side have: it would be left out whole. Give its side one "
                "step marker with --" + (is_control ? "control" : "test") +
                "-step-marker REGEX (docs/is-it-real.md: Step markers), or leave the file out.");
  }
  if (stepped(control) == stepped(test)) return;
  const auto name = [](const model::SetSummary& s, const char* fallback) { return s.label.empty() ? fallback : s.label; };
  const bool c = stepped(control);
  const std::string with = c ? name(control, "Control") : name(test, "Test");
  const std::string without = c ? name(test, "Test") : name(control, "Control");
  throw Fatal(with + " has steps (ProfilerStep or a step marker) and " + without +
              " has none: per-step figures cannot be compared with whole traces. Give " + without +
              " steps with --" + (c ? "test" : "control") +
              "-step-marker REGEX (docs/is-it-real.md: Step markers), or compare traces of the same kind.");
}

}  // namespace

namespace detail {

model::DiffReport compare_default(const model::SetSummary& control, const model::SetSummary& test,
                                  const CompareOptions& options) {
  check_same_unit(control, test);
  model::DiffReport report;
  // Outlives c and t: their keys view its names.
  const Renames renames = options.match_names ? plan_renames(control, test) : Renames{};
  // Each side on its own core (a side's files are read again there when their rows were
  // left in a summary); the control's error, if both have one, is the one said. Not
  // const: each row's samples move into its DiffRow.
  const Renames none;
  auto test_side = std::async(std::launch::async, [&] { return collect(test, options.test, options, renames, report.test); });
  auto c = collect(control, options.control, options, none, report.control);
  auto t = test_side.get();

  const NoiseRule rule = noise_rule_for(options, report);
  report.between_runs = rule.between_runs();
  // The call tree is judged beside the rows, on the core the reading left idle (a
  // sixth of the comparison on the HTA pair); it needs the rows only to name them.
  auto tree = std::async(std::launch::async,
                         [&] { return detail::compare_trees(c.tree, t.tree, rule, options.short_names); });
  // Every key of either side, in order: a merge of the two sorted maps.
  for (auto ci = c.rows.begin(), ti = t.rows.begin(); ci != c.rows.end() || ti != t.rows.end();) {
    const bool from_c = ti == t.rows.end() || (ci != c.rows.end() && !(ti->first < ci->first));
    const bool from_t = ci == c.rows.end() || (ti != t.rows.end() && !(ci->first < ti->first));
    const Key& key = from_c ? ci->first : ti->first;
    SideAgg* ca = from_c ? &(ci++)->second : nullptr;
    SideAgg* ta = from_t ? &(ti++)->second : nullptr;
    // A key only a call-tree path names (an event left out after its path was made,
    // such as the profiler's closing synchronisation) is no row.
    if ((!ca || ca->stats.count == 0) && (!ta || ta->stats.count == 0)) continue;
    model::DiffRow row;
    row.category = key.first;
    row.name = key.second;
    row.device = (ca ? ca : ta)->device;
    row.full_name = ca && ta ? std::min(ca->full_name, ta->full_name) : (ca ? ca : ta)->full_name;
    if (ca) row.control = ca->stats;
    if (ta) row.test = ta->stats;
    if (ta && ta->matched_by) {
      row.test_name = ta->renamed_from;
      row.matched_by = ta->matched_by;
    }
    row.off_launch_threads = row.device == model::Device::cpu && !(ca && ca->on_launch_thread) && !(ta && ta->on_launch_thread);
    row.sleeping = row.off_launch_threads && blocking_frame(row.full_name);
    row.control_step = per_step(ca, c.units);
    row.test_step = per_step(ta, t.units);
    row.change = change_per_step(row.control.count, c.units, row.test.count, t.units);
    row.control_samples = ca ? std::move(ca->per_unit) : model::Samples(c.units);
    row.test_samples = ta ? std::move(ta->per_unit) : model::Samples(t.units);
    const auto v = judge(row.control_samples, row.test_samples, rule);
    row.significant = v.significant;
    row.verdict = v.verdict;
    row.median_diff_ns = v.median_diff;
    row.shown.control_ns = v.control_median;
    row.shown.test_ns = v.test_median;
    if (options.by_shape) shape_figures(ca, ta, c, t, row);
    if (c.memory && t.memory) memory_figures(ca, ta, c.units, t.units, rule, row);
    work_figures(ca, ta, row);
    path_figures(ca, ta, c.units, t.units, row);
    report.rows.push_back(std::move(row));
  }
  launchers(c, t, rule, report);

  // One order for every writer: |Δ of the medians per step| descending (the Δ the
  // verdict judges and the lists print), then |Δ of the means|, then name, then category.
  // Sorted as indices, then moved into place along the permutation's cycles: rows are
  // large, and a stable sort of the rows themselves would copy them all into a buffer.
  auto& rows = report.rows;
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = rows[a];
    const auto& y = rows[b];
    const double mx = std::abs(x.shown.diff_ns()), my = std::abs(y.shown.diff_ns());
    if (mx != my) return mx > my;
    const double dx = std::abs(x.diff_per_step_ns()), dy = std::abs(y.diff_per_step_ns());
    if (dx != dy) return dx > dy;
    if (x.name != y.name) return x.name < y.name;
    return x.category < y.category;
  });
  move_into_order(rows, order);
  report.by_impact.resize(report.rows.size());
  std::iota(report.by_impact.begin(), report.by_impact.end(), 0);
  detail::decide_families(report, rule);
  report.call_tree = detail::link_rows(tree.get(), report.rows);
  detail::attach_paths(report);
  for (const auto& row : report.rows) report.ops_diff.groups[static_cast<int>(row.change)].push_back(row.name);
  detail::finish_report(report, options);
  merge_diagnostics(report, control, test);  // before decide: the notes name the files with events left out
  return report;
}

}  // namespace detail

}  // namespace tracediff::analysis
