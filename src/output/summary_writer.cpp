#include "output/summary_writer.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/summary_format.hpp"
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

// A column of integers, "[1,-2,3]": no spaces, most of a summary is these.
class Column {
 public:
  Column() { m_text = "["; }
  void add(std::int64_t v) {
    if (m_text.size() > 1) m_text += ',';
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    m_text.append(buf, r.ptr);
  }
  void add_u(std::uint64_t v) { add(static_cast<std::int64_t>(v)); }  // wrapped: read back modulo 2^64
  // Only the rows where v is not 0: [gap, value, ...], gap = rows skipped since the last one.
  void sparse(std::size_t row, std::uint64_t v) {
    if (!v) return;
    add(static_cast<std::int64_t>(row - m_last));
    add_u(v);
    m_last = row + 1;
  }
  std::string_view text() {
    m_text += ']';
    return m_text;
  }

 private:
  std::string m_text;
  std::size_t m_last = 0;
};

// Rows of (index, step), written as runs of consecutive steps of one index:
// [index - previous run's index, first step, length, ...]. Any order reads back as it was.
template <typename Row, typename Index>
std::string runs(const std::vector<Row>& rows, Index index) {
  Column c;
  std::int64_t prev = 0;
  for (std::size_t i = 0; i < rows.size();) {
    const auto idx = static_cast<std::int64_t>(index(rows[i]));
    std::size_t n = 1;
    while (i + n < rows.size() && static_cast<std::int64_t>(index(rows[i + n])) == idx &&
           rows[i + n].step == rows[i].step + n)
      ++n;
    c.add(idx - prev);
    c.add(rows[i].step);
    c.add(static_cast<std::int64_t>(n));
    prev = idx;
    i += n;
  }
  return std::string(c.text());
}

}  // namespace

void summary_strings(const model::FileSummary& f, const std::function<void(const std::string&)>& add) {
  for (const auto& k : f.keys) {
    add(k.category);
    add(k.name);
    add(model::kind_name(k.kind));
    if (!k.shape.empty()) add(k.shape);
  }
  for (const auto& l : f.launchers) add(l);
  for (const auto& l : f.launcher_shapes) add(l);
  for (const auto& k : f.collective_keys) add(k.name);
  if (f.memory_timeline && !f.memory_timeline->peak_op.empty()) add(f.memory_timeline->peak_op);
  for (const auto& n : f.accounting.every_step_names) add(n);
}

// The strings' numbers; a string the table lacks is a bug of the caller.
class SummaryWriter::Strings {
 public:
  explicit Strings(const std::vector<std::string>& all) {
    m_index.reserve(all.size());
    for (std::size_t i = 0; i < all.size(); ++i) m_index.try_emplace(all[i], static_cast<std::uint32_t>(i));
  }
  std::uint32_t operator()(const std::string& s) const { return m_index.at(s); }

 private:
  std::unordered_map<std::string, std::uint32_t> m_index;
};

