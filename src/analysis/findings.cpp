// What a comparison says, beyond its figures: the top regressions and improvements,
// the launchers that moved, where the sides differ, the notes, and the labels every
// view shows names by.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis/decide.hpp"
#include "analysis/embedded.hpp"
#include "analysis/noise.hpp"
#include "model/summary.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"
#include "util/sanitize.hpp"

namespace tracediff::analysis::detail {

namespace {

// Both sides have steps or neither has (compare_summaries refuses a mix).
std::string unit_of(const model::DiffReport& r) { return r.control.whole_trace ? "trace" : "step"; }

std::string side_label(const model::SideSummary& s, const char* fallback) {
  return s.label.empty() ? fallback : s.label;
}

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

// How much of a row's change its shown path carries: "in" when nearly all, else "49 % in".
double path_share(const model::DiffReport& r, const model::DiffRow& row) {
  if (row.tree_node >= r.call_tree.nodes.size()) return 0;
  const double d = row.per_step_basis ? row.diff_per_step_ns() : 0.0;
  return d == 0 ? 0.0 : r.call_tree.nodes[row.tree_node].time.diff() / d;
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
bool inside_listed(const model::DiffReport& r, std::size_t i, const std::vector<std::size_t>& listed) {
  const auto& row = r.rows[i];
  const auto& nodes = r.call_tree.nodes;
  if (listed.empty() || row.tree_node >= nodes.size() || path_share(r, row) < 0.9) return false;
  const double here = nodes[row.tree_node].time.diff();
  for (auto n = nodes[row.tree_node].parent; n != model::k_no_node && n < nodes.size(); n = nodes[n].parent) {
    const auto j = nodes[n].row;
    if (j == SIZE_MAX || j == i || std::find(listed.begin(), listed.end(), j) == listed.end()) continue;
    const double whole = r.rows[j].diff_per_step_ns();
    return whole != 0 && here / whole < 0.5;
  }
  return false;
}

// Which way a row moved, by the Δ the lists print (the medians'), else the means'.
double direction(const model::DiffRow& row) {
  if (const double d = row.shown.diff_ns(); d != 0) return d;
  return row.per_step_basis ? row.diff_per_step_ns() : static_cast<double>(row.diff_ns());
}

// Kernels of one family that moved both ways while the family's time stayed the same
// (not significant, and their moves cancel to within a quarter): the work is the same,
// done by other algorithms. Rows that could be listed (significant, or any when nothing
// is testable) are marked; the note says which families.
void mark_swaps(model::DiffReport& r) {
  const bool raw = !testable(r.control.units, r.test.units);
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
  const bool any_testable = testable(r.control.units, r.test.units);
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
  for (auto i : r.impact_order()) {
    const auto& row = r.rows[i];
    const double d = direction(row);
    if (d == 0 || (d > 0) != slower) continue;
    if (!r.hta_compat && !list.raw && !row.significant) {
      (row.verdict == model::Verdict::untestable ? list.untestable : list.within_noise) += 1;
    } else if (!r.hta_compat && row.waits_for_gpu) {
      ++list.waiting;  // the host blocked on the GPU: the note says on what
    } else if (row.explained_by != SIZE_MAX && folds_into_listed(r, i)) {
      ++list.folded;  // a call inside says it better, and the path of the one listed shows this row
    } else if (inside_listed(r, i, list.rows)) {
      ++list.folded;  // part of a caller listed above it: the same change again
    } else if (!r.hta_compat && renamed(row)) {
      ++list.renamed;
    } else if (!r.hta_compat && row.swapped) {
      ++list.swapped;
    } else if (list.rows.size() < n) {
      list.rows.push_back(i);
    } else {
      (list.raw ? list.untestable : list.more) += 1;
    }
  }
  for (const auto i : list.rows) {
    const auto words = path_words(r, r.rows[i]);
    list.nodes.push_back(r.rows[i].tree_node);
    list.paths.push_back(words.empty() ? std::vector<std::string>() : caller_path(r, r.rows[i].tree_node));
    list.path_words.push_back(words);
    list.path_shares.push_back(path_share(r, r.rows[i]));
  }
  return list;
}

std::string version_text(std::int64_t v) {
  // CUDA writes major * 1000 + minor * 10: 12040 is 12.4.
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

template <typename T, typename F>
std::string joined(const std::vector<T>& v, F&& text) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ", ") + text(x);
  return out.empty() ? std::string("not recorded") : out;
}

void sides_differ(model::DiffReport& r) {
  const auto& c = r.control.meta;
  const auto& t = r.test.meta;
  const auto add = [&](const char* what, std::string cv, std::string tv) {
    if (cv != tv) r.sides_differ.push_back({what, std::move(cv), std::move(tv)});
  };
  const auto same = [](const std::string& s) { return s; };
  if (!c.gpus.empty() || !t.gpus.empty()) add("GPU", joined(c.gpus, same), joined(t.gpus, same));
  const auto num = [](auto v) { return std::to_string(v); };
  if (!c.world_sizes.empty() || !t.world_sizes.empty())
    add("World size", joined(c.world_sizes, num), joined(t.world_sizes, num));
  // The ranks compared: how many, or which when there are few (rank 0 against rank 1).
  const auto ranks = [](const std::vector<int>& v) {
    if (v.size() > 4) return std::to_string(v.size());
    std::string out = v.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
    return out;
  };
  if (r.control.ranks.size() != r.test.ranks.size())
    add("Ranks compared", std::to_string(r.control.ranks.size()), std::to_string(r.test.ranks.size()));
  else
    add("Ranks compared", ranks(r.control.ranks), ranks(r.test.ranks));
  if (!c.cuda_runtime.empty() || !t.cuda_runtime.empty())
    add("CUDA runtime", joined(c.cuda_runtime, version_text), joined(t.cuda_runtime, version_text));
  if (!c.cuda_driver.empty() || !t.cuda_driver.empty())
    add("CUDA driver", joined(c.cuda_driver, version_text), joined(t.cuda_driver, version_text));
  add("CUDA graphs", c.cuda_graphs ? "used" : "not used", t.cuda_graphs ? "used" : "not used");
  add("torch.compile", c.compiled ? "used" : "not used", t.compiled ? "used" : "not used");
}

std::string ms(double ns) { return format_duration_ns(to_ns(ns), false); }

// The GPU queue backs up when the work launched in a step outlives it by a fifth of a
// step on average (a little spill is the normal overlap of an asynchronous loop), or
// when that spill grows from step to step on a rank by a tenth of a step or more.
bool queue_backs_up(const model::SideSummary& side) {
  const auto& m = side.step_mean;
  if (m.dur_ns <= 0) return false;
  if (__int128{m.gpu_spill_ns} * 5 >= m.dur_ns) return true;  // 128 bits: spill may be near 2^61
  std::map<int, std::vector<const model::StepDetail*>> by_rank;
  for (const auto& d : side.step_details) by_rank[d.rank].push_back(&d);
  for (const auto& [rank, steps] : by_rank) {
    if (steps.size() < 3) continue;
    bool rising = true;
    for (std::size_t i = 1; i < steps.size() && rising; ++i) rising = steps[i]->gpu_spill_ns >= steps[i - 1]->gpu_spill_ns;
    if (rising && (__int128{steps.back()->gpu_spill_ns} - steps.front()->gpu_spill_ns) * 10 >= m.dur_ns) return true;
  }
  return false;
}

// Steps far from the others of their rank, kept in every figure but said: a step a
// fifth of the others' median or less is likely empty or cut, one three times longer a
// warm-up the detection could not take out (it needs 3 steps) or a stall: either can
// keep a change from being judged real, and the reader should know which step. The first
// few are named, the rest counted.
std::string odd_steps(const model::SideSummary& side) {
  constexpr std::size_t k_named = 5;
  std::string list;
  std::size_t odd = 0;
  const auto& all = side.step_details;
  for (auto first = all.begin(); first != all.end();) {
    const auto last = std::upper_bound(first, all.end(), first->rank, RankLess{});
    const auto n = static_cast<std::size_t>(last - first);
    // Each step's position among its rank's steps sorted by duration.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return first[a].dur_ns < first[b].dur_ns; });
    std::vector<double> sorted(n);
    std::vector<std::size_t> position(n);
    for (std::size_t k = 0; k < n; ++k) {
      sorted[k] = static_cast<double>(first[order[k]].dur_ns);
      position[order[k]] = k;
    }
    for (std::size_t i = 0; n >= 2 && i < n; ++i) {
      if (n == 2 && i == 1) break;  // two steps: each is the other's outlier; say the first
      const double m = median_without(sorted, position[i]), d = static_cast<double>(first[i].dur_ns);
      if (!(d * 5 <= m || d >= 3 * m)) continue;
      if (++odd > k_named) continue;
      list += std::string(list.empty() ? "" : "; ") + "rank " + std::to_string(first->rank) + " step " +
              std::to_string(first[i].step) + " took " + ms(d) + " against " + (n == 2 ? "" : "a median of ") + ms(m);
    }
    first = last;
  }
  if (odd > k_named) list += " and " + std::to_string(odd - k_named) + " more";
  return list;
}

// Both sides compare the same files, ranks and steps (each step's span, so that two
// step markers over one file differ): ranks 0-3 against 4-7 of one directory do not.
bool same_traces(const model::DiffReport& r) {
  const auto& c = r.control;
  const auto& t = r.test;
  if (c.files.empty() || c.files.size() != t.files.size() || c.ranks != t.ranks || c.iterations != t.iterations)
    return false;
  for (std::size_t i = 0; i < c.files.size(); ++i)
    if (c.files[i].path != t.files[i].path) return false;
  const auto& cs = c.step_times.steps;
  const auto& ts = t.step_times.steps;
  if (cs.size() != ts.size()) return false;
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (cs[i].rank != ts[i].rank || cs[i].step != ts[i].step || cs[i].dur_ns != ts[i].dur_ns) return false;
  return true;
}

// GPU work without a recorded launch: how much of each side's GPU work it is, and
// where the rows keep it.
void unlaunched_note(model::DiffReport& r) {
  std::string shares;
  for (const auto* side : {&r.control, &r.test}) {
    const auto& m = side->step_mean;
    const double work = static_cast<double>(m.kernel_ns) + static_cast<double>(m.comm_ns) +
                        static_cast<double>(m.memcpy_ns) + static_cast<double>(m.memset_ns);
    const double pct = work > 0 ? 100.0 * static_cast<double>(m.unlaunched_ns) / work : 0.0;
    const auto whole = std::llround(pct);
    const auto share = pct > 0 && whole == 0 ? std::string("under 1 %") : std::to_string(whole) + " %";
    const auto amount = m.unlaunched_ns ? " (" + ms(static_cast<double>(m.unlaunched_ns)) + " per " + r.unit + ")" : "";
    shares += (shares.empty() ? share + " of GPU work launched" : ", " + share) + " on " + side->label + amount;
  }
  if (r.control.step_mean.unlaunched_ns == 0 && r.test.step_mean.unlaunched_ns == 0) return;
  // Short: the Markdown elides notes past 300 characters.
  r.notes.push_back("GPU work without a recorded launch (graph replays, launches outside the profiled window or "
                    "threads): " + shares + ". Kept in its rows and families under \"" +
                    std::string(model::k_unrecorded_launcher) + " stream S\", in the " + r.unit +
                    " its GPU start falls in.");
}

void notes(model::DiffReport& r) {
  if (const auto renamed = r.top_regressions.renamed + r.top_improvements.renamed) {
    std::set<std::string> families;
    for (const auto& row : r.rows)
      if (!row.family.empty() && (row.change == model::Change::added || row.change == model::Change::deleted))
        for (const auto& f : r.families)
          if (f.id == row.family) families.insert(f.label);
    std::string names;
    for (const auto& f : families) names += (names.empty() ? "" : ", ") + f;
    r.notes.push_back(format_count(static_cast<std::int64_t>(renamed), false) +
                      " GPU kernels that changed significantly run on one side only, in families that have kernels "
                      "on the other side only (" + names +
                      "): the same work under other names (another library or vendor). They are left out of the "
                      "top lists; the kernel families say how that work's time changed.");
  }
  if (r.top_regressions.swapped + r.top_improvements.swapped) {
    std::string families;
    double up = 0, down = 0;
    std::size_t n_up = 0, n_down = 0;
    for (const auto& f : r.families) {
      bool any = false;
      for (const auto i : f.rows) {
        const auto& row = r.rows[i];
        if (!row.swapped) continue;
        any = true;
        const double d = direction(row);
        (d > 0 ? up : down) += d;
        ++(d > 0 ? n_up : n_down);
      }
      if (any)
        families += (families.empty() ? "" : "; ") + f.label + " " + format_duration_ns(to_ns(f.time.diff()), true) +
                    " per " + r.unit;
    }
    r.notes.push_back("Algorithm swaps: " + format_count(static_cast<std::int64_t>(n_up), false) + " kernels took more time (" +
                      format_duration_ns(to_ns(up), true) + " per " + r.unit + ") and " +
                      format_count(static_cast<std::int64_t>(n_down), false) + " less (" +
                      format_duration_ns(to_ns(down), true) + ") within families whose time stayed the same (" +
                      families + "): the same work done by other kernels, as when cuDNN, cuBLAS or an autotuner "
                      "picks other algorithms from run to run. They are left out of the top lists; the kernel "
                      "families tell the change.");
  }
  if (r.control.step_mean.profiler_ns || r.test.step_mean.profiler_ns)
    r.notes.push_back("The profiler's own work is left out of the rows, lists and call tree (its Python frames and what "
                      "runs in them, and the device synchronisation that stops it): " +
                      ms(static_cast<double>(r.control.step_mean.profiler_ns)) + " per " + r.unit + " on " +
                      r.control.label + ", " + ms(static_cast<double>(r.test.step_mean.profiler_ns)) + " on " +
                      r.test.label + ".");
  const bool same_inputs = same_traces(r);
  if (same_inputs)
    r.notes.push_back("Both sides are the same traces: nothing can differ but the reading of them.");
  if (r.control.whole_trace && r.test.whole_trace)
    r.notes.push_back("Neither side has ProfilerStep: each trace is compared whole, figures are per trace.");
  // A side of one trace without a rank is rank 0: said once, not as a warning.
  std::vector<const model::SideSummary*> unranked;
  for (const auto* side : {&r.control, &r.test})
    if (side->files.size() == 1 && side->files.front().rank_source == model::RankSource::fallback)
      unranked.push_back(side);
  if (unranked.size() == 2)
    r.notes.push_back("Each side is one trace without a rank: both are taken as rank 0.");
  else if (unranked.size() == 1)
    r.notes.push_back(unranked.front()->label + " is one trace without a rank: it is taken as rank 0.");
  for (const auto* side : {&r.control, &r.test})
    for (const auto& m : side->step_markers) {
      const auto files = m.files == 1 ? std::string() : " in " + std::to_string(m.files) + " files";
      r.notes.push_back(side->label + ": steps from the step marker '" + m.pattern + "': " +
                        (m.spans ? std::to_string(m.matches) + " spans" + files + ", each a step"
                                 : std::to_string(m.matches) + " markers" + files + ", a step from each to the next (" +
                                       std::to_string(m.steps) + " step" + (m.steps == 1 ? "" : "s") + ")") +
                        ".");
    }
  if (!testable(r.control.units, r.test.units))
    r.notes.push_back("Not testable: " + r.control.label + " has " + std::to_string(r.control.units) + " " + r.unit +
                      (r.control.units == 1 ? "" : "s") + " to compare and " + r.test.label + " " +
                      std::to_string(r.test.units) + "; a rank test needs 5 a side (or 4 and 6, 3 and 9) to tell a "
                      "change from noise at the 1 % level (p < 0.01). The lists show the largest raw changes, none "
                      "of them judged real.");
  for (const auto* side : {&r.control, &r.test}) {
    if (side->warmup.empty()) continue;
    // One warm-up step per file at most: the first few are named, the rest counted.
    constexpr std::size_t k_named = 5;
    std::string list;
    for (std::size_t i = 0; i < side->warmup.size() && i < k_named; ++i) {
      const auto& w = side->warmup[i];
      const auto [first, last] = std::equal_range(side->step_details.begin(), side->step_details.end(), w.rank, RankLess{});
      std::vector<double> others;
      for (auto it = first; it != last; ++it) others.push_back(static_cast<double>(it->dur_ns));
      list += std::string(list.empty() ? "" : "; ") + "rank " + std::to_string(w.rank) + " step " +
              std::to_string(w.step) + " (" + ms(static_cast<double>(w.dur_ns)) + " against a median of " +
              ms(median(others)) + ")";
    }
    if (side->warmup.size() > k_named) list += " and " + std::to_string(side->warmup.size() - k_named) + " more";
    r.notes.push_back(std::string(side->warmup.size() == 1 ? "A warm-up step" : "Warm-up steps") + " left out of " +
                      side->label + ": " + list + ". --keep-warmup keeps " +
                      (side->warmup.size() == 1 ? "it." : "them."));
  }
  for (const auto* side : {&r.control, &r.test}) {
    if (same_inputs && side == &r.test) break;
    const auto odd = odd_steps(*side);
    if (!odd.empty())
      r.notes.push_back("Steps far from their rank's others on " + (same_inputs ? std::string("both sides") : side->label) +
                        ", kept in every figure: " + odd +
                        ". A step that short is likely empty or cut; one that long, a warm-up or a stall.");
  }
  if (const auto& tree = r.call_tree; tree.control_folded || tree.test_folded)
    r.notes.push_back("The call tree keeps at most " + format_count(static_cast<std::int64_t>(tree.budget), false) +
                      " paths per trace and per side: the smallest ones are folded into \"(other)\" nodes under "
                      "their parents, their time kept (" +
                      format_count(static_cast<std::int64_t>(tree.control_folded), false) + " folded on " +
                      r.control.label + ", " + format_count(static_cast<std::int64_t>(tree.test_folded), false) +
                      " on " + r.test.label + ", counted per trace).");
  unlaunched_note(r);
  wait_note(r);
  const bool c = queue_backs_up(r.control), t = queue_backs_up(r.test);
  r.queue_backs_up = c || t;
  for (const auto* side : {&r.control, &r.test}) {
    if (!(side == &r.control ? c : t) || (c && t && side == &r.test)) continue;
    const bool both = c && t;
    r.notes.push_back("The GPU queue backs up on " + (both ? std::string("both sides") : side->label) + ": " +
                      (both ? ms(static_cast<double>(r.control.step_mean.gpu_spill_ns)) + " and " +
                                  ms(static_cast<double>(r.test.step_mean.gpu_spill_ns))
                            : ms(static_cast<double>(side->step_mean.gpu_spill_ns))) +
                      " per " + r.unit + " of GPU work runs on after the " + r.unit +
                      " that launched it has ended. Step times then follow the CPU, and GPU time lands in later "
                      "steps.");
  }
}

// Labels that tell names apart within the report (util/display_name).
void labels(model::DiffReport& r) {
  constexpr std::size_t k_chars = 60;
  std::vector<std::string_view> names;
  for (const auto& row : r.rows) names.push_back(row.full_name.empty() || r.short_names ? row.name : row.full_name);
  auto shown = distinct_labels(names, k_chars);
  for (std::size_t i = 0; i < r.rows.size(); ++i) r.rows[i].label = std::move(shown[i]);
  for (auto& row : r.rows)
    if (!row.test_name.empty()) row.test_label = elide(simplify_name(row.test_name), k_chars);
  // The same name in two categories (a Triton kernel and the cpu_op named after it):
  // the category tells them apart.
  // (Hash maps of views: ordered maps of copied labels were a tenth of this pass on
  // 300,000 names. Nothing below depends on their order.)
  std::unordered_map<std::string_view, std::string_view> a_category;  // label -> a category it has
  std::unordered_set<std::string_view> in_several;                    // labels with more than one
  for (const auto& row : r.rows) {
    const auto [it, fresh] = a_category.try_emplace(row.label, row.category);
    if (!fresh && it->second != row.category) in_several.insert(row.label);
  }
  std::vector<bool> tag(r.rows.size());
  for (std::size_t i = 0; i < r.rows.size(); ++i) tag[i] = in_several.count(r.rows[i].label) > 0;
  for (std::size_t i = 0; i < r.rows.size(); ++i)  // the labels change: the maps' views go first
    if (tag[i]) r.rows[i].label += " [" + display_safe(r.rows[i].category) + "]";
  names.clear();
  for (const auto& l : r.by_launcher) names.push_back(l.launcher);
  shown = distinct_labels(names, k_chars);
  std::unordered_map<std::string_view, std::string_view> launcher_label;
  for (std::size_t i = 0; i < r.by_launcher.size(); ++i) {
    r.by_launcher[i].label = std::move(shown[i]);
    launcher_label[r.by_launcher[i].launcher] = r.by_launcher[i].label;
  }
  for (auto& row : r.rows)
    if (!row.launched_by.empty()) {
      const auto it = launcher_label.find(row.launched_by);
      row.launched_by_label = it != launcher_label.end() ? std::string(it->second) : row.launched_by;
    }
  std::unordered_map<std::string_view, std::string_view> row_label;
  for (const auto& row : r.rows)
    if (row.device == model::Device::gpu) row_label.emplace(row.name, row.label);
  for (auto& l : r.by_launcher)
    for (auto& k : l.kernels) {
      const auto it = row_label.find(k.name);
      k.label = it != row_label.end() ? std::string(it->second) : elide(simplify_name(k.name), k_chars);
    }
}

}  // namespace

void describe_side(const model::SetSummary& set, const std::set<int>& ranks, model::SideMeta& meta) {
  std::map<std::string, std::size_t> gpus;  // model -> most devices of it in one file
  std::set<int> world;
  std::set<std::int64_t> runtime, driver;
  std::set<int> active;
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
  }
  for (const auto& [g, n] : gpus) meta.gpus.push_back(n > 1 ? g + " \xC3\x97 " + std::to_string(n) : g);
  meta.world_sizes.assign(world.begin(), world.end());
  meta.cuda_runtime.assign(runtime.begin(), runtime.end());
  meta.cuda_driver.assign(driver.begin(), driver.end());
  meta.gpus_with_work.assign(active.begin(), active.end());
}

