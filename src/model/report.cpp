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

}  // namespace tracediff::model
