// The JSON's "critical_path" (docs/critical-path.md, docs/output.md): what bounded each
// side's step, the rows on the path, the what-ifs; as analysis decided them.
#include "output/json_parts.hpp"
#include "output/machine_number.hpp"

namespace tracediff::output {

namespace {

void optional_pct(JsonEmit& j, std::string_view key, const std::optional<double>& pct) {
  j.key(key).number(pct ? decimal(*pct, 1) : "null");
}

void optional_rank(JsonEmit& j, std::string_view key, const std::optional<int>& rank) {
  if (rank) j.key(key).number(*rank);
  else j.key(key).null();
}

}  // namespace

void critical_path(JsonEmit& j, const model::DiffReport& r) {
  const auto& cp = r.critical_path;
  if (r.hta_compat) {
    j.null();
    return;
  }
  j.begin_object().key("decided").boolean(cp.decided).key("model").string(cp.model);
  if (!cp.decided) {
    j.key("missing").string(cp.missing).end_object();
    return;
  }
  j.key("sentence").string(cp.sentence).line(4).key("moved").string(cp.moved);
  j.line(4).key("what_if_line").string(cp.what_if_line).line(4).key("asked_line").string(cp.asked_line);
  j.line(4).key("reading").string(cp.reading);
  j.key("control_bound").string(cp.control_bound).key("test_bound").string(cp.test_bound);
  j.key("control_bound_id").string(cp.control_bound_id).key("test_bound_id").string(cp.test_bound_id);
  j.key("bound_moved").boolean(cp.bound_moved).line(4);
  comparison_object(j, "length", cp.length);
  comparison_object(j, "step", cp.step);
  j.line(4).key("longest_rank").begin_object();
  optional_rank(j, "control", cp.control_longest_rank);
  optional_rank(j, "test", cp.test_longest_rank);
  j.end_object().key("waited_on").begin_object();
  optional_rank(j, "control", cp.control_waited_on);
  optional_rank(j, "test", cp.test_waited_on);
  j.end_object().line(4).key("bounds");
  list(j, cp.bounds, 6, [&](const model::PathBound& b) {
    j.begin_object().key("bound").string(b.id).key("label").string(b.label);
    j.key("control_share_pct").number(decimal(b.control_share, 1)).key("test_share_pct").number(decimal(b.test_share, 1));
    comparison(j, b.time);
    j.end_object();
  });
  j.line(4).key("rows");
  list(j, cp.rows, 6, [&](const model::PathRow& p) {
    const auto& row = r.rows[p.row];
    j.begin_object().key("name").string(row.name).key("category").string(row.category);
    if (p.change.empty()) j.key("change").null();
    else j.key("change").string(p.change);
    optional_pct(j, "control_on_path_pct", p.control_on_path);
    optional_pct(j, "test_on_path_pct", p.test_on_path);
    comparison(j, p.time);
    j.end_object();
  });
  j.line(4).key("what_if");
  list(j, cp.what_if, 6, [&](const model::WhatIfResult& w) {
    j.begin_object().key("side").string(w.side).key("what").string(w.spec);
    if (w.row) j.key("row").string(r.rows[*w.row].name);
    else j.key("row").null();
    j.key("factor").number(decimal(w.factor, 3)).key("saved_us").number(us_decimal(w.saved_ns));
    j.key("saved_pct").number(decimal(w.saved_pct, 1));
    optional_pct(j, "on_path_pct", w.on_path_pct);
    j.key("steps").number(static_cast<std::uint64_t>(w.steps)).end_object();
  });
  j.line(4).key("per_step").begin_object();
  for (const bool test : {false, true}) {
    const auto& side = test ? r.test : r.control;
    j.line(6).key(test ? "test" : "control").begin_array();
    for (std::size_t u = 0; u < side.step_paths.size() && u < side.step_details.size(); ++u) {
      const auto& p = side.step_paths[u];
      if (!p.recorded) continue;
      j.spaced_line(8).begin_object().key("rank").number(side.step_details[u].rank);
      j.key("step").number(side.step_details[u].step).key("step_us").number(us_decimal(side.step_details[u].dur_ns));
      j.key("length_us").number(us_decimal(p.length_ns));
      for (std::size_t b = 0; b < model::k_bound_count; ++b)
        j.key(model::bound_id(static_cast<model::Bound>(b))).number(us_decimal(p.bound_ns[b]));
      j.key("events").number(p.events).end_object();
    }
    j.end_array();
  }
  j.end_object(4).end_object(2);
}

}  // namespace tracediff::output
