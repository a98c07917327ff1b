#pragma once
// The state of one file's summarising pass (summarize_file), shared by the files of
// summarize/: what each name is, key ids, call paths, step windows, and the nesting of
// host events. Internal to analysis/summarize/; everything here runs per event, so the
// small lookups stay inline.
#include <algorithm>
#include <map>
#include <memory_resource>
#include <unordered_map>
#include <vector>

#include "analysis/summarize/step_assignment.hpp"
#include "analysis/summarize/summarize.hpp"
#include "analysis/summarize/timeline.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"
#include "util/errors.hpp"

namespace tracediff::analysis::detail {

using model::Kind;

inline bool is_comm_kernel(std::string_view name) {
  // NCCL/RCCL/HCCL collectives run as kernels named after the library.
  for (std::string_view lib : {"nccl", "rccl", "hccl", "NCCL", "RCCL", "HCCL"})
    if (name.find(lib) != std::string_view::npos) return true;
  return false;
}

// torch.compile: its regions (PyTorch 2.1+), its autograd function (2.0), Triton kernels.
inline bool is_compiled(std::string_view name) {
  return name.starts_with("Torch-Compiled Region") || name.starts_with("CompiledFunction") ||
         name.starts_with("triton_");
}

inline bool is_host(Kind k) { return model::device_of(k) == model::Device::cpu; }

// What summarize_file asks of each distinct name, computed once per pool id.
class NameFacts {
 public:
  explicit NameFacts(const model::StringPool& pool) : m_pool(pool), m_facts(pool.size(), 0) {}
  bool step_span(std::uint32_t id) { return facts(id) & k_step; }
  // A step span of either kind: ProfilerStep (a user_annotation, or a cpu_op before
  // PyTorch 1.9; `gpu`: its GPU-side copy too), or a --step-marker match when the
  // matches are spans (also a python_function).
  bool step_span(const model::Event& e, bool gpu = false) {
    if (m_marker_spans && m_marker_spans[e.name] &&
        (detail::marker_kind(e.kind) || (gpu && e.kind == Kind::gpu_user_annotation)))
      return true;
    return (e.kind == Kind::cpu_op || e.kind == Kind::user_annotation || (gpu && e.kind == Kind::gpu_user_annotation)) &&
           step_span(e.name);
  }
  void set_marker_spans(const std::vector<std::uint8_t>& per_name) {
    m_marker_spans = per_name.empty() ? nullptr : per_name.data();
  }
  bool comm_kernel(std::uint32_t id) { return facts(id) & k_comm; }
  bool graph_launch(std::uint32_t id) { return facts(id) & k_graph; }
  bool compiled(std::uint32_t id) { return facts(id) & k_compiled; }
  bool module(std::uint32_t id) { return facts(id) & k_module; }
  // The profiler's own Python frames (torch.profiler's step, start and stop, with
  // with_stack=True): they and what runs inside them are its work, not the program's.
  bool profiler(std::uint32_t id) { return facts(id) & k_profiler; }
  // The timeline's class of a kernel, and whether a runtime call or a GPU copy blocks
  // the host (timeline.hpp), once per name.
  detail::WorkClass work_class(const model::Event& e) {
    if (e.kind != Kind::kernel) return detail::WorkClass::mem;
    auto& m = more(e.name);
    if (!(m & k_class_known)) m |= k_class_known | static_cast<std::uint8_t>(detail::kernel_class(m_pool.get(e.name)));
    return static_cast<detail::WorkClass>(m & k_class_mask);
  }
  bool blocks_host(const model::Event& e) {
    if (e.kind != Kind::runtime && e.kind != Kind::gpu_memcpy) return false;
    auto& m = more(e.name);
    if (!(m & k_block_known)) {
      const auto name = m_pool.get(e.name);
      const bool blocks = e.kind == Kind::runtime ? detail::host_sync_call(name)
                                                  : name.find("Pageable") != std::string_view::npos;  // either direction blocks
      m |= k_block_known | (blocks ? k_blocks : 0);
    }
    return m & k_blocks;
  }
  bool device_sync(std::uint32_t id) {
    const auto name = m_pool.get(id);
    return name.find("DeviceSynchronize") != std::string_view::npos;  // cuda, hip, mtia...
  }

