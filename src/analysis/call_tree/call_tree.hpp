#pragma once
// The call tree: each file's paths folded to a node budget (what summaries store),
// each side's files merged by path over its step units, and the two sides matched by
// the names along each path into the report's CallTree, judged node by node; then
// each row's path and whether one call inside it explains its change.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/report.hpp"
#include "model/samples.hpp"
#include "model/summary.hpp"

namespace tracediff::analysis {

struct NoiseRule;

// Nodes kept per file and per side: a tree of Python frames can have a node per
// event; past this the smallest subtrees are folded. Real traces stay far below.
constexpr std::size_t k_tree_budget = 50000;

// Sorts cells by (node, step) and merges those of the same (node, step).
void sort_tree_cells(std::vector<model::TreeCell>& cells);

// Sorts tree memory cells by (node, step) and merges those of the same (node, step).
void sort_tree_memory(std::vector<model::TreeMemoryCell>& cells);

// Folds a file's tree to at most about `budget` nodes: the heaviest subtrees are kept
// from the top down; each parent's other host children become one "(other)" node and
// its other GPU work one "(other GPU work)" node. Counts the nodes folded.
void fold_tree(model::FileSummary& f, std::size_t budget);

namespace detail {

// A child's key: its parent and kind, and its name with the name's hash, computed once
// per name (kernel names run to 1,700 characters; a tree repeats them on many paths).
struct PathKey {
  std::uint64_t up;  // parent << 1 | GPU
  std::string_view name;
  std::size_t name_hash;
  bool operator==(const PathKey& o) const { return up == o.up && name == o.name; }
};
struct PathKeyHash {
  std::size_t operator()(const PathKey& k) const { return k.name_hash ^ (k.up * 0x9E3779B97F4A7C15ull); }
};

// One side's call tree, per step unit.
class SideTree {
 public:
  struct Node {
    std::uint32_t parent;
    std::string_view name, category;  // views of the summaries' strings
    std::size_t name_hash;
    bool gpu = false, other = false;
    std::uint64_t count = 0;
    std::int64_t self_ns = 0;
    std::int64_t alloc_bytes = 0;  // self device allocations (FileSummary::tree_memory), all units
    model::Samples time;  // inclusive, per unit
  };
  explicit SideTree(std::size_t units = 0) : m_units(units) {}
  // Adds a file's tree; unit_of_step[s] is the unit of the file's step s, or -1 when
  // that step is not compared. GPU nodes only when `gpu`.
  // `keys`: f's keys as the side holds them (its nodes view their names, so they outlive
  // the tree; f may be the file's rows decoded for the moment, model::WithRows).
  // names: per key of f, the name its nodes are matched by (names paired across the
  // sides, analysis/names/name_match.hpp); null: the keys' own names.
  void add_file(const model::FileSummary& f, const std::vector<model::SummaryKey>& keys,
                const std::vector<std::int64_t>& unit_of_step, bool gpu,
                const std::vector<std::string_view>* names = nullptr);
  // Folds the merged tree to the budget and settles the samples.
  void finish(std::size_t budget);

  const std::vector<Node>& nodes() const { return m_nodes; }
  std::size_t units() const { return m_units; }
  std::uint64_t folded() const { return m_folded; }

 private:
  std::uint32_t child(std::uint32_t parent, std::string_view name, std::size_t name_hash, std::string_view category,
                      bool gpu, bool other);
  std::size_t m_units;
  std::vector<Node> m_nodes;
  std::unordered_map<PathKey, std::uint32_t, PathKeyHash> m_index;
  std::uint64_t m_folded = 0;
};

// Both sides matched by path and judged. It needs no rows, so that it runs beside the
// rows' own comparison; link_rows then resolves each node's row.
struct JudgedTree {
  model::CallTree tree;
  // Per node whose row is to be found (its CallNode::row indexes this until
  // link_rows): the (category, name) rows are keyed by, a short name with --short-names.
  std::vector<std::pair<std::string_view, std::string>> row_keys;
};
JudgedTree compare_trees(const SideTree& control, const SideTree& test, const NoiseRule& rule, bool short_names);
// The tree's nodes' rows against report.rows (SIZE_MAX: none).
model::CallTree link_rows(JudgedTree judged, const std::vector<model::DiffRow>& rows);

// Each row's tree_node (the path that carries most of its change) and explained_by
// (a call inside it that explains at least 90 % of its change and is itself a
// significant change the same way).
void attach_paths(model::DiffReport& report);

}  // namespace detail
}  // namespace tracediff::analysis
