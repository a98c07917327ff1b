#pragma once
// The call tree of both sides, matched and judged (CallNode, CallTree): what the flame
// graph and the lists' paths show. Part of the report (model/report.hpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/figure.hpp"
#include "model/trace.hpp"

namespace tracediff::model {

constexpr std::uint32_t k_no_node = ~0u;  // no call-tree node (CallTree)

// The call tree of both sides, matched by the names along each path (analysis/
// call_tree.cpp). A host node's time is host time at that path; a GPU node (a kernel,
// memcpy or memset) hangs under the runtime call that launched it, and its time is
// GPU time. Figures are per step unit of each side.
struct CallNode {
  std::string name;              // "(other)" / "(other GPU work)" for folded subtrees
  Device device = Device::cpu;   // gpu: GPU work
  bool other = false;            // folds the smallest subtrees of its parent (node budget)
  std::uint32_t parent = k_no_node;
  std::vector<std::uint32_t> children;  // by width, widest first, then weight, then name
  std::size_t row = SIZE_MAX;    // the row of its name, for its label; SIZE_MAX: none
  struct Side {
    double count = 0;   // calls per unit
    double self_ns = 0; // per unit: inclusive less the host events directly inside
    double allocated = 0;  // per unit: device bytes allocated while it was the innermost operator
  } control, test;
  Comparison time;  // inclusive time per unit, judged (a GPU node: its GPU time)
  Comparison gpu;   // GPU time per unit launched at or under this path, judged
  // What chooses what is shown: host and GPU time of both sides.
  double weight() const {
    return (device == Device::gpu ? 0.0 : time.control + time.test) + gpu.control + gpu.test;
  }
  // What orders siblings: the flame graph's default width, the larger side of its own
  // time, so that work one side no longer does sorts by what it was.
  double width() const { return std::max(time.control, time.test); }
};

struct CallTree {
  std::vector<CallNode> nodes;     // parents before children
  std::vector<std::uint32_t> top;  // the top-level nodes, in children's order
  std::size_t budget = 0;          // nodes kept per side at most
  std::uint64_t control_folded = 0, test_folded = 0;  // nodes folded into "(other)" nodes
  // Names from the top down to `node`, itself included.
  std::vector<std::string_view> path(std::uint32_t node) const;
};

}  // namespace tracediff::model
