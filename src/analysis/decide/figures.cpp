// The headline, the step breakdown and ranks side by side: per-step figures from
// the step details of each side, each judged like a row.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "analysis/decide/figures.hpp"
#include "analysis/noise/noise.hpp"
#include "util/format.hpp"

namespace tracediff::analysis::detail {

namespace {

using model::StepDetail;

struct FigureDef {
  const char* id;
  const char* label;
  const char* note;
  std::int64_t StepDetail::*field;  // nullptr: gpu_work, the sum of the four kinds of GPU work
  bool headline;
  bool gpu;             // shown only when a side has GPU work
  bool always;          // shown even when zero on both sides (else left out then)
  bool direction_only;  // neither better nor worse when it moves
};

// In the breakdown's order; the headline takes those marked.
constexpr FigureDef k_figures[] = {
    {"step_time", "Step time", "wall clock of the ProfilerStep span", &StepDetail::dur_ns, true, false, true, false},
    {"gpu_busy", "GPU busy", "kernels, memcpy, memset within the step; overlaps count once", &StepDetail::gpu_busy_ns,
     true, true, false, false},
    {"gpu_work", "GPU work launched", "kernels, memcpy, memset launched in the step, wherever they ran; streams add up",
     nullptr, true, true, false, false},
    // Part of gpu_work, said apart: how much of the step the rows owe to no recorded launch.
    {"gpu_unlaunched", "GPU work, launch not recorded",
     "part of GPU work launched: no launch in the trace (graph replays, launches before the profiler started or on "
     "threads it did not record), counted in the step its GPU start falls in",
     &StepDetail::unlaunched_ns, true, true, false, true},
    {"gpu_idle", "GPU idle", "step time \xC3\x97 GPUs with work \xE2\x88\x92 GPU busy", &StepDetail::gpu_idle_ns,
     true, true, false, true},
    {"gpu_spill", "GPU work past the step's end", "launched in the step, still running after it ended",
     &StepDetail::gpu_spill_ns, true, true, false, true},
    // Where the GPU's step went (analysis/summarize/timeline.hpp): exclusive parts, summed over
    // GPUs; the first four add up to GPU busy, the idle ones to GPU idle.
    {"gpu_compute_only", "GPU computing only", "compute kernels running, no communication kernel",
     &StepDetail::gpu_compute_only_ns, false, true, true, false},
    {"gpu_comm_only", "Exposed communication", "communication kernels running, no compute kernel",
     &StepDetail::gpu_comm_only_ns, false, true, true, false},
    {"gpu_overlap", "Computation overlapping communication", "compute and communication kernels at once",
     &StepDetail::gpu_overlap_ns, false, true, true, true},
    {"gpu_mem_only", "Memcpy/memset only", "memcpy or memset running, no kernel", &StepDetail::gpu_mem_only_ns,
     false, true, true, false},
    {"idle_launch", "GPU idle: waiting for launches",
     "the next work's launch started after the GPU went idle, no host sync between", &StepDetail::idle_launch_ns,
     false, true, true, true},
    {"idle_sync", "GPU idle: host busy after a sync",
     "the launching thread synchronised after the GPU went idle, then launched late", &StepDetail::idle_sync_ns,
     false, true, true, true},
    {"idle_stream", "GPU idle: waiting on a stream or event",
     "the next work, launched before the GPU went idle, waited on another stream's work or an event",
     &StepDetail::idle_stream_ns, false, true, true, true},
    {"idle_other", "GPU idle: other", "gaps between queued work on one stream, no next work, or no recorded launch",
     &StepDetail::idle_other_ns, false, true, true, true},
    {"exposed_all_reduce", "Exposed all-reduce", "", &StepDetail::exposed_all_reduce_ns, false, true, false, false},
    {"exposed_all_gather", "Exposed all-gather", "", &StepDetail::exposed_all_gather_ns, false, true, false, false},
    {"exposed_reduce_scatter", "Exposed reduce-scatter", "", &StepDetail::exposed_reduce_scatter_ns, false, true,
     false, false},
    {"exposed_all_to_all", "Exposed all-to-all", "", &StepDetail::exposed_all_to_all_ns, false, true, false, false},
    {"exposed_broadcast", "Exposed broadcast", "", &StepDetail::exposed_broadcast_ns, false, true, false, false},
    {"exposed_send_recv", "Exposed send/recv", "", &StepDetail::exposed_send_recv_ns, false, true, false, false},
    {"exposed_other_comm", "Exposed other communication", "", &StepDetail::exposed_other_comm_ns, false, true, false,
     false},
    {"kernel", "Compute kernels", "launched in the step; streams add up", &StepDetail::kernel_ns, false, true, false,
     false},
    {"comm", "Communication kernels", "NCCL, RCCL, HCCL", &StepDetail::comm_ns, false, true, false, false},
    {"memcpy", "Memcpy", "", &StepDetail::memcpy_ns, false, true, false, false},
    {"memset", "Memset", "", &StepDetail::memset_ns, false, true, false, false},
    {"host_busy", "Host busy", "host events within the step, summed over the threads that run operators",
     &StepDetail::host_busy_ns, true, false, false, false},
    {"host_wait", "Host waiting for the GPU",
     "part of host busy: inside synchronising calls and copies to the host that block (tracediff docs: The "
     "host waiting for the GPU)",
     &StepDetail::host_wait_ns, true, false, false, false},
    {"host_idle", "Host idle", "step time \xC3\x97 threads that run operators \xE2\x88\x92 host busy",
     &StepDetail::host_idle_ns, false, false, false, true},
    {"cpu_self", "CPU operator self time", "cpu_op events less the events inside them", &StepDetail::cpu_self_ns, true,
     false, false, false},
    {"runtime", "Runtime calls", "runtime and driver API calls (CUDA, HIP, ...)", &StepDetail::runtime_ns, false, false,
     false, false},
};

// A figure's value in one step: its field, or for gpu_work the four kinds of GPU work.
double value(const StepDetail& d, std::int64_t StepDetail::*field) {
  if (field) return static_cast<double>(d.*field);
  return static_cast<double>(d.kernel_ns) + static_cast<double>(d.comm_ns) + static_cast<double>(d.memcpy_ns) +
         static_cast<double>(d.memset_ns);
}

std::vector<double> samples(const std::vector<StepDetail>& details, std::int64_t StepDetail::*field) {
  std::vector<double> v;
  v.reserve(details.size());
  for (const auto& d : details) v.push_back(value(d, field));
  return v;
}

// Threads that run operators, of a side's mean step: (busy + idle) / step time.
long threads(const model::SideSummary& s) {
  const auto& m = s.step_mean;
  if (m.dur_ns <= 0) return 0;
  return std::lround((static_cast<double>(m.host_busy_ns) + static_cast<double>(m.host_idle_ns)) /
                     static_cast<double>(m.dur_ns));
}

// "summed over the 3 threads that run operators": why host busy can exceed the step.
std::string busy_note(const model::DiffReport& r) {
  const long c = threads(r.control), t = threads(r.test);
  if (c <= 1 && t <= 1) return {};
  const auto n = [](long v) { return std::to_string(v) + (v == 1 ? " thread" : " threads"); };
  return "host events within the step, summed over the " +
         (c == t ? n(c) : n(c) + " (" + r.control.label + ") and " + n(t) + " (" + r.test.label + ")") +
         " that run operators: up to the step time \xC3\x97 threads";
}

}  // namespace

std::vector<double> figure_samples(const model::SideSummary& side, std::string_view id) {
  for (const auto& def : k_figures)
    if (id == def.id) return samples(side.step_details, def.field);
  return {};
}

namespace {

bool any_of(const model::SideSummary& s, std::int64_t StepDetail::*field) {
  return std::any_of(s.step_details.begin(), s.step_details.end(), [&](const StepDetail& d) { return value(d, field) != 0; });
}

void figures(model::DiffReport& r, const NoiseRule& rule) {
  const auto& c = r.control;
  const auto& t = r.test;
  if (c.step_details.empty() || t.step_details.empty()) return;
  const bool gpu = any_of(c, &StepDetail::gpu_busy_ns) || any_of(t, &StepDetail::gpu_busy_ns) ||
                   any_of(c, &StepDetail::gpu_idle_ns) || any_of(t, &StepDetail::gpu_idle_ns);
  for (const auto& def : k_figures) {
    if (def.gpu && !gpu) continue;
    if (!def.always && !any_of(c, def.field) && !any_of(t, def.field)) continue;
    model::Figure f;
    f.id = def.id;
    f.label = def.label;
    f.note = def.note;
    f.direction_only = def.direction_only;
    if (f.id == "host_busy")
      if (auto note = busy_note(r); !note.empty()) f.note = std::move(note);
    if (r.unit != "step") {  // per trace: "past the trace's end", "within the trace"
      for (auto* text : {&f.label, &f.note})
        for (auto at = text->find("step"); at != std::string::npos; at = text->find("step", at + r.unit.size()))
          text->replace(at, 4, r.unit);
    }
    if (f.id == "step_time" && r.unit == "trace") {
      f.label = "Trace time";
      f.note = "first to last host event of each trace";
    }
    f.value = compare_samples(samples(c.step_details, def.field), samples(t.step_details, def.field), rule);
    if (def.headline) r.headline.push_back(f);
    r.breakdown.push_back(std::move(f));
  }
}

// A rank's per-step time waiting for the last arrival (analysis/summarize/collectives.hpp):
// wait_ns is by step unit, and a rank's units are [first, last) of the step details
// (sorted by rank), so a rank costs its own steps, not the side's.
std::vector<double> rank_waits(const model::SideSummary& s, std::size_t first, std::size_t last) {
  std::vector<double> v;
  const auto& w = s.collectives.wait_ns;
  for (std::size_t i = first; i < last && i < w.size(); ++i) v.push_back(static_cast<double>(w[i]));
  return v;
}

model::LastArrivals last_arrivals(const model::SideSummary& s, int rank) {
  for (const auto& x : s.collectives.ranks)
    if (x.rank == rank) return x.last;
  return {};
}

// The other ranks' mean wait per step (every rank but `rank`); nullopt without any.
std::optional<double> others_wait(const model::SideSummary& s, int rank) {
  if (s.collectives.matched == 0) return std::nullopt;
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.step_details.size() && i < s.collectives.wait_ns.size(); ++i)
    if (s.step_details[i].rank != rank) sum += static_cast<double>(s.collectives.wait_ns[i]), ++n;
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

// The rank a side waited on: last at half its collectives or more, and at least twice
// as often as any other rank.
std::optional<model::Straggler> straggler(const model::SideSummary& s, const model::SideSummary& other) {
  const auto& ranks = s.collectives.ranks;
  const model::CollectiveMatch::Rank* top = nullptr;
  std::uint64_t next = 0;
  for (const auto& x : ranks) {
    if (!top || x.last.share > top->last.share) {
      if (top) next = std::max(next, top->last.count);
      top = &x;
    } else {
      next = std::max(next, x.last.count);
    }
  }
  if (!top || top->last.count == 0 || top->last.share < 0.5 || top->last.count < 2 * next) return std::nullopt;
  model::Straggler out;
  out.rank = top->rank;
  out.last = top->last;
  out.others_wait_ns = others_wait(s, top->rank).value_or(0);
  const auto mine = others_wait(s, top->rank), theirs = others_wait(other, top->rank);
  if (mine && theirs) out.others_wait_diff_ns = *mine - *theirs;
  return out;
}

std::string straggler_line(const std::string& side, const model::Straggler& st, const std::string& unit,
                           const std::string* other) {
  std::string out = side + ": rank " + std::to_string(st.rank) + " arrived last at " +
                    std::to_string(std::lround(100 * st.last.share)) + " % of collectives; the others waited " +
                    format_duration_ns(to_ns(st.others_wait_ns), false) + " per " + unit + " for it";
  // The change against the other side's wait for its rank of the same number, named.
  if (other && st.others_wait_diff_ns && std::llround(*st.others_wait_diff_ns / 1000) != 0)
    out += " (" + format_duration_ns(to_ns(*st.others_wait_diff_ns), true) + " against " + *other + "'s wait for its rank " +
           std::to_string(st.rank) + ")";
  return out;
}

void stragglers(model::DiffReport& r) {
  auto& k = r.ranks;
  k.matched_by_seq = r.control.collectives.by_seq + r.test.collectives.by_seq > 0;
  k.control_straggler = straggler(r.control, r.test);
  k.test_straggler = straggler(r.test, r.control);
  // The change is test's against control's: said on the Test line only.
  if (k.control_straggler && k.control_straggler->others_wait_diff_ns)
    k.control_straggler->others_wait_diff_ns = -*k.control_straggler->others_wait_diff_ns;
  const auto label = [](const model::SideSummary& s, const char* fallback) { return s.label.empty() ? fallback : s.label; };
  const std::string control = label(r.control, "Control");
  if (k.control_straggler) k.straggler_lines.push_back(straggler_line(control, *k.control_straggler, r.unit, nullptr));
  if (k.test_straggler) k.straggler_lines.push_back(straggler_line(label(r.test, "Test"), *k.test_straggler, r.unit, &control));
}

// Ranks paired in order: by id when both sides have the same ranks, else by position.
void ranks(model::DiffReport& r, const NoiseRule& all_rule) {
  const auto& cr = r.control.rank_details;
  const auto& tr = r.test.rank_details;
  r.ranks = {};
  const auto spread = [](const std::vector<model::RankDetail>& v) -> std::int64_t {
    if (v.empty()) return 0;
    auto [lo, hi] = std::minmax_element(v.begin(), v.end(), [](auto& a, auto& b) { return a.step_mean_ns < b.step_mean_ns; });
    return hi->step_mean_ns - lo->step_mean_ns;
  };
  r.ranks.control_spread_ns = spread(cr);
  r.ranks.test_spread_ns = spread(tr);
  if (cr.size() <= 1 && tr.size() <= 1) return;
  // Step details are in (rank, step) order: a rank's are one range.
  const auto of_rank = [](const std::vector<StepDetail>& details, int rank, std::int64_t StepDetail::*field) {
    const auto [first, last] = std::equal_range(details.begin(), details.end(), rank, detail::RankLess{});
    std::vector<double> v;
    for (auto it = first; it != last; ++it) v.push_back(static_cast<double>((*it).*field));
    return v;
  };
  const std::size_t n = std::max(cr.size(), tr.size());
  double best = -1;
  std::size_t best_row = 0;
  for (std::size_t i = 0; i < n; ++i) {
    model::RankRow row;
    const model::RankDetail* a = i < cr.size() ? &cr[i] : nullptr;
    const model::RankDetail* b = i < tr.size() ? &tr[i] : nullptr;
    if (a) row.control_rank = a->rank, row.control_steps = a->steps;
    if (b) row.test_rank = b->rank, row.test_steps = b->steps;
    // The rank's step units, with their runs.
    const auto range = [](const std::vector<StepDetail>& details, const model::RankDetail* rd) {
      if (!rd) return std::pair<std::size_t, std::size_t>{0, 0};
      const auto [first, last] = std::equal_range(details.begin(), details.end(), rd->rank, detail::RankLess{});
      return std::pair<std::size_t, std::size_t>{static_cast<std::size_t>(first - details.begin()),
                                                 static_cast<std::size_t>(last - details.begin())};
    };
    const auto [cf, cl] = range(r.control.step_details, a);
    const auto [tf, tl] = range(r.test.step_details, b);
    const NoiseRule rule = all_rule.slice(cf, cl, tf, tl);
    const auto cs = a ? of_rank(r.control.step_details, a->rank, &StepDetail::dur_ns) : std::vector<double>{};
    const auto ts = b ? of_rank(r.test.step_details, b->rank, &StepDetail::dur_ns) : std::vector<double>{};
    row.step_time = compare_samples(cs, ts, rule);
    row.gpu_busy = compare_samples(a ? of_rank(r.control.step_details, a->rank, &StepDetail::gpu_busy_ns) : std::vector<double>{},
                                   b ? of_rank(r.test.step_details, b->rank, &StepDetail::gpu_busy_ns) : std::vector<double>{},
                                   rule);
    row.wait = compare_samples(a ? rank_waits(r.control, cf, cl) : std::vector<double>{},
                               b ? rank_waits(r.test, tf, tl) : std::vector<double>{}, rule);
    if (a) row.control_last = last_arrivals(r.control, a->rank);
    if (b) row.test_last = last_arrivals(r.test, b->rank);
    for (auto* v : {&row.step_time, &row.gpu_busy, &row.wait})
      if (!a || !b) {
        v->verdict = model::Verdict::untestable;
        v->significant = false;
        v->pct.reset();
        v->control_missing = !a;
        v->test_missing = !b;
      }
    if (a && b && row.step_time.significant && row.step_time.pct && std::fabs(*row.step_time.pct) > best) {
      best = std::fabs(*row.step_time.pct);
      best_row = r.rank_rows.size();
    }
    r.rank_rows.push_back(std::move(row));
  }
  if (best >= 0) {
    auto& row = r.rank_rows[best_row];
    row.changed_most = true;
    r.ranks.changed_most_control_rank = row.control_rank;
    r.ranks.changed_most_test_rank = row.test_rank;
    r.ranks.changed_most_pct = *row.step_time.pct;
  }
}

}  // namespace

// Step time statistics, each side's own: not judged (the breakdown's step time is).
void step_stats(model::DiffReport& r) {
  const auto& c = r.control.step_times;
  const auto& t = r.test.step_times;
  if (c.steps.empty() || t.steps.empty()) return;
  const auto add = [&](const char* id, const char* label, std::int64_t cv, std::int64_t tv) {
    model::Figure f;
    f.id = id;
    f.label = label;
    f.judged = false;
    f.value.control = static_cast<double>(cv);
    f.value.test = static_cast<double>(tv);
    if (cv != 0) f.value.pct = 100.0 * (f.value.test - f.value.control) / f.value.control;
    r.step_stats.push_back(std::move(f));
  };
  add("mean", "Mean", c.mean_ns, t.mean_ns);
  add("median", "Median", c.median_ns, t.median_ns);
  add("min", "Min", c.min_ns, t.min_ns);
  add("max", "Max", c.max_ns, t.max_ns);
}

void decide_figures(model::DiffReport& report, const NoiseRule& rule) {
  figures(report, rule);
  step_stats(report);
  ranks(report, rule);
  stragglers(report);
}

}  // namespace tracediff::analysis::detail
