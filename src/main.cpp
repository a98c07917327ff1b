// tracediff: compare two sets of PyTorch profiler traces. See cli/run.cpp.
#include "cli/run.hpp"

int main(int argc, char** argv) { return tracediff::cli::run(argc, argv); }
