#include "analysis/summarize/step_assignment.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace tracediff::analysis::detail {

using model::Kind;

std::optional<std::int64_t> profiler_step_number(std::string_view name) {
  constexpr std::string_view prefix = "ProfilerStep";
  // Asked of every operator's name: the first byte rejects nearly all.
  if (name.size() <= prefix.size() || name[0] != 'P' || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::size_t i = prefix.size();
  while (i < name.size() && name[i] == ' ') ++i;
  if (i >= name.size() || name[i] != '#') return std::nullopt;
  ++i;
  while (i < name.size() && name[i] == ' ') ++i;
  if (i >= name.size() || name.size() - i > 18) return std::nullopt;
  std::int64_t n = 0;
  for (; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

namespace {

// Windows of one track sorted by start; the innermost (latest-starting) window that
// contains t wins. Steps are back to back, so overlap is rare; a short look-back
// copes with the few nested ones.
std::int32_t find_step(const std::vector<StepWindow>& windows, std::int64_t t) {
  auto it = std::upper_bound(windows.begin(), windows.end(), t,
                             [](std::int64_t v, const StepWindow& w) { return v < w.begin_ns; });
  for (int look = 0; look < 4 && it != windows.begin(); ++look) {
    --it;
    if (t < it->end_ns) return it->index;
  }
  return static_cast<std::int32_t>(k_no_step);
}

// Step windows from a marker's matches (empty when they make none; out.marker says
// which shape was chosen, or why none). The pattern is asked once per distinct name.
// Per process: of matches that nest or overlap, the outermost (the first to start)
// is kept. When the kept matches cover at least half of the time from the first's
// start to the last's end, they cover the work: each is a step. Otherwise they are
// short markers that recur once per iteration: a step runs from the start of one to
// the start of the next (N matches, N - 1 steps). Steps are numbered 0, 1, ... in
// time order in each process.
std::vector<StepWindow> marker_windows(const model::TraceFile& file, const StepMarker& marker, FileSteps& out) {
  struct Match {
    std::uint32_t pid;
    std::int64_t begin, end;
  };
  std::vector<std::uint8_t> known(file.pool.size(), 0);  // per pool id: 0 not asked yet, 1 no, 2 matches
  std::vector<Match> matches;
  std::int64_t spent_ns = 0;  // the file's matching: StepMarker::k_budget_ns at most
  for (const auto& e : file.events) {
    if (!marker_kind(e.kind)) continue;
    auto& k = known[e.name];
    if (!k) {
      auto m = StepMarker::Match::no;
      if (out.marker_gave_up < StepMarker::k_max_give_ups) m = marker.match(file.pool.get(e.name), spent_ns);
      if (m == StepMarker::Match::over_budget)
        ++out.marker_over_budget;
      else if (m == StepMarker::Match::gave_up || out.marker_gave_up >= StepMarker::k_max_give_ups)
        ++out.marker_gave_up;
      k = m == StepMarker::Match::yes ? 2 : 1;
    }
    if (k == 2) matches.push_back({e.pid, e.ts_ns, e.ts_ns + e.dur_ns});
  }
  // Outer first: by process, start, then the longer one.
  std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
    if (a.pid != b.pid) return a.pid < b.pid;
    if (a.begin != b.begin) return a.begin < b.begin;
    return a.end > b.end;
  });
  std::vector<Match> kept;
  __int128 covered = 0, extent = 0;
  for (std::size_t i = 0; i < matches.size();) {
    const auto pid = matches[i].pid;
    const auto first = kept.size();
    for (; i < matches.size() && matches[i].pid == pid; ++i)
      if (kept.size() == first || matches[i].begin >= kept.back().end) {
        kept.push_back(matches[i]);
        covered += matches[i].end - matches[i].begin;
      }
    extent += kept.back().end - kept[first].begin;  // kept matches of a process are disjoint, in order
  }
  out.marker_matches = kept.size();
  if (kept.empty()) {
    out.marker = MarkerOutcome::no_match;
    return {};
  }
  const bool spans = extent > 0 && 2 * covered >= extent;
  std::vector<StepWindow> windows;
  std::int64_t n = 0;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const bool first_of_pid = i == 0 || kept[i - 1].pid != kept[i].pid;
    if (first_of_pid) n = 0;
    if (spans) {
      windows.push_back({n++, kept[i].begin, kept[i].end, kept[i].pid});
    } else if (i + 1 < kept.size() && kept[i + 1].pid == kept[i].pid) {
      windows.push_back({n++, kept[i].begin, kept[i + 1].begin, kept[i].pid});
    }
  }
  if (windows.empty()) {
    out.marker = MarkerOutcome::no_step;
    return {};
  }
  out.marker = spans ? MarkerOutcome::spans : MarkerOutcome::markers;
  if (spans) {
    out.marker_span_name.resize(known.size());
    for (std::size_t id = 0; id < known.size(); ++id) out.marker_span_name[id] = known[id] == 2;
  }
  return windows;
}

}  // namespace

