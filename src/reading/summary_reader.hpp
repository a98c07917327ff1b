#pragma once
// Reads a `tracediff summarize` file (*.tdsum.json) back into a model::SetSummary,
// validating it: a wrong format, a newer schema, an inconsistent index or figures
// no trace can give is a Fatal error naming the file.
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/summary.hpp"

namespace tracediff::reading {

bool is_summary_path(const std::string& path);  // *.tdsum.json
// Summaries whose counts go into one comparison (a side) or one merged summary
// share the 2^61 limit: pass the same `figures` to each (in: the total of those read
// before; out: with this one's). Durations are bounded by model::bound_durations.
// What tells two summaries' bytes apart: their size and two independent 64-bit hashes.
// The same summary given twice, or a copy of it, has the same key (a side reads it once).
struct ContentKey {
  std::uint64_t size = 0, hash = 0, fnv = 0;
  auto operator<=>(const ContentKey&) const = default;
};
ContentKey content_key(std::string_view bytes);

// `key`, when given, gets the file's content_key. `parts`: the files' rows stay in the
// summary's bytes, decoded again file by file when a pass reads them (model::WithRows):
// a comparison's side then holds its ranks' headers, not every rank's rows at once.
model::SetSummary read_summary_file(const std::string& path, std::uint64_t* figures = nullptr,
                                    ContentKey* key = nullptr, bool parts = false);
// The same on bytes already in memory; `path` names them in errors (the fuzz target).
model::SetSummary read_summary_bytes(std::string_view bytes, const std::string& path,
                                     std::uint64_t* figures = nullptr);

}  // namespace tracediff::reading
