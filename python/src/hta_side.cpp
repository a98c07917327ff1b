#include "hta_side.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/compare/hta_events.hpp"
#include "reading/trace_set_reader.hpp"

namespace py = pybind11;

namespace tracediff::python {

namespace {

// pid and tid as HTA's pandas holds them: integers where the text is one.
py::object id_value(std::string_view text) {
  std::int64_t v = 0;
  bool negative = !text.empty() && text.front() == '-';
  std::string_view digits = negative ? text.substr(1) : text;
  if (digits.empty() || digits.size() > 18) return py::str(std::string(text));
  for (char c : digits) {
    if (c < '0' || c > '9') return py::str(std::string(text));
    v = v * 10 + (c - '0');
  }
  return py::int_(negative ? -v : v);
}

}  // namespace

HtaSide::HtaSide(const std::vector<std::string>& paths, const std::string& label, unsigned threads)
    : m_paths(paths) {
  {
    py::gil_scoped_release unlocked;
    reading::ReadOptions ro;
    ro.hta_compat = true;
    auto sets = reading::read_trace_sets({{label, paths, {}}}, ro, threads);
    m_set = std::make_shared<const model::TraceSet>(std::move(sets.front()));
    m_iterations = analysis::hta_iterations(*m_set);
    std::set<std::string_view> symbols;
    for (const auto& f : m_set->files)
      for (const auto& e : f.events) {
        symbols.insert(f.pool.get(e.name));
        symbols.insert(f.pool.get(e.category));
      }
    m_symbols.assign(symbols.begin(), symbols.end());
    for (const auto& f : m_set->files) {
      std::vector<std::uint32_t> ids(f.pool.size(), ~0u);
      for (const auto& e : f.events)
        for (auto id : {e.name, e.category})
          if (ids[id] == ~0u)
            ids[id] = static_cast<std::uint32_t>(
                std::lower_bound(m_symbols.begin(), m_symbols.end(), f.pool.get(id)) - m_symbols.begin());
      m_symbol_of.push_back(std::move(ids));
    }
  }
}

std::vector<int> HtaSide::ranks() const {
  std::set<int> r;
  for (const auto& f : m_set->files) r.insert(f.rank);
  return {r.begin(), r.end()};
}

py::dict HtaSide::events(const std::vector<int>& ranks, const std::vector<std::int64_t>& iterations,
                         int device) const {
  const std::set<std::int64_t> wanted(iterations.begin(), iterations.end());
  py::list index, ts, dur, name, cat, pid, tid, stream, correlation, iteration, rank;
  bool float_mode = false;
  for (int r : ranks) {
    for (std::size_t fi = 0; fi < m_set->files.size(); ++fi) {
      const auto& f = m_set->files[fi];
      if (f.rank != r) continue;
      float_mode = float_mode || f.hta_float_mode;
      const auto rows = analysis::hta_rows(f);
      for (std::size_t i = 0; i < f.events.size(); ++i) {
        const auto& row = rows[i];
        if (row.iteration == analysis::k_hta_nan_iteration || !wanted.count(row.iteration)) continue;
        const auto s = f.hta[i].stream;
        if ((device == 1 && s != -1) || (device == 2 && s == -1)) continue;
        const auto& e = f.events[i];
        index.append(f.hta[i].index);
        ts.append(static_cast<std::int64_t>(row.ts));  // integral: as written, or ceil'd by §2.2
        if (f.hta_float_mode || row.dur != std::floor(row.dur)) dur.append(row.dur);
        else dur.append(static_cast<std::int64_t>(row.dur));
        name.append(m_symbol_of[fi][e.name]);
        cat.append(m_symbol_of[fi][e.category]);
        pid.append(id_value(f.pool.get(e.pid)));
        tid.append(id_value(f.pool.get(e.tid)));
        stream.append(s);
        correlation.append(e.correlation);
        iteration.append(row.iteration);
        rank.append(r);
      }
    }
  }
  py::dict out;
  out["index"] = index;
  out["ts"] = ts;
  out["dur"] = dur;
  out["name"] = name;
  out["cat"] = cat;
  out["pid"] = pid;
  out["tid"] = tid;
  out["stream"] = stream;
  out["correlation"] = correlation;
  out["iteration"] = iteration;
  out["rank"] = rank;
  out["float_durations"] = float_mode;
  return out;
}

void bind_hta_side(py::module_& m) {
  py::class_<HtaSide, std::shared_ptr<HtaSide>>(m, "HtaSide")
      .def(py::init<const std::vector<std::string>&, const std::string&, unsigned>(), py::arg("paths"),
           py::arg("label"), py::arg("threads") = 0)
      .def_property_readonly("paths", &HtaSide::paths)
      .def("ranks", &HtaSide::ranks)
      .def("iterations", &HtaSide::iterations)
      .def("symbols", &HtaSide::symbols)
      .def("events", &HtaSide::events, py::arg("ranks"), py::arg("iterations"), py::arg("device"));
}

}  // namespace tracediff::python
