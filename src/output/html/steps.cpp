// The step section (default mode, steps on both sides): step time, where it went,
// GPU time stacked, every step, and ranks side by side.
//   has_step_section: step_stats[], step_went[] {what, has_note, note, c, t, delta, pct, cls, arrow,
//     has_arrow, has_bars, cw, tw}, gpu_stacks[] {side, sc, total, segs[] {cls, w, tip}},
//     step_details[] {side, sc, rank, step, dur, busy, idle, kernel, comm, memcpy, memset, cpu, rt},
//     step_details_n, has_step_cut, step_cut,
//     has_ranks, rank_rows[] {rank, cn, cm, cb, tn, tm, tb, delta, pct, cls, arrow, has_arrow, cw, tw, most},
//     spread_c, spread_t, has_changed_most, changed_most
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "output/html/sections.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

data step_row(const DiffReport& r, const std::string& what, const std::string& note, std::int64_t c,
              std::int64_t t, double bar_max) {
  const auto tone = change_tone(r, static_cast<double>(c), static_cast<double>(t));
  data d;
  d.set("what", what);
  d.set("has_note", !note.empty());
  d.set("note", note);
  d.set("c", format_duration_ns(c, false));
  d.set("t", format_duration_ns(t, false));
  d.set("delta", format_duration_ns(t - c, true));
  d.set("pct", format_pct(relative_pct(c, t), c == 0 && t != 0));
  d.set("cls", std::string(tone.cls));
  d.set("arrow", std::string(tone.arrow));
  d.set("has_arrow", *tone.arrow != '\0');
  d.set("has_bars", bar_max > 0);
  d.set("cw", width_pct(static_cast<double>(c), bar_max));
  d.set("tw", width_pct(static_cast<double>(t), bar_max));
  return d;
}

}  // namespace

