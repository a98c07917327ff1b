#include "cli/provenance.hpp"

#include "util/errors.hpp"

namespace tracediff::cli {

namespace {

std::string marker_text(const std::string& pattern) {
  return pattern.empty() ? std::string("steps not from a step marker") : "steps from --step-marker '" + pattern + "'";
}

}  // namespace

void check_summary_made_as_compared(const std::string& side, const std::string& path, const model::SetSummary& summary,
                                    const analysis::SummarizeOptions& options) {
  const std::string level = analysis::launcher_level_name(options.launcher);
  for (const auto& f : summary.files) {
    // A summary of several traces names the one that differs.
    const auto who = side + " summary " + path + (summary.files.size() > 1 ? " (its file " + f.path + ")" : "");
    if (f.launcher_level.empty())
      throw Fatal(who + " does not record the --launcher level that made it: summarize the traces again");
    if (f.launcher_level != level)
      throw Fatal(who + ": --launcher " + f.launcher_level + "; this command: --launcher " + level +
                  " (its traces are read so; other levels attribute GPU work to other operators): give this command "
                  "--launcher " + f.launcher_level + ", or summarize the traces again with --launcher " + level);
    if (options.by_shape && !f.by_shape)
      throw Fatal(who + " was made without --by-shape; this comparison has --by-shape: summarize the traces again "
                        "with --by-shape (such a summary compares with or without it)");
  }
}

void MergeProvenance::add(const std::string& part, const model::FileSummary& f) {
  const std::string marker = f.step_marker_shape == model::StepMarkerShape::none ? std::string() : f.step_marker;
  if (f.launcher_level.empty())
    throw Fatal(part + " (its file " + f.path + ") does not record the --launcher level that made it: summarize the traces again");
  if (!m_any) {
    m_any = true;
    m_part = part, m_file = f.path, m_launcher = f.launcher_level, m_marker = marker, m_by_shape = f.by_shape;
    return;
  }
  // "a.tdsum.json ..., b.tdsum.json ...", or a part's two files when they are one part's.
  const bool same = part == m_part;
  const auto first = same ? m_part + "'s file " + m_file : m_part;
  const auto other = same ? "its file " + f.path : part;
  const auto refuse = [](const std::string& what) {
    throw Fatal(what + ": merge combines summaries made alike; summarize the traces again with the same options");
  };
  if (f.launcher_level != m_launcher)
    refuse(first + " was made with --launcher " + m_launcher + ", " + other + " with " +
           f.launcher_level);
  if (f.by_shape != m_by_shape)
    refuse(first + " was made " + (m_by_shape ? "with" : "without") + " --by-shape, " + other +
           (f.by_shape ? " with" : " without"));
  if (marker != m_marker)
    refuse(first + " has " + marker_text(m_marker) + ", " + other + " " + marker_text(marker));
}

}  // namespace tracediff::cli
