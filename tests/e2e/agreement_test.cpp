// One decision, many views: one run writes every output of a generated pair with
// real changes, noise, a warm-up step and a gate; the HTML, the terminal summary,
// the Markdown and the CSV must say what the JSON says: the same verdict for each
// figure, the same top lists in the same order, the same gate outcomes.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <map>
#include <sstream>

#include "support/test_support.hpp"
#include "util/display_name.hpp"
#include "util/escape.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string html_unescape(std::string s) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}}) {
    for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  }
  return s;
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// ▲ slower, ▼ faster, ≈ same, ? untestable: the mark every human view uses.
const std::map<std::string, std::string> k_mark = {
    {"slower", "\xE2\x96\xB2"}, {"faster", "\xE2\x96\xBC"}, {"same", "\xE2\x89\x88"}, {"untestable", "?"}};
const std::map<std::string, std::string> k_words = {
    {"slower", "slower"}, {"faster", "faster"}, {"same", "same within noise"}, {"untestable", "not testable"}};

// The <a class="nm"> texts of one findings list of the HTML.
std::vector<std::string> html_list(const std::string& html, const std::string& cls) {
  std::vector<std::string> out;
  const auto start = html.find("<div class=\"finding " + cls + "\">");
  if (start == std::string::npos) return out;
  const auto end = html.find("</div>", start);
  for (auto p = html.find("<a class=\"nm\"", start); p != std::string::npos && p < end;
       p = html.find("<a class=\"nm\"", p + 1)) {
    const auto a = html.find('>', p) + 1;
    out.push_back(html_unescape(html.substr(a, html.find("</a>", a) - a)));
  }
  return out;
}

// The code spans of the first column of one Markdown top table.
std::vector<std::string> markdown_list(const std::string& md, const std::string& title) {
  std::vector<std::string> out;
  const auto start = md.find("#### " + title);
  if (start == std::string::npos) return out;
  const auto end = md.find("\n\n####", start + 1);
  for (const auto& l : lines_of(md.substr(start, end == std::string::npos ? std::string::npos : end - start))) {
    // Numbers come first; the name is the row's first code span.
    if (l.rfind("| ", 0) != 0 || l.find('`') == std::string::npos) continue;
    const auto a = l.find('`') + 1;
    out.push_back(l.substr(a, l.find('`', a) - a));
  }
  return out;
}

// The names of a terminal top list; `called_from` gets, per name, whether a line
// saying where it was called from follows it.
std::vector<std::string> terminal_list(const std::string& out, const std::string& title,
                                       std::vector<bool>* called_from = nullptr) {
  std::vector<std::string> rows;
  const auto ls = lines_of(out);
  std::size_t i = 0;
  while (i < ls.size() && ls[i].rfind(title, 0) != 0) ++i;
  while (i < ls.size() && ls[i].rfind("  Name", 0) != 0) ++i;  // the heading may wrap
  for (i += 1; i < ls.size() && ls[i].rfind("  ", 0) == 0; ++i) {
    const auto& l = ls[i];
    // "      in A › B", or "      49 % in A › B" when the path carries part of the change.
    // Lines under a row: its calls, its means' Δ, its path.
    const bool below = l.rfind("      ", 0) == 0 && l.size() > 6 && l[6] != ' ';
    const bool path_line = below && (l.rfind("      in ", 0) == 0 || l.find(" % in ") != std::string::npos);
    if (path_line && called_from && !called_from->empty()) called_from->back() = true;
    if (below) continue;
    if (called_from) called_from->push_back(false);
    // Two spaces end the name column; names hold single spaces.
    const auto end = l.find("  ", 2);
    rows.push_back(trim(l.substr(2, end - 2)));
  }
  return rows;
}

// Each "…"-separated piece of a label that the terminal cut to its width is part of
// the name as every view simplifies it.
bool shows(const std::string& label, const std::string& full_name) {
  const auto simplified = tracediff::simplify_name(full_name);
  std::size_t at = 0;
  while (at <= label.size()) {
    auto cut = label.find("\xE2\x80\xA6", at);
    if (cut == std::string::npos) cut = label.size();
    const auto piece = label.substr(at, cut - at);
    if (!piece.empty() && simplified.find(piece) == std::string::npos) return false;
    at = cut + 3;
  }
  return true;
}

