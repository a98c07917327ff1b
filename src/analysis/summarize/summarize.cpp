// One file's summary, in one pass over its events on the reading thread: its steps,
// the cells (key x step) of every row, launches, the call tree and the GPU's timeline.
// summarize_file is one thing, a pass whose parts share its per-event arrays; the
// state it keeps is in file_pass.hpp, the nesting and the GPU's busy time in their
// own files.
#include "analysis/summarize/summarize.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <compare>
#include <limits>
#include <map>
#include <memory_resource>
#include <set>
#include <tuple>
#include <unordered_map>

#include "analysis/call_tree/call_tree.hpp"
#include "analysis/summarize/collectives.hpp"
#include "analysis/summarize/file_pass.hpp"
#include "analysis/summarize/marker_hint.hpp"
#include "analysis/summarize/memory_events.hpp"
#include "analysis/summarize/step_assignment.hpp"
#include "analysis/summarize/timeline.hpp"
#include "util/arena.hpp"
#include "util/errors.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis {

using model::Kind;
// The pass's state and steps (file_pass.hpp).
using namespace detail;

namespace {

// What --step-marker did, kept in the summary (the report's notes say it) or, when
// it defined no step, a warning naming the file.
void note_marker(model::FileSummary& s, const detail::FileSteps& steps, const StepMarker& marker) {
  using detail::MarkerOutcome;
  if (steps.marker_gave_up)
    s.diagnostics.report(model::DiagId::step_marker_gave_up, s.path, 0,
                         marker.option() + " '" + marker.pattern() + "': " + std::to_string(steps.marker_gave_up) +
                             " names taken as not matching: the pattern backtracks too much on them",
                         steps.marker_gave_up);
  if (steps.marker_over_budget)
    s.diagnostics.report(model::DiagId::step_marker_gave_up, s.path, 0,
                         marker.option() + " '" + marker.pattern() + "': " + std::to_string(steps.marker_over_budget) +
                             " names taken as not matching: the file's matching time (1 s of CPU) was spent",
                         steps.marker_over_budget);
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

// Each (key, step)'s device allocations (model::MemoryCell): self from each allocation's
// operator (Nesting::mem_owner), in the operator's step; inclusive from each host event's
// total (Nesting::allocated_in), outermost calls of a key only (as its inclusive time);
// held: self bytes whose free (by Addr) is not before the step's end.
template <typename KeyOf>
void memory_cells(const model::TraceFile& f, const Nesting& nesting, const StepWindows& windows, NameFacts& names,
                  KeyOf& key_of, model::FileSummary& s) {
  if (f.memory.empty()) return;
  const auto& ev = f.events;
  const auto counted = [&](std::uint32_t i) {
    return windows.step_at[i] >= 0 && !nesting.profiler[i] && !names.step_span(ev[i], true);
  };
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  const auto cell = [&](std::uint32_t i) -> model::MemoryCell& {
    const auto key = key_of(i);
    const auto step = static_cast<std::uint32_t>(windows.step_at[i]);
    const auto [it, fresh] = index.try_emplace((std::uint64_t{key} << 32) | step, static_cast<std::uint32_t>(s.memory_cells.size()));
    if (fresh) s.memory_cells.push_back({key, step, 0, 0, 0, 0, 0});
    return s.memory_cells[it->second];
  };
  const auto freed = detail::free_times(f);
  for (std::size_t j = 0; j < f.memory.size(); ++j) {
    const auto i = nesting.mem_owner[j];
    if (i == ~0u || !detail::device_allocation(f.memory[j]) || !counted(i)) continue;
    auto& c = cell(i);
    add_sat(c.self_bytes, f.memory[j].bytes);
    ++c.self_count;
    if (freed[j] >= windows.end[static_cast<std::size_t>(windows.step_at[i])]) add_sat(c.held_bytes, f.memory[j].bytes);
  }
  std::size_t nested_at = 0;  // into incl_less, which is by event as allocated_in is
  for (const auto& a : nesting.allocated_in) {
    while (nested_at < nesting.incl_less.size() && nesting.incl_less[nested_at].first < a.event) ++nested_at;
    const bool nested = nested_at < nesting.incl_less.size() && nesting.incl_less[nested_at].first == a.event;
    if (nested || !counted(a.event)) continue;
    auto& c = cell(a.event);
    add_sat(c.bytes, a.bytes);
    c.count += a.count;
  }
  std::sort(s.memory_cells.begin(), s.memory_cells.end(), [](const model::MemoryCell& a, const model::MemoryCell& b) {
    return std::tie(a.key, a.step) < std::tie(b.key, b.step);
  });
}

// Each (key, step)'s Inductor figures (model::WorkCell), from the kernels that carry them.
template <typename KeyOf>
void work_cells(const model::TraceFile& f, const StepWindows& windows, KeyOf& key_of, model::FileSummary& s) {
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  for (const auto& w : f.kernel_work) {
    const auto st = windows.step_at[w.event];
    if (st < 0) continue;
    const auto key = key_of(w.event);
    const auto [it, fresh] = index.try_emplace((std::uint64_t{key} << 32) | static_cast<std::uint32_t>(st),
                                               static_cast<std::uint32_t>(s.work_cells.size()));
    if (fresh) s.work_cells.push_back({key, static_cast<std::uint32_t>(st)});
    auto& c = s.work_cells[it->second];
    const auto dur = f.events[w.event].dur_ns;
    // Saturating: a hostile figure must not overflow (1e300 flop is no count).
    const auto whole = [](double v) {
      return v < 9.0e18 ? static_cast<std::int64_t>(std::llround(v)) : std::numeric_limits<std::int64_t>::max();
    };
    if (w.flop >= 0) {
      add_sat(c.flop, whole(w.flop));
      add_sat(c.flop_ns, dur);
    }
    if (w.bytes >= 0) {
      add_sat(c.bytes, whole(w.bytes));
      add_sat(c.bytes_ns, dur);
    }
  }
  std::sort(s.work_cells.begin(), s.work_cells.end(), [](const model::WorkCell& a, const model::WorkCell& b) {
    return std::tie(a.key, a.step) < std::tie(b.key, b.step);
  });
}

// Each call-tree node's self allocations (model::TreeMemoryCell): memory_cells' self bytes
// by the node of the allocation's operator. Before the tree is folded: it folds with it.
void tree_memory(const model::TraceFile& f, const Nesting& nesting, const StepWindows& windows, NameFacts& names,
                 model::FileSummary& s) {
  if (f.memory.empty()) return;
  const auto& ev = f.events;
  for (std::size_t j = 0; j < f.memory.size(); ++j) {
    const auto i = nesting.mem_owner[j];
    if (i == ~0u || !detail::device_allocation(f.memory[j]) || windows.step_at[i] < 0 || nesting.profiler[i] ||
        names.step_span(ev[i], true) || nesting.node[i] == model::k_tree_top)
      continue;
    const auto step = static_cast<std::uint32_t>(windows.step_at[i]);
    const auto node = nesting.node[i] & ~k_inherited;
    if (!s.tree_memory.empty() && s.tree_memory.back().node == node && s.tree_memory.back().step == step)
      add_sat(s.tree_memory.back().bytes, f.memory[j].bytes);  // an operator's allocations come together
    else
      s.tree_memory.push_back({node, step, f.memory[j].bytes});
  }
  sort_tree_memory(s.tree_memory);
}

// The host keys whose events all ran on threads that launch no GPU work
// (FileSummary::off_launch_keys): a launching thread is one a launch of GPU work ran on.
template <typename KeyOf, typename SummaryKey>
void off_launch_keys(const model::TraceFile& f, const detail::LaunchIndex& launch_of, KeyOf& key_of,
                     const SummaryKey& summary_key, const KeyIds& key_ids, model::FileSummary& s) {
  const auto& ev = f.events;
  const auto thread = [&](const model::Event& e) { return (std::uint64_t{e.pid} << 32) | e.tid; };
  std::set<std::uint64_t> launching;
  for (const auto& e : ev)
    if (model::is_gpu_work(e.kind) && e.correlation >= 0)
      if (const auto l = launch_of.find(e.correlation); l >= 0) launching.insert(thread(ev[static_cast<std::size_t>(l)]));
  if (launching.empty()) return;
  std::vector<std::uint8_t> on(s.keys.size(), 0);
  std::uint64_t last = ~0ull;  // runs of events share a thread
  bool last_on = false;
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    if (!is_host(ev[i].kind) || summary_key[key_ids.of(i)] == ~0u) continue;  // no row of its own
    if (const auto t = thread(ev[i]); t != last) last = t, last_on = launching.count(t) > 0;
    if (last_on) on[key_of(i)] = 1;
  }
  for (std::uint32_t k = 0; k < s.keys.size(); ++k)
    if (model::device_of(s.keys[k].kind) == model::Device::cpu && !on[k]) s.off_launch_keys.push_back(k);
}

// The events the reader skipped (model::Accounting::broken), from its diagnostics.
std::uint64_t broken_events(const model::Diagnostics& d) {
  std::uint64_t n = 0;
  for (const auto id : {model::DiagId::event_corrupt, model::DiagId::event_missing_ts, model::DiagId::event_bad_dur,
                        model::DiagId::event_no_category})
    n += d.count(id);
  return n;
}

// The [memory] events, as memory_cells counts them: an allocation is in a row when its
// operator is.
void account_memory(const model::TraceFile& f, const Nesting& nesting, const StepWindows& windows, NameFacts& names,
                    model::Accounting& account) {
  auto& tally = account.stream(model::EventStream::memory);
  for (std::size_t j = 0; j < f.memory.size(); ++j) {
    tally.read.add(0);
    const auto i = nesting.mem_owner[j];
    if (!detail::device_allocation(f.memory[j])) tally.reason(model::LeftOut::not_allocation).add(0);
    else if (i == ~0u) tally.reason(model::LeftOut::no_operator).add(0);
    else if (windows.step_at[i] < 0) tally.reason(model::LeftOut::outside_steps).add(0);
    else if (nesting.profiler[i]) tally.reason(model::LeftOut::profiler).add(0);
    else if (names.step_span(f.events[i], true)) tally.reason(model::LeftOut::step_span).add(0);
    else tally.rows.add(0);
  }
}

// Operators that occur in every step and in no row: each left out for a warning's reason
// (the profiler's own operators, profiler::*, are its by name).
void account_names(const model::TraceFile& f, const std::set<std::pair<std::uint32_t, std::uint32_t>>& left_out_ops,
                   model::FileSummary& s) {
  if (!s.has_steps || left_out_ops.empty()) return;
  std::set<std::string_view> in_rows;
  for (const auto& k : s.keys)
    if (k.kind == Kind::cpu_op) in_rows.insert(k.name);
  auto& a = s.accounting;
  for (auto it = left_out_ops.begin(); it != left_out_ops.end();) {
    const auto name = it->first;
    std::size_t steps = 0;
    for (; it != left_out_ops.end() && it->first == name; ++it) ++steps;
    const auto text = f.pool.get(name);
    if (steps < s.steps.size() || in_rows.count(text) || text.starts_with("profiler::")) continue;
    ++a.every_step_count;
    if (a.every_step_names.size() < model::Accounting::k_names_kept) a.every_step_names.emplace_back(text);
  }
}

// "97.3 %" of `whole`.
std::string format_share(std::int64_t part, std::int64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 100.0);
  return buf;
}

