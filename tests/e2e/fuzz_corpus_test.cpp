// Replays tests/fuzz/corpus through the two functions the libFuzzer targets call
// (tests/support/fuzz_entry.hpp), so every corpus file, crashes found by
// scripts/fuzz.sh included, is checked by a plain `ctest` without clang or libFuzzer.
// A broken invariant aborts; the last "replaying" message names the file.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/fuzz_entry.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(fuzz_corpus)

BOOST_AUTO_TEST_CASE(every_corpus_file_goes_through_reader_and_pipeline) {
  const fs::path dir = fs::path(TRACEDIFF_TESTS_DIR) / "fuzz" / "corpus";
  BOOST_TEST_REQUIRE(fs::is_directory(dir), dir);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  BOOST_TEST(files.size() >= 20u);
  for (const auto& f : files) {
    BOOST_TEST_MESSAGE("replaying " << f.filename().string());
    const std::string bytes = tracediff::test::read_file(f.string());
    tracediff::fuzz::fuzz_reader(bytes);
    tracediff::fuzz::fuzz_pipeline(bytes);
  }
}

// The options the pipeline picks follow the input's size: pad one valid pair of
// traces to every variant so each mode (device, short names, hta-compat) runs, with
// and without HTML.
BOOST_AUTO_TEST_CASE(every_pipeline_variant_runs_on_a_valid_pair) {
  const fs::path pair = fs::path(TRACEDIFF_TESTS_DIR) / "fuzz" / "corpus" / "pair-hta-trace-compare.json";
  BOOST_TEST_REQUIRE(fs::exists(pair), pair);
  std::string bytes = tracediff::test::read_file(pair.string());
  for (int i = 0; i < 36; ++i) {
    tracediff::fuzz::fuzz_pipeline(bytes);
    bytes += ' ';
  }
}

BOOST_AUTO_TEST_SUITE_END()
