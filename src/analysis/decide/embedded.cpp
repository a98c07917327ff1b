// The rows the HTML report's charts draw, and what the page embeds of its long lists
// (analysis/decide/embedded.hpp): decided here once, so that the writer only shows them.
#include "analysis/decide/embedded.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "util/display_name.hpp"

namespace tracediff::analysis::detail {

namespace {

std::uint64_t magnitude(std::int64_t n) {
  return n < 0 ? ~static_cast<std::uint64_t>(n) + 1 : static_cast<std::uint64_t>(n);
}

bool is_profiler_step(const model::DiffRow& row) {  // --hta-compat keeps them as operators
  return row.name.starts_with("ProfilerStep#") || row.full_name.starts_with("ProfilerStep#");
}

// The first n candidates by mag, descending, ties in candidate (impact) order; none
// that did not move. O(c log n).
template <typename Mag>
std::vector<std::size_t> top_by(const model::DiffReport& r, const std::vector<std::size_t>& candidates,
                                std::size_t n, Mag&& mag) {
  using M = decltype(mag(r.rows.front()));
  std::vector<std::pair<M, std::size_t>> moved;  // (magnitude, position among the candidates)
  for (std::size_t p = 0; p < candidates.size(); ++p) {
    const M m = mag(r.rows[candidates[p]]);
    if (m > M{}) moved.push_back({m, p});
  }
  const auto first = [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
  const auto k = std::min(n, moved.size());
  std::partial_sort(moved.begin(), moved.begin() + static_cast<std::ptrdiff_t>(k), moved.end(), first);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < k; ++i) out.push_back(candidates[moved[i].second]);
  return out;
}

void decide_charts(model::DiffReport& r, const std::vector<std::size_t>& order, std::size_t n) {
  std::vector<std::size_t> candidates;
  for (auto i : order)
    if (!is_profiler_step(r.rows[i])) candidates.push_back(i);
  auto& c = r.charts;
  c = {};
  if (r.hta_compat) {  // HTA's totals
    c.calls = top_by(r, candidates, n, [](const model::DiffRow& x) { return magnitude(x.diff_count()); });
    c.time = top_by(r, candidates, n, [](const model::DiffRow& x) { return magnitude(x.diff_ns()); });
    return;
  }
  c.calls = top_by(r, candidates, n, [](const model::DiffRow& x) { return std::fabs(x.test_step.count - x.control_step.count); });
  c.time = top_by(r, candidates, n, [](const model::DiffRow& x) { return std::fabs(x.diff_per_step_ns()); });
  c.self = top_by(r, candidates, n, [](const model::DiffRow& x) { return std::fabs(x.test_step.self_ns - x.control_step.self_ns); });
}

// Each chart's labels: distinct within it, at the width of its axis.
std::vector<std::string> chart_labels(const model::DiffReport& r, const std::vector<std::size_t>& rows) {
  std::vector<std::string_view> names;
  for (const auto i : rows) names.push_back(r.rows[i].full_name.empty() ? r.rows[i].name : r.rows[i].full_name);
  return distinct_labels(names, model::k_chart_label_chars);
}

void label_charts(model::DiffReport& r) {
  auto& c = r.charts;
  c.calls_labels = chart_labels(r, c.calls);
  c.time_labels = chart_labels(r, c.time);
  c.self_labels = chart_labels(r, c.self);
  std::vector<std::string_view> names;
  for (const auto i : r.families_shown) names.push_back(r.families[i].label);
  c.family_labels = distinct_labels(names, model::k_chart_label_chars);
}

// Marks `must` (in that order), then the first of `order` until `bound` are marked;
// returns the marked ones in the order of `order`.
std::vector<std::size_t> bounded(const std::vector<std::size_t>& order, const std::vector<std::size_t>& must,
                                 std::size_t bound) {
  std::vector<bool> in(order.size(), false);
  std::size_t n = 0;
  const auto mark = [&](std::size_t i) {
    if (i < in.size() && !in[i]) in[i] = true, ++n;
  };
  for (auto i : must) mark(i);
  for (std::size_t p = 0; p < order.size() && n < bound; ++p) mark(order[p]);
  std::vector<std::size_t> out;
  out.reserve(n);
  for (auto i : order)
    if (in[i]) out.push_back(i);
  return out;
}

std::vector<std::size_t> identity(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// The call-tree nodes the page embeds: the path of every finding it lists, then the
// heaviest nodes (host and GPU time of both sides), each with its ancestors, in the
// tree's order. A parent is nearly always heavier than its children, so the bound
// is met with whole top levels.
void decide_tree(const model::DiffReport& r, model::Embedded& e) {
  const auto& nodes = r.call_tree.nodes;
  std::vector<bool> in(nodes.size(), false);
  std::size_t n = 0;
  const auto mark = [&](std::uint32_t i) {
    for (; i != model::k_no_node && i < nodes.size() && !in[i]; i = nodes[i].parent) in[i] = true, ++n;
  };
  for (const auto* list : {&r.top_regressions, &r.top_improvements})
    for (std::size_t k = 0; k < list->nodes.size() && k < e.list_items; ++k) mark(list->nodes[k]);
  std::vector<std::uint32_t> by_weight(nodes.size());
  for (std::uint32_t i = 0; i < nodes.size(); ++i) by_weight[i] = i;
  const auto weight = [&](std::uint32_t i) { return nodes[i].weight(); };
  std::stable_sort(by_weight.begin(), by_weight.end(), [&](std::uint32_t a, std::uint32_t b) { return weight(a) > weight(b); });
  for (std::size_t k = 0; k < by_weight.size() && n < k_embedded_tree; ++k) mark(by_weight[k]);
  e.tree.clear();
  for (std::uint32_t i = 0; i < nodes.size(); ++i)
    if (in[i]) e.tree.push_back(i);
  e.tree_left_out = nodes.size() - e.tree.size();

  // The static table: level by level, so that every top-level path shows before any
  // grandchild, at most k_static_children of each parent (the widest: children are in
  // that order), k_static_levels deep.
  constexpr std::size_t k_static_nodes = 40, k_static_levels = 3, k_static_children = 6;
  std::vector<bool> shown(nodes.size(), false);
  std::vector<std::uint32_t> level = r.call_tree.top, next;
  std::size_t count = 0;
  for (std::size_t depth = 0; depth < k_static_levels && !level.empty() && count < k_static_nodes; ++depth) {
    next.clear();
    for (const auto i : level) {
      if (count == k_static_nodes) break;
      shown[i] = true;
      ++count;
      for (std::size_t k = 0; k < nodes[i].children.size() && k < k_static_children; ++k) next.push_back(nodes[i].children[k]);
    }
    // A level's nodes by width, so that a light top-level path does not crowd out the
    // children of a heavy one.
    std::stable_sort(next.begin(), next.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return nodes[a].width() > nodes[b].width(); });
    level.swap(next);
  }
  e.tree_static.clear();
  for (std::uint32_t i = 0; i < nodes.size(); ++i)
    if (shown[i]) e.tree_static.push_back(i);
}

// A side's per-unit values (warm-up left out), at most k_spark_points: a longer run is
// averaged over equal bins of units.
std::vector<double> spark_values(const model::Samples& s) {
  const std::size_t n = s.units();
  if (n == 0) return {};
  const std::size_t m = std::min(n, model::k_spark_points);
  std::vector<double> sum(m, 0.0);
  std::vector<std::size_t> per_bin(m, 0);
  for (std::size_t u = 0; u < n; ++u) ++per_bin[u * m / n];
  for (const auto& [u, v] : s.values())
    if (u < n) sum[u * m / n] += v;
  for (std::size_t i = 0; i < m; ++i) sum[i] /= static_cast<double>(per_bin[i]);
  return sum;
}

// The table's toggles and each of its rows' sparklines.
void decide_table(const model::DiffReport& r, model::Embedded& e) {
  e.sparks.clear();
  e.sparks.reserve(e.rows.size());
  for (const auto i : e.rows) {
    const auto& row = r.rows[i];
    ++e.rows_per_change[static_cast<std::size_t>(row.change)];
    ++e.rows_per_device[static_cast<std::size_t>(row.device)];
    ++e.rows_per_verdict[static_cast<std::size_t>(row.verdict)];
    e.sparks.push_back({spark_values(row.control_samples), spark_values(row.test_samples)});
  }
}

// Each side's steps, warm-up included, in order (rank, then step): the step chart's
// points (binned past k_step_chart_points) and the per-step table's first k_step_rows.
void decide_steps(const model::DiffReport& r, model::Embedded& e) {
  for (int k = 0; k < 2; ++k) {
    const auto& side = k == 0 ? r.control : r.test;
    std::vector<model::Embedded::StepRef> list;
    for (std::size_t i = 0; i < side.warmup.size(); ++i) list.push_back({true, i});
    for (std::size_t i = 0; i < side.step_details.size(); ++i) list.push_back({false, i});
    const auto detail = [&](const model::Embedded::StepRef& s) -> const model::StepDetail& {
      return s.warm ? side.warmup[s.index] : side.step_details[s.index];
    };
    std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
      const auto &x = detail(a), &y = detail(b);
      return x.rank != y.rank ? x.rank < y.rank : x.step < y.step;
    });
    const std::size_t n = list.size(), m = std::min(n, model::k_step_chart_points);
    std::vector<model::Embedded::StepPoint> pts(m);
    std::vector<std::size_t> per_bin(m, 0);
    for (std::size_t i = 0; i < n; ++i) {
      auto& p = pts[i * m / n];
      p.ns += static_cast<double>(detail(list[i]).dur_ns);
      p.warm = p.warm || list[i].warm;
      ++per_bin[i * m / n];
    }
    for (std::size_t i = 0; i < m; ++i) pts[i].ns /= static_cast<double>(per_bin[i]);
    e.step_chart[k] = std::move(pts);
    e.steps_of[k] = n;
    if (list.size() > model::k_step_rows) list.resize(model::k_step_rows);
    e.step_rows[k] = std::move(list);
  }
}

}  // namespace

