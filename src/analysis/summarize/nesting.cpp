// The nesting of host events, thread by thread (file_pass.hpp: nest).
#include <algorithm>
#include <type_traits>
#include <unordered_map>

#include "analysis/summarize/file_pass.hpp"
#include "analysis/summarize/memory_events.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis::detail {

// The calls that block until the GPU has done the work queued before it
// (docs/reading-the-report.md "The host waiting for the GPU"): stream, device, event (and
// context) synchronisation, all of it; and a copy that blocks, from or to pageable memory in
// either direction or by a synchronous call (cudaMemcpy, hipMemcpyWithStream): the call less
// its copy's own time, which is transfer, not waiting. An asynchronous copy between pinned
// memory and the device does not block.
WaitingCalls waiting_calls(const model::TraceFile& f, const LaunchIndex& launch_of, std::pmr::memory_resource* memory) {
  const auto& ev = f.events;
  WaitingCalls out{std::pmr::vector<std::uint8_t>(ev.size(), 0, memory), {}};
  std::vector<std::int8_t> sync(f.pool.size(), -1);  // per name: a synchronisation call
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    if (e.kind == Kind::runtime) {
      auto& k = sync[e.name];
      if (k < 0) k = f.pool.get(e.name).find("Synchronize") != std::string_view::npos;
      out.flag[i] |= static_cast<std::uint8_t>(k);
    } else if (e.kind == Kind::gpu_memcpy && e.correlation >= 0) {
      const auto l = launch_of.find(e.correlation);
      if (l < 0 || ev[static_cast<std::size_t>(l)].kind != Kind::runtime) continue;
      const auto& launch = ev[static_cast<std::size_t>(l)];
      const auto call = f.pool.get(launch.name);
      const auto copy = f.pool.get(e.name);
      if (call.find("Memcpy") == std::string_view::npos ||
          (copy.find("Pageable") == std::string_view::npos && call.find("Async") != std::string_view::npos))
        continue;
      out.flag[static_cast<std::size_t>(l)] = 1;
      out.copy_wait.push_back({static_cast<std::uint32_t>(l), std::max<std::int64_t>(0, launch.dur_ns - e.dur_ns)});
    }
  }
  std::sort(out.copy_wait.begin(), out.copy_wait.end());
  return out;
}

