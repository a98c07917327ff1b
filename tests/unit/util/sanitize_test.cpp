// The one sanitiser (util/sanitize) and its users: every control character class
// escaped visibly, invalid UTF-8 replaced, JSON and HTML without raw controls, the
// CSV formula guard, and Markdown in which no name becomes a link, an image or a
// mention.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "analysis/decide/decide.hpp"
#include "analysis/gate/gate.hpp"
#include "output/human_writers.hpp"
#include "output/writers.hpp"
#include "support/report_support.hpp"
#include "support/sanitize_support.hpp"
#include "util/escape.hpp"
#include "util/sanitize.hpp"

using namespace tracediff;

namespace {

// A report whose rows carry the hostile names, as analysis would finish it.
model::DiffReport report_with(const std::vector<std::string>& names) {
  auto r = test::six_step_report(10'000'000, 12'000'000);
  double ns = 1'000'000;
  for (std::size_t i = 0; i < names.size(); ++i, ns += 10'000) {
    // Alternately slower, faster, added and deleted: every list of every view.
    const double c = i % 4 == 2 ? 0 : ns, t = i % 4 == 3 ? 0 : i % 4 == 1 ? ns / 2 : ns * 2;
    auto row = test::steady_row(names[i], i % 2 ? model::Device::gpu : model::Device::cpu, c, t, 3);
    row.change = c == 0 ? model::Change::added : t == 0 ? model::Change::deleted
                 : t > c ? model::Change::increased : model::Change::decreased;
    row.launched_by = names[(i + 1) % names.size()];
    r.rows.push_back(row);
  }
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    r.by_impact.push_back(i);
    r.ops_diff.groups[static_cast<int>(r.rows[i].change)].push_back(r.rows[i].name);
  }
  analysis::CompareOptions o;
  analysis::detail::decide(r, o);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sanitize)

