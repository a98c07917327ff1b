#pragma once
// Reads a `tracediff summarize` file (*.tdsum.json) back into a model::SetSummary,
// validating it: a wrong format, a newer schema, an inconsistent index or figures
// no trace can give is a Fatal error naming the file.
#include <cstdint>
#include <string>
#include <string_view>

#include "model/summary.hpp"

namespace tracediff::reading {

bool is_summary_path(const std::string& path);  // *.tdsum.json
// Summaries whose counts go into one comparison (a side) or one merged summary
// share the 2^61 limit: pass the same `figures` to each (in: the total of those read
// before; out: with this one's). Durations are bounded by bound_durations.
model::SetSummary read_summary_file(const std::string& path, std::uint64_t* figures = nullptr);
// The same on bytes already in memory; `path` names them in errors (the fuzz target).
model::SetSummary read_summary_bytes(std::string_view bytes, const std::string& path,
                                     std::uint64_t* figures = nullptr);

// The one rule for durations, applied wherever a set of summaries is made (traces
// summarised for a comparison or for `tracediff summarize`, a summary read, summaries
// merged): the durations of a set (step figures, cell totals and self times, launch
// totals) add up to at most 2^61 ns (73 years); past that, in file order, each is
// clamped to what is left, and the file counts `summary_durations_clamped`. Sums,
// differences and means of both sides then fit in int64. No real trace comes near;
// a hostile one (thousands of 78-hour events) compares with clamped figures instead
// of overflowing, and its summary reads back as it was written.
void bound_durations(model::SetSummary& set);
constexpr std::uint64_t k_max_durations = std::uint64_t{1} << 61;

}  // namespace tracediff::reading
