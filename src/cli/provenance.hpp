#pragma once
// How a summary was made, checked where summaries meet (docs/summaries.md "How a summary
// was made"). Each file records its --launcher level, --by-shape and the step marker
// that made its steps; a comparison refuses a summary made otherwise than it reads its
// traces, and `merge` refuses parts made differently: either would compare different
// things under one name. What a summary does not record (name matching, --short-names,
// --categories, the selections) is applied when it is compared, never when it is made.
#include <string>

#include "analysis/summarize/summarize.hpp"
#include "model/summary.hpp"

namespace tracediff::cli {

// A comparison: every file of the summary at `path`, on the side `side` (its label),
// made as `options` (the side's: --launcher, --by-shape) reads traces. A summary made
// with --by-shape compared without it is safe (its shapes merge back into one row per
// name). Throws Fatal naming the side, the file and the difference.
void check_summary_made_as_compared(const std::string& side, const std::string& path, const model::SetSummary& summary,
                                    const analysis::SummarizeOptions& options);

// `merge`: every file of every part made alike (--launcher, --by-shape, the step marker
// that made its steps, none for ProfilerStep). add() throws Fatal naming both parts.
class MergeProvenance {
 public:
  void add(const std::string& part, const model::FileSummary& file);

 private:
  bool m_any = false;
  std::string m_part, m_file, m_launcher, m_marker;
  bool m_by_shape = false;
};

}  // namespace tracediff::cli
