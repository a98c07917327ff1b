#pragma once
// The result model, one thing: everything a writer shows, computed once by analysis/. Writers
// (HTML, JSON, CSV, Markdown, terminal) read it and never sort, filter or recompute.
//
// One row, as the CSV shows it:
//   name,category,device,control_count,test_count,...,change
//   aten::mm,cpu_op,cpu,48,48,...,unchanged
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting.hpp"
#include "model/diagnostics.hpp"
#include "model/gate.hpp"
#include "model/min_change.hpp"
#include "model/step_trace.hpp"
#include "model/samples.hpp"
#include "model/trace.hpp"

namespace tracediff::model {


constexpr std::uint32_t k_no_node = ~0u;  // no call-tree node (CallTree)
// Kernel families a view lists (DiffReport::families_shown): every significant one, and
// others until this many are listed. The JSON's families has them all.
inline constexpr std::size_t k_families_shown = 5;

// HTA's ops_diff groups, by count (hta-tracediff-semantics.md §7).
enum class Change : std::uint8_t { added, deleted, increased, decreased, unchanged };
const char* change_name(Change c);   // "added", ...
const char* change_symbol(Change c); // HTA's "+", "-", "="

// Verdict on a figure's change, from its per-step samples (docs/is-it-real.md):
// untestable when a side has too few samples to tell.
enum class Verdict : std::uint8_t { slower, faster, same, untestable };
const char* verdict_name(Verdict v);   // JSON and CSV: "slower", "faster", "same", "untestable"
const char* verdict_words(Verdict v);  // people: "slower", "faster", "same within noise", "not testable"
struct DiffRow;
// A row's verdict for people: verdict_words, "waits for the GPU" for a significant change
// of a row that waits for it (DiffRow::waits_for_gpu), or "more calls" / "fewer calls"
// for a change that comes from the number of calls (DiffRow::by_calls).
const char* row_words(const DiffRow& row);

// One figure on both sides and what analysis decided about its change. Writers show
// these values as they are.
struct Comparison {
  double control = 0, test = 0;  // per step unit (a mean), or a total where so labelled
  std::optional<double> pct;     // 100 (test - control) / control; nullopt when control is 0
  Verdict verdict = Verdict::same;
  bool significant = false;
  double p_value = 1;  // the rank test's; 1 when it did not run (not testable, or below --min-change)
  // A side with no value at all (a rank on one side only), not a value of 0: no
  // difference then (JSON null).
  bool control_missing = false, test_missing = false;
  double diff() const { return test - control; }
  bool is_new() const { return control == 0 && test != 0; }
};

struct SideStats {
  std::uint64_t count = 0;
  std::int64_t total_ns = 0;   // inclusive
  std::int64_t self_ns = 0;    // exclusive: host events minus their direct children; GPU work = total
  // Host rows: time inside it that the host waited for the GPU; GPU rows: its time while
  // the host waited (model::Cell::wait_ns).
  std::int64_t wait_ns = 0;
  std::uint64_t nested = 0;    // calls inside an open call of the same name (model::Cell::nested)
};

// Per-step means of one side of a row: totals divided by the side's step units
// (selected steps × ranks; one unit per file in whole-trace mode).
struct PerStep {
  double count = 0;
  double total_ns = 0;
  double self_ns = 0;
  double stddev_ns = 0;  // spread of the per-unit totals (0 with fewer than 2 units)
  double wait_ns = 0;    // SideStats::wait_ns per unit
};

struct DiffRow {
  std::string name;       // the key: full name, or HTA's short name with --short-names
  std::string full_name;  // the full name behind the key (first in order when several merge)
  std::string category;   // normalised cat; empty in --hta-compat, whose key is the name alone
  Device device = Device::cpu;
  SideStats control, test;
  PerStep control_step, test_step;
  Change change = Change::unchanged;       // by count (per step in the default mode)
  Verdict verdict = Verdict::same;         // by duration per step, noise-aware
  bool significant = false;                // the per-step change stands out from the noise
  std::string launched_by;                 // GPU rows: the CPU operator that launched most of its time
  std::string family;                      // GPU rows, default mode: its kernel family's id ("gemm",
                                           // "all_reduce", ...; analysis/names/families.cpp); empty otherwise
  std::string family_by;                   // how `family` was decided: "rule", "launcher", "words", "kind"
                                           // (memcpy, memset) or "none" (`other`); empty with no family
  // The test side's own name when it differs from `name` (names matched across
  // versions and vendors, analysis/names/name_match.hpp), and why they were paired.
  std::string test_name;
  std::string matched_by;                  // "python_line", "runtime", ...; empty when not renamed
  std::string test_label;                  // test_name as views show it (simplified, at most 60 characters)
  std::string label;                       // the name as views show it (distinct_labels over all rows)
  std::string launched_by_label;
  std::optional<double> pct;               // diff_pct(): set by analysis
  std::optional<double> self_pct;          // the same for self time
  double median_diff_ns = 0;               // what the verdict judged: median(test) - median(control)
  // What every list prints and ranks by (docs/reading-the-report.md "One Δ"): in the default mode the
  // per-step medians and their difference, the one the verdict judges (also for rows
  // not testable); in --hta-compat the totals. `mean_differs`: the means' Δ
  // (diff_per_step_ns) differs from it by a quarter or more, so views show it beside.
  struct Shown {
    double control_ns = 0, test_ns = 0;
    std::optional<double> pct;
    bool mean_differs = false;
    double diff_ns() const { return test_ns - control_ns; }
    bool is_new() const { return control_ns == 0 && test_ns != 0; }
  } shown;
  // Calls apart from time (docs/reading-the-report.md "Calls or time?"): the time per call on each side (the
  // shown time per step over the calls per step), and the shown Δ split into the part
  // from the number of calls (Δcalls × control's time per call) and the part from the
  // time per call (test's calls × Δ per call); the two add up to shown.diff_ns().
  double control_per_call_ns = 0, test_per_call_ns = 0;
  // The calls they are per: outermost calls per step (a call inside one of its name is
  // part of that call's time), the lists' "calls".
  double control_calls = 0, test_calls = 0;
  std::optional<double> per_call_pct;      // nullopt when a side has no calls
  double diff_from_calls_ns = 0, diff_from_per_call_ns = 0;
  // A significant change that comes from the number of calls: the time per call did not
  // move the same way by the noise rule's minimum. Views read it "more calls" / "fewer
  // calls", never "slower" / "faster".
  bool by_calls = false;
  // Kernels of one family that moved in opposite directions while the family's time
  // stayed the same (an autotuner or a heuristic picking other algorithms): left out of
  // the top lists and told by one note.
  bool swapped = false;
  // A host row whose time, on the side where it is larger, is at least half the host
  // blocked on the GPU (docs/reading-the-report.md "The host waiting for the GPU"): shown as "waits for the
  // GPU", never as a regression of its own; a note says what the GPU ran meanwhile.
  bool waits_for_gpu = false;
  // A host row all of whose events ran on threads that launch no GPU work, on both sides (a
  // telemetry thread, a progress bar's monitor): never what moved the GPU's idle time.
  bool off_launch_threads = false;
  // Of those, a frame that blocks its thread (wait, acquire, sleep, select, ...): a thread
  // asleep, left out of the top lists (TopList::sleeping).
  bool sleeping = false;
  std::uint32_t tree_node = k_no_node;     // the call-tree path that carries most of its change
  std::size_t explained_by = SIZE_MAX;     // the row of a call inside it that explains >= 90 % of its change
  // --by-shape (CPU operators whose trace records their inputs): the input shapes
  // ("[[64,1024],[1024,4096]] (float,float)", also at the end of name), FLOPs per call
  // and per side the achieved TFLOP/s (analysis/names/flops.hpp; compare_default.cpp says
  // against what time).
  std::string shape;
  std::optional<double> flops_per_call;
  std::optional<double> control_tflops, test_tflops;
  // Inclusive time of each step unit (selected, warm-up left out), for the gate's sums.
  Samples control_samples, test_samples;
  // What its calls allocated (docs/reading-the-report.md "Memory per operator"), when
  // either side's traces have [memory] events: allocations on a device (the host's own
  // memory left out), each charged to the innermost CPU operator open on its thread when
  // it happened (self) and to every host event around it (inclusive). Per step unit.
  struct MemorySide {
    double allocated = 0, allocated_self = 0;    // bytes
    double allocations = 0, allocations_self = 0;
    double held = 0;  // of allocated_self, bytes not freed by the end of the step (Addr matched)
  };
  struct Memory {
    bool recorded = false;  // a side's traces have memory events (else no figures: JSON null)
    MemorySide control, test;
    Comparison allocated;  // self bytes per step, judged: what the lists rank and the gate sums
    Samples control_samples, test_samples;  // self bytes per step unit (empty without allocations)
  } memory;

