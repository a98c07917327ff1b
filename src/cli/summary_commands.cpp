#include "cli/summary_commands.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "analysis/summarize/summarize.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "cli/run.hpp"
#include "output/summary_writer.hpp"
#include "reading/summary_reader.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/sanitize.hpp"

namespace tracediff::cli {

namespace {

// Parses; returns false after --help (printed). Throws UsageError.
bool parse(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw_usage_error(app, e);
  }
  return true;
}

void warn(const model::Diagnostics& d) {
  for (const auto& s : d.samples()) std::cerr << "tracediff: warning: " << message_safe(s.file + ": " + s.message) << '\n';
}

// As the comparison writes its outputs: to a temporary swapped into place (in place
// for a device or FIFO, last for standard output).
void write(const std::string& path, const model::SetSummary& s) {
  OutputSet out;
  out.add(path, [&](std::ostream& os) { output::write_summary(s, os); });
  out.write_files();
  out.write_stdout();
}

}  // namespace

int run_summarize(int argc, const char* const* argv) {
  CLI::App app("Reads a set of traces once and writes what the comparison needs: per rank, per step\n"
               "and per name (counts, inclusive and self time, launch links, step breakdowns).\n"
               "Either side of `tracediff CONTROL TEST` may then be the summary file.",
               "tracediff summarize");
  std::vector<std::string> inputs;
  std::string out, label = "traces";
  unsigned threads = 0;
  bool quiet = false;
  app.add_option("SET", inputs, "Trace directories or files")->required();
  app.add_option("-o,--output", out, "The summary, FILE.tdsum.json ('-' = stdout)")->required();
  app.add_option("--label", label, "A label kept in the summary (informational)");
  app.add_option("-j,--threads", threads, "Files read in parallel (default: one per core)")
      ->check(CLI::Range(0u, k_max_threads));
  app.add_flag("-q,--quiet", quiet, "No warnings on stderr");
  analysis::SummarizeOptions summarize;
  add_choice(app, "--launcher", summarize.launcher, launcher_levels(), true, "LEVEL",
             "innermost, outermost or module (as for a comparison)");
  std::string step_marker;
  app.add_option("--step-marker", step_marker,
                 "Host events whose names match REGEX define the steps (as in a comparison); the\n"
                 "summary records it")
      ->type_name("REGEX");
  app.add_flag("--by-shape", summarize.by_shape, "Keep CPU operators' input shapes (compare with --by-shape)");
  if (!parse(app, argc, argv)) return k_exit_ok;
  std::shared_ptr<const analysis::StepMarker> marker;
  if (app.count("--step-marker"))
    marker = std::make_shared<const analysis::StepMarker>(step_marker, "--step-marker");
  for (const auto& in : inputs)
    if (reading::is_summary_path(in)) throw UsageError(in + ": already a summary (use `tracediff merge`)");
  prepare_standard_streams();
  check_output_path(out, reading::find_trace_files(inputs));
  summarize.marker = marker.get();
  const auto set = load_set_summary(label, inputs, threads, {}, summarize);
  if (!quiet) {
    warn(set.diagnostics);
    for (const auto& f : set.files) warn(f.diagnostics);
  }
  write(out, set);
  return k_exit_ok;
}

int run_merge(int argc, const char* const* argv) {
  CLI::App app("Combines summaries of disjoint ranks (one `tracediff summarize` per rank, run where\n"
               "each trace lives) into one summary.",
               "tracediff merge");
  std::vector<std::string> inputs;
  std::string out;
  bool quiet = false;
  app.add_option("SUMMARY", inputs, "*.tdsum.json files")->required();
  app.add_option("-o,--output", out, "The merged summary ('-' = stdout)")->required();
  // merge prints nothing but errors; -q is taken, as by the other commands, so that a
  // script may pass it to each.
  app.add_flag("-q,--quiet", quiet, "No warnings on stderr (merge has none; accepted as everywhere)");
  if (!parse(app, argc, argv)) return k_exit_ok;
  prepare_standard_streams();
  check_output_path(out, inputs);
  std::vector<model::SetSummary> parts;
  std::uint64_t figures = 0;  // the merged summary must be readable too
  for (const auto& in : inputs) parts.push_back(reading::read_summary_file(in, &figures));
  auto merged = analysis::merge_summaries(std::move(parts));
  model::bound_durations(merged);  // each part is bounded, their union may not be
  write(out, merged);
  return k_exit_ok;
}

}  // namespace tracediff::cli
