#pragma once
// A figure's value in each step unit of one side, stored sparsely: only the units a
// name occurs in hold a value, the others are 0. A run of 10,000 steps over 40,000
// names that each occur in a few steps keeps a few values per name, not 10,000.
// Settled, a figure listed in most units is kept densely (a value per unit and a bit
// for whether it is listed): 8 bytes a unit instead of 12, for the rows, launches and
// call-tree nodes that occur in every step of every rank.
#include <cstdint>
#include <utility>
#include <vector>

namespace tracediff::model {

class Samples {
 public:
  // A unit's value as stored, packed: 12 bytes instead of a pair's 16. Its double is not
  // aligned, so no reference may bind to it: values() gives aligned pairs, by value.
  struct [[gnu::packed]] Value {
    std::uint32_t first;
    double second;
  };
  using Pair = std::pair<std::uint32_t, double>;

  // The listed (unit, value)s, unit ascending: what values() gives.
  class View {
   public:
    class Iterator {
     public:
      Iterator(const Samples* s, std::size_t at) : m_s(s), m_at(at) {}
      Pair operator*() const {
        if (!m_s->m_dense.empty()) return {static_cast<std::uint32_t>(m_at), m_s->m_dense[m_at]};
        const double v = m_s->m_values[m_at].second;  // read, not bound
        return {m_s->m_values[m_at].first, v};
      }
      Iterator& operator++() {
        ++m_at;
        if (!m_s->m_dense.empty()) m_at = m_s->next_listed(m_at);
        return *this;
      }
      bool operator==(const Iterator& o) const { return m_at == o.m_at; }
      bool operator!=(const Iterator& o) const { return m_at != o.m_at; }

     private:
      const Samples* m_s;
      std::size_t m_at;  // sparse: index into m_values; dense: the unit
    };
    explicit View(const Samples* s) : m_s(s) {}
    Iterator begin() const { return {m_s, m_s->m_dense.empty() ? 0 : m_s->next_listed(0)}; }
    Iterator end() const { return {m_s, m_s->m_dense.empty() ? m_s->m_values.size() : m_s->m_dense.size()}; }
    std::size_t size() const { return m_s->m_dense.empty() ? m_s->m_values.size() : m_s->m_listed_count; }
    bool empty() const { return size() == 0; }

   private:
    const Samples* m_s;
  };

  Samples() = default;
  explicit Samples(std::size_t units) : m_units(units) {}
  // Every value of a dense vector (zeros too): units = its size.
  static Samples dense(const std::vector<double>& v);

  std::size_t units() const { return m_units; }
  void set_units(std::size_t n) {
    if (n == m_units) return;
    to_sparse();
    m_units = n;
  }
  // Adds v to unit u. Values may come in any order, a unit more than once; call
  // settle() before reading. Once the values outgrow a value per unit, they are added
  // up in place (each unit's in the order they came, as settle() would).
  void add(std::uint32_t u, double v) {
    if (!m_dense.empty() && u < m_dense.size()) {
      m_dense[u] += v;
      if (!m_listed[u]) m_listed[u] = true, ++m_listed_count;
      return;
    }
    to_sparse();
    m_values.push_back(Value{u, v});
    if (m_values.size() * sizeof(Value) * 8 > m_units * (sizeof(double) * 8 + 1) && m_values.size() >= 64) make_dense();
  }
  // Sorts by unit, sums the values of each unit and gives back the spare capacity
  // (or keeps the values densely, when most units are listed).
  void settle();
  // Appends another side's values (same unit numbering); settle() afterwards.
  void add_all(const Samples& other);

  // (unit, value), unit ascending, once each after settle(); units not listed are 0.
  View values() const { return View(this); }
  double sum() const;
  std::vector<double> to_dense() const;

 private:
  void to_sparse();
  void make_dense();  // where every listed unit is below units()
  std::size_t next_listed(std::size_t u) const {
    while (u < m_listed.size() && !m_listed[u]) ++u;
    return u;
  }

  std::size_t m_units = 0;
  std::vector<Value> m_values;  // sparse
  // Dense (settled, most units listed): each unit's value, and whether it is listed.
  std::vector<double> m_dense;
  std::vector<bool> m_listed;
  std::size_t m_listed_count = 0;
};

}  // namespace tracediff::model
