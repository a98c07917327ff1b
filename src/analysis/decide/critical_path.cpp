// What bounded the step: each side's critical path per step unit (summarize/critical_path),
// its length and bound types judged with the noise test every figure gets, the rows
// whose work is on it, the what-ifs, and a reading for the bottom line when the largest
// bound type changed sides.
#include "analysis/decide/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "analysis/noise/noise.hpp"
#include "util/format.hpp"

namespace tracediff::analysis::detail {

namespace {

using model::Bound;

constexpr std::size_t k_path_rows = 10;  // rows on the path the views list
constexpr std::size_t k_what_if_rows = 5;  // each side's rows with a what-if shown
constexpr double k_clear_lead = 10;        // points of the path a side's bound leads the next by
constexpr double k_min_share = 1;          // % of a side's path a bound type needs for a figure

bool recorded(const model::SideSummary& s) {
  return std::any_of(s.step_paths.begin(), s.step_paths.end(), [](const model::StepPath& p) { return p.recorded; });
}

std::vector<double> lengths(const model::SideSummary& s) {
  std::vector<double> v;
  for (const auto& p : s.step_paths)
    if (p.recorded) v.push_back(static_cast<double>(p.length_ns));
  return v;
}

std::vector<double> bound_samples(const model::SideSummary& s, Bound b) {
  std::vector<double> v;
  for (const auto& p : s.step_paths)
    if (p.recorded) v.push_back(static_cast<double>(p.bound_ns[static_cast<std::size_t>(b)]));
  return v;
}

double share(const std::vector<double>& part, const std::vector<double>& whole) {
  double a = 0, b = 0;
  for (const auto x : part) a += x;
  for (const auto x : whole) b += x;
  return b > 0 ? 100.0 * a / b : 0;
}

// "71 %", the space a non-breaking one: a wrapped line never starts with "%".
std::string pct_words(double pct) {
  pct = std::clamp(pct, -1e15, 1e15);  // a hostile trace's shares: whatever they are, they fit
  return std::to_string(static_cast<long long>(std::llround(pct))) + "\xC2\xA0%";
}

bool comm_family(std::string_view f) {
  return f == "all_reduce" || f == "all_gather" || f == "reduce_scatter" || f == "send_recv" || f == "all_to_all" ||
         f == "broadcast" || f == "comm_other";
}

// Whether a row's own work on the path counts as the bound type (its device and family).
bool of_bound(const model::DiffRow& row, Bound b) {
  switch (b) {
    case Bound::cpu:
    case Bound::data_loading: return row.device == model::Device::cpu;
    case Bound::gpu_compute: return row.device == model::Device::gpu && !comm_family(row.family);
    case Bound::gpu_comm: return row.device == model::Device::gpu && comm_family(row.family);
    default: return false;
  }
}

std::string factor_text(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

std::string signed_ms(double ns) { return format_duration_ns(to_ns(ns), true); }

// The rank whose median path is longest, with several ranks.
std::optional<int> longest_rank(const model::SideSummary& s) {
  std::map<int, std::vector<double>> by_rank;
  for (std::size_t u = 0; u < s.step_paths.size() && u < s.step_details.size(); ++u)
    if (s.step_paths[u].recorded) by_rank[s.step_details[u].rank].push_back(static_cast<double>(s.step_paths[u].length_ns));
  if (by_rank.size() < 2) return std::nullopt;
  std::optional<int> best;
  double most = -1;
  for (auto& [rank, v] : by_rank)
    if (const double m = median(v); m > most) most = m, best = rank;
  return best;
}

// The views' mark of a verdict: ▲ more, ▼ less, ≈ within noise, ? not testable.
std::string verdict_mark(const model::Comparison& v) {
  if (v.verdict == model::Verdict::untestable) return "?";
  if (!v.significant) return "\xE2\x89\x88";
  return v.diff() > 0 ? "\xE2\x96\xB2" : "\xE2\x96\xBC";
}

// A row's time per step on the path, % of its own time per step (self: the path holds
// an operator's own time, not its children's).
std::optional<double> on_path(const model::Samples& path, double self_per_step) {
  if (self_per_step <= 0 || path.units() == 0) return std::nullopt;  // no time of its own on that side
  if (path.values().empty()) return 0.0;
  return std::min(100.0, 100.0 * path.sum() / static_cast<double>(path.units()) / self_per_step);
}

}  // namespace

void decide_critical_path(model::DiffReport& r, const NoiseRule& rule, const CompareOptions& options) {
  auto& cp = r.critical_path;
  if (r.hta_compat) return;
  cp.model = options.critical_path_model;
  const bool c_has = recorded(r.control), t_has = recorded(r.test);
  if (!c_has || !t_has) {
    if (c_has || t_has || !r.control.step_paths.empty())
      cp.missing = "a side has no critical path: its summaries were written without one (with --no-critical-path, or by an older tracediff)";
    return;
  }
  cp.decided = true;
  const auto cl = lengths(r.control), tl = lengths(r.test);
  cp.length = compare_samples(cl, tl, rule);
  std::vector<double> cs, ts;
  for (std::size_t u = 0; u < r.control.step_paths.size(); ++u)
    if (r.control.step_paths[u].recorded) cs.push_back(static_cast<double>(r.control.step_details[u].dur_ns));
  for (std::size_t u = 0; u < r.test.step_paths.size(); ++u)
    if (r.test.step_paths[u].recorded) ts.push_back(static_cast<double>(r.test.step_details[u].dur_ns));
  cp.step = compare_samples(cs, ts, rule);

  const model::PathBound* c_top = nullptr;
  const model::PathBound* t_top = nullptr;
  for (std::size_t b = 0; b < model::k_bound_count; ++b) {
    const auto bound = static_cast<Bound>(b);
    const auto cv = bound_samples(r.control, bound), tv = bound_samples(r.test, bound);
    model::PathBound pb;
    pb.bound = bound;
    pb.id = model::bound_id(bound);
    pb.label = model::bound_label(bound);
    pb.control_share = share(cv, cl);
    pb.test_share = share(tv, tl);
    // Under a hundredth of both sides' paths: no figure of its own (its time stays in the
    // per-step figures), as a microsecond of it would be "new" and significant.
    if (pb.control_share < k_min_share && pb.test_share < k_min_share) continue;
    pb.time = compare_samples(cv, tv, rule);
    cp.bounds.push_back(std::move(pb));
  }
  for (const auto& b : cp.bounds) {
    if (!c_top || b.control_share > c_top->control_share) c_top = &b;
    if (!t_top || b.test_share > t_top->test_share) t_top = &b;
  }
  // A side is bound by its largest type when that leads the next by a tenth of the path;
  // else it has no one bound ("mixed"), and the bound did not move.
  const auto clear = [&](const model::PathBound* top, bool test) {
    if (!top) return false;
    double second = 0;
    for (const auto& b : cp.bounds)
      if (&b != top) second = std::max(second, test ? b.test_share : b.control_share);
    return (test ? top->test_share : top->control_share) >= second + k_clear_lead;
  };
  const bool c_clear = clear(c_top, false), t_clear = clear(t_top, true);
  cp.control_bound = c_clear ? c_top->label : "mixed";
  cp.test_bound = t_clear ? t_top->label : "mixed";
  cp.control_bound_id = c_clear ? c_top->id : "mixed";
  cp.test_bound_id = t_clear ? t_top->id : "mixed";
  cp.bound_moved = c_clear && t_clear && c_top != t_top;

  // "Bound by CPU → GPU compute: CPU 27.6 ms → 18.4 ms (50 % → 13 %) ≈, GPU compute 20.3 ms
  // → 93.0 ms (30 % → 67 %) ▲ of the critical path; the path 67.6 ms → 138 ms (+70.1 ms)
  // against the step's 77.5 ms → 129 ms": the bound types with a tenth of either side's
  // path, largest first, each its time per step, its share and its verdict.
  std::vector<const model::PathBound*> said;
  for (const auto& b : cp.bounds)
    if (std::max(b.control_share, b.test_share) >= 10) said.push_back(&b);
  std::stable_sort(said.begin(), said.end(), [](auto* a, auto* b) {
    return std::max(a->control_share, a->test_share) > std::max(b->control_share, b->test_share);
  });
  const auto bound_words = [](const std::string& b) { return b == "mixed" ? std::string("no one bound") : "bound by " + b; };
  cp.sentence = cp.control_bound == cp.test_bound
                    ? bound_words(cp.control_bound) + (cp.control_bound == "mixed" ? " on either side" : " on both sides")
                : cp.control_bound != "mixed" && cp.test_bound != "mixed"
                    ? bound_words(cp.control_bound) + " \xE2\x86\x92 " + cp.test_bound
                    : bound_words(cp.control_bound) + " \xE2\x86\x92 " + bound_words(cp.test_bound);
  cp.sentence[0] = static_cast<char>(cp.sentence[0] - 'a' + 'A');
  if (cp.model == "hta") cp.sentence = "HTA's model: " + cp.sentence;
  const auto ms = [](double ns) { return format_duration_ns(to_ns(ns), false); };
  for (std::size_t k = 0; k < said.size(); ++k)
    cp.sentence += (k ? ", " : ": ") + said[k]->label + " " + ms(said[k]->time.control) + " \xE2\x86\x92 " +
                   ms(said[k]->time.test) + " (" + pct_words(said[k]->control_share) + " \xE2\x86\x92 " +
                   pct_words(said[k]->test_share) + ") " + verdict_mark(said[k]->time);
  // The path beside the step: GPU work past the step's end makes it longer; host time
  // between operators (Python) is on no path (HTA's model) and makes it shorter.
  cp.sentence += std::string(said.empty() ? "" : " of") + " the critical path; the path " + ms(cp.length.control) +
                 " \xE2\x86\x92 " + ms(cp.length.test) + " (" + signed_ms(cp.length.diff()) +
                 (cp.length.significant ? "" : cp.length.verdict == model::Verdict::untestable ? ", not testable" : ", within noise") +
                 ") against the step's " + ms(cp.step.control) + " \xE2\x86\x92 " + ms(cp.step.test);
  if (cp.length.significant && cp.step.significant && (cp.length.diff() > 0) != (cp.step.diff() > 0))
    cp.sentence += "; the path moved against the step: what changed the step is off the path";

  // The rows whose own work is on a side's path, by |Δ| then size.
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    const auto& p = row.path;
    if (p.control_samples.values().empty() && p.test_samples.values().empty()) continue;
    model::PathRow pr;
    pr.row = i;
    pr.time = compare_samples(p.control_samples, p.test_samples, rule);
    pr.control_on_path = on_path(p.control_samples, row.control_step.self_ns);
    pr.test_on_path = on_path(p.test_samples, row.test_step.self_ns);
    pr.change = p.control_samples.values().empty() ? "joined the path" : p.test_samples.values().empty() ? "left the path" : "";
    cp.rows.push_back(std::move(pr));
  }
  std::stable_sort(cp.rows.begin(), cp.rows.end(), [&](const model::PathRow& a, const model::PathRow& b) {
    const double da = std::fabs(a.time.diff()), db = std::fabs(b.time.diff());
    if (da != db) return da > db;
    const double sa = std::max(a.time.control, a.time.test), sb = std::max(b.time.control, b.time.test);
    return sa != sb ? sa > sb : a.row < b.row;
  });
  std::vector<model::PathRow> all_rows = cp.rows;  // for each side's top rows below
  if (cp.rows.size() > k_path_rows) cp.rows.resize(k_path_rows);