  // Inductor's own figures (kernels with args kernel_flop / kernel_num_gb, torch.compile's
  // Triton kernels): achieved TFLOP/s and GB/s on each side, over the time of the kernels
  // that carry each figure; nullopt where a side has none. `recorded`: either side has one.
  struct Work {
    bool recorded = false;
    std::optional<double> control_tflops, test_tflops, tflops_pct;
    std::optional<double> control_gbps, test_gbps, gbps_pct;
    // What they are from, over the selected steps: FLOPs and the time of the kernels
    // with kernel_flop, bytes and the time of those with kernel_num_gb (families sum them).
    struct Sums {
      double flop = 0, flop_ns = 0, bytes = 0, bytes_ns = 0;
    } control_sums, test_sums;
  } work;

  double diff_per_step_ns() const { return test_step.total_ns - control_step.total_ns; }
  // The row's duration on its basis, the one place that picks it: the per-step means in
  // the default mode, the totals in --hta-compat (per_step_basis). What the lists' means,
  // the means' Δ and the gate's sums read.
  double basis_control_ns() const {
    return per_step_basis ? control_step.total_ns : static_cast<double>(control.total_ns);
  }
  double basis_test_ns() const { return per_step_basis ? test_step.total_ns : static_cast<double>(test.total_ns); }
  double basis_diff_ns() const { return basis_test_ns() - basis_control_ns(); }
  // New on the test side by that duration (its Δ% is then "new", not a number), and by
  // the self time per step.
  bool is_new() const { return basis_control_ns() == 0 && basis_test_ns() != 0; }
  bool self_is_new() const { return control_step.self_ns == 0 && test_step.self_ns != 0; }
  double diff_self_per_step_ns() const { return test_step.self_ns - control_step.self_ns; }
  std::int64_t diff_count() const {
    return static_cast<std::int64_t>(test.count) - static_cast<std::int64_t>(control.count);
  }
  std::int64_t diff_ns() const { return test.total_ns - control.total_ns; }
  // Relative change of the duration: per step in the default mode, of the totals in
  // --hta-compat; nullopt when control is 0.
  std::optional<double> diff_pct() const { return pct; }
  bool per_step_basis = true;  // false in --hta-compat
};

struct OpsDiff {
  // Names in row order, one list per Change. HTA's ops_diff always uses full names,
  // so with --hta-compat --short-names these are not the rows' keys.
  std::vector<std::string> groups[5];
  const std::vector<std::string>& of(Change c) const { return groups[static_cast<int>(c)]; }
};

// Step time (ProfilerStep#N durations) of one side, over the selected ranks and steps.
struct StepTimes {
  struct Step {
    int rank = 0;
    std::int64_t step = 0;
    std::int64_t dur_ns = 0;
  };
  std::vector<Step> steps;  // sorted by (rank, step)
  std::int64_t mean_ns = 0, median_ns = 0, min_ns = 0, max_ns = 0;
};

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

struct RankDetail {
  int rank = 0;
  std::size_t steps = 0;
  std::int64_t step_mean_ns = 0;
  std::int64_t gpu_busy_mean_ns = 0;
};

// How often one rank arrived last at the collectives it took part in (docs/reading-the-report.md "Which
// rank everyone waited on").
struct LastArrivals {
  std::uint64_t count = 0;  // collectives it arrived last at
  std::uint64_t of = 0;     // collectives it took part in, matched on another rank too
  double share = 0;         // count / of (0 without any)
};

// Collectives matched across one side's ranks (analysis/summarize/collectives.hpp).
struct CollectiveMatch {
  std::uint64_t matched = 0;        // collective instances seen on two ranks or more
  std::uint64_t by_seq = 0;         // of which matched by NCCL sequence number (the rest by kind and order)
  std::vector<std::int64_t> wait_ns;  // per step_details entry: its collectives' time waiting for the last arrival
  struct Rank {
    int rank = 0;
    LastArrivals last;
  };
  std::vector<Rank> ranks;          // selected ranks, ascending
};

struct FileInfo {
  std::string path;
  int rank = 0;
  RankSource rank_source = RankSource::fallback;
  std::uint64_t events = 0;     // complete events kept
  std::uint64_t json_bytes = 0;
  bool truncated = false;
  Accounting accounting;  // after warm-up and selection: rows are what the comparison took
};

// What a side ran on and with, where its traces say so.
struct SideMeta {
  std::vector<std::string> gpus;          // "NVIDIA A100-SXM4-80GB × 8", one per distinct model
  std::vector<int> world_sizes;           // distinct distributedInfo.world_size
  std::vector<std::int64_t> cuda_runtime; // distinct cuda_runtime_version
  std::vector<std::int64_t> cuda_driver;  // distinct cuda_driver_version
  std::vector<int> gpus_with_work;        // distinct per-file counts of devices with GPU work
  bool cuda_graphs = false;               // a graph launch (cudaGraphLaunch, hipGraphLaunch)
  bool compiled = false;                  // torch.compile regions or Triton kernels
  std::vector<std::string> launcher_levels;  // distinct --launcher levels of its summaries
};

// Steps made by a --step-marker on one side (docs/is-it-real.md "Step markers"), per pattern and
// shape over the selected ranks' files.
struct StepMarkerUse {
  std::string pattern;
  bool spans = true;  // each match a step; false: a step from one match to the next
  std::uint64_t files = 0, matches = 0, steps = 0;
  std::vector<std::string> paths;  // its files (the notes name them when a side's files differ; not in the JSON)
};

// One run of a side (--control-run, --test-run, --runs): its inputs and its step time
// within the run, the spread that the between-run test sets the runs' spread against.
struct RunInfo {
  std::string inputs;                  // its paths, joined by ", "
  std::size_t files = 0, units = 0;    // its files, and its selected step units
  std::int64_t step_median_ns = 0;     // its one sample of the step time
  std::int64_t step_p25_ns = 0, step_p75_ns = 0;  // its steps' quartiles: within-run spread
  std::vector<std::string> gpu_names;  // distinct deviceProperties names
};

struct SideSummary {
  std::string label;
  std::vector<std::string> inputs;
  std::vector<FileInfo> files;
  std::vector<int> ranks;                 // selected
  std::vector<int> available_ranks;
  std::vector<std::int64_t> iterations;   // selected steps (empty in whole-trace mode)
  std::vector<std::int64_t> available_iterations;
  bool whole_trace = false;               // no ProfilerStep anywhere: every event compared
  std::vector<std::string> gpu_names;     // distinct deviceProperties names
  StepTimes step_times;
  SideStats cpu_total, gpu_total;         // sums over rows of each device
  std::size_t units = 0;                  // step units: the per-step divisor
  std::vector<StepDetail> step_details;   // one per (rank, step), sorted
  StepDetail step_mean;                   // means over step_details (rank, step = 0)
  std::vector<RankDetail> rank_details;   // one per selected rank
  std::vector<StepDetail> warmup;         // steps found to be warm-up and left out (docs/is-it-real.md)
  // Per warm-up step: left out for the GPU work without a recorded launch that piled up in
  // it (noise.hpp's is_backlog), not for its time.
  std::vector<bool> warmup_backlog;
  SideMeta meta;
  std::vector<StepMarkerUse> step_markers;  // empty: steps from ProfilerStep (or none)
  // With step_markers: the selected files whose steps are their ProfilerStep spans all the
  // same (no marker, or one that made no step there); the notes name them.
  std::vector<std::string> unmarked_files;
  // Compared whole: the --step-marker that most of its files suggest (FileSummary::marker_hint),
  // the name it matches and its repeats in the first such file; empty: none.
  std::string marker_hint, marker_hint_name;
  std::uint64_t marker_hint_count = 0;
  CollectiveMatch collectives;              // several ranks: who waited for whom
  // Each device's memory per step unit (MemoryStep::step indexes step_details), by
  // (device_type, device_id, step); empty when its selected files have no [memory]
  // events (or are summaries without them).
  std::vector<MemoryStep> memory;
  // Its median step's memory over time (by step time, among its files' median steps;
  // MemoryTimeline::step indexes step_details), where its traces have one.
  std::optional<MemoryTimeline> memory_timeline;
  // Several runs (RunInfo): each run, and the run of each step unit (step_details'
  // order); both empty for a side of one run.
  std::vector<RunInfo> runs;
  std::vector<std::uint32_t> unit_runs;
  // Step time: the runs' medians' spread (interquartile range over their median) and
  // the median of the runs' own step spreads, in %; set with several runs.
  std::optional<double> between_run_spread_pct, within_run_spread_pct;
  Accounting accounting;  // its files' together (FileInfo::accounting)
};

// GPU time by the host event that launched it (through the correlation id of the
// runtime call, then the cpu_op around that call on its thread at --launcher's level,
// else the innermost annotation or Python frame around it).
struct LauncherRow {
  std::string launcher;  // CPU operator name; "(unknown)" when the launch has no enclosing op
  std::string label;     // as views show it
  bool graph_replay = false;  // some of its GPU work was replayed from a CUDA/HIP graph it launched
  Comparison time;       // GPU time per step, judged
  std::int64_t control_ns = 0, test_ns = 0;
  struct Kernel {
    std::string name;
    std::string label;
    std::int64_t control_ns = 0, test_ns = 0;
    Comparison time;  // per step, judged
  };
  std::vector<Kernel> kernels;  // by |Δ| descending, then name
};

// GPU time by kernel family (analysis/names/families.cpp): what a comparison across vendors or
// library versions can match when kernel names differ ("GEMM +3.2 ms per step").
struct FamilyRow {
  std::string id, label;     // "gemm", "GEMM" (analysis::family_name, family_label)
  Comparison time;           // GPU time per step, judged from the per-unit sums of its rows' samples
  std::size_t kernels = 0;   // distinct names (rows) in the family, both sides together
  std::vector<std::size_t> rows;  // its rows (indices into DiffReport::rows), by |Δ per step| descending
  DiffRow::Work work;             // Inductor's figures over its rows that have them
};

// One rank of each side, paired by rank id (or by position when the sides' ranks differ).
struct RankRow {
  std::optional<int> control_rank, test_rank;
  std::size_t control_steps = 0, test_steps = 0;
  Comparison step_time, gpu_busy;  // per step, judged
  // Time per step its collective kernels waited for the last rank to arrive, judged;
  // and how often it was that last rank.
  Comparison wait;
  LastArrivals control_last, test_last;
  bool changed_most = false;
};

// The rank a side waited on: it arrived last at most collectives (at least half, and
// twice as often as any other rank).
struct Straggler {
  int rank = 0;
  LastArrivals last;
  double others_wait_ns = 0;                 // the other ranks' mean wait per step
  std::optional<double> others_wait_diff_ns; // its change from the other side's same ranks; nullopt when none
};

// Ranks side by side: which one changed most (by mean step time, among ranks whose
// change is significant).
struct RankComparison {
  std::int64_t control_spread_ns = 0, test_spread_ns = 0;  // max − min of rank step means
  std::optional<int> changed_most_control_rank, changed_most_test_rank;
  double changed_most_pct = 0;
  std::optional<Straggler> control_straggler, test_straggler;
  // One sentence per side that has a straggler, as every view prints it: "Test: rank 3
  // arrived last at 92 % of collectives; the others waited 4.1 ms per step for it (+3.9 ms
  // against Control's wait for its rank 3)".
  std::vector<std::string> straggler_lines;
  bool matched_by_seq = false;  // some collectives matched by NCCL sequence number
};

// A figure of the headline or of the step breakdown.
struct Figure {
  std::string id;     // JSON `figure`: "step_time", "gpu_busy", ...
  std::string label;  // "Step time"
  std::string note;   // what it is made of, in a few words
  Comparison value;
  bool judged = true;  // false: no noise test applies (counts, --hta-compat's totals); shown without a verdict
  bool duration = true;  // false: a count (or, with bytes, a size)
  bool bytes = false;    // a size in bytes (memory): more is worse, its verdict reads "more" / "less"
  // Neither better nor worse when it moves (GPU idle, GPU work past the step's end):
  // a significant change reads "more" or "less", in no colour of its own.
  bool direction_only = false;
};
// A figure's verdict in words: verdict_words(), or "more" / "less" for direction_only ones.
const char* figure_words(const Figure& f);

// The largest significant changes, in order: indices into DiffReport::rows.
struct TopList {
  std::vector<std::size_t> rows;
  // Per row, its node in the call tree: the path that carries most of its change
  // (k_no_node: none).
  std::vector<std::uint32_t> nodes;
  // Per row, where it was called from, as every view shows it: the names of its node's
  // ancestors (display-safe), outermost first, "…" where some are left out (empty at the
  // top level). Views join them with " › " (util/display_name's path_text).
  std::vector<std::vector<std::string>> paths;
  // Per row, how much of its change that path carries, in words before it: "in" (nearly
  // all of it) or "49 % in"; empty with an empty path.
  std::vector<std::string> path_words;
  // Per row, that share as a number in [0, 1] (the path node's Δ over the row's, of the
  // means; 0 when the path moved the other way); nullopt without a path or a per-step Δ.
  std::vector<std::optional<double>> path_shares;
  // Significant rows left out because one call inside explains at least 90 % of their
  // change, and the row listed for it (or counted in `more`) was reached through them.
  std::size_t folded = 0;
  // GPU work on one side only in a family that has names on the other side only too:
  // the same work under other names (another library or vendor), told by the kernel
  // families' figures, not as a new and a gone kernel each.
  std::size_t renamed = 0;
  // Kernels of an algorithm swap within a family whose time stayed the same
  // (DiffRow::swapped), told by one note.
  std::size_t swapped = 0;
  // Rows that wait for the GPU (DiffRow::waits_for_gpu), told by one note.
  std::size_t waiting = 0;
  std::size_t more = 0;          // significant, beyond the list's length
  std::size_t within_noise = 0;  // the same direction, within noise
  std::size_t untestable = 0;    // the same direction, not testable
  // No row could be tested (too few steps on a side): rows are then the largest raw
  // changes, to be shown as not testable, never as real.
  bool raw = false;
  // The significant changes the list counts: listed, and `more` beyond its length
  // (what the verdict line counts too; 0 for a raw list).
  // Frames of threads that launch no GPU work, asleep in wait, acquire, sleep or select
  // (DiffRow::sleeping): their time is no work.
  std::size_t sleeping = 0;
  std::size_t significant() const { return raw ? 0 : rows.size() + more; }
};

// The call tree of both sides, matched by the names along each path (analysis/
// call_tree.cpp). A host node's time is host time at that path; a GPU node (a kernel,
// memcpy or memset) hangs under the runtime call that launched it, and its time is
// GPU time. Figures are per step unit of each side.
struct CallNode {
  std::string name;              // "(other)" / "(other GPU work)" for folded subtrees
  Device device = Device::cpu;   // gpu: GPU work
  bool other = false;            // folds the smallest subtrees of its parent (node budget)
  std::uint32_t parent = k_no_node;
  std::vector<std::uint32_t> children;  // by width, widest first, then weight, then name
  std::size_t row = SIZE_MAX;    // the row of its name, for its label; SIZE_MAX: none
  struct Side {
    double count = 0;   // calls per unit
    double self_ns = 0; // per unit: inclusive less the host events directly inside
    double allocated = 0;  // per unit: device bytes allocated while it was the innermost operator
  } control, test;
  Comparison time;  // inclusive time per unit, judged (a GPU node: its GPU time)
  Comparison gpu;   // GPU time per unit launched at or under this path, judged
  // What chooses what is shown: host and GPU time of both sides.
  double weight() const {
    return (device == Device::gpu ? 0.0 : time.control + time.test) + gpu.control + gpu.test;
  }
  // What orders siblings: the flame graph's default width, the larger side of its own
  // time, so that work one side no longer does sorts by what it was.
  double width() const { return std::max(time.control, time.test); }
};

struct CallTree {
  std::vector<CallNode> nodes;     // parents before children
  std::vector<std::uint32_t> top;  // the top-level nodes, in children's order
  std::size_t budget = 0;          // nodes kept per side at most
  std::uint64_t control_folded = 0, test_folded = 0;  // nodes folded into "(other)" nodes
  // Names from the top down to `node`, itself included.
  std::vector<std::string_view> path(std::uint32_t node) const;
};

// A property on which the sides differ: the likeliest cause of a change, said first.
struct SideDifference {
  std::string what;           // "GPU", "World size", "CUDA runtime", "CUDA graphs", "torch.compile"
  std::string control, test;  // "NVIDIA A100-SXM4-80GB × 8"; "none" when a side lacks it
};

// The rows each chart of the HTML report draws, in chart order (indices into
// DiffReport::rows): the rows that moved most by calls, by time and (default mode)
// by self time, per step (totals with --hta-compat); never a ProfilerStep row.
struct ChartRows {
  std::vector<std::size_t> calls, time, self;
  // Each chart's labels, one per index above: distinct within the chart at the width of a
  // chart's axis (k_chart_label_chars; util/display_name's rule); and the kernel families
  // chart's, one per DiffReport::families_shown.
  std::vector<std::string> calls_labels, time_labels, self_labels, family_labels;
};
inline constexpr std::size_t k_chart_label_chars = 40;

// What the HTML report embeds of its long lists, so that it opens at any size: the
// most important part (by impact), every item the rest of the page links to among
// it, and how much was left out (the CSV and JSON have everything). Decided by
// analysis (analysis/decide/embedded.cpp); the HTML writer shows it and says what is missing.
struct Embedded {
  bool decided = false;                // false (a report built by hand): the page embeds everything
  std::vector<std::size_t> rows;       // the table: indices into rows, in impact order
  std::size_t rows_left_out = 0;
  std::vector<std::size_t> launchers;  // indices into by_launcher, in its order
  std::size_t launchers_left_out = 0;
  std::vector<std::size_t> rank_rows;  // indices into rank_rows, in its order
  std::size_t rank_rows_left_out = 0;
  std::vector<std::uint32_t> tree;     // call-tree nodes, in the tree's order: the heaviest, every
                                       // listed finding's path, and every ancestor of those
  std::size_t tree_left_out = 0;
  std::vector<std::uint32_t> tree_static;  // the static table's nodes (the page without JavaScript):
                                           // the top levels, a few children each, in the tree's order
  std::size_t list_items = 0;          // items shown of each top list (the rest count as more)
  std::size_t group_names = 0;         // names listed of each ops_diff group (the first, in row order)
  std::size_t files = 0;               // input files listed of each side
  std::size_t samples = 0;             // diagnostic samples listed
  std::size_t launcher_kernels = 0;    // kernels listed of each launcher (the rest count as more)

