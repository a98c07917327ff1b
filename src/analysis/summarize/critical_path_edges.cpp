// A step's graph, its edges (critical_path.cpp says what each edge is): HTA's CUDA runtime
// lock, each host thread's operators as HTA walks its call stacks, the GPU's work on each
// stream with its launches, and the waits: HTA's sync events, and in tracediff's model the
// waits the trace does not record (a host call's for the GPU, work's for another stream).
#include <algorithm>
#include <tuple>

#include "analysis/summarize/critical_path_pass.hpp"

namespace tracediff::analysis::detail::cp {

std::int32_t Queues::of(const std::vector<std::pair<std::uint32_t, std::int32_t>>& v, std::uint32_t e) {
  const auto it = std::lower_bound(v.begin(), v.end(), std::pair<std::uint32_t, std::int32_t>{e, INT32_MIN});
  return it != v.end() && it->first == e ? it->second : -1;
}

namespace {

// HTA's launch calls (its get_runtime_launch_events_mask): a graph launch or a blocking copy
// is none, so its work never gets a launch edge.
bool launch_call(std::string_view name) {
  for (std::string_view n : {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                             "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
                             "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream"})
    if (name == n) return true;
  return false;
}

}  // namespace

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

void Pass::build_edges(std::size_t step) {
  if (m_hta) lock_edges();
  host_edges(step);
  gpu_edges();
}

// HTA: the CUDA runtime lock. Its calls (launches, async copies, host allocations) on every
// thread, in time order: each call's own time, and from every call still open when one
// ends, and from the last end, a dependency to that end.
void Pass::lock_edges() {
  std::vector<std::uint32_t> nodes;
  for (const auto slot : m_host)
    if (fact(event_of(slot).name) & k_lock) nodes.push_back(Graph::start(slot)), nodes.push_back(Graph::end(slot));
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
        const auto s = open.back();
        open.pop_back();
        if (s == n - 1) g.edge(s, n, EdgeType::op, false, s / 2);
        else g.edge(s, n, EdgeType::dependency, true);
      }
      if (prev != k_none && prev % 2 == 1) g.edge(prev, n, EdgeType::dependency, true);
    }
    prev = n;
  }
}