namespace {

template <typename Str>
void write_file(JsonEmit& j, const model::FileSummary& f, const Str& str) {
  namespace sf = model::summary_format;
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
  j.key("by_shape").boolean(f.by_shape);
  if (f.step_marker_shape != model::StepMarkerShape::none)  // only then: summaries without a marker as before
    j.key("step_marker").begin_object().key("pattern").string(f.step_marker).key("shape")
        .string(f.step_marker_shape == model::StepMarkerShape::spans ? "spans" : "markers")
        .key("matches").number(f.step_marker_matches).end_object();
  if (!f.marker_hint.empty())  // optional: only a file without steps with a name that repeats has one
    j.key("marker_hint").begin_object().key("pattern").string(f.marker_hint).key("name").string(f.marker_hint_name)
        .key("count").number(f.marker_hint_count).end_object();
  j.line(3).key("diagnostics");
  diagnostics(j, f.diagnostics);
  if (f.accounting.recorded) {  // optional: summaries written before it read as not recorded
    // Per stream: read, rows, then each reason (model::LeftOut order), each as events, ns.
    const auto& a = f.accounting;
    j.line(3).key("accounting").begin_object().key("broken").number(a.broken);
    for (std::size_t st = 0; st < model::k_event_streams; ++st) {
      const auto& t = a.streams[st];
      j.key(model::event_stream_name(static_cast<model::EventStream>(st))).begin_array();
      j.number(t.read.events).number(t.read.ns).number(t.rows.events).number(t.rows.ns);
      for (const auto& r : t.left_out) j.number(r.events).number(r.ns);
      j.end_array();
    }
    j.key("every_step").number(a.every_step_count).key("every_step_names").begin_array();
    for (const auto& n : a.every_step_names) j.number(str(n));
    j.end_array().end_object();
  }
  const auto unit = sf::unit_of(f);
  const auto u = [unit](std::int64_t v) { return sf::in_units(v, unit); };
  j.line(3).key("unit").number(unit);

  Column keys, shapes;
  for (std::size_t i = 0; i < f.keys.size(); ++i) {
    const auto& k = f.keys[i];
    keys.add(str(k.category));
    keys.add(str(k.name));
    keys.add(str(model::kind_name(k.kind)));
    if (!k.shape.empty()) {
      shapes.add(static_cast<std::int64_t>(i));
      shapes.add(str(k.shape));
    }
  }
  j.key("keys").raw(keys.text());
  if (std::any_of(f.keys.begin(), f.keys.end(), [](const auto& k) { return !k.shape.empty(); }))
    j.key("key_shapes").raw(shapes.text());  // --by-shape
  Column launchers;
  for (const auto& l : f.launchers) launchers.add(str(l));
  j.key("launchers").raw(launchers.text());
  if (!f.graph_launchers.empty()) {  // optional: summaries without graphs read as before
    Column g;
    for (const auto l : f.graph_launchers) g.add(l);
    j.key("graph_launchers").raw(g.text());
  }
  if (!f.launcher_shapes.empty()) {  // --by-shape
    Column c;
    for (const auto& l : f.launcher_shapes) c.add(str(l));
    j.key("launcher_shapes").raw(c.text());
  }

  Column steps, figures;
  for (const auto& step : f.steps) steps.add(step.step);
  for (const auto& field : model::k_step_fields)
    for (const auto& step : f.steps) figures.add_u(u(step.detail.*field.field));
  j.line(3).key("steps").raw(steps.text()).key("step_figures").raw(figures.text());

  // Key cells: where they differ from the sum of their tree nodes' cells.
  {
    const auto guesses = sf::cell_guesses(f, unit);
    Column count, total, self, wait, nested;
    for (std::size_t i = 0; i < f.cells.size(); ++i) {
      const auto& c = f.cells[i];
      const auto g = guesses.get(c.key, c.step);
      count.sparse(i, c.count - g.count);
      total.sparse(i, u(c.total_ns) - g.total);
      self.sparse(i, u(c.self_ns) - g.self);
      wait.sparse(i, u(c.wait_ns));
      nested.sparse(i, c.nested);
    }
    j.line(3).key("cells").begin_object().key("at").raw(runs(f.cells, [](const model::Cell& c) { return c.key; }));
    j.key("count").raw(count.text()).key("total").raw(total.text()).key("self").raw(self.text());
    j.key("wait").raw(wait.text()).key("nested").raw(nested.text()).end_object();
  }
  {
    Column at, total;
    std::int64_t launcher = 0, key = 0;
    for (std::size_t i = 0; i < f.launches.size();) {
      const auto& l = f.launches[i];
      std::size_t n = 1;
      while (i + n < f.launches.size() && f.launches[i + n].launcher == l.launcher && f.launches[i + n].key == l.key &&
             f.launches[i + n].step == l.step + n)
        ++n;
      at.add(l.launcher - launcher);
      at.add(l.key - key);
      at.add(l.step);
      at.add(static_cast<std::int64_t>(n));
      launcher = l.launcher;
      key = l.key;
      i += n;
    }
    for (const auto& l : f.launches) total.add_u(u(l.total_ns));
    j.line(3).key("launches").begin_object().key("at").raw(at.text()).key("total").raw(total.text()).end_object();
  }
  {
    Column tree;
    for (std::size_t i = 0; i < f.tree.size(); ++i) {
      const auto& n = f.tree[i];
      tree.add(n.parent == model::k_tree_top ? 0 : static_cast<std::int64_t>(i) - n.parent);
      tree.add(n.key == model::k_tree_other ? -1 : n.key == model::k_tree_other_gpu ? -2 : std::int64_t{n.key});
    }
    j.line(3).key("tree").raw(tree.text());
  }
  {
    // A node's count as a change from its previous cell; its self time as the
    // difference from its total less its host children's.
    const auto children = sf::tree_child_time(f, unit);
    Column count, total, self;
    for (std::size_t i = 0; i < f.tree_cells.size(); ++i) {
      const auto& c = f.tree_cells[i];
      const bool same = i > 0 && f.tree_cells[i - 1].node == c.node;
      count.sparse(i, c.count - (same ? f.tree_cells[i - 1].count : 0));
      total.add_u(u(c.total_ns));
      self.sparse(i, u(c.total_ns) - u(c.self_ns) - children[i]);
    }
    j.line(3).key("tree_cells").begin_object().key("at").raw(runs(f.tree_cells, [](const model::TreeCell& c) {
      return c.node;
    }));
    j.key("count").raw(count.text()).key("total").raw(total.text()).key("self").raw(self.text()).end_object();
  }
  j.key("tree_folded").number(f.tree_folded);
  if (!f.off_launch_keys.empty()) {  // optional: files without GPU launches, older summaries
    j.line(3).key("off_launch_keys").begin_array();
    for (const auto k : f.off_launch_keys) j.number(k);
    j.end_array();
  }
  if (!f.collective_keys.empty()) {  // optional: files without collectives as before
    j.line(3).key("collective_keys").begin_array();
    for (const auto& k : f.collective_keys) j.begin_array().number(str(k.name)).boolean(k.by_seq).end_array();
    Column calls;
    for (const auto& c : f.collectives) {
      calls.add(c.step);
      calls.add(c.key);
      calls.add(c.seq);
      calls.add_u(u(c.dur_ns));
    }
    j.end_array().line(3).key("collectives").raw(calls.text());
  }
  if (!f.memory.empty()) {  // optional: a file without [memory] events has none, and says so by that
    // Per (step, device): [step, device type, device id, peak allocated, peak reserved,
    // peak growth, net change, bytes allocated, allocations, ...].
    Column m;
    for (const auto& ms : f.memory) {
      m.add(ms.step);
      m.add(ms.device_type);
      m.add(ms.device_id);
      m.add(ms.peak_allocated);
      m.add(ms.peak_reserved);
      m.add(ms.peak_growth);
      m.add(ms.net_change);
      m.add(ms.allocated_bytes);
      m.add_u(ms.allocations);
    }
    j.line(3).key("memory").raw(m.text());
  }
  if (!f.memory_cells.empty()) {  // optional, as memory: each (key, step)'s allocations
    // [key, step, self bytes, self allocations, bytes, allocations, held bytes, ...]
    Column m;
    for (const auto& c : f.memory_cells) {
      m.add(c.key);
      m.add(c.step);
      m.add(c.self_bytes);
      m.add_u(c.self_count);
      m.add(c.bytes);
      m.add_u(c.count);
      m.add(c.held_bytes);
    }
    j.line(3).key("memory_cells").raw(m.text());
  }
  if (!f.work_cells.empty()) {  // optional: each (key, step)'s Inductor figures
    // [key, step, flop, its kernels' ns, bytes, its kernels' ns, ...]
    Column w;
    for (const auto& c : f.work_cells) {
      w.add(c.key);
      w.add(c.step);
      w.add(c.flop);
      w.add(c.flop_ns);
      w.add(c.bytes);
      w.add(c.bytes_ns);
    }
    j.line(3).key("work_cells").raw(w.text());
  }
  // Optional: what bounded each step (model/critical_path.hpp), from traces; a summary of
  // --no-critical-path, or older, has none.
  if (std::any_of(f.steps.begin(), f.steps.end(), [](const model::StepSummary& st) { return st.path.recorded; })) {
    // [step, length, cpu, data loading, GPU compute, GPU communication, launch, gaps, events, ...] in ns
    Column p;
    for (std::size_t k = 0; k < f.steps.size(); ++k) {
      const auto& path = f.steps[k].path;
      if (!path.recorded) continue;
      p.add_u(k);
      p.add(path.length_ns);
      for (const auto b : path.bound_ns) p.add(b);
      p.add_u(path.events);
    }
    j.line(3).key("path_steps").raw(p.text());
    Column c;  // [key, step, ns, ...]
    for (const auto& cell : f.path_cells) c.add_u(cell.key), c.add_u(cell.step), c.add(cell.ns);
    j.line(3).key("path_cells").raw(c.text());
    j.line(3).key("what_ifs").begin_array();  // [key (-1: asked), factor, spec]
    for (const auto& w : f.what_ifs) j.begin_array().number(w.key).number(w.factor).string(w.spec).end_array();
    j.end_array();
    Column w;  // [what, step, saved ns, ...]
    for (const auto& cell : f.what_if_cells) w.add_u(cell.what), w.add_u(cell.step), w.add(cell.saved_ns);
    j.line(3).key("what_if_cells").raw(w.text());
  }
  if (!f.tree_memory.empty()) {  // optional, as memory: each (tree node, step)'s self allocations
    // As tree_cells: `at` runs of a node's steps; `bytes` each row's less the node's row
    // before (most steps allocate alike), sparse.
    Column bytes;
    for (std::size_t i = 0; i < f.tree_memory.size(); ++i) {
      const auto& c = f.tree_memory[i];
      const bool same = i > 0 && f.tree_memory[i - 1].node == c.node;
      bytes.sparse(i, static_cast<std::uint64_t>(c.bytes) - (same ? static_cast<std::uint64_t>(f.tree_memory[i - 1].bytes) : 0));
    }
    j.line(3).key("tree_memory").begin_object().key("at").raw(runs(f.tree_memory, [](const model::TreeMemoryCell& c) {
      return c.node;
    }));
    j.key("bytes").raw(bytes.text()).end_object();
  }
  if (f.memory_timeline) {  // optional, as memory: the median step's allocated bytes over time
    // [step, step ns, device type, device id, totals (1) or growth (0), peak ns, peak
    // bytes, peak operator (string, -1 none), then per point its ns and bytes less the
    // point before's (the first's less 0: neighbours differ by an allocation, a few digits
    // where the totals have ten)]; in ns, not the file's unit: the points are what the
    // HTML draws, exactly as from the trace.
    const auto& t = *f.memory_timeline;
    Column m;
    m.add(t.step);
    m.add(t.step_ns);
    m.add(t.device_type);
    m.add(t.device_id);
    m.add(t.totals ? 1 : 0);
    m.add(t.peak_ns);
    m.add(t.peak_bytes);
    m.add(t.peak_op.empty() ? -1 : static_cast<std::int64_t>(str(t.peak_op)));
    std::int64_t ns0 = 0;
    std::uint64_t bytes0 = 0;
    for (const auto& [ns, bytes] : t.points) {
      m.add(ns - ns0);
      m.add_u(static_cast<std::uint64_t>(bytes) - bytes0);  // modulo 2^64, as read back
      ns0 = ns, bytes0 = static_cast<std::uint64_t>(bytes);
    }
    j.line(3).key("memory_timeline").raw(m.text());
  }
  j.end_object();
}

}  // namespace

