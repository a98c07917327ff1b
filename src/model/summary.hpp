#pragma once
// What the default comparison needs of one trace file, aggregated per step: built
// once from the events (analysis::summarize_file), after which the events can go.
// It is also what `tracediff summarize` stores, so comparing summaries gives the
// same report as comparing the traces.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/event_accounting.hpp"
#include "model/input_diagnostics.hpp"
#include "model/critical_path.hpp"
#include "model/memory_report.hpp"
#include "model/name.hpp"
#include "model/step_detail.hpp"
#include "model/trace.hpp"

namespace tracediff::model {

// Version of the *.tdsum.json layout; bump on any incompatible change.
// 2: inclusive time as the union of a name's nested occurrences; GPU busy within the
// step window, spill and host busy; CUDA versions, graphs and compiled regions.
// 3: the call tree (tree, tree_cells).
// 4: GPU work without a recorded launch kept in its step's rows (a 13th step figure,
// unlaunched_ns; launchers "(launch not recorded) stream S").
// 5: the step's timeline split (model::k_step_fields: GPU parts, idle by cause, exposed
// communication by collective, host waiting and idle; a cell's wait, its sixth figure).
// 6: compact: one table of strings for the set, columns of integers, durations in a
// unit per file, and figures written only where they differ from a prediction
// (model/summary_format.hpp). Same content as 5.
// Older files are refused: they would compare unlike their traces.
constexpr int k_summary_schema_version = 6;

// The launcher of GPU work whose launch the trace lacks, per stream: "(launch not
// recorded) stream 7" (a tid of "7" or "stream 7").
constexpr std::string_view k_unrecorded_launcher = "(launch not recorded)";
inline std::string unrecorded_launcher(std::string_view stream) {
  std::string out(k_unrecorded_launcher);
  return out.append(stream.starts_with("stream ") ? " " : " stream ").append(stream);
}

constexpr std::int64_t k_whole_trace_step = -1;  // the one pseudo-step of a file without steps

// Its names are interned (model::Name): a side's ranks share one copy of each.
struct SummaryKey {
  // A constructor, so that keys made with three fields (most) need no fourth.
  SummaryKey() = default;
  SummaryKey(std::string_view category_, std::string_view name_, Kind kind_, std::string_view shape_ = {})
      : category(category_), name(name_), kind(kind_), shape(shape_) {}
  SummaryKey(Name category_, Name name_, Kind kind_, Name shape_ = {})
      : category(category_), name(name_), kind(kind_), shape(shape_) {}
  Name category;  // normalised
  Name name;
  Kind kind = Kind::other_host;
  // --by-shape: a cpu_op's input dims and types, "[[64,1024],[1024,4096]] (float,float)";
  // empty without (JSON: written only when set).
  Name shape;
};

// A key's name as --by-shape shows and matches it: "aten::mm [[64,1024],[1024,4096]] (float,float)".
inline std::string shaped_name(std::string_view name, std::string_view shape) {
  std::string out(name);
  if (!shape.empty()) out.append(" ").append(shape);
  return out;
}

// One (key, step)'s allocations (docs/reading-the-report.md "Memory per operator"): kept
// apart from Cell, only for keys that allocated. Allocations on a device, the host's own
// memory left out.
struct MemoryCell {
  std::uint32_t key = 0;   // index into FileSummary::keys
  std::uint32_t step = 0;  // index into FileSummary::steps
  std::int64_t self_bytes = 0;  // made while it was the innermost CPU operator on its thread
  std::uint64_t self_count = 0;
  std::int64_t bytes = 0;       // inclusive: in it or in anything inside it (outermost calls of the key)
  std::uint64_t count = 0;
  std::int64_t held_bytes = 0;  // of self_bytes, not freed by the end of the step (matched by Addr)
};

// One (key, step)'s Inductor figures (model::KernelWork): the operations and bytes of
// the kernels that carry them, and those kernels' time, apart for each figure (Inductor
// gives kernel_num_gb for every kernel it writes, kernel_flop for some).
struct WorkCell {
  std::uint32_t key = 0;   // index into FileSummary::keys
  std::uint32_t step = 0;  // index into FileSummary::steps
  std::int64_t flop = 0, flop_ns = 0;
  std::int64_t bytes = 0, bytes_ns = 0;
};

// One (call-tree node, step)'s device allocations charged to its operator (self, as
// MemoryCell::self_bytes): kept apart from TreeCell, only for nodes that allocated.
struct TreeMemoryCell {
  std::uint32_t node = 0;  // index into FileSummary::tree
  std::uint32_t step = 0;
  std::int64_t bytes = 0;
};

struct StepSummary {
  std::int64_t step = k_whole_trace_step;
  StepDetail detail;  // rank and step left 0; dur_ns is the step span
  StepPath path;      // what bounded the step (model/critical_path.hpp); traces only
};

// One (key, step) aggregate.
struct Cell {
  std::uint32_t key = 0;   // index into FileSummary::keys
  std::uint32_t step = 0;  // index into FileSummary::steps
  std::uint64_t count = 0;
  std::int64_t total_ns = 0;  // inclusive: an occurrence nested in one of the same key adds nothing
  std::int64_t self_ns = 0;
  // Host keys: time inside it that its thread waited for the GPU (docs/reading-the-report.md "The host
  // waiting for the GPU"). GPU keys: its time while the host waited.
  std::int64_t wait_ns = 0;
  // Occurrences that start inside an open one of the same key (aten::sum calling
  // aten::sum): calls, but no time of their own; time per call is per outermost call.
  std::uint64_t nested = 0;
};

// GPU time of one key launched by one CPU operator in one step.
struct LaunchCell {
  std::uint32_t launcher = 0;  // index into FileSummary::launchers
  std::uint32_t key = 0;
  std::uint32_t step = 0;
  std::int64_t total_ns = 0;
};

// One call path of a file: a host event under the path of the host events around it
// on its thread (ProfilerStep spans left out: a step is the root), or a piece of GPU
// work under the path of the runtime call that launched it.
constexpr std::uint32_t k_tree_top = ~0u;    // TreeNode::parent of a top-level node
// TreeNode::key of the nodes that fold the smallest subtrees of their parent (the
// node budget): its host calls, "(other)", and its GPU work, "(other GPU work)".
constexpr std::uint32_t k_tree_other = ~0u;
constexpr std::uint32_t k_tree_other_gpu = ~0u - 1;
// Paths end at this depth: deeper calls (a recursion thousands deep) are part of the
// node at this depth, so that the tree, nested in JSON, stays readable by parsers
// with a recursion limit (Python's is 1,000).
constexpr std::uint32_t k_tree_depth = 200;
struct TreeNode {
  std::uint32_t parent = k_tree_top;  // index into FileSummary::tree, always below this node's
  std::uint32_t key = 0;              // index into FileSummary::keys, or k_tree_other
};

// One (node, step) aggregate: calls, inclusive and self time at that path. A host
// node's time is host time; a GPU node's is GPU time (inclusive = self).
struct TreeCell {
  std::uint32_t node = 0;
  std::uint32_t step = 0;
  std::uint64_t count = 0;
  std::int64_t total_ns = 0;
  std::int64_t self_ns = 0;
};

// What the cross-rank match of collectives needs of one file (analysis/summarize/collectives.hpp):
// each step's communication kernels in launch order, by collective. A collective is
// matched across ranks by (key, seq): with an NCCL sequence number its process
// group's key and that number, in any step; without one its kind and stream and its
// order among the key's calls within the step (ProfilerStep#N on every rank).
struct CollectiveKey {
  std::string name;     // "all_reduce pg 0" (by_seq) or "all_reduce stream 20"
  bool by_seq = false;  // seq is the NCCL sequence number, not the order within the step
};
struct CollectiveCall {
  std::uint32_t step = 0;  // index into FileSummary::steps
  std::uint32_t key = 0;   // index into FileSummary::collective_keys
  std::int64_t seq = 0;
  std::int64_t dur_ns = 0;  // its kernels' time (a collective of several kernels: their sum)
};
// Calls kept per step at most: a summary stays small; past it, a note says so.
constexpr std::size_t k_collectives_per_step = 4096;

// How --step-marker's matches made a file's steps (analysis/summarize/step_assignment.cpp).
enum class StepMarkerShape : std::uint8_t {
  none,     // not from a marker: ProfilerStep spans, or the whole trace
  spans,    // each match a step
  markers,  // a step from the start of one match to the start of the next
};

// The rows of a summary's files, decoded again when a comparison reaches each file
// (reading/summary_reader.cpp): a side of 1,000 ranks holds its files' headers and the
// summary's bytes, not every rank's rows at once (docs/summaries.md "Reading a summary").
struct FileSummary;
struct SetSummary;
class DeferredRows {
 public:
  virtual ~DeferredRows() = default;
  // The file `header` stands for (its deferred_index), whole, as the summary reader makes
  // it; an error where it is not the file of that header any more.
  virtual FileSummary file(const FileSummary& header) const = 0;
};

struct FileSummary {
  std::string path;
  int rank = 0;
  RankSource rank_source = RankSource::fallback;
  // Which run of its side the file belongs to (SetSummary::runs); not written to a
  // summary file: a summary is one run, and given as a run, all its files are that run.
  std::uint32_t run = 0;
  std::optional<int> world_size;
  std::vector<std::string> gpu_names;
  std::optional<std::int64_t> cuda_runtime_version, cuda_driver_version;
  bool cuda_graphs = false;  // a graph launch (cudaGraphLaunch, hipGraphLaunch) in the file
  bool compiled = false;     // torch.compile regions or Triton kernels in the file
  int gpus_with_work = 0;    // devices with kernels, memcpy or memset: GPU idle is against them
  std::uint64_t events = 0;
  std::uint64_t json_bytes = 0;
  bool truncated = false;
  bool has_steps = false;  // false: one pseudo-step covering the whole file
  // The --launcher level that attributed launches (innermost, outermost, module); empty
  // in a summary written before tracediff recorded it.
  std::string launcher_level;
  // --by-shape: keys, call paths and launchers keep input shapes (SummaryKey::shape).
  // Read from "by_shape"; a summary written before tracediff recorded it has it when it
  // lists shapes (one made with --by-shape of traces without shapes reads as without).
  bool by_shape = false;
  // Set when a --step-marker made the steps: its pattern, shape and outermost matches.
  // Optional in the summary file (schema 3 files without it read as none).
  std::string step_marker;
  StepMarkerShape step_marker_shape = StepMarkerShape::none;
  std::uint64_t step_marker_matches = 0;
  // Without steps: a --step-marker pattern that would give the file steps (a name that
  // repeats once an iteration), its name and repeats; empty: none. Optional in a summary.
  std::string marker_hint, marker_hint_name;
  std::uint64_t marker_hint_count = 0;
  std::vector<SummaryKey> keys;
  std::vector<std::string> launchers;
  // --by-shape: the input shapes of each launcher (a SummaryKey::shape, "" for none);
  // empty when no launcher has one.
  std::vector<std::string> launcher_shapes;
  std::vector<std::uint32_t> graph_launchers;  // launchers (ascending) that replayed CUDA/HIP graphs
  std::vector<StepSummary> steps;
  std::vector<Cell> cells;
  std::vector<LaunchCell> launches;
  std::vector<TreeNode> tree;        // parents before children
  std::vector<TreeCell> tree_cells;  // sorted by (node, step)
  std::uint64_t tree_folded = 0;     // nodes folded into "(other)" nodes by the node budget
  std::vector<CollectiveKey> collective_keys;
  std::vector<CollectiveCall> collectives;  // sorted by (step, launch order)
  // Each device's memory in each step (MemoryStep::step indexes steps), by (device_type,
  // device_id, step): every step of a device the file has [memory] events of; empty
  // without any (a summary that lacks them reads as empty: "no memory recorded").
  std::vector<MemoryStep> memory;
  std::vector<MemoryCell> memory_cells;  // sorted by (key, step); empty without allocations
  std::vector<TreeMemoryCell> tree_memory;  // sorted by (node, step); empty without allocations
  std::vector<WorkCell> work_cells;  // sorted by (key, step); empty without Inductor's figures
  // What bounded each step (model/critical_path.hpp), from traces only: a summary file
  // does not carry it (StepPath::recorded false).
  std::vector<PathCell> path_cells;      // sorted by (key, step)
  std::vector<WhatIf> what_ifs;          // the rows' (the step's longest on the path) and those asked
  std::vector<WhatIfCell> what_if_cells; // sorted by (what, step)
  std::optional<MemoryTimeline> memory_timeline;  // with memory events on a device in a step
  Diagnostics diagnostics;  // the file's own, plus events outside steps and unlinked GPU work
  Accounting accounting;    // every event: read, in rows, left out by reason (before warm-up and selection)
  // Host keys (ascending) all of whose events ran on threads that launch no GPU work (a
  // telemetry thread, a progress bar's monitor): no cause of the GPU's idle time. Empty in
  // a file without GPU launches, and in a summary written before tracediff kept it.
  std::vector<std::uint32_t> off_launch_keys;
  // Set when the rows (cells, tree cells, memory, work, path and what-if cells) were left
  // in the summary: `deferred->file(*this)` gives them (model::WithRows), and
  // deferred_ns is what their durations add up to (bound_durations' check).
  std::shared_ptr<const DeferredRows> deferred;
  std::uint32_t deferred_index = 0;
  std::uint64_t deferred_ns = 0;
};

// A file with its rows: the file itself, or, when they were deferred, the file decoded
// again, held while this lives (one file at a time, in the passes that read rows).
class WithRows {
 public:
  explicit WithRows(const FileSummary& f);
  WithRows(const WithRows&) = delete;  // it may point into itself
  WithRows& operator=(const WithRows&) = delete;
  const FileSummary& operator*() const { return *m_file; }
  const FileSummary* operator->() const { return m_file; }