// The rows by what the report says of them, with the top lists' counts: every view
// prints these, so the verdict line, the cards and the lists agree.
void verdict_counts(model::DiffReport& r) {
  auto& v = r.verdict_counts;
  const auto& up = r.top_regressions;
  const auto& down = r.top_improvements;
  v.regressions = up.significant();
  v.improvements = down.significant();
  for (const auto* l : {&up, &down}) {
    v.left_out += l->raw ? 0 : l->folded + l->renamed + l->swapped + l->waiting;
    v.waiting += l->raw ? 0 : l->waiting;
  }
  for (const auto& row : r.rows) {
    if (r.hta_compat) continue;
    if (row.verdict == model::Verdict::untestable) ++v.untestable;
    else if (!row.significant) ++v.same;
  }
}

// Calls per step unit of the rows of each device (totals in --hta-compat): counts,
// not judged.
void counts(model::DiffReport& r) {
  const double cu = r.hta_compat || !r.control.units ? 1.0 : static_cast<double>(r.control.units);
  const double tu = r.hta_compat || !r.test.units ? 1.0 : static_cast<double>(r.test.units);
  const auto add = [&](const char* id, const char* label, const char* note, const model::SideStats& c,
                       const model::SideStats& t) {
    model::Figure f;
    f.id = id;
    f.label = label;
    f.note = note;
    f.judged = false;
    f.duration = false;
    f.value.control = static_cast<double>(c.count) / cu;
    f.value.test = static_cast<double>(t.count) / tu;
    if (f.value.control != 0) f.value.pct = 100.0 * (f.value.test - f.value.control) / f.value.control;
    r.counts.push_back(std::move(f));
  };
  add("cpu_calls", "CPU operator calls", "host events of the operator categories", r.control.cpu_total,
      r.test.cpu_total);
  add("gpu_items", "GPU work items", "kernels, memcpy, memset", r.control.gpu_total, r.test.gpu_total);
}