  // What-ifs: each side's rows with the most time on its path, then those asked.
  const double c_len = median(cl), t_len = median(tl);
  for (const bool test : {false, true}) {
    std::vector<const model::PathRow*> top;
    for (const auto& pr : all_rows) {
      const auto& p = r.rows[pr.row].path;
      if ((test ? p.test_saved_ns : p.control_saved_ns) && (test ? pr.time.test : pr.time.control) > 0) top.push_back(&pr);
    }
    std::stable_sort(top.begin(), top.end(), [&](auto* a, auto* b) {
      const double x = test ? a->time.test : a->time.control, y = test ? b->time.test : b->time.control;
      return x != y ? x > y : a->row < b->row;
    });
    if (top.size() > k_what_if_rows) top.resize(k_what_if_rows);
    for (const auto* pr : top) {
      const auto& row = r.rows[pr->row];
      model::WhatIfResult w;
      w.side = test ? "test" : "control";
      w.label = row.label;
      w.row = pr->row;
      w.factor = row.path.factor;
      w.spec = row.name + "*" + factor_text(w.factor);
      w.saved_ns = *(test ? row.path.test_saved_ns : row.path.control_saved_ns);
      const double len = test ? t_len : c_len;
      w.saved_pct = len > 0 ? 100.0 * w.saved_ns / len : 0;
      w.on_path_pct = test ? pr->test_on_path : pr->control_on_path;
      w.steps = test ? row.path.test_what_if_steps : row.path.control_what_if_steps;
      cp.what_if.push_back(std::move(w));
    }
  }
  for (const bool test : {false, true})
    for (const auto& asked : (test ? r.test : r.control).what_ifs) {
      model::WhatIfResult w;
      w.side = test ? "test" : "control";
      w.label = asked.spec;
      w.spec = asked.spec;
      w.factor = asked.factor;
      w.saved_ns = median(asked.saved_ns);
      const double len = test ? t_len : c_len;
      w.saved_pct = len > 0 ? 100.0 * w.saved_ns / len : 0;
      w.steps = asked.saved_ns.size();
      cp.what_if.push_back(std::move(w));
    }

