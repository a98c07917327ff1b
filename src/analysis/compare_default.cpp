// The default mode: per-step, noise-aware comparison of two sets of file summaries.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <numeric>
#include <set>
#include <string_view>

#include "analysis/aggregate.hpp"
#include "analysis/compare.hpp"
#include "analysis/modes.hpp"
#include "analysis/noise.hpp"
#include "analysis/short_name.hpp"

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
  std::vector<double> per_unit;  // total ns in each step unit, for the noise estimate
};

struct SideData {
  std::map<Key, SideAgg> rows;
  std::map<std::string_view, std::map<Key, std::int64_t>> launches;  // launcher -> key -> ns
  std::deque<std::string> short_names;  // what --short-names keys view (a deque: they stay put)
  std::size_t units = 0;
};

struct Unit {
  std::size_t file;
  std::uint32_t step;
};

SideData collect(const model::SetSummary& set, const Selection& sel, const CompareOptions& options,
                 model::SideSummary& summary) {
  SideData data;
  summary.label = set.label;
  summary.inputs = set.inputs;
  std::set<std::string> gpus;
  std::set<int> ranks;
  std::set<std::int64_t> iterations;
  bool any_steps = false;
  for (const auto& f : set.files) {
    summary.files.push_back({f.path, f.rank, f.rank_source, f.events, f.json_bytes, f.truncated});
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

  // Step units: every selected step of every selected file (one per file when whole).
  std::vector<Unit> units;
  for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
    const auto& f = set.files[fi];
    if (!rank_set.count(f.rank) || f.has_steps != any_steps) continue;
    for (std::uint32_t si = 0; si < f.steps.size(); ++si)
      if (!any_steps || iter_set.count(f.steps[si].step)) units.push_back({fi, si});
  }
  std::stable_sort(units.begin(), units.end(), [&](const Unit& a, const Unit& b) {
    const auto& fa = set.files[a.file];
    const auto& fb = set.files[b.file];
    if (fa.rank != fb.rank) return fa.rank < fb.rank;
    return fa.steps[a.step].step < fb.steps[b.step].step;
  });
  data.units = units.size();
  summary.units = units.size();

  std::map<std::pair<std::size_t, std::uint32_t>, std::size_t> unit_of;
  for (std::size_t u = 0; u < units.size(); ++u) {
    unit_of[{units[u].file, units[u].step}] = u;
    const auto& f = set.files[units[u].file];
    auto d = f.steps[units[u].step].detail;
    d.rank = f.rank;
    d.step = f.steps[units[u].step].step;
    summary.step_details.push_back(d);
    summary.step_times.steps.push_back({d.rank, d.step, d.dur_ns});
  }
  detail::summarize_steps(summary.step_times);

  for (std::size_t fi = 0; fi < set.files.size(); ++fi) {
    const auto& f = set.files[fi];
    if (!rank_set.count(f.rank) || f.has_steps != any_steps) continue;
    // Row keys of this file's keys, resolved once (short names are not cheap).
    std::vector<const Key*> key_of;
    std::vector<SideAgg*> agg_of;
    for (const auto& k : f.keys) {
      const model::Device device = model::device_of(k.kind);
      const bool keep = options.device == DeviceFilter::all ||
                        (options.device == DeviceFilter::cpu && device == model::Device::cpu) ||
                        (options.device == DeviceFilter::gpu && device == model::Device::gpu);
      if (!keep) {
        key_of.push_back(nullptr);
        agg_of.push_back(nullptr);
        continue;
      }
      std::string_view name = k.name;
      if (options.short_names) name = data.short_names.emplace_back(shorten_name(k.name));
      const Key key{k.category, name};
      auto [it, inserted] = data.rows.try_emplace(key);
      auto& a = it->second;
      if (inserted) {
        a.device = device;
        a.full_name = k.name;
        a.per_unit.assign(units.size(), 0.0);
      } else if (k.name < a.full_name) {
        a.full_name = k.name;
      }
      key_of.push_back(&it->first);
      agg_of.push_back(&a);
    }
    for (const auto& c : f.cells) {
      auto* a = agg_of[c.key];
      if (!a) continue;
      const auto u = unit_of.find({fi, c.step});
      if (u == unit_of.end()) continue;
      a->stats.count += c.count;
      detail::add_sat(a->stats.total_ns, c.total_ns);
      detail::add_sat(a->stats.self_ns, c.self_ns);
      a->per_unit[u->second] += static_cast<double>(c.total_ns);
    }
    for (const auto& l : f.launches) {
      if (!key_of[l.key] || !unit_of.count({fi, l.step})) continue;
      detail::add_sat(data.launches[f.launchers[l.launcher]][*key_of[l.key]], l.total_ns);
    }
  }

  // Per rank: mean step time and GPU busy time.
  std::map<int, model::RankDetail> by_rank;
  for (const auto& d : summary.step_details) {
    auto& r = by_rank[d.rank];
    r.rank = d.rank;
    ++r.steps;
    detail::add_sat(r.step_mean_ns, d.dur_ns);
    detail::add_sat(r.gpu_busy_mean_ns, d.gpu_busy_ns);
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
    using D = model::StepDetail;
    static constexpr std::int64_t D::*figures[] = {&D::dur_ns,    &D::gpu_busy_ns, &D::gpu_idle_ns,
                                                   &D::kernel_ns, &D::comm_ns,     &D::memcpy_ns,
                                                   &D::memset_ns, &D::cpu_self_ns, &D::runtime_ns};
    for (const auto& d : summary.step_details)
      for (const auto f : figures) detail::add_sat(m.*f, d.*f);
    for (const auto f : figures) m.*f /= n;
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

void compare_ranks(model::DiffReport& r) {
  auto spread = [](const std::vector<model::RankDetail>& v) -> std::int64_t {
    if (v.empty()) return 0;
    auto [lo, hi] = std::minmax_element(v.begin(), v.end(), [](auto& a, auto& b) {
      return a.step_mean_ns < b.step_mean_ns;
    });
    return hi->step_mean_ns - lo->step_mean_ns;
  };
  r.ranks.control_spread_ns = spread(r.control.rank_details);
  r.ranks.test_spread_ns = spread(r.test.rank_details);
  // Pair ranks by id when both sides have the same ranks, else by position.
  const auto& c = r.control.rank_details;
  const auto& t = r.test.rank_details;
  const bool same_ids = c.size() == t.size() &&
                        std::equal(c.begin(), c.end(), t.begin(), [](auto& a, auto& b) { return a.rank == b.rank; });
  const std::size_t n = same_ids ? c.size() : std::min(c.size(), t.size());
  double best = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (c[i].step_mean_ns == 0) continue;
    const double pct = 100.0 * static_cast<double>(t[i].step_mean_ns - c[i].step_mean_ns) /
                       static_cast<double>(c[i].step_mean_ns);
    if (std::abs(pct) > best) {
      best = std::abs(pct);
      r.ranks.changed_most_control_rank = c[i].rank;
      r.ranks.changed_most_test_rank = t[i].rank;
      r.ranks.changed_most_pct = pct;
    }
  }
}

}  // namespace

