#include "support/fuzz_entry.hpp"

#include <boost/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "analysis/compare.hpp"
#include "output/html_writer.hpp"
#include "output/human_writers.hpp"
#include "output/summary_writer.hpp"
#include "output/writers.hpp"
#include "reading/fast_reader.hpp"
#include "reading/summary_reader.hpp"
#include "reading/trace_reader.hpp"
#include "support/reader_diff.hpp"
#include "util/errors.hpp"
#include "util/escape.hpp"
#include "util/sanitize.hpp"

namespace tracediff::fuzz {

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}
#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) fail(#cond); \
  } while (0)

reading::ReadOptions read_options(bool hta) {
  reading::ReadOptions options;
  options.hta_compat = hta;
  return options;
}

// What the program does: the fast path, else the tolerant reader.
reading::ReadResult read(std::string_view bytes, bool hta) {
  return reading::read_trace_bytes(bytes, "fuzz.json", read_options(hta));
}

// The tolerant reader alone, and the fast path, which must agree with it or give up.
reading::ReadResult read_both_ways(std::string_view bytes, bool hta) {
  reading::ByteSource source(bytes);
  auto tolerant = reading::read_trace(source, "fuzz.json", read_options(hta));
  reading::ByteSource again(bytes);
  // A small window, varied by input, so that tokens cross its edges.
  const std::size_t window = 1 + bytes.size() % 251;
  if (const auto fast = reading::read_trace_fast(again, "fuzz.json", read_options(hta), window)) {
    const auto difference = test::first_difference(*fast, tolerant);
    if (!difference.empty()) {
      std::fprintf(stderr, "fast path: %s\n", difference.c_str());
      fail("the fast path read the input differently from the tolerant reader");
    }
  }
  return tolerant;
}

void check(const reading::ReadResult& r, bool hta) {
  const auto& f = r.file;
  FUZZ_CHECK(f.total_events >= f.events.size());
  if (hta) FUZZ_CHECK(f.hta.size() == f.events.size());
  for (const auto& e : f.events) {
    FUZZ_CHECK(e.name < f.pool.size() && e.category < f.pool.size());
    FUZZ_CHECK(e.pid < f.pool.size() && e.tid < f.pool.size());
    if (!hta) FUZZ_CHECK(e.dur_ns >= 0);  // negative durations are clamped
  }
  if (r.skipped) FUZZ_CHECK(f.diagnostics.count(*r.skipped) >= 1);
  if (!r.skipped) FUZZ_CHECK(!f.events.empty());
}

model::TraceSet as_set(const char* label, reading::ReadResult r) {
  model::TraceSet set;
  set.label = label;
  set.inputs = {"fuzz.json"};
  if (r.skipped) {
    set.diagnostics.merge(r.file.diagnostics);
  } else {
    // What read_trace_sets does for a file without distributedInfo.rank.
    if (r.file.rank_source != model::RankSource::distributed_info) r.file.rank = 0;
    set.files.push_back(std::move(r.file));
  }
  return set;
}

// What a person reads holds no raw control character (util/sanitize) and is valid
// UTF-8, whatever the names: line breaks are the writer's own (and in HTML, a tab is
// white space that html_escape keeps).
bool safe_for_humans(std::string_view s, bool tabs = false) {
  for (std::size_t i = 0; i < s.size();) {
    const auto n = utf8_sequence_length(s, i);
    if (n == 0) return false;
    if (control_length(s, i) && s[i] != '\n' && !(tabs && s[i] == '\t')) return false;
    i += n;
  }
  return true;
}

// Every writer, as the CLI runs them; `html` costs ~50 ms under ASan, so only some
// inputs go through it.
void write_all(const model::DiffReport& report, bool html_too) {
  std::ostringstream csv, json, html, markdown, terminal;
  output::write_csv(report, csv);
  output::write_json(report, json);
  boost::json::error_code ec;
  // The JSON output is valid JSON (and UTF-8) whatever the names; the call tree nests
  // up to k_tree_depth nodes deep, an object and an array each.
  boost::json::parse_options deep;
  deep.max_depth = 2 * tracediff::model::k_tree_depth + 16;
  boost::json::parse(json.str(), ec, {}, deep);
  FUZZ_CHECK(!ec);
  if (html_too) {
    output::write_html(report, html);
    FUZZ_CHECK(html.str().find("</html>") != std::string::npos);
  }
  output::MarkdownOptions mo;
  mo.max_bytes = 4000;
  output::write_markdown(report, mo, markdown);
  FUZZ_CHECK(markdown.str().size() <= mo.max_bytes);
  FUZZ_CHECK(safe_for_humans(markdown.str()));
  FUZZ_CHECK(safe_for_humans(json.str()));
  if (html_too) FUZZ_CHECK(safe_for_humans(html.str(), true));
  output::TerminalOptions to;
  output::write_terminal_summary(report, to, terminal);
  FUZZ_CHECK(safe_for_humans(terminal.str()));
  std::ostringstream tty_csv;
  output::write_csv(report, tty_csv, {.terminal = true});
  for (std::size_t i = 0; i < tty_csv.str().size(); ++i)  // CRLF rows: CR only before LF
    if (tty_csv.str()[i] == '\r') FUZZ_CHECK(tty_csv.str()[i + 1] == '\n');
  std::string rows = tty_csv.str();
  std::erase(rows, '\r');
  FUZZ_CHECK(safe_for_humans(rows));
}

bool same(const model::SideStats& a, const model::SideStats& b) {
  return a.count == b.count && a.total_ns == b.total_ns && a.self_ns == b.self_ns;
}

