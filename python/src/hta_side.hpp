#pragma once
// One side of HTA's API held in memory: the traces of a LabeledTrace, read once with
// --hta-compat's fields, for ranks(), iterations(), extract_ops() and every comparison
// that names it (docs/python.md).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/trace.hpp"

namespace tracediff::python {

class HtaSide {
 public:
  // Reads PATHS (directories of traces, trace files) as one side named LABEL (in
  // messages), without the GIL.
  HtaSide(const std::vector<std::string>& paths, const std::string& label, unsigned threads);

  const model::TraceSet& set() const { return *m_set; }
  const std::vector<std::string>& paths() const { return m_paths; }
  std::vector<int> ranks() const;
  const std::vector<std::int64_t>& iterations() const { return m_iterations; }
  // Every kept name and category, sorted: the ids of extract_ops' name and cat columns.
  const std::vector<std::string>& symbols() const { return m_symbols; }
  // HTA's extract_ops (hta-tracediff-semantics.md §4): the events of RANKS (a rank twice
  // counts twice) whose iteration is in ITERATIONS, then the device filter on stream
  // (0 all, 1 CPU: stream -1, 2 GPU: the rest). Columns as lists, by name.
  pybind11::dict events(const std::vector<int>& ranks, const std::vector<std::int64_t>& iterations,
                        int device) const;

 private:
  std::vector<std::string> m_paths;
  std::shared_ptr<const model::TraceSet> m_set;
  std::vector<std::int64_t> m_iterations;
  std::vector<std::string> m_symbols;
  // Per file: each pool id's symbol id (~0u for strings no kept event names).
  std::vector<std::vector<std::uint32_t>> m_symbol_of;
};

void bind_hta_side(pybind11::module_& m);

}  // namespace tracediff::python
