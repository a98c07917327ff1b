// Folded stacks from the report's call tree (folded_writer.hpp).
#include "output/folded_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "util/sanitize.hpp"

namespace tracediff::output {

std::string folded_frame(std::string_view name) {
  const auto exact = display_exact(name);
  std::string out;
  out.reserve(exact.size());
  for (const char c : exact) {
    if (c == ';') out += "\\x3b";
    else out += c;
  }
  return out;
}

void write_folded(const model::DiffReport& r, std::ostream& out, const FoldedOptions& o) {
  const auto& t = r.call_tree;
  // The line's exact value in ns per unit: never negative (a line cannot be).
  const auto value = [&](const model::CallNode& n) -> double {
    const bool gpu = n.device == model::Device::gpu;
    if (gpu != o.gpu) return 0;
    const double v = gpu ? (o.test ? n.time.test : n.time.control) : (o.test ? n.test.self_ns : n.control.self_ns);
    return std::max(0.0, v);
  };
  // Pre-order by an explicit stack (a deep tree must not recurse here); each entry is
  // a node and the length of its parent's stack text (k_top: none).
  constexpr std::size_t k_top = SIZE_MAX;
  std::string stack;
  std::vector<std::pair<std::uint32_t, std::size_t>> todo;
  for (auto it = t.top.rbegin(); it != t.top.rend(); ++it) todo.emplace_back(*it, k_top);
  double sum_ns = 0;
  std::int64_t written_us = 0;
  while (!todo.empty()) {
    const auto [i, at] = todo.back();
    todo.pop_back();
    const auto& n = t.nodes[i];
    // Host time: GPU work is not host time, nor is anything under it.
    if (!o.gpu && n.device == model::Device::gpu) continue;
    if (at == k_top) {
      stack.clear();
    } else {
      stack.resize(at);
      stack += ';';
    }
    stack += folded_frame(n.name);
    sum_ns += value(n);
    const auto upto = static_cast<std::int64_t>(std::llround(sum_ns / 1000));
    if (upto > written_us) {
      out << stack << ' ' << (upto - written_us) << '\n';
      written_us = upto;
    }
    const auto len = stack.size();
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) todo.emplace_back(*it, len);
  }
}

}  // namespace tracediff::output
