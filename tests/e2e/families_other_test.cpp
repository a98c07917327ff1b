// GPU time that no kernel family claims ("other") on every real trace the suite finds
// (tests/data/traces, and ../shared/traces when present): each compared with itself, its
// share of GPU time in "other" and its largest "other" kernels printed, and more than
// 1 % of a trace's GPU time in "other" fails (docs/families.md).
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

constexpr double k_max_other_pct = 1.0;
constexpr std::size_t k_top = 5;

struct OtherKernel {
  std::string name, launched_by;
  double us = 0;
};

struct Share {
  double gpu_us = 0, other_us = 0;
  std::map<std::string, double> by;  // family_by -> GPU µs
  std::vector<OtherKernel> other;    // largest first
  double pct() const { return gpu_us > 0 ? 100.0 * other_us / gpu_us : 0.0; }
};

double num(const boost::json::value& v) { return v.is_null() ? 0.0 : v.to_number<double>(); }
std::string str(const boost::json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// A report's GPU rows: control time in each family and why; and whether each row's
// reason fits its family ("none" exactly for "other", "kind" for memcpy and memset).
Share other_share(const boost::json::object& report) {
  Share s;
  for (const auto& v : report.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (str(row, "device") != "gpu") continue;
    const double us = num(row.at("control_total_us"));
    const std::string family = str(row, "family"), by = str(row, "family_by"), cat = str(row, "category");
    BOOST_TEST(!family.empty(), str(row, "name"));
    BOOST_TEST((by == "none") == (family == "other"), str(row, "name") << ": " << family << " by " << by);
    if (by == "kind") BOOST_TEST((cat == "gpu_memcpy" || cat == "gpu_memset"), str(row, "name"));
    s.gpu_us += us;
    s.by[by] += us;
    if (family != "other") continue;
    s.other_us += us;
    s.other.push_back({str(row, "name"), str(row, "launched_by"), us});
  }
  std::stable_sort(s.other.begin(), s.other.end(), [](const auto& a, const auto& b) { return a.us > b.us; });
  return s;
}

std::string shown(const std::string& path) {
  for (const auto& root : {data_dir(), shared_dir()})
    if (path.starts_with(root + "/")) return path.substr(root.size() + 1);
  return path;
}

std::string pct_text(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f %%", pct);
  return buf;
}

std::string us_text(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", us);
  return buf;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_families_other)

// The measure itself: a trace whose kernels are a GEMM (by rule), one no rule, launcher
// or word names, and one that only its words name.
BOOST_AUTO_TEST_CASE(share_of_other_is_measured) {
  const long gemm_us = 60, unknown_us = 30, worded_us = 10;
  const auto dir = temp_dir("fam-other");
  const auto trace = dir + "/t.json";
  write_file(trace, trace_json({x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 200),
                                x_event("cpu_op", "aten::mm", 1, 1, 10, 20),
                                x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, 12, 5, 7),
                                x_event("kernel", "nvjet_tst_64x8_64x16_4x1_v_bz_TNT", 0, 7, 30, gemm_us, 7),
                                x_event("kernel", "kernel_0d1d2d", 0, 7, 100, unknown_us),
                                x_event("kernel", "my_mul_kernel", 0, 7, 140, worded_us)}));
  const auto r = run_cli({trace, trace, "--json", "-", "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto s = other_share(parse_json(r.out).as_object());
  BOOST_TEST(s.gpu_us == double(gemm_us + unknown_us + worded_us));
  BOOST_TEST(s.pct() == 100.0 * unknown_us / (gemm_us + unknown_us + worded_us), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(s.pct() > k_max_other_pct);  // such a trace would fail the check below
  BOOST_REQUIRE(s.other.size() == 1u);
  BOOST_TEST(s.other[0].name == "kernel_0d1d2d");
  BOOST_TEST(s.by.at("rule") == double(gemm_us));
  BOOST_TEST(s.by.at("words") == double(worded_us));
}

BOOST_AUTO_TEST_CASE(real_traces_leave_little_in_other) {
  if (!std::filesystem::is_directory(shared_dir() + "/traces"))
    BOOST_TEST_MESSAGE("kernel_families_other: no " << shared_dir() << "/traces, only tests/data's traces");
  const auto files = all_trace_files();
  BOOST_REQUIRE(!files.empty());
  std::size_t with_gpu = 0;
  for (const auto& f : files) {
    const auto r = run_cli({f, f, "--json", "-", "-q"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, shown(f) << ": " << r.err);
    const auto s = other_share(parse_json(r.out).as_object());
    if (s.gpu_us <= 0) {
      BOOST_TEST_MESSAGE(shown(f) << ": no GPU time");
      continue;
    }
    ++with_gpu;
    std::string by;
    for (const auto& [reason, us] : s.by) by += " " + reason + " " + pct_text(100.0 * us / s.gpu_us);
    BOOST_TEST_MESSAGE(shown(f) << ": GPU " << us_text(s.gpu_us) << ", other " << pct_text(s.pct()) << " (by" << by << ")");
    for (std::size_t i = 0; i < std::min(k_top, s.other.size()); ++i)
      BOOST_TEST_MESSAGE("    other: " << us_text(s.other[i].us) << "  " << s.other[i].name
                                       << (s.other[i].launched_by.empty() ? "" : "  [" + s.other[i].launched_by + "]"));
    BOOST_TEST(s.pct() <= k_max_other_pct, shown(f) << ": " << pct_text(s.pct()) << " of GPU time in other");
  }
  BOOST_TEST(with_gpu > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
