#pragma once
// The headline, the breakdown and the rank rows, each judged by the noise rule.
#include <string_view>
#include <vector>

#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

// Step details are kept in (rank, step) order; this orders them by rank alone, for
// std::equal_range over one rank's steps.
struct RankLess {
  bool operator()(const model::StepDetail& d, int rank) const { return d.rank < rank; }
  bool operator()(int rank, const model::StepDetail& d) const { return rank < d.rank; }
};

void decide_figures(model::DiffReport& report, const NoiseRule& rule);

// A side's value of the headline or breakdown figure ID in each of its step units, as
// decide_figures judges it; empty for an id that is none of them (`tracediff trend`).
std::vector<double> figure_samples(const model::SideSummary& side, std::string_view id);

}  // namespace tracediff::analysis::detail