  // "On the path: A +5.35 ms (joined), B −1.2 ms": the three rows that moved most on it.
  std::size_t named = 0;
  for (const auto& pr : cp.rows) {
    if (pr.time.diff() == 0 || named++ == 3) break;
    cp.moved += (cp.moved.empty() ? "On the path: " : ", ") + r.rows[pr.row].label + " " + signed_ms(pr.time.diff()) +
                (pr.change.empty() ? "" : " (" + pr.change + ")");
  }
  // Each side's what-if that saves the most, the test's (the new code's) first: the path's
  // saving against the side's step.
  for (const char* side : {"test", "control"}) {
    const model::WhatIfResult* best = nullptr;
    for (const auto& w : cp.what_if)
      if (w.side == side && w.row && (!best || w.saved_ns > best->saved_ns)) best = &w;
    if (!best || best->saved_ns <= 0) continue;
    const bool test = std::string(side) == "test";
    const double step = test ? cp.step.test : cp.step.control;
    cp.what_if_line += (cp.what_if_line.empty() ? "What-if: " : "; ") + (test ? r.test.label : r.control.label) + "'s " +
                       best->label + " " + pct_words(100 * (1 - best->factor)) + " faster \xE2\x86\x92 path " +
                       signed_ms(-best->saved_ns) +
                       (step > 0 ? " (" + pct_words(100 * best->saved_ns / step) + " of its step)" : std::string());
  }

