// The report's JSON (output/json_writer.cpp), parsed with Boost.JSON: each row's fields
// are the report's figures in microseconds, the sides and options as compared.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>

#include "output/writers.hpp"
#include "support/pair_support.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
namespace json = boost::json;

namespace {

json::value json_of(const model::DiffReport& r) {
  std::ostringstream out;
  output::write_json(r, out);
  return test::parse_json(out.str());
}

const json::object* row_of(const json::object& j, const std::string& name) {
  for (const auto& row : j.at("rows").as_array())
    if (row.at("name").as_string() == name) return &row.as_object();
  return nullptr;
}

double num(const json::value& v) { return v.to_number<double>(); }

model::DiffReport pair() {
  return test::compare_pair(test::steps_trace({{"aten::mm", 100, "gemm", 50}, {"aten::old", 20}}),
                            test::steps_trace({{"aten::mm", 150, "gemm", 50}}));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_writer)

BOOST_AUTO_TEST_CASE(a_rows_figures_in_microseconds) {
  const auto v = json_of(pair());
  const auto* mm = row_of(v.as_object(), "aten::mm");
  BOOST_REQUIRE(mm);
  BOOST_TEST(mm->at("category").as_string() == "cpu_op");
  BOOST_TEST(mm->at("device").as_string() == "cpu");
  BOOST_TEST(num(mm->at("control_count")) == 6.0);
  BOOST_TEST(num(mm->at("control_total_us")) == 100 + 101 + 102 + 103 + 104 + 105);
  BOOST_TEST(num(mm->at("control_per_step_us")) == 102.5);
  BOOST_TEST(num(mm->at("test_per_step_us")) == 152.5);
  BOOST_TEST(num(mm->at("diff_per_step_us")) == 50.0);
  BOOST_TEST(mm->at("verdict").as_string() == "slower");
  BOOST_TEST(mm->at("significant").as_bool());
}

BOOST_AUTO_TEST_CASE(changes_and_launchers_by_name) {
  const auto v = json_of(pair());
  const auto* old = row_of(v.as_object(), "aten::old");
  BOOST_REQUIRE(old);
  BOOST_TEST(old->at("change").as_string() == "deleted");
  BOOST_TEST(num(old->at("test_count")) == 0.0);
  const auto* gemm = row_of(v.as_object(), "gemm");
  BOOST_REQUIRE(gemm);
  BOOST_TEST(gemm->at("device").as_string() == "gpu");
  BOOST_TEST(gemm->at("launched_by").as_string() == "aten::mm");
}

BOOST_AUTO_TEST_CASE(every_row_of_the_report_once) {
  const auto r = pair();
  const auto v = json_of(r);
  BOOST_TEST(v.at("rows").as_array().size() == r.rows.size());
  for (const auto& row : r.rows) BOOST_TEST(row_of(v.as_object(), row.name), row.name);
}

BOOST_AUTO_TEST_CASE(the_sides_labels_and_options) {
  auto r = pair();
  const auto v = json_of(r);
  BOOST_TEST(v.at("control").at("label").as_string() == "Control");
  BOOST_TEST(v.at("test").at("label").as_string() == "Test");
  BOOST_TEST(v.at("control").at("files").as_array().size() == 1u);
  BOOST_TEST(!v.as_object().contains("by_shape"));
}

BOOST_AUTO_TEST_SUITE_END()
