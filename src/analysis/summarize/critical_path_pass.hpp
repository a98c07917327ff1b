#pragma once
// One file's critical-path pass (critical_path.cpp): what every step's graph shares (the
// file's events by step, what each name is, the loader's spans, HTA's queue lengths), the
// arrays a step needs, and the pass's parts, each in its file: building a step's edges
// (critical_path_edges.cpp), its path's rows (critical_path.cpp), its what-ifs
// (critical_path_what_if.cpp). Internal to analysis/summarize/.
#include <cstdint>
#include <functional>
#include <memory_resource>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/summarize/critical_path.hpp"
#include "analysis/summarize/critical_path_graph.hpp"
#include "analysis/summarize/file_pass.hpp"
#include "util/scratch_buffer.hpp"

namespace tracediff::analysis::detail::cp {

// What the pass asks of each name, once (HTA's blocking and lock calls, its sync events,
// the data loader, the autograd engine's backward operators).
enum : std::uint8_t {
  k_known = 1,
  k_hta_blocking = 2,
  k_context_sync = 4,
  k_stream_sync = 8,
  k_loader = 16,
  k_lock = 32,
  k_engine = 64,
};

// HTA's queue length on each stream (TraceCounters): +1 at each launch, -1 at each start
// of the work launched; per GPU event, the length after its launch and after its start.
struct Queues {
  std::vector<std::pair<std::uint32_t, std::int32_t>> at_launch, at_start;  // (event, length), by event
  static std::int32_t of(const std::vector<std::pair<std::uint32_t, std::int32_t>>& v, std::uint32_t e);
};
Queues queue_lengths(const model::TraceFile& f, const LaunchIndex& launch_of);

// A host span that is no operator but makes the operators inside it data loading (PyTorch's
// "enumerate(DataLoader)#…" record_function, a Python frame).
struct LoaderSpan {
  std::int32_t step;
  std::uint64_t thread;
  std::int64_t begin, end;
  auto operator<=>(const LoaderSpan&) const = default;
};

// A row with its own work on a step's path: its key, its time there, one of its events
// (its name, category and shape: what its what-if shortens).
struct OnPath {
  std::uint32_t key;
  std::int64_t ns;
  std::uint32_t event;
};

class Pass {
 public:
  Pass(const model::TraceFile& f, const LaunchIndex& launch_of, const StepWindows& windows, const WaitingCalls& waiting,
       const std::pmr::vector<std::uint8_t>& profiler, NameFacts& names, const CriticalPathOptions& options);
  // Every step's path into the summary.
  void run(const std::function<std::uint32_t(std::uint32_t)>& key_of, const std::function<bool(std::uint32_t)>& in_rows,
           model::FileSummary& s);

 private:
  std::uint8_t fact(std::uint32_t name);
  std::int32_t graph_step(std::uint32_t event) const;  // the step whose graph takes the event, or -1
  const model::Event& event_of(std::uint32_t slot) const { return m_ev[g.event[slot]]; }
  static std::uint64_t thread(const model::Event& e) { return (std::uint64_t{e.pid} << 32) | e.tid; }
  // critical_path_edges.cpp: the step's graph (its slots made).
  void build_edges(std::size_t step);
  void lock_edges();
  void host_edges(std::size_t step);
  void gpu_edges();
  // critical_path_what_if.cpp: the asked what-ifs and the step's rows' (`rows`), as cells.
  void what_ifs(std::size_t step, std::int64_t length, const std::vector<OnPath>& rows, model::FileSummary& s);

  const model::TraceFile& m_file;
  const model::EventArray& m_ev;
  const LaunchIndex& m_launch_of;
  const StepWindows& m_windows;
  const WaitingCalls& m_waiting;
  const std::pmr::vector<std::uint8_t>& m_profiler;
  NameFacts& m_names;
  const CriticalPathOptions& m_options;
  const bool m_hta;

  std::vector<std::uint8_t> m_facts;  // per name: fact()'s bits
  std::vector<bool> m_launches;       // per event: a runtime call that launched GPU work (tracediff's model)
  std::vector<std::uint32_t> m_count;     // per step: where its events start in m_by_step (counting sort), then the end
  std::size_t m_largest;                  // the largest step's events
  std::vector<std::uint32_t> count_steps();
  std::vector<std::uint64_t> m_step_thread;  // per step: its ProfilerStep's thread, the one backward joins
  std::vector<LoaderSpan> m_loader_spans;    // by (step, thread, begin)
  Queues m_queues;                           // HTA's model only

  // The step's graph and the arrays a step needs, in one block reserved for the largest.
  ScratchBuffer m_scratch;
  std::pmr::monotonic_buffer_resource m_block;
  std::pmr::vector<std::uint32_t> m_by_step;  // the graphs' events, by step, each step's in file order
  Graph g;
  std::pmr::vector<std::uint32_t> m_host, m_gpu, m_pred, m_stack, m_lanes, m_lane_mask, m_seen_at;
  std::pmr::vector<std::uint32_t> m_grouped, m_thread_of, m_slot_mask;
  std::pmr::vector<std::int64_t> m_dist, m_work;
  std::pmr::vector<std::pair<std::int64_t, std::uint32_t>> m_ends, m_gpu_order;
  std::vector<std::uint64_t> m_engine, m_chain;  // the autograd engine's threads; per slot, the chain it joins
  std::vector<std::pair<std::uint64_t, std::uint32_t>> m_threads;  // (thread, its slots)
  std::vector<std::int8_t> m_name_is;
  std::vector<double> m_factors;
  std::vector<std::int64_t> m_shorter;
  std::unordered_map<std::uint32_t, std::uint32_t> m_what_index;  // key -> index into s.what_ifs (rows' what-ifs)
};

}  // namespace tracediff::analysis::detail::cp
