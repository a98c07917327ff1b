// The call tree: tree_json, from which assets/flame.js draws the differential flame
// graph and the tree table, and a static table of the top levels for the page
// without JavaScript. Only the nodes analysis chose (DiffReport::embedded.tree).
//   has_tree, tree_nodes, tree_left_out, has_tree_left_out, tree_folded,
//   has_tree_folded, tree_static[] {pad (em), name, tip, c, t, d, pct, cls, sym, word, gpu}
//
// render_tree_json (the page's {{{tree_json}}}, made on a thread of its own, through
// output/json_emit), compact because a tree has thousands of nodes (docs/reading-the-report.md,
// "The page's data"):
//   {"labels": [control, test], "unit": "step", "names": [p | [label] | [label, full]...],
//   "nodes": [[back, name, flags, c, t, cn, tn, v, gv, (cs, ts), (cg, tg)]...], "left_out": n}
//   names: p, a number, is the table's row r<p>: its label and full name are that row's
//   (the page has them once); a name without a row on the page is written out.
//   back: how many nodes before this one its parent is (0: top level); name: position
//   in "names"; flags: 1 GPU work, 2 "(other)", 4 self time = inclusive (cs, ts left
//   out), 8 GPU time launched within = inclusive, 16 none (cg, tg left out in both);
//   c/t inclusive, cs/ts self, cg/tg GPU time launched within: ns per unit, rounded;
//   cn/tn calls per unit; v/gv the verdict of the inclusive and the GPU time:
//   0 slower, 1 faster, 2 same within noise, 3 not testable.
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "output/html/sections.hpp"
#include "output/json_emit.hpp"