 private:
  static constexpr std::uint8_t k_known = 1, k_step = 2, k_comm = 4, k_graph = 8, k_compiled = 16, k_module = 32,
                                k_profiler = 64;
  std::uint8_t facts(std::uint32_t id) {
    auto& f = m_facts[id];
    if (!f) {
      const auto name = m_pool.get(id);
      f = k_known | (detail::profiler_step_number(name) ? k_step : 0) | (is_comm_kernel(name) ? k_comm : 0) |
          (name.find("GraphLaunch") != std::string_view::npos ? k_graph : 0) | (is_compiled(name) ? k_compiled : 0) |
          (name.starts_with("nn.Module: ") ? k_module : 0) |
          (name.find("torch/profiler/profiler.py(") != std::string_view::npos ? k_profiler : 0);
    }
    return f;
  }
  static constexpr std::uint8_t k_class_mask = 15, k_class_known = 16, k_block_known = 32, k_blocks = 64;
  std::uint8_t& more(std::uint32_t id) {
    if (m_more.empty()) m_more.assign(m_pool.size(), 0);
    return m_more[id];
  }
  const model::StringPool& m_pool;
  std::vector<std::uint8_t> m_facts;
  std::vector<std::uint8_t> m_more;  // work class and host blocking, per pool id
  const std::uint8_t* m_marker_spans = nullptr;  // per pool id; null: no marker spans
};

// Dense ids of (category, name, shape) triples (shape: --by-shape only), one per event, computed once: a table by name
// id (a name nearly always has one category) and a map for the rest.
class KeyIds {
 public:
  KeyIds(const model::EventArray& ev, std::size_t pool_size, std::pmr::memory_resource* memory)
      : m_of(ev.size(), memory) {
    constexpr std::uint32_t k_none = ~0u;
    std::pmr::vector<std::uint32_t> by_name(pool_size, k_none, memory);
    std::vector<std::uint64_t> category;  // per id: (shape << 32) | category (--by-shape keys by shape too)
    std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint32_t> more;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      const auto& e = ev[i];
      auto& k = by_name[e.name];
      const std::uint64_t tag = (std::uint64_t{e.shape} << 32) | e.category;
      if (k == k_none || category[k] != tag) {
        const auto next = static_cast<std::uint32_t>(category.size());
        const auto id = k == k_none ? (k = next) : more.try_emplace({tag, e.name}, next).first->second;
        if (id == next) category.push_back(tag);
        m_of[i] = id;
      } else {
        m_of[i] = k;
      }
    }
    m_count = static_cast<std::uint32_t>(category.size());
  }
  std::uint32_t of(std::uint32_t event) const { return m_of[event]; }
  std::uint32_t count() const { return m_count; }

 private:
  std::pmr::vector<std::uint32_t> m_of;
  std::uint32_t m_count = 0;
};

