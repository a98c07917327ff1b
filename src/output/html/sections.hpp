#pragma once
// The sections of the HTML report. Each sets its own keys of the page's mustache
// context (templates/report.html.mustache), listed at the top of its file;
// page.cpp puts them together.
#include <cstddef>
#include <string>
#include <vector>

#include "output/html/common.hpp"

namespace tracediff::output::html {

void add_headline(const DiffReport& r, data& ctx);
// Why the step moved: the bottom line, the equation, the waterfall (static bars and
// why_json for the script).
void add_why(const DiffReport& r, const Anchors& a, data& ctx);
// What bounded the step: the critical path's bound types per side, rows on it, what-ifs.
void add_critical_path(const DiffReport& r, const Anchors& a, data& ctx);
void add_findings(const DiffReport& r, const Anchors& a, data& ctx);
void add_steps(const DiffReport& r, data& ctx);
void add_groups(const DiffReport& r, data& ctx);
// GPU time per step by kernel family (its chart is charts.cpp's families_chart).
void add_families(const DiffReport& r, data& ctx);
// The static bars, and data_json for the script that draws the charts: the rows
// analysis chose (DiffReport::charts).
void add_charts(const DiffReport& r, data& ctx);
void add_table(const DiffReport& r, const Anchors& a, data& ctx);
// Memory per operator (the allocates-more/less lists) and the median step's timeline.
void add_memory(const DiffReport& r, data& ctx);
void add_launchers(const DiffReport& r, const Anchors& a, data& ctx);
void add_diagnostics(const DiffReport& r, data& ctx);
// The call tree: a static table of its top levels; render_tree_json is the data
// assets/flame.js draws from (empty when the page has no tree), naming the table's
// rows by their place in it (a).
void add_tree(const DiffReport& r, data& ctx);
std::string render_tree_json(const DiffReport& r, const Anchors& a);

// The long lists, rendered on their own (render_list) for {{{table_rows}}} and
// {{{launchers}}}; the latter empty when the report has no launcher section.
std::string render_table_rows(const DiffReport& r, const Anchors& a);
// The default mode's rows as the script needs them (sort and filter keys, sparklines),
// the page's #row-data (table.cpp says the format); empty in --hta-compat.
std::string render_row_data(const DiffReport& r, const Anchors& a);
std::string render_launchers(const DiffReport& r, const Anchors& a);

}  // namespace tracediff::output::html
