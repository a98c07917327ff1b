#pragma once
// The HTML report: one self-contained static file (templates/report.html.mustache
// rendered with kainjow mustache; CSS, JS and Chart.js inlined from the embedded
// assets). No network access: a Content-Security-Policy allows only our own inline
// scripts (by SHA-256) and inline styles. Works without JavaScript: the headline,
// the groups, the full table (in report.by_impact order) and static bars are all
// rendered here.
//
// Default mode (per-step figures): verdict counts and the largest real changes, step
// time and where it went, ranks (when a side has several), the table per step with
// totals beside it (inclusive or self time: a CSS switch the script also drives),
// verdicts, and GPU time by launching operator with its kernels. --hta-compat: HTA's
// totals only, as before, and none of those sections.
//
// Written by output/html/: page.cpp puts the page together, one file per section.
#include <ostream>
#include <string>
#include <string_view>

#include "model/report.hpp"

namespace tracediff::output {

// Writes the report (the charts' rows and what the page embeds are analysis's, in
// report.charts and report.embedded). Same report: byte-identical output.
// Throws std::runtime_error if the embedded template is missing or broken.
void write_html(const model::DiffReport& report, std::ostream& out);

}  // namespace tracediff::output
