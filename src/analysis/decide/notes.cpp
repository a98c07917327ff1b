// Where the sides differ and the notes: plain-language remarks on what the figures
// cannot say alone (odd steps, a GPU queue that backs up, GPU work with no launch, ...).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis/decide/notes.hpp"
#include "analysis/decide/figures.hpp"
#include "analysis/decide/host_wait.hpp"
#include "analysis/decide/top_lists.hpp"
#include "analysis/noise/noise.hpp"
#include "model/summary.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"
#include "util/sanitize.hpp"

namespace tracediff::analysis::detail {

namespace {


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
}  // namespace


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
  // Summaries made with other --launcher levels attribute the same launches to other
  // operators: the launcher table then compares different things.
  if (!c.launcher_levels.empty() && !t.launcher_levels.empty())
    add("Launchers (--launcher)", joined(c.launcher_levels, same), joined(t.launcher_levels, same));
  // Runs of one side on other GPUs: their spread is the hardware's, not the code's.
  for (const auto* side : {&r.control, &r.test}) {
    std::vector<std::string> gpus;  // per run, distinct
    for (const auto& run : side->runs) {
      auto g = joined(run.gpu_names, same);
      if (!g.empty() && std::find(gpus.begin(), gpus.end(), g) == gpus.end()) gpus.push_back(std::move(g));
    }
    if (gpus.size() < 2) continue;
    std::string list;
    for (std::size_t i = 0; i < side->runs.size(); ++i)
      list += (i ? "; " : "") + std::string("run ") + std::to_string(i + 1) + ": " +
              (side->runs[i].gpu_names.empty() ? std::string("none") : joined(side->runs[i].gpu_names, same));
    const bool is_control = side == &r.control;
    r.sides_differ.push_back({"GPU between " + side->label + "'s runs", is_control ? list : "", is_control ? "" : list});
    r.diagnostics.report(model::DiagId::runs_differ, side->runs.front().inputs, 0,
                         side->label + "'s runs ran on different GPUs (" + list + ")");
  }
}

namespace {

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

// The first few files by name (the last part of each path), the rest counted.
std::string file_list(const std::vector<std::string>& paths) {
  constexpr std::size_t k_named = 3;
  std::string out;
  for (std::size_t i = 0; i < paths.size() && i < k_named; ++i) {
    const auto slash = paths[i].find_last_of('/');
    out += (i ? ", " : "") + (slash == std::string::npos ? paths[i] : paths[i].substr(slash + 1));
  }
  if (paths.size() > k_named) out += " and " + std::to_string(paths.size() - k_named) + " more";
  return out;
}

// Which step marker made a side's steps: one note for the side, which names the files
// when they differ (a marker that matched in some files only, summaries made apart), so
// that it never claims one marker for files that had another or none.
void step_marker_note(model::DiffReport& r, const model::SideSummary& side) {
  if (side.step_markers.empty()) return;
  const bool alike = side.step_markers.size() == 1 && side.unmarked_files.empty();
  std::string text;
  for (const auto& m : side.step_markers) {
    const auto files = alike ? (m.files == 1 ? std::string() : " in " + std::to_string(m.files) + " files") : "";
    const auto steps = m.spans ? std::to_string(m.matches) + " spans" + files + ", each a step"
                               : std::to_string(m.matches) + " markers" + files + ", a step from each to the next (" +
                                     std::to_string(m.steps) + " step" + (m.steps == 1 ? "" : "s") + ")";
    text += alike ? "steps from the step marker '" + m.pattern + "': " + steps
                  : std::string(text.empty() ? "" : "; ") + "the step marker '" + m.pattern + "' in " +
                        file_list(m.paths) + ": " + steps;
  }
  if (!alike && !side.unmarked_files.empty())
    text += "; ProfilerStep spans in " + file_list(side.unmarked_files) + " (no step marker made steps there)";
  r.notes.push_back(side.label + ": " + (alike ? "" : "its files' steps are made differently: ") + text + ".");
}

}  // namespace


