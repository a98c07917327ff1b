#pragma once
// What the JSON writers share (json_writer, json_critical_path): lists of items a line
// each, and a judged figure's values in µs.
#include <string>
#include <string_view>
#include <vector>

#include "model/report.hpp"
#include "output/json_emit.hpp"

namespace tracediff::output {

// A list whose items each start a line indented so (after ", ", as they always have).
template <class T, class F>
void list(JsonEmit& j, const std::vector<T>& v, int indent, F&& item) {
  j.begin_array();
  for (const auto& x : v) {
    j.spaced_line(indent);
    item(x);
  }
  j.end_array();
}

inline void strings(JsonEmit& j, const std::vector<std::string>& v) {
  j.begin_array();
  for (const auto& s : v) j.string(s);
  j.end_array();
}

// A judged figure's values, in µs: "control": .., "test": .., "diff": .., "diff_pct": ..,
// "verdict": .., "significant": ..
void comparison(JsonEmit& j, const model::Comparison& v);
void comparison_object(JsonEmit& j, std::string_view key, const model::Comparison& v);

// What bounded the step (model/critical_path_report.hpp): null when not decided.
void critical_path(JsonEmit& j, const model::DiffReport& r);

}  // namespace tracediff::output
