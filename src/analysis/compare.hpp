#pragma once
// compare_traces and ops_diff: two TraceSets in, one DiffReport out.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/report.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

enum class DeviceFilter { all, cpu, gpu };

struct Selection {
  std::optional<std::vector<int>> ranks;                // nullopt: the mode's default
  std::optional<std::vector<std::int64_t>> iterations;  // nullopt: the mode's default
  // Explicit "all": the same as the default mode's default, but --hta-compat's
  // default is the smallest rank and step.
  bool all_ranks = false;
  bool all_iterations = false;
};

struct CompareOptions {
  Selection control, test;
  DeviceFilter device = DeviceFilter::all;
  bool short_names = false;
  bool hta_compat = false;
};

// Throws UsageError for a rank or step that the side does not have, Fatal when a
// selection leaves nothing to compare in --hta-compat's terms (HTA's own errors).
model::DiffReport compare_traces(const model::TraceSet& control, const model::TraceSet& test,
                                 const CompareOptions& options);

}  // namespace tracediff::analysis