// The warning every view shows (events_left_out): more than 1 % of the time in the steps
// left out for a warning's reason, or an operator of every step in no row.
void warn_left_out(model::FileSummary& s) {
  const auto& a = s.accounting;
  for (const auto stream : {model::EventStream::host, model::EventStream::gpu}) {
    const auto& t = a.stream(stream);
    model::Tally lost;
    model::LeftOut worst = model::LeftOut::profiler;
    for (std::size_t r = 0; r < model::k_left_out_reasons; ++r) {
      const auto why = static_cast<model::LeftOut>(r);
      // A whole trace's profiler work is its start and stop: no step to carry it.
      if (!model::left_out_warns(why) || (why == model::LeftOut::profiler && !s.has_steps)) continue;
      lost += t.left_out[r];
      if (t.left_out[r].ns > t.reason(worst).ns) worst = why;
    }
    const std::int64_t in_steps = t.read.ns - t.reason(model::LeftOut::outside_steps).ns - t.reason(model::LeftOut::step_span).ns;
    if (lost.events == 0 || static_cast<double>(lost.ns) <= 0.01 * static_cast<double>(in_steps)) continue;
    const bool is_host = stream == model::EventStream::host;
    s.diagnostics.report(model::DiagId::events_left_out, s.path, 0,
                         std::to_string(lost.events) + (is_host ? " host event" : " GPU event") +
                             (lost.events == 1 ? ", " : "s, ") +
                             format_share(lost.ns, in_steps) + " of the " + (is_host ? "host" : "GPU") +
                             " time in the steps, are in no row: " + model::left_out_label(worst),
                         lost.events);
  }
  if (a.every_step_count) {
    std::string names;
    for (const auto& n : a.every_step_names) names += (names.empty() ? "" : ", ") + n;
    if (a.every_step_count > a.every_step_names.size())
      names += " and " + std::to_string(a.every_step_count - a.every_step_names.size()) + " more";
    s.diagnostics.report(model::DiagId::events_left_out, s.path, 0,
                         std::to_string(a.every_step_count) + " operator" + (a.every_step_count == 1 ? "" : "s") +
                             " of every step in no row (" + names + "): left out as the profiler's own work",
                         a.every_step_count);
  }
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
  s.run = f.run;
  s.rank_source = f.rank_source;
  s.world_size = f.world_size;
  s.gpu_names = f.gpu_names;
  s.cuda_runtime_version = f.cuda_runtime_version;
  s.cuda_driver_version = f.cuda_driver_version;
  s.events = f.events.size();
  s.json_bytes = f.json_bytes;
  s.truncated = f.truncated;
  s.diagnostics = f.diagnostics;

  // The per-event arrays below (about 45 bytes an event, more with GPU work) share one
  // arena; running past it costs fresh huge pages for all that follows. At least ~30
  // bytes an event are always taken (step, key, self time, node, launcher, launch
  // index): huge pages for those, 4 KiB pages past them.
  Arena arena(f.events.size() * 100 + f.pool.size() * 12 + 4096, f.events.size() * 32);
  const detail::LaunchIndex launch_of(f, arena.get());
  auto steps = detail::assign_steps(f, launch_of, arena.get(), marker);
  const auto& ev = f.events;
  s.has_steps = !steps.steps.empty();
  s.launcher_level = launcher_level_name(options.launcher);
  s.by_shape = options.by_shape;
  NameFacts names(f.pool);
  names.set_marker_spans(steps.marker_span_name);
  if (marker) note_marker(s, steps, *marker);
  if (steps.repeated_steps)
    s.diagnostics.report(model::DiagId::step_number_repeated, s.path, 0,
                         std::to_string(steps.repeated_steps) +
                             " ProfilerStep spans repeat a step number of their process after its first span "
                             "ended: each is no step, its events are not compared",
                         steps.repeated_steps);

  // Steps: the file's CPU-side step spans, or one pseudo-step over the whole file.
  // Each event's step index (-1 outside every step) is assign_steps', moved, not
  // copied: construction keeps the arena's memory.
  if (!s.has_steps) steps.step_at.assign(ev.size(), 0);
  StepWindows windows{.step_at = std::move(steps.step_at), .begin = {}, .end = {}, .host_busy = {}, .host_wait = {},
                      .op_threads = 0};
  if (s.has_steps) {
    for (const auto& w : steps.steps) {
      model::StepSummary st;
      st.step = w.step;
      st.detail.dur_ns = w.end_ns - w.begin_ns;
      s.steps.push_back(st);
      windows.begin.push_back(w.begin_ns);
      windows.end.push_back(w.end_ns);
    }
  } else {
    // A whole trace spans its host events and its GPU work: the GPU's tail after the
    // last host event is the trace's too (there is no later step for it to land in).
    std::int64_t b = INT64_MAX, e = INT64_MIN;
    for (const auto& x : ev)
      if (is_host(x.kind) || model::is_gpu_work(x.kind)) b = std::min(b, x.ts_ns), e = std::max(e, x.ts_ns + x.dur_ns);
    if (b > e) b = e = 0;
    model::StepSummary st;
    st.detail.dur_ns = e - b;
    s.steps.push_back(st);
    windows.begin.push_back(b);
    windows.end.push_back(e);
    if (!marker) {
      auto hint = detail::marker_hint(f, b, e);
      s.marker_hint = std::move(hint.pattern);
      s.marker_hint_name = std::move(hint.name);
      s.marker_hint_count = hint.count;
    }
  }
  // The host event that starts last: the profiler's stop when it is a device
  // synchronisation nothing encloses (Nesting::profiler); and, in the same pass, the
  // GPU work to make room for.
  std::uint32_t stop_sync = ~0u;
  std::size_t gpu_work = 0;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (is_host(ev[i].kind) && (stop_sync == ~0u || ev[i].ts_ns >= ev[stop_sync].ts_ns))
      stop_sync = static_cast<std::uint32_t>(i);
    gpu_work += model::is_gpu_work(ev[i].kind);
  }
  windows.host_busy.assign(s.steps.size(), 0);
  const KeyIds key_ids(ev, f.pool.size(), arena.get());
  Paths paths(options.call_tree);
  ShapedNames shaped(f.pool.size());
  if (stop_sync != ~0u && !(ev[stop_sync].kind == Kind::runtime && names.device_sync(ev[stop_sync].name)))
    stop_sync = ~0u;
  const auto waiting = waiting_calls(f, launch_of, arena.get());
  const auto nesting =
      nest(f, names, key_ids, windows, paths, options.launcher, shaped, stop_sync, waiting, arena.get());
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
  gpu.reserve(gpu_work);
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
  // Every event accounted for (model/event_accounting.hpp): counters, no pass of their own.
  auto& account = s.accounting;
  account.recorded = true;
  account.broken = broken_events(f.diagnostics);
  const auto in_repeated = [&](std::uint32_t pid, std::int64_t ts) {
    return std::any_of(steps.repeated.begin(), steps.repeated.end(),
                       [&](const detail::StepWindow& w) { return w.pid == pid && ts >= w.begin_ns && ts < w.end_ns; });
  };
  std::set<std::pair<std::uint32_t, std::uint32_t>> left_out_ops;  // (name, step) of operators left out in a step
  for (std::uint32_t i = 0; i < ev.size(); ++i) {
    const auto& e = ev[i];
    const bool host = is_host(e.kind);
    auto& tally = account.stream(host ? model::EventStream::host : model::EventStream::gpu);
    // Time: a host event's self time, GPU work's duration; a device-side span (an
    // annotation's GPU copy, a sync) is no work and adds none.
    const std::int64_t spent = host ? nesting.self_ns[i] : model::is_gpu_work(e.kind) ? e.dur_ns : 0;
    tally.read.add(spent);
    const auto leave = [&](model::LeftOut why) { tally.reason(why).add(spent); };
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
    if (host && nesting.profiler[i]) {
      if (st >= 0 && nesting.profiler[i] == k_profiler_outer) {  // its time within the step (stop_trace runs on)
        const auto w = static_cast<std::size_t>(st);
        add_sat(s.steps[w].detail.profiler_ns,
                        std::max<std::int64_t>(0, std::min(e.ts_ns + e.dur_ns, windows.end[w]) - std::max(e.ts_ns, windows.begin[w])));
      }
      if (st >= 0 && e.kind == Kind::cpu_op) left_out_ops.insert({e.name, static_cast<std::uint32_t>(st)});
      // Its start and stop, outside the steps, are outside them like the rest.
      leave(st >= 0 ? model::LeftOut::profiler : model::LeftOut::outside_steps);
      outside += st < 0;
      continue;
    }
    if (st < 0) {
      if (host) ++outside;
      const auto l = host || e.correlation < 0 ? std::int64_t{i} : launch_of.find(e.correlation);
      if (!steps.repeated.empty() && l >= 0 && in_repeated(ev[static_cast<std::size_t>(l)].pid, ev[static_cast<std::size_t>(l)].ts_ns))
        leave(model::LeftOut::repeated_step);
      else
        leave(host                          ? model::LeftOut::outside_steps
              : !model::is_gpu_work(e.kind) ? model::LeftOut::device_span
              : l < 0                       ? model::LeftOut::unlinked
                                            : model::LeftOut::outside_steps);
      continue;
    }
    const auto step = static_cast<std::uint32_t>(st);
    auto& d = s.steps[step].detail;
    // Step spans themselves are step times, not operators (HTA quirk Q1).
    if (names.step_span(e, true)) {
      leave(model::LeftOut::step_span);
      continue;
    }
    tally.rows.add(spent);
    const auto key = key_of(i);
    auto& c = cell_of(key, step);
    c.count += 1;
    while (incl_at < nesting.incl_less.size() && nesting.incl_less[incl_at].first < i) ++incl_at;
    const bool nested = incl_at < nesting.incl_less.size() && nesting.incl_less[incl_at].first == i;
    c.nested += nested;
    add_sat(c.total_ns, nested ? nesting.incl_less[incl_at].second : e.dur_ns);
    const std::int64_t self_ns = is_host(e.kind) ? nesting.self_ns[i] : e.dur_ns;
    add_sat(c.self_ns, self_ns);
    // An occurrence nested in one of its key adds no wait: the outer one holds it.
    while (wait_at < nesting.wait_in.size() && nesting.wait_in[wait_at].first < i) ++wait_at;
    if (wait_at < nesting.wait_in.size() && nesting.wait_in[wait_at].first == i && !nested)
      add_sat(c.wait_ns, nesting.wait_in[wait_at].second);
    if (model::is_gpu_work(e.kind) && !nesting.waits.empty())
      add_sat(c.wait_ns, during_waits(e.ts_ns, e.ts_ns + e.dur_ns));
    if (is_host(e.kind) && nesting.node[i] != model::k_tree_top) {
      // An event past the depth limit is part of the node at the limit: its self time
      // is that node's (its time is inside the node's own already).
      const bool own = !(nesting.node[i] & k_inherited);
      auto& tc = tree_cell_of(nesting.node[i] & ~k_inherited, step);
      if (own) {
        tc.count += 1;
        add_sat(tc.total_ns, e.dur_ns);
      }
      add_sat(tc.self_ns, self_ns);
    }
    if (model::is_gpu_work(e.kind)) {
      std::uint32_t who;
      const auto l = e.correlation >= 0 ? launch_of.find(e.correlation) : -1;
      // GPU work hangs under the runtime call that launched it (top level without one).
      const auto under = l < 0 ? model::k_tree_top
                     : nesting.node[static_cast<std::size_t>(l)] == model::k_tree_top
                         ? model::k_tree_top
                         : nesting.node[static_cast<std::size_t>(l)] & ~k_inherited;
      if (paths.enabled()) {
        auto& tc = tree_cell_of(paths.child(under, e.name, i, true), step);
        tc.count += 1;
        add_sat(tc.total_ns, e.dur_ns);
        add_sat(tc.self_ns, e.dur_ns);
      }
      if (l < 0) {
        who = launcher_id(e.tid, k_stream_key, {});
        add_sat(d.unlaunched_ns, e.dur_ns);
      } else if (nesting.launcher[static_cast<std::size_t>(l)] == ~0u) who = launcher_id(~0u, ~0u, "(no enclosing operator)");
      else {
        const auto& by = ev[nesting.launcher[static_cast<std::size_t>(l)]];
        who = launcher_id(by.name, by.shape, {});
      }
      if (l >= 0 && names.graph_launch(ev[static_cast<std::size_t>(l)].name)) graph_launchers.insert(who);
      add_sat(launch_ns(who, key, step), e.dur_ns);
    }
    switch (e.kind) {
      case Kind::kernel:
        add_sat(names.comm_kernel(e.name) ? d.comm_ns : d.kernel_ns, e.dur_ns);
        break;
      case Kind::gpu_memcpy: add_sat(d.memcpy_ns, e.dur_ns); break;
      case Kind::gpu_memset: add_sat(d.memset_ns, e.dur_ns); break;
      case Kind::cpu_op: add_sat(d.cpu_self_ns, self_ns); break;
      case Kind::runtime: add_sat(d.runtime_ns, e.dur_ns); break;
      default: break;
    }
  }

  gpu_busy(gpu, f, launch_of, syncs, windows, s, arena.get());
  // After the rows: every event in a row has its key (the keys keep their order).
  detail::critical_paths(
      f, launch_of, windows, waiting, nesting.profiler, names, options.critical_path, key_of,
      [&](std::uint32_t i) {
        return windows.step_at[i] >= 0 && (model::is_gpu_work(ev[i].kind) || (is_host(ev[i].kind) && !nesting.profiler[i])) &&
               !names.step_span(ev[i], true);
      },
      s);
  std::sort(s.cells.begin(), s.cells.end(),
            [](const model::Cell& a, const model::Cell& b) { return std::tie(a.key, a.step) < std::tie(b.key, b.step); });
  if (!shaped_launchers) s.launcher_shapes.clear();
  std::sort(s.launches.begin(), s.launches.end(), [](const model::LaunchCell& a, const model::LaunchCell& b) {
    return std::tie(a.launcher, a.key, a.step) < std::tie(b.launcher, b.key, b.step);
  });
  s.graph_launchers.assign(graph_launchers.begin(), graph_launchers.end());
  s.tree.reserve(paths.size());
  for (std::uint32_t node = 0; node < paths.size(); ++node) s.tree.push_back({paths.parent(node), key_of(paths.event(node))});
  tree_memory(f, nesting, windows, names, s);  // before the fold: its nodes fold with the tree's
  sort_tree_cells(s.tree_cells);
  fold_tree(s, k_tree_budget);
  detail::summarize_collectives(f, launch_of, windows.step_at.data(), s);
  detail::summarize_memory(f, windows.begin, windows.end, s);
  memory_cells(f, nesting, windows, names, key_of, s);
  work_cells(f, windows, key_of, s);
  detail::summarize_memory_timeline(f, windows.begin, windows.end, nesting.mem_owner, s);

  off_launch_keys(f, launch_of, key_of, summary_key, key_ids, s);
  account_memory(f, nesting, windows, names, account);
  account_names(f, left_out_ops, s);
  warn_left_out(s);
  // Counted per event, as their ids say; one sample per file says how many.
  if (outside)
    s.diagnostics.report(model::DiagId::event_outside_steps, f.path, 0,
                         std::to_string(outside) + (outside == 1 ? " host event outside every " : " host events outside every ") +
                             (s.step_marker.empty() ? "ProfilerStep" : "step of the step marker"),
                         outside);
  if (steps.gpu_unlinked)
    s.diagnostics.report(model::DiagId::event_gpu_unlinked, f.path, 0,
                         std::to_string(steps.gpu_unlinked) + " GPU events without their launch" +
                             (steps.gpu_unplaced && s.has_steps ? " (" + std::to_string(steps.gpu_unplaced) + " outside every step)" : ""),
                         steps.gpu_unlinked);
  return s;
}

model::SetSummary summarize_set(const model::TraceSet& set, const SummarizeOptions& options) {
  model::SetSummary out;
  out.label = set.label;
  out.inputs = set.inputs;
  out.runs = set.runs;
  out.diagnostics = set.diagnostics;
  for (const auto& f : set.files) out.files.push_back(f.summary ? *f.summary : summarize_file(f, options));
  model::bound_durations(out);  // as a summary read back is: traces and summaries compare alike
  return out;
}

model::SetSummary summarize_set(model::TraceSet&& set, const SummarizeOptions& options) {
  model::SetSummary out;
  out.label = std::move(set.label);
  out.inputs = std::move(set.inputs);
  out.runs = std::move(set.runs);
  out.diagnostics = std::move(set.diagnostics);
  // A copy of every cell would be fresh pages to fault in, for nothing.
  for (auto& f : set.files)
    out.files.push_back(f.summary && f.summary.use_count() == 1 ? std::move(*f.summary)
                        : f.summary                             ? *f.summary
                                                                : summarize_file(f, options));
  model::bound_durations(out);
  return out;
}

}  // namespace tracediff::analysis
