#pragma once
// One step's dependency graph for its critical path (critical_path.cpp): a node at the start
// and at the end of each of its events (slot j: nodes 2j and 2j+1), weighted edges between
// them, a topological order, and its longest paths. Its arrays come from the file's arena
// and are reserved once for the file's largest step: a graph a step, no page touched twice.
// Internal to analysis/summarize/.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory_resource>
#include <utility>
#include <vector>

namespace tracediff::analysis::detail::cp {

enum class EdgeType : std::uint8_t { op, dependency, launch, kernel_kernel, sync };
constexpr std::uint32_t k_none = ~0u;
// Weights and lengths stop at 2^61 ns (73 years, model::k_max_durations): a hostile trace's
// sums of them cannot wrap, and a summary holds them as it holds every duration.
constexpr std::int64_t k_cap = std::int64_t{1} << 61;
inline std::int64_t capped_sum(std::int64_t a, std::int64_t b) { return std::min(k_cap, a + b); }  // both in [0, 2^61]

struct Edge {
  std::uint32_t from, to;
  std::int64_t weight;
  std::uint32_t attr;  // the slot the edge's time belongs to (operator and kernel-kernel edges), else k_none
  EdgeType type;
};

class Graph {
 public:
  explicit Graph(std::pmr::memory_resource* memory)
      : event(memory), loader(memory), ts(memory), edges(memory), order(memory), out_at(memory), m_in(memory),
        m_perm(memory) {}

  std::pmr::vector<std::uint32_t> event;   // per slot: its event (ascending: slots are made in file order)
  std::pmr::vector<std::uint8_t> loader;   // per slot: inside the data loader
  std::pmr::vector<std::int64_t> ts;       // per node
  std::pmr::vector<Edge> edges;            // by source once sorted (each source's in the order made)
  std::pmr::vector<std::uint32_t> order;   // nodes in a topological order
  std::pmr::vector<std::uint32_t> out_at;  // per node, where its edges start in `edges` once sorted

  void reserve(std::size_t slots) {
    event.reserve(slots), loader.reserve(slots), ts.reserve(2 * slots), edges.reserve(3 * slots + 16);
    order.reserve(2 * slots), out_at.reserve(2 * slots + 1), m_in.reserve(2 * slots), m_perm.reserve(3 * slots + 16);
  }
  void clear() { event.clear(), loader.clear(), ts.clear(), edges.clear(), order.clear(), out_at.clear(); }
  std::uint32_t add(std::uint32_t e, std::int64_t begin, std::int64_t end) {
    event.push_back(e);
    loader.push_back(0);
    ts.push_back(begin);
    ts.push_back(end);
    return static_cast<std::uint32_t>(event.size() - 1);
  }
  static std::uint32_t start(std::uint32_t slot) { return 2 * slot; }
  static std::uint32_t end(std::uint32_t slot) { return 2 * slot + 1; }
  // The slot of an event, k_none when the step has none.
  std::uint32_t slot_of(std::uint32_t e) const {
    const auto it = std::lower_bound(event.begin(), event.end(), e);
    return it != event.end() && *it == e ? static_cast<std::uint32_t>(it - event.begin()) : k_none;
  }
  // Weighted edges weigh the time between their nodes (never below 0), the others 0.
  void edge(std::uint32_t from, std::uint32_t to, EdgeType type, bool zero, std::uint32_t attr = k_none) {
    const bool weighted = !zero && type != EdgeType::dependency && type != EdgeType::sync;
    // The difference of two timestamps can wrap int64 in a hostile trace: taken unsigned.
    const auto gap = static_cast<std::uint64_t>(ts[to]) - static_cast<std::uint64_t>(ts[from]);
    const std::int64_t w = !weighted || ts[to] <= ts[from] ? 0 : gap >= static_cast<std::uint64_t>(k_cap) ? k_cap : static_cast<std::int64_t>(gap);
    edges.push_back({from, to, w, attr, type});
  }

