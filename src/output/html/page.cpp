// The page: templates/report.html.mustache and its mustache context. Every string is
// UTF-8-sanitised; the template escapes it ({{x}}) except our own assets
// ({{{css}}}, {{{chart_js}}}, {{{report_js}}}), the JSON blocks ({{{data_json}}},
// {{{row_data}}}, {{{why_json}}}, {{{tree_json}}}, {{{perfetto_json}}}: all written by
// output/json_emit, whose strings escape < > & so that nothing closes their <script>)
// and the blocks rendered from templates of their own: {{{table_rows}}} (table.cpp)
// and {{{launchers}}} (launchers.cpp). This file sets
//   control_label, test_label, generator, csp, css, chart_js, report_js, flame_js, table_rows, row_data,
//   tree_json, launchers
//   has_perfetto, perfetto_json, perfetto_js, perfetto_what, perfetto_title (--embed-perfetto only)
//   per_step (the default mode; false in --hta-compat, which keeps HTA's totals), unit ("step")
// and each section the keys listed at the top of its file: headline.cpp, findings.cpp,
// steps.cpp, groups.cpp, families.cpp, charts.cpp, table.cpp, launchers.cpp, tree.cpp, diagnostics.cpp.
#include <future>
#include <sstream>
#include <utility>
#include <stdexcept>
#include <string>
#include <string_view>

#include "output/html/sections.hpp"
#include "output/html_writer.hpp"
#include "output/perfetto_writer.hpp"
#include "util/embedded_files.hpp"

#ifndef TRACEDIFF_VERSION
#define TRACEDIFF_VERSION "unknown"
#endif

namespace tracediff::output {

namespace {

std::string_view asset(std::string_view name) {
  const auto bytes = embedded_file(name);
  if (bytes.empty()) throw std::runtime_error("embedded asset missing: " + std::string(name));
  return bytes;
}

// 'sha256-...', hashed at build time (cmake/EmbedScript.cmake).
std::string script_hash(std::string_view name) {
  return "'sha256-" + std::string(embedded_sha256_base64(name)) + "'";
}

}  // namespace

void write_html(const model::DiffReport& report, std::ostream& out) {
  using namespace html;
  const auto anchors = make_anchors(report);
  // The table's rows are half the page: a second thread renders them, then the tree's
  // data and the launchers' table, while this one builds and renders the rest (about
  // half each on the HTA pair); they are written out where the page has them. One
  // thread, not one a part: on two cores a third took this one's core for a while.
  struct Parts {
    std::string rows, row_data, tree_json, launchers;
  };
  auto parts = std::async(std::launch::async, [&] {
    Parts p;
    p.rows = render_table_rows(report, anchors);
    p.row_data = render_row_data(report, anchors);
    p.tree_json = render_tree_json(report, anchors);
    p.launchers = render_launchers(report, anchors);
    return p;
  });

  auto tmpl = templates::load("report.html.mustache");
  templates::StreamSink sink(out);
  data ctx;
  const std::string control = side_label(report.control, false);
  const std::string test = side_label(report.test, true);
  ctx.set("control_label", control);
  ctx.set("test_label", test);
  ctx.set("generator", std::string("tracediff ") + TRACEDIFF_VERSION);
  // No network at all; scripts only ours (by hash), so injected markup could run nothing.
  // --embed-perfetto: the step file and its button's script (allowed by hash too); a
  // report without adds nothing, not even the hash.
  const bool perfetto = report.embed_step_trace && report.step_trace;
  ctx.set("csp", "default-src 'none'; script-src " + script_hash("chart.bar.min.js") + " " +
                     script_hash("report.js") + " " + script_hash("flame.js") +
                     (perfetto ? " " + script_hash("perfetto.js") : std::string()) +
                     "; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  // The assets go straight from the binary to the output.
  for (const auto* name : {"report.css", "chart.bar.min.js", "report.js", "flame.js"}) asset(name);  // throws if missing
  put(ctx, "css", templates::block(sink, [] { return asset("report.css"); }));
  put(ctx, "chart_js", templates::block(sink, [] { return asset("chart.bar.min.js"); }));
  put(ctx, "report_js", templates::block(sink, [] { return asset("report.js"); }));
  put(ctx, "flame_js", templates::block(sink, [] { return asset("flame.js"); }));
  std::string perfetto_json;
  ctx.set("has_perfetto", perfetto);
  if (perfetto) {
    std::ostringstream s;
    output::write_perfetto(report, *report.step_trace, s);  // escapes < > &: nothing closes the <script>
    perfetto_json = std::move(s).str();
    std::string what = "The median step of each side";
    for (const auto& side : report.step_trace->sides)
      what += std::string(side.test ? ", test: rank " : ", control: rank ") + std::to_string(side.rank) +
              (side.whole_trace ? std::string(" (whole trace)") : " step " + std::to_string(side.step));
    what += " (" + std::to_string(perfetto_json.size() / 1024 + 1) + " KB)";
    ctx.set("perfetto_what", what);
    ctx.set("perfetto_title", "tracediff: " + control + " vs " + test);
    asset("perfetto.js");
    put(ctx, "perfetto_js", templates::block(sink, [] { return asset("perfetto.js"); }));
    put(ctx, "perfetto_json", templates::block(sink, [&] { return std::string_view(perfetto_json); }));
  }

  // Read all over the page. unit only in the default mode: --hta-compat has no per-step figures.
  ctx.set("per_step", per_step_mode(report));
  if (per_step_mode(report)) ctx.set("unit", report.unit);
  ctx.set("has_verdict_line", !report.verdict_line.empty());
  // The mark is drawn by the page (CSS), not an emoji that a machine may lack a font for.
  ctx.set("verdict_line", report.verdict_text.empty() ? report.verdict_line : report.verdict_text);
  ctx.set("verdict_cls", std::string("mark-") + model::mark_name(report.verdict_mark));
  const auto m = report.verdict_mark;
  ctx.set("verdict_sym", std::string(m == model::Mark::fail   ? "\xE2\x9C\x95"    // ✕
                                     : m == model::Mark::pass ? "\xE2\x9C\x93"    // ✓
                                     : m == model::Mark::warn ? "!"
                                                              : "\xE2\x80\x93"));  // –
  ctx.set("verdict_word", std::string(m == model::Mark::fail   ? "Fails"
                                      : m == model::Mark::pass ? "Passes"
                                      : m == model::Mark::warn ? "Not evaluated"
                                                               : "Neutral"));

  add_headline(report, ctx);
  add_why(report, anchors, ctx);
  add_critical_path(report, anchors, ctx);
  add_findings(report, anchors, ctx);
  add_steps(report, ctx);
  add_groups(report, ctx);
  add_families(report, ctx);
  add_memory(report, ctx);
  add_charts(report, ctx);
  add_table(report, anchors, ctx);
  add_launchers(report, anchors, ctx);
  add_tree(report, ctx);
  add_diagnostics(report, ctx);

  Parts done;
  bool have_parts = false;
  const auto part = [&]() -> const Parts& {
    if (!have_parts) done = parts.get(), have_parts = true;
    return done;
  };
  put(ctx, "launchers", templates::block(sink, [&] { return std::string_view(part().launchers); }));
  put(ctx, "tree_json", templates::block(sink, [&] { return std::string_view(part().tree_json); }));
  put(ctx, "table_rows", templates::block(sink, [&] { return std::string_view(part().rows); }));
  put(ctx, "row_data", templates::block(sink, [&] { return std::string_view(part().row_data); }));

  tmpl.render(ctx, sink);
  templates::check(tmpl, "report.html.mustache");
  sink.flush();
}

}  // namespace tracediff::output
