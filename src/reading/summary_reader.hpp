#pragma once
// Reads a `tracediff summarize` file (*.tdsum.json) back into a model::SetSummary,
// validating it: a wrong format, a newer schema or an inconsistent index is a
// Fatal error naming the file.
#include <string>

#include "model/summary.hpp"

namespace tracediff::reading {

bool is_summary_path(const std::string& path);  // *.tdsum.json
model::SetSummary read_summary_file(const std::string& path);

}  // namespace tracediff::reading
