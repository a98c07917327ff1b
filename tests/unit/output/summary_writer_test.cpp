// `tracediff summarize`'s file (output/summary_writer.hpp), parsed with Boost.JSON: the
// header, and each key's cells and launches as figures computed by hand from a small trace.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>

#include "analysis/summarize/summarize.hpp"
#include "model/summary.hpp"
#include "output/summary_writer.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
namespace json = boost::json;

namespace {

// Two steps: in the first aten::mm (200 us) launches gemm (50 us) from a 10 us launch;
// in the second aten::mm takes 300 us and launches nothing.
std::string two_step_trace() {
  return test::trace_json({
      test::x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000),
      test::x_event("user_annotation", "ProfilerStep#2", 1, 1, 1000, 1000),
      test::x_event("cpu_op", "aten::mm", 1, 1, 100, 200),
      test::x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, 150, 10, 1),
      test::x_event("kernel", "gemm", 0, 7, 300, 50, 1),
      test::x_event("cpu_op", "aten::mm", 1, 1, 1100, 300),
  });
}

model::SetSummary summary_of(const std::string& trace, const std::string& label = "Control") {
  reading::ByteSource src{std::string_view(trace)};
  auto r = reading::read_trace(src, "rank0.json", {});
  BOOST_REQUIRE(!r.skipped);
  model::TraceSet set;
  set.label = label;
  set.inputs = {"traces/"};
  set.files.push_back(std::move(r.file));
  return analysis::summarize_set(set);
}

json::object written(const model::SetSummary& s) {
  std::ostringstream out;
  output::write_summary(s, out);
  return test::parse_json(out.str()).as_object();
}

// Index of the key named `name` in a file's "keys", or -1.
std::int64_t key_index(const json::object& file, const std::string& name) {
  const auto& keys = file.at("keys").as_array();
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i].as_array().at(1).as_string() == name) return static_cast<std::int64_t>(i);
  return -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(summary_writer)

BOOST_AUTO_TEST_CASE(header_names_the_format_schema_and_side) {
  const auto j = written(summary_of(two_step_trace(), "before"));
  BOOST_TEST(j.at("format").as_string() == "tracediff-summary");
  BOOST_TEST(j.at("schema_version").as_int64() == model::k_summary_schema_version);
  BOOST_TEST(j.at("label").as_string() == "before");
  BOOST_TEST(j.at("inputs").as_array().size() == 1u);
  BOOST_TEST(j.at("inputs").as_array()[0].as_string() == "traces/");
  BOOST_REQUIRE(j.at("files").as_array().size() == 1u);
  const auto& f = j.at("files").as_array()[0].as_object();
  BOOST_TEST(f.at("path").as_string() == "rank0.json");
  BOOST_TEST(f.at("has_steps").as_bool());
  BOOST_TEST(f.at("steps").as_array().size() == 2u);
}

BOOST_AUTO_TEST_CASE(cells_hold_count_inclusive_and_self_time_per_step) {
  const auto j = written(summary_of(two_step_trace()));
  const auto& f = j.at("files").as_array()[0].as_object();
  const auto mm = key_index(f, "aten::mm");
  BOOST_REQUIRE(mm >= 0);
  BOOST_TEST(f.at("keys").as_array()[mm].as_array()[0].as_string() == "cpu_op");
  int seen = 0;
  for (const auto& c : f.at("cells").as_array()) {
    const auto& a = c.as_array();  // key, step, count, total_ns, self_ns, wait_ns, nested
    BOOST_REQUIRE(a.size() == 7u);
    if (a[0].as_int64() != mm) continue;
    ++seen;
    BOOST_TEST(a[2].as_int64() == 1);
    if (a[1].as_int64() == 0) {
      BOOST_TEST(a[3].as_int64() == 200000);
      BOOST_TEST(a[4].as_int64() == 190000);  // less the 10 us launch inside it
    } else {
      BOOST_TEST(a[3].as_int64() == 300000);
      BOOST_TEST(a[4].as_int64() == 300000);
    }
  }
  BOOST_TEST(seen == 2);
}

BOOST_AUTO_TEST_CASE(launches_name_the_operator_around_them) {
  const auto j = written(summary_of(two_step_trace()));
  const auto& f = j.at("files").as_array()[0].as_object();
  const auto gemm = key_index(f, "gemm");
  BOOST_REQUIRE(gemm >= 0);
  const auto& launches = f.at("launches").as_array();
  BOOST_REQUIRE(launches.size() == 1u);
  const auto& l = launches[0].as_array();  // launcher, key, step, total_ns
  BOOST_TEST(f.at("launchers").as_array()[l[0].as_int64()].as_string() == "aten::mm");
  BOOST_TEST(l[1].as_int64() == gemm);
  BOOST_TEST(l[2].as_int64() == 0);
  BOOST_TEST(l[3].as_int64() == 50000);
}

BOOST_AUTO_TEST_CASE(shapes_only_with_by_shape) {
  const auto with_args = test::trace_json({
      test::x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000),
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 20,
          "args": {"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"]}})",
  });
  reading::ByteSource src{std::string_view(with_args)};
  reading::ReadOptions ro;
  ro.by_shape = true;
  auto r = reading::read_trace(src, "rank0.json", ro);
  model::TraceSet set;
  set.files.push_back(std::move(r.file));
  const auto shaped = written(analysis::summarize_set(set, {.by_shape = true}));
  const auto& f = shaped.at("files").as_array()[0].as_object();
  const auto mm = key_index(f, "aten::mm");
  BOOST_REQUIRE(mm >= 0);
  const auto& key = f.at("keys").as_array()[mm].as_array();
  BOOST_REQUIRE(key.size() == 4u);  // category, name, kind, shape
  BOOST_TEST(key[3].as_string() == "[[2,3],[3,4]] (float,float)");
  // Without --by-shape the keys keep three fields.
  const auto plain = written(summary_of(two_step_trace()));
  for (const auto& k : plain.at("files").as_array()[0].at("keys").as_array()) BOOST_TEST(k.as_array().size() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
