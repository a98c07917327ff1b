// --hta-compat against HTA's own outputs in tests/data/reference: every table, row by
// row, value by value. A failure names the file, the row and the column. The
// hta-trace-diff pair (34 MB per side) is read from ../shared and skipped without it.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;

namespace {

struct Pair {
  std::string dir, control, test;
};

// The pairs of tests/data/README.md and their traces.
Pair small_pair() {
  return {"hta-trace-compare", trace_path("hta-trace-compare/base"), trace_path("hta-trace-compare/test")};
}
Pair formats_pair() {
  return {"ns-vs-nccl", trace_path("formats/ns-resolution.pt.trace.json.gz"), trace_path("formats/nccl.json.gz")};
}
Pair large_pair() { return {"hta-trace-diff", trace_path("hta-trace-diff/control"), trace_path("hta-trace-diff/test")}; }
auto needs_large_pair() {
  return boost::unit_test::precondition(needs_traces({"hta-trace-diff/control", "hta-trace-diff/test"}));
}

// The CLI arguments that reproduce each reference call (tests/data/README.md).
std::vector<std::string> args_for(const std::string& file, const boost::json::value& meta) {
  std::vector<std::string> a;
  if (file.find("_cpu") != std::string::npos) a = {"--device", "cpu"};
  if (file.find("_gpu") != std::string::npos) a = {"--device", "gpu"};
  if (file.find("_short") != std::string::npos) a.push_back("--short-names");
  if (file == "compare_all_iterations.csv")
    a.insert(a.end(), {"--control-iteration", "all", "--test-iteration", "all"});
  if (file.rfind("compare_call_", 0) == 0) {
    const auto& call = meta.at("explicit_call").as_array();
    auto s = [&](int i) { return std::string(call.at(i).as_string()); };
    a.insert(a.end(), {"--control-rank", s(0), "--test-rank", s(1), "--control-iteration", s(2),
                       "--test-iteration", s(3)});
  }
  return a;
}

// Empty when equal; else the first difference, named.
std::string first_mismatch(const std::string& ref_name, const std::vector<std::vector<std::string>>& ref,
                           const std::vector<std::vector<std::string>>& ours) {
  if (ref.empty()) return ref_name + ": empty reference";
  if (ours.empty() || ours[0] != ref[0]) return ref_name + ": header differs";
  for (std::size_t i = 1; i < std::min(ref.size(), ours.size()); ++i) {
    const auto& r = ref[i];
    const auto& o = ours[i];
    if (r.size() != 8 || o.size() != 8) return ref_name + " row " + std::to_string(i) + ": column count";
    if (r[0] != o[0]) return ref_name + " row " + std::to_string(i) + ": name '" + o[0] + "', HTA '" + r[0] + "'";
    for (int c = 1; c < 7; ++c)
      if (std::stod(r[c]) != std::stod(o[c]))
        return ref_name + " row " + std::to_string(i) + " (" + r[0] + ") column " + ref[0][c] + ": " + o[c] +
               ", HTA " + r[c];
    if (r[7] != o[7]) return ref_name + " row " + std::to_string(i) + " (" + r[0] + "): category " + o[7];
  }
  if (ref.size() != ours.size())
    return ref_name + ": " + std::to_string(ours.size() - 1) + " rows, HTA " + std::to_string(ref.size() - 1);
  return {};
}

// Every CSV of the pair's reference folder against --hta-compat's; how many compared.
int tables_match(const Pair& p) {
  const auto ref_dir = data_dir() + "/reference/" + p.dir;
  const auto meta = parse_json(read_file(ref_dir + "/meta.json"));
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(ref_dir))
    if (e.path().extension() == ".csv") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  int compared = 0;
  for (const auto& f : files) {
    auto args = args_for(f, meta);
    args.insert(args.begin(), {p.control, p.test, "--hta-compat", "-q", "--csv", "-"});
    const auto r = run_cli(args);
    BOOST_TEST_REQUIRE(r.exit_code == 0, p.dir + "/" + f + ": " + r.err);
    const auto mismatch = first_mismatch(p.dir + "/" + f, parse_csv(read_file(ref_dir + "/" + f)), parse_csv(r.out));
    BOOST_TEST(mismatch.empty(), mismatch);
    ++compared;
  }
  return compared;
}

// Every entry of the pair's ops_diff.json against --hta-compat's JSON; how many compared.
int ops_diffs_match(const Pair& p) {
  const auto ref_dir = data_dir() + "/reference/" + p.dir;
  const auto meta = parse_json(read_file(ref_dir + "/meta.json"));
  const auto ref = parse_json(read_file(ref_dir + "/ops_diff.json")).as_object();
  int compared = 0;
  for (const auto& [key, lists] : ref) {
    std::vector<std::string> args = {p.control, p.test, "--hta-compat", "-q", "--json", "-"};
    const std::string k(key);
    if (k == "CPU" || k == "call_CPU") args.insert(args.end(), {"--device", "cpu"});
    if (k == "GPU") args.insert(args.end(), {"--device", "gpu"});
    if (k == "call_CPU") {
      const auto extra = args_for("compare_call_cpu.csv", meta);
      args.insert(args.end(), extra.begin() + 2, extra.end());
    }
    const auto r = run_cli(args);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto ours = parse_json(r.out).at("ops_diff").as_object();
    for (const auto& [group, names] : lists.as_object()) {
      const auto& mine = ours.at(group).as_array();
      const auto& theirs = names.as_array();
      BOOST_TEST(mine.size() == theirs.size(), p.dir << " " << k << " " << group << " sizes");
      for (std::size_t i = 0; i < std::min(mine.size(), theirs.size()); ++i)
        if (mine[i] != theirs[i]) {
          BOOST_ERROR(p.dir << " " << k << " " << group << "[" << i << "]: " << mine[i] << ", HTA " << theirs[i]);
          break;
        }
    }
    ++compared;
  }
  return compared;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hta_parity)

BOOST_AUTO_TEST_CASE(every_reference_table_matches) {
  BOOST_TEST(tables_match(small_pair()) == 9);  // every CSV in tests/data/reference/hta-trace-compare
  BOOST_TEST(tables_match(formats_pair()) == 7);
}

BOOST_AUTO_TEST_CASE(every_ops_diff_matches) {
  BOOST_TEST(ops_diffs_match(small_pair()) == 4);
  BOOST_TEST(ops_diffs_match(formats_pair()) == 3);
}

BOOST_AUTO_TEST_CASE(large_pair_tables_match, *needs_large_pair()) { BOOST_TEST(tables_match(large_pair()) == 9); }

BOOST_AUTO_TEST_CASE(large_pair_ops_diff_matches, *needs_large_pair()) {
  BOOST_TEST(ops_diffs_match(large_pair()) == 4);
}

BOOST_AUTO_TEST_SUITE_END()
