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
// the longest path is the chain of work that set the step's length. A step's graph is
// built (critical_path_edges.cpp), Kahn's order and one sweep find the path, its rows are
// counted here, and one more sweep runs the what-ifs (critical_path_what_if.cpp). The
// pass's shared state: critical_path_pass.hpp.
#include "analysis/summarize/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analysis/names/kernel_families.hpp"
#include "analysis/summarize/critical_path_pass.hpp"

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
namespace cp {

namespace {

using model::Bound;

// What a step's graph takes per slot, at most: its nodes' times, order and distances, about
// three edges, the sorts' and what-ifs' arrays.
constexpr std::size_t k_bytes_per_slot = 288;

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

// Per event, whether it is a runtime call that launched GPU work (tracediff's model only).
std::vector<bool> launched(const model::TraceFile& f, const LaunchIndex& launch_of, bool hta) {
  std::vector<bool> out;
  if (hta) return out;
  out.assign(f.events.size(), false);
  for (const auto& e : f.events)
    if (model::is_gpu_work(e.kind) && e.correlation >= 0)
      if (const auto l = launch_of.find(e.correlation); l >= 0) out[static_cast<std::size_t>(l)] = true;
  return out;
}

// Counts into where each step starts (the last entry: the end); the largest step's count.
std::size_t to_starts(std::vector<std::uint32_t>& count) {
  std::size_t largest = 0;
  for (std::size_t k = 0; k + 1 < count.size(); ++k)
    largest = std::max<std::size_t>(largest, count[k + 1]), count[k + 1] += count[k];
  return largest;
}

}  // namespace

std::uint8_t Pass::fact(std::uint32_t name) {
  auto& x = m_facts[name];
  if (!x) x = name_facts(m_file.pool.get(name), m_options.data_load_pattern);
  return x;
}

// The step whose graph takes an event: host operators and runtime calls by their start
// (in tracediff's model, only calls that launch or wait: a call that does neither, as
// cudaFuncSetAttribute or cudaEventQuery, a third of a trace's host events, is its
// operator's own time), GPU work by its launch, HTA's sync events by their call.
std::int32_t Pass::graph_step(std::uint32_t i) const {
  const auto& e = m_ev[i];
  if (e.kind == model::Kind::runtime && !m_hta && !m_launches[i] && !m_waiting.flag[i]) return -1;
  if (e.kind == model::Kind::cpu_op || e.kind == model::Kind::runtime)
    return e.dur_ns > 0 && (m_hta || (!m_profiler[i] && !m_names.step_span(e))) ? m_windows.step_at[i] : -1;
  if (!model::is_gpu_work(e.kind) && e.kind != model::Kind::cuda_sync) return -1;
  const auto l = e.correlation >= 0 ? m_launch_of.find(e.correlation) : -1;
  if (e.kind == model::Kind::cuda_sync) {
    const auto n = m_facts[e.name] ? m_facts[e.name] : name_facts(m_file.pool.get(e.name), m_options.data_load_pattern);
    return l >= 0 && (n & (k_context_sync | k_stream_sync)) ? m_windows.step_at[static_cast<std::size_t>(l)] : -1;
  }
  return (l >= 0 ? m_ev[static_cast<std::size_t>(l)].dur_ns > 0 : !m_hta) ? m_windows.step_at[i] : -1;
}

std::vector<std::uint32_t> Pass::count_steps() {
  std::vector<std::uint32_t> count(m_windows.begin.size() + 1, 0);
  for (std::uint32_t i = 0; i < m_ev.size(); ++i)
    if (const auto st = graph_step(i); st >= 0) ++count[static_cast<std::size_t>(st) + 1];
  return count;
}

Pass::Pass(const model::TraceFile& f, const LaunchIndex& launch_of, const StepWindows& windows, const WaitingCalls& waiting,
           const std::pmr::vector<std::uint8_t>& profiler, NameFacts& names, const CriticalPathOptions& options)
    : m_file(f),
      m_ev(f.events),
      m_launch_of(launch_of),
      m_windows(windows),
      m_waiting(waiting),
      m_profiler(profiler),
      m_names(names),
      m_options(options),
      m_hta(options.hta_model),
      m_facts(f.pool.size(), 0),
      m_launches(launched(f, launch_of, m_hta)),
      m_count(count_steps()),
      m_largest(to_starts(m_count)),
      m_queues(m_hta ? queue_lengths(f, launch_of) : Queues{}),  // the default model reads the times instead
      // The graphs' arrays in one block, reserved once for the largest step, its pages mapped
      // up front (a thread's scratch buffer): faulted in one 4 KiB page at a time they cost
      // more than the graphs (about 10 µs a page in a VM guest); huge pages stall on compaction.
      m_scratch(m_largest * k_bytes_per_slot + m_count.back() * 4 + 4096),
      m_block(m_scratch.get(), m_scratch.size(), std::pmr::get_default_resource()),
      m_by_step(m_count.back(), &m_block),
      g(&m_block),
      m_host(&m_block), m_gpu(&m_block), m_pred(&m_block), m_stack(&m_block), m_lanes(&m_block), m_lane_mask(&m_block),
      m_seen_at(&m_block), m_grouped(&m_block), m_thread_of(&m_block), m_slot_mask(&m_block), m_dist(&m_block),
      m_work(&m_block), m_ends(&m_block), m_gpu_order(&m_block) {
  const auto steps = m_count.size() - 1;
  {
    std::vector<std::uint32_t> fill(m_count.begin(), m_count.end());
    for (std::uint32_t i = 0; i < m_ev.size(); ++i)
      if (const auto st = graph_step(i); st >= 0) m_by_step[fill[static_cast<std::size_t>(st)]++] = i;
  }
  // Each step's own thread (its ProfilerStep span's), and the data loader's spans.
  m_step_thread.assign(steps, 0);
  for (std::uint32_t i = 0; i < m_ev.size() && !m_hta; ++i) {
    const auto& e = m_ev[i];
    const auto st = windows.step_at[i];
    if (st < 0 || model::device_of(e.kind) != model::Device::cpu) continue;
    if (names.step_span(e) && !m_step_thread[static_cast<std::size_t>(st)]) m_step_thread[static_cast<std::size_t>(st)] = thread(e);
    if ((e.kind == model::Kind::user_annotation || e.kind == model::Kind::python_function) &&
        !options.data_load_pattern.empty() && (fact(e.name) & k_loader))
      m_loader_spans.push_back({st, thread(e), e.ts_ns, e.ts_ns + e.dur_ns});
  }
  std::sort(m_loader_spans.begin(), m_loader_spans.end());
  g.reserve(m_largest);
  m_host.reserve(m_largest), m_gpu.reserve(m_largest), m_pred.reserve(2 * m_largest), m_dist.reserve(4 * m_largest);
  m_work.reserve(2 * m_largest), m_lane_mask.reserve(3 * m_largest + 16), m_seen_at.reserve(m_largest);
}

void Pass::run(const std::function<std::uint32_t(std::uint32_t)>& key_of, const std::function<bool(std::uint32_t)>& in_rows,
               model::FileSummary& s) {
  for (const auto& spec : m_options.what_if) s.what_ifs.push_back({spec.text, -1, spec.factor});
  std::vector<OnPath> rows;
  for (std::size_t w = 0; w + 1 < m_count.size(); ++w) {
    g.clear();
    m_host.clear(), m_gpu.clear();
    for (auto k = m_count[w]; k < m_count[w + 1]; ++k) {
      const auto i = m_by_step[k];
      const auto& e = m_ev[i];
      const auto slot = g.add(i, e.ts_ns, e.ts_ns + e.dur_ns);
      (model::device_of(e.kind) == model::Device::cpu ? m_host : m_gpu).push_back(slot);
    }
    if (g.event.empty()) continue;
    build_edges(w);
    g.sort();
    const auto [length, tail] = g.longest(m_pred, m_dist, m_work, !m_hta);
    auto& path = s.steps[w].path;
    path.recorded = true;
    path.length_ns = length;

    // The path's edges by bound type, and its rows: a slot's first edge on the path asks
    // its row; m_seen_at then holds 1 (no row) or its place in `rows` + 2.
    rows.clear();
    m_seen_at.assign(g.event.size(), 0);
    for (auto v = tail; v != k_none && m_pred[v] != k_none; v = g.edges[m_pred[v]].from) {
      const auto& e = g.edges[m_pred[v]];
      if (!e.weight) continue;
      Bound b = Bound::cpu;
      switch (e.type) {
        case EdgeType::launch: b = Bound::launch; break;
        case EdgeType::kernel_kernel: b = Bound::kernel_kernel; break;
        default: {
          const auto i = g.event[e.attr];
          const auto& x = m_ev[i];
          b = model::is_gpu_work(x.kind) ? (m_names.comm_kernel(x.name) ? Bound::gpu_comm : Bound::gpu_compute)
              : (!m_hta && g.loader[e.attr]) ? Bound::data_loading
                                             : Bound::cpu;
          if (!m_seen_at[e.attr]) {
            ++path.events;
            m_seen_at[e.attr] = 1;
            if (in_rows(i)) m_seen_at[e.attr] = static_cast<std::uint32_t>(rows.size()) + 2, rows.push_back({key_of(i), 0, i});
          }
          if (m_seen_at[e.attr] >= 2) rows[m_seen_at[e.attr] - 2].ns = capped_sum(rows[m_seen_at[e.attr] - 2].ns, e.weight);
        }
      }
      path.bound_ns[static_cast<std::size_t>(b)] = capped_sum(path.bound_ns[static_cast<std::size_t>(b)], e.weight);
    }
    // --perfetto's step: its events on the path, each with its time there.
    if (m_options.path_events && m_options.path_events_step == s.steps[w].step) {
      auto& out = *m_options.path_events;
      for (auto v = tail; v != k_none && m_pred[v] != k_none; v = g.edges[m_pred[v]].from)
        if (const auto& e = g.edges[m_pred[v]]; e.weight && e.attr != k_none && e.type == EdgeType::op)
          out.push_back({g.event[e.attr], e.weight});
      std::sort(out.begin(), out.end());
      std::size_t n = 0;
      for (std::size_t k = 0; k < out.size(); ++k) {
        if (n && out[n - 1].first == out[k].first) out[n - 1].second = capped_sum(out[n - 1].second, out[k].second);
        else out[n++] = out[k];
      }
      out.resize(n);
    }
    // The step's rows on the path, summed by key (a key of several events: matched names).
    std::sort(rows.begin(), rows.end(), [](const OnPath& a, const OnPath& b) { return a.key < b.key; });
    std::size_t kept = 0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (kept && rows[kept - 1].key == rows[k].key) rows[kept - 1].ns = capped_sum(rows[kept - 1].ns, rows[k].ns);
      else rows[kept++] = rows[k];
    }
    rows.resize(kept);
    for (const auto& k : rows) s.path_cells.push_back({k.key, static_cast<std::uint32_t>(w), k.ns});
    what_ifs(w, length, rows, s);
  }
  std::sort(s.path_cells.begin(), s.path_cells.end(), [](const model::PathCell& a, const model::PathCell& b) {
    return std::tie(a.key, a.step) < std::tie(b.key, b.step);
  });
  std::sort(s.what_if_cells.begin(), s.what_if_cells.end(), [](const model::WhatIfCell& a, const model::WhatIfCell& b) {
    return std::tie(a.what, a.step) < std::tie(b.what, b.step);
  });
}

}  // namespace cp

void critical_paths(const model::TraceFile& f, const LaunchIndex& launch_of, const StepWindows& windows,
                    const WaitingCalls& waiting, const std::pmr::vector<std::uint8_t>& profiler, NameFacts& names,
                    const CriticalPathOptions& options, const std::function<std::uint32_t(std::uint32_t)>& key_of,
                    const std::function<bool(std::uint32_t)>& in_rows, model::FileSummary& s) {
  if (!options.enabled || s.steps.empty()) return;
  cp::Pass(f, launch_of, windows, waiting, profiler, names, options).run(key_of, in_rows, s);
}

}  // namespace detail
}  // namespace tracediff::analysis