// Host event indices grouped by thread ((pid, tid) pool ids), each group in file
// order: a counting sort on a dense thread number, instead of a map lookup per event.
namespace {

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

}  // namespace

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
//  - each memory event's operator: the innermost cpu_op open on its thread when it
//    happened (the thread's memory events merged in by time); each host event's device
//    allocations, its children's included, handed to its parent when it is popped;
//  - each event's call-tree node: its name under the node of the event around it.
//    Step spans and events outside every step are no nodes: their children hang where
//    they would. Past k_tree_depth, events are part of the deepest node around them.
// ProfilerStep spans (a cpu_op in PyTorch <= 1.8) enclose a step: no operator, no
// launcher, no busy time of their own.
// Every pass is O(1) amortised per event whatever the shape (overlapping events,
// deep stacks, a name in many categories): each stack entry carries what a walk down
// the stack would find.
Nesting nest(const model::TraceFile& f, NameFacts& names, const KeyIds& keys, StepWindows& windows, Paths& paths,
             LauncherLevel level, ShapedNames& shaped, std::uint32_t stop_sync, const WaitingCalls& waiting,
             std::pmr::memory_resource* memory) {
  const auto& ev = f.events;
  Nesting n{std::pmr::vector<std::int64_t>(memory), {}, std::pmr::vector<std::uint32_t>(memory),
            std::pmr::vector<std::uint32_t>(memory), std::pmr::vector<std::uint8_t>(memory), {}, {}, {}, {}};
  n.profiler.assign(ev.size(), 0);
  n.self_ns.resize(ev.size());  // a host event's starts at its duration when it is met
  n.launcher.assign(ev.size(), ~0u);
  n.node.assign(ev.size(), model::k_tree_top);
  std::vector<std::uint32_t> group_end;
  auto order = by_thread(ev, group_end, memory);
  const auto before = [&](std::uint32_t a, std::uint32_t b) {
    if (ev[a].ts_ns != ev[b].ts_ns) return ev[a].ts_ns < ev[b].ts_ns;
    if (ev[a].dur_ns != ev[b].dur_ns) return ev[a].dur_ns > ev[b].dur_ns;
    return a < b;
  };
  const auto step_span = [&](std::uint32_t i) { return names.step_span(ev[i]); };
  // Whether [b, e] holds a whole step window: a frame around a step is the program's
  // (a harness that runs the profiler), whatever its name. Windows by start.
  std::vector<std::pair<std::int64_t, std::int64_t>> step_windows;
  for (std::size_t w = 0; w < windows.begin.size(); ++w) step_windows.push_back({windows.begin[w], windows.end[w]});
  std::sort(step_windows.begin(), step_windows.end());
  const auto encloses_step = [&](std::int64_t b, std::int64_t e) {
    auto it = std::lower_bound(step_windows.begin(), step_windows.end(), std::pair{b, INT64_MIN});
    for (; it != step_windows.end() && it->first <= e; ++it)
      if (it->second <= e) return true;
    return false;
  };
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
    std::int64_t profiler_end;  // the latest end among the profiler's frames at or below it (INT64_MIN: none)
    bool in_wait;         // a waiting call at or below it
    std::int64_t waited;  // the thread's wait count when it was pushed
    std::int64_t alloc_bytes = 0;  // device allocations inside it so far, its children's included
    std::uint64_t allocs = 0;
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
    const auto bytes = o.alloc_bytes;
    const auto allocs = o.allocs;
    if (allocs) n.allocated_in.push_back({o.event, bytes, allocs});
    stack.pop_back();
    if (allocs && !stack.empty()) {
      add_sat(stack.back().alloc_bytes, bytes);
      stack.back().allocs += allocs;
    }
  };
  // The memory events by thread ((pid, tid) pool ids, as the host events': a tid written
  // as text and one written as a number intern alike), then time, then file order.
  const auto& mem = f.memory;
  n.mem_owner.assign(mem.size(), k_none);
  const auto thread_of = [](std::uint32_t pid, std::uint32_t tid) { return (std::uint64_t{pid} << 32) | tid; };
  std::vector<std::uint32_t> mem_order(mem.size());
  for (std::uint32_t j = 0; j < mem.size(); ++j) mem_order[j] = j;
  std::stable_sort(mem_order.begin(), mem_order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto ta = thread_of(mem[a].pid, mem[a].tid), tb = thread_of(mem[b].pid, mem[b].tid);
    return ta != tb ? ta < tb : mem[a].ts_ns < mem[b].ts_ns;
  });
  const std::uint32_t* mem_at = nullptr;
  const std::uint32_t* mem_stop = nullptr;
  // The thread's memory events before `until`, each charged to the events open then.
  const auto drain = [&](std::int64_t until) {
    for (; mem_at != mem_stop && mem[*mem_at].ts_ns < until; ++mem_at) {
      const auto& m = mem[*mem_at];
      while (!stack.empty() && ev[stack.back().event].ts_ns + ev[stack.back().event].dur_ns <= m.ts_ns) pop();
      if (stack.empty()) continue;
      n.mem_owner[*mem_at] = stack.back().op;
      if (device_allocation(m)) {
        add_sat(stack.back().alloc_bytes, m.bytes);
        ++stack.back().allocs;
      }
    }
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
      if (seg_step >= 0) add_sat(busy[static_cast<std::size_t>(seg_step)], seg_end - seg_begin);
    };
    stack.clear();
    owed.clear();
    waited = 0;
    if (first != last) {
      const auto thread = thread_of(ev[*first].pid, ev[*first].tid);
      const auto [lo, hi] = std::equal_range(mem_order.begin(), mem_order.end(), thread, [&](auto a, auto b) {
        if constexpr (std::is_same_v<decltype(a), std::uint64_t>) return a < thread_of(mem[b].pid, mem[b].tid);
        else return thread_of(mem[a].pid, mem[a].tid) < b;
      });
      mem_at = mem_order.data() + (lo - mem_order.begin());
      mem_stop = mem_order.data() + (hi - mem_order.begin());
    }
    for (const auto* it = first; it != last; ++it) {
      const auto i = *it;
      const auto begin = ev[i].ts_ns, end = begin + ev[i].dur_ns;
      drain(begin);
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
      n.self_ns[i] = ev[i].dur_ns;  // less the time of the children met from here on
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
      // The profiler's work is what lies wholly inside one of its frames: an event that
      // only starts in one (a step span, the program after prof.step()) is not, nor is a
      // step span, nor a frame of its name that encloses a step (a harness).
      const std::int64_t outer_profiler_end = stack.empty() ? INT64_MIN : stack.back().profiler_end;
      const bool inside = !step_span(i) && end <= outer_profiler_end && begin < outer_profiler_end;
      const bool own_frame = !step_span(i) && names.profiler(ev[i].name) && !encloses_step(begin, end);
      const bool profiler = inside || own_frame || (i == stop_sync && stack.empty());
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
      const bool wait = waiting.flag[i] && !profiler && !outer_wait;  // nested waits are inside this one
      // A blocking copy waits from its start until its own transfer can begin.
      const std::int64_t wait_end = wait ? begin + waiting.wait_of(i, end - begin) : begin;
      stack.push_back({i, same, std::max(end, covered), launcher, context ? i : outer_context, node, depth,
                       op ? i : outer_op, own_frame ? std::max(end, outer_profiler_end) : outer_profiler_end,
                       wait || outer_wait, waited});
      if (wait && wait_end > begin) {
        waited += wait_end - begin;
        if (runs_ops) {
          if (!n.waits.empty() && begin <= n.waits.back().second)
            n.waits.back().second = std::max(n.waits.back().second, wait_end);
          else
            n.waits.push_back({begin, wait_end});
          if (const std::int64_t st = windows.step_at[i]; st >= 0) {
            const auto w = static_cast<std::size_t>(st);
            add_sat(windows.host_wait[w], std::max<std::int64_t>(
                0, std::min(wait_end, windows.end[w]) - std::max(begin, windows.begin[w])));
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
    drain(INT64_MAX);
    while (!stack.empty()) pop();
  }
  for (auto& v : n.self_ns) v = std::max<std::int64_t>(0, v);
  std::sort(n.incl_less.begin(), n.incl_less.end());  // threads were visited one by one
  std::sort(n.wait_in.begin(), n.wait_in.end());
  std::sort(n.allocated_in.begin(), n.allocated_in.end(),
            [](const Nesting::Allocated& a, const Nesting::Allocated& b) { return a.event < b.event; });
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

}  // namespace tracediff::analysis::detail
