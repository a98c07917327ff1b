#include "analysis/summarize/summarize.hpp"

#include <algorithm>
#include <compare>
#include <map>
#include <memory_resource>
#include <set>
#include <tuple>
#include <unordered_map>

#include "analysis/compare/aggregate.hpp"
#include "analysis/call_tree/call_tree.hpp"
#include "analysis/summarize/collectives.hpp"
#include "analysis/summarize/steps.hpp"
#include "analysis/summarize/timeline.hpp"
#include "util/arena.hpp"
#include "util/errors.hpp"

namespace tracediff::analysis {

using model::Kind;
using detail::GpuInterval;

namespace {

bool is_comm_kernel(std::string_view name) {
  // NCCL/RCCL/HCCL collectives run as kernels named after the library.
  for (std::string_view lib : {"nccl", "rccl", "hccl", "NCCL", "RCCL", "HCCL"})
    if (name.find(lib) != std::string_view::npos) return true;
  return false;
}

// torch.compile: its regions (PyTorch 2.1+), its autograd function (2.0), Triton kernels.
bool is_compiled(std::string_view name) {
  return name.starts_with("Torch-Compiled Region") || name.starts_with("CompiledFunction") ||
         name.starts_with("triton_");
}

bool is_host(Kind k) { return model::device_of(k) == model::Device::cpu; }

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
                                                  : name.find("-> Pageable") != std::string_view::npos;
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
  std::uint32_t child(std::uint32_t parent, std::uint32_t name, std::uint32_t event, bool gpu) {
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
  std::pmr::vector<std::int64_t> self_ns;    // per event; GPU and other device events keep dur
  // (event, inclusive time) of the events an open event of their key encloses (what
  // sticks out of it), by event; every other event's inclusive time is its dur. Few
  // events nest in their own name, so this is kept apart rather than per event.
  std::vector<std::pair<std::uint32_t, std::int64_t>> incl_less;
  std::pmr::vector<std::uint32_t> launcher;  // per runtime event: the event of its launcher (LauncherLevel), or ~0
  std::pmr::vector<std::uint32_t> node;      // per host event: its call-tree node (k_tree_top: none),
                                             // | k_inherited when it is the node of the event around it
  // Per host event: the profiler's own work, left out of rows and the tree (README
  // "The profiler's own work"): its Python frames and what runs inside them, and the
  // device synchronisation that stops it (the host event that starts last, a
  // *DeviceSynchronize inside no other event on its thread).
  std::pmr::vector<std::uint8_t> profiler;  // 0, or one of the two below
  // (event, time inside it that its thread waited for the GPU), for the host events with
  // some, by event (README "The host waiting for the GPU").
  std::vector<std::pair<std::uint32_t, std::int64_t>> wait_in;
  // The waits on the threads that run operators: their union, in order.
  std::vector<std::pair<std::int64_t, std::int64_t>> waits;
};
constexpr std::uint8_t k_profiler_outer = 1, k_profiler_inside = 2;  // Nesting::profiler
constexpr std::uint32_t k_inherited = 1u << 31;  // node ids stay below: fewer nodes than events

// Where each host event falls: the index of its step (or -1) and that step's window.
struct StepWindows {
  std::pmr::vector<std::int32_t> step_at;  // per event: its step index, -1 outside every step
  std::vector<std::int64_t> begin, end;    // per step index
  std::vector<std::int64_t> host_busy;     // per step index, filled by nest()
  std::vector<std::int64_t> host_wait;     // per step index, filled by nest(): part of host_busy
  std::int64_t op_threads = 0;             // threads that run operators (nest())
};

// Per host event: a call that blocks until the GPU has done the work queued before it
// (README "The host waiting for the GPU"): stream, device, event (and context)
// synchronisation, and a copy to the host that blocks: into pageable memory, or by a
// synchronous call (cudaMemcpy). An asynchronous copy into pinned memory does not block.
std::pmr::vector<std::uint8_t> waiting_calls(const model::TraceFile& f, const detail::LaunchIndex& launch_of,
                                             std::pmr::memory_resource* memory) {
  const auto& ev = f.events;
  std::pmr::vector<std::uint8_t> out(ev.size(), 0, memory);
  std::vector<std::int8_t> sync(f.pool.size(), -1);  // per name: a synchronisation call
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    if (e.kind == Kind::runtime) {
      auto& k = sync[e.name];
      if (k < 0) k = f.pool.get(e.name).find("Synchronize") != std::string_view::npos;
      out[i] |= static_cast<std::uint8_t>(k);
    } else if (e.kind == Kind::gpu_memcpy && e.correlation >= 0) {
      const auto copy = f.pool.get(e.name);
      if (copy.find("DtoH") == std::string_view::npos) continue;
      const auto l = launch_of.find(e.correlation);
      if (l < 0 || ev[static_cast<std::size_t>(l)].kind != Kind::runtime) continue;
      const auto call = f.pool.get(ev[static_cast<std::size_t>(l)].name);
      if (call.find("Memcpy") != std::string_view::npos &&
          (copy.find("Pageable") != std::string_view::npos || call.find("Async") == std::string_view::npos))
        out[static_cast<std::size_t>(l)] = 1;
    }
  }
  return out;
}

// Host event indices grouped by thread ((pid, tid) pool ids), each group in file
// order: a counting sort on a dense thread number, instead of a map lookup per event.
std::pmr::vector<std::uint32_t> by_thread(const model::EventArray& ev, std::vector<std::uint32_t>& group_end,
                                          std::pmr::memory_resource* memory) {
  std::unordered_map<std::uint64_t, std::uint32_t> thread_no;
  std::vector<std::uint32_t> count;
  std::uint64_t last_key = ~0ull;
  std::uint32_t last_no = 0;
  // Runs of events share a thread: the map is asked only when the thread changes.
  const auto number = [&](const model::Event& e) {
    const auto key = (std::uint64_t{e.pid} << 32) | e.tid;
    if (key != last_key) {
      last_no = thread_no.try_emplace(key, static_cast<std::uint32_t>(count.size())).first->second;
      if (last_no == count.size()) count.push_back(0);
      last_key = key;
    }
    return last_no;
  };
  for (const auto& e : ev)
    if (is_host(e.kind)) ++count[number(e)];
  std::vector<std::uint32_t> next(count.size());
  group_end.assign(count.size(), 0);
  std::uint32_t total = 0;
  for (std::size_t t = 0; t < count.size(); ++t) {
    next[t] = total;
    group_end[t] = total += count[t];
  }
  std::pmr::vector<std::uint32_t> order(total, memory);
  for (std::uint32_t i = 0; i < ev.size(); ++i)
    if (is_host(ev[i].kind)) order[next[number(ev[i])]++] = i;
  return order;
}

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

// One pass over each thread's host events in time order, with the stack of the
// events that enclose the current one:
//  - self time: its duration minus the time of the events directly inside it. Each
//    instant is charged to the innermost enclosing event only (a child that outlives
//    its parent spills into the next ancestor), so self times on a thread add up to at
//    most its busy time;
//  - inclusive time as a union: an event nested in an open event of the same key
//    (Python's _call_impl inside _call_impl, recursion) adds only what sticks out;
//  - the launcher of each runtime call: the innermost cpu_op around it;
//  - host busy per step: the union of the thread's events within the step window, on
//    threads that run operators;
//  - the host waiting for the GPU: per step, the union of the waiting calls
//    (waiting_calls) on those threads, outermost only; per event, the wait inside it,
//    from a running count of the thread's waits taken at its push and at its pop;
//  - each event's call-tree node: its name under the node of the event around it.
//    Step spans and events outside every step are no nodes: their children hang where
//    they would. Past k_tree_depth, events are part of the deepest node around them.
// ProfilerStep spans (a cpu_op in PyTorch <= 1.8) enclose a step: no operator, no
// launcher, no busy time of their own.
// Every pass is O(1) amortised per event whatever the shape (overlapping events,
// deep stacks, a name in many categories): each stack entry carries what a walk down
// the stack would find.
Nesting nest(const model::TraceFile& f, NameFacts& names, const KeyIds& keys, StepWindows& windows, Paths& paths,
             LauncherLevel level, ShapedNames& shaped, std::uint32_t stop_sync, const std::pmr::vector<std::uint8_t>& waiting,
             std::pmr::memory_resource* memory) {
  const auto& ev = f.events;
  Nesting n{std::pmr::vector<std::int64_t>(memory), {}, std::pmr::vector<std::uint32_t>(memory),
            std::pmr::vector<std::uint32_t>(memory), std::pmr::vector<std::uint8_t>(memory), {}, {}};
  n.profiler.assign(ev.size(), 0);
  n.self_ns.resize(ev.size());
  n.launcher.assign(ev.size(), ~0u);
  n.node.assign(ev.size(), model::k_tree_top);
  // self_ns starts at the duration; children's time is subtracted as they are met.
  for (std::size_t i = 0; i < ev.size(); ++i) n.self_ns[i] = ev[i].dur_ns;
  std::vector<std::uint32_t> group_end;
  auto order = by_thread(ev, group_end, memory);
  const auto before = [&](std::uint32_t a, std::uint32_t b) {
    if (ev[a].ts_ns != ev[b].ts_ns) return ev[a].ts_ns < ev[b].ts_ns;
    if (ev[a].dur_ns != ev[b].dur_ns) return ev[a].dur_ns > ev[b].dur_ns;
    return a < b;
  };
  const auto step_span = [&](std::uint32_t i) { return names.step_span(ev[i]); };
  // The stack of events open at the current start, with per entry the entry below it
  // of the same key, the latest end among the open entries of its key (itself
  // included), the launcher at or below it by `level` (an event, or k_none: events, so
  // that --by-shape's launchers have their shapes), the
  // innermost annotation or Python frame at or below it (the launcher of a launch
  // without one), and its call-tree node with its depth.
  constexpr std::uint32_t k_none = ~0u;
  struct Open {
    std::uint32_t event;
    std::uint32_t below_same_key;
    std::int64_t key_end;
    std::uint32_t launcher;
    std::uint32_t context;
    std::uint32_t node;
    std::uint32_t depth;  // of node: 0 at the top level
    std::uint32_t op;     // the innermost cpu_op (LauncherLevel::module falls back to it)
    bool profiler;        // the profiler's own work (Nesting::profiler)
    bool in_wait;         // a waiting call at or below it
    std::int64_t waited;  // the thread's wait count when it was pushed
  };
  std::vector<Open> stack;
  std::pmr::vector<std::uint32_t> top_of_key(keys.count(), k_none, memory);  // stack position
  // The entries still owed self time: those whose end is later than every end above
  // them, so ends fall from bottom to top. An entry is charged, then dropped, once.
  struct Owed {
    std::uint32_t event;
    std::int64_t end;
  };
  std::vector<Owed> owed;
  std::pmr::vector<std::uint32_t> scratch(memory);
  std::uint32_t largest = 0;
  for (std::size_t t = 0; t < group_end.size(); ++t)
    largest = std::max(largest, group_end[t] - (t ? group_end[t - 1] : 0));
  scratch.reserve(largest);
  auto& busy = windows.host_busy;
  windows.host_wait.assign(busy.size(), 0);
  std::int64_t waited = 0;  // the current thread's waits so far, outermost ones
  const auto pop = [&] {
    const auto& o = stack.back();
    const auto w = std::min(ev[o.event].dur_ns, waited - o.waited);
    if (w > 0) n.wait_in.push_back({o.event, w});
    top_of_key[keys.of(o.event)] = o.below_same_key;
    stack.pop_back();
  };
  std::uint32_t group_begin = 0;
  for (const auto group_stop : group_end) {
    auto* const first = order.data() + group_begin;
    auto* const last = order.data() + group_stop;
    group_begin = group_stop;
    merge_runs(first, last, before, scratch);  // the order a sort gives: `before` is total
    const bool runs_ops = std::any_of(first, last, [&](std::uint32_t i) { return ev[i].kind == Kind::cpu_op && !step_span(i); });
    windows.op_threads += runs_ops;
    std::int64_t seg_step = -1, seg_begin = 0, seg_end = 0;  // the busy segment being grown
    const auto flush = [&] {
      if (seg_step >= 0) detail::add_sat(busy[static_cast<std::size_t>(seg_step)], seg_end - seg_begin);
    };
    stack.clear();
    owed.clear();
    waited = 0;
    for (const auto* it = first; it != last; ++it) {
      const auto i = *it;
      const auto begin = ev[i].ts_ns, end = begin + ev[i].dur_ns;
      while (!stack.empty() && ev[stack.back().event].ts_ns + ev[stack.back().event].dur_ns <= begin) pop();
      // This event's time is taken from the innermost owed entries it overlaps: an
      // entry that ends within it is owed nothing more (this one now covers that span).
      while (!owed.empty() && owed.back().end <= begin) owed.pop_back();
      std::int64_t t = begin;
      while (!owed.empty() && owed.back().end <= end) {
        n.self_ns[owed.back().event] -= owed.back().end - t;
        t = owed.back().end;
        owed.pop_back();
      }
      if (!owed.empty() && end > t) n.self_ns[owed.back().event] -= end - t;
      owed.push_back({i, end});
      const std::uint32_t outer_launcher = stack.empty() ? k_none : stack.back().launcher;
      const std::uint32_t outer_context = stack.empty() ? k_none : stack.back().context;
      const std::uint32_t outer_op = stack.empty() ? k_none : stack.back().op;
      if (ev[i].kind == Kind::runtime) {
        const auto chosen = outer_launcher != k_none ? outer_launcher : outer_op;
        n.launcher[i] = chosen != k_none ? chosen : outer_context;
      }
      // The latest end among open events of the same key covers the start of this one.
      const std::uint32_t key = keys.of(i);
      const std::uint32_t same = top_of_key[key];
      const std::int64_t covered = same == k_none ? INT64_MIN : stack[same].key_end;
      if (covered > begin) n.incl_less.push_back({i, std::max<std::int64_t>(0, end - covered)});
      top_of_key[key] = static_cast<std::uint32_t>(stack.size());
      const bool op = ev[i].kind == Kind::cpu_op && !step_span(i);
      const bool inside = !stack.empty() && stack.back().profiler;
      const bool profiler = inside || names.profiler(ev[i].name) || (i == stop_sync && stack.empty());
      n.profiler[i] = profiler ? (inside ? k_profiler_inside : k_profiler_outer) : 0;
      std::uint32_t node = stack.empty() ? model::k_tree_top : stack.back().node;
      std::uint32_t depth = stack.empty() ? 0 : stack.back().depth;
      const bool own = windows.step_at[i] >= 0 && !step_span(i) && !profiler && depth < model::k_tree_depth;
      if (own) {
        node = paths.child(node, ev[i].shape == ~0u ? ev[i].name : shaped.id(ev[i]), i, false);
        ++depth;
      }
      n.node[i] = own || node == model::k_tree_top ? node : node | k_inherited;
      std::uint32_t launcher = outer_launcher;
      switch (level) {
        case LauncherLevel::innermost: if (op) launcher = i; break;
        case LauncherLevel::outermost: if (op && launcher == k_none) launcher = i; break;
        case LauncherLevel::module:
          if (ev[i].kind == Kind::python_function && names.module(ev[i].name)) launcher = i;
          break;
      }
      const bool context = (ev[i].kind == Kind::user_annotation || ev[i].kind == Kind::python_function) && !step_span(i);
      const bool outer_wait = !stack.empty() && stack.back().in_wait;
      const bool wait = waiting[i] && !profiler && !outer_wait;  // nested waits are inside this one
      stack.push_back({i, same, std::max(end, covered), launcher, context ? i : outer_context, node, depth,
                       op ? i : outer_op, profiler, wait || outer_wait, waited});
      if (wait) {
        waited += end - begin;
        if (runs_ops) {
          if (!n.waits.empty() && begin <= n.waits.back().second)
            n.waits.back().second = std::max(n.waits.back().second, end);
          else
            n.waits.push_back({begin, end});
          if (const std::int64_t st = windows.step_at[i]; st >= 0) {
            const auto w = static_cast<std::size_t>(st);
            detail::add_sat(windows.host_wait[w], std::max<std::int64_t>(
                0, std::min(end, windows.end[w]) - std::max(begin, windows.begin[w])));
          }
        }
      }
      if (runs_ops && !step_span(i)) {
        const std::int64_t st = windows.step_at[i];
        if (st >= 0) {
          const auto b = std::max(begin, windows.begin[static_cast<std::size_t>(st)]);
          const auto e = std::min(end, windows.end[static_cast<std::size_t>(st)]);
          if (st != seg_step || b > seg_end) {
            flush();
            seg_step = st, seg_begin = b, seg_end = std::max(b, e);
          } else {
            seg_end = std::max(seg_end, e);
          }
        }
      }
    }
    flush();
    while (!stack.empty()) pop();
  }
  for (auto& v : n.self_ns) v = std::max<std::int64_t>(0, v);
  std::sort(n.incl_less.begin(), n.incl_less.end());  // threads were visited one by one
  std::sort(n.wait_in.begin(), n.wait_in.end());
  // The threads' waits as one union, in order.
  std::sort(n.waits.begin(), n.waits.end());
  std::size_t kept = 0;
  for (const auto& w : n.waits) {
    if (kept && w.first <= n.waits[kept - 1].second) n.waits[kept - 1].second = std::max(n.waits[kept - 1].second, w.second);
    else n.waits[kept++] = w;
  }
  n.waits.resize(kept);
  return n;
}

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

// What --step-marker did, kept in the summary (the report's notes say it) or, when
// it defined no step, a warning naming the file.
void note_marker(model::FileSummary& s, const detail::FileSteps& steps, const StepMarker& marker) {
  using detail::MarkerOutcome;
  if (steps.marker_gave_up)
    s.diagnostics.report(model::DiagId::step_marker_gave_up, s.path, 0,
                         marker.option() + " '" + marker.pattern() + "': " + std::to_string(steps.marker_gave_up) +
                             " names taken as not matching: the pattern backtracks too much on them",
                         steps.marker_gave_up);
  if (steps.marker == MarkerOutcome::spans || steps.marker == MarkerOutcome::markers) {
    s.step_marker = marker.pattern();
    s.step_marker_shape =
        steps.marker == MarkerOutcome::spans ? model::StepMarkerShape::spans : model::StepMarkerShape::markers;
    s.step_marker_matches = steps.marker_matches;
    return;
  }
  const std::string fallback = s.has_steps ? "its steps are its ProfilerStep spans" : "it is compared whole";
  s.diagnostics.report(model::DiagId::step_marker_no_step, s.path, 0,
                       steps.marker == MarkerOutcome::no_match
                           ? marker.option() + " '" + marker.pattern() + "' matches no host event; " + fallback
                           : marker.option() + " '" + marker.pattern() + "' matches " +
                                 std::to_string(steps.marker_matches) + " host event" +
                                 (steps.marker_matches == 1 ? "" : "s") + " but makes no step; " + fallback);
}

}  // namespace

