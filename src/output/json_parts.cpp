// The JSON's figures every part shares.
#include "output/json_parts.hpp"

#include "output/machine_number.hpp"

namespace tracediff::output {

void comparison(JsonEmit& j, const model::Comparison& v) {
  const bool both = !v.control_missing && !v.test_missing;
  j.key("control").number(v.control_missing ? "null" : us_decimal(v.control));
  j.key("test").number(v.test_missing ? "null" : us_decimal(v.test));
  j.key("diff").number(both ? us_decimal(v.diff()) : "null");
  j.key("diff_pct").number(pct_decimal(both ? v.pct : std::nullopt, "null"));
  j.key("verdict").string(model::verdict_name(v.verdict)).key("significant").boolean(v.significant);
}

void comparison_object(JsonEmit& j, std::string_view key, const model::Comparison& v) {
  j.key(key).begin_object();
  comparison(j, v);
  j.end_object();
}

}  // namespace tracediff::output