// How the noise was judged: between runs, or within one run a side (run-to-run noise
// not measured, docs/is-it-real.md "Several runs").
void runs_note(model::DiffReport& r) {
  if (r.hta_compat) return;
  const auto runs = [](const model::SideSummary& s) { return std::max<std::size_t>(1, s.runs.size()); };
  const auto count = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); };
  const std::size_t c = runs(r.control), t = runs(r.test);
  if (!r.between_runs) {
    // A rank with several files on a side: often runs given as one (each its own window).
    const auto repeats_a_rank = [](const model::SideSummary& s) {
      std::set<int> seen;
      for (const auto& f : s.files)
        if (!seen.insert(f.rank).second) return true;
      return false;
    };
    const bool pooled = repeats_a_rank(r.control) || repeats_a_rank(r.test);
    if (c == 1 && t == 1)
      r.notes.push_back("Run-to-run noise not measured: each side is one run, so its " + r.unit +
                        "s were the samples. Between two runs of the same code other things change too (autotuners' "
                        "choices, clocks, another job on the node); give each side several runs (--control-run, "
                        "--test-run, or --runs) to judge changes between runs." +
                        (pooled ? std::string(" A rank has several files on a side: if they are separate runs, "
                                              "give them as runs (--runs) rather than as one.")
                                : std::string()));
    else
      r.notes.push_back("Run-to-run noise not measured: " + (c == 1 ? r.control.label : r.test.label) +
                        " is one run (" + (c == 1 ? r.test.label : r.control.label) + " has " + count(std::max(c, t)) +
                        "), so the " + r.unit + "s were the samples; give both sides several runs to judge between runs.");
    return;
  }
  std::string text = "Judged between runs: " + r.control.label + " " + count(c) + ", " + r.test.label + " " + count(t) +
                     "; each run's median per " + r.unit + " is one sample of a figure, so what differs between runs "
                     "counts as noise.";
  const auto pct = [](const std::optional<double>& v) {
    if (!v) return std::string("n/a");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", *v);
    return std::string(buf);
  };
  text += " Step time spread between runs (interquartile range of the runs' medians): " + r.control.label + " " +
          pct(r.control.between_run_spread_pct) + ", " + r.test.label + " " + pct(r.test.between_run_spread_pct) +
          "; within a run (the runs' median interquartile range): " + pct(r.control.within_run_spread_pct) + ", " +
          pct(r.test.within_run_spread_pct) + ".";
  if (!testable(c, t))
    text += " Not testable: the rank test needs 5 runs a side (or 4 and 6, 3 and 9) to tell a change from noise at "
            "the 1 % level.";
  r.notes.push_back(std::move(text));
}

