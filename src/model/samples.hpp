#pragma once
// A figure's value in each step unit of one side, stored sparsely: only the units a
// name occurs in hold a value, the others are 0. A run of 10,000 steps over 40,000
// names that each occur in a few steps keeps a few values per name, not 10,000.
#include <cstdint>
#include <utility>
#include <vector>

namespace tracediff::model {

class Samples {
 public:
  // A unit's value, packed: 12 bytes instead of a pair's 16 (a side of 8,000 step units
  // holds a value per unit for each of its rows and tree nodes). Named as a pair's
  // members, so that code reads it as one.
  struct [[gnu::packed]] Value {
    std::uint32_t first;
    double second;
  };

  Samples() = default;
  explicit Samples(std::size_t units) : m_units(units) {}
  // Every value of a dense vector (zeros too): units = its size.
  static Samples dense(const std::vector<double>& v);

  std::size_t units() const { return m_units; }
  void set_units(std::size_t n) { m_units = n; }
  // Adds v to unit u. Values may come in any order, a unit more than once; call
  // settle() before reading.
  void add(std::uint32_t u, double v) { m_values.push_back({u, v}); }
  // Sorts by unit, sums the values of each unit and gives back the spare capacity.
  void settle();
  // Appends another side's values (same unit numbering); settle() afterwards.
  void add_all(const Samples& other);

  // (unit, value), unit ascending, once each after settle(); units not listed are 0.
  const std::vector<Value>& values() const { return m_values; }
  double sum() const;
  std::vector<double> to_dense() const;

 private:
  std::size_t m_units = 0;
  std::vector<Value> m_values;
};

}  // namespace tracediff::model
