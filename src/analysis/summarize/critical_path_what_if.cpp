// A step's what-ifs (docs/critical-path.md "What-if"): the ones asked (--what-if), then the
// step's rows with the most time on its path, each the same graph with its work shortened
// and the path found again: a lane each of longest_lanes' sweeps.
#include <algorithm>

#include "analysis/names/kernel_families.hpp"
#include "analysis/summarize/critical_path_pass.hpp"

namespace tracediff::analysis::detail::cp {

namespace {
constexpr std::size_t k_what_if_steps = 2;  // steps of a file the rows' what-ifs run in, at most
}  // namespace

void Pass::what_ifs(std::size_t step, std::int64_t length, const std::vector<OnPath>& on_path, model::FileSummary& s) {
  // The rows with the most time on the path, each with a hundredth of it or more (less
  // saves less than that), in at most k_what_if_steps steps of the file, spread over them:
  // their medians are what the report shows (the first step, often a warm-up, left out),
  // their cost bounded in steps.
  std::vector<OnPath> rows(on_path);
  std::sort(rows.begin(), rows.end(), [](const OnPath& a, const OnPath& b) { return a.ns != b.ns ? a.ns > b.ns : a.key < b.key; });
  if (rows.size() > m_options.auto_rows) rows.resize(m_options.auto_rows);
  while (!rows.empty() && length > 0 && rows.back().ns <= (length - 1) / 100) rows.pop_back();  // ns * 100 < length
  const auto steps = m_count.size() - 1;
  if (steps > k_what_if_steps && ((step + 1) * k_what_if_steps) % steps >= k_what_if_steps) rows.clear();
  m_lanes.clear();
  for (std::uint32_t k = 0; k < m_options.what_if.size(); ++k) m_lanes.push_back(k);
  for (const auto& k : rows) {
    const auto [it, fresh] = m_what_index.try_emplace(k.key, static_cast<std::uint32_t>(s.what_ifs.size()));
    if (fresh) s.what_ifs.push_back({"", static_cast<std::int32_t>(k.key), m_options.auto_factor});
    m_lanes.push_back(it->second);
  }
  if (m_lanes.empty() || m_lanes.size() > 32) return;

  m_lane_mask.assign(g.edges.size(), 0);  // which lanes shorten each edge: a bit per lane
  // The rows' lanes: their events (a row's key: name, category, shape), a mask per slot first.
  const std::size_t asked = m_options.what_if.size();
  if (m_lanes.size() > asked) {
    m_slot_mask.assign(g.event.size(), 0);
    for (std::uint32_t k = 0; k < g.event.size(); ++k) {
      const auto& x = event_of(k);
      for (std::size_t l = asked; l < m_lanes.size(); ++l) {
        const auto& row = m_ev[rows[l - asked].event];
        if (x.name == row.name && x.category == row.category && x.shape == row.shape) m_slot_mask[k] |= std::uint32_t{1} << l;
      }
    }
    for (std::size_t k = 0; k < g.edges.size(); ++k)
      if (g.edges[k].type == EdgeType::op) m_lane_mask[k] = m_slot_mask[g.edges[k].attr];
  }
  for (std::size_t l = 0; l < asked; ++l) {
    const auto bit = std::uint32_t{1} << l;
    const auto& spec = m_options.what_if[l];
    Family want = Family::other;
    if (spec.target == WhatIfSpec::Target::family) family_from_name(spec.value, want);
    m_name_is.assign(m_file.pool.size(), -1);  // per name, once
    for (std::size_t k = 0; k < g.edges.size(); ++k) {
      const auto& e = g.edges[k];
      bool hit = false;
      switch (spec.target) {
        case WhatIfSpec::Target::launch: hit = e.type == EdgeType::launch; break;
        case WhatIfSpec::Target::gaps: hit = e.type == EdgeType::kernel_kernel; break;
        default:
          if (e.type == EdgeType::op) {
            const auto& x = event_of(e.attr);
            auto& v = m_name_is[x.name];
            if (v < 0)
              v = spec.target == WhatIfSpec::Target::name
                      ? m_file.pool.get(x.name) == spec.value
                      : x.kind == model::Kind::kernel && classify(m_file.pool.get(x.name), x.kind) == want;
            hit = v == 1;
          }
      }
      if (hit) m_lane_mask[k] |= bit;
    }
  }
  m_factors.clear();
  for (const auto l : m_lanes) m_factors.push_back(s.what_ifs[l].factor);
  g.longest_lanes(m_lane_mask, m_factors, m_dist, m_shorter);
  for (std::size_t l = 0; l < m_lanes.size(); ++l)
    s.what_if_cells.push_back({m_lanes[l], static_cast<std::uint32_t>(step), length - m_shorter[l]});
}

}  // namespace tracediff::analysis::detail::cp
