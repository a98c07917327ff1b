#pragma once
// The result model: everything a writer shows, computed once by analysis/. Writers
// (HTML, JSON, CSV, Markdown, terminal) read it and never sort, filter or recompute.
//
// One row, as the CSV shows it:
//   name,category,device,control_count,test_count,...,change
//   aten::mm,cpu_op,cpu,48,48,...,unchanged
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/diagnostics.hpp"
#include "model/trace.hpp"

namespace tracediff::model {

// HTA's ops_diff groups, by count (hta-tracediff-semantics.md §7).
enum class Change : std::uint8_t { added, deleted, increased, decreased, unchanged };
const char* change_name(Change c);   // "added", ...
const char* change_symbol(Change c); // HTA's "+", "-", "="

struct SideStats {
  std::uint64_t count = 0;
  std::int64_t total_ns = 0;   // inclusive
};

struct DiffRow {
  std::string name;       // the key: full name, or HTA's short name with --short-names
  std::string full_name;  // the full name behind the key (first in order when several merge)
  std::string category;   // normalised cat; empty in --hta-compat, whose key is the name alone
  Device device = Device::cpu;
  SideStats control, test;
  Change change = Change::unchanged;

  std::int64_t diff_count() const {
    return static_cast<std::int64_t>(test.count) - static_cast<std::int64_t>(control.count);
  }
  std::int64_t diff_ns() const { return test.total_ns - control.total_ns; }
  // Relative change of the total duration; nullopt when control is 0.
  std::optional<double> diff_pct() const;
};

struct OpsDiff {
  // Names in row order, one list per Change. HTA's ops_diff always uses full names,
  // so with --hta-compat --short-names these are not the rows' keys.
  std::vector<std::string> groups[5];
  const std::vector<std::string>& of(Change c) const { return groups[static_cast<int>(c)]; }
};

// Step time (ProfilerStep#N durations) of one side, over the selected ranks and steps.
struct StepTimes {
  struct Step {
    int rank = 0;
    std::int64_t step = 0;
    std::int64_t dur_ns = 0;
  };
  std::vector<Step> steps;  // sorted by (rank, step)
  std::int64_t mean_ns = 0, median_ns = 0, min_ns = 0, max_ns = 0;
};

struct FileInfo {
  std::string path;
  int rank = 0;
  RankSource rank_source = RankSource::fallback;
  std::uint64_t events = 0;     // complete events kept
  std::uint64_t json_bytes = 0;
  bool truncated = false;
};

struct SideSummary {
  std::string label;
  std::vector<std::string> inputs;
  std::vector<FileInfo> files;
  std::vector<int> ranks;                 // selected
  std::vector<int> available_ranks;
  std::vector<std::int64_t> iterations;   // selected steps (empty in whole-trace mode)
  std::vector<std::int64_t> available_iterations;
  bool whole_trace = false;               // no ProfilerStep anywhere: every event compared
  std::vector<std::string> gpu_names;     // distinct deviceProperties names
  StepTimes step_times;
  SideStats cpu_total, gpu_total;         // sums over rows of each device
};

struct DiffReport {
  SideSummary control, test;
  std::string device_filter = "all";  // cpu | gpu | all
  bool short_names = false;
  bool hta_compat = false;
  std::vector<DiffRow> rows;            // output order: HTA's in --hta-compat, else by_impact's
  std::vector<std::size_t> by_impact;   // |Δ duration| descending, then category, name
  OpsDiff ops_diff;
  Diagnostics diagnostics;              // both sides; samples name their file
  std::vector<std::string> notes;       // plain-language remarks ("compared whole: no ProfilerStep")
};

}  // namespace tracediff::model
