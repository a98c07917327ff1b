#pragma once
// `tracediff trend`'s outputs (docs/trend.md): the page (one inline SVG chart per
// headline figure, the changes, the rows that moved most), the Markdown (the newest
// run's verdict first) and the JSON (docs/trend.schema.md). They only print the report.
#include <ostream>

#include "model/trend_report.hpp"

namespace tracediff::output {

void write_trend_json(const model::TrendReport& report, std::ostream& out);
void write_trend_markdown(const model::TrendReport& report, std::ostream& out);
void write_trend_html(const model::TrendReport& report, std::ostream& out);

}  // namespace tracediff::output