 private:
  std::optional<FileSummary> m_own;
  const FileSummary* m_file;
};

// The rows that a summary read part by part leaves in it (the heavy ones), dropped
// from `file` and their durations added up.
void defer_rows(FileSummary& file, std::shared_ptr<const DeferredRows> source, std::uint32_t index);
// Every file's rows in memory again (a side whose durations need bounding).
void undefer_rows(SetSummary& set);
// A file's durations as bound_durations adds them up (saturating): steps, cells,
// launches and tree cells, the deferred ones included.
std::uint64_t duration_total(const FileSummary& file);

struct SetSummary {
  std::string label;
  std::vector<std::string> inputs;
  // Each run of the side (--control-run, --test-run, --runs): its inputs, joined;
  // FileSummary::run indexes it. Empty or one: the side is one run.
  std::vector<std::string> runs;
  std::vector<FileSummary> files;  // sorted by (rank, path)
  Diagnostics diagnostics;         // set-level: skipped files, duplicate ranks
};

// Gives back what the file's tables reserved beyond their size: a set keeps every
// file's summary until the comparison ends (2,000 files: the slack of doubling
// vectors was a third of the memory).
void shrink_to_fit(FileSummary& file);

// The one rule for durations, applied wherever a set of summaries is made (traces
// summarised for a comparison or for `tracediff summarize`, a summary read, summaries
// merged): the durations of a set (step figures, cell totals and self times, launch
// totals) add up to at most 2^61 ns (73 years); past that, in file order, each is
// clamped to what is left, and the file counts `summary_durations_clamped`. Sums,
// differences and means of both sides then fit in int64. No real trace comes near;
// a hostile one (thousands of 78-hour events) compares with clamped figures instead
// of overflowing, and its summary reads back as it was written.
void bound_durations(SetSummary& set);
// The same, a file at a time in the set's order (`total`: the durations before it).
void bound_durations(FileSummary& file, std::uint64_t& total);
constexpr std::uint64_t k_max_durations = std::uint64_t{1} << 61;

}  // namespace tracediff::model
