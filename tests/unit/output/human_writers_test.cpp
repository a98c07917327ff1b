// The terminal summary and the Markdown summary on hand-built reports: hostile
// names, the 65,000-character cap, the 80-column width.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "analysis/decide/decide.hpp"
#include "analysis/gate/gate.hpp"
#include "output/human_writers.hpp"
#include "support/report_support.hpp"

using namespace tracediff;
using output::detail::display_width;

namespace {

model::DiffRow row(const std::string& name, model::Device device, double control_ns, double test_ns) {
  return test::steady_row(name, device, control_ns, test_ns, 4);
}

// Six steps a side: step time 77.5 ms -> 87.0 ms, GPU busy 50 ms -> 51 ms.
model::DiffReport base_report() { return test::six_step_report(77'500'000, 87'000'000, 50'000'000, 51'000'000); }

// What analysis decides on a finished report: order, groups, headline, top lists, labels.
void finish(model::DiffReport& r, int top = 10) {
  r.by_impact.clear();
  for (auto& g : r.ops_diff.groups) g.clear();
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    r.by_impact.push_back(i);
    r.ops_diff.groups[static_cast<int>(r.rows[i].change)].push_back(r.rows[i].name);
  }
  r.headline.clear();
  r.breakdown.clear();
  r.rank_rows.clear();
  r.notes.clear();
  r.sides_differ.clear();
  r.top_launchers.clear();
  analysis::CompareOptions o;
  o.top = top;
  analysis::detail::decide(r, o);
}

// Hostile names: a table-breaking pipe, backticks, HTML and script, a newline, an
// escape sequence, a GitHub mention.
model::DiffReport hostile_report() {
  auto r = base_report();
  r.rows.push_back(row("a|b", model::Device::cpu, 1'000'000, 2'000'000));
  r.rows.push_back(row("x`y``z", model::Device::cpu, 1'000'000, 1'900'000));
  r.rows.push_back(row("<script>alert(1)</script>", model::Device::gpu, 1'000'000, 1'800'000));
  r.rows.push_back(row("line\nbreak | `` <img src=x onerror=alert(1)>", model::Device::gpu, 1'000'000, 1'700'000));
  r.rows.push_back(row("esc\x1b[31mred\x1b[0m", model::Device::cpu, 1'000'000, 1'600'000));
  r.rows.push_back(row("faster @octocat", model::Device::cpu, 2'000'000, 1'000'000));
  finish(r);
  return r;
}

std::string markdown(const model::DiffReport& r, output::MarkdownOptions o = {}) {
  std::ostringstream out;
  output::write_markdown(r, o, out);
  return out.str();
}

std::string terminal(const model::DiffReport& r, output::TerminalOptions o = {}) {
  std::ostringstream out;
  output::write_terminal_summary(r, o, out);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The table rows of a GFM document: lines that start with '|'.
std::vector<std::string> table_rows(const std::string& md) {
  std::vector<std::string> rows;
  for (const auto& l : lines_of(md))
    if (!l.empty() && l.front() == '|') rows.push_back(l);
  return rows;
}

// Cells of a GFM table row, split on unescaped '|' (what a GFM parser does, code spans included).
std::size_t cell_count(const std::string& row) {
  std::size_t pipes = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\') {
      ++i;
      continue;
    }
    if (row[i] == '|') ++pipes;
  }
  return pipes - 1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(human_writers)

