#pragma once
// The accounting (model/accounting.hpp) as text, one line per stream, for the HTML page and
// the terminal: "3,522 of 3,584 in rows (26.7 ms of 27.6 ms); left out: 48 the profiler's
// own work (546 µs), 12 the step spans themselves (77 µs)".
#include <string>

#include "model/accounting.hpp"

namespace tracediff::output {

std::string accounting_line(const model::Accounting& a, model::EventStream stream);

}  // namespace tracediff::output
