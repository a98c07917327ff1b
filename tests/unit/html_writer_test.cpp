#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/report.hpp"
#include "output/html_writer.hpp"
#include "util/embedded.hpp"

using namespace tracediff;
using model::Change;
using model::DiffReport;
using model::DiffRow;

namespace {

const std::string k_evil = "</script><img src=x onerror=alert(1)>";

DiffRow make_row(std::string name, std::string cat, model::Device dev, std::uint64_t cc, std::int64_t cns,
                 std::uint64_t tc, std::int64_t tns) {
  DiffRow r;
  r.name = name;
  r.full_name = name;
  r.category = std::move(cat);
  r.device = dev;
  r.control.count = cc;
  r.control.total_ns = cns;
  r.test.count = tc;
  r.test.total_ns = tns;
  // Three steps on each side: per-step figures are a third of the totals.
  r.control_step.count = static_cast<double>(cc) / 3;
  r.control_step.total_ns = static_cast<double>(cns) / 3;
  r.test_step.count = static_cast<double>(tc) / 3;
  r.test_step.total_ns = static_cast<double>(tns) / 3;
  if (cc == 0) r.change = Change::added;
  else if (tc == 0) r.change = Change::deleted;
  else if (tc > cc) r.change = Change::increased;
  else if (tc < cc) r.change = Change::decreased;
  else r.change = Change::unchanged;
  return r;
}

std::uint64_t mag(std::int64_t v) { return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v); }

// Fills by_impact and ops_diff the way analysis/ does (|Δ duration| desc, then category, name).
void finish(DiffReport& r) {
  r.by_impact.clear();
  for (std::size_t i = 0; i < r.rows.size(); ++i) r.by_impact.push_back(i);
  std::stable_sort(r.by_impact.begin(), r.by_impact.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = r.rows[a];
    const auto& y = r.rows[b];
    if (mag(x.diff_ns()) != mag(y.diff_ns())) return mag(x.diff_ns()) > mag(y.diff_ns());
    if (x.category != y.category) return x.category < y.category;
    return x.name < y.name;
  });
  for (auto& g : r.ops_diff.groups) g.clear();
  for (const auto& row : r.rows) r.ops_diff.groups[static_cast<int>(row.change)].push_back(row.full_name);
  r.control.cpu_total = r.test.cpu_total = r.control.gpu_total = r.test.gpu_total = {};
  for (const auto& row : r.rows) {
    if (row.device == model::Device::cpu) {
      r.control.cpu_total.count += row.control.count;
      r.control.cpu_total.total_ns += row.control.total_ns;
      r.test.cpu_total.count += row.test.count;
      r.test.cpu_total.total_ns += row.test.total_ns;
    } else if (row.device == model::Device::gpu) {
      r.control.gpu_total.count += row.control.count;
      r.control.gpu_total.total_ns += row.control.total_ns;
      r.test.gpu_total.count += row.test.count;
      r.test.gpu_total.total_ns += row.test.total_ns;
    }
  }
}

void fill_side(model::SideSummary& s, const std::string& label, int rank, std::int64_t step_ns) {
  s.label = label;
  s.inputs = {"runs/" + label + "/"};
  model::FileInfo f;
  f.path = "runs/" + label + "/rank" + std::to_string(rank) + ".json.gz";
  f.rank = rank;
  f.rank_source = model::RankSource::distributed_info;
  f.events = 109'234;
  f.json_bytes = 34'213'000;
  s.files = {f};
  s.ranks = {rank};
  s.available_ranks = {0, 1, 2, 3, 4, 5, 6, 7};
  s.iterations = {1009, 1010, 1011};
  s.available_iterations = {1009, 1010, 1011, 1012, 1013, 1014};
  s.gpu_names = {"NVIDIA A100-SXM4-40GB"};
  for (std::int64_t i = 0; i < 3; ++i) s.step_times.steps.push_back({rank, 1009 + i, step_ns + i * 1000});
  s.step_times.mean_ns = step_ns + 1000;
  s.step_times.median_ns = step_ns + 1000;
  s.step_times.min_ns = step_ns;
  s.step_times.max_ns = step_ns + 2000;
}

