#include "cli/load.hpp"

#include <future>
#include <map>
#include <thread>

#include "analysis/compare.hpp"
#include "analysis/summarize/summarize.hpp"
#include "cli/provenance.hpp"
#include "reading/summary_reader.hpp"
#include "util/errors.hpp"

namespace tracediff::cli {

namespace {

struct SplitInputs {
  std::vector<std::string> traces, summaries;
  std::vector<std::uint32_t> trace_runs, summary_runs;  // each input's run; empty: one run
};

SplitInputs split(const std::vector<std::string>& inputs, const std::vector<std::uint32_t>& runs = {}) {
  SplitInputs s;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const bool summary = reading::is_summary_path(inputs[k]);
    (summary ? s.summaries : s.traces).push_back(inputs[k]);
    if (!runs.empty()) (summary ? s.summary_runs : s.trace_runs).push_back(runs[k]);
  }
  return s;
}

// Summarise on the reading thread (with the side's step marker) and drop the events.
void summarise_and_drop(model::TraceFile& f, const analysis::SummarizeOptions& options) {
  f.summary = std::make_shared<model::FileSummary>(analysis::summarize_file(f, options));
  model::shrink_to_fit(*f.summary);  // kept until the comparison ends, for every file
  f.events = {};
  f.events.shrink_to_fit();
  f.pool = {};
}

// A summary's steps were made when it was written: a marker cannot remake them.
void check_marker(const analysis::Selection& side, const SplitInputs& in) {
  if (side.step_marker && !in.summaries.empty())
    throw UsageError(side.step_marker->option() + " applies to traces, and " + in.summaries.front() +
                     " is a summary: give the marker to `tracediff summarize` when it is made");
}

}  // namespace

std::vector<std::string> input_files(const Options& o) {
  std::vector<std::string> files;
  for (const auto* side : {&o.control_inputs, &o.test_inputs}) {
    const auto found = reading::find_trace_files(*side);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

model::SetSummary load_set_summary(const std::string& label, const std::vector<std::string>& inputs,
                                   unsigned threads, const reading::ReadProgressFn& progress,
                                   const analysis::SummarizeOptions& summarize,
                                   const std::vector<std::uint32_t>& input_runs, bool parts) {
  const auto in = split(inputs, input_runs);
  model::SetSummary set;
  set.label = label;
  if (!in.traces.empty()) {
    reading::ReadOptions ro;
    ro.by_shape = summarize.by_shape;
    auto sets = reading::read_trace_sets({{label, in.traces, in.trace_runs}}, ro, threads, progress,
                                         [&summarize](model::TraceFile& f, std::size_t) { summarise_and_drop(f, summarize); });
    set = analysis::summarize_set(std::move(sets[0]), summarize);
  }
  std::uint64_t figures = 0;  // the side's summaries together stay within the reader's limit
  std::map<reading::ContentKey, std::string> seen;  // each summary once, by content
  for (std::size_t k = 0; k < in.summaries.size(); ++k) {
    const auto& path = in.summaries[k];
    std::uint64_t part_figures = figures;
    reading::ContentKey key;
    auto part = reading::read_summary_file(path, &part_figures, &key, parts);
    if (const auto [it, fresh] = seen.try_emplace(key, path); !fresh) {
      set.diagnostics.report(model::DiagId::input_duplicate, path, 0,
                             "the same summary as " + it->second + " (the same content); read once");
      continue;
    }
    figures = part_figures;
    check_summary_made_as_compared(label, path, part, summarize);
    // The summary's own inputs, so that the report reads as if the traces were given.
    set.inputs.insert(set.inputs.end(), part.inputs.begin(), part.inputs.end());
    set.diagnostics.merge(part.diagnostics);
    for (auto& f : part.files) {
      f.run = in.summary_runs.empty() ? 0 : in.summary_runs[k];
      set.files.push_back(std::move(f));
    }
  }
  set.runs = reading::run_names(inputs, input_runs);
  std::stable_sort(set.files.begin(), set.files.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
  });
  // Traces and summaries together: their sum is bounded too. A side past 2^61 ns has its
  // deferred rows read back first, so that they are clamped as the rest.
  std::uint64_t total = 0;
  for (const auto& f : set.files) total = std::min(total + model::duration_total(f), model::k_max_durations);
  if (total >= model::k_max_durations) model::undefer_rows(set);
  model::bound_durations(set);
  return set;
}

model::DiffReport load_and_compare(const Options& o, const reading::ReadProgressFn& progress) {
  const auto control = split(o.control_inputs);
  const auto test = split(o.test_inputs);
  check_marker(o.compare.control, control);
  check_marker(o.compare.test, test);
  if (o.compare.hta_compat) {
    if (!control.summaries.empty() || !test.summaries.empty())
      throw UsageError("--hta-compat needs the traces themselves; a summary holds the default mode's figures");
    reading::ReadOptions ro;
    ro.hta_compat = true;
    const auto sets = reading::read_trace_sets({{o.label_control, o.control_inputs, {}}, {o.label_test, o.test_inputs, {}}},
                                               ro, o.threads, progress);
    return analysis::compare_traces(sets[0], sets[1], o.compare);
  }
  // Each side's summarising options: --launcher, --by-shape and its own step marker, as
  // analysis::compare_traces makes them.
  const analysis::SummarizeOptions sides[] = {
      analysis::side_summarize_options(o.summarize, o.compare, o.compare.control),
      analysis::side_summarize_options(o.summarize, o.compare, o.compare.test)};
  if (control.summaries.empty() && test.summaries.empty()) {
    // Both sides' files in one pool of reading threads.
    reading::ReadOptions ro;
    ro.by_shape = o.compare.by_shape;
    auto sets = reading::read_trace_sets({{o.label_control, o.control_inputs, o.control_input_runs},
                                          {o.label_test, o.test_inputs, o.test_input_runs}},
                                         ro, o.threads, progress,
                                         [&sides](model::TraceFile& f, std::size_t side) { summarise_and_drop(f, sides[side]); });
    return analysis::compare_summaries(analysis::summarize_set(std::move(sets[0]), sides[0]),
                                       analysis::summarize_set(std::move(sets[1]), sides[1]), o.compare);
  }
  const auto load_test = [&] {
    return load_set_summary(o.label_test, o.test_inputs, o.threads, progress, sides[1], o.test_input_runs, true);
  };
  // Summaries alone: the test side is read on the second core while this one reads the
  // control (traces among them use the reading threads already). A control that fails
  // is reported first, as when they were read in turn.
  std::future<model::SetSummary> test_set;
  const unsigned cores = o.threads ? o.threads : std::thread::hardware_concurrency();
  if (cores > 1 && control.traces.empty() && test.traces.empty())
    test_set = std::async(std::launch::async, load_test);
  const auto c = load_set_summary(o.label_control, o.control_inputs, o.threads, progress, sides[0], o.control_input_runs, true);
  const auto t = test_set.valid() ? test_set.get() : load_test();
  return analysis::compare_summaries(c, t, o.compare);
}

}  // namespace tracediff::cli
