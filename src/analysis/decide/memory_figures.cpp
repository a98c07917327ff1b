#include "analysis/decide/memory_figures.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "analysis/noise/noise.hpp"

namespace tracediff::analysis::detail {

namespace {

using model::MemoryStep;

struct MemoryFigureDef {
  const char* id;
  const char* label;
  const char* note;
  std::int64_t MemoryStep::*field;  // nullptr: allocations
  bool totals;                      // from the allocator's totals: -1 where the trace has none
  bool direction_only;
};

constexpr MemoryFigureDef k_memory_figures[] = {
    {"peak_allocated", "Peak allocated", "the largest Total Allocated in the step, what it began with included",
     &MemoryStep::peak_allocated, true, false},
    {"peak_reserved", "Peak reserved", "the largest Total Reserved (the caching allocator's pool) in the step",
     &MemoryStep::peak_reserved, true, false},
    {"peak_growth", "Peak growth", "the running sum of allocations less frees from the step's start, at its largest",
     &MemoryStep::peak_growth, false, false},
    {"net_change", "Net change", "allocations less frees over the step: what it leaves allocated",
     &MemoryStep::net_change, false, false},
    {"allocated", "Bytes allocated", "the sum of the step's allocations", &MemoryStep::allocated_bytes, false, true},
    {"allocations", "Allocations", "allocations per step", nullptr, false, true},
};

double value(const MemoryStep& m, const MemoryFigureDef& def) {
  return def.field ? static_cast<double>(m.*def.field) : static_cast<double>(m.allocations);
}

using Device = std::pair<int, int>;  // (device_type, device_id)

// CUDA's type (1) and HIP's (6) name one kind of device, a GPU: a side recorded with one and
// the other with the other compare GPU by GPU.
int device_kind(int device_type) { return device_type == 6 ? 1 : device_type; }

// Each device's memory steps of a side, by index: found once, in one pass, so that each
// device's figures read only its own steps (a scan of every step per device and figure
// was quadratic: 12,000 devices took 7.8 times 4,000's time).
using DeviceSteps = std::map<Device, std::vector<std::size_t>>;
DeviceSteps by_device(const std::vector<MemoryStep>& steps) {
  DeviceSteps out;
  for (std::size_t i = 0; i < steps.size(); ++i)
    out[{device_kind(steps[i].device_type), steps[i].device_id}].push_back(i);
  return out;
}

// One device's values per unit of a side, units without it (or without totals) left out.
std::vector<double> samples(const std::vector<MemoryStep>& steps, const DeviceSteps& index, Device d,
                            const MemoryFigureDef& def) {
  std::vector<double> v;
  const auto it = index.find(d);
  if (it == index.end()) return v;
  for (const auto i : it->second)
    if (!(def.totals && steps[i].*def.field < 0)) v.push_back(value(steps[i], def));
  return v;
}

// The headline's peak over a unit's GPUs: the largest of its GPUs' peaks, per unit.
std::vector<double> gpu_peaks(const std::vector<MemoryStep>& steps, std::int64_t MemoryStep::*field) {
  std::vector<std::pair<std::uint32_t, std::int64_t>> per_unit;
  for (const auto& m : steps)
    if (model::memory_on_gpu(m.device_type) && m.*field >= 0) per_unit.emplace_back(m.step, m.*field);
  std::sort(per_unit.begin(), per_unit.end());
  std::vector<double> v;
  for (std::size_t i = 0; i < per_unit.size();) {
    std::int64_t peak = per_unit[i].second;
    std::size_t j = i;
    for (; j < per_unit.size() && per_unit[j].first == per_unit[i].first; ++j) peak = std::max(peak, per_unit[j].second);
    v.push_back(static_cast<double>(peak));
    i = j;
  }
  return v;
}

}  // namespace

std::vector<double> memory_peak_samples(const model::SideSummary& side, std::string_view id) {
  if (id == "peak_allocated") return gpu_peaks(side.memory, &MemoryStep::peak_allocated);
  if (id == "peak_reserved") return gpu_peaks(side.memory, &MemoryStep::peak_reserved);
  return {};
}

namespace {

model::Figure figure(const char* id, const char* label, const char* note, bool bytes, bool direction_only) {
  model::Figure f;
  f.id = id;
  f.label = label;
  f.note = note;
  f.duration = false;
  f.bytes = bytes;
  f.direction_only = direction_only;
  return f;
}

}  // namespace

void decide_memory(model::DiffReport& r, const NoiseRule& time_rule) {
  const auto& c = r.control.memory;
  const auto& t = r.test.memory;
  if (r.control.step_details.empty() || r.test.step_details.empty()) return;
  if (c.empty() || t.empty()) {
    const std::string which = c.empty() && t.empty() ? "neither side's traces have memory events"
                              : c.empty()            ? r.control.label + "'s traces have no memory events"
                                                     : r.test.label + "'s traces have no memory events";
    r.notes.push_back("No memory figures: " + which +
                      " (record them with torch.profiler.profile(profile_memory=True)).");
    return;
  }
  // Sizes and counts: the relative rule alone (--min-change-us is a time).
  const NoiseRule rule = time_rule.relative();

  // The headline: peak memory on the GPUs, where both sides have the allocator's totals.
  for (const auto& [id, label, field] :
       {std::tuple{"peak_allocated", "Peak memory allocated", &MemoryStep::peak_allocated},
        std::tuple{"peak_reserved", "Peak memory reserved", &MemoryStep::peak_reserved}}) {
    const auto cs = gpu_peaks(c, field), ts = gpu_peaks(t, field);
    if (cs.empty() || ts.empty()) continue;
    auto f = figure(id, label,
                    field == &MemoryStep::peak_allocated
                        ? "GPU: the largest Total Allocated in the step (of a rank's GPUs, the largest)"
                        : "GPU: the largest Total Reserved in the step (of a rank's GPUs, the largest)",
                    true, false);
    f.value = compare_samples(cs, ts, rule);
    r.headline.push_back(std::move(f));
  }

  const auto c_index = by_device(c), t_index = by_device(t);
  std::set<Device> devices;
  for (const auto* index : {&c_index, &t_index})
    for (const auto& [d, steps] : *index) devices.insert(d);
  for (const auto& d : devices) {
    model::MemoryDevice out;
    out.device = model::memory_device_name(d.first, d.second);
    out.device_type = d.first;
    out.device_id = d.second;
    for (const auto& def : k_memory_figures) {
      const auto cs = samples(c, c_index, d, def), ts = samples(t, t_index, d, def);
      if (def.totals && cs.empty() && ts.empty()) continue;  // a trace without totals
      auto f = figure(def.id, def.label, def.note, def.field != nullptr, def.direction_only);
      f.value = compare_samples(cs, ts, rule);
      // A device on one side only: no difference to judge.
      if (cs.empty() || ts.empty()) {
        f.value.verdict = model::Verdict::untestable;
        f.value.significant = false;
        f.value.pct.reset();
        f.value.control_missing = cs.empty();
        f.value.test_missing = ts.empty();
      }
      out.figures.push_back(std::move(f));
    }
    r.memory.push_back(std::move(out));
  }
  // What the terminal and the Markdown show of it: every figure of the first GPU (else the
  // first device), and the significant ones of the others; eight at most.
  std::size_t first = 0;
  for (std::size_t k = 0; k < r.memory.size(); ++k)
    if (model::memory_on_gpu(r.memory[k].device_type)) {
      first = k;
      break;
    }
  for (std::size_t k = 0; k < r.memory.size(); ++k)
    for (std::size_t f = 0; f < r.memory[k].figures.size(); ++f)
      if ((k == first || r.memory[k].figures[f].value.significant) && r.memory_shown.size() < 8)
        r.memory_shown.push_back({k, f});
}

}  // namespace tracediff::analysis::detail
