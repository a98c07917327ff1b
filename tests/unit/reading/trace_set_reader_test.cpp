// CONTROL and TEST into TraceSets (reading/trace_set_reader.hpp): which files a folder
// gives, ranks from file names, skipped files and the progress callback.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "reading/trace_set_reader.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;

namespace {

std::string small_trace(long dur) {
  return test::trace_json({test::x_event("cpu_op", "aten::mm", 1, 1, 10, dur)});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trace_set_reader)

BOOST_AUTO_TEST_CASE(a_folder_gives_its_json_files_sorted_not_recursive) {
  const auto dir = test::temp_dir("tsr-find");
  for (const char* f : {"b.json", "a.pt.trace.json.gz", "notes.txt", "c.json.gz"}) test::write_file(dir + "/" + f, "{}");
  std::filesystem::create_directories(dir + "/sub");
  test::write_file(dir + "/sub/d.json", "{}");
  const auto found = reading::find_trace_files({dir});
  BOOST_TEST(found == (std::vector<std::string>{dir + "/a.pt.trace.json.gz", dir + "/b.json", dir + "/c.json.gz"}));
  // A file named explicitly is taken whatever its name.
  BOOST_TEST(reading::find_trace_files({dir + "/notes.txt"}) == std::vector<std::string>{dir + "/notes.txt"});
  BOOST_CHECK_THROW(reading::find_trace_files({dir + "/missing"}), Fatal);
}

BOOST_AUTO_TEST_CASE(ranks_come_from_file_names) {
  BOOST_TEST(*reading::rank_from_file_name("/x/rank3.json") == 3);
  BOOST_TEST(*reading::rank_from_file_name("trace_rank_12.pt.trace.json") == 12);
  BOOST_TEST(*reading::rank_from_file_name("rank-7.json.gz") == 7);
  BOOST_TEST(!reading::rank_from_file_name("trace.json").has_value());
}

BOOST_AUTO_TEST_CASE(both_sides_read_with_ranks_settled_and_sorted) {
  const auto dir = test::temp_dir("tsr-read");
  std::filesystem::create_directories(dir + "/c");
  std::filesystem::create_directories(dir + "/t");
  test::write_file(dir + "/c/rank1.json", small_trace(5));
  test::write_file(dir + "/c/rank0.json", small_trace(6));
  test::write_file(dir + "/t/rank0.json", small_trace(7));
  const auto sets = reading::read_trace_sets({{"C", {dir + "/c"}, {}}, {"T", {dir + "/t"}, {}}}, {}, 2);
  BOOST_REQUIRE(sets.size() == 2u);
  BOOST_TEST(sets[0].label == "C");
  BOOST_REQUIRE(sets[0].files.size() == 2u);
  BOOST_TEST(sets[0].files[0].rank == 0);
  BOOST_TEST(sets[0].files[1].rank == 1);
  BOOST_TEST((sets[0].files[1].rank_source == model::RankSource::file_name));
  BOOST_TEST(sets[0].files[0].events.at(0).dur_ns == 6000);
  BOOST_TEST(sets[1].files.size() == 1u);
  BOOST_TEST(sets[1].files[0].events.at(0).dur_ns == 7000);
}

BOOST_AUTO_TEST_CASE(an_unreadable_file_is_skipped_with_a_diagnostic_and_none_left_is_fatal) {
  const auto dir = test::temp_dir("tsr-skip");
  test::write_file(dir + "/rank0.json", small_trace(5));
  test::write_file(dir + "/rank1.json", "this is not json");
  const auto sets = reading::read_trace_sets({{"C", {dir}, {}}}, {}, 1);
  BOOST_TEST(sets[0].files.size() == 1u);
  BOOST_TEST(sets[0].diagnostics.total() > 0u);
  const auto bad = test::temp_dir("tsr-none");
  test::write_file(bad + "/x.json", "nope");
  BOOST_CHECK_THROW(reading::read_trace_sets({{"C", {bad}, {}}}, {}, 1), Fatal);
}

BOOST_AUTO_TEST_CASE(progress_and_after_read_see_every_file) {
  const auto dir = test::temp_dir("tsr-progress");
  for (int r = 0; r < 3; ++r) test::write_file(dir + "/rank" + std::to_string(r) + ".json", small_trace(5 + r));
  std::size_t last_done = 0, total = 0, after = 0;
  std::uint64_t bytes = 0;
  reading::read_trace_sets({{"C", {dir}, {}}}, {}, 2,
                           [&](std::uint64_t b, std::size_t done, std::size_t all) {
                             BOOST_TEST(done >= last_done);  // calls never overlap, counts only grow
                             last_done = done;
                             total = all;
                             bytes = b;
                           },
                           [&](model::TraceFile& f, std::size_t side) {
                             BOOST_TEST(side == 0u);
                             BOOST_TEST(!f.events.empty());
                             ++after;
                           });
  BOOST_TEST(last_done == 3u);
  BOOST_TEST(total == 3u);
  BOOST_TEST(after == 3u);
  BOOST_TEST(bytes == 3 * small_trace(5).size());
}

BOOST_AUTO_TEST_SUITE_END()
