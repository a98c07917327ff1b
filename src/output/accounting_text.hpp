#pragma once
// The accounting (model/event_accounting.hpp) as text, for the HTML page and the terminal's -v:
// "3,522 of 3,584 in rows (26.7 ms of 27.6 ms)", and the reasons for the rest, most events
// first: "profiler's own work: 48 (546 µs), step spans: 12 (77.0 µs)".
#include <string>

#include "model/event_accounting.hpp"

namespace tracediff::output {

std::string accounting_rows(const model::Accounting& a, model::EventStream stream);
std::string accounting_left_out(const model::Accounting& a, model::EventStream stream);  // "none" for none
// Both: "…in rows (…); left out — …".
std::string accounting_line(const model::Accounting& a, model::EventStream stream);

}  // namespace tracediff::output