  // The edges by source (in place), and Kahn's order; nodes on a cycle (clocks that
  // disagree) are left out of it.
  void sort() {
    const auto n = ts.size();
    out_at.assign(n + 1, 0);
    m_in.assign(n, 0);
    for (const auto& e : edges) ++out_at[e.from + 1], ++m_in[e.to];
    for (std::size_t i = 0; i < n; ++i) out_at[i + 1] += out_at[i];
    m_perm.resize(edges.size());  // where each edge goes
    order.assign(out_at.begin(), out_at.end() - 1);  // as the fill's cursor, for now
    for (std::size_t k = 0; k < edges.size(); ++k) m_perm[k] = order[edges[k].from]++;
    for (std::size_t k = 0; k < edges.size(); ++k)
      while (m_perm[k] != k) {
        const auto j = m_perm[k];
        std::swap(edges[k], edges[j]);
        std::swap(m_perm[k], m_perm[j]);
      }
    order.clear();
    for (std::uint32_t v = 0; v < n; ++v)
      if (!m_in[v]) order.push_back(v);
    for (std::size_t at = 0; at < order.size(); ++at)
      for (auto k = out_at[order[at]]; k < out_at[order[at] + 1]; ++k)
        if (!--m_in[edges[k].to]) order.push_back(edges[k].to);
  }

  // The longest path: its length and last node; `pred` gets each node's edge on its
  // longest path in (k_none: it starts one). Of paths equally long, `prefer_work` takes
  // the one with the most work (operator and kernel edges, not gaps or launch delays): on
  // a busy GPU every stream's chain can span the step, and the one that ran set it. Else
  // the first found, as HTA's networkx does.
  std::pair<std::int64_t, std::uint32_t> longest(std::pmr::vector<std::uint32_t>& pred, std::pmr::vector<std::int64_t>& dist,
                                                 std::pmr::vector<std::int64_t>& work, bool prefer_work) const {
    dist.assign(ts.size(), 0);
    work.assign(ts.size(), 0);
    pred.assign(ts.size(), k_none);
    std::int64_t best = 0, best_work = 0;
    std::uint32_t at = order.empty() ? k_none : order.front();
    for (const auto u : order) {
      if (dist[u] > best || (prefer_work && dist[u] == best && work[u] > best_work)) best = dist[u], best_work = work[u], at = u;
      for (auto k = out_at[u]; k < out_at[u + 1]; ++k) {
        const auto& e = edges[k];
        const auto d = capped_sum(dist[u], e.weight);
        const auto wk = capped_sum(work[u], e.type == EdgeType::op ? e.weight : 0);
        const bool take = d > dist[e.to] || (d == dist[e.to] && (pred[e.to] == k_none || (prefer_work && wk > work[e.to])));
        if (take) dist[e.to] = d, work[e.to] = wk, pred[e.to] = k;
      }
    }
    return {best, at};
  }

  // The longest path's length in each lane: lane l's edges, those with bit l in `mask`,
  // weigh `factor[l]` times as much. One walk for k_lanes_at_once lanes (`dist`: nodes ×
  // that: longest()'s distances and work, whose pages are in place), as few walks as that
  // takes.
  void longest_lanes(const std::pmr::vector<std::uint32_t>& mask, const std::vector<double>& factor,
                     std::pmr::vector<std::int64_t>& dist, std::vector<std::int64_t>& best) const {
    best.assign(factor.size(), 0);
    for (std::size_t first = 0; first < factor.size(); first += k_lanes_at_once) {
      const std::size_t lanes = std::min(k_lanes_at_once, factor.size() - first);
      dist.assign(ts.size() * lanes, 0);
      for (const auto u : order) {
        const auto* du = &dist[std::size_t{u} * lanes];
        for (std::size_t l = 0; l < lanes; ++l) best[first + l] = std::max(best[first + l], du[l]);
        for (auto k = out_at[u]; k < out_at[u + 1]; ++k) {
          const auto& e = edges[k];
          auto* dv = &dist[std::size_t{e.to} * lanes];
          const auto m = mask[k] >> first;
          for (std::size_t l = 0; l < lanes; ++l) {
            // Scaled in double and capped before rounding: 2^61 ns times 100 fits no int64.
            const double scaled = static_cast<double>(e.weight) * factor[first + l];
            const std::int64_t w =
                (m >> l) & 1 ? (scaled >= static_cast<double>(k_cap) ? k_cap : std::llround(scaled)) : e.weight;
            dv[l] = std::max(dv[l], capped_sum(du[l], w));
          }
        }
      }
    }
  }
  static constexpr std::size_t k_lanes_at_once = 2;  // the base sweep's buffers hold two lanes

 private:
  std::pmr::vector<std::uint32_t> m_in;    // sort()'s in-degrees
  std::pmr::vector<std::uint32_t> m_perm;  // sort()'s destinations
};

}  // namespace tracediff::analysis::detail::cp
