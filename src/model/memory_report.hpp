#pragma once
// Memory from the traces' [memory] events: per device and step (MemoryStep), a step's
// allocated bytes over time (MemoryTimeline), and each device's figures, judged
// (MemoryDevice). Part of the report (model/report.hpp) and of the summaries.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/figure.hpp"

namespace tracediff::model {

// One device's memory in one step (docs/reading-the-report.md "Memory"), from the
// trace's [memory] events: in a FileSummary `step` indexes its steps, in a SideSummary
// its step_details.
struct MemoryStep {
  std::uint32_t step = 0;
  std::int16_t device_id = -1;
  std::int8_t device_type = -1;  // c10::DeviceType: 0 the host, 1 CUDA, ...; -1 not recorded
  // The allocator's largest totals in the step (what was allocated at its start
  // included); -1 where the trace has no totals.
  std::int64_t peak_allocated = -1;
  std::int64_t peak_reserved = -1;
  std::int64_t peak_growth = 0;      // the running sum of Bytes from the step's start, at its largest (>= 0)
  std::int64_t net_change = 0;       // the sum of Bytes over the step: what it leaves allocated
  std::int64_t allocated_bytes = 0;  // the sum of its allocations (Bytes > 0)
  std::uint64_t allocations = 0;
};
// A step's allocated bytes over time on one device (the HTML's memory timeline): the
// file's median step by duration, at most k_timeline_points points, the peak kept.
struct MemoryTimeline {
  std::uint32_t step = 0;  // index into FileSummary::steps (SideSummary: into step_details)
  std::int64_t step_ns = 0;  // the step's duration
  int device_type = -1, device_id = -1;
  // true: Total Allocated; false (traces without totals): the running sum of Bytes from
  // the step's start.
  bool totals = false;
  std::vector<std::pair<std::int64_t, std::int64_t>> points;  // (ns from the step's start, bytes), by time
  std::int64_t peak_ns = 0, peak_bytes = 0;
  std::string peak_op;  // the innermost CPU operator open at the peak's event; "" none
};
inline constexpr std::size_t k_timeline_points = 500;

// A device's name in every view: "GPU 0", "CPU", "device type 12 id 0", "device not recorded".
std::string memory_device_name(int device_type, int device_id);
// Memory on a GPU (any device but the host's), by c10::DeviceType.
inline bool memory_on_gpu(int device_type) { return device_type > 0; }

// One device's memory figures, both sides (GPUs by Device Id, the host as "CPU"),
// each judged by the noise rule over the step units that have that device.
struct MemoryDevice {
  std::string device;  // memory_device_name
  int device_type = -1, device_id = -1;
  // peak_allocated, peak_reserved (where the trace has totals), peak_growth, net_change,
  // allocated, allocations; per step unit.
  std::vector<Figure> figures;
};

}  // namespace tracediff::model