SummaryWriter::SummaryWriter(std::ostream& out, const std::string& label, const std::vector<std::string>& inputs,
                             const model::Diagnostics& diagnostics_, const std::vector<std::string>& strings)
    : m_out(out), m_json(std::make_unique<JsonEmit>(out, true, false)), m_strings(std::make_unique<Strings>(strings)) {
  // Strings byte for byte: two names that differ only in invalid UTF-8 stay two names,
  // as they are when the traces are compared (the summary reader allows such bytes);
  // < > & as they are (no page embeds a summary; kernel names are full of them).
  auto& j = *m_json;
  j.begin_object().key("format").string("tracediff-summary").key("schema_version").number(model::k_summary_schema_version);
  j.key("tool_version").string(TRACEDIFF_VERSION).line(1).key("label").string(label).key("inputs");
  output::strings(j, inputs);
  j.line(1).key("diagnostics");
  diagnostics(j, diagnostics_);
  j.line(1).key("strings").begin_array();
  for (const auto& t : strings) j.string(t);
  j.end_array();
  j.line(1).key("files").begin_array();
}

SummaryWriter::~SummaryWriter() = default;

void SummaryWriter::file(const model::FileSummary& f) { write_file(*m_json, f, *m_strings); }

void SummaryWriter::finish() {
  m_json->end_array(1).end_object();
  m_out << '\n';
}

void write_summary(const model::SetSummary& s, std::ostream& out) {
  std::vector<std::string> strings;
  std::unordered_map<std::string, std::uint32_t> seen;
  for (const auto& f : s.files)
    summary_strings(f, [&](const std::string& t) {
      if (seen.try_emplace(t, 0).second) strings.push_back(t);
    });
  SummaryWriter w(out, s.label, s.inputs, s.diagnostics, strings);
  for (const auto& f : s.files) w.file(f);
  w.finish();
}

}  // namespace tracediff::output
