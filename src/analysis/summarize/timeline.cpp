// Where each GPU's step went: the sweep of timeline.hpp.
#include "analysis/summarize/timeline.hpp"

#include <algorithm>
#include <climits>

#include "analysis/names/kernel_families.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis::detail {

namespace {

using model::StepDetail;

// A stretch of one device's timeline in one state: a WorkClass-like busy state or an
// idle cause. A device's pieces cover the whole line, from INT64_MIN to INT64_MAX.
enum State : std::uint8_t {
  compute_only,
  overlap,
  mem_only,
  comm_first,                  // comm only, by collective: comm_first + (class - all_reduce)
  idle_launch = comm_first + 7,
  idle_sync,
  idle_stream,
  idle_other,
};
constexpr int k_comm_kinds = 7;

constexpr std::int64_t StepDetail::*k_exposed[k_comm_kinds] = {
    &StepDetail::exposed_all_reduce_ns, &StepDetail::exposed_all_gather_ns, &StepDetail::exposed_reduce_scatter_ns,
    &StepDetail::exposed_all_to_all_ns, &StepDetail::exposed_broadcast_ns,  &StepDetail::exposed_send_recv_ns,
    &StepDetail::exposed_other_comm_ns};

// The running work of a device: a min-heap by end, and counts by class.
class Running {
 public:
  void clear() {
    m_heap.clear();
    m_compute = m_mem = m_comm = 0;
    std::fill(std::begin(m_kind), std::end(m_kind), 0);
  }
  bool empty() const { return m_heap.empty(); }
  std::int64_t next_end() const { return m_heap.front().end; }
  // The work that ends last, the last one popped: its event.
  std::uint32_t next_event() const { return m_heap.front().event; }
  void push(std::int64_t end, std::uint32_t event, WorkClass c) {
    m_heap.push_back({end, event, c});
    std::push_heap(m_heap.begin(), m_heap.end(), later);
    count(c, 1);
  }
  void pop() {
    std::pop_heap(m_heap.begin(), m_heap.end(), later);
    count(m_heap.back().cls, -1);
    m_heap.pop_back();
  }
  // What runs now; only asked while something runs.
  State state() const {
    if (m_comm) {
      if (m_compute) return overlap;
      int k = 0;
      while (!m_kind[k]) ++k;
      return static_cast<State>(comm_first + k);
    }
    return m_compute ? compute_only : mem_only;
  }

 private:
  struct Open {
    std::int64_t end;
    std::uint32_t event;
    WorkClass cls;
  };
  // Ends in time order, ties in file order: which work ended a busy stretch is decided.
  static bool later(const Open& a, const Open& b) { return a.end != b.end ? a.end > b.end : a.event > b.event; }
  void count(WorkClass c, int by) {
    if (c == WorkClass::compute) m_compute += by;
    else if (c == WorkClass::mem) m_mem += by;
    else {
      m_comm += by;
      m_kind[static_cast<int>(c) - static_cast<int>(WorkClass::all_reduce)] += by;
    }
  }
  std::vector<Open> m_heap;
  std::int64_t m_compute = 0, m_mem = 0, m_comm = 0;
  std::int64_t m_kind[k_comm_kinds] = {};
};

}  // namespace

WorkClass kernel_class(std::string_view name) {
  switch (classify(name, model::Kind::kernel)) {
    case Family::comm_all_reduce: return WorkClass::all_reduce;
    case Family::comm_all_gather: return WorkClass::all_gather;
    case Family::comm_reduce_scatter: return WorkClass::reduce_scatter;
    case Family::comm_all_to_all: return WorkClass::all_to_all;
    case Family::comm_broadcast: return WorkClass::broadcast;
    case Family::comm_send_recv: return WorkClass::send_recv;
    case Family::comm_other: return WorkClass::other_comm;
    default: break;
  }
  // The library's name where the rules see none of its collectives (HCCL).
  for (std::string_view lib : {"nccl", "rccl", "hccl", "NCCL", "RCCL", "HCCL"})
    if (name.find(lib) != std::string_view::npos) return WorkClass::other_comm;
  return WorkClass::compute;
}

bool host_sync_call(std::string_view name) {
  if (name.find("Synchronize") != std::string_view::npos) return true;  // stream, device, event, context
  for (std::string_view copy : {"cudaMemcpy", "hipMemcpy", "cuMemcpy"})
    if (name.starts_with(copy)) return name.find("Async") == std::string_view::npos;
  return false;
}

