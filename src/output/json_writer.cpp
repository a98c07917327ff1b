#include <string>
#include <vector>

#include "util/escape.hpp"
#include "output/machine_number.hpp"
#include "output/writers.hpp"

namespace tracediff::output {

namespace {

template <class T, class F>
void list(std::ostream& out, const std::vector<T>& v, F&& item) {
  out << '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out << ", ";
    item(v[i]);
  }
  out << ']';
}

void strings(std::ostream& out, const std::vector<std::string>& v) {
  list(out, v, [&](const std::string& s) { out << json_string(s); });
}

template <class N>
void numbers(std::ostream& out, const std::vector<N>& v) {
  list(out, v, [&](N n) { out << n; });
}

void side(std::ostream& out, const model::SideSummary& s) {
  out << "{\n    \"label\": " << json_string(s.label) << ",\n    \"inputs\": ";
  strings(out, s.inputs);
  out << ",\n    \"files\": ";
  list(out, s.files, [&](const model::FileInfo& f) {
    out << "\n      {\"path\": " << json_string(f.path) << ", \"rank\": " << f.rank
        << ", \"rank_source\": \"" << model::rank_source_name(f.rank_source) << "\", \"events\": " << f.events
        << ", \"json_bytes\": " << f.json_bytes << ", \"truncated\": " << (f.truncated ? "true" : "false")
        << '}';
  });
  out << ",\n    \"ranks\": ";
  numbers(out, s.ranks);
  out << ", \"available_ranks\": ";
  numbers(out, s.available_ranks);
  out << ",\n    \"iterations\": ";
  numbers(out, s.iterations);
  out << ", \"available_iterations\": ";
  numbers(out, s.available_iterations);
  out << ",\n    \"whole_trace\": " << (s.whole_trace ? "true" : "false");
  if (!s.step_markers.empty()) {  // only then: a run without --step-marker writes what it always did
    out << ", \"step_markers\": ";
    list(out, s.step_markers, [&](const model::StepMarkerUse& m) {
      out << "{\"pattern\": " << json_string(m.pattern) << ", \"shape\": \"" << (m.spans ? "spans" : "markers")
          << "\", \"files\": " << m.files << ", \"matches\": " << m.matches << ", \"steps\": " << m.steps << '}';
    });
  }
  out << ", \"gpu_names\": ";
  strings(out, s.gpu_names);
  out << ",\n    \"meta\": {\"gpus\": ";
  strings(out, s.meta.gpus);
  out << ", \"world_sizes\": ";
  numbers(out, s.meta.world_sizes);
  out << ", \"cuda_runtime_versions\": ";
  numbers(out, s.meta.cuda_runtime);
  out << ", \"cuda_driver_versions\": ";
  numbers(out, s.meta.cuda_driver);
  out << ", \"gpus_with_work\": ";
  numbers(out, s.meta.gpus_with_work);
  out << ", \"cuda_graphs\": " << (s.meta.cuda_graphs ? "true" : "false")
      << ", \"compiled\": " << (s.meta.compiled ? "true" : "false") << '}';
  const auto& st = s.step_times;
  out << ",\n    \"step_time_us\": {\"count\": " << st.steps.size() << ", \"mean\": " << us_decimal(st.mean_ns)
      << ", \"median\": " << us_decimal(st.median_ns) << ", \"min\": " << us_decimal(st.min_ns)
      << ", \"max\": " << us_decimal(st.max_ns) << "},\n    \"cpu_total\": {\"count\": " << s.cpu_total.count
      << ", \"total_us\": " << us_decimal(s.cpu_total.total_ns) << "}, \"gpu_total\": {\"count\": "
      << s.gpu_total.count << ", \"total_us\": " << us_decimal(s.gpu_total.total_ns) << "}\n  }";
}

void detail_fields(std::ostream& out, const model::StepDetail& d) {
  out << "\"step_us\": " << us_decimal(d.dur_ns) << ", \"gpu_busy_us\": " << us_decimal(d.gpu_busy_ns)
      << ", \"gpu_idle_us\": " << us_decimal(d.gpu_idle_ns) << ", \"kernel_us\": " << us_decimal(d.kernel_ns)
      << ", \"comm_kernel_us\": " << us_decimal(d.comm_ns) << ", \"memcpy_us\": " << us_decimal(d.memcpy_ns)
      << ", \"memset_us\": " << us_decimal(d.memset_ns) << ", \"cpu_self_us\": " << us_decimal(d.cpu_self_ns)
      << ", \"runtime_us\": " << us_decimal(d.runtime_ns) << ", \"gpu_spill_us\": " << us_decimal(d.gpu_spill_ns)
      << ", \"host_busy_us\": " << us_decimal(d.host_busy_ns) << ", \"host_wait_us\": " << us_decimal(d.host_wait_ns)
      << ", \"host_idle_us\": " << us_decimal(d.host_idle_ns);
}

void steps(std::ostream& out, const model::SideSummary& s) {
  const auto& st = s.step_times;
  out << "{\"count\": " << st.steps.size() << ", \"units\": " << s.units << ", \"mean_us\": " << us_decimal(st.mean_ns)
      << ", \"median_us\": " << us_decimal(st.median_ns) << ", \"min_us\": " << us_decimal(st.min_ns)
      << ", \"max_us\": " << us_decimal(st.max_ns) << ",\n      \"mean\": {";
  detail_fields(out, s.step_mean);
  out << "},\n      \"per_step\": ";
  list(out, s.step_details, [&](const model::StepDetail& d) {
    out << "\n        {\"rank\": " << d.rank << ", \"step\": " << d.step << ", ";
    detail_fields(out, d);
    out << '}';
  });
  out << ",\n      \"warmup\": ";
  list(out, s.warmup, [&](const model::StepDetail& d) {
    out << "\n        {\"rank\": " << d.rank << ", \"step\": " << d.step << ", ";
    detail_fields(out, d);
    out << '}';
  });
  out << '}';
}

// A judged figure's values, in µs: "control": .., "test": .., "diff": .., "diff_pct": ..,
// "verdict": .., "significant": ..
void comparison(std::ostream& out, const model::Comparison& v) {
  const bool both = !v.control_missing && !v.test_missing;
  out << "\"control\": " << (v.control_missing ? "null" : us_decimal(v.control))
      << ", \"test\": " << (v.test_missing ? "null" : us_decimal(v.test))
      << ", \"diff\": " << (both ? us_decimal(v.diff()) : "null")
      << ", \"diff_pct\": " << pct_decimal(both ? v.pct : std::nullopt, "null")
      << ", \"verdict\": \"" << model::verdict_name(v.verdict) << "\", \"significant\": "
      << (v.significant ? "true" : "false");
}

// Why the step moved: the parts of each GPU's step, what moved them, the waterfall's bars.
void step_breakdown(std::ostream& out, const model::DiffReport& r) {
  const auto& sc = r.step_change;
  out << "{\"bottom_line\": " << json_string(sc.bottom_line) << ", \"equation\": " << json_string(sc.equation)
      << ",\n    \"step\": {";
  comparison(out, sc.step);
  out << "}, \"exposed_comm\": {";
  comparison(out, sc.exposed_comm);
  out << "}, \"rest_diff\": " << us_decimal(sc.rest_diff) << ", \"bars\": [";
  for (std::size_t k = 0; k < sc.bars.size(); ++k) out << (k ? ", " : "") << '"' << sc.parts[sc.bars[k]].id << '"';
  out << "],\n    \"parts\": ";
  list(out, sc.parts, [&](const model::StepPart& p) {
    out << "\n      {\"part\": \"" << p.id << "\", \"label\": " << json_string(p.label) << ", ";
    comparison(out, p.value);
    out << ", \"families\": [";
    for (std::size_t k = 0; k < p.families.size(); ++k) out << (k ? ", " : "") << json_string(p.families[k]);
    out << "], \"rows\": [";
    for (std::size_t k = 0; k < p.rows.size(); ++k) out << (k ? ", " : "") << json_string(r.rows[p.rows[k]].name);
    out << "]}";
  });
  out << '}';
}

void last_arrivals(std::ostream& out, const model::LastArrivals& l) {
  out << "{\"count\": " << l.count << ", \"of\": " << l.of << ", \"share_pct\": " << pct_decimal(100 * l.share, "null")
      << '}';
}

// Who a side waited on (docs/reading-the-report.md "Which rank everyone waited on"); null when nobody.
void straggler(std::ostream& out, const std::optional<model::Straggler>& s) {
  if (!s) {
    out << "null";
    return;
  }
  out << "{\"rank\": " << s->rank << ", \"last_arrivals\": ";
  last_arrivals(out, s->last);
  out << ", \"others_wait_us\": " << us_decimal(s->others_wait_ns) << ", \"others_wait_diff_us\": "
      << (s->others_wait_diff_ns ? us_decimal(*s->others_wait_diff_ns) : std::string("null")) << '}';
}

void figures(std::ostream& out, const std::vector<model::Figure>& v) {
  list(out, v, [&](const model::Figure& f) {
    out << "\n    {\"figure\": \"" << f.id << "\", \"label\": " << json_string(f.label) << ", ";
    comparison(out, f.value);
    out << '}';
  });
}

// The Δ every list prints and ranks by (DiffRow::shown): medians per step in the
// default mode, totals in --hta-compat.
void shown(std::ostream& out, const model::DiffRow& row) {
  const auto& s = row.shown;
  out << ", \"shown\": {\"control_us\": " << us_decimal(s.control_ns) << ", \"test_us\": " << us_decimal(s.test_ns)
      << ", \"diff_us\": " << us_decimal(s.diff_ns()) << ", \"diff_pct\": " << pct_decimal(s.pct, "null")
      << ", \"basis\": \"" << (row.per_step_basis ? "median_per_step" : "total") << "\", \"mean_differs\": "
      << (s.mean_differs ? "true" : "false") << '}';
}

// Calls apart from time: time per call on each side, and the change split in two.
void calls(std::ostream& out, const model::DiffRow& row) {
  out << ", \"control_per_call_us\": " << us_decimal(row.control_per_call_ns)
      << ", \"test_per_call_us\": " << us_decimal(row.test_per_call_ns)
      << ", \"per_call_pct\": " << pct_decimal(row.per_call_pct, "null")
      << ", \"diff_from_calls_us\": " << us_decimal(row.diff_from_calls_ns)
      << ", \"diff_from_per_call_us\": " << us_decimal(row.diff_from_per_call_ns)
      << ", \"by_calls\": " << (row.by_calls ? "true" : "false");
}

void top_list(std::ostream& out, const model::DiffReport& r, const model::TopList& t) {
  out << '[';
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const auto& row = r.rows[t.rows[k]];
    out << (k ? ",\n    " : "\n    ") << "{\"name\": " << json_string(row.name) << ", \"label\": " << json_string(row.label)
        << ", \"category\": " << json_string(row.category) << ", \"device\": \"" << model::device_name(row.device)
        << "\", \"control_per_step_us\": "
        << us_decimal(row.per_step_basis ? row.control_step.total_ns : static_cast<double>(row.control.total_ns))
        << ", \"test_per_step_us\": "
        << us_decimal(row.per_step_basis ? row.test_step.total_ns : static_cast<double>(row.test.total_ns))
        << ", \"diff_per_step_us\": "
        << us_decimal(row.per_step_basis ? row.diff_per_step_ns() : static_cast<double>(row.diff_ns()))
        << ", \"diff_pct\": " << pct_decimal(row.pct, "null") << ", \"verdict\": \""
        << model::verdict_name(row.verdict) << "\", \"words\": \"" << model::row_words(row) << '"';
    shown(out, row);
    calls(out, row);
    out << ", \"path\": ";
    const auto node = k < t.nodes.size() ? t.nodes[k] : model::k_no_node;
    list(out, r.call_tree.path(node), [&](std::string_view s) { out << json_string(s); });
    // The share of the row's change that path carries.
    if (node < r.call_tree.nodes.size() && k < t.path_shares.size() && row.diff_per_step_ns() != 0)
      out << ", \"path_share\": " << decimal(t.path_shares[k], 3);
    out << '}';
  }
  out << ']';
}