BOOST_AUTO_TEST_CASE(markdown_escapes_hostile_names) {
  const auto md = markdown(hostile_report());
  // Every row of the top tables keeps its nine cells (the last: where it was called from).
  bool saw_top = false;
  for (const auto& r : table_rows(md)) {
    if (r.find("| Name |") != std::string::npos) saw_top = true;  // after the numbers
    if (r.find("cpu |") != std::string::npos || r.find("gpu |") != std::string::npos)
      BOOST_TEST(cell_count(r) == 9u, r);
  }
  BOOST_TEST(saw_top);
  // No raw HTML: every '<' of a name is inside a code span (so GitHub shows it as text).
  BOOST_TEST(md.find("`<script>alert(1)</script>`") != std::string::npos, md);
  BOOST_TEST(md.find("a\\|b") != std::string::npos);
  // Backticks in a name get a longer fence.
  BOOST_TEST(md.find("```x`y``z```") != std::string::npos, md);
  // The newline does not split the row (it is shown as \n); the escape byte is gone.
  BOOST_TEST(md.find("line\\nbreak") != std::string::npos, md);
  BOOST_TEST(md.find('\x1b') == std::string::npos);
  // Code spans cannot mention anyone; the name is there.
  BOOST_TEST(md.find("`faster @octocat`") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(markdown_has_headline_groups_and_problems) {
  auto r = hostile_report();
  r.diagnostics.report(model::DiagId::file_truncated, "rank0.json", 0, "cut");
  r.diagnostics.add(model::DiagId::event_corrupt, 3);
  const auto md = markdown(r);
  BOOST_TEST(md.find("| Per step (mean) | Control | Test |") != std::string::npos, md);
  BOOST_TEST(md.find("| Step time | 77.5 ms | 87.0 ms | +9.50 ms | +12.3% \xE2\x96\xB2 |") != std::string::npos, md);
  BOOST_TEST(md.find("| GPU busy | 50.0 ms | 51.0 ms | +1.00 ms | +2.0% \xE2\x89\x88 |") != std::string::npos, md);
  BOOST_TEST(md.find("**By count:** 0 added") != std::string::npos);
  BOOST_TEST(md.find("#### Regressions (median per step)") != std::string::npos);
  BOOST_TEST(md.find("#### Improvements (median per step)") != std::string::npos);
  BOOST_TEST(md.find("#### Input problems (4)") != std::string::npos, md);
  BOOST_TEST(md.find("| `file_truncated` | 1 |") != std::string::npos);
  BOOST_TEST(md.find("| `event_corrupt` | 3 |") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(markdown_escapes_labels_and_gate_details) {
  auto r = hostile_report();
  r.control.label = "<b>main</b> | @team";
  r.gate = analysis::evaluate_gate({analysis::parse_gate_condition("op:a|b>+10%"),
                                    analysis::parse_gate_condition("deleted>0")},
                                   r);
  r.gate_heading = analysis::gate_heading(r.gate);
  const auto md = markdown(r);
  BOOST_TEST(md.find("<b>") == std::string::npos);
  BOOST_TEST(md.find("\\<b\\>main\\</b\\> \\| @\xE2\x80\x8Bteam") != std::string::npos, md);
  BOOST_TEST(md.find("Gate failed: 1 of 2") != std::string::npos, md);
  BOOST_TEST(md.find("- \xE2\x9D\x8C `op:a|b>+10%`: fired: a\\|b +100.0% (1.00 ms \xE2\x86\x92 2.00 ms per step)") !=
                 std::string::npos,
             md);
  BOOST_TEST(md.find("- \xE2\x9C\x85 `deleted>0`: passed: 0 deleted") != std::string::npos, md);
}

// A long note is printed whole, never cut mid-word (issue #25: "…ut of the top lists").
BOOST_AUTO_TEST_CASE(markdown_prints_notes_whole) {
  auto r = hostile_report();
  std::string note = "A note of many words";
  while (note.size() < 900) note += ", and more words to say";
  note += ", and its last words.";
  r.notes.push_back(note);
  const auto md = markdown(r);
  BOOST_TEST(md.find("- " + note + "\n") != std::string::npos, md);
}

BOOST_AUTO_TEST_CASE(markdown_stays_under_65000_characters) {
  // 100k rows with 1 KB names, half new and half gone: every list is long.
  auto r = base_report();
  const std::string filler(1000, 'k');
  for (int i = 0; i < 100'000; ++i) {
    auto x = row("kernel_" + std::to_string(i) + "_" + filler + "|`<b>", model::Device::gpu, i % 2 ? 0 : 1000 + i,
                 i % 2 ? 1000 + i : 0);
    x.change = i % 2 ? model::Change::added : model::Change::deleted;
    r.rows.push_back(std::move(x));
  }
  for (int top : {10, 1000}) {
    finish(r, top);
    const auto md = markdown(r);
    BOOST_TEST(md.size() <= 65'000u, md.size());
    BOOST_TEST(md.size() > 10'000u);  // trimmed, not emptied
    BOOST_TEST(md.find("more rows_") != std::string::npos);
    BOOST_TEST(md.find("#### Regressions") != std::string::npos);
    BOOST_TEST(md.find("#### Improvements") != std::string::npos);
    BOOST_TEST(md.find("Input problems") != std::string::npos);
    BOOST_TEST(md.find("</details>") != std::string::npos);
    BOOST_TEST(md.find("<sub>tracediff") != std::string::npos);
    for (const auto& tr : table_rows(md))
      if (tr.find("kernel_") != std::string::npos) BOOST_TEST(cell_count(tr) == 9u);
  }
  // A tiny cap still holds.
  output::MarkdownOptions tiny;
  tiny.max_bytes = 2'000;
  BOOST_TEST(markdown(r, tiny).size() <= 2'000u);
}

BOOST_AUTO_TEST_CASE(terminal_fits_80_columns) {
  auto r = hostile_report();
  r.rows.push_back(row(std::string(300, 'n') + "_tail", model::Device::gpu, 1'000, 999'000'000'000));
  r.rows.push_back(row("\xE6\xBC\xA2\xE5\xAD\x97\xE6\xBC\xA2\xE5\xAD\x97" + std::string(100, 'w'), model::Device::cpu,
                       5'000, 4'000));
  finish(r);
  const auto text = terminal(r);
  for (const auto& l : lines_of(text)) BOOST_TEST(display_width(l) <= 80u, l);
  BOOST_TEST(text.find('\x1b') == std::string::npos);  // no colour unless asked; no escapes from names
  BOOST_TEST(text.find("Per step (mean)") != std::string::npos, text);
  BOOST_TEST(text.find("Step time") != std::string::npos);
  BOOST_TEST(text.find("+12.3%") != std::string::npos);
  BOOST_TEST(text.find("By count:") != std::string::npos);
  BOOST_TEST(text.find("Regressions (median per step)") != std::string::npos);
  BOOST_TEST(text.find("Improvements (median per step)") != std::string::npos);
  const auto tail = text.find("_tail");  // elided in the middle
  BOOST_TEST(tail != std::string::npos);
  BOOST_TEST(text.rfind("nnnn\xE2\x80\xA6", tail) != std::string::npos, text);
  BOOST_TEST(text.find("faster @octocat") != std::string::npos);

  // Colours when asked; the visible width does not change.
  output::TerminalOptions o;
  o.color = true;
  const auto coloured = terminal(r, o);
  BOOST_TEST(coloured.find("\x1b[31m") != std::string::npos);
  BOOST_TEST(coloured.find("\x1b[32m") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(terminal_top_rows_are_the_decided_lists) {
  auto r = base_report();
  for (int i = 0; i < 30; ++i) r.rows.push_back(row("op" + std::to_string(i), model::Device::cpu, 1000, 1000 + (30 - i)));
  // Larger, but within noise: counted, not listed.
  auto noisy = row("noisy", model::Device::cpu, 1000, 2000);
  noisy.significant = false;
  noisy.verdict = model::Verdict::same;
  r.rows.insert(r.rows.begin(), noisy);
  finish(r);
  BOOST_TEST(r.top_regressions.rows.size() == 10u);
  BOOST_TEST(r.top_regressions.more == 20u);
  BOOST_TEST(r.top_regressions.within_noise == 1u);
  BOOST_TEST(r.rows[r.top_regressions.rows.front()].name == "op0");
  BOOST_TEST(r.top_improvements.rows.empty());
  const auto text = terminal(r);
  BOOST_TEST(text.find("Regressions (median per step): top 10 of 30 significant; 1 more within noise") != std::string::npos, text);
  BOOST_TEST(text.find("noisy") == std::string::npos);
  BOOST_TEST(text.find("op10") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(helpers) {
  using output::detail::elide_middle;
  using output::detail::terminal_safe;
  BOOST_TEST(terminal_safe("a\x1b[1mb\tc\x7f") == "a\\x1b[1mb\\tc\\x7f");
  BOOST_TEST(terminal_safe("\xC2\x9B" "x") == "\\u009bx");  // C1 CSI
  BOOST_TEST(terminal_safe("\xff") == "\xEF\xBF\xBD");
  BOOST_TEST(display_width("abc") == 3u);
  BOOST_TEST(display_width("\xC2\xB5s") == 2u);
  BOOST_TEST(display_width("\xE6\xBC\xA2") == 2u);
  BOOST_TEST(elide_middle("short", 10) == "short");
  const auto e = elide_middle("abcdefghijklmnopqrstuvwxyz", 10);
  BOOST_TEST(display_width(e) <= 10u);
  BOOST_TEST(e.find("\xE2\x80\xA6") != std::string::npos);
  BOOST_TEST(e.front() == 'a');
  BOOST_TEST(e.back() == 'z');
}

BOOST_AUTO_TEST_SUITE_END()
