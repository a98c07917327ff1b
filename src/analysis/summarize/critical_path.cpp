// Each step's critical path, HTA's lightweight model (docs/critical-path.md): a node at
// the start and at the end of each host operator, runtime call and piece of GPU work of
// the step; edges
//   operator      inside an operator, from one boundary to the next on its thread (its
//                 own time; zero for a call that waits for the GPU), and a kernel's
//                 start to its end;
//   dependency    one top-level operator's end to the next one's start on a thread (0);
//   launch        a launch call's start to its kernel's start, when the stream was empty;
//   kernel-kernel the previous work's end on a stream to the next one's start, else;
//   sync          GPU work's end to the end of the host call that waited for it (0).
// Edges go forward in time; their weights are the time between their nodes (or 0), so
// the longest path is the chain of work that set the step's length. One pass builds a
// step's graph (critical_path_graph.hpp), Kahn's order and one sweep find the path, one
// more sweep (three what-ifs at a time) the what-ifs.
#include "analysis/summarize/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analysis/names/kernel_families.hpp"
#include "analysis/summarize/critical_path_graph.hpp"
#include "analysis/summarize/file_pass.hpp"
#include "util/scratch_buffer.hpp"

namespace tracediff::analysis {

std::optional<WhatIfSpec> parse_what_if(std::string_view text, std::string& error) {
  const auto star = text.rfind('*');
  if (star == std::string_view::npos || star == 0) {
    error = "'" + std::string(text) + "' is not WHAT*FACTOR (aten::mm*0.8, family:gemm*0.5, launch*0, gaps*0)";
    return std::nullopt;
  }
  WhatIfSpec spec;
  spec.text = std::string(text);
  const std::string factor(text.substr(star + 1));
  char* end = nullptr;
  spec.factor = std::strtod(factor.c_str(), &end);
  if (factor.empty() || end != factor.c_str() + factor.size() || !std::isfinite(spec.factor) || spec.factor < 0 ||
      spec.factor > 100) {
    error = "'" + std::string(text) + "': the factor after '*' must be a number from 0 to 100 (0.8: 20 % faster)";
    return std::nullopt;
  }
  const auto what = text.substr(0, star);
  if (what == "launch") spec.target = WhatIfSpec::Target::launch;
  else if (what == "gaps") spec.target = WhatIfSpec::Target::gaps;
  else if (what.starts_with("family:")) {
    spec.target = WhatIfSpec::Target::family;
    spec.value = std::string(what.substr(7));
    Family f;
    if (!family_from_name(spec.value, f)) {
      error = "'" + std::string(text) + "': no kernel family '" + spec.value + "' (one of " + family_ids() + ")";
      return std::nullopt;
    }
  } else {
    spec.target = WhatIfSpec::Target::name;
    spec.value = std::string(what.starts_with("op:") || what.starts_with("kernel:") ? what.substr(what.find(':') + 1) : what);
  }
  return spec;
}

namespace detail {
namespace {

using model::Bound;
using cp::EdgeType;
using cp::Graph;
using cp::k_none;

// HTA's queue length on each stream (TraceCounters): +1 at each launch, -1 at each start
// of the work launched; per GPU event, the length after its launch and after its start.
struct Queues {
  std::vector<std::pair<std::uint32_t, std::int32_t>> at_launch, at_start;  // (event, length), by event
  static std::int32_t of(const std::vector<std::pair<std::uint32_t, std::int32_t>>& v, std::uint32_t e) {
    const auto it = std::lower_bound(v.begin(), v.end(), std::pair<std::uint32_t, std::int32_t>{e, INT32_MIN});
    return it != v.end() && it->first == e ? it->second : -1;
  }
};

// HTA's launch calls (its get_runtime_launch_events_mask): a graph launch or a blocking copy
// is none, so its work never gets a launch edge.
bool launch_call(std::string_view name) {
  for (std::string_view n : {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                             "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
                             "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream"})
    if (name == n) return true;
  return false;
}

Queues queue_lengths(const model::TraceFile& f, const LaunchIndex& launch_of) {
  struct Change {
    std::uint64_t stream;
    std::int64_t ts;
    std::uint32_t event;
    bool launch;
  };
  std::vector<Change> changes;
  const auto& ev = f.events;
  std::vector<std::int8_t> is_launch(f.pool.size(), -1);  // per name, once
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    if (!model::is_gpu_work(e.kind) || e.correlation < 0) continue;
    const auto l = launch_of.find(e.correlation);
    if (l < 0) continue;
    auto& known = is_launch[ev[static_cast<std::size_t>(l)].name];
    if (known < 0) known = launch_call(f.pool.get(ev[static_cast<std::size_t>(l)].name));
    if (!known) continue;
    const auto stream = (std::uint64_t{e.pid} << 32) | e.tid;
    changes.push_back({stream, ev[static_cast<std::size_t>(l)].ts_ns, i, true});
    changes.push_back({stream, e.ts_ns, i, false});
  }
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    return std::tie(a.stream, a.ts, a.event, b.launch) < std::tie(b.stream, b.ts, b.event, a.launch);
  });
  Queues q;
  std::int32_t length = 0;
  for (std::size_t k = 0; k < changes.size(); ++k) {
    if (k == 0 || changes[k].stream != changes[k - 1].stream) length = 0;
    length += changes[k].launch ? 1 : -1;
    (changes[k].launch ? q.at_launch : q.at_start).push_back({changes[k].event, length});
  }
  std::sort(q.at_launch.begin(), q.at_launch.end());
  std::sort(q.at_start.begin(), q.at_start.end());
  return q;
}