// The kernel families' labels each view lists, in order: the JSON's families_shown (by
// id, labelled from its families), the Markdown's table, the terminal's lines, the HTML's
// table and the static bars of its chart.
std::vector<std::string> json_families(const json::object& j) {
  std::map<std::string, std::string> label;
  for (const auto& f : j.at("families").as_array())
    label[std::string(f.at("family").as_string())] = std::string(f.at("label").as_string());
  std::vector<std::string> out;
  for (const auto& id : j.at("families_shown").as_array()) out.push_back(label.at(std::string(id.as_string())));
  return out;
}
std::vector<std::string> markdown_families(const std::string& md) {
  std::vector<std::string> out;
  const auto start = md.find("#### Kernel families");
  if (start == std::string::npos) return out;
  const auto ls = lines_of(md.substr(start));
  for (std::size_t i = 4; i < ls.size() && ls[i].rfind("| ", 0) == 0; ++i)  // heading, blank, head, rule
    out.push_back(ls[i].substr(2, ls[i].find(" |", 2) - 2));
  return out;
}
std::vector<std::string> terminal_families(const std::string& term, const std::vector<std::string>& labels) {
  std::vector<std::string> out;
  const auto ls = lines_of(term);
  std::size_t i = 0;
  while (i < ls.size() && ls[i] != "Kernel families:") ++i;
  for (++i; i < ls.size() && ls[i].rfind("  ", 0) == 0; ++i) {
    std::string found;  // the longest label the line starts with ("Memcpy HtoD" before "Memcpy")
    for (const auto& l : labels)
      if (ls[i].rfind("  " + l + " ", 0) == 0 && l.size() > found.size()) found = l;
    out.push_back(found.empty() ? ls[i] : found);  // a line of no label known fails the comparison
  }
  return out;
}
std::vector<std::string> html_families(const std::string& html, const std::string& from, const std::string& cell,
                                       const std::string& end) {
  std::vector<std::string> out;
  const auto start = html.find(from);
  if (start == std::string::npos) return out;
  const auto stop = html.find(end, start);
  for (auto p = html.find(cell, start); p != std::string::npos && p < stop; p = html.find(cell, p + 1)) {
    const auto a = html.find('>', p) + 1;
    out.push_back(html_unescape(html.substr(a, html.find('<', a) - a)));
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agreement)

BOOST_AUTO_TEST_CASE(every_writer_tells_the_json_story) {
  const auto c = tracegen("agree-c", {"--ranks", "1", "--steps", "8", "--seed", "1", "--jitter", "3"});
  const auto t = tracegen("agree-t", {"--ranks", "1", "--steps", "9", "--seed", "2", "--jitter", "3", "--warmup-steps",
                                      "1", "--slowdown", "aten::mm=1.4", "--slowdown", "LayerNorm=0.6",
                                      "--add-kernel", "my_new_kernel"});
  const auto dir = temp_dir("agree-out");
  const auto r = run_cli({c, t, "-o", dir + "/r.html", "--json", dir + "/r.json", "--markdown", dir + "/r.md", "--csv",
                          dir + "/r.csv", "--fail-on", "op:aten::mm>+10%", "--fail-on", "any-kernel:*>+50%",
                          "--fail-on", "step_time>+50%"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 3, r.err);  // aten::mm fired
  const auto j = parse_json(read_file(dir + "/r.json")).as_object();
  const auto html = read_file(dir + "/r.html");
  const auto md = read_file(dir + "/r.md");
  const auto& term = r.out;

  // The warm-up step was found: the story includes it everywhere.
  BOOST_REQUIRE(j.at("steps").at("test").at("warmup").as_array().size() == 1u);
  for (const auto* text : {&html, &md, &term})
    BOOST_TEST(text->find("warm-up step left out of Test") != std::string::npos);

  // Headline: one verdict per figure, in every view.
  const auto& headline = j.at("headline").as_array();
  BOOST_REQUIRE(headline.size() >= 4u);
  std::size_t judged = 0;
  for (const auto& v : headline) {
    const std::string label(v.at("label").as_string()), verdict(v.at("verdict").as_string());
    judged += verdict != "untestable";
    BOOST_TEST_CONTEXT(label) {
      bool in_term = false, in_md = false;
      for (const auto& l : lines_of(term))
        if (l.rfind(label + "  ", 0) == 0) in_term = l.ends_with(k_mark.at(verdict));
      for (const auto& l : lines_of(md))
        if (l.rfind("| " + label + " |", 0) == 0) in_md = l.ends_with(k_mark.at(verdict) + " |");
      BOOST_TEST(in_term);
      BOOST_TEST(in_md);
      const auto card = html.find("<div class=\"card-title\">" + tracediff::html_escape(label) + " <small>");
      BOOST_REQUIRE(card != std::string::npos);
      const auto card_end = html.find("</div>\n    </div>", card) + 6;
      BOOST_TEST(html.substr(card, card_end - card).find("<div class=\"card-verdict\">" + k_words.at(verdict) + "</div>") !=
                 std::string::npos);
    }
  }
  BOOST_TEST(judged == headline.size());  // 8 steps against 8 (warm-up out): every figure testable

  // Top lists: the same rows in the same order, in every view.
  for (const auto& [key, html_cls, title] : {std::tuple{"top_regressions", "worse", "Regressions"},
                                             std::tuple{"top_improvements", "better", "Improvements"}}) {
    BOOST_TEST_CONTEXT(key) {
      std::vector<std::string> labels, names;
      std::vector<bool> nested;  // the item's path has callers above it
      for (const auto& v : j.at(key).as_array()) {
        labels.emplace_back(v.at("label").as_string());
        names.emplace_back(v.at("name").as_string());
        const auto& path = v.at("path").as_array();
        BOOST_TEST(!path.empty());  // every row of a traced run has a node
        if (!path.empty()) BOOST_TEST(path.back().as_string() == v.at("name").as_string());
        nested.push_back(path.size() > 1);
        BOOST_TEST((v.at("verdict").as_string() == (std::string(key) == "top_regressions" ? "slower" : "faster")));
      }
      BOOST_REQUIRE(!labels.empty());
      BOOST_TEST(html_list(html, html_cls) == labels, boost::test_tools::per_element());
      BOOST_TEST(markdown_list(md, title) == labels, boost::test_tools::per_element());
      std::vector<bool> called_from;
      const auto shown = terminal_list(term, title, &called_from);
      BOOST_REQUIRE(shown.size() == names.size());
      BOOST_TEST(called_from == nested, boost::test_tools::per_element());
      for (std::size_t i = 0; i < names.size(); ++i) BOOST_TEST(shows(shown[i], names[i]), shown[i] << " / " << names[i]);
    }
  }
  // aten::mm is among the regressions, and so is the new kernel.
  bool mm = false, added = false;
  for (const auto& v : j.at("top_regressions").as_array()) {
    mm = mm || v.at("name").as_string() == "aten::mm";
    added = added || v.at("name").as_string().find("my_new_kernel") != json::string::npos;
  }
  BOOST_TEST(mm);
  BOOST_TEST(added);

  // The CSV's verdict per row is the JSON's.
  const auto csv = parse_csv(read_file(dir + "/r.csv"));
  const auto& rows = j.at("rows").as_array();
  BOOST_REQUIRE(csv.size() == rows.size() + 1);
  const auto col = std::find(csv[0].begin(), csv[0].end(), "verdict") - csv[0].begin();
  for (std::size_t i = 0; i < rows.size(); ++i)
    BOOST_TEST(csv[i + 1][static_cast<std::size_t>(col)] == std::string(rows[i].at("verdict").as_string()));

  // The gate: one outcome per condition, said alike.
  const std::map<std::string, std::string> said = {{"fired", "fired: "},
                                                   {"passed", "passed: "},
                                                   {"within_noise", "passed (within noise): "},
                                                   {"not_evaluated", "not evaluated: "}};
  for (const auto& g : j.at("gate").as_array()) {
    const std::string expr(g.at("condition").as_string()), outcome(g.at("outcome").as_string());
    BOOST_TEST_CONTEXT(expr) {
      BOOST_TEST(term.find(expr + ": " + said.at(outcome)) != std::string::npos, term);
      BOOST_TEST(md.find("`" + expr + "`: " + said.at(outcome)) != std::string::npos);
      BOOST_TEST(html.find("<code>" + tracediff::html_escape(expr) + "</code>: <strong>" + said.at(outcome).substr(0, said.at(outcome).size() - 2)) !=
                 std::string::npos);
    }
  }
  BOOST_TEST(j.at("gate").as_array()[0].at("outcome").as_string() == "fired");
}

// One list of kernel families, decided by analysis (DiffReport::families_shown): every
// view shows the same families in the same order; significant ones first, then the
// others up to five; on a pair with a significant GEMM family and one with none.
BOOST_AUTO_TEST_CASE(every_view_lists_the_same_families) {
  for (const auto& [tag, slowdown] : {std::pair{"fam-slow", "gemm=1.3"}, std::pair{"fam-same", ""}}) {
    BOOST_TEST_CONTEXT(tag) {
      const auto c = tracegen(std::string(tag) + "-c", {"--ranks", "1", "--steps", "6", "--layers", "1", "--jitter", "2",
                                                         "--seed", "1"});
      std::vector<std::string> targs{"--ranks", "1", "--steps", "6", "--layers", "1", "--jitter", "2", "--seed", "2"};
      if (*slowdown) targs.insert(targs.end(), {"--slowdown", slowdown});
      const auto t = tracegen(std::string(tag) + "-t", targs);
      const auto dir = temp_dir(std::string(tag) + "-out");
      const auto r = run_cli({c, t, "-o", dir + "/r.html", "--json", dir + "/r.json", "--markdown", dir + "/r.md"});
      BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
      const auto j = parse_json(read_file(dir + "/r.json")).as_object();
      const auto html = read_file(dir + "/r.html");
      const auto want = json_families(j);
      BOOST_REQUIRE(!want.empty());
      BOOST_TEST(want.size() >= std::min<std::size_t>(5, j.at("families").as_array().size()));
      // Significant first.
      bool others = false;
      for (const auto& id : j.at("families_shown").as_array())
        for (const auto& f : j.at("families").as_array())
          if (f.at("family") == id) {
            BOOST_TEST(!(others && f.at("significant").as_bool()));
            others = others || !f.at("significant").as_bool();
          }
      BOOST_TEST(markdown_families(read_file(dir + "/r.md")) == want, boost::test_tools::per_element());
      BOOST_TEST(terminal_families(r.out, want) == want, boost::test_tools::per_element());
      BOOST_TEST(html_families(html, "<table class=\"kv metrics families\">", "<th scope=\"row\"", "</table>") == want,
                 boost::test_tools::per_element());
      BOOST_TEST(html_families(html, "<figure class=\"chart\" id=\"chart-families\"", "<div class=\"fb-label\"",
                               "</figure>") == want,
                 boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
