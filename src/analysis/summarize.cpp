#include "analysis/summarize.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/steps.hpp"
#include "util/errors.hpp"

namespace tracediff::analysis {

using model::Kind;

namespace {

bool is_comm_kernel(std::string_view name) {
  // NCCL/RCCL/HCCL collectives run as kernels named after the library.
  for (std::string_view lib : {"nccl", "rccl", "hccl", "NCCL", "RCCL", "HCCL"})
    if (name.find(lib) != std::string_view::npos) return true;
  return false;
}

bool is_host(Kind k) { return model::device_of(k) == model::Device::cpu; }

struct Nesting {
  std::vector<std::int64_t> self_ns;       // per event; GPU and other device events keep dur
  std::vector<std::uint32_t> launcher;     // per event: pool id of the innermost cpu_op around it, or ~0
};

// Self time per host event: its duration minus the time of the events directly
// inside it on the same thread. Each instant of an event is charged to the innermost
// enclosing event only (a child that outlives its parent spills into the next
// ancestor), so self times on a thread add up to at most its busy time.
Nesting nest(const model::TraceFile& f) {
  const auto& ev = f.events;
  Nesting n;
  n.self_ns.resize(ev.size());
  n.launcher.assign(ev.size(), ~0u);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> threads;
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    n.self_ns[i] = ev[i].dur_ns;
    if (is_host(ev[i].kind)) threads[{ev[i].pid, ev[i].tid}].push_back(i);
  }
  // self_ns starts at the duration; children's time is subtracted as they are met.
  std::vector<std::uint32_t> stack;
  for (auto& [thread, idx] : threads) {
    std::sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (ev[a].ts_ns != ev[b].ts_ns) return ev[a].ts_ns < ev[b].ts_ns;
      if (ev[a].dur_ns != ev[b].dur_ns) return ev[a].dur_ns > ev[b].dur_ns;
      return a < b;
    });
    stack.clear();
    for (auto i : idx) {
      const auto begin = ev[i].ts_ns, end = begin + ev[i].dur_ns;
      while (!stack.empty() && ev[stack.back()].ts_ns + ev[stack.back()].dur_ns <= begin) stack.pop_back();
      std::int64_t t = begin;
      for (auto s = stack.rbegin(); s != stack.rend() && t < end; ++s) {
        const auto seg_end = std::min(end, ev[*s].ts_ns + ev[*s].dur_ns);
        if (seg_end > t) {
          n.self_ns[*s] -= seg_end - t;
          t = seg_end;
        }
      }
      if (ev[i].kind == Kind::runtime)
        for (auto s = stack.rbegin(); s != stack.rend(); ++s)
          if (ev[*s].kind == Kind::cpu_op) {
            n.launcher[i] = ev[*s].name;
            break;
          }
      stack.push_back(i);
    }
  }
  for (auto& v : n.self_ns) v = std::max<std::int64_t>(0, v);
  return n;
}

// Length of the union of intervals (sorted in place).
std::int64_t union_length(std::vector<std::pair<std::int64_t, std::int64_t>>& iv) {
  std::sort(iv.begin(), iv.end());
  std::int64_t total = 0, cur_b = 0, cur_e = 0;
  bool open = false;
  for (const auto& [b, e] : iv) {
    if (!open || b > cur_e) {
      if (open) total += cur_e - cur_b;
      cur_b = b, cur_e = e, open = true;
    } else {
      cur_e = std::max(cur_e, e);
    }
  }
  if (open) total += cur_e - cur_b;
  return total;
}

}  // namespace

