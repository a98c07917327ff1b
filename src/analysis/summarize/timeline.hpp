#pragma once
// Where each GPU's step went (issue #26 item 1, docs/reading-the-report.md "Where the GPU's step went"):
// every device's timeline cut into exclusive parts, so that the parts add up to the
// step exactly, to the nanosecond, on every device and step window.
//
// Busy time, by what runs at each instant (kernels of any stream, memcpy, memset):
//   compute only   compute kernels, no communication kernel (memcpy may run too);
//   comm only      communication kernels, no compute kernel: exposed communication,
//                  split by collective (the kind of the lowest collective running);
//   overlap        compute kernels and communication kernels at once;
//   mem only       memcpy or memset, no kernel.
// Communication kernels: NCCL/RCCL/HCCL by name, and what the family table calls
// communication (vLLM/SGLang custom all-reduce, cross_device_reduce, DeepEP...).
//
// Idle time, by the GPU work that ends the gap (the next work on the device, perhaps
// after the step; of several starting at once, the first in the file) and the runtime
// call that launched it. The gap starts when the device went idle (for the first gap,
// when the trace starts), and its cause holds for all of it:
//   the launch started at or after the device went idle: the GPU waited for the host;
//     sync     the launching thread ended a synchronising call (Synchronize, a blocking
//              memcpy, a copy to pageable memory) between the start of the gap and the
//              launch: the host synchronised, then was busy (data, optimizer, Python);
//     launch   else: launch-bound;
//   the launch started before (the work was queued, yet started late):
//     stream   it is on another stream than the work that ended last: it waited on
//              that stream or an event;
//     other    on the same stream: the GPU's own gap between queued work;
//   other      no next work, or its launch is not in the trace.
// Cost: one sweep over each device's intervals sorted by start, a small heap of the
// running ones, and the pieces of one device at a time (transient).
#include <cstdint>
#include <memory_resource>
#include <vector>

#include "analysis/summarize/step_assignment.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis::detail {

// What a piece of GPU work counts as in the split: compute, memory, or one of the
// collectives in StepDetail's exposed_* order.
enum class WorkClass : std::uint8_t {
  compute,
  mem,
  all_reduce,
  all_gather,
  reduce_scatter,
  all_to_all,
  broadcast,
  send_recv,
  other_comm,
};
// A kernel's class by its name (communication or compute); call once per name.
WorkClass kernel_class(std::string_view name);
// A runtime call that blocks the host until the GPU is done: *Synchronize, a blocking
// cudaMemcpy/hipMemcpy (not ...Async).
bool host_sync_call(std::string_view name);

// A GPU interval: its device, the step it was launched in (or -1), its event and class.
struct GpuInterval {
  std::int32_t step;
  std::uint32_t pid;
  std::int64_t begin, end;
  std::uint32_t event;
  WorkClass cls;
  auto operator<=>(const GpuInterval&) const = default;
};

// A synchronising call's end on a host thread ((pid << 32) | tid, pool ids).
struct HostSync {
  std::uint64_t thread;
  std::int64_t end;
  auto operator<=>(const HostSync&) const = default;
};

// Fills gpu_busy_ns and the parts (gpu_*_only, overlap, idle_*, exposed_*) of each
// step's detail from the file's GPU intervals (sorted by device, then start) and the
// step windows [begin, end). `syncs` is sorted here.
void split_timeline(const std::pmr::vector<GpuInterval>& gpu, const model::EventArray& ev, const LaunchIndex& launch_of,
                    std::vector<HostSync>& syncs, const std::vector<std::int64_t>& begin,
                    const std::vector<std::int64_t>& end, std::vector<model::StepSummary>& steps);

}  // namespace tracediff::analysis::detail