// The call tree, nested as it is (written from its pre-order with a stack of open
// nodes: a deep recursion must not recurse here): the nodes the page embeds, which
// hold their ancestors, or with `full` (or a report built by hand) every one.
void call_tree(std::ostream& out, const model::DiffReport& r, bool full) {
  const auto& t = r.call_tree;
  std::vector<std::uint32_t> shown;
  if (full || !r.embedded.decided) {
    shown.resize(t.nodes.size());
    for (std::uint32_t i = 0; i < shown.size(); ++i) shown[i] = i;
  } else {
    shown = r.embedded.tree;
  }
  out << "{\"budget\": " << t.budget << ", \"control_folded\": " << t.control_folded
      << ", \"test_folded\": " << t.test_folded << ", \"nodes\": " << t.nodes.size() << ", \"shown\": " << shown.size()
      << ", \"left_out\": " << t.nodes.size() - shown.size() << ", \"top\": [";
  struct Open {
    std::uint32_t node;
    bool any_child;
  };
  std::vector<Open> open;
  bool any_top = false;
  const auto side = [&](const model::CallNode::Side& s, double incl, double gpu) {
    out << "{\"count_per_step\": " << decimal(s.count, 3) << ", \"inclusive_us\": " << us_decimal(incl)
        << ", \"self_us\": " << us_decimal(s.self_ns) << ", \"gpu_us\": " << us_decimal(gpu) << '}';
  };
  for (const auto i : shown) {
    const auto& n = t.nodes[i];
    while (!open.empty() && open.back().node != n.parent) {
      out << "]}";
      open.pop_back();
    }
    bool& any = open.empty() ? any_top : open.back().any_child;
    out << (any ? ",\n" : "\n") << std::string(std::min<std::size_t>(2 * open.size() + 4, 64), ' ');
    any = true;
    out << "{\"name\": " << json_string(n.name) << ", \"device\": \"" << model::device_name(n.device) << '"';
    if (n.other) out << ", \"other\": true";
    out << ", \"control\": ";
    side(n.control, n.time.control, n.gpu.control);
    out << ", \"test\": ";
    side(n.test, n.time.test, n.gpu.test);
    out << ", \"diff_per_step_us\": " << us_decimal(n.time.diff()) << ", \"diff_pct\": " << pct_decimal(n.time.pct, "null")
        << ", \"verdict\": \"" << model::verdict_name(n.time.verdict) << "\", \"significant\": "
        << (n.time.significant ? "true" : "false") << ", \"gpu_diff_per_step_us\": " << us_decimal(n.gpu.diff())
        << ", \"gpu_verdict\": \"" << model::verdict_name(n.gpu.verdict) << "\", \"children\": [";
    open.push_back({i, false});
  }
  for (; !open.empty(); open.pop_back()) out << "]}";
  out << "]}";
}