std::string summary_text(const model::SetSummary& s) {
  std::ostringstream out;
  output::write_summary(s, out);
  return out.str();
}

}  // namespace

void fuzz_reader(std::string_view bytes) {
  check(read_both_ways(bytes, false), false);
  check(read_both_ways(bytes, true), true);
}

void fuzz_pipeline(std::string_view bytes) {
  std::string_view control = bytes, test = bytes;
  if (const auto p = bytes.find(k_split); p != std::string_view::npos) {
    control = bytes.substr(0, p);
    test = bytes.substr(p + k_split.size());
  }
  const unsigned variant = static_cast<unsigned>(bytes.size() % 12);
  analysis::CompareOptions options;
  options.device = variant % 3 == 0   ? analysis::DeviceFilter::all
                   : variant % 3 == 1 ? analysis::DeviceFilter::cpu
                                      : analysis::DeviceFilter::gpu;
  options.short_names = (variant / 3) % 2 == 1;
  options.hta_compat = variant / 6 == 1;

  auto c = read(control, options.hta_compat);
  auto t = read(test, options.hta_compat);
  check(c, options.hta_compat);
  check(t, options.hta_compat);
  const auto control_set = as_set("Control", std::move(c));
  const auto test_set = as_set("Test", std::move(t));
  if (control_set.files.empty() || test_set.files.empty()) return;  // the CLI stops here (exit 1)

  model::DiffReport report;
  try {
    // Every --launcher level, as the CLI would pass it.
    const auto launcher = static_cast<analysis::LauncherLevel>((bytes.size() / 36) % 3);
    report = analysis::compare_traces(control_set, test_set, options, {.launcher = launcher});
  } catch (const UsageError&) {
    return;  // e.g. --hta-compat on traces without the step it needs: exit 2
  } catch (const Fatal&) {
    return;  // exit 1 with a message
  }

  // HTML costs ~50 ms under ASan, most of it the fixed Chart.js and CSP hashing, so
  // only a third of the inputs (by size) go through it.
  write_all(report, (bytes.size() / 12) % 3 == 0);
}

// A comparison reads summaries part by part (reading::read_summary_file's `parts`): it
// must accept what the whole read accepts, refuse what it refuses, and, its rows read
// back, hold the same summary.
static void check_parts(std::string_view bytes, const model::SetSummary* whole) {
  const auto path = (std::filesystem::temp_directory_path() /
                     ("tracediff-fuzz-" + std::to_string(::getpid()) + ".tdsum.json")).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::optional<model::SetSummary> parts;
  try {
    parts = reading::read_summary_file(path, nullptr, nullptr, true);
  } catch (const Fatal& e) {
    FUZZ_CHECK(std::string_view(e.what()).starts_with(path + ": "));
  }
  FUZZ_CHECK(parts.has_value() == (whole != nullptr));
  if (parts && whole) {  // the rows are read again from the file: it is removed after
    for (auto& f : parts->files) FUZZ_CHECK(model::WithRows(f)->cells.size() >= f.cells.size());
    model::undefer_rows(*parts);
    FUZZ_CHECK(summary_text(*parts) == summary_text(*whole));
  }
  std::filesystem::remove(path);
}

void fuzz_summary(std::string_view bytes) {
  const std::string path = "fuzz.tdsum.json";
  model::SetSummary summary;
  try {
    summary = reading::read_summary_bytes(bytes, path);
  } catch (const Fatal& e) {
    FUZZ_CHECK(std::string_view(e.what()).starts_with(path + ": "));  // the message names the file
    check_parts(bytes, nullptr);
    return;
  }
  check_parts(bytes, &summary);

  // What the reader accepts, the writer writes back and the reader takes again, and
  // from then on the bytes stay the same (the first writing may normalise: spacing,
  // unknown diagnostics dropped).
  const auto once = summary_text(summary);
  model::SetSummary again;
  try {
    again = reading::read_summary_bytes(once, path);
  } catch (const Fatal& e) {
    std::fprintf(stderr, "%s\n", e.what());
    fail("the summary writer's output of an accepted summary does not read back");
  }
  FUZZ_CHECK(summary_text(again) == once);

  // What cli::load_set_summary does with one summary, then the summary against itself.
  std::stable_sort(summary.files.begin(), summary.files.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
  });
  const auto report = analysis::compare_summaries(summary, summary, analysis::CompareOptions{});
  // Nothing differs from itself.
  for (const auto& row : report.rows) {
    FUZZ_CHECK(same(row.control, row.test));
    FUZZ_CHECK(row.change == model::Change::unchanged);
    FUZZ_CHECK(!row.significant && row.verdict != model::Verdict::slower && row.verdict != model::Verdict::faster);
  }
  for (const auto c : {model::Change::added, model::Change::deleted, model::Change::increased,
                       model::Change::decreased})
    FUZZ_CHECK(report.ops_diff.of(c).empty());
  for (const auto& l : report.by_launcher) FUZZ_CHECK(l.control_ns == l.test_ns && !l.time.significant);
  for (const auto& f : report.headline) FUZZ_CHECK(!f.value.significant);
  FUZZ_CHECK(report.top_regressions.rows.empty() || report.top_regressions.raw);
  FUZZ_CHECK(report.control.units == report.test.units);
  FUZZ_CHECK(report.control.step_times.mean_ns == report.test.step_times.mean_ns);
  FUZZ_CHECK(same(report.control.cpu_total, report.test.cpu_total));
  FUZZ_CHECK(same(report.control.gpu_total, report.test.gpu_total));
  write_all(report, (bytes.size() / 12) % 3 == 0);
}

}  // namespace tracediff::fuzz
