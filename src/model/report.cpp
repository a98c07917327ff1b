#include "model/report.hpp"

namespace tracediff::model {

const char* change_name(Change c) {
  switch (c) {
    case Change::added: return "added";
    case Change::deleted: return "deleted";
    case Change::increased: return "increased";
    case Change::decreased: return "decreased";
    case Change::unchanged: return "unchanged";
  }
  return "";
}

const char* change_symbol(Change c) {
  switch (c) {
    case Change::added:
    case Change::increased: return "+";
    case Change::deleted:
    case Change::decreased: return "-";
    case Change::unchanged: return "=";
  }
  return "";
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::slower: return "slower";
    case Verdict::faster: return "faster";
    case Verdict::same: return "same";
  }
  return "";
}

std::optional<double> DiffRow::diff_pct() const {
  if (per_step_basis) {
    if (control_step.total_ns == 0) return std::nullopt;
    return 100.0 * diff_per_step_ns() / control_step.total_ns;
  }
  if (control.total_ns == 0) return std::nullopt;
  return 100.0 * static_cast<double>(diff_ns()) / static_cast<double>(control.total_ns);
}

std::vector<std::size_t> DiffReport::impact_order() const {
  bool ok = by_impact.size() == rows.size();
  std::vector<bool> seen(rows.size(), false);
  for (auto i : by_impact) {
    if (!ok) break;
    ok = i < rows.size() && !seen[i];
    if (ok) seen[i] = true;
  }
  if (ok) return by_impact;
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  return order;
}

}  // namespace tracediff::model