LaunchIndex::LaunchIndex(const model::TraceFile& file, std::pmr::memory_resource* memory)
    : m_dense(memory), m_index(memory) {
  const auto& events = file.events;
  std::size_t n = 0;
  std::int64_t lo = INT64_MAX, hi = -1;
  for (const auto& e : events)
    if (model::is_launch(e.kind) && e.correlation >= 0) {
      ++n;
      lo = std::min(lo, e.correlation);
      hi = std::max(hi, e.correlation);
    }
  if (n == 0) return;
  // Dense when the table takes no more than the sorted pairs and their sort buffer.
  if (static_cast<std::uint64_t>(hi - lo) < 8 * static_cast<std::uint64_t>(n)) {
    m_base = lo;
    m_dense.assign(static_cast<std::size_t>(hi - lo) + 1, k_none);
    for (std::uint32_t i = 0; i < events.size(); ++i)
      if (model::is_launch(events[i].kind) && events[i].correlation >= 0)
        m_dense[static_cast<std::size_t>(events[i].correlation - lo)] = i;
    return;
  }
  m_index.reserve(n);
  for (std::uint32_t i = 0; i < events.size(); ++i)
    if (model::is_launch(events[i].kind) && events[i].correlation >= 0)
      m_index.emplace_back(events[i].correlation, i);
  std::stable_sort(m_index.begin(), m_index.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::int64_t LaunchIndex::find(std::int64_t correlation) const {
  if (!m_dense.empty()) {
    if (correlation < m_base || correlation - m_base >= static_cast<std::int64_t>(m_dense.size())) return -1;
    const auto i = m_dense[static_cast<std::size_t>(correlation - m_base)];
    return i == k_none ? std::int64_t{-1} : std::int64_t{i};
  }
  auto it = std::upper_bound(m_index.begin(), m_index.end(), correlation,
                             [](std::int64_t c, const auto& x) { return c < x.first; });
  if (it == m_index.begin() || (it - 1)->first != correlation) return -1;
  return (it - 1)->second;
}

FileSteps assign_steps(const model::TraceFile& file, const LaunchIndex& launches,
                       std::pmr::memory_resource* memory, const StepMarker* marker) {
  // Constructed with the resource: assigning a pmr vector keeps the target's own.
  FileSteps out{.host_steps = {},
                .steps = {},
                .step_at = std::pmr::vector<std::int32_t>(memory),
                .gpu_unlinked = 0,
                .gpu_unplaced = 0,
                .marker = MarkerOutcome::not_given,
                .marker_matches = 0,
                .marker_gave_up = 0,
                .marker_over_budget = 0,
                .marker_span_name = {},
                .repeated_steps = 0,
                .repeated = {}};
  const auto& events = file.events;
  out.step_at.assign(events.size(), static_cast<std::int32_t>(k_no_step));

  // Step spans: CPU-side ones define host windows per process; GPU-side ones
  // (gpu_user_annotation ProfilerStep#N, newer Kineto) only serve as a fallback
  // for GPU work without a launch record.
  std::unordered_map<std::uint32_t, std::vector<StepWindow>> host, device;
  if (marker)
    for (const auto& w : marker_windows(file, *marker, out)) {
      host[w.pid].push_back(w);
      out.host_steps.push_back(w);
    }
  // A marker's steps replace ProfilerStep's, GPU-side ones included (their numbers
  // are not the marker's).
  const bool from_marker = !out.host_steps.empty();
  for (std::size_t i = 0; !from_marker && i < events.size(); ++i) {
    const auto& e = events[i];
    if (e.kind != Kind::user_annotation && e.kind != Kind::cpu_op &&
        e.kind != Kind::gpu_user_annotation)
      continue;
    const auto n = profiler_step_number(file.pool.get(e.name));
    if (!n) continue;
    StepWindow w{*n, e.ts_ns, e.ts_ns + e.dur_ns, e.pid};
    if (e.kind == Kind::gpu_user_annotation) {
      device[e.pid].push_back(w);
    } else {
      host[e.pid].push_back(w);
      out.host_steps.push_back(w);
    }
  }
  auto by_start = [](const StepWindow& a, const StepWindow& b) { return a.begin_ns < b.begin_ns; };
  for (auto& [pid, w] : host) std::sort(w.begin(), w.end(), by_start);
  for (auto& [pid, w] : device) std::sort(w.begin(), w.end(), by_start);
  if (!from_marker) {
    // A number twice in one process, the later span after the first has ended (two
    // profiling windows pasted together, a counter reset): one step cannot hold both
    // spans' work, so the later span is no step and its events belong to no step (the
    // first's time and work stay together). A span nested in or overlapping the first
    // (legacy traces write ProfilerStep both as an annotation and as an operator)
    // stays: its events are the first's anyway.
    std::vector<StepWindow> dropped;
    for (auto* track : {&host, &device})
      for (auto& [pid, windows] : *track) {
        std::unordered_map<std::int64_t, std::int64_t> first_end;
        std::erase_if(windows, [&](const StepWindow& w) {
          const auto [it, fresh] = first_end.try_emplace(w.step, w.end_ns);
          const bool repeat = !fresh && w.begin_ns >= it->second;
          if (repeat && track == &host) dropped.push_back(w);
          return repeat;
        });
      }
    out.repeated_steps = dropped.size();
    out.repeated = dropped;
    std::erase_if(out.host_steps, [&](const StepWindow& w) {
      return std::any_of(dropped.begin(), dropped.end(), [&](const StepWindow& d) {
        return d.pid == w.pid && d.step == w.step && d.begin_ns == w.begin_ns && d.end_ns == w.end_ns;
      });
    });
  }
  std::sort(out.host_steps.begin(), out.host_steps.end(), by_start);
  // Each step number's index: its first span by start. A device-side span's number
  // that no host span has is no step (-1).
  std::unordered_map<std::int64_t, std::int32_t> index_of;
  for (auto& w : out.host_steps) {
    const auto [it, fresh] = index_of.try_emplace(w.step, static_cast<std::int32_t>(out.steps.size()));
    if (fresh) out.steps.push_back(w);
    w.index = it->second;
  }
  for (auto& w : out.steps) w.index = index_of.at(w.step);
  for (auto* track : {&host, &device})
    for (auto& [pid, windows] : *track)
      for (auto& w : windows)
        if (const auto it = index_of.find(w.step); it != index_of.end()) w.index = it->second;

  // A process without steps of its own (a data-loader worker, or Inductor launches
  // recorded in another process) falls back to every process's steps by time.
  std::vector<StepWindow> any_pid = out.host_steps;
  const std::vector<StepWindow>* windows = nullptr;  // of last_pid: runs of events share a process
  std::uint32_t last_pid = 0;
  auto host_step = [&](const model::Event& e) {
    if (!windows || e.pid != last_pid) {
      auto it = host.find(e.pid);
      windows = it == host.end() ? &any_pid : &it->second;
      last_pid = e.pid;
    }
    return find_step(*windows, e.ts_ns);
  };
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (model::device_of(e.kind) == model::Device::cpu) {
      out.step_at[i] = host_step(e);
      continue;
    }
    // Device-side event: the step of its launch, else a device-side step span.
    if (e.correlation >= 0) {
      if (const auto l = launches.find(e.correlation); l >= 0) {
        out.step_at[i] = host_step(events[static_cast<std::size_t>(l)]);
        continue;
      }
    }
    if (model::is_gpu_work(e.kind)) ++out.gpu_unlinked;
    if (auto it = device.find(e.pid); it != device.end()) {
      out.step_at[i] = find_step(it->second, e.ts_ns);
      if (out.step_at[i] != k_no_step) continue;
    }
    // GPU work without its launch (a graph replay, a launch before the profiler started
    // or on a thread it did not record) still ran: it belongs to the host step its GPU
    // start falls in, as GPU busy counts it. Work launched late in a step and started
    // in the next counts in the next (work with a launch counts where it was launched).
    if (model::is_gpu_work(e.kind)) {
      out.step_at[i] = find_step(any_pid, e.ts_ns);
      if (out.step_at[i] == k_no_step) ++out.gpu_unplaced;
    }
  }
  return out;
}

}  // namespace tracediff::analysis::detail
