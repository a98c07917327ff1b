#pragma once
// Where one step's time went (StepDetail), and its durations by name (k_step_fields): what
// each file's summary holds per step and each side's breakdown averages.
#include <cstdint>

namespace tracediff::model {

// Where one step's time went (means over a side's step units in StepBreakdown).
struct StepDetail {
  int rank = 0;
  std::int64_t step = 0;
  std::int64_t dur_ns = 0;
  std::int64_t gpu_busy_ns = 0;    // union of kernel/memcpy/memset intervals within the step, per device, summed
  std::int64_t gpu_idle_ns = 0;    // step time × devices − busy
  std::int64_t gpu_spill_ns = 0;   // GPU work launched in the step that ran after it ended (union, per device)
  std::int64_t host_busy_ns = 0;   // union of host events within the step, on the threads that run operators
  std::int64_t kernel_ns = 0;      // compute kernels (communication kernels apart)
  std::int64_t comm_ns = 0;        // NCCL/RCCL/HCCL communication kernels
  std::int64_t memcpy_ns = 0;
  std::int64_t memset_ns = 0;
  std::int64_t cpu_self_ns = 0;    // CPU operators' self time (cpu_op events, ProfilerStep spans left out)
  std::int64_t runtime_ns = 0;     // CUDA runtime/driver calls
  // GPU work whose launch the trace lacks (graph replays, launches before the profiler
  // started or on unrecorded threads): part of the four kinds above, placed by its GPU start.
  std::int64_t unlaunched_ns = 0;
  // Where each GPU's step went (docs/reading-the-report.md "Why the step moved"): exclusive parts of its
  // timeline within the step window, summed over the file's devices. They add up to
  // dur_ns × devices: the first four are gpu_busy_ns, the idle ones gpu_idle_ns.
  std::int64_t gpu_compute_only_ns = 0;  // compute kernels, no communication running
  std::int64_t gpu_comm_only_ns = 0;     // communication kernels alone: exposed communication
  std::int64_t gpu_overlap_ns = 0;       // computation overlapped with communication
  std::int64_t gpu_mem_only_ns = 0;      // memcpy and memset with no kernel running
  std::int64_t idle_launch_ns = 0;       // idle until the host launched the next work (launch-bound)
  std::int64_t idle_sync_ns = 0;         // idle while the host, after synchronising, had not launched again
  std::int64_t idle_stream_ns = 0;       // idle, the next work launched but waiting on another stream or event
  std::int64_t idle_other_ns = 0;        // idle for no cause the trace shows (no next work, no recorded launch)
  // Exposed (non-overlapped) communication by collective kind; they add up to gpu_comm_only_ns.
  std::int64_t exposed_all_reduce_ns = 0, exposed_all_gather_ns = 0, exposed_reduce_scatter_ns = 0,
               exposed_all_to_all_ns = 0, exposed_broadcast_ns = 0, exposed_send_recv_ns = 0,
               exposed_other_comm_ns = 0;
  // The host's side, on the threads that run operators (summed over them): host_busy_ns
  // splits into working and waiting for the GPU (synchronising calls and what blocks in
  // them); host_idle_ns is step time × those threads − host_busy_ns.
  std::int64_t host_wait_ns = 0;
  std::int64_t host_idle_ns = 0;
  // The profiler's own work in the step (its Python frames, the synchronisation that
  // stops it), left out of rows and the tree and only said in a note.
  std::int64_t profiler_ns = 0;
};

// Every duration of a StepDetail with its name, in the order summaries write them
// (model/summary.hpp's schema): one list for the summary's reader and writer, the
// bound on sums, and the per-step means.
struct StepField {
  const char* name;
  std::int64_t StepDetail::*field;
};
inline constexpr StepField k_step_fields[] = {
    {"dur", &StepDetail::dur_ns},
    {"gpu_busy", &StepDetail::gpu_busy_ns},
    {"gpu_idle", &StepDetail::gpu_idle_ns},
    {"kernel", &StepDetail::kernel_ns},
    {"comm", &StepDetail::comm_ns},
    {"memcpy", &StepDetail::memcpy_ns},
    {"memset", &StepDetail::memset_ns},
    {"cpu_self", &StepDetail::cpu_self_ns},
    {"runtime", &StepDetail::runtime_ns},
    {"gpu_spill", &StepDetail::gpu_spill_ns},
    {"host_busy", &StepDetail::host_busy_ns},
    {"unlaunched", &StepDetail::unlaunched_ns},
    {"gpu_compute_only", &StepDetail::gpu_compute_only_ns},
    {"gpu_comm_only", &StepDetail::gpu_comm_only_ns},
    {"gpu_overlap", &StepDetail::gpu_overlap_ns},
    {"gpu_mem_only", &StepDetail::gpu_mem_only_ns},
    {"idle_launch", &StepDetail::idle_launch_ns},
    {"idle_sync", &StepDetail::idle_sync_ns},
    {"idle_stream", &StepDetail::idle_stream_ns},
    {"idle_other", &StepDetail::idle_other_ns},
    {"exposed_all_reduce", &StepDetail::exposed_all_reduce_ns},
    {"exposed_all_gather", &StepDetail::exposed_all_gather_ns},
    {"exposed_reduce_scatter", &StepDetail::exposed_reduce_scatter_ns},
    {"exposed_all_to_all", &StepDetail::exposed_all_to_all_ns},
    {"exposed_broadcast", &StepDetail::exposed_broadcast_ns},
    {"exposed_send_recv", &StepDetail::exposed_send_recv_ns},
    {"exposed_other_comm", &StepDetail::exposed_other_comm_ns},
    {"host_wait", &StepDetail::host_wait_ns},
    {"host_idle", &StepDetail::host_idle_ns},
    {"profiler", &StepDetail::profiler_ns},
};

}  // namespace tracediff::model
