#include "cli/summary_commands.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "analysis/summarize/summarize.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "cli/run.hpp"
#include "output/summary_writer.hpp"
#include "reading/summary_reader.hpp"
#include "cli/output_policy.hpp"
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

void declare_summarize_options(CLI::App& app, SummarizeArgs& a) {
  app.name("tracediff summarize");
  app.description("Reads a set of traces once and writes what the comparison needs: per rank, per step\n"
                  "and per name (counts, inclusive and self time, launch links, step breakdowns).\n"
                  "Either side of `tracediff CONTROL TEST` may then be the summary file.");
  app.add_option("SET", a.inputs, "Trace directories or files")->type_name("PATH")->required();
  app.add_option("-o,--output", a.out, "The summary, FILE.tdsum.json ('-' = stdout)")->type_name("FILE")->required();
  app.add_option("--label", a.label, "A label kept in the summary (informational)")->type_name("TEXT");
  app.add_option("-j,--threads", a.threads, "Files read in parallel (default: one per core)")
      ->type_name("N")->check(CLI::Range(0u, k_max_threads));
  app.add_flag("-q,--quiet", a.quiet, "No warnings on stderr");
  add_choice(app, "--launcher", a.summarize.launcher, launcher_levels(), true, "LEVEL",
             "innermost, outermost or module (as for a comparison)");
  app.add_option("--step-marker", a.step_marker,
                 "Host events whose names match REGEX define the steps (as in a comparison); the\n"
                 "summary records it")
      ->type_name("REGEX");
  app.add_flag("--by-shape", a.summarize.by_shape, "Keep CPU operators' input shapes (compare with --by-shape)");
}

int run_summarize(int argc, const char* const* argv) {
  CLI::App app;
  SummarizeArgs a;
  declare_summarize_options(app, a);
  auto& [inputs, out, label, threads, quiet, summarize, step_marker] = a;
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

void declare_merge_options(CLI::App& app, MergeArgs& a) {
  app.name("tracediff merge");
  app.description("Combines summaries of disjoint ranks (one `tracediff summarize` per rank, run where\n"
                   "each trace lives) into one summary.");
  app.add_option("SUMMARY", a.inputs, "*.tdsum.json files")->type_name("FILE")->required();
  app.add_option("-o,--output", a.out, "The merged summary ('-' = stdout)")->type_name("FILE")->required();
  // merge prints nothing but errors; -q is taken, as by the other commands, so that a
  // script may pass it to each.
  app.add_flag("-q,--quiet", a.quiet, "No warnings on stderr (merge has none; accepted as everywhere)");
}

int run_merge(int argc, const char* const* argv) {
  CLI::App app;
  MergeArgs a;
  declare_merge_options(app, a);
  const auto& [inputs, out, quiet] = a;
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
