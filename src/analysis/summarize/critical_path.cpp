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
// step's graph, Kahn's order and one sweep find the path; each what-if sweeps again.
#include "analysis/summarize/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analysis/names/kernel_families.hpp"
#include "analysis/summarize/file_pass.hpp"
#include "util/saturating.hpp"

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

enum class EdgeType : std::uint8_t { op, dependency, launch, kernel_kernel, sync };
constexpr std::uint32_t k_none = ~0u;

struct Edge {
  std::uint32_t from, to;
  std::int64_t weight;
  std::uint32_t attr;  // the slot the edge's time belongs to (operator and kernel-kernel edges), else k_none
  EdgeType type;
};

// One step's graph. Slot j is an event of the step; its nodes are 2j (start) and 2j+1 (end).
struct Graph {
  std::vector<std::uint32_t> event;  // per slot
  std::vector<std::uint8_t> loader;  // per slot: inside the data loader
  std::vector<std::int64_t> ts;      // per node
  std::vector<Edge> edges;
  std::vector<std::uint32_t> order;  // nodes in a topological order
  std::vector<std::uint32_t> out_at, out;  // edges by source node (CSR)

  void clear() {
    event.clear(), loader.clear(), ts.clear(), edges.clear(), order.clear(), out_at.clear(), out.clear();
  }
  std::uint32_t add(std::uint32_t e, std::int64_t begin, std::int64_t end) {
    const auto slot = static_cast<std::uint32_t>(event.size());
    event.push_back(e);
    loader.push_back(0);
    ts.push_back(begin);
    ts.push_back(end);
    return slot;
  }
  static std::uint32_t start(std::uint32_t slot) { return 2 * slot; }
  static std::uint32_t end(std::uint32_t slot) { return 2 * slot + 1; }
  void edge(std::uint32_t from, std::uint32_t to, EdgeType type, bool zero, std::uint32_t attr = k_none) {
    const bool weighted = !zero && type != EdgeType::dependency && type != EdgeType::sync;
    edges.push_back({from, to, weighted ? std::max<std::int64_t>(0, ts[to] - ts[from]) : 0, attr, type});
  }
  // Kahn's order over the edges; nodes on a cycle (clocks that disagree) are left out of it.
  void sort() {
    const auto n = ts.size();
    out_at.assign(n + 1, 0);
    std::vector<std::uint32_t> in(n, 0);
    for (const auto& e : edges) ++out_at[e.from + 1], ++in[e.to];
    for (std::size_t i = 0; i < n; ++i) out_at[i + 1] += out_at[i];
    out.resize(edges.size());
    std::vector<std::uint32_t> fill(out_at.begin(), out_at.end() - 1);
    for (std::uint32_t i = 0; i < edges.size(); ++i) out[fill[edges[i].from]++] = i;
    order.clear();
    order.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v)
      if (!in[v]) order.push_back(v);
    for (std::size_t at = 0; at < order.size(); ++at)
      for (auto k = out_at[order[at]]; k < out_at[order[at] + 1]; ++k)
        if (!--in[edges[out[k]].to]) order.push_back(edges[out[k]].to);
  }
  // The longest path's length with each edge's weight from `weight`; `pred`, when given,
  // gets each node's edge on its longest path in (k_none: it starts one). Of paths equally
  // long, `prefer_work` takes the one with the most work (operators and kernels, not gaps
  // or launch delays): on a busy GPU every stream's chain spans the step, and the one
  // that ran is what set its length. Else the first found, as HTA's networkx does.
  template <typename Weight>
  std::pair<std::int64_t, std::uint32_t> longest(Weight weight, std::vector<std::uint32_t>* pred,
                                                 std::vector<std::int64_t>& dist, bool prefer_work,
                                                 std::vector<std::int64_t>& work) const {
    dist.assign(ts.size(), 0);
    if (prefer_work) work.assign(ts.size(), 0);
    if (pred) pred->assign(ts.size(), k_none);
    std::int64_t best = 0, best_work = 0;
    std::uint32_t at = order.empty() ? k_none : order.front();
    for (const auto u : order) {
      if (dist[u] > best || (prefer_work && dist[u] == best && work[u] > best_work))
        best = dist[u], best_work = prefer_work ? work[u] : 0, at = u;
      for (auto k = out_at[u]; k < out_at[u + 1]; ++k) {
        const auto& e = edges[out[k]];
        const auto w = weight(out[k], e);
        const auto d = dist[u] + w;
        bool take = d > dist[e.to] || (pred && (*pred)[e.to] == k_none && d == dist[e.to]);
        std::int64_t wk = 0;
        if (prefer_work) {
          wk = work[u] + (e.type == EdgeType::op ? w : 0);
          take = d > dist[e.to] || (d == dist[e.to] && (wk > work[e.to] || (pred && (*pred)[e.to] == k_none)));
        }
        if (take) {
          dist[e.to] = d;
          if (prefer_work) work[e.to] = wk;
          if (pred) (*pred)[e.to] = out[k];
        }
      }
    }
    return {best, at};
  }
};

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

  // Per name: HTA's blocking calls, the sync events it reads, the data loader.
  enum : std::uint8_t {
    k_known = 1,
    k_hta_blocking = 2,
    k_context_sync = 4,
    k_stream_sync = 8,
    k_loader = 16,
    k_lock = 32,  // HTA's CUDA runtime lock calls
  };
  std::vector<std::uint8_t> facts(f.pool.size(), 0);
  const auto fact = [&](std::uint32_t name) {
    auto& x = facts[name];
    if (!x) {
      const auto n = f.pool.get(name);
      x = k_known;
      for (std::string_view b : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
                                 "cudaEventSynchronize", "cudaMemcpy", "cudaMemcpyAsync"})
        if (n == b) x |= k_hta_blocking;
      for (std::string_view b : {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync"})
        if (n == b) x |= k_lock;
      if (n == "Context Sync") x |= k_context_sync;
      if (n == "Stream Sync") x |= k_stream_sync;
      if (!options.data_load_pattern.empty() && n.find(options.data_load_pattern) != std::string_view::npos) x |= k_loader;
    }
    return x;
  };

  // The step of each event the graph takes, by a counting sort.
  bool has_sync_events = false;
  std::pmr::vector<std::int32_t> step_of(ev.size(), -1, memory);
  std::vector<std::uint32_t> count(steps + 1, 0);
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    std::int32_t st = -1;
    if (e.kind == model::Kind::cpu_op || e.kind == model::Kind::runtime) {
      if (e.dur_ns > 0 && (hta || (!profiler[i] && !names.step_span(e)))) st = windows.step_at[i];
    } else if (model::is_gpu_work(e.kind) || e.kind == model::Kind::cuda_sync) {
      const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
      if (e.kind == model::Kind::cuda_sync) {
        has_sync_events = true;
        if (l >= 0 && (fact(e.name) & (k_context_sync | k_stream_sync))) st = windows.step_at[static_cast<std::size_t>(l)];
      } else if (l >= 0 ? ev[static_cast<std::size_t>(l)].dur_ns > 0 : !hta) {
        st = windows.step_at[i];
      }
    }
    step_of[i] = st;
    if (st >= 0) ++count[static_cast<std::size_t>(st) + 1];
  }
  for (std::size_t k = 0; k < steps; ++k) count[k + 1] += count[k];
  std::vector<std::uint32_t> by_step(count.back());
  {
    auto fill = count;
    for (std::uint32_t i = 0; i < ev.size(); ++i)
      if (step_of[i] >= 0) by_step[fill[static_cast<std::size_t>(step_of[i])]++] = i;
  }
  const auto queues = queue_lengths(f, launch_of);

  Graph g;
  std::pmr::vector<std::uint32_t> slot_of(ev.size(), k_none, memory);  // valid for the step being built
  std::vector<std::uint32_t> host, gpu, pred, slot_key;
  std::vector<std::int64_t> dist, work;
  std::unordered_map<std::uint32_t, std::uint32_t> what_index;  // key -> index into s.what_ifs (rows' what-ifs)
  for (const auto& spec : options.what_if) s.what_ifs.push_back({spec.text, -1, spec.factor});
  std::vector<std::pair<std::uint32_t, std::int64_t>> step_keys;  // (key, ns) of this step

  for (std::size_t w = 0; w < steps; ++w) {
    g.clear();
    host.clear(), gpu.clear();
    for (auto k = count[w]; k < count[w + 1]; ++k) {
      const auto i = by_step[k];
      const auto& e = ev[i];
      slot_of[i] = g.add(i, e.ts_ns, e.ts_ns + e.dur_ns);
      (model::device_of(e.kind) == model::Device::cpu ? host : gpu).push_back(slot_of[i]);
    }
    if (g.event.empty()) continue;
    const auto event_of = [&](std::uint32_t slot) -> const model::Event& { return ev[g.event[slot]]; };
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

    // Host: each thread's operators nested by time, walked as HTA walks its call stacks.
    std::sort(host.begin(), host.end(), [&](std::uint32_t a, std::uint32_t b) {
      const auto &x = event_of(a), &y = event_of(b);
      return std::make_tuple(x.pid, x.tid, x.ts_ns, -x.dur_ns, g.event[a]) <
             std::make_tuple(y.pid, y.tid, y.ts_ns, -y.dur_ns, g.event[b]);
    });
    std::vector<std::uint32_t> stack;
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
      if (k > 0 && (event_of(host[k - 1]).pid != e.pid || event_of(host[k - 1]).tid != e.tid)) {
        while (!stack.empty()) exit_top();
        last = last_top = last_parent = k_none;
      }
      while (!stack.empty() && g.ts[Graph::end(stack.back())] <= e.ts_ns) exit_top();
      if (stack.empty() && last_top != k_none) g.edge(last_top, Graph::start(slot), EdgeType::dependency, true);
      // From a start, the time is that operator's; from an end (a sibling's), the parent's.
      if (last != k_none && !shares_lock(last, Graph::start(slot)))
        g.edge(last, Graph::start(slot), EdgeType::op, false, last % 2 == 0 ? last / 2 : last_parent);
      const auto parent = stack.empty() ? k_none : stack.back();
      g.loader[slot] = (fact(e.name) & k_loader) || (parent != k_none && g.loader[parent]);
      last = Graph::start(slot);
      last_parent = parent;
      stack.push_back(slot);
    }
    while (!stack.empty()) exit_top();

    // GPU: work by start (a sync event by its end), each stream's last work at hand.
    std::sort(gpu.begin(), gpu.end(), [&](std::uint32_t a, std::uint32_t b) {
      const auto &x = event_of(a), &y = event_of(b);
      const auto tx = x.kind == model::Kind::cuda_sync ? x.ts_ns + x.dur_ns : x.ts_ns;
      const auto ty = y.kind == model::Kind::cuda_sync ? y.ts_ns + y.dur_ns : y.ts_ns;
      return std::tie(tx, g.event[a]) < std::tie(ty, g.event[b]);
    });
    std::vector<std::pair<std::uint64_t, std::uint32_t>> last_on;  // (stream, end node)
    const auto last_of = [&](std::uint64_t stream) -> std::uint32_t& {
      for (auto& [s_, n] : last_on)
        if (s_ == stream) return n;
      last_on.push_back({stream, k_none});
      return last_on.back().second;
    };
    const auto launch_slot = [&](const model::Event& e) -> std::uint32_t {
      const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
      if (l < 0) return k_none;
      const auto slot = slot_of[static_cast<std::size_t>(l)];
      return slot < g.event.size() && g.event[slot] == static_cast<std::uint32_t>(l) ? slot : k_none;
    };
    // The GPU work's ends, for the waits the trace does not record (below).
    const bool infer = !hta;
    std::vector<std::pair<std::int64_t, std::uint32_t>> ends;  // (end, slot) of the step's GPU work
    if (infer)
      for (const auto slot : gpu)
        if (model::is_gpu_work(event_of(slot).kind)) ends.push_back({g.ts[Graph::end(slot)], slot});
    std::sort(ends.begin(), ends.end());
    // The work on the same device, another stream, that ended last at or before `t`.
    const auto ended_before = [&](const model::Event& e, std::int64_t t) -> std::uint32_t {
      auto it = std::upper_bound(ends.begin(), ends.end(), std::pair<std::int64_t, std::uint32_t>{t, k_none});
      for (int look = 0; it != ends.begin() && look < 64; ++look) {
        const auto& x = event_of((--it)->second);
        if (x.pid == e.pid) return x.tid != e.tid ? it->second : k_none;
      }
      return k_none;
    };
    for (const auto slot : gpu) {
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
      const std::int64_t ready = std::max(prev == k_none ? INT64_MIN : g.ts[prev], r == k_none ? INT64_MIN : g.ts[Graph::start(r)]);
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
    // Each slot's row (k_none: in none), asked once.
    slot_key.assign(g.event.size(), k_none);
    for (std::uint32_t k = 0; k < g.event.size(); ++k)
      if (in_rows(g.event[k])) slot_key[k] = key_of(g.event[k]);
    const auto plain = [&](std::uint32_t, const Edge& e) { return e.weight; };
    const auto [length, tail] = g.longest(plain, &pred, dist, !hta, work);
    auto& path = s.steps[w].path;
    path.recorded = true;
    path.length_ns = length;
    step_keys.clear();
    std::vector<std::uint8_t> seen;  // per slot: counted among the path's events
    seen.assign(g.event.size(), 0);
    for (auto v = tail; v != k_none && pred[v] != k_none; v = g.edges[pred[v]].from) {
      const auto& e = g.edges[pred[v]];
      if (!e.weight) continue;
      Bound b = Bound::cpu;
      switch (e.type) {
        case EdgeType::launch: b = Bound::launch; break;
        case EdgeType::kernel_kernel: b = Bound::kernel_kernel; break;
        default: {
          const auto& x = event_of(e.attr);
          b = model::is_gpu_work(x.kind) ? (names.comm_kernel(x.name) ? Bound::gpu_comm : Bound::gpu_compute)
              : (!hta && g.loader[e.attr]) ? Bound::data_loading
                                           : Bound::cpu;
          if (!seen[e.attr]) seen[e.attr] = 1, ++path.events;
          if (slot_key[e.attr] != k_none) step_keys.push_back({slot_key[e.attr], e.weight});
        }
      }
      add_sat(path.bound_ns[static_cast<std::size_t>(b)], e.weight);
    }
    // The step's rows on the path, summed by key.
    std::sort(step_keys.begin(), step_keys.end());
    std::size_t kept = 0;
    for (std::size_t k = 0; k < step_keys.size(); ++k) {
      if (kept && step_keys[kept - 1].first == step_keys[k].first) step_keys[kept - 1].second += step_keys[k].second;
      else step_keys[kept++] = step_keys[k];
    }
    step_keys.resize(kept);
    for (const auto& [key, ns] : step_keys) s.path_cells.push_back({key, static_cast<std::uint32_t>(w), ns});

    // What-ifs: the asked ones, then the step's rows with the most time on the path.
    const auto what_if = [&](std::uint32_t what, const auto& matches) {
      const double factor = s.what_ifs[what].factor;
      const auto shorter = g.longest(
          [&](std::uint32_t, const Edge& e) {
            return matches(e) ? static_cast<std::int64_t>(std::llround(static_cast<double>(e.weight) * factor)) : e.weight;
          },
          nullptr, dist, false, work);
      s.what_if_cells.push_back({what, static_cast<std::uint32_t>(w), length - shorter.first});
    };
    for (std::uint32_t k = 0; k < options.what_if.size(); ++k) {
      const auto& spec = options.what_if[k];
      switch (spec.target) {
        case WhatIfSpec::Target::launch: what_if(k, [](const Edge& e) { return e.type == EdgeType::launch; }); break;
        case WhatIfSpec::Target::gaps: what_if(k, [](const Edge& e) { return e.type == EdgeType::kernel_kernel; }); break;
        case WhatIfSpec::Target::family:
        case WhatIfSpec::Target::name: {
          Family want = Family::other;
          if (spec.target == WhatIfSpec::Target::family) family_from_name(spec.value, want);
          std::vector<std::int8_t> is(f.pool.size(), -1);  // per name, once
          what_if(k, [&](const Edge& e) {
            if (e.type != EdgeType::op) return false;
            const auto& x = event_of(e.attr);
            auto& v = is[x.name];
            if (v < 0)
              v = spec.target == WhatIfSpec::Target::name
                      ? f.pool.get(x.name) == spec.value
                      : x.kind == model::Kind::kernel && classify(f.pool.get(x.name), x.kind) == want;
            return v == 1;
          });
          break;
        }
      }
    }
    std::sort(step_keys.begin(), step_keys.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (step_keys.size() > options.auto_rows) step_keys.resize(options.auto_rows);
    for (const auto& [key, ns] : step_keys) {
      const auto [it, fresh] = what_index.try_emplace(key, static_cast<std::uint32_t>(s.what_ifs.size()));
      if (fresh) s.what_ifs.push_back({"", static_cast<std::int32_t>(key), options.auto_factor});
      what_if(it->second, [&](const Edge& e) {
        return e.type == EdgeType::op && slot_key[e.attr] == key;
      });
    }
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
