#include "cli/perfetto_step.hpp"

#include <memory>

#include "analysis/compare.hpp"
#include "analysis/perfetto/step_trace.hpp"
#include "reading/summary_reader.hpp"
#include "reading/trace_set_reader.hpp"
#include "util/errors.hpp"

namespace tracediff::cli {

void check_perfetto_inputs(const Options& o) {
  if (!o.perfetto && !o.embed_perfetto) return;
  for (const auto* side : {&o.control_inputs, &o.test_inputs})
    for (const auto& in : *side)
      if (reading::is_summary_path(in))
        throw UsageError(std::string(o.perfetto ? "--perfetto" : "--embed-perfetto") + " needs the traces themselves, and " +
                         in + " is a summary (it keeps figures, not events)");
}

void attach_step_trace(const Options& o, model::DiffReport& report) {
  if (!o.perfetto && !o.embed_perfetto) return;
  auto trace = std::make_shared<model::StepTrace>();
  for (const bool test : {false, true}) {
    const auto& side = test ? report.test : report.control;
    const auto step = analysis::median_step(side);
    if (!step) continue;
    const auto& sel = test ? o.compare.test : o.compare.control;
    const auto summarize = analysis::side_summarize_options(o.summarize, o.compare, sel);
    reading::ReadOptions ro;
    ro.by_shape = o.compare.by_shape;
    // The step's rank may have a file per run: the first that has the step.
    for (const auto& f : side.files) {
      if (f.rank != side.step_details[*step].rank) continue;
      auto sets = reading::read_trace_sets({{side.label, {f.path}, {}}}, ro, 1);
      if (sets.empty() || sets[0].files.empty()) continue;
      auto got = analysis::step_trace_side(sets[0].files[0], report, test, *step, summarize);
      if (!got) continue;
      trace->sides.push_back(std::move(*got));
      break;
    }
  }
  report.step_trace = std::move(trace);
  report.embed_step_trace = o.embed_perfetto;
  analysis::note_step_trace(report);
}

}  // namespace tracediff::cli