// Host: each thread's operators nested by time, walked as HTA walks its call stacks (by
// thread, start, longer first): from one boundary to the next inside an operator, from one
// top-level operator's end to the next one's start.
void Pass::host_edges(std::size_t step) {
  // This step's loader spans; an operator that starts inside one on its thread.
  const auto spans_from = std::lower_bound(m_loader_spans.begin(), m_loader_spans.end(),
                                           LoaderSpan{static_cast<std::int32_t>(step), 0, INT64_MIN, INT64_MIN});
  const auto spans_to = std::lower_bound(spans_from, m_loader_spans.end(),
                                         LoaderSpan{static_cast<std::int32_t>(step) + 1, 0, INT64_MIN, INT64_MIN});
  const auto in_loader = [&](const model::Event& e) {
    for (auto it = spans_from; it != spans_to; ++it)
      if (it->thread == thread(e) && it->begin <= e.ts_ns && e.ts_ns < it->end) return true;
    return false;
  };
  const auto blocking = [&](std::uint32_t slot) {
    const auto i = g.event[slot];
    return m_hta ? (m_ev[i].kind == model::Kind::runtime && (fact(m_ev[i].name) & k_hta_blocking)) : m_waiting.flag[i] != 0;
  };
  // Two nodes of HTA's lock calls are joined by lock_edges, not here (but for the gap from
  // one call's end to the next one's start).
  const auto lock = [&](std::uint32_t node) { return m_hta && (fact(event_of(node / 2).name) & k_lock); };
  const auto shares_lock = [&](std::uint32_t a, std::uint32_t b) { return lock(a) && lock(b) && !(a % 2 == 1 && b % 2 == 0); };

  // The backward pass runs on the autograd engine's thread while the step's thread waits in
  // backward(): one chain with the step's thread, forward, then backward, then the optimizer
  // (HTA merges them too, where its names allow).
  m_engine.clear();
  if (!m_hta && m_step_thread[step])
    for (const auto slot : m_host)
      if (const auto& e = event_of(slot); fact(e.name) & k_engine)
        if (thread(e) != m_step_thread[step] && std::find(m_engine.begin(), m_engine.end(), thread(e)) == m_engine.end())
          m_engine.push_back(thread(e));
  // Grouped by chain keeping file order, in which Kineto writes a thread's events nearly
  // sorted: merged by runs, a sort only where they are not.
  m_threads.clear();
  m_thread_of.clear();
  m_chain.resize(g.event.size());
  for (const auto slot : m_host) {
    auto t = thread(event_of(slot));
    if (std::find(m_engine.begin(), m_engine.end(), t) != m_engine.end()) t = m_step_thread[step];
    m_chain[slot] = t;
    std::size_t k = 0;
    while (k < m_threads.size() && m_threads[k].first != t) ++k;
    if (k == m_threads.size()) m_threads.push_back({t, 0});
    ++m_threads[k].second;
    m_thread_of.push_back(static_cast<std::uint32_t>(k));
  }
  // Chains in (pid, tid) order, as HTA's groups; each its range of m_host.
  std::vector<std::size_t> rank(m_threads.size()), at(m_threads.size() + 1, 0), start(m_threads.size());
  for (std::size_t k = 0; k < rank.size(); ++k) rank[k] = k;
  std::sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return m_threads[a].first < m_threads[b].first; });
  for (std::size_t r = 0; r < rank.size(); ++r) start[rank[r]] = at[r], at[r + 1] = at[r] + m_threads[rank[r]].second;
  m_grouped.resize(m_host.size());
  for (std::size_t k = 0; k < m_host.size(); ++k) m_grouped[start[m_thread_of[k]]++] = m_host[k];
  m_host.swap(m_grouped);
  const auto before = [&](std::uint32_t a, std::uint32_t b) {
    const auto sa = g.ts[Graph::start(a)], sb = g.ts[Graph::start(b)];
    if (sa != sb) return sa < sb;
    const auto ea = g.ts[Graph::end(a)], eb = g.ts[Graph::end(b)];
    if (ea != eb) return ea > eb;  // the longer first
    return a < b;
  };
  for (std::size_t r = 0; r < rank.size(); ++r) merge_runs(m_host.data() + at[r], m_host.data() + at[r + 1], before, m_grouped);

  m_stack.clear();
  std::uint32_t last = k_none, last_top = k_none, last_parent = k_none;
  const auto exit_top = [&] {
    const auto slot = m_stack.back();
    m_stack.pop_back();
    if (last != k_none && !shares_lock(last, Graph::end(slot))) g.edge(last, Graph::end(slot), EdgeType::op, blocking(slot), slot);
    if (m_stack.empty()) last = k_none, last_top = Graph::end(slot);
    else last = Graph::end(slot), last_parent = m_stack.back();
  };
  for (std::size_t k = 0; k < m_host.size(); ++k) {
    const auto slot = m_host[k];
    const auto& e = event_of(slot);
    if (k > 0 && m_chain[m_host[k - 1]] != m_chain[slot]) {
      while (!m_stack.empty()) exit_top();
      last = last_top = last_parent = k_none;
    }
    while (!m_stack.empty() && g.ts[Graph::end(m_stack.back())] <= e.ts_ns) exit_top();
    if (m_stack.empty() && last_top != k_none) g.edge(last_top, Graph::start(slot), EdgeType::dependency, true);
    // From a start, the time is that operator's; from an end (a sibling's), the parent's.
    if (last != k_none && !shares_lock(last, Graph::start(slot)))
      g.edge(last, Graph::start(slot), EdgeType::op, false, last % 2 == 0 ? last / 2 : last_parent);
    const auto parent = m_stack.empty() ? k_none : m_stack.back();
    g.loader[slot] = (fact(e.name) & k_loader) || (parent != k_none && g.loader[parent]) || in_loader(e);
    last = Graph::start(slot);
    last_parent = parent;
    m_stack.push_back(slot);
  }
  while (!m_stack.empty()) exit_top();
}

