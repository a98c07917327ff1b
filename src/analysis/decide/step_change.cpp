// Why the step moved: each GPU's step split into exclusive parts of its timeline
// (computation, computation under communication, exposed communication by collective,
// copies alone, and idle by cause), per GPU and step unit, so that the parts add up to
// the step time on each side and their Δs to the step's Δ. Each part names what moved it
// (the kernel families and rows behind the GPU parts, the host rows behind idle time),
// and one sentence says the largest parts: the bottom line every view prints first.
#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/decide/figures.hpp"
#include "analysis/decide/step_change.hpp"
#include "analysis/noise/noise.hpp"
#include "util/format.hpp"

namespace tracediff::analysis::detail {

namespace {

using model::StepDetail;

struct PartDef {
  const char* id;
  const char* label;
  std::int64_t StepDetail::*field;
};

// In timeline order; the GPU parts of StepDetail add up to dur_ns × GPUs.
constexpr PartDef k_parts[] = {
    {"gpu_compute", "GPU compute", &StepDetail::gpu_compute_only_ns},
    {"gpu_overlap", "Compute under communication", &StepDetail::gpu_overlap_ns},
    {"exposed.all_reduce", "Exposed all-reduce", &StepDetail::exposed_all_reduce_ns},
    {"exposed.all_gather", "Exposed all-gather", &StepDetail::exposed_all_gather_ns},
    {"exposed.reduce_scatter", "Exposed reduce-scatter", &StepDetail::exposed_reduce_scatter_ns},
    {"exposed.all_to_all", "Exposed all-to-all", &StepDetail::exposed_all_to_all_ns},
    {"exposed.broadcast", "Exposed broadcast", &StepDetail::exposed_broadcast_ns},
    {"exposed.send_recv", "Exposed send/recv", &StepDetail::exposed_send_recv_ns},
    {"exposed.other", "Exposed communication, other", &StepDetail::exposed_other_comm_ns},
    {"gpu_mem", "Memcpy/memset alone", &StepDetail::gpu_mem_only_ns},
    {"idle.host_launch", "GPU idle, waiting for launches", &StepDetail::idle_launch_ns},
    {"idle.host_sync", "GPU idle after a host sync", &StepDetail::idle_sync_ns},
    {"idle.stream", "GPU idle, waiting on another stream", &StepDetail::idle_stream_ns},
    {"idle.other", "GPU idle, other", &StepDetail::idle_other_ns},
};
constexpr std::size_t k_bars = 6;  // the waterfall's bars at most; the rest is summed

// GPUs with work in a step unit: busy + idle = step time × GPUs (summarize/gpu_busy.cpp).
double gpus(const StepDetail& d) {
  if (d.dur_ns <= 0) return 1;
  const double n = std::round(static_cast<double>(d.gpu_busy_ns + d.gpu_idle_ns) / static_cast<double>(d.dur_ns));
  return n >= 1 ? n : 1;
}

std::vector<double> per_gpu(const model::SideSummary& side, std::int64_t StepDetail::*field) {
  std::vector<double> v;
  v.reserve(side.step_details.size());
  for (const auto& d : side.step_details) v.push_back(static_cast<double>(d.*field) / gpus(d));
  return v;
}

bool is_comm_family(std::string_view f) {
  return f == "all_reduce" || f == "all_gather" || f == "reduce_scatter" || f == "send_recv" || f == "all_to_all" ||
         f == "broadcast" || f == "comm_other";
}
bool is_copy_family(std::string_view f) { return f.starts_with("memcpy_") || f == "memset"; }

// The families behind a GPU part, largest |Δ| first, moving the part's way.
void link_families(const model::DiffReport& r, model::StepPart& p) {
  const double way = p.value.diff();
  std::string_view collective;
  if (p.id.starts_with("exposed.")) collective = std::string_view(p.id).substr(8);
  if (collective == "other") collective = "comm_other";
  for (const auto& f : r.families) {  // by |Δ| already
    const bool fits = !collective.empty()                                  ? f.id == collective
                      : p.id == "gpu_mem"                                  ? is_copy_family(f.id)
                      : p.id == "gpu_compute" || p.id == "gpu_overlap" ? !is_comm_family(f.id) && !is_copy_family(f.id)
                                                                           : false;
    if (!fits || f.time.diff() == 0 || (way != 0 && (f.time.diff() > 0) != (way > 0))) continue;
    p.families.push_back(f.id);
    for (const auto i : f.rows)
      if (p.rows.size() < 5) p.rows.push_back(i);
    if (p.families.size() == 3) break;
  }
}

// The host rows behind idle time waiting for the host: the top list's CPU rows that
// moved the part's way (the host took longer, or less long, to launch), on threads that
// launch GPU work.
void link_host_rows(const model::DiffReport& r, model::StepPart& p) {
  const auto& list = p.value.diff() >= 0 ? r.top_regressions : r.top_improvements;
  // A thread that launches no GPU work (telemetry, a progress bar) cannot have kept it idle.
  for (const auto i : list.rows)
    if (r.rows[i].device == model::Device::cpu && !r.rows[i].off_launch_threads && p.rows.size() < 5) p.rows.push_back(i);
}

std::string signed_ms(double ns) { return format_duration_ns(to_ns(ns), true); }

std::string lower_first(std::string s) {
  if (s.size() > 1 && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// "GPU compute +21.0 ms: GEMM +20.1 ms": a part with what moved it most, unless an
// earlier part of the sentence named that already.
std::string part_words(const model::DiffReport& r, const model::StepPart& p, bool testable_sides,
                       std::vector<std::string>& named) {
  std::string out = p.label + " " + signed_ms(p.value.diff());
  if (testable_sides && !p.value.significant) out += ", within noise";
  std::string what;
  for (const auto& f : r.families)
    if (!p.families.empty() && f.id == p.families.front()) what = f.label + " " + signed_ms(f.time.diff());
  if (what.empty() && !p.rows.empty()) {
    const auto& row = r.rows[p.rows.front()];
    what = row.label + " " + signed_ms(row.shown.diff_ns());
  }
  if (what.empty() || std::find(named.begin(), named.end(), what) != named.end()) return out;
  named.push_back(what);
  return out + " (" + what + ")";
}

}  // namespace

void decide_step_change(model::DiffReport& r, const NoiseRule& rule) {
  auto& sc = r.step_change;
  const auto& c = r.control;
  const auto& t = r.test;
  if (r.hta_compat || c.step_details.empty() || t.step_details.empty()) return;
  const auto any_gpu = [](const model::SideSummary& s) {
    return std::any_of(s.step_details.begin(), s.step_details.end(), [](const StepDetail& d) { return d.gpu_busy_ns > 0; });
  };
  if (!any_gpu(c) && !any_gpu(t)) return;
  sc.decided = true;
  // Each GPU's parts add up to the step: the step time itself, judged as the headline's.
  const auto durations = [](const model::SideSummary& s) {
    std::vector<double> v;
    for (const auto& d : s.step_details) v.push_back(static_cast<double>(d.dur_ns));
    return v;
  };
  sc.step = compare_samples(durations(c), durations(t), rule);
  std::vector<double> ce(c.step_details.size(), 0.0), te(t.step_details.size(), 0.0);
  for (const auto& def : k_parts) {
    auto cv = per_gpu(c, def.field), tv = per_gpu(t, def.field);
    if (std::string_view(def.id).starts_with("exposed.")) {
      for (std::size_t i = 0; i < cv.size(); ++i) ce[i] += cv[i];
      for (std::size_t i = 0; i < tv.size(); ++i) te[i] += tv[i];
    }
    const bool any = std::any_of(cv.begin(), cv.end(), [](double x) { return x != 0; }) ||
                     std::any_of(tv.begin(), tv.end(), [](double x) { return x != 0; });
    if (!any) continue;
    model::StepPart p;
    p.id = def.id;
    p.label = def.label;
    p.value = compare_samples(cv, tv, rule);
    if (p.id.starts_with("idle.host")) link_host_rows(r, p);
    else if (!p.id.starts_with("idle.")) link_families(r, p);
    sc.parts.push_back(std::move(p));
  }
  sc.exposed_comm = compare_samples(ce, te, rule);

  // The waterfall: the parts with the largest |Δ|, the rest summed.
  std::vector<std::size_t> order(sc.parts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(sc.parts[a].value.diff()) > std::fabs(sc.parts[b].value.diff());
  });
  double shown = 0;
  for (const auto i : order)
    if (sc.bars.size() < k_bars && sc.parts[i].value.diff() != 0) {
      sc.bars.push_back(i);
      shown += sc.parts[i].value.diff();
    }
  // The rest closes the waterfall on the step's Δ (the other parts, and any rounding of
  // the per-GPU means).
  sc.rest_diff = sc.step.diff() - shown;
  if (std::fabs(sc.rest_diff) < 0.5) sc.rest_diff = 0;

  // "Step +46.6 ms = GPU compute +21.0 ms, exposed all-reduce +7.9 ms, other parts +1.2 ms"
  sc.equation = "Step " + signed_ms(sc.step.diff()) + " =";
  for (std::size_t k = 0; k < sc.bars.size(); ++k)
    sc.equation += (k ? ", " : " ") + lower_first(sc.parts[sc.bars[k]].label) + " " +
                   signed_ms(sc.parts[sc.bars[k]].value.diff());
  if (sc.bars.empty()) sc.equation += " no part moved";
  if (sc.rest_diff != 0) sc.equation += ", other parts " + signed_ms(sc.rest_diff);

  // The bottom line: the step, then the parts that moved it most (each a tenth of the
  // step's change or more, at most three), each with what moved it most.
  const bool testable_sides = testable(c.step_details.size(), t.step_details.size());
  std::string line = "Step " + signed_ms(sc.step.diff());
  if (!sc.step.significant)
    line += sc.step.verdict == model::Verdict::untestable ? " (not testable)" : " (within noise)";
  std::string parts;
  const double floor = 0.1 * std::fabs(sc.step.diff());
  std::size_t said = 0;
  std::vector<std::string> named;
  for (const auto i : sc.bars) {
    const auto& p = sc.parts[i];
    if (said == 3 || std::fabs(p.value.diff()) < floor || p.value.diff() == 0) break;
    parts += (parts.empty() ? "" : "; ") + part_words(r, p, testable_sides, named);
    ++said;
  }
  if (parts.empty()) parts = "no part of the GPU's step moved by a tenth of it";
  const model::Figure* busy = nullptr;
  for (const auto& f : r.headline)
    if (f.id == "gpu_busy") busy = &f;
  if (busy && sc.step.significant && !busy->value.significant && busy->value.verdict != model::Verdict::untestable)
    parts += "; GPU busy the same within noise";
  sc.bottom_line = line + ": " + parts + ".";
}

}  // namespace tracediff::analysis::detail
