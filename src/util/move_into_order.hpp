#pragma once
// A permutation applied in place: large items (report rows, call-tree nodes) sorted as
// indices are then moved into their order along the permutation's cycles, with no second
// array of them.
#include <cstddef>
#include <utility>
#include <vector>

namespace tracediff {

// Puts v into the order `order` gives (v[j] becomes the old v[order[j]]) in place, along
// the permutation's cycles: no second array of large items. `order` is consumed.
template <typename T, typename Index>
void move_into_order(std::vector<T>& v, std::vector<Index>& order) {
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] == i) continue;
    T held = std::move(v[i]);
    std::size_t j = i;
    for (;;) {
      const std::size_t from = order[j];
      order[j] = static_cast<Index>(j);
      if (from == i) {
        v[j] = std::move(held);
        break;
      }
      v[j] = std::move(v[from]);
      j = from;
    }
  }
}

}  // namespace tracediff