model::FileSummary summarize_file(const model::TraceFile& f) {
  using detail::k_no_step;
  model::FileSummary s;
  s.path = f.path;
  s.rank = f.rank;
  s.rank_source = f.rank_source;
  s.world_size = f.world_size;
  s.gpu_names = f.gpu_names;
  s.events = f.events.size();
  s.json_bytes = f.json_bytes;
  s.truncated = f.truncated;
  s.diagnostics = f.diagnostics;

  const detail::LaunchIndex launch_of(f);
  const auto steps = detail::assign_steps(f, launch_of);
  const auto nesting = nest(f);
  const auto& ev = f.events;
  s.has_steps = !steps.host_steps.empty();

  // Steps: the file's CPU-side step spans, or one pseudo-step over the whole file.
  std::unordered_map<std::int64_t, std::uint32_t> step_index;
  if (s.has_steps) {
    for (const auto& w : steps.host_steps) {
      if (step_index.count(w.step)) continue;  // a step number twice (several processes): first span
      step_index[w.step] = static_cast<std::uint32_t>(s.steps.size());
      model::StepSummary st;
      st.step = w.step;
      st.detail.dur_ns = w.end_ns - w.begin_ns;
      s.steps.push_back(st);
    }
  } else {
    std::int64_t b = INT64_MAX, e = INT64_MIN;
    for (const auto& x : ev)
      if (is_host(x.kind)) b = std::min(b, x.ts_ns), e = std::max(e, x.ts_ns + x.dur_ns);
    model::StepSummary st;
    st.detail.dur_ns = b <= e ? e - b : 0;
    s.steps.push_back(st);
  }
  auto step_of = [&](std::size_t i) -> std::int64_t {
    if (!s.has_steps) return 0;
    const auto it = steps.iteration[i];
    if (it == k_no_step) return -1;
    return step_index.at(it);
  };

  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> key_index;  // (cat, name) pool ids
  std::unordered_map<std::uint32_t, std::uint32_t> launcher_index;              // pool id -> index
  std::map<std::pair<std::uint32_t, std::uint32_t>, model::Cell> cells;         // (key, step)
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::int64_t> launches;
  // GPU busy: intervals per (step, device).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> gpu;
  std::uint64_t outside = 0;

  auto launcher_id = [&](std::uint32_t pool_id, std::string_view fallback) {
    const std::uint32_t key = pool_id;
    if (auto it = launcher_index.find(key); it != launcher_index.end()) return it->second;
    const auto idx = static_cast<std::uint32_t>(s.launchers.size());
    s.launchers.emplace_back(pool_id == ~0u || pool_id == ~1u ? std::string(fallback) : std::string(f.pool.get(pool_id)));
    launcher_index[key] = idx;
    return idx;
  };

  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    const auto st = step_of(i);
    if (st < 0) {
      if (is_host(e.kind)) ++outside;
      continue;
    }
    const auto step = static_cast<std::uint32_t>(st);
    auto& d = s.steps[step].detail;
    // Step spans themselves are step times, not operators (HTA quirk Q1).
    const bool step_span = (e.kind == Kind::user_annotation || e.kind == Kind::cpu_op ||
                            e.kind == Kind::gpu_user_annotation) &&
                           detail::profiler_step_number(f.pool.get(e.name));
    if (!step_span) {
      auto [k, inserted] = key_index.try_emplace({e.category, e.name}, static_cast<std::uint32_t>(s.keys.size()));
      if (inserted) s.keys.push_back({std::string(f.pool.get(e.category)), std::string(f.pool.get(e.name)), e.kind});
      auto& c = cells[{k->second, step}];
      c.key = k->second;
      c.step = step;
      c.count += 1;
      c.total_ns += e.dur_ns;
      c.self_ns += nesting.self_ns[i];
      if (model::is_gpu_work(e.kind)) {
        std::uint32_t who;
        const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
        if (l < 0) who = launcher_id(~1u, "(launch not in trace)");
        else if (nesting.launcher[static_cast<std::size_t>(l)] == ~0u) who = launcher_id(~0u, "(no enclosing operator)");
        else who = launcher_id(nesting.launcher[static_cast<std::size_t>(l)], {});
        launches[{who, k->second, step}] += e.dur_ns;
      }
    }
    switch (e.kind) {
      case Kind::kernel:
        (is_comm_kernel(f.pool.get(e.name)) ? d.comm_ns : d.kernel_ns) += e.dur_ns;
        break;
      case Kind::gpu_memcpy: d.memcpy_ns += e.dur_ns; break;
      case Kind::gpu_memset: d.memset_ns += e.dur_ns; break;
      case Kind::cpu_op: d.cpu_self_ns += nesting.self_ns[i]; break;
      case Kind::runtime: d.runtime_ns += e.dur_ns; break;
      default: break;
    }
    if (model::is_gpu_work(e.kind)) gpu[{step, e.pid}].emplace_back(e.ts_ns, e.ts_ns + e.dur_ns);
  }

  std::map<std::uint32_t, int> devices;  // step -> devices with GPU work
  for (auto& [k, iv] : gpu) {
    s.steps[k.first].detail.gpu_busy_ns += union_length(iv);
    ++devices[k.first];
  }
  for (std::uint32_t i = 0; i < s.steps.size(); ++i) {
    auto& d = s.steps[i].detail;
    const auto used = devices.count(i) ? devices[i] : 0;
    d.gpu_idle_ns = std::max<std::int64_t>(0, d.dur_ns * used - d.gpu_busy_ns);
  }
  for (auto& [k, c] : cells) s.cells.push_back(c);
  for (auto& [k, ns] : launches) s.launches.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k), ns});

  if (outside)
    s.diagnostics.report(model::DiagId::event_outside_steps, f.path, 0,
                         std::to_string(outside) + " host events outside every ProfilerStep");
  if (steps.gpu_unlinked)
    s.diagnostics.report(model::DiagId::event_gpu_unlinked, f.path, 0,
                         std::to_string(steps.gpu_unlinked) + " GPU events without their launch");
  return s;
}

model::SetSummary summarize_set(const model::TraceSet& set) {
  model::SetSummary out;
  out.label = set.label;
  out.inputs = set.inputs;
  out.diagnostics = set.diagnostics;
  for (const auto& f : set.files) out.files.push_back(f.summary ? *f.summary : summarize_file(f));
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
