#pragma once
// Reads a `tracediff summarize` file (*.tdsum.json) back into a model::SetSummary,
// validating it: a wrong format, a newer schema, an inconsistent index or figures
// no trace can give is a Fatal error naming the file.
#include <string>
#include <string_view>

#include "model/summary.hpp"

namespace tracediff::reading {

bool is_summary_path(const std::string& path);  // *.tdsum.json
model::SetSummary read_summary_file(const std::string& path);
// The same on bytes already in memory; `path` names them in errors (the fuzz target).
model::SetSummary read_summary_bytes(std::string_view bytes, const std::string& path);

}  // namespace tracediff::reading