  // The table's filter toggles: its rows per change group, device and verdict (by enum value).
  std::array<std::size_t, 5> rows_per_change{};
  std::array<std::size_t, 3> rows_per_device{};
  std::array<std::size_t, 4> rows_per_verdict{};
  // Each table row's sparkline (parallel to rows): each side's inclusive time per step unit
  // (warm-up left out), at most k_spark_points, a longer run averaged over equal bins.
  std::vector<std::array<std::vector<double>, 2>> sparks;

  // The step chart: each side's steps in order (rank, then step; warm-up included), at most
  // k_step_chart_points, a longer run averaged over equal bins (warm: a warm-up step in it).
  struct StepPoint {
    double ns = 0;
    bool warm = false;
  };
  std::array<std::vector<StepPoint>, 2> step_chart;
  // The per-step table: each side's first k_step_rows steps in the same order, each a
  // warm-up step (index into SideSummary::warmup) or a compared one (into step_details);
  // and how many steps each side has.
  struct StepRef {
    bool warm = false;
    std::size_t index = 0;
  };
  std::array<std::vector<StepRef>, 2> step_rows;
  std::array<std::size_t, 2> steps_of{};
};
inline constexpr std::size_t k_spark_points = 20;
inline constexpr std::size_t k_step_chart_points = 200;
inline constexpr std::size_t k_step_rows = 100;

// The rows by what the report says of them (default mode), as every view counts them:
// regressions and improvements are the top lists' significant() counts; left_out the
// significant rows the lists fold, call renamed or swapped or that wait for the GPU (also
// counted apart, as `waiting`); same and untestable the
// rows within noise and not testable. They add up to the number of rows.
struct VerdictCounts {
  std::size_t regressions = 0, improvements = 0, left_out = 0, same = 0, untestable = 0;
  std::size_t waiting = 0;  // part of left_out
};

// The verdict line's mark (analysis/gate/verdict.cpp): fail (a --fail-on condition failed,
// or without a gate the step time is significantly slower), pass (significantly faster,
// or every gate condition passed), warn (a gate condition could not be evaluated),
// neutral (anything else).
enum class Mark : std::uint8_t { fail, pass, warn, neutral };
const char* mark_name(Mark m);  // "fail", "pass", "warn", "neutral"

// Why the step moved (docs/reading-the-report.md "Why the step moved"): the step time on each GPU split into
// exclusive parts of its timeline (StepDetail's GPU parts, per GPU: each file's parts over
// its GPUs with work, averaged over step units), so that the parts' Δs add up to the step
// time's Δ; decided by analysis/decide/step_change.cpp, printed by every view.
struct StepPart {
  std::string id;     // "gpu_compute", "gpu_overlap", "exposed.all_reduce", "gpu_mem", "idle.host_launch", ...
  std::string label;  // "GPU compute", "Exposed all-reduce", "Idle: waiting for launches", ...
  Comparison value;   // per step per GPU, judged
  // What moved it, largest |Δ| first: kernel families (ids) for the GPU parts, and rows
  // (indices into DiffReport::rows): a family's kernels, or the host rows behind idle time.
  std::vector<std::string> families;
  std::vector<std::size_t> rows;
};

struct StepChange {
  bool decided = false;           // false: no GPU work on either side (no timeline to split)
  Comparison step;                // step time per step (the headline's, the sum of the parts)
  std::vector<StepPart> parts;    // every part with time on a side, in timeline order
  std::vector<std::size_t> bars;  // the waterfall's bars: the parts with the largest |Δ|, in that order
  double rest_diff = 0;           // the step's Δ less the bars' (the other parts): the waterfall closes
  Comparison exposed_comm;        // the exposed collectives together (the gate's exposed_comm)
  // "Step +46.6 ms = GPU compute +21.0 ms, exposed all-reduce +7.9 ms, other parts +1.2 ms"
  std::string equation;
  // One sentence, under the verdict line in every view: the step's change and the parts
  // that moved it most, each with what moved it most.
  std::string bottom_line;
};

// One device's memory figures, both sides (GPUs by Device Id, the host as "CPU"),
// each judged by the noise rule over the step units that have that device.
struct MemoryDevice {
  std::string device;  // memory_device_name
  int device_type = -1, device_id = -1;
  // peak_allocated, peak_reserved (where the trace has totals), peak_growth, net_change,
  // allocated, allocations; per step unit.
  std::vector<Figure> figures;
};

struct DiffReport {
  SideSummary control, test;
  std::string device_filter = "all";  // cpu | gpu | all
  bool short_names = false;
  bool hta_compat = false;
  bool by_shape = false;                // --by-shape: rows carry shapes, FLOPs and TFLOP/s columns
  std::vector<DiffRow> rows;            // output order: HTA's in --hta-compat, else by_impact's
  std::vector<std::size_t> by_impact;   // |Δ duration| descending, then category, name
  OpsDiff ops_diff;
  std::vector<LauncherRow> by_launcher;  // default mode only; by |Δ per step| descending
  std::vector<FamilyRow> families;       // default mode only; by |Δ per step| descending, then id;
                                         // families with no time on either side left out
  // The families every view lists (indices into families), in their order: every significant
  // one, then the others until k_families_shown are listed, each by |Δ per step| descending.
  std::vector<std::size_t> families_shown;
  std::size_t families_changed = 0;      // of them, significant: 0 is "none changed beyond noise"
  RankComparison ranks;
  // The noise test compared runs (several runs on both sides: each run's median step is a
  // sample); false: steps of one run were the samples, run-to-run noise not measured.
  bool between_runs = false;
  MinChange min_change;                 // the --min-change thresholds in force
  Diagnostics diagnostics;              // both sides; samples name their file
  std::vector<std::string> notes;       // plain-language remarks ("compared whole: no ProfilerStep")

