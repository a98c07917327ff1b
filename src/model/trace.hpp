#pragma once
// The trace model: what the reader keeps of each Kineto file. Events are compact
// (no strings; names and categories are ids into the file's StringPool) so that
// memory grows with the number of events, never with their text.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/huge_page_allocator.hpp"
#include "model/input_diagnostics.hpp"
#include "model/string_pool.hpp"

namespace tracediff::model {

// What an event's category says about where it ran. Decided by category, never by
// args.stream or pid (kineto-trace-format.md §5).
enum class Kind : std::uint8_t {
  cpu_op,
  user_annotation,
  python_function,
  runtime,              // cuda_runtime, cuda_driver, mtia/xpu/privateuse1 runtimes: launch calls
  other_host,           // any other host category
  kernel,
  gpu_memcpy,
  gpu_memset,
  gpu_user_annotation,  // GPU-side span of a record_function: neither CPU op nor GPU work
  cuda_sync,            // waits, not execution: neither CPU op nor GPU work
  other_device,         // cuda_event, cuda_profiler_range, mtia_ccp_events, ...
};

enum class Device : std::uint8_t { cpu, gpu, other };

// Inline: the analysis asks these once or more per event.
inline Device device_of(Kind kind) {
  switch (kind) {
    case Kind::kernel:
    case Kind::gpu_memcpy:
    case Kind::gpu_memset: return Device::gpu;
    case Kind::gpu_user_annotation:
    case Kind::cuda_sync:
    case Kind::other_device: return Device::other;
    default: return Device::cpu;
  }
}
const char* device_name(Device device);      // "cpu", "gpu", "other"
const char* kind_name(Kind kind);            // "cpu_op", "runtime", ...
bool kind_from_name(std::string_view name, Kind& kind);
// kernel, gpu_memcpy, gpu_memset
inline bool is_gpu_work(Kind kind) { return device_of(kind) == Device::gpu; }
// runtime/driver calls that carry a correlation to GPU work
inline bool is_launch(Kind kind) { return kind == Kind::runtime; }

// One complete ("X") event. 48 bytes.
struct Event {
  std::int64_t ts_ns = 0;            // exact, as written (baseTimeNanoseconds not added)
  std::int64_t dur_ns = 0;
  std::int64_t correlation = -1;     // args.correlation, -1 if none
  std::uint32_t name = 0;            // StringPool id
  std::uint32_t category = 0;        // StringPool id of the normalised (lower-case, legacy-mapped) category
  std::uint32_t pid = 0;             // StringPool id of pid's text (pids may be strings)
  std::uint32_t tid = 0;             // StringPool id of tid's text
  // --by-shape, cpu_op only: StringPool id of "DIMS (TYPES)" (reading/shape_text.hpp),
  // ~0u without. It fills padding: the event stays 48 bytes.
  std::uint32_t shape = ~0u;
  Kind kind = Kind::other_host;
  bool has_dur = false;
  bool negative_dur = false;         // dur < 0 in the file; clamped to 0
};
static_assert(sizeof(Event) == 48, "events are the reader's memory: keep them at 48 bytes");

// Only kept with --hta-compat: what HTA's pandas pipeline sees of each event
// (hta-tracediff-semantics.md §2). One per event of `events`, same order.
struct HtaFields {
  double ts = 0;           // ts as Python float() parses it
  double dur = 0;          // dur likewise
  std::int64_t stream = -1;
  std::uint32_t index = 0; // position in traceEvents, before any filtering
  bool ts_integral = true; // the ts literal was an integer
};

using EventArray = std::vector<Event, HugePageAllocator<Event>>;

// A collective's identity where the trace gives one (args "Seq" and "Process Group
// Name" of record_param_comms or of an NCCL kernel): kept beside the events, which
// have no room for it and seldom need it.
struct CommTag {
  std::uint32_t event = 0;   // index into TraceFile::events
  std::uint32_t group = ~0u; // StringPool id of the process group's name, ~0u without
  std::int64_t seq = 0;
};

// Inductor's own figures of a kernel (args kernel_flop and kernel_num_gb, which
// torch.compile's Triton kernels carry and profile_analysis --augment_trace adds):
// kept beside the events, as CommTag, for the few kernels that have them.
struct KernelWork {
  std::uint32_t event = 0;  // index into TraceFile::events
  double flop = -1;         // floating-point operations per call, -1 without
  double bytes = -1;        // bytes moved per call (kernel_num_gb × 1e9), -1 without
};

// One allocation (bytes > 0) or free (bytes < 0) of PyTorch's memory events (`[memory]`
// instant events, profile_memory=True): kept beside the events, in file order, never
// in them (a file can hold as many of these as of operators).
struct MemoryEvent {
  std::int64_t ts_ns = 0;
  std::int64_t bytes = 0;
  // The allocator's totals after this event, -1 where the trace lacks them (PyTorch
  // before ~1.10 wrote Bytes alone).
  std::int64_t total_allocated = -1;
  std::int64_t total_reserved = -1;
  std::uint64_t addr = 0;     // args.Addr, 0 without
  std::uint32_t pid = 0;      // StringPool ids of pid's and tid's text, as Event's: the
  std::uint32_t tid = 0;      // thread a host event of the same text ran on
  std::int16_t device_id = -1;     // args["Device Id"] (-1 on the host and without)
  std::int8_t device_type = -1;    // args["Device Type"]: c10::DeviceType (0 host, 1 CUDA, ...), -1 without
};
static_assert(sizeof(MemoryEvent) == 56, "memory events are kept per event: keep them small");

enum class RankSource : std::uint8_t { distributed_info, file_name, fallback };

const char* rank_source_name(RankSource source);  // "distributedInfo", "file_name", "fallback"

struct FileSummary;  // model/summary.hpp

struct TraceFile {
  std::string path;                  // as given or found
  std::uint64_t bytes_on_disk = 0;
  std::uint64_t json_bytes = 0;      // after inflating
  bool gzip = false;
  int rank = 0;
  RankSource rank_source = RankSource::fallback;
  std::uint32_t run = 0;             // which run of its side (--control-run, --runs); 0 for one run
  std::optional<int> world_size;
  std::optional<std::int64_t> base_time_ns;
  std::vector<std::string> gpu_names;  // deviceProperties[].name
  std::optional<std::int64_t> cuda_runtime_version, cuda_driver_version;  // newer CUDA builds write them
  std::uint64_t total_events = 0;      // entries of traceEvents, every phase
  StringPool pool;
  EventArray events;                   // complete events with a category, in file order
  std::vector<HtaFields> hta;          // --hta-compat only
  std::vector<CommTag> comm_tags;      // by event index
  std::vector<KernelWork> kernel_work; // by event index: kernels with Inductor's figures
  std::vector<MemoryEvent> memory;     // [memory] events, in file order
  bool hta_float_mode = false;         // --hta-compat: a non-integer or missing ts somewhere (§2.2)
  bool truncated = false;
  Diagnostics diagnostics;
  // Set once the file is summarised (default mode); the events are then dropped.
  std::shared_ptr<FileSummary> summary;
};

// One side of the comparison: every file that loaded, plus what was skipped.
struct TraceSet {
  std::string label;
  std::vector<std::string> inputs;   // the arguments as given
  std::vector<std::string> runs;     // each run's inputs, joined (TraceFile::run indexes it); empty: one run
  std::vector<TraceFile> files;      // sorted by (rank, path)
  Diagnostics diagnostics;           // file-level problems (skipped files, duplicate ranks)
};

}  // namespace tracediff::model
