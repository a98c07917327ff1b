// `tracediff summarize`'s file (output/summary_writer.hpp), parsed with Boost.JSON: the
// header, and each key's cells and launches as figures computed by hand from a small trace.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// The set's string number i.
std::string string_at(const json::object& doc, const json::value& i) {
  return std::string(doc.at("strings").as_array().at(static_cast<std::size_t>(i.as_int64())).as_string());
}

// Index of the key named `name` in a file's "keys" ([category, name, kind] string
// indices, flat), or -1.
std::int64_t key_index(const json::object& doc, const json::object& file, const std::string& name) {
  const auto& keys = file.at("keys").as_array();
  for (std::size_t i = 0; i + 2 < keys.size(); i += 3)
    if (string_at(doc, keys[i + 1]) == name) return static_cast<std::int64_t>(i / 3);
  return -1;
}

// A table's rows (index, step) from its runs [index delta, first step, length].
std::vector<std::pair<std::int64_t, std::int64_t>> rows_of(const json::array& at) {
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;
  std::int64_t index = 0;
  for (std::size_t i = 0; i + 2 < at.size(); i += 3) {
    index += at[i].as_int64();
    for (std::int64_t s = 0; s < at[i + 2].as_int64(); ++s) rows.emplace_back(index, at[i + 1].as_int64() + s);
  }
  return rows;
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
  // Every duration of the trace (1000, 200, 10, 50, 300 us and their sums) is a
  // multiple of 10 us: the figures are written in it.
  BOOST_TEST(f.at("unit").as_int64() == 10000);
}

// aten::mm's tree cells hold its figures (its one path); its key cells are written
// only where they differ from them, so there are none.
BOOST_AUTO_TEST_CASE(cells_hold_count_inclusive_and_self_time_per_step) {
  const auto j = written(summary_of(two_step_trace()));
  const auto& f = j.at("files").as_array()[0].as_object();
  const auto mm = key_index(j, f, "aten::mm");
  BOOST_REQUIRE(mm >= 0);
  BOOST_TEST(string_at(j, f.at("keys").as_array()[static_cast<std::size_t>(mm) * 3]) == "cpu_op");
  const auto unit = f.at("unit").as_int64();
  const auto& tree = f.at("tree").as_array();  // [parent gap, key]
  const auto& tc = f.at("tree_cells").as_object();
  const auto rows = rows_of(tc.at("at").as_array());
  const auto& totals = tc.at("total").as_array();
  BOOST_REQUIRE(rows.size() == totals.size());
  int seen = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (tree[static_cast<std::size_t>(rows[r].first) * 2 + 1].as_int64() != mm) continue;
    ++seen;
    BOOST_TEST(totals[r].as_int64() * unit == (rows[r].second == 0 ? 200000 : 300000));
  }
  BOOST_TEST(seen == 2);
  // Self time 190 us in step 0 (less the 10 us launch, a host child), written as the
  // difference from total less children: none.
  for (const char* column : {"count", "total", "self", "wait", "nested"})
    BOOST_TEST(f.at("cells").at(column).as_array().empty(), column);
  BOOST_TEST(rows_of(f.at("cells").at("at").as_array()).size() >= 3u);
}

BOOST_AUTO_TEST_CASE(launches_name_the_operator_around_them) {
  const auto j = written(summary_of(two_step_trace()));
  const auto& f = j.at("files").as_array()[0].as_object();
  const auto gemm = key_index(j, f, "gemm");
  BOOST_REQUIRE(gemm >= 0);
  const auto& at = f.at("launches").at("at").as_array();  // [launcher, key, first step, length]
  BOOST_REQUIRE(at.size() == 4u);
  BOOST_TEST(string_at(j, f.at("launchers").as_array()[static_cast<std::size_t>(at[0].as_int64())]) == "aten::mm");
  BOOST_TEST(at[1].as_int64() == gemm);
  BOOST_TEST(at[2].as_int64() == 0);
  BOOST_TEST(at[3].as_int64() == 1);
  BOOST_TEST(f.at("launches").at("total").as_array().at(0).as_int64() * f.at("unit").as_int64() == 50000);
}

// Names keep < > & as they are (a kernel name has dozens; no page embeds a summary),
// and control characters escaped.
BOOST_AUTO_TEST_CASE(markup_as_it_is_controls_escaped) {
  const auto trace = test::trace_json({
      test::x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000),
      test::x_event("cpu_op", "f<int>&g\u001b", 1, 1, 10, 20),
  });
  std::ostringstream out;
  output::write_summary(summary_of(trace), out);
  BOOST_TEST(out.str().find("\"f<int>&g\\u001b\"") != std::string::npos, out.str());
  const auto j = test::parse_json(out.str()).as_object();
  BOOST_TEST(key_index(j, j.at("files").as_array()[0].as_object(), "f<int>&g\x1b") >= 0);
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
  const auto mm = key_index(shaped, f, "aten::mm");
  BOOST_REQUIRE(mm >= 0);
  const auto& shapes = f.at("key_shapes").as_array();  // [key, shape string]
  BOOST_REQUIRE(shapes.size() == 2u);
  BOOST_TEST(shapes[0].as_int64() == mm);
  BOOST_TEST(string_at(shaped, shapes[1]) == "[[2,3],[3,4]] (float,float)");
  // Without --by-shape no key has one.
  const auto plain = written(summary_of(two_step_trace()));
  BOOST_TEST(!plain.at("files").as_array()[0].as_object().contains("key_shapes"));
}

BOOST_AUTO_TEST_SUITE_END()
