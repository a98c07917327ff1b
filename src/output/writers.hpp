#pragma once
// The machine-readable writers. Each reads the DiffReport as it is.
#include <ostream>

#include "model/report.hpp"

namespace tracediff::output {

struct CsvOptions {
  // The CSV goes to a terminal (--csv - on a TTY): control characters in names are
  // escaped visibly (util/sanitize), as on every line a person reads there.
  bool terminal = false;
};

// CSV, RFC 4180. Default mode: fixed columns (see docs/output.md).
// --hta-compat: HTA's columns and row order. Text cells that a spreadsheet would run
// as a formula (= + - @ tab CR first) get a leading '; numbers are as they are.
void write_csv(const model::DiffReport& report, std::ostream& out, const CsvOptions& options = {});

struct JsonOptions {
  // The whole call tree (--json-full-tree); else the paths the HTML report embeds
  // (DiffReport::embedded.tree), with a count of those left out.
  bool full_tree = false;
};

// JSON: inputs, rows, ops_diff, steps and diagnostics.
void write_json(const model::DiffReport& report, std::ostream& out, const JsonOptions& options = {});

}  // namespace tracediff::output
