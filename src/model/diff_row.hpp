#pragma once
// One row of the comparison: a name (with its category and device) on both sides, its
// figures and verdict (DiffRow), and HTA's ops_diff groups of the names (OpsDiff). Part
// of the report (model/report.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/call_tree_diff.hpp"
#include "model/figure.hpp"
#include "model/samples.hpp"
#include "model/trace.hpp"

namespace tracediff::model {

// HTA's ops_diff groups, by count (hta-tracediff-semantics.md §7).
enum class Change : std::uint8_t { added, deleted, increased, decreased, unchanged };
const char* change_name(Change c);   // "added", ...
const char* change_symbol(Change c); // HTA's "+", "-", "="

struct DiffRow;
// A row's verdict for people: verdict_words, "waits for the GPU" for a significant change
// of a row that waits for it (DiffRow::waits_for_gpu), or "more calls" / "fewer calls"
// for a change that comes from the number of calls (DiffRow::by_calls).
const char* row_words(const DiffRow& row);

struct SideStats {
  std::uint64_t count = 0;
  std::int64_t total_ns = 0;   // inclusive
  std::int64_t self_ns = 0;    // exclusive: host events minus their direct children; GPU work = total
  // Host rows: time inside it that the host waited for the GPU; GPU rows: its time while
  // the host waited (model::Cell::wait_ns).
  std::int64_t wait_ns = 0;
  std::uint64_t nested = 0;    // calls inside an open call of the same name (model::Cell::nested)
};

// Per-step means of one side of a row: totals divided by the side's step units
// (selected steps × ranks; one unit per file in whole-trace mode).
struct PerStep {
  double count = 0;
  double total_ns = 0;
  double self_ns = 0;
  double stddev_ns = 0;  // spread of the per-unit totals (0 with fewer than 2 units)
  double wait_ns = 0;    // SideStats::wait_ns per unit
};

struct DiffRow {
  std::string name;       // the key: full name, or HTA's short name with --short-names
  std::string full_name;  // the full name behind the key (first in order when several merge)
  std::string category;   // normalised cat; empty in --hta-compat, whose key is the name alone
  Device device = Device::cpu;
  SideStats control, test;
  PerStep control_step, test_step;
  Change change = Change::unchanged;       // by count (per step in the default mode)
  Verdict verdict = Verdict::same;         // by duration per step, noise-aware
  bool significant = false;                // the per-step change stands out from the noise
  std::string launched_by;                 // GPU rows: the CPU operator that launched most of its time
  std::string family;                      // GPU rows, default mode: its kernel family's id ("gemm",
                                           // "all_reduce", ...; analysis/names/kernel_families.cpp); empty otherwise
  std::string family_by;                   // how `family` was decided: "rule", "launcher", "words", "kind"
                                           // (memcpy, memset) or "none" (`other`); empty with no family
  // The test side's own name when it differs from `name` (names matched across
  // versions and vendors, analysis/names/name_match.hpp), and why they were paired.
  std::string test_name;
  std::string matched_by;                  // "python_line", "runtime", ...; empty when not renamed
  std::string test_label;                  // test_name as views show it (simplified, at most 60 characters)
  std::string label;                       // the name as views show it (distinct_labels over all rows)
  std::string launched_by_label;
  std::optional<double> pct;               // diff_pct(): set by analysis
  std::optional<double> self_pct;          // the same for self time
  double median_diff_ns = 0;               // what the verdict judged: median(test) - median(control)
  // What every list prints and ranks by (docs/reading-the-report.md "One Δ"): in the default mode the
  // per-step medians and their difference, the one the verdict judges (also for rows
  // not testable); in --hta-compat the totals. `mean_differs`: the means' Δ
  // (diff_per_step_ns) differs from it by a quarter or more, so views show it beside.
  struct Shown {
    double control_ns = 0, test_ns = 0;
    std::optional<double> pct;
    bool mean_differs = false;
    double diff_ns() const { return test_ns - control_ns; }
    bool is_new() const { return control_ns == 0 && test_ns != 0; }
  } shown;
  // Calls apart from time (docs/reading-the-report.md "Calls or time?"): the time per call on each side (the
  // shown time per step over the calls per step), and the shown Δ split into the part
  // from the number of calls (Δcalls × control's time per call) and the part from the
  // time per call (test's calls × Δ per call); the two add up to shown.diff_ns().
  double control_per_call_ns = 0, test_per_call_ns = 0;
  // The calls they are per: outermost calls per step (a call inside one of its name is
  // part of that call's time), the lists' "calls".
  double control_calls = 0, test_calls = 0;
  std::optional<double> per_call_pct;      // nullopt when a side has no calls
  double diff_from_calls_ns = 0, diff_from_per_call_ns = 0;
  // A significant change that comes from the number of calls: the time per call did not
  // move the same way by the noise rule's minimum. Views read it "more calls" / "fewer
  // calls", never "slower" / "faster".
  bool by_calls = false;
  // Kernels of one family that moved in opposite directions while the family's time
  // stayed the same (an autotuner or a heuristic picking other algorithms): left out of
  // the top lists and told by one note.
  bool swapped = false;
  // A host row whose time, on the side where it is larger, is at least half the host
  // blocked on the GPU (docs/reading-the-report.md "The host waiting for the GPU"): shown as "waits for the
  // GPU", never as a regression of its own; a note says what the GPU ran meanwhile.
  bool waits_for_gpu = false;
  // A host row all of whose events ran on threads that launch no GPU work, on both sides (a
  // telemetry thread, a progress bar's monitor): never what moved the GPU's idle time.
  bool off_launch_threads = false;
  // Of those, a frame that blocks its thread (wait, acquire, sleep, select, ...): a thread
  // asleep, left out of the top lists (TopList::sleeping).
  bool sleeping = false;
  std::uint32_t tree_node = k_no_node;     // the call-tree path that carries most of its change
  std::size_t explained_by = SIZE_MAX;     // the row of a call inside it that explains >= 90 % of its change
  // --by-shape (CPU operators whose trace records their inputs): the input shapes
  // ("[[64,1024],[1024,4096]] (float,float)", also at the end of name), FLOPs per call
  // and per side the achieved TFLOP/s (analysis/names/flops.hpp; compare_default.cpp says
  // against what time).
  std::string shape;
  std::optional<double> flops_per_call;
  std::optional<double> control_tflops, test_tflops;
  // Inclusive time of each step unit (selected, warm-up left out), for the gate's sums.
  Samples control_samples, test_samples;
  // What its calls allocated (docs/reading-the-report.md "Memory per operator"), when
  // either side's traces have [memory] events: allocations on a device (the host's own
  // memory left out), each charged to the innermost CPU operator open on its thread when
  // it happened (self) and to every host event around it (inclusive). Per step unit.
  struct MemorySide {
    double allocated = 0, allocated_self = 0;    // bytes
    double allocations = 0, allocations_self = 0;
    double held = 0;  // of allocated_self, bytes not freed by the end of the step (Addr matched)
  };
  struct Memory {
    bool recorded = false;  // a side's traces have memory events (else no figures: JSON null)
    MemorySide control, test;
    Comparison allocated;  // self bytes per step, judged: what the lists rank and the gate sums
    Samples control_samples, test_samples;  // self bytes per step unit (empty without allocations)
  } memory;

