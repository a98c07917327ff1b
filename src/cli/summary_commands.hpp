#pragma once
// `tracediff summarize` and `tracediff merge`: argv starts at the subcommand's name.
namespace tracediff::cli {

int run_summarize(int argc, const char* const* argv);
int run_merge(int argc, const char* const* argv);

}  // namespace tracediff::cli
