#include "analysis/compare/aggregate.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace tracediff::analysis::detail {

KeyStats& row_of(SideTable& table, const std::string& category, const std::string& key,
                 const std::string& full_name, model::Device device) {
  auto [it, inserted] = table.try_emplace({category, key});
  KeyStats& k = it->second;
  if (inserted || full_name < k.full_name) k.full_name = full_name;
  if (inserted) k.device = device;
  return k;
}


model::Change change_of(std::uint64_t c, std::uint64_t t) {
  using model::Change;
  if (c == 0 && t > 0) return Change::added;
  if (c > 0 && t == 0) return Change::deleted;
  if (t > c) return Change::increased;
  if (t < c) return Change::decreased;
  return Change::unchanged;
}

void build_rows(const SideTable& control, const SideTable& test, bool hta_order,
                model::DiffReport& report) {
  auto make_row = [](const auto& key, const KeyStats* c, const KeyStats* t) {
    model::DiffRow row;
    row.category = key.first;
    row.name = key.second;
    const KeyStats& any = c ? *c : *t;
    row.device = any.device;
    row.full_name = c && t ? std::min(c->full_name, t->full_name) : any.full_name;
    if (c) row.control = c->stats;
    if (t) row.test = t->stats;
    row.change = change_of(row.control.count, row.test.count);
    return row;
  };
  auto& rows = report.rows;
  rows.clear();
  for (const auto& [key, c] : control) {
    auto it = test.find(key);
    rows.push_back(make_row(key, &c, it == test.end() ? nullptr : &it->second));
  }
  for (const auto& [key, t] : test)
    if (!control.count(key)) rows.push_back(make_row(key, nullptr, &t));

  // HTA's order is pandas' outer join: control keys sorted, then test-only keys sorted.
  // Its key is the name alone; tables keyed by (category, name) sort the same way there.
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = rows[a];
    const auto& y = rows[b];
    const auto dx = std::llabs(x.diff_ns()), dy = std::llabs(y.diff_ns());
    if (dx != dy) return dx > dy;
    if (x.name != y.name) return x.name < y.name;
    return x.category < y.category;
  });
  if (!hta_order) {
    std::vector<model::DiffRow> sorted;
    sorted.reserve(rows.size());
    for (auto i : order) sorted.push_back(std::move(rows[i]));
    rows = std::move(sorted);
    std::iota(order.begin(), order.end(), 0);
  }
  report.by_impact = std::move(order);

  for (auto& g : report.ops_diff.groups) g.clear();
  for (const auto& row : rows)
    report.ops_diff.groups[static_cast<int>(row.change)].push_back(row.name);
}

}  // namespace tracediff::analysis::detail