  // Decided once, shown by every writer (default mode; --hta-compat fills headline
  // with HTA's totals and the top lists by raw difference).
  std::string unit = "step";            // what one per-step unit is: "step", or "trace" (no steps)
  std::vector<Figure> headline;         // what people read first
  std::vector<Figure> breakdown;        // where the step time went
  std::vector<Figure> counts;           // calls per step of CPU operators and GPU work (totals in --hta-compat)
  std::vector<Figure> step_stats;       // step time: mean, median, min, max (not judged: the breakdown's is)
  std::vector<RankRow> rank_rows;       // when a side has more than one rank
  TopList top_regressions, top_improvements;
  // Rows whose self allocations per step changed significantly (DiffRow::memory.allocated),
  // largest |Δ bytes| first; empty without memory events.
  TopList allocates_more, allocates_less;
  std::vector<std::size_t> top_launchers;  // significant launchers, by |Δ per step|
  std::vector<SideDifference> sides_differ;
  std::vector<GateResult> gate;         // --fail-on, in the order given
  std::string gate_heading;             // "Gate failed: 1 of 3 --fail-on conditions hold", ...
  std::string verdict_line;             // analysis::verdict_line, after the gate: what every view opens with
  Mark verdict_mark = Mark::neutral;    // its mark, for the views that colour it
  std::string verdict_text;             // the line without its mark, for the views that draw the mark
  VerdictCounts verdict_counts;
  bool queue_backs_up = false;          // GPU work outlives its step on a side (a note says where)
  ChartRows charts;                     // what the HTML report's charts draw
  Embedded embedded;                    // what the HTML report embeds of its long lists
  StepChange step_change;               // default mode: why the step moved
  // Memory per device (default mode), when either side's traces have [memory] events;
  // the headline then has "Peak memory allocated" / "reserved" (GPU, with totals).
  std::vector<MemoryDevice> memory;
  // The (device, figure) pairs of `memory` the terminal and the Markdown show, in order.
  std::vector<std::pair<std::size_t, std::size_t>> memory_shown;
  CallTree call_tree;                   // default mode only
  // --perfetto / --embed-perfetto: each side's median step as it ran (analysis/perfetto);
  // the page embeds it, with its button, only when embed_step_trace.
  std::shared_ptr<const StepTrace> step_trace;
  bool embed_step_trace = false;

  // by_impact when it is a permutation of the rows (a report built by hand in a test
  // may leave it empty), else row order.
  std::vector<std::size_t> impact_order() const;
};

}  // namespace tracediff::model