model::DiffReport compare_summaries(const model::SetSummary& control, const model::SetSummary& test,
                                    const CompareOptions& options) {
  model::DiffReport report;
  report.min_change_pct = options.min_change_pct;
  report.min_change_us = options.min_change_us;
  const auto c = collect(control, options.control, options, report.control);
  const auto t = collect(test, options.test, options, report.test);
  for (const auto* side : {&report.control, &report.test})
    if (side->whole_trace)
      report.notes.push_back(side->label + " has no ProfilerStep: its traces are compared whole.");

  const NoiseRule rule{options.min_change_pct, options.min_change_us * 1000.0};
  // Every key of either side, in order: a merge of the two sorted maps.
  for (auto ci = c.rows.begin(), ti = t.rows.begin(); ci != c.rows.end() || ti != t.rows.end();) {
    const bool from_c = ti == t.rows.end() || (ci != c.rows.end() && !(ti->first < ci->first));
    const bool from_t = ci == c.rows.end() || (ti != t.rows.end() && !(ci->first < ti->first));
    const Key& key = from_c ? ci->first : ti->first;
    const SideAgg* ca = from_c ? &(ci++)->second : nullptr;
    const SideAgg* ta = from_t ? &(ti++)->second : nullptr;
    model::DiffRow row;
    row.category = key.first;
    row.name = key.second;
    row.device = (ca ? ca : ta)->device;
    row.full_name = ca && ta ? std::min(ca->full_name, ta->full_name) : (ca ? ca : ta)->full_name;
    if (ca) row.control = ca->stats;
    if (ta) row.test = ta->stats;
    row.control_step = per_step(ca, c.units);
    row.test_step = per_step(ta, t.units);
    row.change = change_per_step(row.control.count, c.units, row.test.count, t.units);
    const auto v = judge(ca ? ca->per_unit : std::vector<double>(c.units, 0.0),
                         ta ? ta->per_unit : std::vector<double>(t.units, 0.0), rule);
    row.significant = v.significant;
    row.verdict = v.verdict;
    report.rows.push_back(std::move(row));
  }

  // Launchers: the CPU operator behind most of each GPU row's time, and the table.
  std::map<Key, std::pair<std::int64_t, std::string_view>> top_launcher;
  std::map<std::string_view, model::LauncherRow> launchers;
  for (int side = 0; side < 2; ++side) {
    for (const auto& [who, per_key] : (side ? t : c).launches) {
      auto& lr = launchers[who];
      lr.launcher = who;
      for (const auto& [key, ns] : per_key) {
        detail::add_sat(side ? lr.test_ns : lr.control_ns, ns);
        auto k = std::find_if(lr.kernels.begin(), lr.kernels.end(), [&name = key.second](auto& x) { return x.name == name; });
        if (k == lr.kernels.end()) k = lr.kernels.insert(lr.kernels.end(), {std::string(key.second), 0, 0});
        detail::add_sat(side ? k->test_ns : k->control_ns, ns);
      }
    }
  }
  for (const auto& side : {&c, &t})
    for (const auto& [who, per_key] : side->launches)
      for (const auto& [key, ns] : per_key) {
        std::int64_t both = 0;
        for (const auto* s2 : {&c, &t})
          if (auto w = s2->launches.find(who); w != s2->launches.end())
            if (auto k = w->second.find(key); k != w->second.end()) detail::add_sat(both, k->second);
        auto& best = top_launcher[key];
        if (both > best.first || (both == best.first && (best.second.empty() || who < best.second)))
          best = {both, who};
      }
  for (auto& row : report.rows)
    if (auto it = top_launcher.find({row.category, row.name}); it != top_launcher.end())
      row.launched_by = it->second.second;
  auto units = [](std::size_t u) { return u ? static_cast<double>(u) : 1.0; };
  for (auto& [who, lr] : launchers) {
    lr.control_per_step_ns = static_cast<double>(lr.control_ns) / units(c.units);
    lr.test_per_step_ns = static_cast<double>(lr.test_ns) / units(t.units);
    std::sort(lr.kernels.begin(), lr.kernels.end(), [](auto& a, auto& b) {
      const auto da = std::llabs(a.test_ns - a.control_ns), db = std::llabs(b.test_ns - b.control_ns);
      return da != db ? da > db : a.name < b.name;
    });
    report.by_launcher.push_back(std::move(lr));
  }
  std::sort(report.by_launcher.begin(), report.by_launcher.end(), [](auto& a, auto& b) {
    const double da = std::abs(a.test_per_step_ns - a.control_per_step_ns);
    const double db = std::abs(b.test_per_step_ns - b.control_per_step_ns);
    return da != db ? da > db : a.launcher < b.launcher;
  });

  // One order for every writer: |Δ per step| descending, then name, then category.
  std::stable_sort(report.rows.begin(), report.rows.end(), [](const model::DiffRow& x, const model::DiffRow& y) {
    const double dx = std::abs(x.diff_per_step_ns()), dy = std::abs(y.diff_per_step_ns());
    if (dx != dy) return dx > dy;
    if (x.name != y.name) return x.name < y.name;
    return x.category < y.category;
  });
  report.by_impact.resize(report.rows.size());
  std::iota(report.by_impact.begin(), report.by_impact.end(), 0);
  for (const auto& row : report.rows) report.ops_diff.groups[static_cast<int>(row.change)].push_back(row.name);
  compare_ranks(report);
  detail::finish_report(report, options);

  report.diagnostics.merge(control.diagnostics);
  report.diagnostics.merge(test.diagnostics);
  for (const auto* set : {&control, &test})
    for (const auto& f : set->files) report.diagnostics.merge(f.diagnostics);
  return report;
}

}  // namespace tracediff::analysis