const char* launcher_level_name(LauncherLevel level) {
  switch (level) {
    case LauncherLevel::innermost: return "innermost";
    case LauncherLevel::outermost: return "outermost";
    case LauncherLevel::module: return "module";
  }
  return "?";
}

model::FileSummary summarize_file(const model::TraceFile& f, const SummarizeOptions& options) {
  const StepMarker* const marker = options.marker;
  using detail::k_no_step;
  model::FileSummary s;
  s.path = f.path;
  s.rank = f.rank;
  s.rank_source = f.rank_source;
  s.world_size = f.world_size;
  s.gpu_names = f.gpu_names;
  s.cuda_runtime_version = f.cuda_runtime_version;
  s.cuda_driver_version = f.cuda_driver_version;
  s.events = f.events.size();
  s.json_bytes = f.json_bytes;
  s.truncated = f.truncated;
  s.diagnostics = f.diagnostics;

  // The per-event arrays below (about 60 bytes an event, more with GPU work) share one
  // arena; running past it costs fresh huge pages for all that follows.
  Arena arena(f.events.size() * 100 + f.pool.size() * 12 + 4096);
  const detail::LaunchIndex launch_of(f, arena.get());
  const auto steps = detail::assign_steps(f, launch_of, arena.get(), marker);
  const auto& ev = f.events;
  s.has_steps = !steps.host_steps.empty();
  NameFacts names(f.pool);
  names.set_marker_spans(steps.marker_span_name);
  if (marker) note_marker(s, steps, *marker);

  // Steps: the file's CPU-side step spans, or one pseudo-step over the whole file.
  std::unordered_map<std::int64_t, std::uint32_t> step_index;
  StepWindows windows;
  if (s.has_steps) {
    for (const auto& w : steps.host_steps) {
      if (step_index.count(w.step)) continue;  // a step number twice (several processes): first span
      step_index[w.step] = static_cast<std::uint32_t>(s.steps.size());
      model::StepSummary st;
      st.step = w.step;
      st.detail.dur_ns = w.end_ns - w.begin_ns;
      s.steps.push_back(st);
      windows.begin.push_back(w.begin_ns);
      windows.end.push_back(w.end_ns);
    }
  } else {
    std::int64_t b = INT64_MAX, e = INT64_MIN;
    for (const auto& x : ev)
      if (is_host(x.kind)) b = std::min(b, x.ts_ns), e = std::max(e, x.ts_ns + x.dur_ns);
    if (b > e) b = e = 0;
    model::StepSummary st;
    st.detail.dur_ns = e - b;
    s.steps.push_back(st);
    windows.begin.push_back(b);
    windows.end.push_back(e);
  }
  // Each event's step index, -1 outside every step; and the host event that starts
  // last, which is the profiler's stop when it is a device synchronisation nothing
  // encloses (Nesting::profiler).
  windows.step_at = std::pmr::vector<std::int32_t>(ev.size(), -1, arena.get());
  std::uint32_t stop_sync = ~0u;
  {
    std::int64_t last_step = k_no_step;  // runs of events share a step
    std::int32_t last_index = -1;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      if (is_host(ev[i].kind) && (stop_sync == ~0u || ev[i].ts_ns >= ev[stop_sync].ts_ns))
        stop_sync = static_cast<std::uint32_t>(i);
      if (!s.has_steps) {
        windows.step_at[i] = 0;
        continue;
      }
      const auto it = steps.iteration[i];
      if (it == k_no_step) continue;
      if (it != last_step) {
        last_index = static_cast<std::int32_t>(step_index.at(it));
        last_step = it;
      }
      windows.step_at[i] = last_index;
    }
  }
  windows.host_busy.assign(s.steps.size(), 0);
  const KeyIds key_ids(ev, f.pool.size(), arena.get());
  Paths paths;
  ShapedNames shaped(f.pool.size());
  if (stop_sync != ~0u && !(ev[stop_sync].kind == Kind::runtime && names.device_sync(ev[stop_sync].name)))
    stop_sync = ~0u;
  const auto nesting =
      nest(f, names, key_ids, windows, paths, options.launcher, shaped, stop_sync, waiting_calls(f, launch_of, arena.get()),
           arena.get());
  // GPU time while the host waited: each GPU event's overlap with the waits' union.
  const auto during_waits = [&](std::int64_t b, std::int64_t e) {
    const auto& w = nesting.waits;
    auto it = std::upper_bound(w.begin(), w.end(), b, [](std::int64_t t, const auto& x) { return t < x.second; });
    std::int64_t sum = 0;
    for (; it != w.end() && it->first < e; ++it) sum += std::min(e, it->second) - std::max(b, it->first);
    return sum;
  };

  // Keys: index into s.keys of each key id, in the order the keys first have a cell.
  constexpr std::uint32_t k_none = ~0u;
  std::pmr::vector<std::uint32_t> summary_key(key_ids.count(), k_none, arena.get());
  auto key_of = [&](std::uint32_t i) {
    auto& k = summary_key[key_ids.of(i)];
    if (k == k_none) {
      k = static_cast<std::uint32_t>(s.keys.size());
      s.keys.push_back({std::string(f.pool.get(ev[i].category)), std::string(f.pool.get(ev[i].name)), ev[i].kind,
                        ev[i].shape == ~0u ? std::string() : std::string(f.pool.get(ev[i].shape))});
    }
    return k;
  };
  // Cells: (key, step) -> index into s.cells, with each key's last cell at hand
  // (runs of events share a step); sorted by (key, step) at the end.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> last_cell;  // per key: (step, cell), step ~0: none
  std::unordered_map<std::uint64_t, std::uint32_t> cell_index;
  auto cell_of = [&](std::uint32_t key, std::uint32_t step) -> model::Cell& {
    if (key >= last_cell.size()) last_cell.resize(key + 1, {k_none, 0});
    auto& last = last_cell[key];
    if (last.first != step) {
      const auto [it, fresh] =
          cell_index.try_emplace((std::uint64_t{key} << 32) | step, static_cast<std::uint32_t>(s.cells.size()));
      if (fresh) s.cells.push_back({key, step, 0, 0, 0});
      last = {step, it->second};
    }
    return s.cells[last.second];
  };

  std::unordered_map<std::uint64_t, std::uint32_t> launcher_index;  // (shape << 32) | name -> index
  bool shaped_launchers = false;
  // Launch cells: (launcher, key, step) -> index into s.launches, with each key's last
  // one at hand (a kernel is nearly always launched by one operator, in runs of a
  // step); sorted at the end.
  struct LastLaunch {
    std::uint32_t who = k_none, step = k_none, cell = 0;
  };
  std::vector<LastLaunch> last_launch;  // per key
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> launch_index;
  auto launch_ns = [&](std::uint32_t who, std::uint32_t key, std::uint32_t step) -> std::int64_t& {
    if (key >= last_launch.size()) last_launch.resize(key + 1);
    auto& last = last_launch[key];
    if (last.who != who || last.step != step) {
      const auto [it, fresh] =
          launch_index.try_emplace({who, key, step}, static_cast<std::uint32_t>(s.launches.size()));
      if (fresh) s.launches.push_back({who, key, step, 0});
      last = {who, step, it->second};
    }
    return s.launches[last.cell].total_ns;
  };
  // Tree cells: each node's cell of its current step at hand. Events come in step
  // order nearly always, so a node met in another step starts a new cell without a
  // lookup; the rare (node, step) made twice is merged after the sort.
  // Sized once: on this kind of VM a first touch of a fresh page costs more than the
  // rest of the tree, and growing the vector would touch every page twice or more.
  // Most nodes occur in every step: nodes x steps, or the events when fewer.
  s.tree_cells.reserve(std::min<std::size_t>(ev.size(), (paths.size() + paths.size() / 4 + 16) * s.steps.size()));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> last_tree_cell;  // per node: (step, cell)
  auto tree_cell_of = [&](std::uint32_t node, std::uint32_t step) -> model::TreeCell& {
    if (node >= last_tree_cell.size()) last_tree_cell.resize(std::max<std::size_t>(node + 1, 2 * last_tree_cell.size()), {k_none, 0});
    auto& last = last_tree_cell[node];
    if (last.first != step) {
      last = {step, static_cast<std::uint32_t>(s.tree_cells.size())};
      s.tree_cells.push_back({node, step, 0, 0, 0});
    }
    return s.tree_cells[last.second];
  };
  std::pmr::vector<GpuInterval> gpu(arena.get());
  gpu.reserve(static_cast<std::size_t>(
      std::count_if(ev.begin(), ev.end(), [](const model::Event& e) { return model::is_gpu_work(e.kind); })));
  std::uint64_t outside = 0;
  std::vector<detail::HostSync> syncs;  // the host's blocking calls, for the idle causes

  std::set<std::uint32_t> graph_launchers;  // launchers of graph replays
  // A launcher is an operator's name, and with --by-shape its shapes.
  // GPU work without its launch: one launcher per stream (the GPU event's tid), keyed
  // with a shape no pool id is.
  constexpr std::uint32_t k_stream_key = ~1u;
  auto launcher_id = [&](std::uint32_t pool_id, std::uint32_t shape, std::string_view fallback) {
    const std::uint64_t key = (std::uint64_t{shape} << 32) | pool_id;
    if (auto it = launcher_index.find(key); it != launcher_index.end()) return it->second;
    const auto idx = static_cast<std::uint32_t>(s.launchers.size());
    if (shape == k_stream_key) {
      s.launchers.push_back(model::unrecorded_launcher(f.pool.get(pool_id)));
      shape = ~0u;
    } else {
      s.launchers.emplace_back(pool_id == ~0u ? std::string(fallback) : std::string(f.pool.get(pool_id)));
    }
    s.launcher_shapes.emplace_back(shape == ~0u ? std::string() : std::string(f.pool.get(shape)));
    shaped_launchers |= shape != ~0u;
    launcher_index[key] = idx;
    return idx;
  };

  std::size_t incl_at = 0;  // into nesting.incl_less
  std::size_t wait_at = 0;  // into nesting.wait_in
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    if (e.kind == Kind::runtime && names.graph_launch(e.name)) s.cuda_graphs = true;
    if ((is_host(e.kind) || e.kind == Kind::kernel) && names.compiled(e.name)) s.compiled = true;
    const auto st = windows.step_at[i];
    if (model::is_gpu_work(e.kind)) gpu.push_back({st, e.pid, e.ts_ns, e.ts_ns + e.dur_ns, i, names.work_class(e)});
    if (names.blocks_host(e)) {  // a blocking call, or the launch of a copy to pageable memory
      const auto l = e.kind == Kind::runtime ? std::int64_t{i} : e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
      if (l >= 0) {
        const auto& c = ev[static_cast<std::size_t>(l)];
        syncs.push_back({(std::uint64_t{c.pid} << 32) | c.tid, c.ts_ns + c.dur_ns});
      }
    }
    // The profiler's own work: its time where it fell in a step (a note says so), and
    // neither compared nor reported as outside the steps.
    if (is_host(e.kind) && nesting.profiler[i]) {
      if (st >= 0 && nesting.profiler[i] == k_profiler_outer)
        detail::add_sat(s.steps[static_cast<std::size_t>(st)].detail.profiler_ns, e.dur_ns);
      continue;
    }
    if (st < 0) {
      if (is_host(e.kind)) ++outside;
      continue;
    }
    const auto step = static_cast<std::uint32_t>(st);
    auto& d = s.steps[step].detail;
    // Step spans themselves are step times, not operators (HTA quirk Q1).
    if (names.step_span(e, true)) continue;
    const auto key = key_of(i);
    auto& c = cell_of(key, step);
    c.count += 1;
    while (incl_at < nesting.incl_less.size() && nesting.incl_less[incl_at].first < i) ++incl_at;
    const bool nested = incl_at < nesting.incl_less.size() && nesting.incl_less[incl_at].first == i;
    c.nested += nested;
    detail::add_sat(c.total_ns, nested ? nesting.incl_less[incl_at].second : e.dur_ns);
    detail::add_sat(c.self_ns, nesting.self_ns[i]);
    // An occurrence nested in one of its key adds no wait: the outer one holds it.
    while (wait_at < nesting.wait_in.size() && nesting.wait_in[wait_at].first < i) ++wait_at;
    if (wait_at < nesting.wait_in.size() && nesting.wait_in[wait_at].first == i && !nested)
      detail::add_sat(c.wait_ns, nesting.wait_in[wait_at].second);
    if (model::is_gpu_work(e.kind) && !nesting.waits.empty())
      detail::add_sat(c.wait_ns, during_waits(e.ts_ns, e.ts_ns + e.dur_ns));
    if (is_host(e.kind) && nesting.node[i] != model::k_tree_top) {
      // An event past the depth limit is part of the node at the limit: its self time
      // is that node's (its time is inside the node's own already).
      const bool own = !(nesting.node[i] & k_inherited);
      auto& tc = tree_cell_of(nesting.node[i] & ~k_inherited, step);
      if (own) {
        tc.count += 1;
        detail::add_sat(tc.total_ns, e.dur_ns);
      }
      detail::add_sat(tc.self_ns, nesting.self_ns[i]);
    }
    if (model::is_gpu_work(e.kind)) {
      std::uint32_t who;
      const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
      // GPU work hangs under the runtime call that launched it (top level without one).
      const auto under = l < 0 ? model::k_tree_top
                     : nesting.node[static_cast<std::size_t>(l)] == model::k_tree_top
                         ? model::k_tree_top
                         : nesting.node[static_cast<std::size_t>(l)] & ~k_inherited;
      auto& tc = tree_cell_of(paths.child(under, e.name, i, true), step);
      tc.count += 1;
      detail::add_sat(tc.total_ns, e.dur_ns);
      detail::add_sat(tc.self_ns, e.dur_ns);
      if (l < 0) {
        who = launcher_id(e.tid, k_stream_key, {});
        detail::add_sat(d.unlaunched_ns, e.dur_ns);
      } else if (nesting.launcher[static_cast<std::size_t>(l)] == ~0u) who = launcher_id(~0u, ~0u, "(no enclosing operator)");
      else {
        const auto& by = ev[nesting.launcher[static_cast<std::size_t>(l)]];
        who = launcher_id(by.name, by.shape, {});
      }
      if (l >= 0 && names.graph_launch(ev[static_cast<std::size_t>(l)].name)) graph_launchers.insert(who);
      detail::add_sat(launch_ns(who, key, step), e.dur_ns);
    }
    switch (e.kind) {
      case Kind::kernel:
        detail::add_sat(names.comm_kernel(e.name) ? d.comm_ns : d.kernel_ns, e.dur_ns);
        break;
      case Kind::gpu_memcpy: detail::add_sat(d.memcpy_ns, e.dur_ns); break;
      case Kind::gpu_memset: detail::add_sat(d.memset_ns, e.dur_ns); break;
      case Kind::cpu_op: detail::add_sat(d.cpu_self_ns, nesting.self_ns[i]); break;
      case Kind::runtime: detail::add_sat(d.runtime_ns, e.dur_ns); break;
      default: break;
    }
  }

  // GPU work launched in a step that runs past its end: the union per (step, device)
  // of that work after the step's end. Idle is against every device of the file.
  std::set<std::uint32_t> devices;
  {
    std::pmr::vector<GpuInterval> scratch(arena.get());
    merge_runs(gpu.data(), gpu.data() + gpu.size(), std::less<>(), scratch);
  }
  for (auto* first = gpu.data(); first != gpu.data() + gpu.size();) {
    auto* last = first;
    while (last != gpu.data() + gpu.size() && last->step == first->step && last->pid == first->pid) ++last;
    devices.insert(first->pid);
    if (first->step >= 0) {
      const auto w = static_cast<std::size_t>(first->step);
      detail::add_sat(s.steps[w].detail.gpu_spill_ns, union_length(first, last, windows.end[w]));
    }
    first = last;
  }
  s.gpus_with_work = static_cast<int>(devices.size());
  {  // by device, then start: runs of that order already (each stream's work is in order)
    std::pmr::vector<GpuInterval> scratch(arena.get());
    merge_runs(gpu.data(), gpu.data() + gpu.size(), [](const GpuInterval& a, const GpuInterval& b) {
      return a.pid != b.pid ? a.pid < b.pid : a.begin < b.begin;
    }, scratch);
  }
  // GPU busy and its parts, idle by cause (timeline.hpp): busy is the union of all GPU
  // work on a device (whichever step launched it) cut to the window, summed over devices.
  detail::split_timeline(gpu, ev, launch_of, syncs, windows.begin, windows.end, s.steps);
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    auto& d = s.steps[i].detail;
    d.host_busy_ns = windows.host_busy[i];
    d.host_wait_ns = windows.host_wait[i];
    const __int128 host_idle = __int128{d.dur_ns} * windows.op_threads - d.host_busy_ns;
    d.host_idle_ns = static_cast<std::int64_t>(std::clamp<__int128>(host_idle, 0, INT64_MAX));
    const __int128 idle = __int128{d.dur_ns} * static_cast<__int128>(devices.size()) - d.gpu_busy_ns;
    d.gpu_idle_ns = static_cast<std::int64_t>(std::clamp<__int128>(idle, 0, INT64_MAX));
  }
  std::sort(s.cells.begin(), s.cells.end(),
            [](const model::Cell& a, const model::Cell& b) { return std::tie(a.key, a.step) < std::tie(b.key, b.step); });
  if (!shaped_launchers) s.launcher_shapes.clear();
  std::sort(s.launches.begin(), s.launches.end(), [](const model::LaunchCell& a, const model::LaunchCell& b) {
    return std::tie(a.launcher, a.key, a.step) < std::tie(b.launcher, b.key, b.step);
  });
  s.graph_launchers.assign(graph_launchers.begin(), graph_launchers.end());
  s.tree.reserve(paths.size());
  for (std::uint32_t node = 0; node < paths.size(); ++node) s.tree.push_back({paths.parent(node), key_of(paths.event(node))});
  sort_tree_cells(s.tree_cells);
  fold_tree(s, k_tree_budget);
  detail::summarize_collectives(f, launch_of, windows.step_at.data(), s);

  // Counted per event, as their ids say; one sample per file says how many.
  if (outside)
    s.diagnostics.report(model::DiagId::event_outside_steps, f.path, 0,
                         std::to_string(outside) + " host events outside every " +
                             (s.step_marker.empty() ? "ProfilerStep" : "step of the step marker"),
                         outside);
  if (steps.gpu_unlinked)
    s.diagnostics.report(model::DiagId::event_gpu_unlinked, f.path, 0,
                         std::to_string(steps.gpu_unlinked) + " GPU events without their launch" +
                             (steps.gpu_unplaced ? " (" + std::to_string(steps.gpu_unplaced) + " outside every step)" : ""),
                         steps.gpu_unlinked);
  return s;
}