// The call tree's nodes as they are made: (parent node, name's pool id, host or GPU)
// -> node. Paths are told apart by names alone, as the sides are matched. A node
// remembers the first event that made it, whose key it takes. Each parent keeps its
// last two children of each kind at hand: a call makes the same calls each time it
// runs (aten::linear: aten::t, then aten::addmm), and a hash lookup per event would
// cost more than all the rest of the tree.
class Paths {
 public:
  // Disabled (no output shows the tree): every event stays at the top, no node is made.
  explicit Paths(bool enabled = true) : m_enabled(enabled) {}
  bool enabled() const { return m_enabled; }
  std::uint32_t child(std::uint32_t parent, std::uint32_t name, std::uint32_t event, bool gpu) {
    if (!m_enabled) return model::k_tree_top;
    const std::size_t slot = 2 * (parent == model::k_tree_top ? 0 : std::size_t{parent} + 1) + (gpu ? 1 : 0);
    if (slot >= m_recent.size()) m_recent.resize(std::max(slot + 2, 2 * m_recent.size()));
    auto& r = m_recent[slot];
    if (r.name[0] == name) return r.node[0];
    if (r.name[1] == name) {
      std::swap(r.name[0], r.name[1]), std::swap(r.node[0], r.node[1]);
      return r.node[0];
    }
    // Nodes are fewer than events; below 2^31 they leave room for the kind bit and k_inherited.
    const std::uint64_t up = parent == model::k_tree_top ? 0x7FFFFFFFu : parent;
    const auto [it, fresh] = m_index.try_emplace((((up << 1) | (gpu ? 1 : 0)) << 32) | name,
                                                 static_cast<std::uint32_t>(m_parent.size()));
    if (fresh) {
      if (m_parent.size() >= 0x7FFFFFFFu) throw Fatal("more than 2^31 call paths in one file");
      m_parent.push_back(parent);
      m_event.push_back(event);
    }
    r.name[1] = r.name[0], r.node[1] = r.node[0];
    r.name[0] = name, r.node[0] = it->second;
    return it->second;
  }
  std::size_t size() const { return m_parent.size(); }
  std::uint32_t parent(std::uint32_t node) const { return m_parent[node]; }
  std::uint32_t event(std::uint32_t node) const { return m_event[node]; }

 private:
  struct Recent {
    std::uint32_t name[2] = {~0u, ~0u}, node[2] = {0, 0};
  };
  bool m_enabled;
  std::vector<Recent> m_recent;  // per (parent, kind)
  std::unordered_map<std::uint64_t, std::uint32_t> m_index;
  std::vector<std::uint32_t> m_parent, m_event;
};

// --by-shape: call paths tell an operator's shapes apart. A (name, shape) pair gets an
// id past the pool's, for Paths (which takes any 32-bit id for a name).
class ShapedNames {
 public:
  explicit ShapedNames(std::size_t pool_size) : m_next(static_cast<std::uint32_t>(pool_size)) {}
  std::uint32_t id(const model::Event& e) {
    const auto [it, fresh] = m_ids.try_emplace((std::uint64_t{e.shape} << 32) | e.name, m_next);
    if (fresh) ++m_next;
    return it->second;
  }

 private:
  std::uint32_t m_next;
  std::unordered_map<std::uint64_t, std::uint32_t> m_ids;
};

struct Nesting {
  std::pmr::vector<std::int64_t> self_ns;    // per host event; 0 for the others (their self time is their dur)
  // (event, inclusive time) of the events an open event of their key encloses (what
  // sticks out of it), by event; every other event's inclusive time is its dur. Few
  // events nest in their own name, so this is kept apart rather than per event.
  std::vector<std::pair<std::uint32_t, std::int64_t>> incl_less;
  std::pmr::vector<std::uint32_t> launcher;  // per runtime event: the event of its launcher (LauncherLevel), or ~0
  std::pmr::vector<std::uint32_t> node;      // per host event: its call-tree node (k_tree_top: none),
                                             // | k_inherited when it is the node of the event around it
  // Per host event: the profiler's own work, left out of rows and the tree (docs/reading-the-report.md):
  // its Python frames and what runs inside them, and the
  // device synchronisation that stops it (the host event that starts last, a
  // *DeviceSynchronize inside no other event on its thread).
  std::pmr::vector<std::uint8_t> profiler;  // 0, or one of the two below
  // (event, time inside it that its thread waited for the GPU), for the host events with
  // some, by event (docs/reading-the-report.md "The host waiting for the GPU").
  std::vector<std::pair<std::uint32_t, std::int64_t>> wait_in;
  // The waits on the threads that run operators: their union, in order.
  std::vector<std::pair<std::int64_t, std::int64_t>> waits;
  // Per memory event (model::TraceFile::memory): the innermost CPU operator open on its
  // thread when it happened (an event; ~0u: none). At one time, an operator that starts
  // then is open: an operator's allocations come at its start.
  std::vector<std::uint32_t> mem_owner;
  // The device allocations (memory_events.hpp: device_allocation) made inside each host event,
  // its own included, for the events with some, by event.
  struct Allocated {
    std::uint32_t event;
    std::int64_t bytes;
    std::uint64_t count;
  };
  std::vector<Allocated> allocated_in;
};
inline constexpr std::uint8_t k_profiler_outer = 1, k_profiler_inside = 2;  // Nesting::profiler
inline constexpr std::uint32_t k_inherited = 1u << 31;  // node ids stay below: fewer nodes than events