// A small report by hand: every change group, long kernel names, hostile names.
DiffReport small_report() {
  DiffReport r;
  fill_side(r.control, "Control", 3, 812'000'000);
  fill_side(r.test, "Test", 1, 845'500'000);
  using model::Device;
  r.rows.push_back(make_row("aten::mm", "cpu_op", Device::cpu, 48, 12'000'000, 48, 12'400'000));
  r.rows.push_back(make_row("aten::add_", "cpu_op", Device::cpu, 100, 3'000'000, 80, 2'100'000));
  r.rows.push_back(make_row(k_evil, "kernel", Device::gpu, 0, 0, 7, 5'500'000));
  r.rows.push_back(make_row("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                            "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
                            "at::detail::Array<char*, 3>)",
                            "kernel", Device::gpu, 300, 40'000'000, 330, 47'000'000));
  r.rows.push_back(make_row("aten::dropout", "cpu_op", Device::cpu, 12, 900'000, 0, 0));
  r.rows.push_back(make_row("{{#x}}mustache{{/x}} & \"quotes\" 'single'", "user_annotation", Device::cpu, 5,
                            1'000, 5, 1'000));
  r.rows.push_back(make_row("bad utf8 \xff\xfe end", "cpu_op", Device::cpu, 1, 10, 2, 30));
  r.rows.push_back(make_row("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", Device::gpu, 4, 80'000, 4, 80'000));
  r.rows.push_back(make_row("cudaStreamSynchronize", "cuda_sync", Device::other, 10, 600'000, 9, 300'000));
  finish(r);
  r.notes = {"Ranks differ: control rank 3, test rank 1."};
  r.diagnostics.report(model::DiagId::event_negative_dur, "runs/Control/rank3.json.gz", 123'456,
                       "dur -3 on " + k_evil);
  r.diagnostics.add(model::DiagId::event_outside_steps, 41);
  return r;
}

// About 500 rows with realistic kernel-length names, for the size budget and the browser test.
DiffReport big_report() {
  DiffReport r = small_report();
  using model::Device;
  for (int i = 0; i < 490; ++i) {
    const bool gpu = i % 2 == 0;
    std::string name =
        gpu ? "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_" + std::to_string(64 + i) +
                  "x64_16x6_nn_align4>(cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4::Params)"
            : "aten::op_" + std::to_string(i);
    const std::uint64_t cc = 10 + static_cast<std::uint64_t>(i % 37);
    const std::uint64_t tc = i % 41 == 0 ? 0 : cc + static_cast<std::uint64_t>(i % 5) - 2;
    const std::int64_t cns = 1000 + 7919LL * i * (i % 13 + 1);
    const std::int64_t tns = tc == 0 ? 0 : cns + (i % 3 - 1) * 35'710LL * (i % 17) * (i % 7);
    r.rows.push_back(make_row(name, gpu ? "kernel" : "cpu_op", gpu ? Device::gpu : Device::cpu, cc, cns, tc, tns));
  }
  finish(r);
  return r;
}

std::string render(const DiffReport& r, int top = 10) {
  std::ostringstream out;
  output::write_html(r, output::HtmlOptions{top}, out);
  return out.str();
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) ++n;
  return n;
}

// The <tbody> rows of the diff table.
std::vector<std::string> table_rows(const std::string& html) {
  const auto start = html.find("<table id=\"diff-table\"");
  const auto body = html.find("<tbody>", start);
  const auto end = html.find("</tbody>", body);
  std::vector<std::string> rows;
  for (auto p = html.find("<tr ", body); p != std::string::npos && p < end; p = html.find("<tr ", p + 1))
    rows.push_back(html.substr(p, html.find("</tr>", p) - p));
  return rows;
}

// data-v values of one row's cells, in column order ("" where a cell has none).
std::vector<std::string> cell_values(const std::string& tr) {
  std::vector<std::string> v;
  for (auto p = tr.find("<td"); p != std::string::npos; p = tr.find("<td", p + 1)) {
    const auto close = tr.find('>', p);
    const auto a = tr.find("data-v=\"", p);
    if (a != std::string::npos && a < close) {
      const auto b = tr.find('"', a + 8);
      v.push_back(tr.substr(a + 8, b - a - 8));
    } else {
      v.push_back("");
    }
  }
  return v;
}

// The inline scripts' contents (without type=application/json).
std::vector<std::string> inline_scripts(const std::string& html) {
  std::vector<std::string> out;
  for (auto p = html.find("<script>"); p != std::string::npos; p = html.find("<script>", p + 1)) {
    const auto e = html.find("</script>", p);
    out.push_back(html.substr(p + 8, e - p - 8));
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(html_writer)

BOOST_AUTO_TEST_CASE(hostile_name_is_never_markup) {
  const auto html = render(small_report());
  BOOST_TEST(html.find("<img") == std::string::npos);
  BOOST_TEST(html.find("onerror=alert(1)>") == std::string::npos);
  // Three scripts of our own, closed three times: nothing else closes a <script>.
  BOOST_TEST(count(html, "<script") == 3u);
  BOOST_TEST(count(html, "</script") == 3u);
  // Shown as text in the table, the groups, the chart fallback, the diagnostics...
  BOOST_TEST(count(html, "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;") >= 4u);
  // ...and in the data for the script, JSON-escaped.
  BOOST_TEST(html.find(R"("\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e")") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(mustache_syntax_and_quotes_in_names_stay_text) {
  const auto html = render(small_report());
  BOOST_TEST(html.find("{{#x}}mustache{{/x}} &amp; &quot;quotes&quot; &#39;single&#39;") != std::string::npos);
  BOOST_TEST(html.find("bad utf8 \xEF\xBF\xBD\xEF\xBF\xBD end") != std::string::npos);
  BOOST_TEST(html.find("\xff") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_urls_outside_licence_comments) {
  auto html = render(small_report());
  // Drop the /*! ... */ licence comments of the bundled Chart.js: only they may name a site.
  for (auto p = html.find("/*!"); p != std::string::npos; p = html.find("/*!", p)) {
    const auto e = html.find("*/", p);
    BOOST_REQUIRE(e != std::string::npos);
    html.erase(p, e + 2 - p);
  }
  BOOST_TEST(html.find("http://") == std::string::npos);
  BOOST_TEST(html.find("https://") == std::string::npos);
  BOOST_TEST(html.find("url(") == std::string::npos);
  BOOST_TEST(html.find("@import") == std::string::npos);
  BOOST_TEST(html.find("<link") == std::string::npos);
  BOOST_TEST(html.find(" src=\"") == std::string::npos);
  BOOST_TEST(html.find("sourceMappingURL") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(csp_allows_no_network_and_only_our_scripts) {
  const auto html = render(small_report());
  std::smatch m;
  BOOST_REQUIRE(std::regex_search(html, m, std::regex("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\">")));
  const std::string csp = m[1];
  BOOST_TEST(csp.find("default-src &#39;none&#39;") == 0u);
  BOOST_TEST(csp.find("unsafe-eval") == std::string::npos);
  BOOST_TEST(csp.find("connect-src") == std::string::npos);
  const auto scripts = inline_scripts(html);
  BOOST_REQUIRE(scripts.size() == 2u);
  BOOST_TEST(scripts[0] == std::string(embedded_file("chart.umd.min.js")));
  BOOST_TEST(scripts[1] == std::string(embedded_file("report.js")));
  for (const auto& s : scripts)
    BOOST_TEST(csp.find("&#39;sha256-" + output::detail::sha256_base64(s) + "&#39;") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(sha256_matches_known_vectors) {
  BOOST_TEST(output::detail::sha256_base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
  BOOST_TEST(output::detail::sha256_base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
  BOOST_TEST(output::detail::sha256_base64(std::string(1000, 'a')) ==
             "Qe3s5C1j6Nm/UVqbppMuHCDLyfWl0TRkWttdsblzfqM=");
}

BOOST_AUTO_TEST_CASE(output_is_deterministic) {
  const auto a = render(big_report());
  const auto b = render(big_report());
  BOOST_TEST(a == b);
  BOOST_TEST(a.find("/tmp") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_js_table_has_every_row_in_impact_order) {
  const auto report = big_report();
  const auto html = render(report);
  const auto rows = table_rows(html);
  BOOST_REQUIRE(rows.size() == report.rows.size());
  std::uint64_t prev = UINT64_MAX;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto v = cell_values(rows[i]);
    BOOST_REQUIRE(v.size() == 11u);
    const auto dd = std::stoll(v[8]);  // Δ duration
    const auto expected = report.rows[report.by_impact[i]].diff_ns();
    BOOST_TEST(dd == expected);
    BOOST_TEST(mag(dd) <= prev);
    prev = mag(dd);
  }
  // Regressions and improvements differ by colour class and by sign/arrow.
  BOOST_TEST(html.find("class=\"worse\"") != std::string::npos);
  BOOST_TEST(html.find("class=\"better\"") != std::string::npos);
  BOOST_TEST(html.find("\xE2\x96\xB2</span> +") != std::string::npos);  // ▲ +
  BOOST_TEST(html.find("\xE2\x96\xBC</span> -") != std::string::npos);  // ▼ -
}

BOOST_AUTO_TEST_CASE(table_cells_show_units_signs_and_groups) {
  const auto html = render(small_report());
  const auto rows = table_rows(html);
  // aten::mm: 12 ms -> 12.4 ms, +400 µs, +3.3%, unchanged count.
  const auto mm = std::find_if(rows.begin(), rows.end(), [](const std::string& r) {
    return r.find(">aten::mm<") != std::string::npos;
  });
  BOOST_REQUIRE(mm != rows.end());
  BOOST_TEST(mm->find(">12.0 ms<") != std::string::npos);
  BOOST_TEST(mm->find(">12.4 ms<") != std::string::npos);
  BOOST_TEST(mm->find("+400 \xC2\xB5s<") != std::string::npos);
  BOOST_TEST(mm->find(">+3.3%<") != std::string::npos);
  BOOST_TEST(mm->find("data-change=\"unchanged\"") != std::string::npos);
  // The hostile row is new: no base for a percentage.
  const auto evil = std::find_if(rows.begin(), rows.end(), [](const std::string& r) {
    return r.find("data-change=\"added\"") != std::string::npos;
  });
  BOOST_REQUIRE(evil != rows.end());
  BOOST_TEST(evil->find(">new<") != std::string::npos);
  BOOST_TEST(evil->find("data-v=\"Infinity\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(long_names_are_shortened_with_the_full_name_on_hover) {
  const auto html = render(small_report());
  const std::string full =
      "void at::native::vectorized_elementwise_kernel&lt;4, at::native::CUDAFunctor_add&lt;float&gt;, "
      "at::detail::Array&lt;char*, 3&gt; &gt;(int, at::native::CUDAFunctor_add&lt;float&gt;, "
      "at::detail::Array&lt;char*, 3&gt;)";
  BOOST_TEST(html.find("title=\"" + full + "\"") != std::string::npos);
  const auto shortened = output::detail::shorten_name(
      "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
      "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)");
  BOOST_TEST(shortened.find("\xE2\x80\xA6") != std::string::npos);
  BOOST_TEST(shortened.size() < 80u);
}

BOOST_AUTO_TEST_CASE(shortening_counts_code_points) {
  using output::detail::shorten_name;
  BOOST_TEST(shorten_name("short") == "short");
  const std::string e = "\xC3\xA9";  // é, two bytes
  std::string many;
  for (int i = 0; i < 100; ++i) many += e;
  const auto s = shorten_name(many, 20);
  std::string expected;
  for (int i = 0; i < 14; ++i) expected += e;
  expected += "\xE2\x80\xA6";
  for (int i = 0; i < 5; ++i) expected += e;
  BOOST_TEST(s == expected);
  BOOST_TEST(shorten_name(std::string(72, 'x')) == std::string(72, 'x'));
}

BOOST_AUTO_TEST_CASE(headline_groups_and_diagnostics_are_there) {
  const auto html = render(small_report());
  BOOST_TEST(html.find("NVIDIA A100-SXM4-40GB") != std::string::npos);
  BOOST_TEST(html.find("Step time, mean") != std::string::npos);
  BOOST_TEST(html.find(">812 ms<") != std::string::npos);           // control mean
  BOOST_TEST(html.find(">846 ms<") != std::string::npos);           // test mean
  BOOST_TEST(html.find("+33.5 ms <span class=\"pct\">(+4.1%)") != std::string::npos);
  BOOST_TEST(html.find("1009-1011 (of 1009-1014)") != std::string::npos);
  BOOST_TEST(html.find("Ranks differ: control rank 3, test rank 1.") != std::string::npos);
  BOOST_TEST(count(html, "<details class=\"group") == 5u);
  BOOST_TEST(html.find("<span aria-hidden=\"true\">+</span> added</span> <span class=\"size\">1</span>") !=
             std::string::npos);
  BOOST_TEST(html.find("id=\"diagnostics\"") != std::string::npos);
  BOOST_TEST(html.find("<code>event_negative_dur</code>") != std::string::npos);
  BOOST_TEST(html.find("negative dur clamped to 0") != std::string::npos);
  BOOST_TEST(html.find(">123,456<") != std::string::npos);  // byte offset
  BOOST_TEST(html.find(">41<") != std::string::npos);
  BOOST_TEST(html.find("Whole trace compared") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(whole_trace_is_said_plainly_and_clean_inputs_have_no_problem_section) {
  auto r = small_report();
  r.diagnostics = {};
  for (auto* s : {&r.control, &r.test}) {
    s->whole_trace = true;
    s->iterations.clear();
    s->available_iterations.clear();
    s->step_times = {};
  }
  const auto html = render(r);
  BOOST_TEST(html.find("Whole trace compared.") != std::string::npos);
  BOOST_TEST(html.find("whole trace (no ProfilerStep)") != std::string::npos);
  BOOST_TEST(html.find("Step time, mean") == std::string::npos);
  BOOST_TEST(html.find("id=\"diagnostics\"") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(charts_take_the_top_n_and_never_profiler_steps) {
  auto r = small_report();
  auto step = make_row("ProfilerStep#1009", "user_annotation", model::Device::cpu, 1, 900'000'000, 1, 990'000'000);
  r.rows.push_back(step);
  finish(r);
  const auto html = render(r, 3);
  const auto start = html.find("<script type=\"application/json\" id=\"data\">");
  const auto end = html.find("</script>", start);
  const auto json = html.substr(start, end - start);
  BOOST_TEST(json.find("ProfilerStep") == std::string::npos);
  BOOST_TEST(count(json, "\"label\":") == 6u);  // 3 rows in each of 2 charts
  BOOST_TEST(html.find("Top 3 operators by |\xCE\x94 count|") != std::string::npos);
  // The static fallback bars are there for readers without JavaScript.
  BOOST_TEST(count(html, "<div class=\"fb-row\">") == 6u);
  BOOST_TEST(html.find("\" style=\"width:100.0%\"></span>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(empty_report_renders) {
  DiffReport r;
  r.control.label = "A";
  r.test.label = "B";
  const auto html = render(r);
  BOOST_TEST(html.find("No operators in either trace.") != std::string::npos);
  BOOST_TEST(html.find("</html>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(five_hundred_rows_fit_in_a_megabyte) {
  const auto html = render(big_report());
  BOOST_TEST_MESSAGE("HTML report of 499 rows: " << html.size() << " bytes");
  BOOST_TEST(html.size() < 1'000'000u);
  // For the browser test and for looking at them: TRACEDIFF_HTML_FIXTURE=path writes this
  // report, TRACEDIFF_HTML_FIXTURE_HOSTILE=path the small one with the hostile name charted.
  if (const char* path = std::getenv("TRACEDIFF_HTML_FIXTURE")) {
    std::ofstream(path, std::ios::binary) << html;
    BOOST_TEST_MESSAGE("wrote " << path);
  }
  if (const char* path = std::getenv("TRACEDIFF_HTML_FIXTURE_HOSTILE")) {
    std::ofstream(path, std::ios::binary) << render(small_report());
    BOOST_TEST_MESSAGE("wrote " << path);
  }
}

BOOST_AUTO_TEST_SUITE_END()
