#pragma once
// Frames that block their thread rather than work: Python's waits (threading, queue,
// selectors, time.sleep) as with_stack records them.
#include <string_view>

namespace tracediff::analysis {

// "threading.py(355): wait", "<method 'acquire' of '_thread.lock' objects>",
// "<built-in function sleep>", "<built-in method select of ...>": the function's name is
// one of wait, wait_for, acquire, sleep, select, poll, join, recv, accept.
bool blocking_frame(std::string_view name);

}  // namespace tracediff::analysis