namespace tracediff::output::html {

namespace {

constexpr std::size_t k_full_bytes = 300;  // a name on hover (the label is elided already)

int verdict_code(model::Verdict v) {
  switch (v) {
    case model::Verdict::slower: return 0;
    case model::Verdict::faster: return 1;
    case model::Verdict::same: return 2;
    case model::Verdict::untestable: return 3;
  }
  return 2;
}

std::string label_of(const DiffReport& r, const model::CallNode& n) {
  return n.row < r.rows.size() && !r.rows[n.row].label.empty() ? r.rows[n.row].label : n.name;
}

std::string tree_json(const DiffReport& r, const Anchors& a, const std::vector<std::uint32_t>& embedded) {
  const auto& nodes = r.call_tree.nodes;
  constexpr std::size_t k_none = SIZE_MAX;
  std::vector<std::size_t> position(nodes.size(), k_none);  // node -> position in "nodes"
  // Names are shared by many paths (aten::empty is called from hundreds): each is
  // fitted once, by its row (or its text when it has none).
  std::vector<std::size_t> by_row(r.rows.size(), k_none);
  std::unordered_map<std::string_view, std::size_t> by_text;
  std::unordered_map<std::string, std::size_t> by_label;  // (label, full name) -> entry
  // "names" and "nodes" are written side by side (a node's name is its first use), then
  // put into the object.
  std::string names, out;
  JsonEmit nj(names), j(out);
  nj.compact().begin_array();
  j.compact().begin_array();
  std::size_t entries = 0;  // in names
  const auto name_of = [&](const model::CallNode& n) {
    auto* slot = n.row < r.rows.size() ? &by_row[n.row] : nullptr;
    if (slot && *slot != k_none) return *slot;
    if (!slot) {
      auto it = by_text.find(n.name);
      if (it != by_text.end()) return it->second;
    }
    // A row on the page: its position, the page's script reads the row's names.
    const auto at = slot && n.row < a.pos.size() ? a.pos[n.row] : Anchors::none;
    if (at != Anchors::none) {
      nj.number(at);
      return *slot = entries++;
    }
    const auto label = fit(label_of(r, n), k_label_bytes, Escaped::json);
    const auto full = fit(n.name, k_full_bytes, Escaped::json);
    // Two names may read alike once cut: one entry per (label, name) shown.
    const auto [it, fresh] = by_label.try_emplace(label + '\0' + full, entries);
    if (fresh) {
      ++entries;
      nj.begin_array().string(label);
      if (full != label) nj.string(full);
      nj.end_array();
    }
    if (slot) *slot = it->second;
    else by_text.emplace(n.name, it->second);
    return it->second;
  };
  out.reserve(embedded.size() * 72);
  // Self allocations per node where the rows have them (flag 32: two more numbers).
  const bool memory = std::any_of(r.rows.begin(), r.rows.end(), [](const model::DiffRow& row) { return row.memory.recorded; });
  for (std::size_t k = 0; k < embedded.size(); ++k) {
    const auto& n = nodes[embedded[k]];
    position[embedded[k]] = k;
    const auto name = name_of(n);
    const auto parent = n.parent < nodes.size() ? position[n.parent] : k_none;
    const std::int64_t c = round_ns(n.time.control), t = round_ns(n.time.test);
    const std::int64_t cs = round_ns(n.control.self_ns), ts = round_ns(n.test.self_ns);
    const std::int64_t cg = round_ns(n.gpu.control), tg = round_ns(n.gpu.test);
    // Most nodes are leaves (self = inclusive) and many launch nothing or are GPU work
    // themselves: their repeated numbers are left out.
    const bool self_same = cs == c && ts == t;
    const bool gpu_same = cg == c && tg == t, no_gpu = cg == 0 && tg == 0;
    int flags = (n.device == model::Device::gpu ? 1 : 0) | (n.other ? 2 : 0) | (self_same ? 4 : 0);
    flags |= no_gpu ? 16 : gpu_same ? 8 : 0;
    const auto cm = std::llround(n.control.allocated), tm = std::llround(n.test.allocated);
    if (memory && (cm || tm)) flags |= 32;
    j.line(0).begin_array();
    j.number(parent == k_none ? std::int64_t{0} : static_cast<std::int64_t>(k - parent));
    j.number(name).number(flags).number(c).number(t);
    j.number(std::string_view(key3(n.control.count))).number(std::string_view(key3(n.test.count)));
    j.number(verdict_code(n.time.verdict)).number(verdict_code(n.gpu.verdict));
    if (!self_same) j.number(cs).number(ts);
    if (!no_gpu && !gpu_same) j.number(cg).number(tg);
    if (flags & 32) j.number(cm).number(tm);
    j.end_array();
  }
  nj.end_array();
  j.end_array();
  std::string json;
  json.reserve(names.size() + out.size() + 160);
  JsonEmit o(json);
  o.compact().begin_object().key("labels").begin_array();
  o.string(side_label(r.control, false)).string(side_label(r.test, true)).end_array();
  o.key("unit").string(r.unit).key("left_out").number(r.embedded.tree_left_out);
  if (memory) o.key("memory").boolean(true);
  o.key("names").raw(names).key("nodes").raw(out).end_object();
  return json;
}

}  // namespace

namespace {

// The nodes the page embeds: analysis's choice.
const std::vector<std::uint32_t>& embedded_nodes(const DiffReport& r) { return r.embedded.tree; }

}  // namespace

std::string render_tree_json(const DiffReport& r, const Anchors& a) {
  const auto& embedded = embedded_nodes(r);
  return per_step_mode(r) && !embedded.empty() ? tree_json(r, a, embedded) : std::string();
}

void add_tree(const DiffReport& r, data& ctx) {
  const auto& tree = r.call_tree;
  const auto& embedded = embedded_nodes(r);
  const bool has = per_step_mode(r) && !embedded.empty();
  ctx.set("has_tree", has);
  if (!has) return;
  ctx.set("tree_nodes", std::to_string(embedded.size()));
  ctx.set("has_tree_left_out", r.embedded.tree_left_out > 0);
  ctx.set("tree_left_out", std::to_string(r.embedded.tree_left_out));
  const auto folded = tree.control_folded + tree.test_folded;
  ctx.set("has_tree_folded", folded > 0);
  ctx.set("tree_folded", std::to_string(folded));

  // The top levels, as analysis chose them.
  const auto& top_levels = r.embedded.tree_static;
  data rows = make_list();
  std::vector<std::size_t> depth(tree.nodes.size(), 0);
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i)
    if (tree.nodes[i].parent < tree.nodes.size()) depth[i] = depth[tree.nodes[i].parent] + 1;
  for (const auto i : top_levels) {
    const auto& n = tree.nodes[i];
    const auto look = verdict_look(n.time.verdict);
    data row;
    row.set("pad", std::to_string(depth[i] * 3 / 2) + (depth[i] % 2 ? ".5" : ""));
    row.set("name", fit(label_of(r, n), k_label_bytes));
    row.set("tip", fit(n.name, k_full_bytes));
    row.set("c", dur(n.time.control, false));
    row.set("t", dur(n.time.test, false));
    row.set("d", dur(n.time.diff(), true));
    row.set("pct", pct_text(n.time.pct, n.time.is_new()));
    row.set("cls", look.cls);
    row.set("sym", look.sym);
    row.set("word", look.word);
    row.set("gpu", n.device == model::Device::gpu ? "GPU" : "");
    append(rows, std::move(row));
  }
  ctx.set("tree_static", std::move(rows));
}

}  // namespace tracediff::output::html