void add_steps(const DiffReport& r, data& ctx) {
  const bool on = has_step_section(r);
  ctx.set("has_step_section", on);
  if (!on) return;
  const auto& c = r.control;
  const auto& t = r.test;

  data stats = make_list();
  {
    const auto cn = static_cast<std::int64_t>(c.step_times.steps.size());
    const auto tn = static_cast<std::int64_t>(t.step_times.steps.size());
    data d = metric_row("", format_count(cn, false), format_count(tn, false), format_count(tn - cn, true),
                        "", "neutral", "");
    d.set("what", std::string("Steps timed"));
    d.set("has_note", false);
    d.set("has_bars", false);
    stats.push_back(d);
  }
  const auto& cs = c.step_times;
  const auto& ts = t.step_times;
  const double smax = static_cast<double>(std::max(cs.max_ns, ts.max_ns));
  stats.push_back(step_row(r, "Mean", "", cs.mean_ns, ts.mean_ns, smax));
  stats.push_back(step_row(r, "Median", "", cs.median_ns, ts.median_ns, smax));
  stats.push_back(step_row(r, "Min", "", cs.min_ns, ts.min_ns, smax));
  stats.push_back(step_row(r, "Max", "", cs.max_ns, ts.max_ns, smax));
  ctx.set("step_stats", stats);

  // Where the step time went: means per step.
  const auto& cm = c.step_mean;
  const auto& tm = t.step_mean;
  const double bmax = static_cast<double>(std::max(
      {cm.dur_ns, tm.dur_ns, cm.gpu_busy_ns, tm.gpu_busy_ns, cm.gpu_idle_ns, tm.gpu_idle_ns, cm.kernel_ns,
       tm.kernel_ns, cm.comm_ns, tm.comm_ns, cm.memcpy_ns, tm.memcpy_ns, cm.memset_ns, tm.memset_ns,
       cm.cpu_self_ns, tm.cpu_self_ns, cm.runtime_ns, tm.runtime_ns}));
  data went = make_list();
  went.push_back(step_row(r, "Step time", "wall clock, ProfilerStep", cm.dur_ns, tm.dur_ns, bmax));
  went.push_back(step_row(r, "GPU busy", "kernels, memcpy, memset; overlaps once", cm.gpu_busy_ns, tm.gpu_busy_ns, bmax));
  went.push_back(step_row(r, "GPU idle", "step time \xC3\x97 GPUs \xE2\x88\x92 busy", cm.gpu_idle_ns, tm.gpu_idle_ns, bmax));
  went.push_back(step_row(r, "Compute kernels", "", cm.kernel_ns, tm.kernel_ns, bmax));
  went.push_back(step_row(r, "Communication kernels", "NCCL, RCCL, HCCL", cm.comm_ns, tm.comm_ns, bmax));
  went.push_back(step_row(r, "Memcpy", "", cm.memcpy_ns, tm.memcpy_ns, bmax));
  went.push_back(step_row(r, "Memset", "", cm.memset_ns, tm.memset_ns, bmax));
  went.push_back(step_row(r, "CPU operators, self time", "", cm.cpu_self_ns, tm.cpu_self_ns, bmax));
  went.push_back(step_row(r, "Runtime calls", "CUDA runtime and driver API", cm.runtime_ns, tm.runtime_ns, bmax));
  ctx.set("step_went", went);

  // GPU time per step, stacked: compute | communication | memcpy | memset | idle.
  struct Seg {
    const char* cls;
    const char* name;
    std::int64_t model::StepDetail::*field;
  };
  static constexpr Seg segs[] = {{"g-kernel", "Compute kernels", &model::StepDetail::kernel_ns},
                                 {"g-comm", "Communication kernels", &model::StepDetail::comm_ns},
                                 {"g-memcpy", "Memcpy", &model::StepDetail::memcpy_ns},
                                 {"g-memset", "Memset", &model::StepDetail::memset_ns},
                                 {"g-idle", "GPU idle", &model::StepDetail::gpu_idle_ns}};
  const auto sum = [&](const model::StepDetail& s) {
    std::int64_t total = 0;
    for (const auto& g : segs) total += std::max<std::int64_t>(s.*g.field, 0);
    return total;
  };
  const double gmax = static_cast<double>(std::max(sum(cm), sum(tm)));
  data stacks = make_list();
  for (const auto* side : {&c, &t}) {
    const auto& m = side->step_mean;
    data s;
    s.set("side", text(side->label.empty() ? (side == &c ? "Control" : "Test") : side->label));
    s.set("sc", std::string(side == &c ? "c" : "t"));
    s.set("total", format_duration_ns(sum(m), false));
    data list = make_list();
    for (const auto& g : segs) {
      const auto v = std::max<std::int64_t>(m.*g.field, 0);
      if (v == 0) continue;
      data seg;
      seg.set("cls", std::string(g.cls));
      seg.set("w", width_pct(static_cast<double>(v), gmax));
      seg.set("tip", std::string(g.name) + ": " + format_duration_ns(v, false));
      list.push_back(seg);
    }
    s.set("segs", list);
    stacks.push_back(s);
  }
  ctx.set("gpu_stacks", stacks);

  // Every step's figures, both sides (at most k_max per side).
  constexpr std::size_t k_max = 100;
  data details = make_list();
  std::string cut;
  for (const auto* side : {&c, &t}) {
    const auto& list = side->step_details;
    for (std::size_t i = 0; i < list.size() && i < k_max; ++i) {
      const auto& s = list[i];
      data d;
      d.set("side", text(side->label.empty() ? (side == &c ? "Control" : "Test") : side->label));
      d.set("sc", std::string(side == &c ? "c" : "t"));
      d.set("rank", std::to_string(s.rank));
      d.set("step", std::to_string(s.step));
      for (const auto& [key, v] : {std::pair{"dur", s.dur_ns}, {"busy", s.gpu_busy_ns}, {"idle", s.gpu_idle_ns},
                                   {"kernel", s.kernel_ns}, {"comm", s.comm_ns}, {"memcpy", s.memcpy_ns},
                                   {"memset", s.memset_ns}, {"cpu", s.cpu_self_ns}, {"rt", s.runtime_ns}})
        d.set(key, format_duration_ns(v, false));
      details.push_back(d);
    }
    if (list.size() > k_max) {
      if (!cut.empty()) cut += "; ";
      cut += text(side->label) + ": the first " + std::to_string(k_max) + " of " +
             format_count(static_cast<std::int64_t>(list.size()), false);
    }
  }
  ctx.set("step_details", details);
  ctx.set("step_details_n", format_count(static_cast<std::int64_t>(c.step_details.size() + t.step_details.size()), false));
  ctx.set("has_step_cut", !cut.empty());
  ctx.set("step_cut", cut + " (every step is in the JSON output)");

  // Ranks side by side, when a side has more than one.
  const bool ranks = c.rank_details.size() > 1 || t.rank_details.size() > 1;
  ctx.set("has_ranks", ranks);
  if (!ranks) return;
  const auto& cr = c.rank_details;
  const auto& tr = t.rank_details;
  const bool same_ids = cr.size() == tr.size() && std::equal(cr.begin(), cr.end(), tr.begin(), [](auto& x, auto& y) {
                          return x.rank == y.rank;
                        });
  data rows = make_list();
  const std::size_t n = std::max(cr.size(), tr.size());
  const double rmax = [&] {
    std::int64_t m = 0;
    for (const auto& x : cr) m = std::max(m, x.step_mean_ns);
    for (const auto& x : tr) m = std::max(m, x.step_mean_ns);
    return static_cast<double>(m);
  }();
  for (std::size_t i = 0; i < n; ++i) {
    const model::RankDetail* a = i < cr.size() ? &cr[i] : nullptr;
    const model::RankDetail* b = i < tr.size() ? &tr[i] : nullptr;
    data d;
    std::string label;
    if (a && b && (same_ids || a->rank == b->rank)) label = std::to_string(a->rank);
    else label = (a ? std::to_string(a->rank) : std::string("\xE2\x80\x94")) + " \xE2\x86\x92 " +
                 (b ? std::to_string(b->rank) : std::string("\xE2\x80\x94"));
    d.set("rank", label);
    const std::string dash = "\xE2\x80\x94";
    d.set("cn", a ? std::to_string(a->steps) : dash);
    d.set("cm", a ? format_duration_ns(a->step_mean_ns, false) : dash);
    d.set("cb", a ? format_duration_ns(a->gpu_busy_mean_ns, false) : dash);
    d.set("tn", b ? std::to_string(b->steps) : dash);
    d.set("tm", b ? format_duration_ns(b->step_mean_ns, false) : dash);
    d.set("tb", b ? format_duration_ns(b->gpu_busy_mean_ns, false) : dash);
    const bool both = a && b;
    const auto tone = both ? change_tone(r, static_cast<double>(a->step_mean_ns), static_cast<double>(b->step_mean_ns))
                           : Tone{"neutral", ""};
    d.set("delta", both ? format_duration_ns(b->step_mean_ns - a->step_mean_ns, true) : dash);
    d.set("pct", both ? format_pct(relative_pct(a->step_mean_ns, b->step_mean_ns)) : dash);
    d.set("cls", std::string(tone.cls));
    d.set("arrow", std::string(tone.arrow));
    d.set("has_arrow", *tone.arrow != '\0');
    d.set("cw", width_pct(a ? static_cast<double>(a->step_mean_ns) : 0, rmax));
    d.set("tw", width_pct(b ? static_cast<double>(b->step_mean_ns) : 0, rmax));
    const bool most = both && r.ranks.changed_most_control_rank && r.ranks.changed_most_test_rank &&
                      *r.ranks.changed_most_control_rank == a->rank && *r.ranks.changed_most_test_rank == b->rank;
    d.set("most", most);
    rows.push_back(d);
  }
  ctx.set("rank_rows", rows);
  ctx.set("spread_c", format_duration_ns(r.ranks.control_spread_ns, false));
  ctx.set("spread_t", format_duration_ns(r.ranks.test_spread_ns, false));
  std::string most;
  if (r.ranks.changed_most_control_rank && r.ranks.changed_most_test_rank) {
    const int a = *r.ranks.changed_most_control_rank, b = *r.ranks.changed_most_test_rank;
    most = a == b ? "rank " + std::to_string(a) : "rank " + std::to_string(a) + " \xE2\x86\x92 " + std::to_string(b);
    most += " (" + format_pct(r.ranks.changed_most_pct) + " mean step time)";
  }
  ctx.set("has_changed_most", !most.empty());
  ctx.set("changed_most", most);
}

}  // namespace tracediff::output::html
