// The charts: the operators that changed most, as static bars (the page without
// JavaScript) and as data_json (through output/json_emit), from which the report's script
// draws them.
//   charts[] {id, title, subtitle, empty, height, bars[], has_self, self_title, self_subtitle, self_bars[]}
//     bars: {label, has_tip, tip, cw, tw, dw (bar widths, %), ct, tt, dt, dcls: pos|neg|zero [v-VERDICT]}
//   families_chart {title, subtitle, empty, height, bars[]} (the families section's chart)
//   data_json
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "output/html/sections.hpp"
#include "output/json_emit.hpp"
#include "util/display_name.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

struct ChartRow {
  std::string_view name;  // the full name: tooltips, and what labels are made from
  std::string label;  // distinct within its chart (util/display_name)
  double c, t, d;
  std::string ct, tt, dt;
  const char* verdict;  // colours the difference bar; nullptr: no verdict applies
};

struct ChartSet {
  std::string title, subtitle;
  std::vector<ChartRow> rows;
};

struct Chart {
  std::string id;
  bool durations;
  ChartSet main;
  bool has_self = false;
  ChartSet self;  // self time instead of inclusive (default mode, durations)
  std::string axis;  // the value axis' title, when not the script's own ("GPU time per step")
};

std::string_view name_of(const DiffRow& row) { return row.full_name.empty() ? row.name : row.full_name; }

ChartRow duration_row(std::string_view name, double c, double t, const char* verdict) {
  return {name, {}, c, t, t - c, dur(c, false), dur(t, false), dur(t - c, true), verdict};
}
ChartRow duration_row(const DiffRow& row, double c, double t, const char* verdict) {
  return duration_row(name_of(row), c, t, verdict);
}

// The labels of one chart, as analysis decided them (DiffReport::charts' *_labels), cut
// to the page's byte bound; a report built by hand without them shows the names.
void label(ChartSet& set, const std::vector<std::string>& labels) {
  for (std::size_t i = 0; i < set.rows.size(); ++i)
    set.rows[i].label = fit(i < labels.size() ? labels[i] : std::string(set.rows[i].name), k_label_bytes);
}

// The charts of the rows analysis chose (DiffReport::charts).
std::vector<Chart> build_charts(const DiffReport& r) {
  const bool ps = per_step_mode(r);
  // The indices in range, with their labels (a report built by hand may hold others).
  const auto valid = [&](const std::vector<std::size_t>& v, const std::vector<std::string>& labels,
                         std::vector<std::string>& kept) {
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < v.size(); ++k)
      if (v[k] < r.rows.size()) {
        out.push_back(v[k]);
        if (k < labels.size()) kept.push_back(labels[k]);
      }
    return out;
  };
  std::vector<std::string> calls_labels, time_labels, self_labels;
  const auto calls = valid(r.charts.calls, r.charts.calls_labels, calls_labels);
  const auto time = valid(r.charts.time, r.charts.time_labels, time_labels);
  const auto self = valid(r.charts.self, r.charts.self_labels, self_labels);
  Chart count{"count", false, {}, false, {}, {}};
  Chart duration{"duration", true, {}, false, {}, {}};
  if (!ps) {
    for (auto i : calls) {
      const auto& row = r.rows[i];
      const auto c = static_cast<std::int64_t>(row.control.count), t = static_cast<std::int64_t>(row.test.count);
      count.main.rows.push_back({name_of(row), {}, static_cast<double>(c), static_cast<double>(t), static_cast<double>(t - c),
                                 format_count(c, false), format_count(t, false), format_count(t - c, true), nullptr});
    }
    for (auto i : time) {
      const auto& row = r.rows[i];
      duration.main.rows.push_back(duration_row(row, static_cast<double>(row.control.total_ns),
                                                static_cast<double>(row.test.total_ns), nullptr));
    }
    count.main.title = "Count difference";
    count.main.subtitle = "Top " + std::to_string(count.main.rows.size()) + " operators by |\xCE\x94 count|";
    duration.main.title = "Duration difference";
    duration.main.subtitle =
        "Top " + std::to_string(duration.main.rows.size()) + " operators by |\xCE\x94 total duration|";
    label(count.main, calls_labels);
    label(duration.main, time_labels);
    return {count, duration};
  }

  const std::string unit = r.unit;
  for (auto i : calls) {
    const auto& row = r.rows[i];
    const double c = row.control_step.count, t = row.test_step.count;
    count.main.rows.push_back({name_of(row), {}, c, t, t - c, format_count_per_step(c, false), format_count_per_step(t, false),
                               format_count_per_step(t - c, true), nullptr});
  }
  for (auto i : time) {
    const auto& row = r.rows[i];
    duration.main.rows.push_back(duration_row(row, row.control_step.total_ns, row.test_step.total_ns,
                                              model::verdict_name(row.verdict)));
  }
  duration.has_self = true;
  for (auto i : self) {
    const auto& row = r.rows[i];
    duration.self.rows.push_back(duration_row(row, row.control_step.self_ns, row.test_step.self_ns, nullptr));
  }
  count.main.title = "Calls per " + unit;
  count.main.subtitle = "Top " + std::to_string(count.main.rows.size()) + " by |\xCE\x94 calls per " + unit + "|";
  duration.main.title = "Inclusive time per " + unit;
  duration.main.subtitle = "Top " + std::to_string(duration.main.rows.size()) + " by |\xCE\x94 per " + unit +
                           "|; \xCE\x94 bar coloured by verdict";
  duration.self.title = "Self time per " + unit;
  duration.self.subtitle =
      "Top " + std::to_string(duration.self.rows.size()) + " by |\xCE\x94 self time per " + unit + "|";
  label(count.main, calls_labels);
  label(duration.main, time_labels);
  label(duration.self, self_labels);
  return {count, duration};
}

