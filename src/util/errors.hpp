#pragma once
// The two ways a run stops early. Caught once, in cli::run, and mapped to exit codes.
#include <stdexcept>

namespace tracediff {

// Bad command line: exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Nothing useful can be produced (missing path, a side without events, an output
// that cannot be written): exit 1. The message names the file.
struct Fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tracediff