void top_counts(std::ostream& out, const model::TopList& t) {
  out << "{\"shown\": " << t.rows.size() << ", \"more\": " << t.more << ", \"within_noise\": " << t.within_noise
      << ", \"untestable\": " << t.untestable << ", \"folded\": " << t.folded << ", \"renamed\": " << t.renamed
      << ", \"swapped\": " << t.swapped << ", \"waiting\": " << t.waiting << ", \"significant\": " << t.significant()
      << ", \"raw\": " << (t.raw ? "true" : "false") << '}';
}

void ranks(std::ostream& out, const std::vector<model::RankDetail>& v) {
  list(out, v, [&](const model::RankDetail& r) {
    out << "\n      {\"rank\": " << r.rank << ", \"steps\": " << r.steps << ", \"step_mean_us\": "
        << us_decimal(r.step_mean_ns) << ", \"gpu_busy_mean_us\": " << us_decimal(r.gpu_busy_mean_ns) << '}';
  });
}

}  // namespace

void write_json(const model::DiffReport& r, std::ostream& out, const JsonOptions& o) {
  out << "{\n  \"tool\": {\"name\": \"tracediff\", \"version\": \"" TRACEDIFF_VERSION "\"},\n"
      << "  \"mode\": \"" << (r.hta_compat ? "hta-compat" : "default") << "\",\n"
      << "  \"device\": \"" << r.device_filter << "\", \"short_names\": " << (r.short_names ? "true" : "false")
      << (r.by_shape ? ", \"by_shape\": true" : "") << ",\n  \"control\": ";
  side(out, r.control);
  out << ",\n  \"test\": ";
  side(out, r.test);
  const auto& v = r.verdict_counts;
  out << ",\n  \"unit\": \"" << r.unit << "\",\n  \"verdict\": {\"line\": " << json_string(r.verdict_line)
      << ", \"mark\": \"" << model::mark_name(r.verdict_mark) << "\", \"regressions\": " << v.regressions
      << ", \"improvements\": " << v.improvements << ", \"left_out\": " << v.left_out << ", \"waiting\": " << v.waiting << ", \"same\": " << v.same
      << ", \"untestable\": " << v.untestable << "},\n  \"sides_differ\": ";
  list(out, r.sides_differ, [&](const model::SideDifference& d) {
    out << "\n    {\"what\": " << json_string(d.what) << ", \"control\": " << json_string(d.control)
        << ", \"test\": " << json_string(d.test) << '}';
  });
  if (r.step_change.decided) {
    out << ",\n  \"step_breakdown\": ";
    step_breakdown(out, r);
  }
  out << ",\n  \"headline\": ";
  figures(out, r.headline);
  out << ",\n  \"breakdown\": ";
  figures(out, r.breakdown);
  out << ",\n  \"queue_backs_up\": " << (r.queue_backs_up ? "true" : "false");
  out << ",\n  \"top_regressions\": ";
  top_list(out, r, r.top_regressions);
  out << ",\n  \"top_improvements\": ";
  top_list(out, r, r.top_improvements);
  out << ",\n  \"top_counts\": {\"regressions\": ";
  top_counts(out, r.top_regressions);
  out << ", \"improvements\": ";
  top_counts(out, r.top_improvements);
  out << "},\n  \"gate_heading\": " << json_string(r.gate_heading) << ",\n  \"gate\": ";
  list(out, r.gate, [&](const model::GateResult& g) {
    out << "\n    {\"condition\": " << json_string(g.condition.text) << ", \"outcome\": \""
        << model::gate_outcome_name(g.outcome) << "\", \"detail\": " << json_string(g.detail) << '}';
  });
  out << ",\n  \"rows\": [";
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    out << (i ? ",\n    " : "\n    ") << "{\"name\": " << json_string(row.name);
    if (row.full_name != row.name) out << ", \"full_name\": " << json_string(row.full_name);
    out << ", \"label\": " << json_string(row.label);
    out << ", \"category\": " << json_string(row.category) << ", \"device\": \"" << model::device_name(row.device)
        << "\", \"control_count\": " << row.control.count << ", \"test_count\": " << row.test.count
        << ", \"control_total_us\": " << us_decimal(row.control.total_ns)
        << ", \"test_total_us\": " << us_decimal(row.test.total_ns) << ", \"diff_count\": " << row.diff_count()
        << ", \"diff_total_us\": " << us_decimal(row.diff_ns())
        << ", \"diff_pct\": " << pct_decimal(row.diff_pct(), "null") << ", \"change\": \""
        << model::change_name(row.change) << '"';
    if (row.per_step_basis) {
      out << ",\n     \"control_count_per_step\": " << decimal(row.control_step.count, 3)
          << ", \"test_count_per_step\": " << decimal(row.test_step.count, 3)
          << ", \"control_per_step_us\": " << us_decimal(row.control_step.total_ns)
          << ", \"test_per_step_us\": " << us_decimal(row.test_step.total_ns)
          << ", \"diff_per_step_us\": " << us_decimal(row.diff_per_step_ns())
          << ",\n     \"control_self_us\": " << us_decimal(row.control.self_ns)
          << ", \"test_self_us\": " << us_decimal(row.test.self_ns)
          << ", \"control_self_per_step_us\": " << us_decimal(row.control_step.self_ns)
          << ", \"test_self_per_step_us\": " << us_decimal(row.test_step.self_ns)
          << ",\n     \"control_stddev_per_step_us\": " << us_decimal(row.control_step.stddev_ns)
          << ", \"test_stddev_per_step_us\": " << us_decimal(row.test_step.stddev_ns)
          << ", \"median_diff_per_step_us\": " << us_decimal(row.median_diff_ns)
          << ", \"verdict\": \"" << model::verdict_name(row.verdict) << "\", \"words\": \"" << model::row_words(row)
          << "\", \"significant\": " << (row.significant ? "true" : "false");
      if (row.swapped) out << ", \"swapped\": true";
      out << ", \"waits_for_gpu\": " << (row.waits_for_gpu ? "true" : "false")
          << ", \"control_wait_per_step_us\": " << us_decimal(row.control_step.wait_ns)
          << ", \"test_wait_per_step_us\": " << us_decimal(row.test_step.wait_ns);
      out << ",\n     \"control_median_per_step_us\": " << us_decimal(row.shown.control_ns)
          << ", \"test_median_per_step_us\": " << us_decimal(row.shown.test_ns)
          << ", \"median_diff_pct\": " << pct_decimal(row.shown.pct, "null");
      calls(out, row);
      if (!row.launched_by.empty()) out << ", \"launched_by\": " << json_string(row.launched_by);
      if (!row.family.empty()) out << ", \"family\": " << json_string(row.family);
      if (!row.test_name.empty())
        out << ", \"test_name\": " << json_string(row.test_name) << ", \"matched_by\": \"" << row.matched_by << '"';
      if (row.explained_by < r.rows.size())
        out << ", \"explained_by\": " << json_string(r.rows[row.explained_by].name);
      if (!row.shape.empty()) {  // --by-shape
        const auto opt = [](const std::optional<double>& v, auto format) { return v ? format(*v) : std::string("null"); };
        out << ",\n     \"shape\": " << json_string(row.shape)
            << ", \"flops_per_call\": " << opt(row.flops_per_call, flops_decimal)
            << ", \"control_tflops\": " << opt(row.control_tflops, [](double v) { return decimal(v, 3); })
            << ", \"test_tflops\": " << opt(row.test_tflops, [](double v) { return decimal(v, 3); });
      }
    }
    out << '}';
  }
  out << (r.rows.empty() ? "],\n" : "\n  ],\n") << "  \"ops_diff\": {";
  for (int g = 0; g < 5; ++g) {
    out << (g ? ",\n    " : "\n    ") << '"' << model::change_name(static_cast<model::Change>(g)) << "\": ";
    strings(out, r.ops_diff.groups[g]);
  }
  out << "\n  },\n";
  if (!r.hta_compat) {
    out << "  \"steps\": {\n    \"control\": ";
    steps(out, r.control);
    out << ",\n    \"test\": ";
    steps(out, r.test);
    std::optional<double> step_pct;
    for (const auto& f : r.headline)
      if (f.id == "step_time") step_pct = f.value.pct;
    out << ",\n    \"change_pct\": " << pct_decimal(step_pct, "null") << "\n  },\n  \"ranks\": {\"control\": ";
    ranks(out, r.control.rank_details);
    out << ", \"test\": ";
    ranks(out, r.test.rank_details);
    out << ",\n    \"control_spread_us\": " << us_decimal(r.ranks.control_spread_ns)
        << ", \"test_spread_us\": " << us_decimal(r.ranks.test_spread_ns);
    if (r.ranks.changed_most_control_rank)
      out << ", \"changed_most\": {\"control_rank\": " << *r.ranks.changed_most_control_rank
          << ", \"test_rank\": " << *r.ranks.changed_most_test_rank
          << ", \"change_pct\": " << pct_decimal(r.ranks.changed_most_pct, "null") << '}';
    out << ",\n    \"collectives\": {\"control\": {\"matched\": " << r.control.collectives.matched
        << ", \"by_seq\": " << r.control.collectives.by_seq << "}, \"test\": {\"matched\": "
        << r.test.collectives.matched << ", \"by_seq\": " << r.test.collectives.by_seq
        << "}},\n    \"straggler\": {\"control\": ";
    straggler(out, r.ranks.control_straggler);
    out << ", \"test\": ";
    straggler(out, r.ranks.test_straggler);
    out << '}';
    out << ",\n    \"rows\": ";
    list(out, r.rank_rows, [&](const model::RankRow& rr) {
      const auto rank = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("null"); };
      out << "\n      {\"control_rank\": " << rank(rr.control_rank) << ", \"test_rank\": " << rank(rr.test_rank)
          << ", \"control_steps\": " << rr.control_steps << ", \"test_steps\": " << rr.test_steps
          << ", \"changed_most\": " << (rr.changed_most ? "true" : "false") << ",\n       \"step_time\": {";
      comparison(out, rr.step_time);
      out << "}, \"gpu_busy\": {";
      comparison(out, rr.gpu_busy);
      out << "}, \"wait\": {";
      comparison(out, rr.wait);
      out << "}, \"last_arrivals\": {\"control\": ";
      if (rr.control_rank) last_arrivals(out, rr.control_last);
      else out << "null";
      out << ", \"test\": ";
      if (rr.test_rank) last_arrivals(out, rr.test_last);
      else out << "null";
      out << "}}";
    });
    out << "},\n  \"by_launcher\": [";
    for (std::size_t i = 0; i < r.by_launcher.size(); ++i) {
      const auto& l = r.by_launcher[i];
      out << (i ? ",\n    " : "\n    ") << "{\"launcher\": " << json_string(l.launcher)
          << ", \"graph_replay\": " << (l.graph_replay ? "true" : "false")
          << ", \"control_us\": " << us_decimal(l.control_ns) << ", \"test_us\": " << us_decimal(l.test_ns)
          << ", \"control_per_step_us\": " << us_decimal(l.time.control)
          << ", \"test_per_step_us\": " << us_decimal(l.time.test)
          << ", \"diff_pct\": " << pct_decimal(l.time.pct, "null") << ", \"verdict\": \""
          << model::verdict_name(l.time.verdict) << "\", \"significant\": " << (l.time.significant ? "true" : "false")
          << ", \"kernels\": ";
      list(out, l.kernels, [&](const model::LauncherRow::Kernel& k) {
        out << "\n      {\"name\": " << json_string(k.name) << ", \"control_us\": " << us_decimal(k.control_ns)
            << ", \"test_us\": " << us_decimal(k.test_ns) << ", \"control_per_step_us\": "
            << us_decimal(k.time.control) << ", \"test_per_step_us\": " << us_decimal(k.time.test)
            << ", \"verdict\": \"" << model::verdict_name(k.time.verdict) << "\"}";
      });
      out << '}';
    }
    out << (r.by_launcher.empty() ? "],\n" : "\n  ],\n");
    // GPU time by kernel family (docs/families.md).
    out << "  \"families\": ";
    list(out, r.families, [&](const model::FamilyRow& f) {
      out << "\n    {\"family\": " << json_string(f.id) << ", \"label\": " << json_string(f.label)
          << ", \"control_per_step_us\": " << us_decimal(f.time.control)
          << ", \"test_per_step_us\": " << us_decimal(f.time.test)
          << ", \"diff_per_step_us\": " << us_decimal(f.time.diff())
          << ", \"diff_pct\": " << pct_decimal(f.time.pct, "null") << ", \"verdict\": \""
          << model::verdict_name(f.time.verdict) << "\", \"significant\": " << (f.time.significant ? "true" : "false")
          << ", \"kernels\": " << f.kernels << '}';
    });
    out << ",\n";
    out << "  \"top_launchers\": ";
    list(out, r.top_launchers, [&](std::size_t k) { out << json_string(r.by_launcher[k].launcher); });
    out << ",\n  \"call_tree\": ";
    call_tree(out, r, o.full_tree);
    out << ",\n  \"min_change\": {\"pct\": " << decimal(r.min_change_pct, 3)
        << ", \"us\": " << decimal(r.min_change_us, 3) << "},\n";
  }
  out << "  \"notes\": ";
  strings(out, r.notes);
  out << ",\n  \"diagnostics\": {\n    \"counts\": {";
  bool first = true;
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (!r.diagnostics.count(id)) continue;
    out << (first ? "" : ", ") << '"' << model::diag_name(id) << "\": " << r.diagnostics.count(id);
    first = false;
  }
  out << "},\n    \"samples\": ";
  list(out, r.diagnostics.samples(), [&](const model::DiagSample& s) {
    out << "\n      {\"kind\": \"" << model::diag_name(s.id) << "\", \"side\": " << json_string(s.side)
        << ", \"file\": " << json_string(s.file)
        << ", \"offset\": " << s.offset << ", \"message\": " << json_string(s.message) << '}';
  });
  out << "\n  }\n}\n";
}

}  // namespace tracediff::output
