#pragma once
// Lenient re-reading of one broken event (kineto-trace-format.md §6, §8.4). When
// Boost.JSON rejects an event, trace_reader hands the event's bytes to
// repair_event, which rewrites the non-standard JSON that real traces contain into
// standard JSON, and parses the result instead of dropping the event:
//   - bare NaN / Infinity / -Infinity / nan / inf / N/A (any bare word that is not
//     a JSON literal or number) -> that word as a string (Python json.dump, PyTorch
//     1.8 "N/A"); a missing value (`"rank": ,`) -> null;
//   - raw control bytes inside strings -> \u00XX   (multi-line names);
//   - unknown escapes (`\c`, Windows paths) -> the backslash kept literally;
//   - lone UTF-16 surrogates (`\udcff`, Python surrogateescape) -> U+FFFD;
//   - leading and doubled commas (`{ , "Device": ...`, old Kineto) -> dropped.
// Unescaped quotes inside names are not guessed at: that event is still lost.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tracediff::reading {

struct RepairedEvent {
  std::string json;       // one standard JSON object
  std::size_t consumed;   // bytes of the input it replaces (up to its closing brace)
};

// text starts at the event's "{". nullopt when the object does not close within
// text or max_bytes, or when nothing needed rewriting (the error is something else).
std::optional<RepairedEvent> repair_event(std::string_view text, std::size_t max_bytes);

}  // namespace tracediff::reading
