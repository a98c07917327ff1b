#pragma once
// A figure on both sides and what analysis decided about its change: the verdict
// (Verdict), the values and the test (Comparison), and a headline or breakdown figure
// with its label (Figure). Part of the report (model/report.hpp).
#include <cstdint>
#include <optional>
#include <string>

namespace tracediff::model {

// Verdict on a figure's change, from its per-step samples (docs/is-it-real.md):
// untestable when a side has too few samples to tell.
enum class Verdict : std::uint8_t { slower, faster, same, untestable };
const char* verdict_name(Verdict v);   // JSON and CSV: "slower", "faster", "same", "untestable"
const char* verdict_words(Verdict v);  // people: "slower", "faster", "same within noise", "not testable"

// One figure on both sides and what analysis decided about its change. Writers show
// these values as they are.
struct Comparison {
  double control = 0, test = 0;  // per step unit (a mean), or a total where so labelled
  std::optional<double> pct;     // 100 (test - control) / control; nullopt when control is 0
  Verdict verdict = Verdict::same;
  bool significant = false;
  double p_value = 1;  // the rank test's; 1 when it did not run (not testable, or below --min-change)
  // A side with no value at all (a rank on one side only), not a value of 0: no
  // difference then (JSON null).
  bool control_missing = false, test_missing = false;
  double diff() const { return test - control; }
  bool is_new() const { return control == 0 && test != 0; }
};

// A figure of the headline or of the step breakdown.
struct Figure {
  std::string id;     // JSON `figure`: "step_time", "gpu_busy", ...
  std::string label;  // "Step time"
  std::string note;   // what it is made of, in a few words
  Comparison value;
  bool judged = true;  // false: no noise test applies (counts, --hta-compat's totals); shown without a verdict
  bool duration = true;  // false: a count (or, with bytes, a size)
  bool bytes = false;    // a size in bytes (memory): more is worse, its verdict reads "more" / "less"
  // Neither better nor worse when it moves (GPU idle, GPU work past the step's end):
  // a significant change reads "more" or "less", in no colour of its own.
  bool direction_only = false;
};
// A figure's verdict in words: verdict_words(), or "more" / "less" for direction_only ones.
const char* figure_words(const Figure& f);

}  // namespace tracediff::model
