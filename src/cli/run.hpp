#pragma once
// The whole program behind main(): parse, read, compare, write. The one place
// where UsageError and Fatal become exit codes.
namespace tracediff::cli {

constexpr int k_exit_ok = 0;
constexpr int k_exit_fatal = 1;
constexpr int k_exit_usage = 2;
constexpr int k_exit_gate = 3;  // a --fail-on condition holds (outputs are written)

int run(int argc, const char* const* argv);

}  // namespace tracediff::cli
