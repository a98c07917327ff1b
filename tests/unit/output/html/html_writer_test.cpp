#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/decide/decide.hpp"
#include "analysis/decide/embedded.hpp"
#include "model/report.hpp"
#include "output/html/common.hpp"
#include "output/html_writer.hpp"
#include "support/sha256.hpp"
#include "util/embedded_files.hpp"
#include "util/escape.hpp"
#include "util/format.hpp"

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
  // Host rows spend 60% of their time in themselves; GPU work is all self.
  const bool gpu = dev == model::Device::gpu;
  r.control.self_ns = gpu ? cns : cns / 10 * 6;
  r.test.self_ns = gpu ? tns : tns / 10 * 6;
  // Six steps on each side: per-step figures are a sixth of the totals.
  r.control_step.count = static_cast<double>(cc) / 6;
  r.control_step.total_ns = static_cast<double>(cns) / 6;
  r.control_step.self_ns = static_cast<double>(r.control.self_ns) / 6;
  r.control_step.stddev_ns = static_cast<double>(cns) / 300;
  r.test_step.count = static_cast<double>(tc) / 6;
  r.test_step.total_ns = static_cast<double>(tns) / 6;
  r.test_step.self_ns = static_cast<double>(r.test.self_ns) / 6;
  r.test_step.stddev_ns = static_cast<double>(tns) / 300;
  r.control_samples = model::Samples::dense(std::vector<double>(6, r.control_step.total_ns));
  r.test_samples = model::Samples::dense(std::vector<double>(6, r.test_step.total_ns));
  if (cc == 0) r.change = Change::added;
  else if (tc == 0) r.change = Change::deleted;
  else if (tc > cc) r.change = Change::increased;
  else if (tc < cc) r.change = Change::decreased;
  else r.change = Change::unchanged;
  // The verdict by the default threshold alone (5% per step).
  const double d = r.diff_per_step_ns();
  if (d != 0 && (cns == 0 || 100.0 * std::abs(d) / r.control_step.total_ns >= 5.0)) {
    r.significant = true;
    r.verdict = d > 0 ? model::Verdict::slower : model::Verdict::faster;
  }
  if (cns != 0) r.pct = 100.0 * d / r.control_step.total_ns;
  r.median_diff_ns = d;
  if (r.control.self_ns != 0)
    r.self_pct = 100.0 * (r.test_step.self_ns - r.control_step.self_ns) / r.control_step.self_ns;
  if (gpu) r.launched_by = "aten::launcher_of_" + r.category;
  return r;
}

std::uint64_t mag(std::int64_t v) { return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v); }