void decide(model::DiffReport& r, const CompareOptions& options) {
  const NoiseRule rule{options.min_change_pct, options.min_change_us * 1000.0};
  r.control.label = side_label(r.control, "Control");
  r.test.label = side_label(r.test, "Test");
  r.unit = unit_of(r);
  decide_figures(r, rule);
  const auto n = static_cast<std::size_t>(std::max(options.top, 0));
  mark_swaps(r);
  mark_waits(r);
  r.top_regressions = top_list(r, true, n);
  r.top_improvements = top_list(r, false, n);
  verdict_counts(r);
  for (std::size_t k = 0; k < r.by_launcher.size() && r.top_launchers.size() < n; ++k)
    if (r.by_launcher[k].time.significant) r.top_launchers.push_back(k);
  sides_differ(r);
  notes(r);
  counts(r);
  labels(r);
  decide_step_change(r, rule);
  decide_embedded(r, n);
}

void decide_hta(model::DiffReport& r, const CompareOptions& options) {
  r.unit = "step";
  // No noise test in HTA: a verdict is the sign of the difference of the totals.
  const auto by_sign = [](double d) {
    return d > 0 ? model::Verdict::slower : d < 0 ? model::Verdict::faster : model::Verdict::same;
  };
  for (auto& row : r.rows) row.verdict = by_sign(static_cast<double>(row.diff_ns()));
  const auto total = [&](const char* id, const char* label, const model::SideStats& c, const model::SideStats& t) {
    model::Figure f;
    f.id = id;
    f.label = label;
    f.note = "HTA's sum of inclusive times";
    f.value.control = static_cast<double>(c.total_ns);
    f.value.test = static_cast<double>(t.total_ns);
    if (c.total_ns != 0) f.value.pct = 100.0 * (f.value.test - f.value.control) / f.value.control;
    f.value.verdict = by_sign(f.value.diff());
    f.judged = false;
    r.headline.push_back(std::move(f));
  };
  total("cpu_total", "CPU operators, total time", r.control.cpu_total, r.test.cpu_total);
  total("gpu_total", "GPU work, total time", r.control.gpu_total, r.test.gpu_total);
  counts(r);
  const auto n = static_cast<std::size_t>(std::max(options.top, 0));
  r.top_regressions = top_list(r, true, n);
  r.top_improvements = top_list(r, false, n);
  verdict_counts(r);
  labels(r);
  decide_embedded(r, n);
}

}  // namespace tracediff::analysis::detail