BOOST_AUTO_TEST_CASE(every_control_class_is_escaped_visibly) {
  BOOST_TEST(display_safe("aten::mm") == "aten::mm");
  BOOST_TEST(display_safe("caf\xC3\xA9 \xE6\xBC\xA2 \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xE6\xBC\xA2 \xF0\x9F\x98\x80");
  BOOST_TEST(display_safe(std::string("a\0b", 3)) == "a\\x00b");
  BOOST_TEST(display_safe("\x1b[2J\x1b]52;c;ZXZpbA==\x07") == "\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07");
  BOOST_TEST(display_safe("x\ntracediff: error: forged") == "x\\ntracediff: error: forged");
  BOOST_TEST(display_safe("\r\t\x7f") == "\\r\\t\\x7f");
  BOOST_TEST(display_safe("\xC2\x80\xC2\x85\xC2\x9B" "31m") == "\\u0080\\u0085\\u009b31m");  // C1, CSI
  BOOST_TEST(display_safe("\xC2\xA0") == "\xC2\xA0");                                        // NBSP is text
  // Bidi controls and separators: U+061C, U+200E/F, U+202A-E, U+2066-9, U+2028/9.
  BOOST_TEST(display_safe("\xD8\x9C\xE2\x80\x8E\xE2\x80\x8F") == "\\u061c\\u200e\\u200f");
  BOOST_TEST(display_safe("abc\xE2\x80\xAE" "fdp.exe") == "abc\\u202efdp.exe");
  BOOST_TEST(display_safe("\xE2\x80\xAA\xE2\x80\xAB\xE2\x80\xAC\xE2\x80\xAD") == "\\u202a\\u202b\\u202c\\u202d");
  BOOST_TEST(display_safe("\xE2\x81\xA6\xE2\x81\xA7\xE2\x81\xA8\xE2\x81\xA9") == "\\u2066\\u2067\\u2068\\u2069");
  BOOST_TEST(display_safe("\xE2\x80\xA8\xE2\x80\xA9") == "\\u2028\\u2029");
  BOOST_TEST(display_safe("\xE2\x80\x8B\xE2\x81\xA0") == "\xE2\x80\x8B\xE2\x81\xA0");  // ZWSP, WJ: not controls
  // Invalid UTF-8 (a stray byte, a cut sequence, an overlong NUL) becomes U+FFFD.
  BOOST_TEST(display_safe("a\xff") == "a\xEF\xBF\xBD");
  BOOST_TEST(display_safe("\xE2\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  BOOST_TEST(display_safe("\xC0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  // A backslash stays one: a path or a name reads as it is.
  BOOST_TEST(display_safe("torch\\cuda") == "torch\\cuda");
  std::string out = "x";
  display_safe_append(out, "\x1b");
  BOOST_TEST(out == "x\\x1b");
}

BOOST_AUTO_TEST_CASE(nothing_unsafe_is_left) {
  // Every byte value, alone and after a lead byte: the result never holds a control.
  for (int a = 0; a < 256; ++a)
    for (int b : {-1, 0x80, 0x85, 0x9B, 0x9C, 0xA8, 0xAE}) {
      std::string s(1, static_cast<char>(a));
      if (b >= 0) s += static_cast<char>(b);
      const auto safe = display_safe(s);
      BOOST_TEST(test::unsafe_for_humans(safe).empty(), "byte " << a << " " << b);
    }
  BOOST_TEST(!test::unsafe_for_humans("\xE2\x80\xAE").empty());
  BOOST_TEST(!test::unsafe_for_humans("a\nb").empty());
  BOOST_TEST(test::unsafe_for_humans("a\\nb\xE2\x80\xA6").empty());
}

BOOST_AUTO_TEST_CASE(exact_form_keeps_different_names_apart) {
  BOOST_TEST(display_exact("k\xff") == "k\\xff");
  BOOST_TEST(display_exact("k\\xff") == "k\\\\xff");
  BOOST_TEST(display_exact("\x1b") == "\\x1b");
  BOOST_TEST(display_exact("\x1b") != display_exact("\\x1b"));
  BOOST_TEST(display_exact("caf\xC3\xA9") == "caf\xC3\xA9");
}

BOOST_AUTO_TEST_CASE(message_lines_are_bounded) {
  const std::string name(1 << 20, 'n');
  const auto m = message_safe("f.json: name " + name + "\x1b is too long: the end");
  BOOST_TEST(m.size() <= 4096u);
  BOOST_TEST(m.rfind("f.json: name nnn", 0) == 0u);
  BOOST_TEST(m.find("\xE2\x80\xA6") != std::string::npos);
  BOOST_TEST(m.ends_with("\\x1b is too long: the end"));
  // Cut between code points, never inside one.
  const auto w = message_safe(std::string(3000, 'a') + std::string(2000, '\x1b'), 100);
  BOOST_TEST(w.size() <= 100u);
  BOOST_TEST(message_safe("short \x07") == "short \\x07");
}

BOOST_AUTO_TEST_CASE(json_strings_hold_no_raw_control_and_mean_the_same) {
  const std::string raw = "a\x1b[31m\x7f\xC2\x9B\xE2\x80\xAE\xE2\x81\xA6\xD8\x9C\xE2\x80\xA8z\n\"<&>";
  const auto j = json_string(raw);
  BOOST_TEST(test::unsafe_for_humans(j).empty(), j);
  BOOST_TEST(j.find("\\u001b") != std::string::npos);
  BOOST_TEST(j.find("\\u007f") != std::string::npos);
  BOOST_TEST(j.find("\\u009b") != std::string::npos);
  BOOST_TEST(j.find("\\u202e") != std::string::npos);
  BOOST_TEST(boost::json::parse(j).as_string() == raw);  // the same string to a JSON reader
}

BOOST_AUTO_TEST_CASE(html_text_shows_controls_visibly) {
  BOOST_TEST(html_escape("a\x1b[2Jb") == "a\\x1b[2Jb");
  BOOST_TEST(html_escape("a\nb\rc\td") == "a\\nb\\rc\td");  // tab is white space
  BOOST_TEST(html_escape("r\xE2\x80\xAEl<") == "r\\u202el&lt;");
  BOOST_TEST(html_escape("\xC2\x9B" "x\xff") == "\\u009bx\xEF\xBF\xBD");
  BOOST_TEST(html_escape("caf\xC3\xA9 & \"q\"") == "caf\xC3\xA9 &amp; &quot;q&quot;");
}

BOOST_AUTO_TEST_CASE(csv_text_cells_are_guarded_against_formulas) {
  BOOST_TEST(csv_formula_guard("=1+2") == "'=1+2");
  for (const std::string& lead : std::vector<std::string>{"=", "+", "-", "@", "\t", "\r", std::string(1, '\0'),
                                 "\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\xA0"})  // ＝ ＋ － ＠
    BOOST_TEST(csv_formula_guard(lead + "x") == "'" + lead + "x");
  BOOST_TEST(csv_formula_guard("\xEF\xBC\xA1x") == "\xEF\xBC\xA1x");  // Ａ: a letter, not a lead
  BOOST_TEST(csv_formula_guard("aten::mm") == "aten::mm");
  BOOST_TEST(csv_formula_guard("") == "");
  BOOST_TEST(csv_formula_guard("a=b") == "a=b");
  // With RFC 4180 quoting after the guard; on a terminal, escapes instead of controls.
  BOOST_TEST(csv_text_field("=HYPERLINK(\"http://e\",\"x\")", false) == "\"'=HYPERLINK(\"\"http://e\"\",\"\"x\"\")\"");
  BOOST_TEST(csv_text_field("\rx", false) == "\"'\rx\"");
  BOOST_TEST(csv_text_field("\rx", true) == "\\rx");
  BOOST_TEST(csv_text_field("a\x1b]52;c;eA==\x07", true) == "a\\x1b]52;c;eA==\\x07");
  BOOST_TEST(csv_text_field("a\x1b", false) == "a\x1b");  // a file keeps the name as it is
  BOOST_TEST(csv_text_field("-\xff", false) == "'-\xEF\xBF\xBD");
}

BOOST_AUTO_TEST_CASE(csv_writer_guards_every_text_column_not_numbers) {
  auto r = report_with({"=cmd|' /C calc'!A0", "+evil", "@SUM(A1)", "-x", "\tlead", "plain"});
  r.rows[0].category = "=cat";
  std::ostringstream out;
  output::write_csv(r, out);
  const auto csv = out.str();
  BOOST_TEST(csv.find("\r\n'=cmd|' /C calc'!A0,'=cat,") != std::string::npos, csv);  // name, category
  BOOST_TEST(csv.find("'+evil,") != std::string::npos);
  BOOST_TEST(csv.find(",'+evil,,,,") != std::string::npos);  // launched_by of the row before it
  BOOST_TEST(csv.find("'@SUM(A1)") != std::string::npos);
  BOOST_TEST(csv.find("'\tlead") != std::string::npos);
  // Every line: no cell other than a guarded one starts with = + @; '-' only on numbers.
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    BOOST_TEST(line.find(",=") == std::string::npos, line);
    BOOST_TEST(line.find(",@") == std::string::npos, line);
    BOOST_TEST(line.find(",+") == std::string::npos, line);
  }
  BOOST_TEST(csv.find(",-") != std::string::npos);  // negative numbers stay numbers

  // --hta-compat: the labels in the header too; HTA's + - = symbols stay as HTA writes them.
  r.hta_compat = true;
  r.control.label = "=ctl";
  r.test.label = "@tst";
  out.str("");
  output::write_csv(r, out);
  const auto hta = out.str();
  BOOST_TEST(hta.rfind("name,'=ctl_counts,'=ctl_total_duration,'@tst_counts,'@tst_total_duration,", 0) == 0u, hta);
  BOOST_TEST(hta.find(",+\r\n") != std::string::npos);

  // On a terminal the controls are escaped too.
  auto t = report_with({"\x1b[2Jname\nforged", "ok"});
  out.str("");
  output::write_csv(t, out, {.terminal = true});
  BOOST_TEST(test::unsafe_for_humans(out.str(), true).empty());
  BOOST_TEST(out.str().find("\\x1b[2Jname\\nforged") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(terminal_summary_shows_hostile_names_escaped) {
  auto r = report_with(test::hostile_names());
  r.control.label = "ctl\x1b[2J";
  r.notes.push_back("file rank\x1b]52;c;eA==\x07.json: a note");
  r.sides_differ.push_back({"GPU", "A100\xE2\x80\xAE", "H100\n"});
  r.gate = analysis::evaluate_gate({analysis::parse_gate_condition("any-op:*>+1%")}, r);
  r.gate_heading = analysis::gate_heading(r.gate);
  std::ostringstream out;
  output::write_terminal_summary(r, {}, out);
  BOOST_TEST(test::unsafe_for_humans(out.str(), true).empty(), out.str());
  BOOST_TEST(out.str().find("ctl\\x1b[2J") != std::string::npos);
  BOOST_TEST(out.str().find("A100\\u202e") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(markdown_never_links_a_name) {
  auto r = report_with(test::hostile_names());
  r.control.label = "http://ctl.example";
  r.test.label = "www.test.example";
  r.notes.push_back("see https://note.example and @octocat and #42 and GH-43");
  r.sides_differ.push_back({"GPU", "[g](http://g.example)", "<http://h.example>"});
  r.gate = analysis::evaluate_gate({analysis::parse_gate_condition("any-op:*>+1%"),
                                    analysis::parse_gate_condition("added>0")},
                                   r);
  r.gate_heading = analysis::gate_heading(r.gate);
  std::ostringstream out;
  output::write_markdown(r, {}, out);
  const auto md = out.str();
  BOOST_TEST(test::unsafe_for_humans(md, true).empty());
  // Outside code spans, nothing GitHub would link: every name is in the text (the
  // gate's details name rows), yet no scheme, www., mention or markup survives.
  const auto prose = test::outside_code_spans(md);
  BOOST_TEST(prose.find("http://") == std::string::npos, prose);
  BOOST_TEST(prose.find("https://") == std::string::npos, prose);
  BOOST_TEST(prose.find("www.") == std::string::npos, prose);
  BOOST_TEST(prose.find("WWW.") == std::string::npos, prose);
  for (std::size_t at = prose.find("]("); at != std::string::npos; at = prose.find("](", at + 1))
    BOOST_TEST((at > 0 && prose[at - 1] == '\\'), prose.substr(at > 20 ? at - 20 : 0, 40));  // \](
  for (std::size_t at = prose.find('@'); at != std::string::npos; at = prose.find('@', at + 1))
    BOOST_TEST(prose.compare(at + 1, 3, "\xE2\x80\x8B") == 0, prose.substr(at, 20));
  BOOST_TEST(md.find("http:\xE2\x80\x8B//ctl.example") != std::string::npos, md);
  BOOST_TEST(prose.find("GH-43") == std::string::npos, prose);  // GitHub comments link it
  // The names are still there, whole, in code spans.
  BOOST_TEST(md.find("`http://x.example/a`") != std::string::npos, md);
  // GitHub's own renderer agrees: no link, no image, no raw HTML (when cmark-gfm is
  // installed; the checks above run everywhere).
  const auto html = test::render_gfm(md);
  if (html) {
    BOOST_TEST(html->find("<a ") == std::string::npos, *html);
    BOOST_TEST(html->find("<img") == std::string::npos, *html);
    BOOST_TEST(html->find("<script") == std::string::npos, *html);
  } else {
    BOOST_TEST_MESSAGE("cmark-gfm not installed: the Markdown was not rendered");
  }
}

BOOST_AUTO_TEST_CASE(gate_details_use_the_sanitiser) {
  auto r = report_with({"evil\x1b[2J\nforged", "ok"});
  const auto g = analysis::evaluate_gate({analysis::parse_gate_condition("any-op:evil*>+1%")}, r);
  BOOST_TEST(g.size() == 1u);
  BOOST_TEST(g[0].detail.find("evil\\x1b[2J\\nforged") != std::string::npos, g[0].detail);
}

BOOST_AUTO_TEST_SUITE_END()
