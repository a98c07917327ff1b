#pragma once
// What the summary writer and reader must compute alike (docs/summaries.md, "The
// format"): a file's duration unit, and the predictions that most figures equal, so
// that the file holds only where a figure differs from its prediction. A prediction
// only makes the file smaller; whatever it says, a figure reads back exactly.
//
// Arithmetic is modulo 2^64 (a figure is written as figure - prediction, wrapped to
// int64, and read back as prediction + that), so a hostile summary cannot overflow.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "model/summary.hpp"

namespace tracediff::model::summary_format {

// The greatest common divisor of every duration of a file, 1 when all are 0: traces
// in whole microseconds give 1000, and their figures are written in it.
inline std::uint64_t unit_of(const FileSummary& f) {
  std::uint64_t g = 0;
  const auto add = [&g](std::int64_t v) {
    g = std::gcd(g, v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
  };
  for (const auto& s : f.steps)
    for (const auto& field : k_step_fields) add(s.detail.*field.field);
  for (const auto& c : f.cells) {
    add(c.total_ns);
    add(c.self_ns);
    add(c.wait_ns);
  }
  for (const auto& l : f.launches) add(l.total_ns);
  for (const auto& c : f.tree_cells) {
    add(c.total_ns);
    add(c.self_ns);
  }
  for (const auto& c : f.collectives) add(c.dur_ns);
  return g ? g : 1;
}

inline std::uint64_t in_units(std::int64_t v, std::uint64_t unit) {
  return static_cast<std::uint64_t>(v / static_cast<std::int64_t>(unit));
}

// A GPU node's time is GPU time, not part of its host parent's.
inline bool gpu_node(const FileSummary& f, const TreeNode& n) {
  if (n.key == k_tree_other_gpu) return true;
  return n.key < f.keys.size() && device_of(f.keys[n.key].kind) == Device::gpu;
}

inline std::uint64_t node_step(std::uint32_t node, std::uint32_t step) {
  return std::uint64_t{node} << 32 | step;
}

// A table by (index, step): an array where indices x steps is small beside the entries
// (a rank's keys or call paths by its steps), hashed otherwise and for what lies outside.
// The reader fills one per file it reads, twice for a summary read part by part.
template <class T>
class ByIndexStep {
 public:
  ByIndexStep(std::size_t indices, std::size_t steps, std::size_t entries) {
    const std::size_t room = std::max<std::size_t>(4 * entries, 4096);
    if (steps > 0 && indices <= room / steps) {
      m_indices = indices;
      m_steps = steps;
      m_dense.assign(indices * steps, T{});
    }
  }
  T& at(std::uint32_t index, std::uint32_t step) {
    return inside(index, step) ? m_dense[std::size_t{index} * m_steps + step] : m_hashed[node_step(index, step)];
  }
  T get(std::uint32_t index, std::uint32_t step) const {
    if (inside(index, step)) return m_dense[std::size_t{index} * m_steps + step];
    const auto it = m_hashed.find(node_step(index, step));
    return it == m_hashed.end() ? T{} : it->second;
  }

 private:
  bool inside(std::uint32_t index, std::uint32_t step) const { return index < m_indices && step < m_steps; }
  std::size_t m_indices = 0, m_steps = 0;
  std::vector<T> m_dense;
  std::unordered_map<std::uint64_t, T> m_hashed;
};

// Per tree cell, the prediction of (total - self) in units: its host children's
// totals in the same step (a host call's time is its own plus its callees'). Needs
// only the tree and the cells' nodes, steps and totals.
inline std::vector<std::uint64_t> tree_child_time(const FileSummary& f, std::uint64_t unit) {
  ByIndexStep<std::uint64_t> children(f.tree.size(), f.steps.size(), f.tree_cells.size());
  for (const auto& c : f.tree_cells) {
    if (c.node >= f.tree.size()) continue;
    const auto& n = f.tree[c.node];
    if (n.parent == k_tree_top || gpu_node(f, n)) continue;
    children.at(n.parent, c.step) += in_units(c.total_ns, unit);
  }
  std::vector<std::uint64_t> out;
  out.reserve(f.tree_cells.size());
  for (const auto& c : f.tree_cells) {
    const bool host = c.node < f.tree.size() && !gpu_node(f, f.tree[c.node]);
    out.push_back(host ? children.get(c.node, c.step) : 0);
  }
  return out;
}

// A key's cell in a step, predicted as the sum of its tree nodes' cells there (a key
// called from one path has that path's figures); count, total and self (in units).
struct CellGuess {
  std::uint64_t count = 0, total = 0, self = 0;
};
inline ByIndexStep<CellGuess> cell_guesses(const FileSummary& f, std::uint64_t unit) {
  ByIndexStep<CellGuess> out(f.keys.size(), f.steps.size(), f.cells.size() + f.tree_cells.size());
  for (const auto& c : f.tree_cells) {
    if (c.node >= f.tree.size() || f.tree[c.node].key >= f.keys.size()) continue;
    auto& g = out.at(f.tree[c.node].key, c.step);
    g.count += c.count;
    g.total += in_units(c.total_ns, unit);
    g.self += in_units(c.self_ns, unit);
  }
  return out;
}

}  // namespace tracediff::model::summary_format
