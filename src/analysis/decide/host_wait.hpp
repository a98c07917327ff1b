#pragma once
// The rows that wait for the GPU (DiffRow::waits_for_gpu), marked before the top
// lists; the note on what the GPU ran while the host waited, after them.
#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

void mark_waits(model::DiffReport& report);
void wait_note(model::DiffReport& report);

}  // namespace tracediff::analysis::detail