void split_timeline(const std::pmr::vector<GpuInterval>& gpu, const model::EventArray& ev, const LaunchIndex& launch_of,
                    std::vector<HostSync>& syncs, const std::vector<std::int64_t>& begin,
                    const std::vector<std::int64_t>& end, std::vector<model::StepSummary>& steps) {
  std::sort(syncs.begin(), syncs.end());
  // Why the device idled until `next` started, having gone idle at `idle_since` when
  // `last` ended (k_none: no work before).
  constexpr std::uint32_t k_none = ~0u;
  const auto cause = [&](const GpuInterval& next, std::int64_t idle_since, std::uint32_t last) -> State {
    const auto& e = ev[next.event];
    const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
    if (l < 0) return idle_other;
    const auto& launch = ev[static_cast<std::size_t>(l)];
    if (launch.ts_ns < idle_since) return last != k_none && ev[last].tid != e.tid ? idle_stream : idle_other;
    const HostSync from{(std::uint64_t{launch.pid} << 32) | launch.tid, idle_since};
    const auto s = std::lower_bound(syncs.begin(), syncs.end(), from);
    return s != syncs.end() && s->thread == from.thread && s->end <= launch.ts_ns ? idle_sync : idle_launch;
  };

  // Windows by start, with the latest end up to each: the windows a piece [a, b) meets
  // start below b and end past a, from the first whose latest end so far is past a
  // (pieces come in time order, so that first one only moves forward).
  std::vector<std::size_t> order(begin.size());
  for (std::size_t w = 0; w < order.size(); ++w) order[w] = w;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return begin[a] < begin[b]; });
  std::vector<std::int64_t> reach(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    reach[k] = std::max(end[order[k]], k ? reach[k - 1] : INT64_MIN);

  Running running;
  for (std::size_t i = 0; i < gpu.size();) {
    const auto pid = gpu[i].pid;
    running.clear();
    std::size_t from = 0;        // into order
    std::int64_t t = INT64_MIN;  // where the next piece starts
    // The piece [t, until) in state s, added to the windows it meets.
    const auto emit = [&](std::int64_t until, State s) {
      if (until <= t) return;
      while (from < order.size() && reach[from] <= t) ++from;
      for (auto k = from; k < order.size() && begin[order[k]] < until; ++k) {
        const auto w = order[k];
        const auto len = std::min(until, end[w]) - std::max(t, begin[w]);
        if (len <= 0) continue;
        auto& d = steps[w].detail;
        switch (s) {
          case compute_only: add_sat(d.gpu_compute_only_ns, len); break;
          case overlap: add_sat(d.gpu_overlap_ns, len); break;
          case mem_only: add_sat(d.gpu_mem_only_ns, len); break;
          case idle_launch: add_sat(d.idle_launch_ns, len); break;
          case idle_sync: add_sat(d.idle_sync_ns, len); break;
          case idle_stream: add_sat(d.idle_stream_ns, len); break;
          case idle_other: add_sat(d.idle_other_ns, len); break;
          default:
            add_sat(d.gpu_comm_only_ns, len);
            add_sat(d.*k_exposed[s - comm_first], len);
            break;
        }
        if (s < idle_launch) add_sat(d.gpu_busy_ns, len);
      }
      t = until;
    };
    std::uint32_t last = k_none;  // the work that ended last
    for (; i < gpu.size() && gpu[i].pid == pid; ++i) {
      const auto& iv = gpu[i];
      if (iv.end <= iv.begin) continue;  // takes no time, ends no gap
      while (!running.empty() && running.next_end() <= iv.begin) {
        emit(running.next_end(), running.state());
        last = running.next_event();
        running.pop();
      }
      if (running.empty() && iv.begin > t) {
        // The work that ends the gap: of those starting now, the first in the file.
        const GpuInterval* next = &iv;
        for (auto k = i + 1; k < gpu.size() && gpu[k].pid == pid && gpu[k].begin == iv.begin; ++k)
          if (gpu[k].end > gpu[k].begin && gpu[k].event < next->event) next = &gpu[k];
        emit(iv.begin, cause(*next, t, last));
      } else {
        emit(iv.begin, running.state());
      }
      running.push(iv.end, iv.event, iv.cls);
    }
    while (!running.empty()) {
      emit(running.next_end(), running.state());
      running.pop();
    }
    emit(INT64_MAX, idle_other);
  }
}

}  // namespace tracediff::analysis::detail
