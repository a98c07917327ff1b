#include "cli/summary_commands.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/summarize/summarize.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "cli/provenance.hpp"
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

namespace {

// One file of one part, where the merged summary lists it.
struct MergeEntry {
  int rank = 0;
  std::string path;
  std::size_t part = 0, file = 0;
  std::vector<std::uint32_t> strings;  // its strings, as numbers of `pool`
};

// `tracediff merge` one part at a time: a first pass reads each part and keeps only
// where its files go and the numbers of their strings (memory grows with the distinct
// names, not with ranks x names); the second reads the parts again, in the merged
// order, and writes each file as it comes. Parts whose ranks interleave (rare: a
// part of ranks 0 and 2, another of 1 and 3) are all held at once instead.
void merge_parts(const std::vector<std::string>& inputs, const std::string& out) {
  std::string label;
  std::vector<std::string> merged_inputs;
  model::Diagnostics diagnostics;
  std::vector<MergeEntry> entries;
  std::unordered_map<std::string, std::uint32_t> pool_index;
  std::vector<std::string> pool;
  std::map<int, std::pair<std::size_t, std::string>> owner;  // rank -> (part, a file with it)
  std::uint64_t figures = 0;  // the merged summary must be readable too
  MergeProvenance made;        // every part made alike
  for (std::size_t pi = 0; pi < inputs.size(); ++pi) {
    auto part = reading::read_summary_file(inputs[pi], &figures);
    if (label.empty()) label = part.label;
    merged_inputs.insert(merged_inputs.end(), part.inputs.begin(), part.inputs.end());
    diagnostics.merge(part.diagnostics);
    for (std::size_t fi = 0; fi < part.files.size(); ++fi) {
      const auto& f = part.files[fi];
      made.add(inputs[pi], f);
      auto [it, fresh] = owner.emplace(f.rank, std::make_pair(pi, f.path));
      if (!fresh && it->second.first != pi)
        // The summaries as given first (what the user can act on), then the traces inside.
        throw Fatal("rank " + std::to_string(f.rank) + " is in two summaries, " + inputs[it->second.first] +
                    " (from " + it->second.second + ") and " + inputs[pi] + " (from " + f.path +
                    "); merge combines summaries of disjoint ranks");
      MergeEntry e{f.rank, f.path, pi, fi, {}};
      output::summary_strings(f, [&](const std::string& t) {
        const auto [at, added] = pool_index.try_emplace(t, static_cast<std::uint32_t>(pool.size()));
        if (added) pool.push_back(t);
        e.strings.push_back(at->second);
      });
      entries.push_back(std::move(e));
    }
  }
  pool_index = {};
  std::stable_sort(entries.begin(), entries.end(), [](const MergeEntry& a, const MergeEntry& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
  });
  // The table in the merged order, as write_summary would list it.
  std::vector<std::string> strings;
  {
    std::vector<char> listed(pool.size(), 0);
    for (auto& e : entries) {
      for (const auto id : e.strings)
        if (!listed[id]) {
          listed[id] = 1;
          strings.push_back(std::move(pool[id]));
        }
      e.strings = {};
    }
    pool = {};
  }
  std::size_t runs = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) runs += i == 0 || entries[i].part != entries[i - 1].part;
  std::set<std::size_t> parts_with_files;
  for (const auto& e : entries) parts_with_files.insert(e.part);
  const bool hold_all = runs > parts_with_files.size();

  OutputSet set;
  set.add(out, [&](std::ostream& os) {
    output::SummaryWriter w(os, label, merged_inputs, diagnostics, strings);
    std::vector<model::SetSummary> held(hold_all ? inputs.size() : 0);
    if (hold_all)
      for (std::size_t pi : parts_with_files) held[pi] = reading::read_summary_file(inputs[pi]);
    model::SetSummary current;
    std::size_t current_part = SIZE_MAX;
    std::uint64_t total = 0;  // each part is bounded, their union may not be
    for (const auto& e : entries) {
      if (!hold_all && e.part != current_part) {
        current = reading::read_summary_file(inputs[e.part]);
        current_part = e.part;
      }
      auto& f = (hold_all ? held[e.part] : current).files.at(e.file);
      if (f.rank != e.rank || f.path != e.path) throw Fatal(inputs[e.part] + ": changed while it was merged");
      model::bound_durations(f, total);
      w.file(f);
      f = {};  // written: its tables can go
    }
    w.finish();
  });
  set.write_files();
  set.write_stdout();
}

}  // namespace

int run_merge(int argc, const char* const* argv) {
  CLI::App app;
  MergeArgs a;
  declare_merge_options(app, a);
  const auto& [inputs, out, quiet] = a;
  if (!parse(app, argc, argv)) return k_exit_ok;
  prepare_standard_streams();
  check_output_path(out, inputs);
  merge_parts(inputs, out);
  return k_exit_ok;
}

}  // namespace tracediff::cli
