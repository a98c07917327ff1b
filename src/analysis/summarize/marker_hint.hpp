#pragma once
// A step marker to suggest for a trace without steps: a record_function label that repeats,
// once an iteration, on one thread across most of the trace (enumerate(DataLoader)#...,
// Optimizer.step#...). Internal to analysis/summarize/.
#include <cstdint>
#include <string>

#include "model/trace.hpp"

namespace tracediff::analysis::detail {

struct MarkerHint {
  std::string name;     // the repeating event's name
  std::string pattern;  // a --step-marker that matches it: its text before '#', regex-escaped
  std::uint64_t count = 0;
};

// Labels that repeat 3 times or more on one thread, their starts spread over half the
// trace window or more, that either cover their extent (80 % or more: each is an
// iteration) or mark it (25 % or less: an iteration from one to the next); of those the
// fewest repeats (once an iteration), then the earliest. Empty: none.
MarkerHint marker_hint(const model::TraceFile& f, std::int64_t window_begin, std::int64_t window_end);

}  // namespace tracediff::analysis::detail
