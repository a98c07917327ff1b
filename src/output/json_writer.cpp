// The report as JSON (docs/output.md, docs/report.schema.json), streamed through
// json_emit: one thing, the JSON format, one section after another in schema order.
#include <algorithm>
#include <string>
#include <vector>

#include "output/json_emit.hpp"
#include "output/json_parts.hpp"
#include "output/machine_number.hpp"
#include "output/writers.hpp"

namespace tracediff::output {

namespace {

template <class N>
void numbers(JsonEmit& j, const std::vector<N>& v) {
  j.begin_array();
  for (const auto n : v) j.number(n);
  j.end_array();
}

// model::Accounting: per stream, read, rows and each reason that has events, as events
// and µs (memory events have no time); only where it was recorded.
void accounting(JsonEmit& j, const model::Accounting& a, int indent) {
  const auto tally = [&](const model::Tally& t, bool timed) {
    j.begin_object().key("events").number(t.events);
    if (timed) j.key("us").number(us_decimal(t.ns));
    j.end_object();
  };
  j.begin_object().key("broken").number(a.broken);
  for (std::size_t st = 0; st < model::k_event_streams; ++st) {
    const auto stream = static_cast<model::EventStream>(st);
    const bool timed = stream != model::EventStream::memory;
    const auto& t = a.streams[st];
    j.line(indent + 2).key(model::event_stream_name(stream)).begin_object().key("read");
    tally(t.read, timed);
    j.key("rows");
    tally(t.rows, timed);
    j.key("left_out").begin_object();
    for (std::size_t r = 0; r < model::k_left_out_reasons; ++r) {  // the reasons with events: an absent one is 0
      if (!t.left_out[r].events) continue;
      j.key(model::left_out_name(static_cast<model::LeftOut>(r)));
      tally(t.left_out[r], timed);
    }
    j.end_object().end_object();
  }
  j.line(indent + 2).key("every_step_operators_left_out").number(a.every_step_count).key("every_step_operators");
  strings(j, a.every_step_names);
  j.end_object();
}

void side(JsonEmit& j, const model::SideSummary& s) {
  j.begin_object().line(4).key("label").string(s.label).line(4).key("inputs");
  strings(j, s.inputs);
  j.line(4).key("files");
  list(j, s.files, 6, [&](const model::FileInfo& f) {
    j.begin_object().key("path").string(f.path).key("rank").number(f.rank);
    j.key("rank_source").string(model::rank_source_name(f.rank_source)).key("events").number(f.events);
    j.key("json_bytes").number(f.json_bytes).key("truncated").boolean(f.truncated);
    if (f.accounting.recorded) {
      j.line(8).key("accounting");
      accounting(j, f.accounting, 8);
    }
    j.end_object();
  });
  if (s.accounting.recorded) {
    j.line(4).key("accounting");
    accounting(j, s.accounting, 4);
  }
  j.line(4).key("ranks");
  numbers(j, s.ranks);
  j.key("available_ranks");
  numbers(j, s.available_ranks);
  j.line(4).key("iterations");
  numbers(j, s.iterations);
  j.key("available_iterations");
  numbers(j, s.available_iterations);
  j.line(4).key("whole_trace").boolean(s.whole_trace);
  if (!s.step_markers.empty()) {  // only then: a run without --step-marker writes what it always did
    j.key("step_markers").begin_array();
    for (const auto& m : s.step_markers)
      j.begin_object().key("pattern").string(m.pattern).key("shape").string(m.spans ? "spans" : "markers")
          .key("files").number(m.files).key("matches").number(m.matches).key("steps").number(m.steps).end_object();
    j.end_array();
  }
  if (!s.runs.empty()) {  // several runs only: a side of one run writes what it always did
    j.line(4).key("runs");
    list(j, s.runs, 6, [&](const model::RunInfo& run) {
      j.begin_object().key("inputs").string(run.inputs).key("files").number(run.files).key("steps").number(run.units);
      j.key("step_median_us").number(us_decimal(run.step_median_ns)).key("step_p25_us").number(us_decimal(run.step_p25_ns));
      j.key("step_p75_us").number(us_decimal(run.step_p75_ns)).key("gpu_names");
      strings(j, run.gpu_names);
      j.end_object();
    });
    j.line(4).key("between_run_spread_pct");
    j.number(pct_decimal(s.between_run_spread_pct, "null"));
    j.key("within_run_spread_pct");
    j.number(pct_decimal(s.within_run_spread_pct, "null"));
  }
  j.key("gpu_names");
  strings(j, s.gpu_names);
  j.line(4).key("meta").begin_object().key("gpus");
  strings(j, s.meta.gpus);
  j.key("world_sizes");
  numbers(j, s.meta.world_sizes);
  j.key("cuda_runtime_versions");
  numbers(j, s.meta.cuda_runtime);
  j.key("cuda_driver_versions");
  numbers(j, s.meta.cuda_driver);
  j.key("gpus_with_work");
  numbers(j, s.meta.gpus_with_work);
  j.key("cuda_graphs").boolean(s.meta.cuda_graphs).key("compiled").boolean(s.meta.compiled).end_object();
  const auto& st = s.step_times;
  j.line(4).key("step_time_us").begin_object().key("count").number(st.steps.size());
  j.key("mean").number(us_decimal(st.mean_ns)).key("median").number(us_decimal(st.median_ns));
  j.key("min").number(us_decimal(st.min_ns)).key("max").number(us_decimal(st.max_ns)).end_object();
  j.line(4).key("cpu_total").begin_object().key("count").number(s.cpu_total.count);
  j.key("total_us").number(us_decimal(s.cpu_total.total_ns)).end_object();
  j.key("gpu_total").begin_object().key("count").number(s.gpu_total.count);
  j.key("total_us").number(us_decimal(s.gpu_total.total_ns)).end_object().end_object(2);
}

void detail_fields(JsonEmit& j, const model::StepDetail& d) {
  j.key("step_us").number(us_decimal(d.dur_ns)).key("gpu_busy_us").number(us_decimal(d.gpu_busy_ns));
  j.key("gpu_idle_us").number(us_decimal(d.gpu_idle_ns)).key("kernel_us").number(us_decimal(d.kernel_ns));
  j.key("comm_kernel_us").number(us_decimal(d.comm_ns)).key("memcpy_us").number(us_decimal(d.memcpy_ns));
  j.key("memset_us").number(us_decimal(d.memset_ns)).key("cpu_self_us").number(us_decimal(d.cpu_self_ns));
  j.key("runtime_us").number(us_decimal(d.runtime_ns)).key("gpu_spill_us").number(us_decimal(d.gpu_spill_ns));
  j.key("host_busy_us").number(us_decimal(d.host_busy_ns)).key("host_wait_us").number(us_decimal(d.host_wait_ns));
  j.key("host_idle_us").number(us_decimal(d.host_idle_ns));
}

void steps(JsonEmit& j, const model::SideSummary& s) {
  const auto& st = s.step_times;
  j.begin_object().key("count").number(st.steps.size()).key("units").number(s.units);
  j.key("mean_us").number(us_decimal(st.mean_ns)).key("median_us").number(us_decimal(st.median_ns));
  j.key("min_us").number(us_decimal(st.min_ns)).key("max_us").number(us_decimal(st.max_ns));
  j.line(6).key("mean").begin_object();
  detail_fields(j, s.step_mean);
  j.end_object();
  const auto step = [&](const model::StepDetail& d) {
    j.begin_object().key("rank").number(d.rank).key("step").number(d.step);
    detail_fields(j, d);
    j.end_object();
  };
  j.line(6).key("per_step");
  list(j, s.step_details, 8, step);
  j.line(6).key("warmup");
  list(j, s.warmup, 8, step);
  j.end_object();
}

// A size or count figure's values as they are (bytes, or a count), with the same keys.
void plain_comparison(JsonEmit& j, const model::Comparison& v) {
  const bool both = !v.control_missing && !v.test_missing;
  j.key("control").number(v.control_missing ? "null" : decimal(v.control, 1));
  j.key("test").number(v.test_missing ? "null" : decimal(v.test, 1));
  j.key("diff").number(both ? decimal(v.diff(), 1) : "null");
  j.key("diff_pct").number(pct_decimal(both ? v.pct : std::nullopt, "null"));
  j.key("verdict").string(model::verdict_name(v.verdict)).key("significant").boolean(v.significant);
}

// Why the step moved: the parts of each GPU's step, what moved them, the waterfall's bars.
void step_breakdown(JsonEmit& j, const model::DiffReport& r) {
  const auto& sc = r.step_change;
  j.begin_object().key("bottom_line").string(sc.bottom_line).key("equation").string(sc.equation).line(4);
  comparison_object(j, "step", sc.step);
  comparison_object(j, "exposed_comm", sc.exposed_comm);
  j.key("rest_diff").number(us_decimal(sc.rest_diff)).key("bars").begin_array();
  for (const auto b : sc.bars) j.string(sc.parts[b].id);
  j.end_array().line(4).key("parts");
  list(j, sc.parts, 6, [&](const model::StepPart& p) {
    j.begin_object().key("part").string(p.id).key("label").string(p.label);
    comparison(j, p.value);
    j.key("families");
    strings(j, p.families);
    j.key("rows").begin_array();
    for (const auto k : p.rows) j.string(r.rows[k].name);
    j.end_array().end_object();
  });
  j.end_object();
}

void last_arrivals(JsonEmit& j, const model::LastArrivals& l) {
  j.begin_object().key("count").number(l.count).key("of").number(l.of);
  j.key("share_pct").number(pct_decimal(100 * l.share, "null")).end_object();
}

// Who a side waited on (docs/reading-the-report.md "Which rank everyone waited on"); null when nobody.
void straggler(JsonEmit& j, const std::optional<model::Straggler>& s) {
  if (!s) {
    j.null();
    return;
  }
  j.begin_object().key("rank").number(s->rank).key("last_arrivals");
  last_arrivals(j, s->last);
  j.key("others_wait_us").number(us_decimal(s->others_wait_ns));
  j.key("others_wait_diff_us").number(s->others_wait_diff_ns ? us_decimal(*s->others_wait_diff_ns) : "null");
  j.end_object();
}

void figures(JsonEmit& j, const std::vector<model::Figure>& v) {
  list(j, v, 4, [&](const model::Figure& f) {
    j.begin_object().key("figure").string(f.id).key("label").string(f.label);
    // Memory's figures say their unit; every other figure is in microseconds.
    if (f.bytes) {
      j.key("unit").string("bytes");
      plain_comparison(j, f.value);
    } else {
      comparison(j, f.value);
    }
    j.end_object();
  });
}

// Memory per device (docs/output.md "memory"): each figure per step unit, judged.
void memory(JsonEmit& j, const model::DiffReport& r) {
  list(j, r.memory, 4, [&](const model::MemoryDevice& d) {
    j.begin_object().key("device").string(d.device).key("device_type").number(d.device_type);
    j.key("device_id").number(d.device_id).key("figures").begin_array();
    for (const auto& f : d.figures) {
      j.line(8).begin_object().key("figure").string(f.id).key("label").string(f.label);
      j.key("unit").string(f.bytes ? "bytes" : "count");
      plain_comparison(j, f.value);
      j.end_object();
    }
    j.end_array(d.figures.empty() ? -1 : 6).end_object();
  });
}

// A row's allocations per step (DiffRow::memory), where a side's traces have memory events.
void row_memory(JsonEmit& j, const model::DiffRow& row) {
  const auto& m = row.memory;
  if (!m.recorded) return;
  const auto bytes = [](double v) { return decimal(v, 1); };
  j.line(5).key("allocated_control_bytes").number(bytes(m.control.allocated));
  j.key("allocated_test_bytes").number(bytes(m.test.allocated));
  j.key("allocated_self_control_bytes").number(bytes(m.control.allocated_self));
  j.key("allocated_self_test_bytes").number(bytes(m.test.allocated_self));
  j.line(5).key("allocated_self_diff_bytes").number(bytes(m.allocated.diff()));
  j.key("allocated_self_diff_pct").number(pct_decimal(m.allocated.pct, "null"));
  j.key("allocated_self_verdict").string(model::verdict_name(m.allocated.verdict));
  j.key("allocated_self_significant").boolean(m.allocated.significant);
  j.line(5).key("allocated_count_control").number(decimal(m.control.allocations, 3));
  j.key("allocated_count_test").number(decimal(m.test.allocations, 3));
  j.key("allocated_self_count_control").number(decimal(m.control.allocations_self, 3));
  j.key("allocated_self_count_test").number(decimal(m.test.allocations_self, 3));
  j.key("allocated_held_control_bytes").number(bytes(m.control.held));
  j.key("allocated_held_test_bytes").number(bytes(m.test.held));
}

// The rows that allocate more (or less) per step (DiffReport::allocates_more).
void allocation_list(JsonEmit& j, const model::DiffReport& r, const model::TopList& t) {
  list(j, t.rows, 4, [&](std::size_t i) {
    const auto& row = r.rows[i];
    const auto& m = row.memory;
    j.begin_object().key("name").string(row.name).key("label").string(row.label);
    j.key("category").string(row.category).key("control_self_bytes").number(decimal(m.allocated.control, 1));
    j.key("test_self_bytes").number(decimal(m.allocated.test, 1)).key("diff_bytes").number(decimal(m.allocated.diff(), 1));
    j.key("diff_pct").number(pct_decimal(m.allocated.pct, "null"));
    j.key("verdict").string(model::verdict_name(m.allocated.verdict));
    j.key("control_bytes").number(decimal(m.control.allocated, 1)).key("test_bytes").number(decimal(m.test.allocated, 1));
    j.end_object();
  });
}

// A side's median step's memory over time (SideSummary::memory_timeline), or null.
void memory_timeline(JsonEmit& j, const model::SideSummary& side) {
  if (!side.memory_timeline) {
    j.null();
    return;
  }
  const auto& t = *side.memory_timeline;
  const auto& d = side.step_details[t.step];
  j.begin_object().key("rank").number(d.rank).key("step").number(d.step).key("step_us").number(us_decimal(t.step_ns));
  j.key("device").string(model::memory_device_name(t.device_type, t.device_id));
  j.key("values").string(t.totals ? "total_allocated" : "growth");
  j.key("peak_us").number(us_decimal(t.peak_ns)).key("peak_bytes").number(t.peak_bytes);
  j.key("peak_op").string(t.peak_op).key("points").begin_array();
  for (const auto& [ns, bytes] : t.points) j.begin_array().number(us_decimal(ns)).number(bytes).end_array();
  j.end_array().end_object();
}

// The Δ every list prints and ranks by (DiffRow::shown): medians per step in the
// default mode, totals in --hta-compat.
void shown(JsonEmit& j, const model::DiffRow& row) {
  const auto& s = row.shown;
  j.key("shown").begin_object().key("control_us").number(us_decimal(s.control_ns));
  j.key("test_us").number(us_decimal(s.test_ns)).key("diff_us").number(us_decimal(s.diff_ns()));
  j.key("diff_pct").number(pct_decimal(s.pct, "null"));
  j.key("basis").string(row.per_step_basis ? "median_per_step" : "total");
  j.key("mean_differs").boolean(s.mean_differs).end_object();
}

// Calls apart from time: time per call on each side, and the change split in two.
void calls(JsonEmit& j, const model::DiffRow& row) {
  j.key("control_per_call_us").number(us_decimal(row.control_per_call_ns));
  j.key("test_per_call_us").number(us_decimal(row.test_per_call_ns));
  j.key("per_call_pct").number(pct_decimal(row.per_call_pct, "null"));
  j.key("diff_from_calls_us").number(us_decimal(row.diff_from_calls_ns));
  j.key("diff_from_per_call_us").number(us_decimal(row.diff_from_per_call_ns));
  j.key("by_calls").boolean(row.by_calls);
}

void top_list(JsonEmit& j, const model::DiffReport& r, const model::TopList& t) {
  j.begin_array();
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const auto& row = r.rows[t.rows[k]];
    j.line(4).begin_object().key("name").string(row.name).key("label").string(row.label);
    j.key("category").string(row.category).key("device").string(model::device_name(row.device));
    j.key("control_per_step_us").number(us_decimal(row.basis_control_ns()));
    j.key("test_per_step_us").number(us_decimal(row.basis_test_ns()));
    j.key("diff_per_step_us").number(us_decimal(row.basis_diff_ns()));
    j.key("diff_pct").number(pct_decimal(row.pct, "null")).key("verdict").string(model::verdict_name(row.verdict));
    j.key("words").string(model::row_words(row));
    shown(j, row);
    calls(j, row);
    j.key("path").begin_array();
    const auto node = k < t.nodes.size() ? t.nodes[k] : model::k_no_node;
    for (const auto s : r.call_tree.path(node)) j.string(s);
    j.end_array();
    // The share of the row's change that path carries (TopList::path_shares).
    if (k < t.path_shares.size() && t.path_shares[k]) j.key("path_share").number(decimal(*t.path_shares[k], 3));
    j.end_object();
  }
  j.end_array();
}

// The call tree, nested as it is (written from its pre-order with a stack of open
// nodes: a deep recursion must not recurse here): the nodes the page embeds, which
// hold their ancestors, or with `full` (or a report built by hand) every one.
void call_tree(JsonEmit& j, const model::DiffReport& r, bool full) {
  const auto& t = r.call_tree;
  std::vector<std::uint32_t> shown;
  if (full || !r.embedded.decided) {
    shown.resize(t.nodes.size());
    for (std::uint32_t i = 0; i < shown.size(); ++i) shown[i] = i;
  } else {
    shown = r.embedded.tree;
  }
  j.begin_object().key("budget").number(t.budget).key("control_folded").number(t.control_folded);
  j.key("test_folded").number(t.test_folded).key("nodes").number(t.nodes.size()).key("shown").number(shown.size());
  j.key("left_out").number(t.nodes.size() - shown.size()).key("top").begin_array();
  std::vector<std::uint32_t> open;
  // Allocations where the rows have them (a side's traces have memory events).
  const bool memory = std::any_of(r.rows.begin(), r.rows.end(), [](const model::DiffRow& row) { return row.memory.recorded; });
  const auto side = [&](const model::CallNode::Side& s, double incl, double gpu) {
    j.begin_object().key("count_per_step").number(decimal(s.count, 3)).key("inclusive_us").number(us_decimal(incl));
    j.key("self_us").number(us_decimal(s.self_ns)).key("gpu_us").number(us_decimal(gpu));
    if (memory) j.key("allocated_self_bytes").number(decimal(s.allocated, 1));
    j.end_object();
  };
  for (const auto i : shown) {
    const auto& n = t.nodes[i];
    for (; !open.empty() && open.back() != n.parent; open.pop_back()) j.end_array().end_object();
    j.line(static_cast<int>(std::min<std::size_t>(2 * open.size() + 4, 64)));
    j.begin_object().key("name").string(n.name).key("device").string(model::device_name(n.device));
    if (n.other) j.key("other").boolean(true);
    j.key("control");
    side(n.control, n.time.control, n.gpu.control);
    j.key("test");
    side(n.test, n.time.test, n.gpu.test);
    j.key("diff_per_step_us").number(us_decimal(n.time.diff())).key("diff_pct").number(pct_decimal(n.time.pct, "null"));
    j.key("verdict").string(model::verdict_name(n.time.verdict)).key("significant").boolean(n.time.significant);
    j.key("gpu_diff_per_step_us").number(us_decimal(n.gpu.diff()));
    j.key("gpu_verdict").string(model::verdict_name(n.gpu.verdict)).key("children").begin_array();
    open.push_back(i);
  }
  for (; !open.empty(); open.pop_back()) j.end_array().end_object();
  j.end_array().end_object();
}

void top_counts(JsonEmit& j, const model::TopList& t) {
  j.begin_object().key("shown").number(t.rows.size()).key("more").number(t.more);
  j.key("within_noise").number(t.within_noise).key("untestable").number(t.untestable);
  j.key("folded").number(t.folded).key("renamed").number(t.renamed).key("swapped").number(t.swapped);
  j.key("waiting").number(t.waiting).key("sleeping").number(t.sleeping).key("significant").number(t.significant());
  j.key("raw").boolean(t.raw);
  j.end_object();
}

void ranks(JsonEmit& j, const std::vector<model::RankDetail>& v) {
  list(j, v, 6, [&](const model::RankDetail& r) {
    j.begin_object().key("rank").number(r.rank).key("steps").number(r.steps);
    j.key("step_mean_us").number(us_decimal(r.step_mean_ns));
    j.key("gpu_busy_mean_us").number(us_decimal(r.gpu_busy_mean_ns)).end_object();
  });
}

// Inductor's kernel_flop / kernel_num_gb as rates (DiffRow::Work), where recorded.
void inductor(JsonEmit& j, const model::DiffRow::Work& w) {
  const auto opt = [](const std::optional<double>& v) { return v ? decimal(*v, 3) : std::string("null"); };
  j.key("inductor").begin_object().key("control_tflops").number(opt(w.control_tflops));
  j.key("test_tflops").number(opt(w.test_tflops)).key("tflops_pct").number(pct_decimal(w.tflops_pct, "null"));
  j.key("control_gbps").number(opt(w.control_gbps)).key("test_gbps").number(opt(w.test_gbps));
  j.key("gbps_pct").number(pct_decimal(w.gbps_pct, "null")).end_object();
}

void row(JsonEmit& j, const model::DiffReport& r, const model::DiffRow& row) {
  j.begin_object().key("name").string(row.name);
  if (row.full_name != row.name) j.key("full_name").string(row.full_name);
  j.key("label").string(row.label).key("category").string(row.category);
  j.key("device").string(model::device_name(row.device));
  j.key("control_count").number(row.control.count).key("test_count").number(row.test.count);
  j.key("control_total_us").number(us_decimal(row.control.total_ns));
  j.key("test_total_us").number(us_decimal(row.test.total_ns)).key("diff_count").number(row.diff_count());
  j.key("diff_total_us").number(us_decimal(row.diff_ns()));
  j.key("diff_pct").number(pct_decimal(row.diff_pct(), "null")).key("change").string(model::change_name(row.change));
  if (row.per_step_basis) {
    j.line(5).key("control_count_per_step").number(decimal(row.control_step.count, 3));
    j.key("test_count_per_step").number(decimal(row.test_step.count, 3));
    j.key("control_per_step_us").number(us_decimal(row.control_step.total_ns));
    j.key("test_per_step_us").number(us_decimal(row.test_step.total_ns));
    j.key("diff_per_step_us").number(us_decimal(row.diff_per_step_ns()));
    j.line(5).key("control_self_us").number(us_decimal(row.control.self_ns));
    j.key("test_self_us").number(us_decimal(row.test.self_ns));
    j.key("control_self_per_step_us").number(us_decimal(row.control_step.self_ns));
    j.key("test_self_per_step_us").number(us_decimal(row.test_step.self_ns));
    j.line(5).key("control_stddev_per_step_us").number(us_decimal(row.control_step.stddev_ns));
    j.key("test_stddev_per_step_us").number(us_decimal(row.test_step.stddev_ns));
    j.key("median_diff_per_step_us").number(us_decimal(row.median_diff_ns));
    j.key("verdict").string(model::verdict_name(row.verdict)).key("words").string(model::row_words(row));
    j.key("significant").boolean(row.significant);
    if (row.swapped) j.key("swapped").boolean(true);
    if (row.off_launch_threads) j.key("off_launch_threads").boolean(true);  // only then: other rows as before
    if (row.sleeping) j.key("sleeping").boolean(true);
    j.key("waits_for_gpu").boolean(row.waits_for_gpu);
    j.key("control_wait_per_step_us").number(us_decimal(row.control_step.wait_ns));
    j.key("test_wait_per_step_us").number(us_decimal(row.test_step.wait_ns));
    j.line(5).key("control_median_per_step_us").number(us_decimal(row.shown.control_ns));
    j.key("test_median_per_step_us").number(us_decimal(row.shown.test_ns));
    j.key("median_diff_pct").number(pct_decimal(row.shown.pct, "null"));
    calls(j, row);
    row_memory(j, row);
    if (!row.launched_by.empty()) j.key("launched_by").string(row.launched_by);
    if (!row.family.empty()) j.key("family").string(row.family).key("family_by").string(row.family_by);
    if (!row.test_name.empty()) j.key("test_name").string(row.test_name).key("matched_by").string(row.matched_by);
    if (row.explained_by < r.rows.size()) j.key("explained_by").string(r.rows[row.explained_by].name);
    if (row.work.recorded) {
      j.line(5);
      inductor(j, row.work);
    }
    if (!row.shape.empty()) {  // --by-shape
      const auto opt = [](const std::optional<double>& v, auto format) { return v ? format(*v) : std::string("null"); };
      j.line(5).key("shape").string(row.shape).key("flops_per_call").number(opt(row.flops_per_call, flops_decimal));
      j.key("control_tflops").number(opt(row.control_tflops, [](double v) { return decimal(v, 3); }));
      j.key("test_tflops").number(opt(row.test_tflops, [](double v) { return decimal(v, 3); }));
    }
  }
  j.end_object();
}

// The default mode's sections: steps, ranks, launchers, families, the call tree.
void per_step_sections(JsonEmit& j, const model::DiffReport& r, const JsonOptions& o) {
  j.line(2).key("steps").begin_object().line(4).key("control");
  steps(j, r.control);
  j.line(4).key("test");
  steps(j, r.test);
  std::optional<double> step_pct;
  for (const auto& f : r.headline)
    if (f.id == "step_time") step_pct = f.value.pct;
  j.line(4).key("change_pct").number(pct_decimal(step_pct, "null")).end_object(2);
  j.line(2).key("ranks").begin_object().key("control");
  ranks(j, r.control.rank_details);
  j.key("test");
  ranks(j, r.test.rank_details);
  j.line(4).key("control_spread_us").number(us_decimal(r.ranks.control_spread_ns));
  j.key("test_spread_us").number(us_decimal(r.ranks.test_spread_ns));
  if (r.ranks.changed_most_control_rank)
    j.key("changed_most").begin_object().key("control_rank").number(*r.ranks.changed_most_control_rank)
        .key("test_rank").number(*r.ranks.changed_most_test_rank)
        .key("change_pct").number(pct_decimal(r.ranks.changed_most_pct, "null")).end_object();
  j.line(4).key("collectives").begin_object();
  j.key("control").begin_object().key("matched").number(r.control.collectives.matched);
  j.key("by_seq").number(r.control.collectives.by_seq).end_object();
  j.key("test").begin_object().key("matched").number(r.test.collectives.matched);
  j.key("by_seq").number(r.test.collectives.by_seq).end_object().end_object();
  j.line(4).key("straggler").begin_object().key("control");
  straggler(j, r.ranks.control_straggler);
  j.key("test");
  straggler(j, r.ranks.test_straggler);
  j.end_object().line(4).key("rows");
  list(j, r.rank_rows, 6, [&](const model::RankRow& rr) {
    const auto rank = [&](const std::optional<int>& v) {
      if (v) j.number(*v);
      else j.null();
    };
    j.begin_object().key("control_rank");
    rank(rr.control_rank);
    j.key("test_rank");
    rank(rr.test_rank);
    j.key("control_steps").number(rr.control_steps).key("test_steps").number(rr.test_steps);
    j.key("changed_most").boolean(rr.changed_most).line(7);
    comparison_object(j, "step_time", rr.step_time);
    comparison_object(j, "gpu_busy", rr.gpu_busy);
    comparison_object(j, "wait", rr.wait);
    j.key("last_arrivals").begin_object().key("control");
    if (rr.control_rank) last_arrivals(j, rr.control_last);
    else j.null();
    j.key("test");
    if (rr.test_rank) last_arrivals(j, rr.test_last);
    else j.null();
    j.end_object().end_object();
  });
  j.end_object().line(2).key("by_launcher").begin_array();
  for (const auto& l : r.by_launcher) {
    j.line(4).begin_object().key("launcher").string(l.launcher).key("graph_replay").boolean(l.graph_replay);
    j.key("control_us").number(us_decimal(l.control_ns)).key("test_us").number(us_decimal(l.test_ns));
    j.key("control_per_step_us").number(us_decimal(l.time.control));
    j.key("test_per_step_us").number(us_decimal(l.time.test));
    j.key("diff_pct").number(pct_decimal(l.time.pct, "null")).key("verdict").string(model::verdict_name(l.time.verdict));
    j.key("significant").boolean(l.time.significant).key("kernels");
    list(j, l.kernels, 6, [&](const model::LauncherRow::Kernel& k) {
      j.begin_object().key("name").string(k.name).key("control_us").number(us_decimal(k.control_ns));
      j.key("test_us").number(us_decimal(k.test_ns)).key("control_per_step_us").number(us_decimal(k.time.control));
      j.key("test_per_step_us").number(us_decimal(k.time.test));
      j.key("verdict").string(model::verdict_name(k.time.verdict)).end_object();
    });
    j.end_object();
  }
  j.end_array(r.by_launcher.empty() ? -1 : 2);
  // GPU time by kernel family (docs/families.md).
  j.line(2).key("families");
  list(j, r.families, 4, [&](const model::FamilyRow& f) {
    j.begin_object().key("family").string(f.id).key("label").string(f.label);
    j.key("control_per_step_us").number(us_decimal(f.time.control));
    j.key("test_per_step_us").number(us_decimal(f.time.test));
    j.key("diff_per_step_us").number(us_decimal(f.time.diff()));
    j.key("diff_pct").number(pct_decimal(f.time.pct, "null")).key("verdict").string(model::verdict_name(f.time.verdict));
    j.key("significant").boolean(f.time.significant).key("kernels").number(f.kernels);
    if (f.work.recorded) inductor(j, f.work);
    j.end_object();
  });
  // The families every view lists, in their order (DiffReport::families_shown).
  j.line(2).key("families_shown").begin_array();
  for (const auto i : r.families_shown) j.string(r.families[i].id);
  j.end_array();
  j.line(2).key("top_launchers").begin_array();
  for (const auto k : r.top_launchers) j.string(r.by_launcher[k].launcher);
  j.end_array().line(2).key("call_tree");
  call_tree(j, r, o.full_tree);
  j.line(2).key("min_change").begin_object().key("pct").number(decimal(r.min_change.pct, 3));
  j.key("us").number(decimal(r.min_change.us(), 3)).end_object();
  j.line(2).key("between_runs").boolean(r.between_runs);
}

}  // namespace