  // The what-ifs asked, each side's median saving; one that saved nothing in any step names
  // no work on the path (or none at all): a note says so, as a typo would look the same.
  std::map<std::string, std::pair<std::optional<double>, std::optional<double>>> asked;
  std::vector<std::string> order;
  for (const auto& w : cp.what_if) {
    if (w.row) continue;
    if (!asked.count(w.spec)) order.push_back(w.spec);
    (w.side == "test" ? asked[w.spec].second : asked[w.spec].first) = w.saved_ns;
  }
  for (const auto& spec : order) {
    const auto& [c, t] = asked[spec];
    cp.asked_line += (cp.asked_line.empty() ? "Asked: '" : "; '") + spec + "' \xE2\x86\x92 path " +
                     (c ? signed_ms(-*c) : std::string("n/a")) + " a step (" + r.control.label + "), " +
                     (t ? signed_ms(-*t) : std::string("n/a")) + " (" + r.test.label + ")";
    bool any = false;
    for (const bool test : {false, true})
      for (const auto& a : (test ? r.test : r.control).what_ifs)
        if (a.spec == spec)
          for (const auto x : a.saved_ns) any = any || x != 0;
    if (!any)
      r.notes.push_back("--what-if '" + spec + "' shortened no step's critical path on either side: the work it names "
                        "is off the path, or not in the traces (names are matched exactly; families by id).");
  }

  cp.control_longest_rank = longest_rank(r.control);
  cp.test_longest_rank = longest_rank(r.test);
  if (r.ranks.control_straggler) cp.control_waited_on = r.ranks.control_straggler->rank;
  if (r.ranks.test_straggler) cp.test_waited_on = r.ranks.test_straggler->rank;

  // The bottom line's reading, when the largest bound type changed sides: what of the new
  // bound moved most on the path (a kernel family's rows together, or a host row).
  if (cp.bound_moved) {
    // "the step is now GPU compute-bound (was CPU-bound): on the critical path, GPU compute
    // +72.7 ms (GEMM +28.6 ms), CPU -9.2 ms": both bounds' change on the path, and what of
    // the new one moved most there (a kernel family's rows together, or a host row).
    cp.reading = "the step is now " + t_top->label + "-bound (was " + c_top->label + "-bound): on the critical path, " +
                 t_top->label + " " + signed_ms(t_top->time.diff());
    std::string what;
    double most = 0;
    if (t_top->bound == Bound::gpu_compute || t_top->bound == Bound::gpu_comm) {
      std::map<std::string, double> by_family;
      for (const auto& pr : all_rows)
        if (of_bound(r.rows[pr.row], t_top->bound)) by_family[r.rows[pr.row].family] += pr.time.diff();
      for (const auto& [id, d] : by_family)
        if (std::fabs(d) > std::fabs(most)) {
          most = d, what = id;
          for (const auto& f : r.families)
            if (f.id == id) what = f.label;
        }
    } else {
      for (const auto& pr : all_rows)
        if (of_bound(r.rows[pr.row], t_top->bound) && std::fabs(pr.time.diff()) > std::fabs(most))
          most = pr.time.diff(), what = r.rows[pr.row].label;
    }
    if (!what.empty() && most != 0) cp.reading += " (" + what + " " + signed_ms(most) + ")";
    cp.reading += ", " + c_top->label + " " + signed_ms(c_top->time.diff());
    auto& line = r.step_change.bottom_line;
    if (!line.empty()) {
      auto reading = cp.reading;
      reading[0] = static_cast<char>(reading[0] - 'a' + 'A');
      line += " " + reading + ".";
    }
  }
}

}  // namespace tracediff::analysis::detail
