#pragma once
// What the fuzz targets run on one input (tests/fuzz/), shared with the corpus replay
// test (tests/e2e/fuzz_corpus_test.cpp) so that every corpus file is also a plain
// ctest case. The functions abort (a crash for libFuzzer, a failed test for the
// replay) when an invariant breaks; exceptions other than tracediff's own UsageError
// and Fatal escape, which is a failure too.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tracediff::fuzz {

// Inputs for fuzz_pipeline hold two traces separated by this line; without it both
// sides get the same bytes.
inline constexpr std::string_view k_split = "\n#tracediff-fuzz-split#\n";

// reading::ByteSource(bytes) + read_trace, in the default and the --hta-compat mode.
void fuzz_reader(std::string_view bytes);

// Two in-memory traces -> analysis::compare_traces -> every writer (CSV, JSON,
// Markdown, terminal; HTML for a third of the inputs). Options (device, short names,
// hta-compat) and the HTML choice follow the input's size, so mutations visit all.
void fuzz_pipeline(std::string_view bytes);

// The bytes as a *.tdsum.json summary (reading::read_summary_bytes); a Fatal naming
// the file is a fine outcome. A summary that reads must write back and read again
// to the same bytes, compare against itself without a single change, and go through
// every writer (HTML for a third of the inputs, by size).
void fuzz_summary(std::string_view bytes);

}  // namespace tracediff::fuzz
