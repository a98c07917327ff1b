// `tracediff trend --json`: the runs, every series per run and the changes
// (docs/trend.md "JSON"). Times in microseconds, sizes in bytes; null where a run has no
// value. Strings escaped by json_string (JsonEmit).
#include <cmath>

#include "output/json_emit.hpp"
#include "output/machine_number.hpp"
#include "output/trend_writers.hpp"

namespace tracediff::output {

namespace {

std::string number(const model::TrendSeries& s, double v) {
  if (!std::isfinite(v)) return "null";
  return s.bytes ? decimal(v, 0) : us_decimal(v);
}

void values(JsonEmit& j, const model::TrendSeries& s, const std::vector<float>& v) {
  j.begin_array();
  for (const float x : v) j.number(number(s, x));
  j.end_array();
}

}  // namespace

void write_trend_json(const model::TrendReport& r, std::ostream& out) {
  JsonEmit j(out);
  j.begin_object();
  j.line(2).key("tool").string("tracediff trend");
  j.line(2).key("schema").number(1);
  j.line(2).key("verdict").string(r.verdict);
  j.line(2).key("method").begin_object();
  j.key("alpha").number(decimal(r.alpha, 6));
  j.key("min_change_pct").number(decimal(r.min_change.pct, 6));
  j.key("min_change_us").number(decimal(r.min_change.us(), 6));
  j.key("newest_sds").number(decimal(r.newest_sds, 6));
  j.key("newest_min_runs").number(r.newest_min_runs);
  j.key("fold_min_runs").number(r.fold_min_runs);
  j.key("folded_rows").number(r.folded_rows);
  j.end_object();
  j.line(2).key("runs").begin_array();
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const auto& run = r.runs[i];
    j.line(4).begin_object();
    j.key("index").number(i + 1);
    j.key("label").string(run.label);
    j.key("path").string(run.path);
    j.key("units").number(run.units);
    j.key("warmup").number(run.warmup);
    j.end_object();
  }
  j.end_array(2);
  j.line(2).key("series").begin_array();
  for (const auto& s : r.series) {
    j.line(4).begin_object();
    j.key("kind").string(model::series_kind_name(s.kind));
    if (s.kind == model::SeriesKind::row) {
      j.key("category").string(s.id);
      j.key("name").string(s.label);
    } else {
      j.key("id").string(s.id);
      j.key("label").string(s.label);
    }
    j.key("unit").string(s.bytes ? "bytes" : "us");
    j.key("headline").boolean(s.headline);
    j.key("changes").begin_array();
    for (const auto c : s.changes) j.number(c);
    j.end_array();
    j.line(6).key("median");
    values(j, s, s.value);
    j.line(6).key("p25");
    values(j, s, s.lo);
    j.line(6).key("p75");
    values(j, s, s.hi);
    j.end_object(4);
  }
  j.end_array(2);
  j.line(2).key("changes").begin_array();
  for (const auto& c : r.changes) {
    const auto& s = r.series[c.series];
    j.line(4).begin_object();
    j.key("series").number(c.series);
    j.key("kind").string(model::series_kind_name(s.kind));
    j.key(s.kind == model::SeriesKind::row ? "name" : "id").string(s.kind == model::SeriesKind::row ? s.label : s.id);
    j.key("run").number(c.run + 1);
    j.key("before_run").number(c.before_run + 1);
    j.key("before").number(number(s, c.before));
    j.key("after").number(number(s, c.after));
    j.key("pct").number(std::isfinite(c.pct) ? decimal(c.pct, 2) : std::string("null"));
    j.key("confidence").number(decimal(c.confidence, 6));
    j.key("found_by").string(c.newest ? "newest_run" : "segmentation");
    j.key("command").string(c.command);
    j.end_object();
  }
  j.end_array(2);
  j.line(2).key("moved_rows").begin_array();
  for (const auto i : r.moved) j.number(i);
  j.end_array();
  j.line(2).key("gate").begin_array();
  for (const auto& g : r.gate) {
    j.line(4).begin_object();
    j.key("condition").string(g.condition.text);
    j.key("outcome").string(model::gate_outcome_name(g.outcome));
    j.key("detail").string(g.detail);
    j.end_object();
  }
  j.end_array(2);
  j.end_object(0);
  out << '\n';
}

}  // namespace tracediff::output
