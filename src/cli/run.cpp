#include "cli/run.hpp"

#include <iostream>
#include <memory>

#include "analysis/compare.hpp"
#include "cli/options.hpp"
#include "output/html_writer.hpp"
#include "output/writers.hpp"
#include "reading/trace_set_reader.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace tracediff::cli {

namespace {

// Warnings on stderr: every kept sample, then a count for the rest.
void print_warnings(const model::DiffReport& report) {
  const auto& d = report.diagnostics;
  std::size_t shown[model::k_diag_count] = {};
  for (const auto& s : d.samples()) {
    std::cerr << "tracediff: warning: " << s.file << ": " << s.message << '\n';
    ++shown[static_cast<std::size_t>(s.id)];
  }
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (d.count(id) > shown[i])
      std::cerr << "tracediff: warning: " << d.count(id) - shown[i] << " more " << model::diag_name(id)
                << ": " << model::diag_description(id) << '\n';
  }
  for (const auto& note : report.notes) std::cerr << "tracediff: note: " << note << '\n';
}

int run_checked(int argc, const char* const* argv) {
  Options o;
  if (parse_options(argc, argv, o) == ParseOutcome::exit_ok) return k_exit_ok;
  if (!o.html && !o.csv && !o.json) o.html = "tracediff-report.html";

  // Check outputs before the (possibly long) read, as hyperfine does.
  std::vector<std::string> inputs = reading::find_trace_files(o.control_inputs);
  const auto test_files = reading::find_trace_files(o.test_inputs);
  inputs.insert(inputs.end(), test_files.begin(), test_files.end());
  for (const auto* out : {&o.html, &o.csv, &o.json})
    if (*out) check_output_path(**out, inputs);

  reading::ReadOptions read_options;
  read_options.hta_compat = o.compare.hta_compat;
  auto sets = reading::read_trace_sets({{o.label_control, o.control_inputs}, {o.label_test, o.test_inputs}},
                                       read_options, o.threads);
  const auto report = analysis::compare_traces(sets[0], sets[1], o.compare);
  sets.clear();  // the traces are no longer needed; writers read the report
  if (!o.quiet) print_warnings(report);

  if (o.csv) {
    AtomicFile f(*o.csv);
    output::write_csv(report, f.stream());
    f.commit();
  }
  if (o.json) {
    AtomicFile f(*o.json);
    output::write_json(report, f.stream());
    f.commit();
  }
  if (o.html) {
    AtomicFile f(*o.html);
    output::write_html(report, {o.top}, f.stream());
    f.commit();
    if (*o.html != "-" && !o.quiet) std::cerr << "tracediff: report written to " << *o.html << '\n';
  }
  return k_exit_ok;
}

}  // namespace

int run(int argc, const char* const* argv) {
  try {
    return run_checked(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "tracediff: error: " << e.what() << "\nRun 'tracediff --help' for usage.\n";
    return k_exit_usage;
  } catch (const Fatal& e) {
    std::cerr << "tracediff: error: " << e.what() << '\n';
    return k_exit_fatal;
  } catch (const std::bad_alloc&) {
    std::cerr << "tracediff: error: out of memory\n";
    return k_exit_fatal;
  } catch (const std::exception& e) {
    std::cerr << "tracediff: error: internal: " << e.what() << '\n';
    return k_exit_fatal;
  }
}

}  // namespace tracediff::cli
