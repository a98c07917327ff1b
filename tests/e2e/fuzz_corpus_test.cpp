// Replays tests/fuzz/corpus through the functions the libFuzzer targets call
// (tests/support/fuzz_entry.hpp), so every corpus file, crashes found by
// scripts/fuzz.sh included, is checked by a plain `ctest` without clang or libFuzzer.
// Every file goes through the trace entries (a summary is harmless there: it is not
// a trace); summary-* and crash-summary-* also go through fuzz_summary.
// A broken invariant aborts; the last "replaying" message names the file.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "support/fuzz_entry.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(fuzz_corpus)

namespace {

// The corpus files whose name starts with one of `prefixes` (all when none), sorted.
std::vector<fs::path> corpus_files(std::initializer_list<std::string_view> prefixes = {}) {
  const fs::path dir = fs::path(TRACEDIFF_TESTS_DIR) / "fuzz" / "corpus";
  BOOST_TEST_REQUIRE(fs::is_directory(dir), dir);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    const bool wanted = prefixes.size() == 0 || std::any_of(prefixes.begin(), prefixes.end(), [&](auto p) {
                          return std::string_view(name).starts_with(p);
                        });
    if (e.is_regular_file() && wanted) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_corpus_file_goes_through_reader_and_pipeline) {
  const auto files = corpus_files();
  BOOST_TEST(files.size() >= 20u);
  for (const auto& f : files) {
    BOOST_TEST_MESSAGE("replaying " << f.filename().string());
    const std::string bytes = tracediff::test::read_file(f.string());
    tracediff::fuzz::fuzz_reader(bytes);
    tracediff::fuzz::fuzz_pipeline(bytes);
  }
}

// Summaries (seeds from `tracediff summarize`, and what fuzz_summary found) through
// the summary reader, its round trip, the self-comparison and every writer.
BOOST_AUTO_TEST_CASE(every_summary_corpus_file_goes_through_fuzz_summary) {
  const auto files = corpus_files({"summary-", "crash-summary-"});
  BOOST_TEST(files.size() >= 3u);
  for (const auto& f : files) {
    BOOST_TEST_MESSAGE("replaying " << f.filename().string());
    tracediff::fuzz::fuzz_summary(tracediff::test::read_file(f.string()));
  }
}

// A valid summary padded to every size class, so that HTML runs on it too.
BOOST_AUTO_TEST_CASE(a_valid_summary_goes_through_html_too) {
  const auto files = corpus_files({"summary-"});
  BOOST_TEST_REQUIRE(!files.empty());
  std::string bytes = tracediff::test::read_file(files.front().string());
  for (int i = 0; i < 36; i += 12) {
    tracediff::fuzz::fuzz_summary(bytes);
    bytes += std::string(12, ' ');
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
