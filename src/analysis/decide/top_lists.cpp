// The top regressions and improvements: which rows are listed, in which order, with
// the path each was called from; kernels swapped for others of their family left out.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis/decide/top_lists.hpp"
#include "analysis/noise/noise.hpp"
#include "model/summary.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"
#include "util/sanitize.hpp"

namespace tracediff::analysis::detail {

namespace {

// Where a node was called from, for people: its ancestors' names (made safe to show,
// very long ones elided), outermost first, at most five of them, "…" for the others.
// Kept first: the outermost and the innermost caller, then the names people wrote
// (nn.Module frames and annotations), then operators, then Python frames, the
// nearest first.
std::vector<std::string> caller_path(const model::DiffReport& r, std::uint32_t node) {
  constexpr std::size_t k_parts = 5, k_chars = 160;  // views shorten further to their room
  const auto& nodes = r.call_tree.nodes;
  std::vector<std::uint32_t> up;  // innermost first
  for (auto i = node < nodes.size() ? nodes[node].parent : model::k_no_node; i != model::k_no_node && i < nodes.size();
       i = nodes[i].parent)
    up.push_back(i);
  const auto rank = [&](std::size_t k) {
    if (k == 0 || k + 1 == up.size()) return 0;
    const std::string_view name = nodes[up[k]].name;
    if (name.starts_with("nn.Module:") || name.starts_with("##")) return 1;
    const bool python = name.starts_with("<") || name.find(".py(") != std::string_view::npos;
    return python ? 3 : 2;
  };
  std::vector<std::size_t> order(up.size());
  for (std::size_t k = 0; k < up.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  std::vector<bool> keep(up.size(), false);
  for (std::size_t k = 0; k < order.size() && k < k_parts; ++k) keep[order[k]] = true;
  std::vector<std::string> out;
  bool gap = false;
  for (std::size_t k = up.size(); k-- > 0;) {
    if (!keep[k]) {
      gap = true;
      continue;
    }
    if (gap && !out.empty()) out.emplace_back("\xE2\x80\xA6");  // "…"
    gap = false;
    out.push_back(elide(display_safe(nodes[up[k]].name), k_chars));
  }
  return out;
}

// Whether row i may be left out of a list for the call inside that explains it: the
// row its chain of explanations ends at (the one listed) must have been reached through
// one of row i's paths, so that its path shows row i.
bool folds_into_listed(const model::DiffReport& r, std::size_t i) {
  std::size_t end = i;
  for (int hops = 0; r.rows[end].explained_by != SIZE_MAX && hops < 64; ++hops) end = r.rows[end].explained_by;
  if (end == i || r.rows[end].explained_by != SIZE_MAX) return false;  // a cycle, or too long a chain
  const auto& nodes = r.call_tree.nodes;
  for (auto n = r.rows[end].tree_node; n != model::k_no_node && n < nodes.size(); n = nodes[n].parent)
    if (nodes[n].row == i) return true;
  return false;
}

// How much of a row's change its shown path carries, in [0, 1]: the path's Δ over the
// row's (of the means), 0 when the path moved the other way (none of the change is
// there; other paths carry more than all of it), 1 when it moved more than the row (the
// others moved back). nullopt without a path or without a per-step change.
std::optional<double> shown_path_share(const model::DiffReport& r, const model::DiffRow& row) {
  if (row.tree_node >= r.call_tree.nodes.size()) return std::nullopt;
  const double d = row.per_step_basis ? row.diff_per_step_ns() : 0.0;
  if (d == 0) return std::nullopt;
  return std::clamp(r.call_tree.nodes[row.tree_node].time.diff() / d, 0.0, 1.0);
}
double path_share(const model::DiffReport& r, const model::DiffRow& row) {
  return shown_path_share(r, row).value_or(0.0);
}

std::string path_words(const model::DiffReport& r, const model::DiffRow& row) {
  if (row.tree_node >= r.call_tree.nodes.size()) return {};
  const double share = path_share(r, row);
  if (share >= 0.9) return "in";
  if (share <= 0.005) return {};  // no path carries it: nothing to show
  return std::to_string(static_cast<int>(share * 100 + 0.5)) + " % in";
}

// Whether nearly all of row i's change lies on one path under a row already listed, of
// whose change it is a lesser part (a data loader's calls under the loader): the
// caller's entry tells it, and its path and the call tree show the parts. A call that
// carries half or more of its caller's change is its main cause and stays listed.
// LISTED: per row, whether it is listed (a lookup, not a search: the list may hold
// every significant row).
bool inside_listed(const model::DiffReport& r, std::size_t i, const std::vector<bool>& listed) {
  const auto& row = r.rows[i];
  const auto& nodes = r.call_tree.nodes;
  if (row.tree_node >= nodes.size() || path_share(r, row) < 0.9) return false;
  const double here = nodes[row.tree_node].time.diff();
  for (auto n = nodes[row.tree_node].parent; n != model::k_no_node && n < nodes.size(); n = nodes[n].parent) {
    const auto j = nodes[n].row;
    if (j == SIZE_MAX || j == i || j >= listed.size() || !listed[j]) continue;
    const double whole = r.rows[j].diff_per_step_ns();
    return whole != 0 && here / whole < 0.5;
  }
  return false;
}

}  // namespace

double direction(const model::DiffRow& row) {
  if (const double d = row.shown.diff_ns(); d != 0) return d;
  return row.basis_diff_ns();
}

// Kernels of one family that moved both ways while the family's time stayed the same
// (not significant, and their moves cancel to within a quarter): the work is the same,
// done by other algorithms. Rows that could be listed (significant, or any when nothing
// is testable) are marked; the note says which families.
void mark_swaps(model::DiffReport& r) {
  const bool raw = !testable(r);
  for (const auto& f : r.families) {
    if (f.time.significant) continue;
    double up = 0, down = 0;
    std::vector<std::size_t> moving;
    for (const auto i : f.rows) {
      const auto& row = r.rows[i];
      if (!(row.significant || (raw && row.verdict == model::Verdict::untestable))) continue;
      const double d = direction(row);
      if (d == 0) continue;
      (d > 0 ? up : down) += d;
      moving.push_back(i);
    }
    if (up == 0 || down == 0 || std::fabs(f.time.diff()) > 0.25 * (up - down)) continue;
    for (const auto i : moving) r.rows[i].swapped = true;
  }
}

// The significant rows of one direction, largest |Δ per step| first (the rows are in
// that order), and how many more there are; in --hta-compat, by raw difference.
model::TopList top_list(const model::DiffReport& r, bool slower, std::size_t n) {
  model::TopList list;
  const bool any_testable = testable(r);
  list.raw = !r.hta_compat && !any_testable;
  // Families with names gone and names new: their one-sided rows are renames.
  std::set<std::string_view> gone, fresh;
  for (const auto& row : r.rows)
    if (!row.family.empty() && (row.change == model::Change::deleted || row.change == model::Change::added))
      (row.change == model::Change::deleted ? gone : fresh).insert(row.family);
  const auto renamed = [&](const model::DiffRow& row) {
    return !row.family.empty() && (row.change == model::Change::deleted || row.change == model::Change::added) &&
           gone.count(row.family) && fresh.count(row.family);
  };
  // Every row the list would show were it endless: a row inside one of them is folded
  // whatever --top says, so that the counts (and the verdict line) do not depend on it
  // (--top 3 once counted 69 significant regressions, --top 100 41).
  std::vector<std::size_t> listable;
  std::vector<bool> is_listable(r.rows.size(), false);
  for (auto i : r.impact_order()) {
    const auto& row = r.rows[i];
    const double d = direction(row);
    if (d == 0 || (d > 0) != slower) continue;
    if (!r.hta_compat && !list.raw && !row.significant) {
      (row.verdict == model::Verdict::untestable ? list.untestable : list.within_noise) += 1;
    } else if (!r.hta_compat && row.waits_for_gpu) {
      ++list.waiting;  // the host blocked on the GPU: the note says on what
    } else if (!r.hta_compat && row.category == "gpu_user_annotation") {
      ++list.folded;  // an annotation's GPU span: the kernels inside it say its change
    } else if (!r.hta_compat && row.sleeping) {
      ++list.sleeping;  // a thread that launches nothing, asleep: no work
    } else if (row.explained_by != SIZE_MAX && folds_into_listed(r, i)) {
      ++list.folded;  // a call inside says it better, and the path of the one listed shows this row
    } else if (!listable.empty() && inside_listed(r, i, is_listable)) {
      ++list.folded;  // part of a caller listed above it: the same change again
    } else if (!r.hta_compat && renamed(row)) {
      ++list.renamed;
    } else if (!r.hta_compat && row.swapped) {
      ++list.swapped;
    } else {
      listable.push_back(i);
      is_listable[i] = true;
    }
  }
  for (std::size_t k = 0; k < listable.size(); ++k) {
    if (k < n) list.rows.push_back(listable[k]);
    else (list.raw ? list.untestable : list.more) += 1;
  }
  for (const auto i : list.rows) {
    const auto words = path_words(r, r.rows[i]);
    list.nodes.push_back(r.rows[i].tree_node);
    list.paths.push_back(words.empty() ? std::vector<std::string>() : caller_path(r, r.rows[i].tree_node));
    list.path_words.push_back(words);
    list.path_shares.push_back(shown_path_share(r, r.rows[i]));
  }
  return list;
}

// Rows whose self allocations per step changed significantly one way (DiffRow::memory),
// largest |Δ bytes per step| first, then row order. Self bytes charge each allocation to
// one operator, the innermost, so a change is listed once, not again for each caller.
model::TopList allocation_list(const model::DiffReport& r, bool more, std::size_t n) {
  model::TopList list;
  list.raw = !testable(r);
  std::vector<std::size_t> moved;
  for (auto i : r.impact_order()) {
    const auto& m = r.rows[i].memory;
    const double d = m.allocated.diff();
    if (!m.recorded || d == 0 || (d > 0) != more) continue;
    if (!list.raw && !m.allocated.significant) {
      (m.allocated.verdict == model::Verdict::untestable ? list.untestable : list.within_noise) += 1;
      continue;
    }
    moved.push_back(i);
  }
  std::stable_sort(moved.begin(), moved.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(r.rows[a].memory.allocated.diff()) > std::fabs(r.rows[b].memory.allocated.diff());
  });
  for (const auto i : moved) {
    if (list.rows.size() < n) list.rows.push_back(i);
    else (list.raw ? list.untestable : list.more) += 1;
  }
  list.nodes.assign(list.rows.size(), model::k_no_node);
  list.paths.assign(list.rows.size(), {});
  list.path_words.assign(list.rows.size(), {});
  list.path_shares.assign(list.rows.size(), std::nullopt);
  return list;
}

}  // namespace tracediff::analysis::detail