  // Inductor's own figures (kernels with args kernel_flop / kernel_num_gb, torch.compile's
  // Triton kernels): achieved TFLOP/s and GB/s on each side, over the time of the kernels
  // that carry each figure; nullopt where a side has none. `recorded`: either side has one.
  struct Work {
    bool recorded = false;
    std::optional<double> control_tflops, test_tflops, tflops_pct;
    std::optional<double> control_gbps, test_gbps, gbps_pct;
    // What they are from, over the selected steps: FLOPs and the time of the kernels
    // with kernel_flop, bytes and the time of those with kernel_num_gb (families sum them).
    struct Sums {
      double flop = 0, flop_ns = 0, bytes = 0, bytes_ns = 0;
    } control_sums, test_sums;
  } work;

  // Its own work on the step's critical path (model/critical_path_report.hpp), per step
  // unit; what-if: the path saved with its work at `factor` (median over the step units
  // where it was among the step's top rows on the path; nullopt: never).
  struct Path {
    Samples control_samples, test_samples;  // ns on the path in each step unit
    std::optional<double> control_saved_ns, test_saved_ns;
    std::size_t control_what_if_steps = 0, test_what_if_steps = 0;  // step units each was computed in
    double factor = 1;
  } path;

  double diff_per_step_ns() const { return test_step.total_ns - control_step.total_ns; }
  // The row's duration on its basis, the one place that picks it: the per-step means in
  // the default mode, the totals in --hta-compat (per_step_basis). What the lists' means,
  // the means' Δ and the gate's sums read.
  double basis_control_ns() const {
    return per_step_basis ? control_step.total_ns : static_cast<double>(control.total_ns);
  }
  double basis_test_ns() const { return per_step_basis ? test_step.total_ns : static_cast<double>(test.total_ns); }
  double basis_diff_ns() const { return basis_test_ns() - basis_control_ns(); }
  // New on the test side by that duration (its Δ% is then "new", not a number), and by
  // the self time per step.
  bool is_new() const { return basis_control_ns() == 0 && basis_test_ns() != 0; }
  bool self_is_new() const { return control_step.self_ns == 0 && test_step.self_ns != 0; }
  double diff_self_per_step_ns() const { return test_step.self_ns - control_step.self_ns; }
  std::int64_t diff_count() const {
    return static_cast<std::int64_t>(test.count) - static_cast<std::int64_t>(control.count);
  }
  std::int64_t diff_ns() const { return test.total_ns - control.total_ns; }
  // Relative change of the duration: per step in the default mode, of the totals in
  // --hta-compat; nullopt when control is 0.
  std::optional<double> diff_pct() const { return pct; }
  bool per_step_basis = true;  // false in --hta-compat
};

struct OpsDiff {
  // Names in row order, one list per Change. HTA's ops_diff always uses full names,
  // so with --hta-compat --short-names these are not the rows' keys.
  std::vector<std::string> groups[5];
  const std::vector<std::string>& of(Change c) const { return groups[static_cast<int>(c)]; }
};

}  // namespace tracediff::model
