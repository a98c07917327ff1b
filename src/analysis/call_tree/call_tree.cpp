// The call tree: folded to a node budget (per file and per side), both sides matched by
// path and judged, and each row's path: one thing, since folding and matching share the
// tree's node layout.
#include "analysis/call_tree/call_tree.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <tuple>

#include "analysis/noise/noise.hpp"
#include "analysis/names/short_name.hpp"
#include "util/move_into_order.hpp"
#include "util/saturating.hpp"

namespace tracediff::analysis {

namespace {

constexpr std::uint32_t k_top = model::k_tree_top;
constexpr std::uint32_t k_from_other = ~0u, k_from_other_gpu = ~0u - 1;
constexpr std::string_view k_other_name = "(other)", k_other_gpu_name = "(other GPU work)";

// A tree folded to a budget: the nodes kept (in their order), then the "(other)"
// nodes, and where each old node's figures go.
struct Folded {
  struct NewNode {
    std::uint32_t parent;  // new index, or k_top
    std::uint32_t from;    // old index, k_from_other or k_from_other_gpu
  };
  std::vector<NewNode> nodes;
  std::vector<std::uint32_t> target;  // per old node: the new node that takes its figures
  // Per old node: its count and inclusive time move with it (a kept node, or the
  // outermost of a folded subtree); else only its self time does (it is inside).
  std::vector<bool> whole;
  std::uint64_t folded = 0;
};

// Keeps the heaviest nodes from the top down (a node only after its parent), while
// the kept nodes and the "(other)" nodes their folded children need (at most three
// each: host, GPU work, and GPU work under the host one) fit the budget.
// `weight`: inclusive host time plus the GPU time launched within, over all steps.
// Returns nothing when the tree fits as it is.
std::optional<Folded> plan_fold(const std::vector<std::uint32_t>& parent, const std::vector<bool>& gpu,
                                const std::vector<double>& weight, std::size_t budget) {
  const auto n = parent.size();
  if (n <= budget) return std::nullopt;
  // Children of each node (index n: the top level), as ranges of one array.
  std::vector<std::uint32_t> first(n + 2, 0), kids(n);
  const auto slot = [&](std::uint32_t p) { return p == k_top ? n : p; };
  for (std::uint32_t i = 0; i < n; ++i) ++first[slot(parent[i]) + 1];
  for (std::size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
  {
    auto next = first;
    for (std::uint32_t i = 0; i < n; ++i) kids[next[slot(parent[i])]++] = i;
  }
  std::vector<std::uint32_t> left(n + 1);  // children not yet kept
  for (std::size_t p = 0; p <= n; ++p) left[p] = first[p + 1] - first[p];
  const auto heavier = [&](std::uint32_t a, std::uint32_t b) {
    return weight[a] != weight[b] ? weight[a] < weight[b] : a > b;  // max-heap: heaviest, then first
  };
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, decltype(heavier)> frontier(heavier);
  for (auto k = first[n]; k < first[n + 1]; ++k) frontier.push(kids[k]);
  std::vector<bool> keep(n, false);
  std::size_t kept = 0, open = left[n] ? 1 : 0;  // open: kept nodes (or the top) with children left
  while (!frontier.empty()) {
    const auto x = frontier.top();
    const auto p = slot(parent[x]);
    const std::size_t open_after = open + (left[x] ? 1 : 0) - (left[p] == 1 ? 1 : 0);
    if (kept + 1 + 3 * open_after > budget) break;
    frontier.pop();
    keep[x] = true;
    ++kept;
    --left[p];
    open = open_after;
    for (auto k = first[x]; k < first[x + 1]; ++k) frontier.push(kids[k]);
  }
  // A parent that would fold a single leaf of a kind keeps it instead: an "(other)"
  // node in its place would cost the same and say less.
  {
    std::vector<std::uint32_t> dropped(2 * (n + 1), 0);  // per parent slot: host, GPU
    const auto lone = [&](std::uint32_t i) { return 2 * slot(parent[i]) + (gpu[i] ? 1 : 0); };
    const auto fold_here = [&](std::uint32_t i) {
      return !keep[i] && (parent[i] == k_top || keep[parent[i]]);
    };
    for (std::uint32_t i = 0; i < n; ++i)
      if (fold_here(i)) ++dropped[lone(i)];
    for (std::uint32_t i = 0; i < n; ++i)
      if (fold_here(i) && dropped[lone(i)] == 1 && first[i + 1] == first[i]) keep[i] = true;
  }
  Folded f;
  f.target.assign(n, 0);
  f.whole.assign(n, true);
  std::vector<std::uint32_t> anc(n);  // nearest kept ancestor of a dropped node (k_top: none)
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    f.target[i] = static_cast<std::uint32_t>(f.nodes.size());
    f.nodes.push_back({parent[i] == k_top ? k_top : f.target[parent[i]], i});
  }
  // "(other)" nodes, made as the first node that needs each is met: per kept
  // ancestor, host and GPU; and GPU work under the host one.
  std::unordered_map<std::uint64_t, std::uint32_t> others;
  const auto other = [&](std::uint32_t under, std::uint32_t from) {
    const auto [it, fresh] = others.try_emplace((std::uint64_t{under} << 32) | from, 0);
    if (fresh) {
      it->second = static_cast<std::uint32_t>(f.nodes.size());
      f.nodes.push_back({under, from});
    }
    return it->second;
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    if (keep[i]) continue;
    ++f.folded;
    const bool parent_kept = parent[i] == k_top || keep[parent[i]];
    anc[i] = parent_kept ? parent[i] : anc[parent[i]];
    const auto a = anc[i] == k_top ? k_top : f.target[anc[i]];
    if (!gpu[i]) {
      f.target[i] = other(a, k_from_other);
      f.whole[i] = parent_kept;
    } else {
      f.target[i] = parent_kept ? other(a, k_from_other_gpu) : other(other(a, k_from_other), k_from_other_gpu);
    }
  }
  return f;
}

// Per node: inclusive host time plus the GPU time launched within (GPU nodes: their
// own), from per-node totals.
std::vector<double> weights(const std::vector<std::uint32_t>& parent, const std::vector<bool>& gpu,
                            const std::vector<double>& total) {
  std::vector<double> g(parent.size(), 0.0), w(parent.size(), 0.0);
  for (std::size_t i = parent.size(); i-- > 0;) {
    if (gpu[i]) g[i] += total[i];
    if (parent[i] != k_top) g[parent[i]] += g[i];
    w[i] = (gpu[i] ? 0.0 : total[i]) + g[i];
  }
  return w;
}

}  // namespace

void sort_tree_cells(std::vector<model::TreeCell>& cells) {
  // In place: a second buffer would be fresh pages to fault in, which cost more here
  // than the sort.
  std::sort(cells.begin(), cells.end(), [](const model::TreeCell& a, const model::TreeCell& b) {
    return std::tie(a.node, a.step) < std::tie(b.node, b.step);
  });
  std::size_t kept = 0;
  for (const auto& c : cells) {
    if (kept && cells[kept - 1].node == c.node && cells[kept - 1].step == c.step) {
      auto& into = cells[kept - 1];
      into.count += c.count;
      add_sat(into.total_ns, c.total_ns);
      add_sat(into.self_ns, c.self_ns);
    } else {
      cells[kept++] = c;
    }
  }
  cells.resize(kept);
}

void sort_tree_memory(std::vector<model::TreeMemoryCell>& cells) {
  std::sort(cells.begin(), cells.end(), [](const model::TreeMemoryCell& a, const model::TreeMemoryCell& b) {
    return std::tie(a.node, a.step) < std::tie(b.node, b.step);
  });
  std::size_t kept = 0;
  for (const auto& c : cells) {
    if (kept && cells[kept - 1].node == c.node && cells[kept - 1].step == c.step) add_sat(cells[kept - 1].bytes, c.bytes);
    else cells[kept++] = c;
  }
  cells.resize(kept);
}

void fold_tree(model::FileSummary& s, std::size_t budget) {
  const auto n = s.tree.size();
  if (n <= budget) return;
  std::vector<std::uint32_t> parent(n);
  std::vector<bool> gpu(n);
  std::vector<double> total(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    parent[i] = s.tree[i].parent;
    const auto key = s.tree[i].key;
    gpu[i] = key == model::k_tree_other_gpu ||
             (key < s.keys.size() && model::is_gpu_work(s.keys[key].kind));
  }
  for (const auto& c : s.tree_cells) total[c.node] += static_cast<double>(c.total_ns);
  const auto plan = plan_fold(parent, gpu, weights(parent, gpu, total), budget);
  if (!plan) return;
  std::vector<model::TreeNode> tree;
  tree.reserve(plan->nodes.size());
  for (const auto& nn : plan->nodes)
    tree.push_back({nn.parent, nn.from == k_from_other ? model::k_tree_other
                               : nn.from == k_from_other_gpu ? model::k_tree_other_gpu
                                                             : s.tree[nn.from].key});
  std::vector<model::TreeCell> cells;
  cells.reserve(s.tree_cells.size());
  for (const auto& c : s.tree_cells) {
    const bool whole = plan->whole[c.node];
    cells.push_back({plan->target[c.node], c.step, whole ? c.count : 0, whole ? c.total_ns : 0, c.self_ns});
  }
  sort_tree_cells(cells);
  for (auto& m : s.tree_memory) m.node = plan->target[m.node];  // self bytes, as self time: to where the node went
  sort_tree_memory(s.tree_memory);
  s.tree = std::move(tree);
  s.tree_cells = std::move(cells);
  s.tree_folded += plan->folded;
}

namespace detail {

std::uint32_t SideTree::child(std::uint32_t parent, std::string_view name, std::size_t name_hash,
                              std::string_view category, bool gpu, bool other) {
  const PathKey key{(std::uint64_t{parent} << 1) | (gpu ? 1 : 0), name, name_hash};
  const auto [it, fresh] = m_index.try_emplace(key, static_cast<std::uint32_t>(m_nodes.size()));
  if (fresh) {
    Node n{parent, name, category, name_hash, gpu, other, 0, 0, 0, model::Samples(m_units)};
    m_nodes.push_back(std::move(n));
  }
  return it->second;
}

void SideTree::add_file(const model::FileSummary& f, const std::vector<model::SummaryKey>& keys,
                        const std::vector<std::int64_t>& unit_of_step, bool gpu,
                        const std::vector<std::string_view>* names) {
  constexpr std::uint32_t k_skip = ~0u - 1;
  std::vector<std::uint32_t> mine(f.tree.size(), k_skip);
  std::vector<std::size_t> key_hash(keys.size() + 2, 0);  // per key, then the two "(other)"s
  std::vector<bool> hashed(keys.size() + 2, false);
  for (std::size_t i = 0; i < f.tree.size(); ++i) {
    const auto& t = f.tree[i];
    const bool other = t.key == model::k_tree_other || t.key == model::k_tree_other_gpu;
    const bool is_gpu = t.key == model::k_tree_other_gpu || (!other && model::is_gpu_work(keys[t.key].kind));
    const auto parent = t.parent == k_top ? k_top : mine[t.parent];
    if ((is_gpu && !gpu) || parent == k_skip) continue;
    const std::string_view name = t.key == model::k_tree_other ? k_other_name
                                  : t.key == model::k_tree_other_gpu ? k_other_gpu_name
                                  : names ? (*names)[t.key]
                                                                     : std::string_view(keys[t.key].name);
    const std::string_view category = other ? std::string_view() : std::string_view(keys[t.key].category);
    const std::size_t h = t.key == model::k_tree_other ? keys.size() : t.key == model::k_tree_other_gpu ? keys.size() + 1 : t.key;
    if (!hashed[h]) key_hash[h] = std::hash<std::string_view>()(name), hashed[h] = true;
    mine[i] = child(parent, name, key_hash[h], category, is_gpu, other);
  }
  m_folded += f.tree_folded;
  for (const auto& c : f.tree_cells) {
    if (mine[c.node] == k_skip) continue;
    const auto u = unit_of_step[c.step];
    if (u < 0) continue;
    auto& n = m_nodes[mine[c.node]];
    n.count += c.count;
    add_sat(n.self_ns, c.self_ns);
    n.time.add(static_cast<std::uint32_t>(u), static_cast<double>(c.total_ns));
  }
  for (const auto& c : f.tree_memory) {
    if (c.node >= mine.size() || mine[c.node] == k_skip || unit_of_step[c.step] < 0) continue;
    add_sat(m_nodes[mine[c.node]].alloc_bytes, c.bytes);
  }
}

void SideTree::finish(std::size_t budget) {
  for (auto& n : m_nodes) n.time.settle();
  const auto size = m_nodes.size();
  if (size <= budget) return;
  std::vector<std::uint32_t> parent(size);
  std::vector<bool> gpu(size);
  std::vector<double> total(size);
  for (std::size_t i = 0; i < size; ++i) {
    parent[i] = m_nodes[i].parent;
    gpu[i] = m_nodes[i].gpu;
    total[i] = m_nodes[i].time.sum();
  }
  const auto plan = plan_fold(parent, gpu, weights(parent, gpu, total), budget);
  if (!plan) return;
  std::vector<Node> nodes;
  nodes.reserve(plan->nodes.size());
  for (const auto& nn : plan->nodes) {
    if (nn.from == k_from_other || nn.from == k_from_other_gpu) {
      const auto name = nn.from == k_from_other ? k_other_name : k_other_gpu_name;
      Node o{nn.parent, name, {}, std::hash<std::string_view>()(name), nn.from == k_from_other_gpu, true,
             0, 0, 0, model::Samples(m_units)};
      nodes.push_back(std::move(o));
    } else {
      nodes.push_back(std::move(m_nodes[nn.from]));
      nodes.back().parent = nn.parent;
    }
  }
  for (std::size_t i = 0; i < size; ++i) {
    const auto to = plan->target[i];
    if (plan->nodes[to].from == i) continue;  // kept: moved above
    auto& into = nodes[to];
    const auto& from = m_nodes[i];
    add_sat(into.self_ns, from.self_ns);
    add_sat(into.alloc_bytes, from.alloc_bytes);
    if (!plan->whole[i]) continue;
    into.count += from.count;
    into.time.add_all(from.time);
  }
  for (auto& n : nodes)
    if (n.other) n.time.settle();
  m_nodes = std::move(nodes);
  m_index.clear();  // the tree is final
  m_folded += plan->folded;
}

namespace {

// GPU time launched at or under each node, per unit (a GPU node: its own time).
std::vector<model::Samples> gpu_within(const SideTree& t) {
  const auto& nodes = t.nodes();
  std::vector<model::Samples> g(nodes.size(), model::Samples(t.units()));
  for (std::size_t i = nodes.size(); i-- > 0;) {
    if (nodes[i].gpu) g[i].add_all(nodes[i].time);
    g[i].settle();
    if (nodes[i].parent != k_top) g[nodes[i].parent].add_all(g[i]);
  }
  return g;
}

}  // namespace

JudgedTree compare_trees(const SideTree& control, const SideTree& test, const NoiseRule& rule, bool short_names) {
  // Match by (parent, GPU or not, name): the diff tree's nodes, parents first.
  struct Pair {
    std::uint32_t parent;
    std::uint32_t c = k_top, t = k_top;  // index on each side, k_top: absent
    std::vector<std::uint32_t> children;
  };
  std::vector<Pair> pairs;
  std::vector<std::uint32_t> top;
  std::unordered_map<PathKey, std::uint32_t, PathKeyHash> index;
  const auto match = [&](const SideTree& side, bool is_control) {
    std::vector<std::uint32_t> to(side.nodes().size());
    for (std::size_t i = 0; i < side.nodes().size(); ++i) {
      const auto& n = side.nodes()[i];
      const auto parent = n.parent == k_top ? k_top : to[n.parent];
      const auto [it, fresh] =
          index.try_emplace({(std::uint64_t{parent} << 1) | (n.gpu ? 1 : 0), n.name, n.name_hash},
                            static_cast<std::uint32_t>(pairs.size()));
      if (fresh) {
        pairs.push_back({parent, k_top, k_top, {}});
        (parent == k_top ? top : pairs[parent].children).push_back(it->second);
      }
      (is_control ? pairs[it->second].c : pairs[it->second].t) = static_cast<std::uint32_t>(i);
      to[i] = it->second;
    }
  };
  match(control, true);
  match(test, false);
  index.clear();

  const auto gc = gpu_within(control), gt = gpu_within(test);
  const model::Samples c_zero(control.units()), t_zero(test.units());
  std::map<std::string_view, std::string> short_of;  // --short-names: each name shortened once

  JudgedTree result;
  auto& tree = result.tree;
  tree.budget = k_tree_budget;
  tree.control_folded = control.folded();
  tree.test_folded = test.folded();
  const auto no_gpu = compare_samples(c_zero, t_zero, rule);
  std::vector<model::CallNode> judged(pairs.size());
  std::vector<double> weight(pairs.size()), width(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& p = pairs[i];
    const auto* cn = p.c == k_top ? nullptr : &control.nodes()[p.c];
    const auto* tn = p.t == k_top ? nullptr : &test.nodes()[p.t];
    const auto& any = cn ? *cn : *tn;
    auto& out = judged[i];
    out.name = any.name;
    out.device = any.gpu ? model::Device::gpu : model::Device::cpu;
    out.other = any.other;
    if (!any.other) {
      // The row by (category, name), for labels and findings: the key rows have.
      std::string_view key = any.name;
      if (short_names) {
        auto [sit, fresh] = short_of.try_emplace(any.name);
        if (fresh) sit->second = shorten_name(any.name);
        key = sit->second;
      }
      out.row = result.row_keys.size();
      result.row_keys.emplace_back(any.category, std::string(key));
    }
    const double cu = std::max<double>(1, static_cast<double>(control.units()));
    const double tu = std::max<double>(1, static_cast<double>(test.units()));
    if (cn) out.control = {static_cast<double>(cn->count) / cu, static_cast<double>(cn->self_ns) / cu,
                           static_cast<double>(cn->alloc_bytes) / cu};
    if (tn) out.test = {static_cast<double>(tn->count) / tu, static_cast<double>(tn->self_ns) / tu,
                        static_cast<double>(tn->alloc_bytes) / tu};
    out.time = compare_samples(cn ? cn->time : c_zero, tn ? tn->time : t_zero, rule);
    const auto& cg = cn ? gc[p.c] : c_zero;
    const auto& tg = tn ? gt[p.t] : t_zero;
    // Most host paths launch nothing: no GPU time on either side is no change to test.
    out.gpu = any.gpu ? out.time
              : cg.values().empty() && tg.values().empty() ? no_gpu
                                                           : compare_samples(cg, tg, rule);
    weight[i] = out.weight();
    width[i] = out.width();
  }
  // Pre-order, children widest first (then heaviest, then by name): the order every
  // view shows, the flame graph's included.
  const auto by_weight = [&](std::vector<std::uint32_t>& v) {
    std::sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (width[a] != width[b]) return width[a] > width[b];
      if (weight[a] != weight[b]) return weight[a] > weight[b];
      if (judged[a].name != judged[b].name) return judged[a].name < judged[b].name;
      return judged[a].device < judged[b].device;
    });
  };
  by_weight(top);
  for (auto& p : pairs) by_weight(p.children);
  // The pre-order, then the nodes moved into it in place (along the permutation's
  // cycles): a second array of nodes would be that many fresh pages.
  std::vector<std::uint32_t> order, new_index(pairs.size());  // order[new] = old
  order.reserve(pairs.size());
  std::vector<std::uint32_t> stack(top.rbegin(), top.rend());
  while (!stack.empty()) {
    const auto old = stack.back();
    stack.pop_back();
    new_index[old] = static_cast<std::uint32_t>(order.size());
    order.push_back(old);
    const auto& kids = pairs[old].children;
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  for (std::size_t old = 0; old < pairs.size(); ++old) {
    auto& n = judged[old];
    n.parent = pairs[old].parent == k_top ? model::k_no_node : new_index[pairs[old].parent];
    n.children.reserve(pairs[old].children.size());
    for (const auto k : pairs[old].children) n.children.push_back(new_index[k]);
  }
  for (const auto t : top) tree.top.push_back(new_index[t]);
  move_into_order(judged, order);
  tree.nodes = std::move(judged);
  return result;
}

model::CallTree link_rows(JudgedTree judged, const std::vector<model::DiffRow>& rows) {
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> row_of;
  for (std::size_t r = 0; r < rows.size(); ++r) row_of.try_emplace({rows[r].category, rows[r].name}, r);
  for (auto& n : judged.tree.nodes) {
    if (n.row == SIZE_MAX) continue;
    const auto& [category, name] = judged.row_keys[n.row];
    const auto it = row_of.find({category, name});
    n.row = it == row_of.end() ? SIZE_MAX : it->second;
  }
  return std::move(judged.tree);
}

namespace {
// A row the top lists could show: a significant change, or any change when nothing is
// testable (the lists then show raw changes, and fold them the same way).
bool listable(const model::DiffRow& row) { return row.significant || row.verdict == model::Verdict::untestable; }
// Which way it moved: by the Δ the lists print (the medians'), else the means'.
int way(const model::DiffRow& row) {
  const double d = row.shown.diff_ns() != 0 ? row.shown.diff_ns() : row.diff_per_step_ns();
  return (d > 0) - (d < 0);
}
}  // namespace

void attach_paths(model::DiffReport& r) {
  auto& tree = r.call_tree;
  // The node of each row that moved most the way the row did.
  std::vector<double> most(r.rows.size(), 0.0);
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
    const auto& n = tree.nodes[i];
    if (n.row == SIZE_MAX) continue;
    auto& row = r.rows[n.row];
    const double d = row.diff_per_step_ns();
    const double along = d >= 0 ? n.time.diff() : -n.time.diff();
    if (row.tree_node == model::k_no_node || along > most[n.row]) {
      row.tree_node = i;
      most[n.row] = along;
    }
  }
  // A host row whose change one call inside explains: over the row's outermost nodes
  // (recursion counts once, as the row's inclusive time does), the calls of one name
  // directly inside moved at least 90 % as much, the same way, and that name's row is
  // itself a significant change the same way.
  struct Inside {
    std::size_t row, child_row;
    double diff;
  };
  std::vector<Inside> inside;
  std::vector<std::uint32_t> open_of_row(r.rows.size(), 0);  // nodes of each row on the path
  std::vector<std::uint32_t> path, look;
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
    const auto& n = tree.nodes[i];
    while (!path.empty() && path.back() != n.parent) {
      if (tree.nodes[path.back()].row != SIZE_MAX) --open_of_row[tree.nodes[path.back()].row];
      path.pop_back();
    }
    if (n.row != SIZE_MAX && !open_of_row[n.row] && n.device == model::Device::cpu && listable(r.rows[n.row])) {
      // The calls directly inside, looking through those of a name already on the path
      // (Python's _call_impl in each module call, recursion): they explain nothing new,
      // and following them would lead back up. A bounded look, for hostile shapes.
      look.assign(n.children.rbegin(), n.children.rend());
      for (int seen = 0; !look.empty() && seen < 256; ++seen) {
        const auto c = look.back();
        look.pop_back();
        const auto& child = tree.nodes[c];
        if (child.device != model::Device::cpu || child.row == SIZE_MAX) continue;
        if (child.row == n.row || open_of_row[child.row]) {
          look.insert(look.end(), child.children.rbegin(), child.children.rend());
          continue;
        }
        inside.push_back({n.row, child.row, child.time.diff()});
      }
    }
    path.push_back(i);
    if (n.row != SIZE_MAX) ++open_of_row[n.row];
  }
  std::sort(inside.begin(), inside.end(), [](const Inside& a, const Inside& b) {
    return std::tie(a.row, a.child_row) < std::tie(b.row, b.child_row);
  });
  std::vector<double> best(r.rows.size(), 0.0);
  for (std::size_t k = 0; k < inside.size();) {
    const auto row = inside[k].row, child_row = inside[k].child_row;
    double sum = 0;
    for (; k < inside.size() && inside[k].row == row && inside[k].child_row == child_row; ++k) sum += inside[k].diff;
    auto& parent = r.rows[row];
    const auto& child = r.rows[child_row];
    // The share of the parent's change it explains, by the means; or by the medians
    // (the Δ the lists print), when the child's change lies here: one slow step can
    // swell the means of everything around a call that moved in every step.
    double share = sum / parent.diff_per_step_ns();
    const double here = child.diff_per_step_ns() != 0 ? sum / child.diff_per_step_ns() : 0.0;
    if (here >= 0.9 && parent.shown.diff_ns() != 0) share = std::max(share, child.shown.diff_ns() / parent.shown.diff_ns());
    if (share >= 0.9 && share > best[row] && listable(child) && way(child) == way(parent)) {
      parent.explained_by = child_row;
      best[row] = share;
    }
  }
}

}  // namespace detail
}  // namespace tracediff::analysis