// Fills by_impact and ops_diff the way analysis/ does (|Δ duration| desc, then category,
// name), then what analysis decides from them (headline, lists, labels, charts and
// what the page embeds, for --top `top`).
void finish(DiffReport& r, int top = 10) {
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
  // What analysis decides: headline, breakdown, ranks, top lists, labels.
  for (auto* f : {&r.headline, &r.breakdown, &r.counts, &r.step_stats}) f->clear();
  r.rank_rows.clear();
  r.top_launchers.clear();
  r.sides_differ.clear();
  const auto notes = r.notes;
  r.notes.clear();
  analysis::CompareOptions o;
  o.min_change = r.min_change;
  o.top = top;
  if (r.hta_compat) analysis::detail::decide_hta(r, o);
  else analysis::detail::decide(r, o);
  r.notes.insert(r.notes.begin(), notes.begin(), notes.end());
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
  s.iterations = {1009, 1010, 1011, 1012, 1013, 1014};
  s.available_iterations = {1009, 1010, 1011, 1012, 1013, 1014, 1015};
  s.gpu_names = {"NVIDIA A100-SXM4-40GB"};
  s.meta.gpus = {"NVIDIA A100-SXM4-40GB"};
  s.units = 6;
  s.step_details.clear();
  for (std::int64_t i = 0; i < 6; ++i) {
    s.step_times.steps.push_back({rank, 1009 + i, step_ns + i * 1000});
    model::StepDetail d;
    d.rank = rank;
    d.step = 1009 + i;
    d.dur_ns = step_ns + i * 1000;
    d.gpu_busy_ns = step_ns / 10 * 8;
    d.gpu_idle_ns = d.dur_ns - d.gpu_busy_ns;
    d.kernel_ns = step_ns / 10 * 6;
    d.comm_ns = step_ns / 10;
    d.memcpy_ns = step_ns / 20;
    d.memset_ns = 1000;
    d.cpu_self_ns = step_ns / 2;
    d.runtime_ns = step_ns / 4;
    s.step_details.push_back(d);
  }
  s.step_times.mean_ns = step_ns + 2500;
  s.step_times.median_ns = step_ns + 2500;
  s.step_times.min_ns = step_ns;
  s.step_times.max_ns = step_ns + 5000;
  s.step_mean = s.step_details[2];
  s.step_mean.dur_ns = step_ns + 2500;
  s.step_mean.gpu_idle_ns = s.step_mean.dur_ns - s.step_mean.gpu_busy_ns;
  s.step_mean.rank = 0;
  s.step_mean.step = 0;
  s.rank_details = {{rank, 6, step_ns + 2500, step_ns / 10 * 8}};
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
  // GPU time by launcher: one with the hostile name, one with a known kernel.
  const auto time = [](double c, double t) {
    model::Comparison v;
    v.control = c / 6;
    v.test = t / 6;
    if (c != 0) v.pct = 100.0 * (t - c) / c;
    v.significant = true;
    v.verdict = t > c ? model::Verdict::slower : model::Verdict::faster;
    return v;
  };
  model::LauncherRow evil;
  evil.launcher = k_evil;
  evil.control_ns = 0;
  evil.test_ns = 5'500'000;
  evil.time = time(0, 5'500'000);
  evil.kernels = {{k_evil, "", 0, 5'500'000, time(0, 5'500'000)}};
  model::LauncherRow add;
  add.launcher = "aten::add";
  add.control_ns = 40'000'000;
  add.test_ns = 47'000'000;
  add.time = time(40'000'000, 47'000'000);
  add.kernels = {{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                  "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
                  "at::detail::Array<char*, 3>)",
                  "", 40'000'000, 47'000'000, time(40'000'000, 47'000'000)}};
  r.by_launcher = {add, evil};
  for (auto& row : r.rows)
    if (row.device == model::Device::gpu) row.launched_by = row.name == k_evil ? k_evil : "aten::add";
  r.notes = {"Ranks differ: control rank 3, test rank 1."};
  finish(r);
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

std::string render(const DiffReport& r) {
  std::ostringstream out;
  output::write_html(r, out);
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

// The page's #row-data (src/output/html/table.cpp): what the script needs of each row
// of the table, in the table's order.
boost::json::object row_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"row-data\">";
  const auto a = html.find(open);
  BOOST_REQUIRE(a != std::string::npos);
  const auto b = a + open.size();
  return boost::json::parse(html.substr(b, html.find("</script>", b) - b)).as_object();
}

// A numeric cell's sort key in a row's data (k: 0 C/step ... 5 T total), inclusive or self
// (the same when the row has one); NaN where there is none, Infinity for "Infinity".
double row_key(const boost::json::value& row, std::size_t k, bool self = false) {
  auto v = row.as_array().at(5 + k);
  if (v.is_array()) v = v.as_array().at(self ? 1 : 0);
  if (v.is_null()) return std::nan("");
  if (v.is_string()) return v.as_string() == "Infinity" ? HUGE_VAL : std::nan("");
  return v.to_number<double>();
}
bool has_self_key(const boost::json::value& row, std::size_t k) { return row.as_array().at(5 + k).is_array(); }

// A row's filter keys, by name (as the script sets data-change, data-device, data-verdict).
std::string row_word(const boost::json::object& data, const boost::json::value& row, const char* list, std::size_t at) {
  return std::string(data.at(list).as_array().at(row.as_array().at(at).to_number<std::size_t>()).as_string());
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

// The page without its <style> and <script> elements: the markup alone.
std::string without_scripts(std::string html) {
  for (const auto& [open, close] : {std::pair{"<script", "</script>"}, {"<style", "</style>"}})
    for (auto p = html.find(open); p != std::string::npos; p = html.find(open, p)) {
      const auto e = html.find(close, p);
      html.erase(p, e == std::string::npos ? std::string::npos : e + std::string(close).size() - p);
    }
  return html;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(html_writer)

BOOST_AUTO_TEST_CASE(hostile_name_is_never_markup) {
  const auto html = render(small_report());
  BOOST_TEST(html.find("<img") == std::string::npos);
  BOOST_TEST(html.find("onerror=alert(1)>") == std::string::npos);
  // Our own scripts (three, the rows' data, and the waterfall's data when the step has a
  // GPU timeline), each closed once: nothing else closes a <script>.
  const std::size_t scripts = html.find("id=\"why-data\"") != std::string::npos ? 5u : 4u;
  BOOST_TEST(count(html, "<script") == scripts);
  BOOST_TEST(count(html, "</script") == scripts);
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
  BOOST_TEST(scripts[0] == std::string(embedded_file("chart.bar.min.js")));
  BOOST_TEST(scripts[1] == std::string(embedded_file("report.js")));
  for (const auto& s : scripts)
    BOOST_TEST(csp.find("&#39;sha256-" + test::sha256_base64(s) + "&#39;") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(sha256_matches_known_vectors) {
  BOOST_TEST(test::sha256_base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
  BOOST_TEST(test::sha256_base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
  BOOST_TEST(test::sha256_base64(std::string(1000, 'a')) ==
             "Qe3s5C1j6Nm/UVqbppMuHCDLyfWl0TRkWttdsblzfqM=");
}

// The CSP hashes are computed at build time (cmake/EmbedScript.cmake).
BOOST_AUTO_TEST_CASE(build_time_hashes_match_the_embedded_bytes) {
  for (const auto* name : {"chart.bar.min.js", "report.js", "report.css", "report.html.mustache",
                           "table_row.html.mustache", "table_row_hta.html.mustache", "launchers.html.mustache"}) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(!embedded_file(name).empty());
      BOOST_TEST(std::string(embedded_sha256_base64(name)) == test::sha256_base64(embedded_file(name)));
    }
  }
  BOOST_TEST(embedded_sha256_base64("no-such-file").empty());
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
  double prev = 1e300;
  const auto data = row_data(html);
  const auto& keys = data.at("rows").as_array();
  BOOST_REQUIRE(keys.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    // Name, Category, Verdict, C/step, T/step, Δ/step, Δ %, C total, T total, Calls/step, Change.
    BOOST_TEST(count(rows[i], "<td") == 11u);
    // Their keys: change, device, verdict, calls, sparkline and the six numeric cells'.
    BOOST_REQUIRE(keys[i].as_array().size() == 11u);
    const auto& row = report.rows[report.by_impact[i]];
    const auto dd = row_key(keys[i], 2);  // Δ per step
    BOOST_TEST(dd == static_cast<double>(std::llround(row.diff_per_step_ns())));
    BOOST_TEST(row_key(keys[i], 4) == static_cast<double>(row.control.total_ns));
    BOOST_TEST(row_key(keys[i], 5) == static_cast<double>(row.test.total_ns));
    BOOST_TEST(std::abs(dd) <= prev + 1);
    prev = std::abs(dd);
  }
  // Regressions and improvements differ by colour class and by verdict symbol and word;
  // the sparklines are drawn by the script from the rows' data.
  BOOST_TEST(html.find("class=\"worse\"><td class=\"nm\"") != std::string::npos);
  BOOST_TEST(html.find("class=\"better\"><td class=\"nm\"") != std::string::npos);
  BOOST_TEST(html.find("<span aria-hidden=\"true\">\xE2\x96\xB2</span> slower<td>") != std::string::npos);  // ▲
  BOOST_TEST(html.find("<span aria-hidden=\"true\">\xE2\x96\xBC</span> faster<td>") != std::string::npos);  // ▼
  BOOST_TEST(html.find("<span aria-hidden=\"true\">\xE2\x89\x88</span> same within noise<td>") != std::string::npos);  // ≈
  std::size_t sparks = 0;
  for (const auto& k : keys) sparks += k.as_array().at(4).is_array();
  BOOST_TEST(sparks > 0u);
}

BOOST_AUTO_TEST_CASE(table_cells_show_per_step_totals_self_and_verdicts) {
  const auto html = render(small_report());
  const auto rows = table_rows(html);
  // aten::mm: 12 ms -> 12.4 ms in all, 2.00 ms -> 2.07 ms per step (+66.7 µs, +3.3%): under
  // the 5% threshold, so the same within noise and grey. Self time 60%: 1.20 ms -> 1.24 ms.
  const auto mm = std::find_if(rows.begin(), rows.end(), [](const std::string& r) {
    return r.find(">aten::mm<") != std::string::npos;
  });
  BOOST_REQUIRE(mm != rows.end());
  const auto data = row_data(html);
  const auto& keys = data.at("rows").as_array();
  BOOST_REQUIRE(keys.size() == rows.size());
  const auto& mk = keys[static_cast<std::size_t>(mm - rows.begin())];
  BOOST_TEST(mm->find("class=\"same\"") != std::string::npos);
  BOOST_TEST(row_word(data, mk, "verdicts", 2) == "same");
  BOOST_TEST(mm->find("<span class=\"i\">2.00 ms</span><span class=\"s\">1.20 ms</span>") != std::string::npos);
  BOOST_TEST(mm->find("<span class=\"i\">2.07 ms</span><span class=\"s\">1.24 ms</span>") != std::string::npos);
  BOOST_TEST(mm->find("<span class=\"i\">+66.7 \xC2\xB5s</span><span class=\"s\">+40.0 \xC2\xB5s</span>") !=
             std::string::npos);
  BOOST_TEST(mm->find("<td>+3.3%<td>") != std::string::npos);  // same text either way: one
  BOOST_TEST(row_key(mk, 3) == 3.333);
  BOOST_TEST(row_key(mk, 0) == 2000000.0);
  BOOST_TEST(row_key(mk, 0, true) == 1200000.0);
  BOOST_TEST(mm->find("<span class=\"i\">12.0 ms</span><span class=\"s\">7.20 ms</span>") != std::string::npos);
  BOOST_TEST(mm->find("<span class=\"i\">12.4 ms</span><span class=\"s\">7.44 ms</span>") != std::string::npos);
  BOOST_TEST(mm->find(">8<") != std::string::npos);  // calls per step, unchanged
  BOOST_TEST(mm->find("title=\"48 \xE2\x86\x92 48 calls in all\"") != std::string::npos);
  BOOST_TEST(row_word(data, mk, "changes", 0) == "unchanged");
  BOOST_TEST(mm->find("title=\"median +66.7 \xC2\xB5s; \xCF\x83 from one to the next: 40.0 \xC2\xB5s \xE2\x86\x92 41.3 "
                      "\xC2\xB5s\"") != std::string::npos);
  // aten::add_: 500 µs -> 350 µs per step, -30%: faster; calls 16.67 -> 13.33 per step.
  const auto add = std::find_if(rows.begin(), rows.end(), [](const std::string& r) {
    return r.find(">aten::add_<") != std::string::npos;
  });
  BOOST_REQUIRE(add != rows.end());
  const auto& ak = keys[static_cast<std::size_t>(add - rows.begin())];
  BOOST_TEST(row_word(data, ak, "verdicts", 2) == "faster");
  BOOST_TEST(add->find("class=\"better\"") != std::string::npos);
  BOOST_TEST(add->find(">16.67 \xE2\x86\x92 13.33<") != std::string::npos);
  BOOST_TEST(ak.as_array().at(3).to_number<double>() == -3.333);  // Δ calls per step
  BOOST_TEST(add->find("-30.0%") != std::string::npos);
  // GPU work: self = inclusive, so one value and no data-s; the launcher on a second line.
  const auto kernel = std::find_if(rows.begin(), rows.end(), [](const std::string& r) {
    return r.find("vectorized_elementwise_kernel") != std::string::npos;
  });
  BOOST_REQUIRE(kernel != rows.end());
  const auto& kk = keys[static_cast<std::size_t>(kernel - rows.begin())];
  for (std::size_t k = 0; k < 6; ++k) BOOST_TEST(!has_self_key(kk, k));
  BOOST_TEST(kernel->find("<span class=\"i\">") == std::string::npos);
  BOOST_TEST(kernel->find("<small class=\"lb\">launched by <a href=\"#l0\">aten::add</a></small>") !=
             std::string::npos);
  BOOST_TEST(row_word(data, kk, "verdicts", 2) == "slower");
  // The hostile row is new: no base for a percentage; its launcher is hostile too, escaped.
  std::size_t at = 0;
  while (at < keys.size() && row_word(data, keys[at], "changes", 0) != "added") ++at;
  BOOST_REQUIRE(at < keys.size());
  const auto evil = rows.begin() + static_cast<std::ptrdiff_t>(at);
  BOOST_TEST(evil->find(">new<") != std::string::npos);
  BOOST_TEST(row_key(keys[at], 3) == HUGE_VAL);
  BOOST_TEST(evil->find("launched by <a href=\"#l1\">&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</a>") !=
             std::string::npos);
  // The inclusive/self switch, the verdict filter and the threshold in words.
  BOOST_TEST(html.find("<input type=\"radio\" name=\"time\" id=\"time-self\" value=\"self\">") != std::string::npos);
  BOOST_TEST(html.find("<input type=\"checkbox\" name=\"verdict\" value=\"slower\" checked>") != std::string::npos);
  BOOST_TEST(html.find("the change of its median is at least 5% of Control&#39;s median per step, the means move the "
                       "same way, and a Mann\xE2\x80\x93Whitney rank test gives p &lt; 0.01") != std::string::npos);
  BOOST_TEST(html.find("Control / step") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(threshold_in_microseconds_is_said_too) {
  auto r = small_report();
  r.min_change.pct = 2.5;
  r.min_change.ns = 1500;
  const auto html = render(r);
  BOOST_TEST(html.find("at least 2.5% of Control&#39;s median per step and 1.50 \xC2\xB5s") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(findings_name_what_got_slower_and_its_launcher) {
  const auto html = render(small_report());
  const auto start = html.find("<div class=\"findings\">");
  BOOST_REQUIRE(start != std::string::npos);
  const auto part = html.substr(start, html.find("<div class=\"split\">", start) - start);
  // Largest real regression first: the vectorized kernel, +1.17 ms per step, launched by aten::add.
  const auto first = part.find("<li>");
  BOOST_TEST(part.find("vectorized_elementwise_kernel", first) < part.find("</li>", first));
  BOOST_TEST(part.find("+1.17 ms") != std::string::npos);
  BOOST_TEST(part.find("launched by aten::add") != std::string::npos);
  BOOST_TEST(part.find("Faster per step") != std::string::npos);
  BOOST_TEST(part.find("aten::dropout") != std::string::npos);  // deleted: -300 µs per step
  BOOST_TEST(part.find("GPU time by launching operator") != std::string::npos);
  BOOST_TEST(part.find("href=\"#l0\"") != std::string::npos);
  // The verdict card counts every row.
  BOOST_TEST(html.find("<strong>3</strong> <span aria-hidden=\"true\">\xE2\x89\x88</span> same within noise") !=
             std::string::npos);
  BOOST_TEST(html.find("<strong>3</strong> <span aria-hidden=\"true\">\xE2\x96\xB2</span> slower") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(step_time_and_where_it_went) {
  const auto html = render(small_report());
  const auto start = html.find("<section id=\"steps\"");
  BOOST_REQUIRE(start != std::string::npos);
  const auto part = html.substr(start, html.find("</section>", start) - start);
  BOOST_TEST(part.find("<th scope=\"row\">Mean</th><td class=\"n\">812 ms</td><td class=\"n\">846 ms</td>") !=
             std::string::npos);
  BOOST_TEST(part.find("+33.5 ms</td><td class=\"n d\">+4.1%</td>") != std::string::npos);
  BOOST_TEST(part.find("<th scope=\"row\">Max</th>") != std::string::npos);
  // Where it went, each figure judged: GPU busy 80%, kernels 60%, communication 10%.
  BOOST_TEST(part.find("Where the step went") != std::string::npos);
  BOOST_TEST(part.find("GPU busy <small>") != std::string::npos);
  BOOST_TEST(part.find(">650 ms</td><td class=\"n\">676 ms</td>") != std::string::npos);
  BOOST_TEST(part.find("Communication kernels <small>NCCL") != std::string::npos);
  BOOST_TEST(part.find(">81.2 ms</td><td class=\"n\">84.6 ms</td>") != std::string::npos);
  BOOST_TEST(part.find("CPU operator self time") != std::string::npos);
  BOOST_TEST(part.find("Runtime calls") != std::string::npos);
  BOOST_TEST(part.find("<td class=\"vd\">same within noise</td>") != std::string::npos);  // +4.1% < 5%
  // The stacked GPU bar (busy + idle = step time x GPUs), each part named for a hover,
  // and every step of both sides in a <details>.
  BOOST_TEST(part.find("<span class=\"g-busy\" style=\"width:") != std::string::npos);
  BOOST_TEST(part.find("title=\"GPU busy: 650 ms (launched: compute 487 ms") != std::string::npos);
  BOOST_TEST(part.find("<summary>Every step (12)</summary>") != std::string::npos);
  BOOST_TEST(count(part, "<tr class=\"side-") == 12u);
  // One rank per side: no rank table.
  BOOST_TEST(part.find("id=\"ranks\"") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(warm_up_steps_are_listed_and_marked) {
  auto r = small_report();
  auto w = r.test.step_details.front();
  w.step = 1008;
  w.dur_ns *= 10;
  r.test.warmup = {w};
  finish(r);  // analysis decides what the page lists; the writer only prints it
  const auto html = render(r);
  BOOST_TEST(html.find("<summary>Every step (13)</summary>") != std::string::npos);
  BOOST_TEST(count(html, "<span class=\"badge\">warm-up, left out</span>") == 1u);
  BOOST_TEST(html.find("Warm-up steps left out</th><td>0</td><td>1</td>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(ranks_are_compared_when_a_side_has_several) {
  auto r = small_report();
  r.control.step_details.clear();
  r.test.step_details.clear();
  for (int rank : {0, 1})
    for (int i = 0; i < 6; ++i) {
      model::StepDetail c, t;
      c.rank = t.rank = rank;
      c.step = t.step = 1009 + i;
      c.dur_ns = (rank ? 824'000'000 : 800'000'000) + i;
      t.dur_ns = (rank ? 890'000'000 : 801'000'000) + i;
      r.control.step_details.push_back(c);
      r.test.step_details.push_back(t);
    }
  r.control.units = r.test.units = 12;
  r.control.rank_details = {{0, 6, 800'000'000, 0}, {1, 6, 824'000'000, 0}};
  r.test.rank_details = {{0, 6, 801'000'000, 0}, {1, 6, 890'000'000, 0}};
  finish(r);
  const auto html = render(r);
  const auto start = html.find("<h3 id=\"ranks\">");
  BOOST_REQUIRE(start != std::string::npos);
  const auto part = html.substr(start, html.find("</table>", start) - start);
  BOOST_TEST(part.find("Control <strong>24.0 ms</strong>, Test <strong>89.0 ms</strong>") != std::string::npos);
  BOOST_TEST(part.find("Changed most: <strong>rank 1 (+8.0% step time)</strong>") != std::string::npos, part);
  BOOST_TEST(count(part, "<th scope=\"row\">") == 2u);
  BOOST_TEST(part.find("<tr class=\"worse most\"><th scope=\"row\">1 <span class=\"badge\">changed most</span>") !=
             std::string::npos);
  BOOST_TEST(part.find("<tr class=\"same\"><th scope=\"row\">0</th>") != std::string::npos);  // +0.1%: noise
  BOOST_TEST(part.find(">824 ms</td>") != std::string::npos);
  BOOST_TEST(part.find(" +66.0 ms</td>") != std::string::npos);
  // No rank changed beyond noise: no badge, and the line says so (no "0.0%" badge).
  for (auto& d : r.test.step_details) d.dur_ns = d.rank ? 824'000'000 + d.step : 800'000'000 + d.step;
  finish(r);
  const auto calm = render(r);
  BOOST_TEST(calm.find("changed most</span>") == std::string::npos);
  BOOST_TEST(calm.find("No rank's step time changed beyond noise.") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(launcher_view_lists_kernels_with_links_to_their_rows) {
  const auto html = render(small_report());
  const auto start = html.find("<section id=\"launchers\"");
  BOOST_REQUIRE(start != std::string::npos);
  const auto part = html.substr(start, html.find("</section>", start) - start);
  BOOST_TEST(count(part, "<details class=\"ln ") == 2u);
  // aten::add: 6.67 ms -> 7.83 ms per step, +1.17 ms (+17.5%), one kernel.
  const auto add = part.find("<details class=\"ln worse\" id=\"l0\">");
  BOOST_REQUIRE(add != std::string::npos);
  const auto add_end = part.find("</details>", add);
  const auto block = part.substr(add, add_end - add);
  BOOST_TEST(block.find("<span class=\"nm\">aten::add</span><span class=\"n\">6.67 ms</span><span "
                        "class=\"n\">7.83 ms</span>") != std::string::npos);
  BOOST_TEST(block.find("+1.17 ms") != std::string::npos);
  BOOST_TEST(block.find("+17.5%") != std::string::npos);
  // Its kernel, a link to the kernel's row in the table.
  const auto rows = table_rows(html);
  std::size_t pos = rows.size();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].find("vectorized_elementwise_kernel") != std::string::npos) pos = i;
  BOOST_REQUIRE(pos < rows.size());
  BOOST_TEST(rows[pos].find("id=\"r" + std::to_string(pos) + "\"") != std::string::npos);
  BOOST_TEST(block.find("<div class=\"k worse\"><a href=\"#r" + std::to_string(pos) + "\">vectorized_elementwise_kernel") !=
             std::string::npos);
  // The hostile launcher and kernel: text only.
  const auto evil = part.find("id=\"l1\">");
  BOOST_REQUIRE(evil != std::string::npos);
  BOOST_TEST(part.find("<summary class=\"lgrid\"><span class=\"nm\">&lt;/script&gt;&lt;img", evil) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(hta_compat_keeps_the_totals_only_report) {
  auto r = small_report();
  r.hta_compat = true;
  r.by_launcher.clear();
  for (auto& row : r.rows) {
    row.per_step_basis = false;
    row.category.clear();
    row.launched_by.clear();
  }
  finish(r);
  const auto full = render(r);
  const auto html = without_scripts(full);
  BOOST_TEST(html.find("id=\"steps\"") == std::string::npos);
  BOOST_TEST(html.find("id=\"launchers\"") == std::string::npos);
  BOOST_TEST(html.find("class=\"findings\"") == std::string::npos);
  BOOST_TEST(html.find("name=\"time\"") == std::string::npos);
  BOOST_TEST(html.find("name=\"verdict\"") == std::string::npos);
  BOOST_TEST(html.find("data-verdict") == std::string::npos);
  BOOST_TEST(html.find("<span class=\"s\">") == std::string::npos);
  BOOST_TEST(html.find(">\xCE\x94 duration</th>") != std::string::npos);
  BOOST_TEST(html.find("CPU operators, total time") != std::string::npos);  // HTA's sums, said as such
  const auto rows = table_rows(html);
  const auto mm = std::find_if(rows.begin(), rows.end(), [](const std::string& x) {
    return x.find(">aten::mm<") != std::string::npos;
  });
  BOOST_REQUIRE(mm != rows.end());
  BOOST_TEST(mm->find(">12.0 ms<") != std::string::npos);
  BOOST_TEST(mm->find(">12.4 ms<") != std::string::npos);
  BOOST_TEST(mm->find("+400 \xC2\xB5s<") != std::string::npos);
  BOOST_TEST(mm->find(">+3.3%<") != std::string::npos);
  BOOST_TEST(count(*mm, "<td") == 11u);
  BOOST_TEST(html.find("id=\"row-data\"") == std::string::npos);  // the rows carry their keys
  const auto start = full.find("<script type=\"application/json\" id=\"data\">");
  const auto json = full.substr(start, full.find("</script>", start) - start);
  BOOST_TEST(json.find("\"self\":") == std::string::npos);
  BOOST_TEST(json.find("\"per_step\":false") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(counts_per_step_read_plainly) {
  using tracediff::format_count_per_step;
  BOOST_TEST(format_count_per_step(4, false) == "4");
  BOOST_TEST(format_count_per_step(0.5, false) == "0.5");
  BOOST_TEST(format_count_per_step(2.3333, false) == "2.33");
  BOOST_TEST(format_count_per_step(999.5, false) == "999.5");
  BOOST_TEST(format_count_per_step(1234.5, false) == "1,235");  // a thousand or more: no fraction
  BOOST_TEST(format_count_per_step(10909.17, true) == "+10,909");
  BOOST_TEST(format_count_per_step(3, true) == "+3");
  BOOST_TEST(format_count_per_step(-6.666, true) == "-6.67");
  BOOST_TEST(format_count_per_step(0, true) == "0");
  BOOST_TEST(format_count_per_step(0.001, false) == "<0.01");
  BOOST_TEST(format_count_per_step(0.001, true) == "+<0.01");
}

BOOST_AUTO_TEST_CASE(long_names_show_their_label_with_the_full_name_on_hover) {
  const auto html = render(small_report());
  const std::string full =
      "void at::native::vectorized_elementwise_kernel&lt;4, at::native::CUDAFunctor_add&lt;float&gt;, "
      "at::detail::Array&lt;char*, 3&gt; &gt;(int, at::native::CUDAFunctor_add&lt;float&gt;, "
      "at::detail::Array&lt;char*, 3&gt;)";
  // The label drops what never tells kernels apart (util/display_name); the title has it all.
  BOOST_TEST(html.find("title=\"" + full + "\">vectorized_elementwise_kernel&lt;4, CUDAFun\xE2\x80\xA6, "
                       "Array&lt;char*, 3&gt; &gt;<") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(headline_groups_and_diagnostics_are_there) {
  const auto html = render(small_report());
  BOOST_TEST(html.find("NVIDIA A100-SXM4-40GB") != std::string::npos);
  BOOST_TEST(html.find("Step time <small>per step</small>") != std::string::npos);
  BOOST_TEST(html.find(">812 ms<") != std::string::npos);           // control mean
  BOOST_TEST(html.find(">846 ms<") != std::string::npos);           // test mean
  BOOST_TEST(html.find("+33.5 ms <span class=\"pct\">(+4.1%)") != std::string::npos);
  BOOST_TEST(html.find("<div class=\"card-verdict\">same within noise</div>") != std::string::npos);  // +4.1%
  // Step numbers read as numbers, not counts (issue #25).
  BOOST_TEST(html.find("Steps #1009\u2013#1014 (6 steps) of #1009\u2013#1015") != std::string::npos);
  {
    auto one = small_report();
    one.test.iterations = {6};
    one.test.available_iterations = {};
    BOOST_TEST(render(one).find(">Step #6<") != std::string::npos);
  }
  BOOST_TEST(html.find("Calls per step") != std::string::npos);
  BOOST_TEST(html.find("CPU operators, total") == std::string::npos);  // a sum of nested times means nothing
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
  r.notes.clear();
  for (auto* s : {&r.control, &r.test}) {
    s->whole_trace = true;
    s->iterations.clear();
    s->available_iterations.clear();
    s->step_times = {};
  }
  finish(r);
  const auto html = render(r);
  BOOST_TEST(html.find("Neither side has ProfilerStep: each trace is compared whole, figures are per trace.") !=
             std::string::npos);
  BOOST_TEST(html.find("whole trace (no ProfilerStep)") != std::string::npos);
  // Per trace everywhere, and the trace time with its breakdown, as the terminal has it.
  BOOST_TEST(html.find("per step") == std::string::npos);
  BOOST_TEST(html.find("Trace time <small>per trace</small>") != std::string::npos);
  BOOST_TEST(html.find("<h2 id=\"h-steps\">Trace time <small>and where it went, mean per trace</small>") !=
             std::string::npos);
  BOOST_TEST(html.find("GPU idle <small>") != std::string::npos);
  BOOST_TEST(html.find("id=\"diagnostics\"") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(charts_take_the_top_n_and_never_profiler_steps) {
  auto r = small_report();
  auto step = make_row("ProfilerStep#1009", "user_annotation", model::Device::cpu, 1, 900'000'000, 1, 990'000'000);
  r.rows.push_back(step);
  finish(r, 3);
  const auto html = render(r);
  const auto start = html.find("<script type=\"application/json\" id=\"data\">");
  const auto end = html.find("</script>", start);
  const auto json = html.substr(start, end - start);
  BOOST_TEST(json.find("ProfilerStep") == std::string::npos);
  // 3 rows in each chart: calls, inclusive time and self time per step.
  BOOST_TEST(count(json, "\"label\":") == 9u);
  BOOST_TEST(json.find("\"self\":[") != std::string::npos);
  BOOST_TEST(json.find("\"v\":\"slower\"") != std::string::npos);
  BOOST_TEST(html.find("Top 3 by |\xCE\x94 calls per step|") != std::string::npos);
  BOOST_TEST(html.find("Self time per step") != std::string::npos);
  // The static fallback bars are there for readers without JavaScript, self time too.
  BOOST_TEST(count(html, "<div class=\"fb-row\">") == 9u);
  BOOST_TEST(html.find("<div class=\"fallback s\">") != std::string::npos);
  BOOST_TEST(html.find("v-slower\" style=\"width:") != std::string::npos);
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


// A report past every bound of the page (analysis/decide/embedded.hpp), each text past its
// budget and made of the characters that escape longest.
DiffReport huge_report(std::size_t rows, std::size_t text) {
  DiffReport r = small_report();
  const std::string quotes(text, '"');  // &quot; in HTML, \" in JSON
  r.control.label = "Control" + quotes;
  r.test.label = "Test" + quotes;
  using model::Device;
  r.rows.clear();
  r.by_launcher.clear();
  for (std::size_t i = 0; i < rows; ++i) {
    const bool gpu = i % 2 == 0;
    // Names that differ at their start, so labels tell them apart at once.
    auto row = make_row(std::to_string(i) + quotes, quotes.substr(0, 4000), gpu ? Device::gpu : Device::cpu,
                        10 + i % 7, 1'000'000 + 977 * static_cast<std::int64_t>(i), 10 + i % 5,
                        1'000'000 + 1'999 * static_cast<std::int64_t>(i % 1013));
    if (gpu) row.launched_by = "L" + std::to_string(i % 400) + quotes;
    // 1,000 step units a side, each different: every sparkline at its most points.
    std::vector<double> c(1000), t(1000);
    for (std::size_t u = 0; u < c.size(); ++u) {
      c[u] = 1'000'000.0 + static_cast<double>((u * 7919 + i) % 997) * 1013.0;
      t[u] = 1'500'000.0 + static_cast<double>((u * 104729 + i) % 991) * 1009.0;
    }
    row.control_samples = model::Samples::dense(c);
    row.test_samples = model::Samples::dense(t);
    r.rows.push_back(std::move(row));
  }
  for (std::size_t k = 0; k < 400; ++k) {
    model::LauncherRow l;
    l.launcher = "L" + std::to_string(k) + quotes;
    l.time.control = 1000.0 * static_cast<double>(k);
    l.time.test = 2000.0 * static_cast<double>(k);
    l.time.significant = true;
    l.time.verdict = model::Verdict::slower;
    for (std::size_t j = 0; j < 30; ++j) l.kernels.push_back({r.rows[(k * 2 + j * 13) % rows].name, "", 0, 0, l.time});
    r.by_launcher.push_back(std::move(l));
  }
  for (auto* side : {&r.control, &r.test}) {
    side->rank_details.clear();
    for (int k = 0; k < 1000; ++k) side->rank_details.push_back({k, 6, 1'000'000 + (side == &r.test ? k : 0), 800'000});
    side->files.resize(1000, side->files.front());
    for (int k = 0; k < 300; ++k) {
      auto d = side->step_details.front();
      d.rank = k;
      side->step_details.push_back(d);
    }
    for (auto& f : side->files) f.path = "runs/" + quotes;
    side->inputs.assign(100, quotes);
    side->meta.gpus.assign(50, quotes);
  }
  r.notes.assign(20, quotes + quotes);
  for (int k = 0; k < 7; ++k) r.sides_differ.push_back({quotes, quotes, quotes});
  for (int k = 0; k < 1000; ++k)
    r.diagnostics.add_sample({model::DiagId::event_corrupt, quotes, 99, quotes, "Control", 1});
  r.diagnostics.add(model::DiagId::event_corrupt, 1000);
  finish(r, 1000);  // --top 1,000: the most the command line allows
  return r;
}

BOOST_AUTO_TEST_CASE(a_report_past_every_bound_stays_under_ten_megabytes) {
  const auto r = huge_report(6000, 20'000);
  const auto html = render(r);
  BOOST_TEST_MESSAGE("HTML report of 6,000 rows of 20,000-character names: " << html.size() << " bytes");
  BOOST_TEST(html.size() < 10'000'000u);
  if (const char* path = std::getenv("TRACEDIFF_HTML_HUGE")) std::ofstream(path, std::ios::binary) << html;
  // What is left out is said, with where the rest is.
  BOOST_TEST(table_rows(html).size() == analysis::detail::k_embedded_rows);
  // Every row shows both sides' spread, each at its bound of 20 points.
  std::size_t full_sparks = 0;
  const auto data = row_data(html);  // kept: the loop reads into it
  for (const auto& k : data.at("rows").as_array()) {
    const auto& sp = k.as_array().at(4);
    full_sparks += sp.is_array() && sp.as_array().at(0).as_array().size() == 20u && sp.as_array().at(1).as_array().size() == 20u;
  }
  BOOST_TEST(full_sparks == analysis::detail::k_embedded_rows);
  BOOST_TEST(html.find("<strong>4,000 rows left out</strong> of this page") != std::string::npos);
  BOOST_TEST(html.find("<code>--csv FILE</code>, <code>--json FILE</code>") != std::string::npos);
  BOOST_TEST(html.find("<strong>350 launching operators left out</strong>") != std::string::npos);
  BOOST_TEST(count(html, "<details class=\"ln ") == analysis::detail::k_embedded_launchers);
  BOOST_TEST(html.find("<strong>800 of 1,000 ranks left out</strong>") != std::string::npos);
  BOOST_TEST(html.find("1,900 more files left out of this list") != std::string::npos);
  BOOST_TEST(html.find("951 more samples left out of this page") != std::string::npos);
  BOOST_TEST(html.find("more, left out of this page: every name is in the JSON output") != std::string::npos);
  // Texts are cut and say so; nothing holds a whole 20,000-character name.
  BOOST_TEST(html.find(std::string(3400, '"')) == std::string::npos);
  BOOST_TEST(html.find(std::string(400, '&') ) == std::string::npos);
  BOOST_TEST(html.find("&quot;&quot;\xE2\x80\xA6") != std::string::npos);
  // 50 bars a chart (--top 1,000 asks for more).
  const auto start = html.find("<script type=\"application/json\" id=\"data\">");
  const auto json = html.substr(start, html.find("</script>", start) - start);
  BOOST_TEST(count(json, "\"label\":") == 3 * analysis::detail::k_chart_rows);
}

BOOST_AUTO_TEST_CASE(the_table_embeds_what_the_page_names_and_the_most_important_rows) {
  // 3,000 rows, --top 150: the lists name rows far down the impact order.
  auto r = huge_report(3000, 10);
  const auto html = render(r);
  const auto rows = table_rows(html);
  BOOST_REQUIRE(rows.size() == analysis::detail::k_embedded_rows);
  BOOST_TEST(html.find("<strong>1,000 rows left out</strong>") != std::string::npos);
  BOOST_TEST(html.find("Operators <small>(the 2,000 with the most impact of 3,000 rows, time per step)</small>") !=
             std::string::npos);
  // Every link from the lists and the charts' rows lands on a row of the table.
  std::set<std::string> ids;
  for (const auto& tr : rows) ids.insert(tr.substr(8, tr.find('"', 8) - 8));
  std::size_t links = 0;
  for (auto p = html.find("href=\"#r"); p != std::string::npos; p = html.find("href=\"#r", p + 1), ++links)
    BOOST_TEST(ids.count(html.substr(p + 7, html.find('"', p + 7) - p - 7)) == 1u);
  BOOST_TEST(links >= 100u);
  const auto& e = r.embedded;
  std::set<std::size_t> in(e.rows.begin(), e.rows.end());
  for (const auto* list : {&r.top_regressions, &r.top_improvements})
    for (std::size_t k = 0; k < list->rows.size() && k < e.list_items; ++k) BOOST_TEST(in.count(list->rows[k]) == 1u);
  for (const auto* chart : {&r.charts.calls, &r.charts.time, &r.charts.self})
    for (auto i : *chart) BOOST_TEST(in.count(i) == 1u);
  // The rest in impact order, the first of it whole: the table never skips a row
  // more important than one it shows, but for those the page names.
  const auto order = r.impact_order();
  std::size_t p = 0;
  while (p < order.size() && in.count(order[p])) ++p;
  BOOST_TEST(p >= analysis::detail::k_embedded_rows - 2 * analysis::detail::k_list_items -
                      3 * analysis::detail::k_chart_rows);
  BOOST_TEST(std::is_sorted(e.rows.begin(), e.rows.end(), [&](std::size_t a, std::size_t b) {
    return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
  }));
  // Filter toggles count the rows shown.
  BOOST_TEST(html.find("<span class=\"n\">2,000</span>") == std::string::npos);
  std::size_t toggled = 0;
  for (const char* ch : {"added", "deleted", "increased", "decreased", "unchanged"}) {
    const auto at = html.find(std::string("value=\"") + ch + "\" checked> " + ch + " <span class=\"n\">");
    BOOST_REQUIRE(at != std::string::npos);
    const auto n = html.find("<span class=\"n\">", at) + 16;
    auto digits = html.substr(n, html.find('<', n) - n);
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    toggled += std::stoul(digits);
  }
  BOOST_TEST(toggled == analysis::detail::k_embedded_rows);
}

BOOST_AUTO_TEST_CASE(a_small_report_leaves_nothing_out) {
  const auto html = render(big_report());
  BOOST_TEST(html.find("rows left out") == std::string::npos);
  BOOST_TEST(html.find("class=\"left-out\"") == std::string::npos);
  BOOST_TEST(html.find("All operators <small>(499 rows, time per step)</small>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(fit_cuts_at_a_code_point_within_its_budget) {
  using output::html::Escaped;
  using output::html::fit;
  BOOST_TEST(fit("aten::mm", 8) == "aten::mm");
  BOOST_TEST(fit("aten::mm", 7) == "aten\xE2\x80\xA6");  // 4 + "…" (3 bytes)
  // Escaped size counts: &quot; is 6 bytes, so 100 quotes in 200 bytes keep 32.
  const auto q = fit(std::string(100, '"'), 200);
  BOOST_TEST(q == std::string(32, '"') + "\xE2\x80\xA6");
  BOOST_TEST(html_escape(q).size() <= 200u);
  // In JSON, < costs 6 (\u003c), " only 2.
  BOOST_TEST(fit(std::string(10, '<'), 20, Escaped::json) == std::string(2, '<') + "\xE2\x80\xA6");
  BOOST_TEST(fit(std::string(10, '"'), 20, Escaped::json) == std::string(10, '"'));
  BOOST_TEST(fit(std::string(11, '"'), 20, Escaped::json) == std::string(8, '"') + "\xE2\x80\xA6");
  // Control characters are escaped visibly (util/sanitize): up to 6 bytes each.
  std::string bidi;
  for (int i = 0; i < 10; ++i) bidi += "\xE2\x80\xAE";  // U+202E, shown as \u202e
  BOOST_TEST(fit(bidi, 20) == "\xE2\x80\xAE\xE2\x80\xAE\xE2\x80\xA6");
  BOOST_TEST(html_escape(fit(bidi, 20)).size() <= 20u);
  // Never inside a code point; invalid bytes as U+FFFD.
  BOOST_TEST(fit("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 7) == "\xC3\xA9\xC3\xA9\xE2\x80\xA6");
  BOOST_TEST(fit("a\xFF" "b", 10) == "a\xEF\xBF\xBD" "b");
  // A 1,807-character CUTLASS name (as tracegen --long-names writes them, with 60 angle
  // brackets: 1,987 bytes escaped) fits whole on hover.
  std::string cutlass = "void cutlass::Kernel2<cutlass::gemm::kernel::GemmUniversal<";
  while (cutlass.size() < 1807) cutlass += "cutlass::gemm::threadblock::MmaMultistage<float>, ";
  cutlass.resize(1807);
  BOOST_TEST(fit(cutlass, output::html::k_name_bytes) == cutlass);
}

BOOST_AUTO_TEST_SUITE_END()
