#include "model/samples.hpp"

#include <algorithm>

namespace tracediff::model {

Samples Samples::dense(const std::vector<double>& v) {
  Samples s(v.size());
  s.m_values.reserve(v.size());
  for (std::size_t u = 0; u < v.size(); ++u) s.m_values.push_back({static_cast<std::uint32_t>(u), v[u]});
  return s;
}

void Samples::settle() {
  // Values arrive nearly in unit order (a file's cells are sorted by step).
  if (!std::is_sorted(m_values.begin(), m_values.end(), [](auto& a, auto& b) { return a.first < b.first; }))
    std::stable_sort(m_values.begin(), m_values.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < m_values.size(); ++i) {
    if (kept && m_values[kept - 1].first == m_values[i].first)
      m_values[kept - 1].second += m_values[i].second;
    else
      m_values[kept++] = m_values[i];
  }
  m_values.resize(kept);
  m_values.shrink_to_fit();
}

void Samples::add_all(const Samples& other) {
  m_units = std::max(m_units, other.m_units);
  m_values.insert(m_values.end(), other.m_values.begin(), other.m_values.end());
}

double Samples::sum() const {
  double s = 0;
  for (const auto& [u, v] : m_values) s += v;
  return s;
}

std::vector<double> Samples::to_dense() const {
  std::vector<double> d(m_units, 0.0);
  for (const auto& [u, v] : m_values) d[u] += v;
  return d;
}

}  // namespace tracediff::model