// Where each host event falls: the index of its step (or -1) and that step's window.
struct StepWindows {
  std::pmr::vector<std::int32_t> step_at;  // per event: its step index, -1 outside every step
  std::vector<std::int64_t> begin, end;    // per step index
  std::vector<std::int64_t> host_busy;     // per step index, filled by nest()
  std::vector<std::int64_t> host_wait;     // per step index, filled by nest(): part of host_busy
  std::int64_t op_threads = 0;             // threads that run operators (nest())
};

// Sorts a range made of a few ascending runs (Kineto writes a thread's events nearly
// in order): the runs are merged pairwise, ping-ponging with `scratch`, which takes
// O(n log runs) instead of a sort's O(n log n).
template <typename T, typename Less, typename Vector>
void merge_runs(T* first, T* last, Less less, Vector& scratch) {
  const auto n = static_cast<std::size_t>(last - first);
  std::vector<std::size_t> bounds{0};  // where each run starts, then n
  for (std::size_t i = 1; i < n; ++i)
    if (less(first[i], first[i - 1])) bounds.push_back(i);
  bounds.push_back(n);
  if (bounds.size() <= 2) return;
  scratch.resize(n);
  T* from = first;
  T* to = scratch.data();
  while (bounds.size() > 2) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i + 1 < bounds.size(); i += 2) {
      if (i + 2 < bounds.size())
        std::merge(from + bounds[i], from + bounds[i + 1], from + bounds[i + 1], from + bounds[i + 2], to + bounds[i], less);
      else
        std::copy(from + bounds[i], from + bounds[i + 1], to + bounds[i]);  // the odd run out
      bounds[kept++] = bounds[i];
    }
    bounds[kept++] = n;
    bounds.resize(kept);
    std::swap(from, to);
  }
  if (from != first) std::copy(from, from + n, first);
}

// The host events that block until the GPU has done the work queued before it
// (nesting.cpp): a flag per event, and for a blocking copy how much of the call is the
// wait (the call less its copy's own time; a synchronisation waits all its length).
struct WaitingCalls {
  std::pmr::vector<std::uint8_t> flag;
  std::vector<std::pair<std::uint32_t, std::int64_t>> copy_wait;  // (event, wait), by event
  std::int64_t wait_of(std::uint32_t i, std::int64_t dur) const {
    const auto it = std::lower_bound(copy_wait.begin(), copy_wait.end(), std::pair<std::uint32_t, std::int64_t>{i, INT64_MIN});
    return it != copy_wait.end() && it->first == i ? it->second : dur;
  }
};
WaitingCalls waiting_calls(const model::TraceFile& f, const LaunchIndex& launch_of, std::pmr::memory_resource* memory);
// Self and inclusive time, launchers, host busy and waits per step, call-tree nodes:
// one pass over each thread's host events (nesting.cpp).
Nesting nest(const model::TraceFile& f, NameFacts& names, const KeyIds& keys, StepWindows& windows, Paths& paths,
             LauncherLevel level, ShapedNames& shaped, std::uint32_t stop_sync, const WaitingCalls& waiting,
             std::pmr::memory_resource* memory);

// GPU busy, its parts and idle by cause per step, the work that spills past a step,
// and the number of GPUs with work (gpu_busy.cpp). Sorts `gpu` and `syncs`.
void gpu_busy(std::pmr::vector<GpuInterval>& gpu, const model::TraceFile& f, const LaunchIndex& launch_of,
              std::vector<HostSync>& syncs, const StepWindows& windows, model::FileSummary& s,
              std::pmr::memory_resource* memory);

}  // namespace tracediff::analysis::detail