constexpr std::size_t k_what_if_steps = 2;
// What a step's graph takes per slot, at most: its nodes' times, order and distances, about
// three edges, the sorts' and what-ifs' arrays.
constexpr std::size_t k_bytes_per_slot = 288;  // steps of a file the rows' what-ifs run in, at most

// What the pass asks of each name, once (HTA's blocking and lock calls, its sync events,
// the data loader).
enum : std::uint8_t {
  k_known = 1,
  k_hta_blocking = 2,
  k_context_sync = 4,
  k_stream_sync = 8,
  k_loader = 16,
  k_lock = 32,
  k_engine = 64,  // the autograd engine's backward ops, on its own thread
};

std::uint8_t name_facts(std::string_view n, const std::string& loader) {
  std::uint8_t x = k_known;
  for (std::string_view b : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize",
                             "cudaMemcpy", "cudaMemcpyAsync"})
    if (n == b) x |= k_hta_blocking;
  for (std::string_view b : {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync"})
    if (n == b) x |= k_lock;
  if (n == "Context Sync") x |= k_context_sync;
  if (n == "Stream Sync") x |= k_stream_sync;
  if (!loader.empty() && n.find(loader) != std::string_view::npos) x |= k_loader;
  if (n.starts_with("autograd::engine::evaluate_function")) x |= k_engine;
  return x;
}

}  // namespace