model::SetSummary summarize_set(const model::TraceSet& set, const SummarizeOptions& options) {
  model::SetSummary out;
  out.label = set.label;
  out.inputs = set.inputs;
  out.diagnostics = set.diagnostics;
  for (const auto& f : set.files) out.files.push_back(f.summary ? *f.summary : summarize_file(f, options));
  model::bound_durations(out);  // as a summary read back is: traces and summaries compare alike
  return out;
}

model::SetSummary summarize_set(model::TraceSet&& set, const SummarizeOptions& options) {
  model::SetSummary out;
  out.label = std::move(set.label);
  out.inputs = std::move(set.inputs);
  out.diagnostics = std::move(set.diagnostics);
  // A copy of every cell would be fresh pages to fault in, for nothing.
  for (auto& f : set.files)
    out.files.push_back(f.summary && f.summary.use_count() == 1 ? std::move(*f.summary)
                        : f.summary                             ? *f.summary
                                                                : summarize_file(f, options));
  model::bound_durations(out);
  return out;
}

model::SetSummary merge_summaries(std::vector<model::SetSummary> parts) {
  model::SetSummary out;
  std::map<int, std::pair<std::size_t, std::string>> owner;  // rank -> (part, a file with it)
  for (std::size_t pi = 0; pi < parts.size(); ++pi) {
    auto& part = parts[pi];
    if (out.label.empty()) out.label = part.label;
    out.inputs.insert(out.inputs.end(), part.inputs.begin(), part.inputs.end());
    out.diagnostics.merge(part.diagnostics);
    for (auto& f : part.files) {
      auto [it, fresh] = owner.emplace(f.rank, std::make_pair(pi, f.path));
      if (!fresh && it->second.first != pi)
        throw Fatal("rank " + std::to_string(f.rank) + " is in two summaries (" + it->second.second + ", " + f.path +
                    "); merge combines summaries of disjoint ranks");
      out.files.push_back(std::move(f));
    }
  }
  std::stable_sort(out.files.begin(), out.files.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
  });
  return out;
}

}  // namespace tracediff::analysis
