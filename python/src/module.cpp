// tracediff._tracediff: the C++ library under `import tracediff` (docs/python.md).
// It takes the CLI's own arguments, so that a Python call and a command line give the
// same report through the same code: cli::parse_options, cli::load_and_compare (the
// --hta-compat path read here, to learn which side HTA would have rounded), the gate
// and verdict as cli::run decides them, and the writers into strings. The Python
// package (python/tracediff/) turns them into DataFrames.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/gate/verdict.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "cli/outputs.hpp"
#include "cli/perfetto_step.hpp"
#include "analysis/names/short_name.hpp"
#include "hta_side.hpp"
#include "util/atomic_file.hpp"
#include "output/html_writer.hpp"
#include "output/human_writers.hpp"
#include "output/writers.hpp"
#include "reading/trace_set_reader.hpp"
#include "util/errors.hpp"
#include "util/sanitize.hpp"

namespace py = pybind11;
using namespace tracediff;

namespace {

// HTA's float64 durations (hta-tracediff-semantics.md §2.2, §6): whether a selected
// rank's file of this side had its timestamps rounded.
bool side_rounded(const model::TraceSet& set, const std::vector<int>& ranks) {
  return std::any_of(set.files.begin(), set.files.end(), [&](const model::TraceFile& f) {
    return f.hta_float_mode && std::find(ranks.begin(), ranks.end(), f.rank) != ranks.end();
  });
}

bool is_summary(const std::string& path) {
  constexpr std::string_view suffix = ".tdsum.json";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class Report {
 public:
  // Parses ARGS as `tracediff ARGS...` would, reads and compares without the GIL.
  // CONTROL and TEST, when given (HTA's LabeledTrace), are the sides already read: the
  // comparison is --hta-compat's on them, and ARGS' paths are not read again.
  Report(const std::vector<std::string>& args, const python::HtaSide* control, const python::HtaSide* test) {
    std::vector<const char*> argv{"tracediff"};
    for (const auto& a : args) argv.push_back(a.c_str());
    if (cli::parse_options(static_cast<int>(argv.size()), argv.data(), m_options) == cli::ParseOutcome::exit_ok)
      throw UsageError("--help and --version have no report");
    auto& o = m_options;
    o.summarize.call_tree = true;  // as the CLI's HTML and JSON outputs have it
    if (control && test) o.compare.hta_compat = true;
    // Python writes no report by default: a step to embed needs the HTML asked for.
    if (o.embed_perfetto && !o.html) throw UsageError("--embed-perfetto: there is no HTML report (output=) to embed the step in");
    {
      py::gil_scoped_release unlocked;
      // Held sides are not read again: their paths may be gone.
      cli::check_outputs(o, control && test ? std::vector<std::string>{} : cli::input_files(o));
      cli::check_perfetto_inputs(o);
      if (control && test) {
        m_report = analysis::compare_traces(control->set(), test->set(), o.compare);
        m_report.control.label = o.label_control;
        m_report.test.label = o.label_test;
        m_control_rounded = side_rounded(control->set(), m_report.control.ranks);
        m_test_rounded = side_rounded(test->set(), m_report.test.ranks);
      } else if (o.compare.hta_compat) {
        for (const auto* side : {&o.control_inputs, &o.test_inputs})
          for (const auto& p : *side)
            if (is_summary(p))
              throw UsageError("--hta-compat needs the traces themselves; a summary holds the default mode's figures");
        reading::ReadOptions ro;
        ro.hta_compat = true;
        const auto sets = reading::read_trace_sets(
            {{o.label_control, o.control_inputs, {}}, {o.label_test, o.test_inputs, {}}}, ro, o.threads);
        m_report = analysis::compare_traces(sets[0], sets[1], o.compare);
        m_control_rounded = side_rounded(sets[0], m_report.control.ranks);
        m_test_rounded = side_rounded(sets[1], m_report.test.ranks);
      } else {
        m_report = cli::load_and_compare(o, {});
      }
      cli::attach_step_trace(o, m_report);
      analysis::judge(m_report, o.fail_on);  // as cli::run does before any writer runs
    }
  }

  // The files the options name (html=, csv=, json=, markdown=, perfetto=, folded=),
  // all or none, as the CLI writes them. Standard output ("-") is Python's to use.
  void write_outputs() const {
    for (const auto& p : cli::output_paths(m_options))
      if (p == "-") throw UsageError("an output to standard output ('-'): use the Report's to_* methods for the text");
    py::gil_scoped_release unlocked;
    OutputSet out;
    cli::add_outputs(out, m_report, m_options);
    out.write_files();
  }

  // Bytes, as the CLI writes them (Python decodes them).
  py::bytes json(bool full_tree) const {
    return write([&](std::ostream& s) { output::write_json(m_report, s, {.full_tree = full_tree}); });
  }
  py::bytes html() const {
    return write([&](std::ostream& s) { output::write_html(m_report, s); });
  }
  py::bytes csv() const {
    return write([&](std::ostream& s) { output::write_csv(m_report, s); });
  }
  py::bytes markdown() const {
    output::MarkdownOptions mo;
    mo.report_url = m_options.report_url;
    return write([&](std::ostream& s) { output::write_markdown(m_report, mo, s); });
  }

  // --hta-compat's rows as HTA's table holds them: name, then per side count and
  // total µs (doubles, as HTA's durations are).
  py::list hta_rows() const {
    py::list out;
    for (const auto& r : m_report.rows)
      out.append(py::make_tuple(py::str(r.name), r.control.count, static_cast<double>(r.control.total_ns) / 1000.0,
                                r.test.count, static_cast<double>(r.test.total_ns) / 1000.0));
    return out;
  }

  const model::DiffReport& report() const { return m_report; }
  bool control_rounded() const { return m_control_rounded; }
  bool test_rounded() const { return m_test_rounded; }
  bool gate_fired() const {
    return std::any_of(m_report.gate.begin(), m_report.gate.end(), [](const auto& g) { return g.fired(); });
  }

 private:
  template <typename F>
  std::string write(F&& f) const {
    std::ostringstream s;
    f(s);
    return std::move(s).str();
  }

  model::DiffReport m_report;
  cli::Options m_options;
  bool m_control_rounded = false, m_test_rounded = false;
};

}  // namespace

PYBIND11_MODULE(_tracediff, m) {
  m.doc() = "tracediff's C++ library (use the tracediff package, not this module)";
  m.attr("__version__") = TRACEDIFF_VERSION;

  // The CLI's two kinds of error: a bad command line (exit 2) and nothing to report
  // (exit 1), with its messages, made safe as the CLI prints them.
  static py::exception<UsageError> usage_error(m, "UsageError", PyExc_ValueError);
  static py::exception<Fatal> fatal(m, "TraceDiffError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const UsageError& e) {
      usage_error(message_safe(e.what()).c_str());
    } catch (const Fatal& e) {
      fatal(message_safe(e.what()).c_str());
    }
  });

  python::bind_hta_side(m);
  m.def("shorten_name", [](const std::string& name) { return analysis::shorten_name(name); }, py::arg("name"),
        "HTA's shorten_name: templates, arguments and return types removed");
  m.def("option_specs", [] {
    py::list out;
    for (const auto& spec : cli::compare_option_specs())
      out.append(py::make_tuple(spec.name, spec.takes_value, spec.repeats));
    return out;
  }, "The CLI's options as compare() takes them: (name, takes_value, repeats)");
  m.def("output_formats", [] {
    py::list out;
    for (const auto& f : cli::output_formats())
      out.append(py::make_tuple(f.option, f.default_file ? py::object(py::str(f.default_file)) : py::object(py::none()),
                                f.directory, f.needs_call_tree));
    return out;
  }, "The comparison's outputs (cli/outputs' registry): (option, default_file, directory, needs_call_tree)");

  py::class_<Report>(m, "Report")
      .def(py::init([](const std::vector<std::string>& args) { return Report(args, nullptr, nullptr); }),
           py::arg("args"))
      .def(py::init([](const std::vector<std::string>& args, const python::HtaSide& control,
                       const python::HtaSide& test) { return Report(args, &control, &test); }),
           py::arg("args"), py::arg("control"), py::arg("test"))
      .def("write_outputs", &Report::write_outputs)
      .def("json", &Report::json, py::arg("full_tree") = false)
      .def("html", &Report::html)
      .def("csv", &Report::csv)
      .def("markdown", &Report::markdown)
      .def("hta_rows", &Report::hta_rows)
      .def_property_readonly("hta_compat", [](const Report& r) { return r.report().hta_compat; })
      .def_property_readonly("short_names", [](const Report& r) { return r.report().short_names; })
      .def_property_readonly("control_label", [](const Report& r) { return r.report().control.label; })
      .def_property_readonly("test_label", [](const Report& r) { return r.report().test.label; })
      .def_property_readonly("control_rounded", &Report::control_rounded)
      .def_property_readonly("test_rounded", &Report::test_rounded)
      .def_property_readonly("verdict_line", [](const Report& r) { return r.report().verdict_line; })
      .def_property_readonly("gate_fired", &Report::gate_fired);
}