void critical_paths(const model::TraceFile& f, const LaunchIndex& launch_of, const StepWindows& windows,
                    const WaitingCalls& waiting, const std::pmr::vector<std::uint8_t>& profiler, NameFacts& names,
                    const CriticalPathOptions& options, const std::function<std::uint32_t(std::uint32_t)>& key_of,
                    const std::function<bool(std::uint32_t)>& in_rows, model::FileSummary& s,
                    std::pmr::memory_resource* memory) {
  if (!options.enabled) return;
  const auto& ev = f.events;
  const bool hta = options.hta_model;
  const auto steps = s.steps.size();
  std::vector<std::uint8_t> facts(f.pool.size(), 0);
  const auto fact = [&](std::uint32_t name) {
    auto& x = facts[name];
    if (!x) x = name_facts(f.pool.get(name), options.data_load_pattern);
    return x;
  };

  // The events the graphs take, by step (a counting sort; each step's in file order).
  bool has_sync_events = false;
  // A runtime call that launches nothing and waits for nothing (cudaFuncSetAttribute,
  // cudaEventQuery, cudaStreamGetCaptureInfo...: a third of a trace's host events) is its
  // operator's own time in tracediff's model: no node of its own, the same path.
  std::vector<bool> launches;
  if (!hta) {
    launches.assign(ev.size(), false);
    for (const auto& e : ev)
      if (model::is_gpu_work(e.kind) && e.correlation >= 0)
        if (const auto l = launch_of.find(e.correlation); l >= 0) launches[static_cast<std::size_t>(l)] = true;
  }
  const auto step_of = [&](std::uint32_t i) -> std::int32_t {
    const auto& e = ev[i];
    if (e.kind == model::Kind::runtime && !hta && !launches[i] && !waiting.flag[i]) return -1;
    if (e.kind == model::Kind::cpu_op || e.kind == model::Kind::runtime)
      return e.dur_ns > 0 && (hta || (!profiler[i] && !names.step_span(e))) ? windows.step_at[i] : -1;
    if (!model::is_gpu_work(e.kind) && e.kind != model::Kind::cuda_sync) return -1;
    const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
    if (e.kind == model::Kind::cuda_sync) {
      has_sync_events = true;
      return l >= 0 && (fact(e.name) & (k_context_sync | k_stream_sync)) ? windows.step_at[static_cast<std::size_t>(l)] : -1;
    }
    return (l >= 0 ? ev[static_cast<std::size_t>(l)].dur_ns > 0 : !hta) ? windows.step_at[i] : -1;
  };
  std::vector<std::uint32_t> count(steps + 1, 0);
  // Each step's own thread (its ProfilerStep span's): the one backward joins (below).
  std::vector<std::uint64_t> step_thread(steps, 0);
  for (std::uint32_t i = 0; i < ev.size() && !hta; ++i)
    if (const auto st = windows.step_at[i]; st >= 0 && model::device_of(ev[i].kind) == model::Device::cpu &&
                                              names.step_span(ev[i]) && !step_thread[static_cast<std::size_t>(st)])
      step_thread[static_cast<std::size_t>(st)] = (std::uint64_t{ev[i].pid} << 32) | ev[i].tid;
  for (std::uint32_t i = 0; i < ev.size(); ++i)
    if (const auto st = step_of(i); st >= 0) ++count[static_cast<std::size_t>(st) + 1];
  std::size_t largest = 0;
  for (std::size_t k = 0; k < steps; ++k) largest = std::max<std::size_t>(largest, count[k + 1]), count[k + 1] += count[k];
  // The graphs' arrays in one block, reserved once for the largest step, its pages mapped
  // up front (a thread's scratch buffer): faulted in one 4 KiB page at a time they cost
  // more than the graphs (about 10 µs a page in a VM guest); huge pages stall on compaction.
  ScratchBuffer scratch(largest * k_bytes_per_slot + count.back() * 4 + 4096);
  std::pmr::monotonic_buffer_resource block(scratch.get(), scratch.size(), std::pmr::get_default_resource());
  memory = &block;
  std::pmr::vector<std::uint32_t> by_step(count.back(), memory);
  {
    std::vector<std::uint32_t> fill(count.begin(), count.end());
    for (std::uint32_t i = 0; i < ev.size(); ++i)
      if (const auto st = step_of(i); st >= 0) by_step[fill[static_cast<std::size_t>(st)]++] = i;
  }
  const auto queues = hta ? queue_lengths(f, launch_of) : Queues{};  // the default model reads the times instead
  // The data loader's spans that are no operators (PyTorch's "enumerate(DataLoader)#…"
  // record_function, a Python frame): the operators inside one are data loading too.
  struct LoaderSpan {
    std::int32_t step;
    std::uint64_t thread;
    std::int64_t begin, end;
    auto operator<=>(const LoaderSpan&) const = default;
  };
  std::vector<LoaderSpan> loader_spans;
  if (!hta && !options.data_load_pattern.empty())
    for (std::uint32_t i = 0; i < ev.size(); ++i) {
      const auto& e = ev[i];
      if ((e.kind == model::Kind::user_annotation || e.kind == model::Kind::python_function) && windows.step_at[i] >= 0 &&
          (fact(e.name) & k_loader))
        loader_spans.push_back({windows.step_at[i], (std::uint64_t{e.pid} << 32) | e.tid, e.ts_ns, e.ts_ns + e.dur_ns});
    }
  std::sort(loader_spans.begin(), loader_spans.end());

  // Every array a step needs, reserved once for the largest.
  Graph g(memory);
  g.reserve(largest);
  std::pmr::vector<std::uint32_t> host(memory), gpu(memory), pred(memory), stack(memory), lanes(memory), lane_mask(memory);
  std::pmr::vector<std::int64_t> dist(memory), work(memory);
  std::pmr::vector<std::pair<std::int64_t, std::uint32_t>> ends(memory), gpu_order(memory);
  std::pmr::vector<std::uint32_t> seen_at(memory);  // per slot: 0 not on the path, 1 on it, k + 2 its row's step_keys[k]
  std::pmr::vector<std::uint32_t> grouped(memory), thread_of(memory), slot_mask(memory);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> threads;  // (pid, tid) and its slots
  std::vector<std::uint64_t> engine, chain;  // the autograd engine's threads; per slot, the chain it joins
  host.reserve(largest), gpu.reserve(largest), pred.reserve(2 * largest), dist.reserve(4 * largest), work.reserve(2 * largest);
  lane_mask.reserve(3 * largest + 16), seen_at.reserve(largest);
  std::vector<std::int8_t> name_is;
  std::vector<double> factors;
  std::vector<std::int64_t> shorter;
  std::unordered_map<std::uint32_t, std::uint32_t> what_index;  // key -> index into s.what_ifs (rows' what-ifs)
  for (const auto& spec : options.what_if) s.what_ifs.push_back({spec.text, -1, spec.factor});
  struct OnPath {
    std::uint32_t key;
    std::int64_t ns;
    std::uint32_t event;  // one of its events: the key's name, category and shape
  };
  std::vector<OnPath> step_keys;

  for (std::size_t w = 0; w < steps; ++w) {
    g.clear();
    host.clear(), gpu.clear();
    for (auto k = count[w]; k < count[w + 1]; ++k) {
      const auto i = by_step[k];
      const auto& e = ev[i];
      const auto slot = g.add(i, e.ts_ns, e.ts_ns + e.dur_ns);
      (model::device_of(e.kind) == model::Device::cpu ? host : gpu).push_back(slot);
    }
    if (g.event.empty()) continue;
    const auto event_of = [&](std::uint32_t slot) -> const model::Event& { return ev[g.event[slot]]; };
    // This step's loader spans; an operator that starts inside one on its thread.
    const auto spans_from = std::lower_bound(loader_spans.begin(), loader_spans.end(),
                                             LoaderSpan{static_cast<std::int32_t>(w), 0, INT64_MIN, INT64_MIN});
    const auto spans_to = std::lower_bound(spans_from, loader_spans.end(),
                                           LoaderSpan{static_cast<std::int32_t>(w) + 1, 0, INT64_MIN, INT64_MIN});
    const auto in_loader = [&](const model::Event& e) {
      const auto t = (std::uint64_t{e.pid} << 32) | e.tid;
      for (auto it = spans_from; it != spans_to; ++it)
        if (it->thread == t && it->begin <= e.ts_ns && e.ts_ns < it->end) return true;
      return false;
    };
    const auto blocking = [&](std::uint32_t slot) {
      const auto i = g.event[slot];
      return hta ? (ev[i].kind == model::Kind::runtime && (fact(ev[i].name) & k_hta_blocking)) : waiting.flag[i] != 0;
    };

    // HTA: the CUDA runtime lock. Its calls (launches, async copies, host allocations) on
    // every thread, in time order: each call's own time, and from every call still open
    // when one ends, and from the last end, a dependency to that end.
    const auto lock = [&](std::uint32_t node) { return hta && (fact(event_of(node / 2).name) & k_lock); };
    if (hta) {
      std::vector<std::uint32_t> nodes;
      for (const auto slot : host)
        if (lock(Graph::start(slot))) nodes.push_back(Graph::start(slot)), nodes.push_back(Graph::end(slot));
      std::sort(nodes.begin(), nodes.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::make_tuple(g.ts[a], g.event[a / 2], a % 2) < std::make_tuple(g.ts[b], g.event[b / 2], b % 2);
      });
      std::vector<std::uint32_t> open;
      std::uint32_t prev = k_none;
      for (const auto n : nodes) {
        if (n % 2 == 0) {
          open.push_back(n);
        } else {
          while (!open.empty()) {
            const auto s_ = open.back();
            open.pop_back();
            if (s_ == n - 1) g.edge(s_, n, EdgeType::op, false, s_ / 2);
            else g.edge(s_, n, EdgeType::dependency, true);
          }
          if (prev != k_none && prev % 2 == 1) g.edge(prev, n, EdgeType::dependency, true);
        }
        prev = n;
      }
    }
    // Two nodes of lock calls are joined by the lock's edges above, not here (but for the
    // gap from one call's end to the next one's start).
    const auto shares_lock = [&](std::uint32_t a, std::uint32_t b) { return lock(a) && lock(b) && !(a % 2 == 1 && b % 2 == 0); };

    // Host: each thread's operators nested by time, walked as HTA walks its call stacks
    // (by thread, start, longer first). Grouped by thread keeping file order, in which
    // Kineto writes a thread's events nearly sorted: a sort only where they are not.
    {
      // The backward pass runs on the autograd engine's thread while the step's thread waits
      // in backward(): one chain with the step's thread, forward, then backward, then the
      // optimizer (HTA merges them too, where its names allow).
      engine.clear();
      if (!hta && step_thread[w])
        for (const auto slot : host)
          if (const auto& e = event_of(slot); fact(e.name) & k_engine) {
            const auto t = (std::uint64_t{e.pid} << 32) | e.tid;
            if (t != step_thread[w] && std::find(engine.begin(), engine.end(), t) == engine.end()) engine.push_back(t);
          }
      threads.clear();
      thread_of.clear();
      chain.resize(g.event.size());
      for (const auto slot : host) {
        const auto& e = event_of(slot);
        auto t = (std::uint64_t{e.pid} << 32) | e.tid;
        if (std::find(engine.begin(), engine.end(), t) != engine.end()) t = step_thread[w];
        chain[slot] = t;
        std::size_t k = 0;
        while (k < threads.size() && threads[k].first != t) ++k;
        if (k == threads.size()) threads.push_back({t, 0});
        ++threads[k].second;
        thread_of.push_back(static_cast<std::uint32_t>(k));
      }
      // Threads in (pid, tid) order, as HTA's groups; each its range of `host`.
      std::vector<std::size_t> rank(threads.size()), at(threads.size() + 1, 0);
      for (std::size_t k = 0; k < rank.size(); ++k) rank[k] = k;
      std::sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return threads[a].first < threads[b].first; });
      std::vector<std::size_t> start(threads.size());
      for (std::size_t r = 0; r < rank.size(); ++r) start[rank[r]] = at[r], at[r + 1] = at[r] + threads[rank[r]].second;
      grouped.resize(host.size());
      for (std::size_t k = 0; k < host.size(); ++k) grouped[start[thread_of[k]]++] = host[k];
      host.swap(grouped);
      const auto before = [&](std::uint32_t a, std::uint32_t b) {
        const auto sa = g.ts[Graph::start(a)], sb = g.ts[Graph::start(b)];
        if (sa != sb) return sa < sb;
        const auto ea = g.ts[Graph::end(a)], eb = g.ts[Graph::end(b)];
        if (ea != eb) return ea > eb;  // the longer first
        return a < b;
      };
      for (std::size_t r = 0; r < rank.size(); ++r)
        merge_runs(host.data() + at[r], host.data() + at[r + 1], before, grouped);
    }
    stack.clear();
    std::uint32_t last = k_none, last_top = k_none, last_parent = k_none;
    const auto exit_top = [&] {
      const auto slot = stack.back();
      stack.pop_back();
      if (last != k_none && !shares_lock(last, Graph::end(slot)))
        g.edge(last, Graph::end(slot), EdgeType::op, blocking(slot), slot);
      if (stack.empty()) last = k_none, last_top = Graph::end(slot);
      else last = Graph::end(slot), last_parent = stack.back();
    };
    for (std::size_t k = 0; k < host.size(); ++k) {
      const auto slot = host[k];
      const auto& e = event_of(slot);
      if (k > 0 && chain[host[k - 1]] != chain[slot]) {
        while (!stack.empty()) exit_top();
        last = last_top = last_parent = k_none;
      }
      while (!stack.empty() && g.ts[Graph::end(stack.back())] <= e.ts_ns) exit_top();
      if (stack.empty() && last_top != k_none) g.edge(last_top, Graph::start(slot), EdgeType::dependency, true);
      // From a start, the time is that operator's; from an end (a sibling's), the parent's.
      if (last != k_none && !shares_lock(last, Graph::start(slot)))
        g.edge(last, Graph::start(slot), EdgeType::op, false, last % 2 == 0 ? last / 2 : last_parent);
      const auto parent = stack.empty() ? k_none : stack.back();
      g.loader[slot] = (fact(e.name) & k_loader) || (parent != k_none && g.loader[parent]) || in_loader(e);
      last = Graph::start(slot);
      last_parent = parent;
      stack.push_back(slot);
    }
    while (!stack.empty()) exit_top();

    // GPU: work by start (a sync event by its end), each stream's last work at hand.
    gpu_order.clear();
    for (const auto slot : gpu) {
      const auto& x = event_of(slot);
      gpu_order.push_back({x.kind == model::Kind::cuda_sync ? x.ts_ns + x.dur_ns : x.ts_ns, slot});
    }
    if (!std::is_sorted(gpu_order.begin(), gpu_order.end())) std::sort(gpu_order.begin(), gpu_order.end());
    std::vector<std::pair<std::uint64_t, std::uint32_t>> last_on;  // (stream, end node)
    const auto last_of = [&](std::uint64_t stream) -> std::uint32_t& {
      for (auto& [s_, n] : last_on)
        if (s_ == stream) return n;
      last_on.push_back({stream, k_none});
      return last_on.back().second;
    };
    const auto launch_slot = [&](const model::Event& e) -> std::uint32_t {
      const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
      return l < 0 ? k_none : g.slot_of(static_cast<std::uint32_t>(l));
    };
    // The GPU work's ends, for the waits the trace does not record (below).
    const bool infer = !hta;
    ends.clear();
    if (infer)
      for (const auto slot : gpu)
        if (model::is_gpu_work(event_of(slot).kind)) ends.push_back({g.ts[Graph::end(slot)], slot});
    if (!std::is_sorted(ends.begin(), ends.end())) std::sort(ends.begin(), ends.end());
    // The work on the same device, another stream, that ended last at or before `t`.
    const auto ended_before = [&](const model::Event& e, std::int64_t t) -> std::uint32_t {
      auto it = std::upper_bound(ends.begin(), ends.end(), std::pair<std::int64_t, std::uint32_t>{t, k_none});
      for (int look = 0; it != ends.begin() && look < 64; ++look) {
        const auto& x = event_of((--it)->second);
        if (x.pid == e.pid) return x.tid != e.tid ? it->second : k_none;
      }
      return k_none;
    };
    for (const auto& [when, slot] : gpu_order) {
      const auto& e = event_of(slot);
      const auto stream = (std::uint64_t{e.pid} << 32) | e.tid;
      const auto r = launch_slot(e);
      if (e.kind == model::Kind::cuda_sync) {  // HTA: GPU to host at the call's end
        if (r == k_none) continue;
        for (auto& [s_, n] : last_on)
          if (n != k_none && ((fact(e.name) & k_context_sync) || s_ == stream) && g.ts[n] <= g.ts[Graph::end(r)])
            g.edge(n, Graph::end(r), EdgeType::sync, true);
        continue;
      }
      g.edge(Graph::start(slot), Graph::end(slot), EdgeType::op, false, slot);
      auto& prev = last_of(stream);
      if (hta) {
        // HTA: a launch edge when the stream's queue was empty at the launch and at the start.
        const auto i = g.event[slot];
        if (r != k_none && Queues::of(queues.at_launch, i) == 1 && Queues::of(queues.at_start, i) == 0 &&
            (prev == k_none || g.ts[prev] < g.ts[Graph::start(r)]))
          g.edge(Graph::start(r), Graph::start(slot), EdgeType::launch, false);
        else if (prev != k_none)
          g.edge(prev, Graph::start(slot), EdgeType::kernel_kernel, false, prev / 2);
        prev = Graph::end(slot);
        continue;
      }
      // The work could start once its stream's last work ended and it was launched. If it
      // started later, after work on another stream of its device ended, it waited on the
      // last such work (cudaStreamWaitEvent, or a full device: HTA sees the first only
      // with the trace's cuda_sync events); else the host's launch was late (the stream
      // idle when it came: the launch is on the path) or the GPU left a gap of its own.
      const std::int64_t ready =
          std::max(prev == k_none ? INT64_MIN : g.ts[prev], r == k_none ? INT64_MIN : g.ts[Graph::start(r)]);
      const auto other = ended_before(e, e.ts_ns);
      const bool waited = other != k_none && g.ts[Graph::end(other)] > ready;
      if (waited) g.edge(Graph::end(other), Graph::start(slot), EdgeType::sync, true);
      const bool idle_at_launch = r != k_none && (prev == k_none || g.ts[prev] <= g.ts[Graph::start(r)]);
      if (idle_at_launch) g.edge(Graph::start(r), Graph::start(slot), waited ? EdgeType::dependency : EdgeType::launch, false);
      else if (prev != k_none)
        g.edge(prev, Graph::start(slot), waited ? EdgeType::dependency : EdgeType::kernel_kernel, false, prev / 2);
      if (r != k_none && !idle_at_launch) g.edge(Graph::start(r), Graph::start(slot), EdgeType::dependency, true);
      prev = Graph::end(slot);
    }
    // A call that waited for the GPU waited for the work that ended last before it
    // returned (HTA needs the trace's cuda_sync events, and never sees a blocking copy's).
    if (infer && !ends.empty()) {
      for (const auto slot : host) {
        if (!waiting.flag[g.event[slot]]) continue;
        const auto done = g.ts[Graph::end(slot)];
        auto it = std::upper_bound(ends.begin(), ends.end(), std::pair<std::int64_t, std::uint32_t>{done, k_none});
        if (it == ends.begin() || std::prev(it)->first <= g.ts[Graph::start(slot)]) continue;
        g.edge(Graph::end(std::prev(it)->second), Graph::end(slot), EdgeType::sync, true);
      }
    }

    g.sort();
    const auto [length, tail] = g.longest(pred, dist, work, !hta);
    auto& path = s.steps[w].path;
    path.recorded = true;
    path.length_ns = length;
    step_keys.clear();
    seen_at.assign(g.event.size(), 0);
    for (auto v = tail; v != k_none && pred[v] != k_none; v = g.edges[pred[v]].from) {
      const auto& e = g.edges[pred[v]];
      if (!e.weight) continue;
      Bound b = Bound::cpu;
      switch (e.type) {
        case EdgeType::launch: b = Bound::launch; break;
        case EdgeType::kernel_kernel: b = Bound::kernel_kernel; break;
        default: {
          const auto i = g.event[e.attr];
          const auto& x = ev[i];
          b = model::is_gpu_work(x.kind) ? (names.comm_kernel(x.name) ? Bound::gpu_comm : Bound::gpu_compute)
              : (!hta && g.loader[e.attr]) ? Bound::data_loading
                                           : Bound::cpu;
          // A slot's first edge on the path asks its row; `seen` then holds its place in step_keys + 2.
          if (!seen_at[e.attr]) {
            ++path.events;
            seen_at[e.attr] = 1;
            if (in_rows(i)) seen_at[e.attr] = static_cast<std::uint32_t>(step_keys.size()) + 2, step_keys.push_back({key_of(i), 0, i});
          }
          if (seen_at[e.attr] >= 2) step_keys[seen_at[e.attr] - 2].ns = cp::capped_sum(step_keys[seen_at[e.attr] - 2].ns, e.weight);
        }
      }
      path.bound_ns[static_cast<std::size_t>(b)] = cp::capped_sum(path.bound_ns[static_cast<std::size_t>(b)], e.weight);
    }
    // --perfetto's step: its events on the path, each with its time there.
    if (options.path_events && options.path_events_step == s.steps[w].step) {
      auto& out = *options.path_events;
      for (auto v = tail; v != k_none && pred[v] != k_none; v = g.edges[pred[v]].from)
        if (const auto& e = g.edges[pred[v]]; e.weight && e.attr != k_none && e.type == EdgeType::op)
          out.push_back({g.event[e.attr], e.weight});
      std::sort(out.begin(), out.end());
      std::size_t n = 0;
      for (std::size_t k = 0; k < out.size(); ++k) {
        if (n && out[n - 1].first == out[k].first) out[n - 1].second = cp::capped_sum(out[n - 1].second, out[k].second);
        else out[n++] = out[k];
      }
      out.resize(n);
    }
    // The step's rows on the path, summed by key.
    std::sort(step_keys.begin(), step_keys.end(), [](const OnPath& a, const OnPath& b) { return a.key < b.key; });
    std::size_t kept = 0;
    for (std::size_t k = 0; k < step_keys.size(); ++k) {
      if (kept && step_keys[kept - 1].key == step_keys[k].key) step_keys[kept - 1].ns = cp::capped_sum(step_keys[kept - 1].ns, step_keys[k].ns);
      else step_keys[kept++] = step_keys[k];
    }
    step_keys.resize(kept);
    for (const auto& k : step_keys) s.path_cells.push_back({k.key, static_cast<std::uint32_t>(w), k.ns});

    // What-ifs: the asked ones, then the step's rows with the most time on the path; each a
    // lane of the sweeps (three lanes a walk).
    std::sort(step_keys.begin(), step_keys.end(), [](const OnPath& a, const OnPath& b) {
      return a.ns != b.ns ? a.ns > b.ns : a.key < b.key;
    });
    if (step_keys.size() > options.auto_rows) step_keys.resize(options.auto_rows);
    // A row with less than a hundredth of the path saves less than that: no what-if. And
    // the rows' what-ifs in at most k_what_if_steps steps of the file, spread over them:
    // their medians are what the report shows (the first step, often a warm-up, left out), their
    // cost bounded in steps.
    while (!step_keys.empty() && step_keys.back().ns * 100 < length) step_keys.pop_back();
    if (steps > k_what_if_steps && ((w + 1) * k_what_if_steps) % steps >= k_what_if_steps) step_keys.clear();
    lanes.clear();
    for (std::uint32_t k = 0; k < options.what_if.size(); ++k) lanes.push_back(k);
    for (const auto& k : step_keys) {
      const auto [it, fresh] = what_index.try_emplace(k.key, static_cast<std::uint32_t>(s.what_ifs.size()));
      if (fresh) s.what_ifs.push_back({"", static_cast<std::int32_t>(k.key), options.auto_factor});
      lanes.push_back(it->second);
    }
    if (lanes.empty() || lanes.size() > 32) continue;
    lane_mask.assign(g.edges.size(), 0);  // which lanes shorten each edge: a bit per lane
    // The rows' lanes: their events (a row's key: name, category, shape), a mask per slot first.
    const std::size_t asked = options.what_if.size();
    if (lanes.size() > asked) {
      slot_mask.assign(g.event.size(), 0);
      for (std::uint32_t k = 0; k < g.event.size(); ++k) {
        const auto& x = event_of(k);
        for (std::size_t l = asked; l < lanes.size(); ++l) {
          const auto& row = ev[step_keys[l - asked].event];
          if (x.name == row.name && x.category == row.category && x.shape == row.shape) slot_mask[k] |= std::uint32_t{1} << l;
        }
      }
      for (std::size_t k = 0; k < g.edges.size(); ++k)
        if (g.edges[k].type == EdgeType::op) lane_mask[k] = slot_mask[g.edges[k].attr];
    }
    for (std::size_t l = 0; l < asked; ++l) {
      const auto bit = std::uint32_t{1} << l;
      const auto& spec = options.what_if[l];
      Family want = Family::other;
      if (spec.target == WhatIfSpec::Target::family) family_from_name(spec.value, want);
      name_is.assign(f.pool.size(), -1);  // per name, once
      for (std::size_t k = 0; k < g.edges.size(); ++k) {
        const auto& e = g.edges[k];
        bool hit = false;
        switch (spec.target) {
          case WhatIfSpec::Target::launch: hit = e.type == EdgeType::launch; break;
          case WhatIfSpec::Target::gaps: hit = e.type == EdgeType::kernel_kernel; break;
          default:
            if (e.type == EdgeType::op) {
              const auto& x = event_of(e.attr);
              auto& v = name_is[x.name];
              if (v < 0)
                v = spec.target == WhatIfSpec::Target::name
                        ? f.pool.get(x.name) == spec.value
                        : x.kind == model::Kind::kernel && classify(f.pool.get(x.name), x.kind) == want;
              hit = v == 1;
            }
        }
        if (hit) lane_mask[k] |= bit;
      }
    }
    factors.clear();
    for (const auto l : lanes) factors.push_back(s.what_ifs[l].factor);
    g.longest_lanes(lane_mask, factors, dist, shorter);
    for (std::size_t l = 0; l < lanes.size(); ++l)
      s.what_if_cells.push_back({lanes[l], static_cast<std::uint32_t>(w), length - shorter[l]});
  }
  std::sort(s.path_cells.begin(), s.path_cells.end(), [](const model::PathCell& a, const model::PathCell& b) {
    return std::tie(a.key, a.step) < std::tie(b.key, b.step);
  });
  std::sort(s.what_if_cells.begin(), s.what_if_cells.end(), [](const model::WhatIfCell& a, const model::WhatIfCell& b) {
    return std::tie(a.what, a.step) < std::tie(b.what, b.step);
  });
}

}  // namespace detail
}  // namespace tracediff::analysis