// A side compared whole whose traces repeat a name once an iteration: the step marker
// that would compare them iteration by iteration (a whole trace is mostly its first,
// warm-up iteration).
void marker_hint_note(model::DiffReport& r) {
  const auto& c = r.control;
  const auto& t = r.test;
  const bool both = c.whole_trace && t.whole_trace && !c.marker_hint.empty() && c.marker_hint == t.marker_hint;
  for (const auto* side : {&c, &t}) {
    if (!side->whole_trace || side->marker_hint.empty() || (both && side == &t)) continue;
    const std::string option = both ? "--step-marker" : side == &c ? "--control-step-marker" : "--test-step-marker";
    r.notes.push_back((both ? std::string("Both sides have") : side->label + " has") + " no ProfilerStep, but " +
                      side->marker_hint_name + " repeats " + std::to_string(side->marker_hint_count) +
                      " times on one thread across most of the trace: " + option + " '" + side->marker_hint +
                      "' would compare " + (both ? "them" : "it") +
                      " iteration by iteration instead of whole, the first (warm-up) iteration apart "
                      "(docs/is-it-real.md: Step markers).");
  }
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
                    " per " + r.unit + ", " + format_pct(f.time.pct, f.time.is_new()) + ", " +
                    model::verdict_words(f.time.verdict);
    }
    const auto kernels = [](std::size_t n) { return format_count(static_cast<std::int64_t>(n), false) + (n == 1 ? " kernel" : " kernels"); };
    r.notes.push_back("Algorithm swaps: " + kernels(n_up) + " took more time (" +
                      format_duration_ns(to_ns(up), true) + " per " + r.unit + ") and " +
                      kernels(n_down) + " less (" +
                      format_duration_ns(to_ns(down), true) + ") within families whose time did not change "
                      "significantly, their kernels' moves cancelling out (" +
                      families + "): the same work done by other kernels, as when cuDNN, cuBLAS or an autotuner "
                      "picks other algorithms from run to run. They are left out of the top lists; the kernel "
                      "families tell the change.");
  }
  // Data left out by accident, first: nothing else the report says holds without it.
  std::vector<std::string> left_out;
  for (const auto& d : r.diagnostics.samples())
    if (d.id == model::DiagId::events_left_out) left_out.push_back(d.side + ": " + d.file + ": " + d.message);
  if (!left_out.empty()) {
    std::string text = "Events left out (every event accounted for, under What was compared): ";
    for (std::size_t k = 0; k < left_out.size() && k < 3; ++k) text += (k ? "; " : "") + left_out[k];
    if (left_out.size() > 3) text += "; and " + std::to_string(left_out.size() - 3) + " more in the diagnostics";
    r.notes.insert(r.notes.begin(), text + ".");
  }
  if (r.control.step_mean.profiler_ns || r.test.step_mean.profiler_ns)
    r.notes.push_back("The profiler's own work is left out of the rows, lists and call tree (its Python frames and what "
                      "lies wholly inside them, and the device synchronisation that stops it): " +
                      ms(static_cast<double>(r.control.step_mean.profiler_ns)) + " per " + r.unit + " on " +
                      r.control.label + ", " + ms(static_cast<double>(r.test.step_mean.profiler_ns)) + " on " +
                      r.test.label + ".");
  const bool same_inputs = same_traces(r);
  if (same_inputs)
    r.notes.push_back("Both sides are the same traces: nothing can differ but the reading of them.");
  if (r.control.whole_trace && r.test.whole_trace)
    r.notes.push_back("Neither side has ProfilerStep: each trace is compared whole, figures are per trace.");
  marker_hint_note(r);
  // A side of one trace without a rank is rank 0: said once, not as a warning.
  std::vector<const model::SideSummary*> unranked;
  for (const auto* side : {&r.control, &r.test})
    if (side->files.size() == 1 && side->files.front().rank_source == model::RankSource::fallback)
      unranked.push_back(side);
  if (unranked.size() == 2)
    r.notes.push_back("Each side is one trace without a rank: both are taken as rank 0.");
  else if (unranked.size() == 1)
    r.notes.push_back(unranked.front()->label + " is one trace without a rank: it is taken as rank 0.");
  for (const auto* side : {&r.control, &r.test}) step_marker_note(r, *side);
  if (!r.between_runs && !testable(r.control.units, r.test.units))
    r.notes.push_back("Not testable: " + r.control.label + " has " + std::to_string(r.control.units) + " " + r.unit +
                      (r.control.units == 1 ? "" : "s") + " to compare and " + r.test.label + " " +
                      std::to_string(r.test.units) + "; a rank test needs 5 a side (or 4 and 6, 3 and 9) to tell a "
                      "change from noise at the 1 % level (p < 0.01). The lists show the largest raw changes, none "
                      "of them judged real.");
  // The same traces twice, or too few steps to judge anything: no run-to-run note to add.
  if (!same_inputs && (r.between_runs || testable(r.control.units, r.test.units))) runs_note(r);
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
      std::vector<double> unlaunched;
      for (auto it = first; it != last; ++it) unlaunched.push_back(static_cast<double>(it->unlaunched_ns));
      const bool backlog = i < side->warmup_backlog.size() && side->warmup_backlog[i];
      list += std::string(list.empty() ? "" : "; ") + "rank " + std::to_string(w.rank) + " step " + std::to_string(w.step) +
              (backlog ? " (GPU work without a recorded launch, queued before the profiler started: " +
                             ms(static_cast<double>(w.unlaunched_ns)) + " against a median of " + ms(median(unlaunched)) +
                             ")"
                       : " (" + ms(static_cast<double>(w.dur_ns)) + " against a median of " + ms(median(others)) + ")");
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
}  // namespace tracediff::analysis::detail