// GPU: work by start (a sync event by its end), each stream's last work at hand; then the
// host calls that waited for it.
void Pass::gpu_edges() {
  m_gpu_order.clear();
  for (const auto slot : m_gpu) {
    const auto& x = event_of(slot);
    m_gpu_order.push_back({x.kind == model::Kind::cuda_sync ? x.ts_ns + x.dur_ns : x.ts_ns, slot});
  }
  if (!std::is_sorted(m_gpu_order.begin(), m_gpu_order.end())) std::sort(m_gpu_order.begin(), m_gpu_order.end());
  std::vector<std::pair<std::uint64_t, std::uint32_t>> last_on;  // (stream, end node)
  const auto last_of = [&](std::uint64_t stream) -> std::uint32_t& {
    for (auto& [s, n] : last_on)
      if (s == stream) return n;
    last_on.push_back({stream, k_none});
    return last_on.back().second;
  };
  const auto launch_slot = [&](const model::Event& e) -> std::uint32_t {
    const auto l = e.correlation >= 0 ? m_launch_of.find(e.correlation) : -1;
    return l < 0 ? k_none : g.slot_of(static_cast<std::uint32_t>(l));
  };
  // The GPU work's ends, for the waits the trace does not record (tracediff's model).
  m_ends.clear();
  if (!m_hta)
    for (const auto slot : m_gpu)
      if (model::is_gpu_work(event_of(slot).kind)) m_ends.push_back({g.ts[Graph::end(slot)], slot});
  if (!std::is_sorted(m_ends.begin(), m_ends.end())) std::sort(m_ends.begin(), m_ends.end());
  // The work on the same device, another stream, that ended last at or before `t`.
  const auto ended_before = [&](const model::Event& e, std::int64_t t) -> std::uint32_t {
    auto it = std::upper_bound(m_ends.begin(), m_ends.end(), std::pair<std::int64_t, std::uint32_t>{t, k_none});
    for (int look = 0; it != m_ends.begin() && look < 64; ++look) {
      const auto& x = event_of((--it)->second);
      if (x.pid == e.pid) return x.tid != e.tid ? it->second : k_none;
    }
    return k_none;
  };
  for (const auto& [when, slot] : m_gpu_order) {
    const auto& e = event_of(slot);
    const auto stream = thread(e);
    const auto r = launch_slot(e);
    if (e.kind == model::Kind::cuda_sync) {  // HTA: GPU to host at the call's end
      if (r == k_none) continue;
      for (auto& [s, n] : last_on)
        if (n != k_none && ((fact(e.name) & k_context_sync) || s == stream) && g.ts[n] <= g.ts[Graph::end(r)])
          g.edge(n, Graph::end(r), EdgeType::sync, true);
      continue;
    }
    g.edge(Graph::start(slot), Graph::end(slot), EdgeType::op, false, slot);
    auto& prev = last_of(stream);
    if (m_hta) {
      // HTA: a launch edge when the stream's queue was empty at the launch and at the start.
      const auto i = g.event[slot];
      if (r != k_none && Queues::of(m_queues.at_launch, i) == 1 && Queues::of(m_queues.at_start, i) == 0 &&
          (prev == k_none || g.ts[prev] < g.ts[Graph::start(r)]))
        g.edge(Graph::start(r), Graph::start(slot), EdgeType::launch, false);
      else if (prev != k_none)
        g.edge(prev, Graph::start(slot), EdgeType::kernel_kernel, false, prev / 2);
      prev = Graph::end(slot);
      continue;
    }
    // The work could start once its stream's last work ended and it was launched. If it
    // started later, after work on another stream of its device ended, it waited on the
    // last such work (cudaStreamWaitEvent, or a full device: HTA sees the first only with
    // the trace's cuda_sync events); else the host's launch was late (the stream idle when
    // it came: the launch is on the path) or the GPU left a gap of its own.
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
  // A call that waited for the GPU waited for the work that ended last before it returned
  // (HTA needs the trace's cuda_sync events, and never sees a blocking copy's).
  if (m_hta || m_ends.empty()) return;
  for (const auto slot : m_host) {
    if (!m_waiting.flag[g.event[slot]]) continue;
    const auto done = g.ts[Graph::end(slot)];
    auto it = std::upper_bound(m_ends.begin(), m_ends.end(), std::pair<std::int64_t, std::uint32_t>{done, k_none});
    if (it == m_ends.begin() || std::prev(it)->first <= g.ts[Graph::start(slot)]) continue;
    g.edge(Graph::end(std::prev(it)->second), Graph::end(slot), EdgeType::sync, true);
  }
}

}  // namespace tracediff::analysis::detail::cp
