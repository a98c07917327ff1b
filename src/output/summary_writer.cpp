#include "output/summary_writer.hpp"

#include "output/json_emit.hpp"

namespace tracediff::output {

namespace {

void strings(JsonEmit& j, const std::vector<std::string>& v) {
  j.begin_array();
  for (const auto& s : v) j.string(s);
  j.end_array();
}

void optional_number(JsonEmit& j, const auto& v) {
  if (v) j.number(*v);
  else j.null();
}

void diagnostics(JsonEmit& j, const model::Diagnostics& d) {
  j.begin_object().key("counts").begin_object();
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (d.count(id)) j.key(model::diag_name(id)).number(d.count(id));
  }
  j.end_object().key("samples").begin_array();
  for (const auto& s : d.samples())
    j.begin_array().string(model::diag_name(s.id)).string(s.file).number(s.offset).string(s.message).number(s.covers).end_array();
  j.end_array().end_object();
}

}  // namespace

void write_summary(const model::SetSummary& s, std::ostream& out) {
  // Strings byte for byte: two names that differ only in invalid UTF-8 stay two names,
  // as they are when the traces are compared (the summary reader allows such bytes).
  JsonEmit j(out, true);
  j.begin_object().key("format").string("tracediff-summary").key("schema_version").number(model::k_summary_schema_version);
  j.key("tool_version").string(TRACEDIFF_VERSION).line(1).key("label").string(s.label).key("inputs");
  strings(j, s.inputs);
  j.line(1).key("diagnostics");
  diagnostics(j, s.diagnostics);
  j.line(1).key("files").begin_array();
  for (const auto& f : s.files) {
    j.line(2).begin_object().key("path").string(f.path).key("rank").number(f.rank);
    j.key("rank_source").string(model::rank_source_name(f.rank_source)).key("world_size");
    optional_number(j, f.world_size);
    j.key("gpu_names");
    strings(j, f.gpu_names);
    j.key("cuda_runtime_version");
    optional_number(j, f.cuda_runtime_version);
    j.key("cuda_driver_version");
    optional_number(j, f.cuda_driver_version);
    j.key("cuda_graphs").boolean(f.cuda_graphs).key("compiled").boolean(f.compiled);
    j.key("gpus_with_work").number(f.gpus_with_work).key("events").number(f.events);
    j.key("json_bytes").number(f.json_bytes).key("truncated").boolean(f.truncated);
    j.key("has_steps").boolean(f.has_steps);
    if (!f.launcher_level.empty()) j.key("launcher").string(f.launcher_level);  // unknown in older summaries
    if (f.step_marker_shape != model::StepMarkerShape::none)  // only then: summaries without a marker as before
      j.key("step_marker").begin_object().key("pattern").string(f.step_marker).key("shape")
          .string(f.step_marker_shape == model::StepMarkerShape::spans ? "spans" : "markers")
          .key("matches").number(f.step_marker_matches).end_object();
    j.line(3).key("diagnostics");
    diagnostics(j, f.diagnostics);
    j.line(3).key("keys").begin_array();
    for (const auto& k : f.keys) {
      j.begin_array().string(k.category).string(k.name).string(model::kind_name(k.kind));
      if (!k.shape.empty()) j.string(k.shape);
      j.end_array();
    }
    j.end_array().line(3).key("launchers");
    strings(j, f.launchers);
    if (!f.graph_launchers.empty()) {  // optional: summaries without graphs read as before
      j.line(3).key("graph_launchers").begin_array();
      for (const auto l : f.graph_launchers) j.number(l);
      j.end_array();
    }
    if (!f.launcher_shapes.empty()) {  // --by-shape
      j.line(3).key("launcher_shapes");
      strings(j, f.launcher_shapes);
    }
    j.line(3).key("steps").begin_array();
    for (const auto& step : f.steps) {
      j.begin_array().number(step.step);
      for (const auto& field : model::k_step_fields) j.number(step.detail.*field.field);
      j.end_array();
    }
    j.end_array().line(3).key("cells").begin_array();
    for (const auto& c : f.cells)
      j.begin_array().number(c.key).number(c.step).number(c.count).number(c.total_ns).number(c.self_ns)
          .number(c.wait_ns).number(c.nested).end_array();
    j.end_array().line(3).key("launches").begin_array();
    for (const auto& l : f.launches)
      j.begin_array().number(l.launcher).number(l.key).number(l.step).number(l.total_ns).end_array();
    j.end_array().line(3).key("tree").begin_array();
    for (const auto& n : f.tree) {
      j.begin_array();
      if (n.parent == model::k_tree_top) j.number(-1);
      else j.number(n.parent);
      if (n.key == model::k_tree_other) j.number(-1);
      else if (n.key == model::k_tree_other_gpu) j.number(-2);
      else j.number(n.key);
      j.end_array();
    }
    j.end_array().line(3).key("tree_cells").begin_array();
    for (const auto& c : f.tree_cells)
      j.begin_array().number(c.node).number(c.step).number(c.count).number(c.total_ns).number(c.self_ns).end_array();
    j.end_array().key("tree_folded").number(f.tree_folded);
    if (!f.collective_keys.empty()) {  // optional: files without collectives as before
      j.line(3).key("collective_keys").begin_array();
      for (const auto& k : f.collective_keys) j.begin_array().string(k.name).boolean(k.by_seq).end_array();
      j.end_array().line(3).key("collectives").begin_array();
      for (const auto& c : f.collectives)
        j.begin_array().number(c.step).number(c.key).number(c.seq).number(c.dur_ns).end_array();
      j.end_array();
    }
    if (!f.memory.empty()) {  // optional: a file without [memory] events has none, and says so by that
      j.line(3).key("memory").begin_array();
      for (const auto& m : f.memory)
        j.begin_array().number(m.step).number(int{m.device_type}).number(int{m.device_id}).number(m.peak_allocated)
            .number(m.peak_reserved).number(m.peak_growth).number(m.net_change).number(m.allocated_bytes)
            .number(m.allocations).end_array();
      j.end_array();
    }
    if (!f.memory_cells.empty()) {  // optional, as memory: each (key, step)'s allocations
      j.line(3).key("memory_cells").begin_array();
      for (const auto& c : f.memory_cells)
        j.begin_array().number(c.key).number(c.step).number(c.self_bytes).number(c.self_count).number(c.bytes)
            .number(c.count).number(c.held_bytes).end_array();
      j.end_array();
    }
    j.end_object();
  }
  j.end_array(1).end_object();
  out << '\n';
}

}  // namespace tracediff::output
