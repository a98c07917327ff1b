// `tracediff summarize` / `merge`, and summaries as comparison inputs.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(summaries)

BOOST_AUTO_TEST_CASE(comparing_summaries_equals_comparing_traces) {
  BOOST_REQUIRE(shared_available());
  const auto c = shared_dir() + "/traces/hta-trace-diff/control";
  const auto t = shared_dir() + "/traces/hta-trace-diff/test";
  const auto dir = temp_dir("sum");
  BOOST_REQUIRE(run_cli({"summarize", c, "-o", dir + "/c.tdsum.json", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", t, "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  // A small fraction of the traces' size.
  BOOST_TEST(fs::file_size(dir + "/c.tdsum.json") < 34'000'000u / 50);
  const auto direct = run_cli({c, t, "-o", dir + "/a.html", "--json", dir + "/a.json", "--csv", dir + "/a.csv", "-q"});
  const auto from_sum = run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "-o", dir + "/b.html", "--json",
                                 dir + "/b.json", "--csv", dir + "/b.csv", "-q"});
  const auto mixed = run_cli({dir + "/c.tdsum.json", t, "--json", dir + "/m.json", "-q"});
  BOOST_REQUIRE(direct.exit_code == 0);
  BOOST_REQUIRE(from_sum.exit_code == 0);
  BOOST_REQUIRE(mixed.exit_code == 0);
  for (const char* ext : {"html", "json", "csv"})
    BOOST_TEST((read_file(dir + "/a." + ext) == read_file(dir + "/b." + ext)), ext);
  BOOST_TEST((read_file(dir + "/a.json") == read_file(dir + "/m.json")));
}

BOOST_AUTO_TEST_CASE(merge_of_per_rank_summaries_equals_the_whole_set) {
  const auto gen = temp_dir("merge-gen");
  BOOST_REQUIRE(std::system((std::string("'") + TRACEGEN_BINARY + "' --out '" + gen +
                             "' --ranks 3 --steps 3 >/dev/null").c_str()) == 0);
  const auto dir = temp_dir("merge");
  std::vector<std::string> parts = {"merge"};
  for (int r = 0; r < 3; ++r) {
    const auto trace = gen + "/rank" + std::to_string(r) + ".pt.trace.json";
    const auto out = dir + "/r" + std::to_string(r) + ".tdsum.json";
    BOOST_REQUIRE(run_cli({"summarize", trace, "-o", out, "-q"}).exit_code == 0);
    parts.push_back(out);
  }
  parts.insert(parts.end(), {"-o", dir + "/all.tdsum.json"});
  BOOST_REQUIRE(run_cli(parts).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", gen, "-o", dir + "/whole.tdsum.json", "-q"}).exit_code == 0);
  const auto a = run_cli({gen, dir + "/all.tdsum.json", "--json", "-", "-q"});
  const auto b = run_cli({gen, dir + "/whole.tdsum.json", "--json", "-", "-q"});
  BOOST_REQUIRE(a.exit_code == 0);
  const auto ja = boost::json::parse(a.out), jb = boost::json::parse(b.out);
  BOOST_TEST(ja.at("rows") == jb.at("rows"));
  BOOST_TEST(ja.at("steps") == jb.at("steps"));
  BOOST_TEST(ja.at("test").at("ranks").as_array().size() == 3u);
  // Overlapping ranks are refused.
  const auto dup = run_cli({"merge", dir + "/r0.tdsum.json", dir + "/all.tdsum.json", "-o", dir + "/x.tdsum.json"});
  BOOST_TEST(dup.exit_code == 1);
  BOOST_TEST(dup.err.find("rank 0") != std::string::npos, dup.err);
}

BOOST_AUTO_TEST_CASE(summaries_are_validated) {
  const auto dir = temp_dir("badsum");
  const auto gen = temp_dir("badsum-gen");
  BOOST_REQUIRE(std::system((std::string("'") + TRACEGEN_BINARY + "' --out '" + gen + "' --ranks 1 --steps 2 >/dev/null").c_str()) == 0);
  BOOST_REQUIRE(run_cli({"summarize", gen, "-o", dir + "/ok.tdsum.json", "-q"}).exit_code == 0);
  const auto ok = read_file(dir + "/ok.tdsum.json");
  auto newer = ok;
  newer.replace(newer.find("\"schema_version\": 1"), 19, "\"schema_version\": 99");
  write_file(dir + "/newer.tdsum.json", newer);
  auto broken = ok;
  broken.replace(broken.find("\"cells\": [["), 11, "\"cells\": [[999999, 0, 1, 1, 1], [");
  write_file(dir + "/broken.tdsum.json", broken);
  write_file(dir + "/notsum.tdsum.json", "{\"traceEvents\": []}");
  for (const auto& [file, needle] : std::vector<std::pair<std::string, std::string>>{
           {"newer", "newer than this tracediff"}, {"broken", "out of range"}, {"notsum", "format"}}) {
    const auto r = run_cli({dir + "/" + file + ".tdsum.json", gen, "--csv", "-"});
    BOOST_TEST(r.exit_code == 1, file);
    BOOST_TEST(r.err.find(file + ".tdsum.json") != std::string::npos, r.err);
    BOOST_TEST(r.err.find(needle) != std::string::npos, r.err);
  }
  const auto hta = run_cli({dir + "/ok.tdsum.json", gen, "--hta-compat", "--csv", "-"});
  BOOST_TEST(hta.exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