void write_json(const model::DiffReport& r, std::ostream& out, const JsonOptions& o) {
  JsonEmit j(out);
  j.begin_object().line(2).key("tool").begin_object().key("name").string("tracediff");
  j.key("version").string(TRACEDIFF_VERSION).end_object();
  j.line(2).key("mode").string(r.hta_compat ? "hta-compat" : "default");
  j.line(2).key("device").string(r.device_filter).key("short_names").boolean(r.short_names);
  if (r.by_shape) j.key("by_shape").boolean(true);
  j.line(2).key("control");
  side(j, r.control);
  j.line(2).key("test");
  side(j, r.test);
  const auto& v = r.verdict_counts;
  j.line(2).key("unit").string(r.unit);
  j.line(2).key("verdict").begin_object().key("line").string(r.verdict_line);
  j.key("mark").string(model::mark_name(r.verdict_mark)).key("regressions").number(v.regressions);
  j.key("improvements").number(v.improvements).key("left_out").number(v.left_out);
  j.key("waiting").number(v.waiting).key("same").number(v.same).key("untestable").number(v.untestable).end_object();
  j.line(2).key("sides_differ");
  list(j, r.sides_differ, 4, [&](const model::SideDifference& d) {
    j.begin_object().key("what").string(d.what).key("control").string(d.control).key("test").string(d.test).end_object();
  });
  if (r.step_change.decided) {
    j.line(2).key("step_breakdown");
    step_breakdown(j, r);
  }
  j.line(2).key("critical_path");
  critical_path(j, r);
  j.line(2).key("headline");
  figures(j, r.headline);
  j.line(2).key("breakdown");
  figures(j, r.breakdown);
  j.line(2).key("memory");
  memory(j, r);
  if (!r.memory.empty()) {
    j.line(2).key("allocates_more");
    allocation_list(j, r, r.allocates_more);
    j.line(2).key("allocates_less");
    allocation_list(j, r, r.allocates_less);
    j.line(2).key("memory_timeline").begin_object().key("control");
    memory_timeline(j, r.control);
    j.key("test");
    memory_timeline(j, r.test);
    j.end_object();
  }
  j.line(2).key("queue_backs_up").boolean(r.queue_backs_up);
  j.line(2).key("top_regressions");
  top_list(j, r, r.top_regressions);
  j.line(2).key("top_improvements");
  top_list(j, r, r.top_improvements);
  j.line(2).key("top_counts").begin_object().key("regressions");
  top_counts(j, r.top_regressions);
  j.key("improvements");
  top_counts(j, r.top_improvements);
  j.end_object().line(2).key("gate_heading").string(r.gate_heading);
  j.line(2).key("gate");
  list(j, r.gate, 4, [&](const model::GateResult& g) {
    j.begin_object().key("condition").string(g.condition.text);
    j.key("outcome").string(model::gate_outcome_name(g.outcome)).key("detail").string(g.detail).end_object();
  });
  j.line(2).key("rows").begin_array();
  for (const auto& x : r.rows) {
    j.line(4);
    row(j, r, x);
  }
  j.end_array(r.rows.empty() ? -1 : 2).line(2).key("ops_diff").begin_object();
  for (int g = 0; g < 5; ++g) {
    j.line(4).key(model::change_name(static_cast<model::Change>(g)));
    strings(j, r.ops_diff.groups[g]);
  }
  j.end_object(2);
  if (!r.hta_compat) per_step_sections(j, r, o);
  j.line(2).key("notes");
  strings(j, r.notes);
  j.line(2).key("diagnostics").begin_object().line(4).key("counts").begin_object();
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (r.diagnostics.count(id)) j.key(model::diag_name(id)).number(r.diagnostics.count(id));
  }
  j.end_object().line(4).key("samples");
  list(j, r.diagnostics.samples(), 6, [&](const model::DiagSample& s) {
    j.begin_object().key("kind").string(model::diag_name(s.id)).key("side").string(s.side);
    j.key("file").string(s.file).key("offset").number(s.offset).key("message").string(s.message).end_object();
  });
  j.end_object(2).end_object(0);
  out << '\n';
}

}  // namespace tracediff::output