void decide_embedded(model::DiffReport& r, std::size_t top) {
  const auto order = r.impact_order();
  decide_charts(r, order, std::min(top, k_chart_rows));
  label_charts(r);
  auto& e = r.embedded;
  e = {};
  e.decided = true;
  e.list_items = k_list_items;
  e.group_names = k_group_names;
  e.files = k_listed_files;
  e.samples = k_listed_samples;
  e.launcher_kernels = k_launcher_kernels;

  // The table: every row the top lists (as far as they are shown) and the charts
  // name, then the most important by impact.
  std::vector<std::size_t> must;
  for (const auto* list : {&r.top_regressions, &r.top_improvements})
    for (std::size_t k = 0; k < list->rows.size() && k < e.list_items; ++k) must.push_back(list->rows[k]);
  for (const auto* chart : {&r.charts.time, &r.charts.calls, &r.charts.self}) must.insert(must.end(), chart->begin(), chart->end());
  e.rows = bounded(order, must, k_embedded_rows);
  e.rows_left_out = r.rows.size() - e.rows.size();
  decide_table(r, e);
  decide_steps(r, e);

  // Launchers: the significant ones the findings list, then the first by |Δ|.
  std::vector<std::size_t> lmust;
  for (std::size_t k = 0; k < r.top_launchers.size() && k < e.list_items; ++k) lmust.push_back(r.top_launchers[k]);
  e.launchers = bounded(identity(r.by_launcher.size()), lmust, k_embedded_launchers);
  e.launchers_left_out = r.by_launcher.size() - e.launchers.size();

  // Ranks: the one that changed most and the stragglers, then those whose step time
  // moved most, shown in rank order.
  const auto straggler = [&](const model::RankRow& x) {
    return (x.control_rank && r.ranks.control_straggler && *x.control_rank == r.ranks.control_straggler->rank) ||
           (x.test_rank && r.ranks.test_straggler && *x.test_rank == r.ranks.test_straggler->rank);
  };
  std::vector<std::size_t> by_change = identity(r.rank_rows.size());
  std::stable_sort(by_change.begin(), by_change.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = r.rank_rows[a];
    const auto& y = r.rank_rows[b];
    if (x.changed_most != y.changed_most) return x.changed_most;
    if (straggler(x) != straggler(y)) return straggler(x);
    return std::fabs(x.step_time.diff()) > std::fabs(y.step_time.diff());
  });
  if (by_change.size() > k_embedded_ranks) by_change.resize(k_embedded_ranks);
  e.rank_rows = bounded(identity(r.rank_rows.size()), by_change, k_embedded_ranks);
  e.rank_rows_left_out = r.rank_rows.size() - e.rank_rows.size();
  decide_tree(r, e);
}

}  // namespace tracediff::analysis::detail
