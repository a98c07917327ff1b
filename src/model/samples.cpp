#include "model/samples.hpp"

#include <algorithm>

namespace tracediff::model {

Samples Samples::dense(const std::vector<double>& v) {
  Samples s(v.size());
  s.m_values.reserve(v.size());
  for (std::size_t u = 0; u < v.size(); ++u) s.m_values.push_back(Value{static_cast<std::uint32_t>(u), v[u]});
  return s;
}

void Samples::to_sparse() {
  if (m_dense.empty()) return;
  std::vector<Value> values;
  values.reserve(m_listed_count);
  for (const auto& [u, v] : this->values()) values.push_back(Value{u, v});
  m_values = std::move(values);
  std::vector<double>().swap(m_dense);
  std::vector<bool>().swap(m_listed);
  m_listed_count = 0;
}

void Samples::make_dense() {
  for (const auto& value : m_values)
    if (value.first >= m_units) return;
  m_dense.assign(m_units, 0.0);
  m_listed.assign(m_units, false);
  m_listed_count = 0;
  for (const auto& value : m_values) {  // in the order they came: settle()'s sums
    const std::uint32_t u = value.first;
    const double v = value.second;  // read, not bound: it is not aligned
    m_dense[u] += v;
    if (!m_listed[u]) m_listed[u] = true, ++m_listed_count;
  }
  std::vector<Value>().swap(m_values);
}

void Samples::settle() {
  // Added up in place already: dense while most units are listed.
  if (!m_dense.empty() && m_listed_count * sizeof(Value) * 8 > m_units * (sizeof(double) * 8 + 1)) return;
  to_sparse();
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
  // Densely when that is smaller: 8 bytes and a bit per unit against 12 per listed one.
  if (kept > 0 && m_values.back().first < m_units && kept * sizeof(Value) * 8 > m_units * (sizeof(double) * 8 + 1)) {
    make_dense();
    return;
  }
  m_values.shrink_to_fit();
}

void Samples::add_all(const Samples& other) {
  set_units(std::max(m_units, other.m_units));
  for (const auto& [u, v] : other.values()) add(u, v);
}

double Samples::sum() const {
  double s = 0;
  for (const auto& [u, v] : values()) s += v;
  return s;
}

std::vector<double> Samples::to_dense() const {
  std::vector<double> d(m_units, 0.0);
  for (const auto& [u, v] : values()) d[u] += v;
  return d;
}

}  // namespace tracediff::model
