// GPU busy and idle per step: the union of each device's work cut to the step windows,
// its parts by what the GPU ran and why it idled (timeline.hpp), and the work launched
// in a step that runs past its end.
#include <set>

#include "analysis/summarize/file_pass.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis::detail {

namespace {

// Length of the union of intervals sorted by start, each cut to start at `from`.
std::int64_t union_length(const GpuInterval* first, const GpuInterval* last, std::int64_t from) {
  std::int64_t total = 0, cur_b = 0, cur_e = 0;
  bool open = false;
  for (auto* iv = first; iv != last; ++iv) {
    const auto b = std::max(iv->begin, from);
    if (iv->end <= b) continue;
    if (!open || b > cur_e) {
      if (open) total += cur_e - cur_b;
      cur_b = b, cur_e = iv->end, open = true;
    } else {
      cur_e = std::max(cur_e, iv->end);
    }
  }
  if (open) total += cur_e - cur_b;
  return total;
}

}  // namespace

void gpu_busy(std::pmr::vector<GpuInterval>& gpu, const model::TraceFile& f, const LaunchIndex& launch_of,
              std::vector<HostSync>& syncs, const StepWindows& windows, model::FileSummary& s,
              std::pmr::memory_resource* memory) {
  // GPU work launched in a step that runs past its end: the union per (step, device)
  // of that work after the step's end. Idle is against every device of the file.
  std::set<std::uint32_t> devices;
  // One scratch for both sorts: the arena never reuses what is freed.
  std::pmr::vector<GpuInterval> scratch(memory);
  merge_runs(gpu.data(), gpu.data() + gpu.size(), std::less<>(), scratch);
  for (auto* first = gpu.data(); first != gpu.data() + gpu.size();) {
    auto* last = first;
    while (last != gpu.data() + gpu.size() && last->step == first->step && last->pid == first->pid) ++last;
    devices.insert(first->pid);
    if (first->step >= 0) {
      const auto w = static_cast<std::size_t>(first->step);
      add_sat(s.steps[w].detail.gpu_spill_ns, union_length(first, last, windows.end[w]));
    }
    first = last;
  }
  s.gpus_with_work = static_cast<int>(devices.size());
  // By device, then start: runs of that order already (each stream's work is in order).
  merge_runs(gpu.data(), gpu.data() + gpu.size(), [](const GpuInterval& a, const GpuInterval& b) {
    return a.pid != b.pid ? a.pid < b.pid : a.begin < b.begin;
  }, scratch);
  // GPU busy and its parts, idle by cause (timeline.hpp): busy is the union of all GPU
  // work on a device (whichever step launched it) cut to the window, summed over devices.
  detail::split_timeline(gpu, f.events, launch_of, syncs, windows.begin, windows.end, s.steps);
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    auto& d = s.steps[i].detail;
    d.host_busy_ns = windows.host_busy[i];
    d.host_wait_ns = windows.host_wait[i];
    const __int128 host_idle = __int128{d.dur_ns} * windows.op_threads - d.host_busy_ns;
    d.host_idle_ns = static_cast<std::int64_t>(std::clamp<__int128>(host_idle, 0, INT64_MAX));
    const __int128 idle = __int128{d.dur_ns} * static_cast<__int128>(devices.size()) - d.gpu_busy_ns;
    d.gpu_idle_ns = static_cast<std::int64_t>(std::clamp<__int128>(idle, 0, INT64_MAX));
  }
}

}  // namespace tracediff::analysis::detail
