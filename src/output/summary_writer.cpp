#include "output/summary_writer.hpp"

#include "util/escape.hpp"

namespace tracediff::output {

namespace {

// Strings byte for byte: two names that differ only in invalid UTF-8 stay two names,
// as they are when the traces are compared (the summary reader allows such bytes).
std::string json_string(std::string_view s) { return tracediff::json_string(s, true); }

void strings(std::ostream& out, const std::vector<std::string>& v) {
  out << '[';
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << json_string(v[i]);
  out << ']';
}

void diagnostics(std::ostream& out, const model::Diagnostics& d) {
  out << "{\"counts\": {";
  bool first = true;
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (!d.count(id)) continue;
    out << (first ? "" : ", ") << '"' << model::diag_name(id) << "\": " << d.count(id);
    first = false;
  }
  out << "}, \"samples\": [";
  for (std::size_t i = 0; i < d.samples().size(); ++i) {
    const auto& s = d.samples()[i];
    out << (i ? ", " : "") << "[\"" << model::diag_name(s.id) << "\", " << json_string(s.file) << ", "
        << s.offset << ", " << json_string(s.message) << ", " << s.covers << ']';
  }
  out << "]}";
}

}  // namespace

void write_summary(const model::SetSummary& s, std::ostream& out) {
  out << "{\"format\": \"tracediff-summary\", \"schema_version\": " << model::k_summary_schema_version
      << ", \"tool_version\": \"" TRACEDIFF_VERSION "\",\n \"label\": " << json_string(s.label) << ", \"inputs\": ";
  strings(out, s.inputs);
  out << ",\n \"diagnostics\": ";
  diagnostics(out, s.diagnostics);
  out << ",\n \"files\": [";
  for (std::size_t fi = 0; fi < s.files.size(); ++fi) {
    const auto& f = s.files[fi];
    out << (fi ? ",\n  " : "\n  ") << "{\"path\": " << json_string(f.path) << ", \"rank\": " << f.rank
        << ", \"rank_source\": \"" << model::rank_source_name(f.rank_source) << "\", \"world_size\": "
        << (f.world_size ? std::to_string(*f.world_size) : "null") << ", \"gpu_names\": ";
    strings(out, f.gpu_names);
    out << ", \"cuda_runtime_version\": "
        << (f.cuda_runtime_version ? std::to_string(*f.cuda_runtime_version) : "null")
        << ", \"cuda_driver_version\": "
        << (f.cuda_driver_version ? std::to_string(*f.cuda_driver_version) : "null")
        << ", \"cuda_graphs\": " << (f.cuda_graphs ? "true" : "false")
        << ", \"compiled\": " << (f.compiled ? "true" : "false") << ", \"gpus_with_work\": " << f.gpus_with_work;
    out << ", \"events\": " << f.events << ", \"json_bytes\": " << f.json_bytes
        << ", \"truncated\": " << (f.truncated ? "true" : "false")
        << ", \"has_steps\": " << (f.has_steps ? "true" : "false");
    if (f.step_marker_shape != model::StepMarkerShape::none)  // only then: summaries without a marker as before
      out << ", \"step_marker\": {\"pattern\": " << json_string(f.step_marker) << ", \"shape\": \""
          << (f.step_marker_shape == model::StepMarkerShape::spans ? "spans" : "markers")
          << "\", \"matches\": " << f.step_marker_matches << '}';
    out << ",\n   \"diagnostics\": ";
    diagnostics(out, f.diagnostics);
    out << ",\n   \"keys\": [";
    for (std::size_t i = 0; i < f.keys.size(); ++i)
      out << (i ? ", " : "") << '[' << json_string(f.keys[i].category) << ", " << json_string(f.keys[i].name)
          << ", \"" << model::kind_name(f.keys[i].kind) << '"'
          << (f.keys[i].shape.empty() ? "" : ", " + json_string(f.keys[i].shape)) << ']';
    out << "],\n   \"launchers\": ";
    strings(out, f.launchers);
    if (!f.graph_launchers.empty()) {  // optional: summaries without graphs read as before
      out << ",\n   \"graph_launchers\": [";
      for (std::size_t i = 0; i < f.graph_launchers.size(); ++i) out << (i ? ", " : "") << f.graph_launchers[i];
      out << ']';
    }
    if (!f.launcher_shapes.empty()) {  // --by-shape
      out << ",\n   \"launcher_shapes\": ";
      strings(out, f.launcher_shapes);
    }
    out << ",\n   \"steps\": [";
    for (std::size_t i = 0; i < f.steps.size(); ++i) {
      const auto& d = f.steps[i].detail;
      out << (i ? ", " : "") << '[' << f.steps[i].step;
      for (const auto& field : model::k_step_fields) out << ", " << d.*field.field;
      out << ']';
    }
    out << "],\n   \"cells\": [";
    for (std::size_t i = 0; i < f.cells.size(); ++i) {
      const auto& c = f.cells[i];
      out << (i ? ", " : "") << '[' << c.key << ", " << c.step << ", " << c.count << ", " << c.total_ns << ", "
          << c.self_ns << ", " << c.wait_ns << ", " << c.nested << ']';
    }
    out << "],\n   \"launches\": [";
    for (std::size_t i = 0; i < f.launches.size(); ++i) {
      const auto& l = f.launches[i];
      out << (i ? ", " : "") << '[' << l.launcher << ", " << l.key << ", " << l.step << ", " << l.total_ns << ']';
    }
    out << "],\n   \"tree\": [";
    for (std::size_t i = 0; i < f.tree.size(); ++i) {
      const auto& n = f.tree[i];
      out << (i ? ", " : "") << '[';
      if (n.parent == model::k_tree_top) out << -1;
      else out << n.parent;
      out << ", ";
      if (n.key == model::k_tree_other) out << -1;
      else if (n.key == model::k_tree_other_gpu) out << -2;
      else out << n.key;
      out << ']';
    }
    out << "],\n   \"tree_cells\": [";
    for (std::size_t i = 0; i < f.tree_cells.size(); ++i) {
      const auto& c = f.tree_cells[i];
      out << (i ? ", " : "") << '[' << c.node << ", " << c.step << ", " << c.count << ", " << c.total_ns << ", "
          << c.self_ns << ']';
    }
    out << "], \"tree_folded\": " << f.tree_folded;
    if (!f.collective_keys.empty()) {  // optional: files without collectives as before
      out << ",\n   \"collective_keys\": [";
      for (std::size_t i = 0; i < f.collective_keys.size(); ++i)
        out << (i ? ", " : "") << '[' << json_string(f.collective_keys[i].name) << ", "
            << (f.collective_keys[i].by_seq ? "true" : "false") << ']';
      out << "],\n   \"collectives\": [";
      for (std::size_t i = 0; i < f.collectives.size(); ++i) {
        const auto& c = f.collectives[i];
        out << (i ? ", " : "") << '[' << c.step << ", " << c.key << ", " << c.seq << ", " << c.dur_ns << ']';
      }
      out << ']';
    }
    out << '}';
  }
  out << "\n ]}\n";
}

}  // namespace tracediff::output