data chart_bars(const ChartSet& set) {
  double max = 0;
  for (const auto& cr : set.rows) max = std::max({max, std::fabs(cr.c), std::fabs(cr.t), std::fabs(cr.d)});
  data rows = make_list();
  for (const auto& cr : set.rows) {
    data d;
    d.set("label", cr.label);
    const auto full = fit(cr.name, k_name_bytes);
    d.set("has_tip", full != cr.label);
    d.set("tip", full);
    d.set("cw", width_pct(std::fabs(cr.c), max));
    d.set("tw", width_pct(std::fabs(cr.t), max));
    d.set("dw", width_pct(std::fabs(cr.d), max));
    d.set("ct", cr.ct);
    d.set("tt", cr.tt);
    d.set("dt", cr.dt);
    std::string cls = cr.d > 0 ? "pos" : cr.d < 0 ? "neg" : "zero";
    if (cr.verdict) cls += std::string(" v-") + cr.verdict;
    d.set("dcls", cls);
    rows.push_back(d);
  }
  return rows;
}

void add_bars(const std::vector<Chart>& charts, data& ctx) {
  data list = make_list();
  for (const auto& ch : charts) {
    data c;
    c.set("id", ch.id);
    c.set("title", ch.main.title);
    c.set("subtitle", ch.main.subtitle);
    c.set("empty", ch.main.rows.empty());
    const auto rows = std::max(ch.main.rows.size(), ch.has_self ? ch.self.rows.size() : 0);
    c.set("height", std::to_string(80 + 36 * rows));
    c.set("bars", chart_bars(ch.main));
    c.set("has_self", ch.has_self);
    c.set("self_title", ch.self.title);
    c.set("self_subtitle", ch.self.subtitle);
    c.set("self_bars", chart_bars(ch.self));
    list.push_back(c);
  }
  ctx.set("charts", list);
}

// The data the report's script draws the charts from, through output/json_emit, whose
// strings escape < > & so nothing can close the <script> element.
std::string chart_json(const DiffReport& r, const std::vector<Chart>& charts) {
  const bool ps = per_step_mode(r);
  std::string json;
  JsonEmit j(json);
  const auto num = [&](double v, bool durations) {
    if (durations || !ps) j.number(round_ns(v));
    else j.number(std::string_view(key3(v)));
  };
  const auto rows_json = [&](const ChartSet& set, bool durations) {
    j.begin_array();
    for (const auto& cr : set.rows) {
      j.begin_object().key("label").string(fit(cr.label, k_label_bytes, Escaped::json));
      j.key("name").string(fit(cr.name, k_name_bytes, Escaped::json));
      for (const auto& [k, v] : {std::pair{"c", cr.c}, std::pair{"t", cr.t}, std::pair{"d", cr.d}}) {
        j.key(k);
        num(v, durations);
      }
      j.key("ct").string(cr.ct).key("tt").string(cr.tt).key("dt").string(cr.dt);
      if (cr.verdict) j.key("v").string(cr.verdict);
      j.end_object();
    }
    j.end_array();
  };
  j.compact().begin_object().key("labels").begin_array();
  j.string(side_label(r.control, false)).string(side_label(r.test, true)).end_array();
  j.key("per_step").boolean(ps).key("unit").string(r.unit).key("charts").begin_array();
  for (const auto& ch : charts) {
    j.begin_object().key("id").string(ch.id).key("unit").string(ch.durations ? "ns" : "count").key("rows");
    rows_json(ch.main, ch.durations);
    if (!ch.axis.empty()) j.key("axis").string(ch.axis);
    if (ch.has_self) {
      j.key("self");
      rows_json(ch.self, ch.durations);
    }
    j.end_object();
  }
  j.end_array().end_object();
  return json;
}

// GPU time per step by kernel family (DiffReport::families_shown), drawn in the families
// section (families.cpp), not among the charts above: its static bars are
// families_chart {title, subtitle, empty, height, bars[]}.
Chart family_chart(const DiffReport& r, data& ctx) {
  Chart fam{"families", true, {}, false, {}, "GPU time per " + r.unit};
  for (const auto i : r.families_shown) {
    const auto& f = r.families[i];
    fam.main.rows.push_back(duration_row(f.label, f.time.control, f.time.test, model::verdict_name(f.time.verdict)));
  }
  fam.main.title = "GPU time per " + r.unit + " by kernel family";
  fam.main.subtitle = "\xCE\x94 bar coloured by verdict";
  label(fam.main, r.charts.family_labels);
  data c;
  c.set("title", fam.main.title);
  c.set("subtitle", fam.main.subtitle);
  c.set("empty", fam.main.rows.empty());
  c.set("height", std::to_string(80 + 36 * fam.main.rows.size()));
  c.set("bars", chart_bars(fam.main));
  ctx.set("families_chart", c);
  return fam;
}

}  // namespace

void add_charts(const DiffReport& r, data& ctx) {
  auto charts = build_charts(r);
  add_bars(charts, ctx);
  if (per_step_mode(r) && !r.families_shown.empty()) charts.push_back(family_chart(r, ctx));
  ctx.set("data_json", chart_json(r, charts));
}

}  // namespace tracediff::output::html
