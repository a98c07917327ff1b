// Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY (GitHub-flavoured).
// Sections are built apart, the small fixed ones first, so that the lists that grow
// with the input (top tables, added/deleted names) get what is left of the cap.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/display_name.hpp"
#include "util/escape.hpp"
#include "util/format.hpp"
#include "output/human_writers.hpp"

#ifndef TRACEDIFF_VERSION
#define TRACEDIFF_VERSION "unknown"
#endif

namespace tracediff::output {

namespace {

using model::DiffReport;
using model::DiffRow;

// A trace string made printable: util/sanitize's display_safe (valid UTF-8, control
// characters and line breaks escaped visibly: one line, no escape sequence reaches a
// terminal with --markdown -, no bidi control reorders what a reviewer reads).
std::string plain(std::string_view raw) { return detail::terminal_safe(raw); }

// "www." in any case: GitHub links it without a scheme.
bool www_at(std::string_view s, std::size_t i) {
  if (i + 4 > s.size()) return false;
  for (std::size_t k = 0; k < 3; ++k)
    if (s[i + k] != 'w' && s[i + k] != 'W') return false;
  return s[i + 3] == '.';
}

constexpr const char* k_zwsp = "\xE2\x80\x8B";  // U+200B: invisible, breaks a link or a mention

// Text outside code spans: every character that Markdown or GitHub could read as
// markup is backslash-escaped, line breaks are escaped visibly, and what GitHub
// links without any markup gets a zero-width space that breaks it: after '@' (a
// mention, an e-mail address), inside "://" (any URL), after "www" of "www.", after
// '#' or "GH-" before a digit (an issue). No name becomes a link, an image or a
// mention. (A commit hash is linked by GitHub only when the repository has it.)
std::string md_text(std::string_view raw) {
  const std::string s = plain(raw);  // valid UTF-8, no control characters
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>':
      case '|': case '~': case '&': case '$': case '!': case '{': case '}':
        out += '\\';
        out += c;
        break;
      case '#':
        out += "\\#";
        if (i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') out += k_zwsp;
        break;
      case '@':
        out += '@';
        out += k_zwsp;
        break;
      case ':':
        out += ':';
        if (s.compare(i + 1, 2, "//") == 0) out += k_zwsp;
        break;
      case '-':
        out += '-';
        // GitHub comments link "GH-123" to an issue.
        if (i >= 2 && (s[i - 1] == 'H' || s[i - 1] == 'h') && (s[i - 2] == 'G' || s[i - 2] == 'g') && i + 1 < s.size() &&
            s[i + 1] >= '0' && s[i + 1] <= '9')
          out += k_zwsp;
        break;
      default:
        if (www_at(s, i)) {
          out.append(s, i, 3);
          out += k_zwsp;
          i += 2;
        } else {
          out += c;
        }
    }
  }
  return out;
}

// Inline code outside a table (no '|' escaping needed there).
std::string code_span(std::string_view raw) {
  std::string s = plain(raw);
  std::size_t longest = 0, run = 0;
  for (char c : s) {
    if (c == '`') longest = std::max(longest, ++run);
    else run = 0;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

std::string label(const model::SideSummary& s, const char* fallback) {
  return md_text(detail::elide_middle(detail::terminal_safe(s.label.empty() ? fallback : s.label), 40));
}

// A verdict as one mark: ▲ slower, ▼ faster, ≈ within noise, ? not testable.
std::string mark(model::Verdict v, bool hta) {
  if (hta) return "";
  switch (v) {
    case model::Verdict::slower: return " \xE2\x96\xB2";
    case model::Verdict::faster: return " \xE2\x96\xBC";
    case model::Verdict::same: return " \xE2\x89\x88";
    case model::Verdict::untestable: return " ?";
  }
  return "";
}

std::string figure_row(const model::Figure& f, bool hta) {
  const auto& v = f.value;
  const auto number = [&](double x, bool sign) {
    return f.bytes ? format_size(x, sign) : f.duration ? format_duration_ns(to_ns(x), sign) : format_count_per_step(x, sign);
  };
  return "| " + md_text(f.label) + " | " + number(v.control, false) + " | " + number(v.test, false) + " | " +
         number(v.diff(), true) + " | " +
         format_pct(v.pct, v.is_new()) + mark(v.verdict, hta || !f.judged) + " |\n";
}

std::string more_rows(std::size_t n) {
  return "\n_\xE2\x80\xA6 " + format_count(static_cast<std::int64_t>(n), false) +
         (n == 1 ? " more row_\n" : " more rows_\n");
}

// A block of lines (a table's rows, a list's items) under a header, cut to budget
// bytes with "… N more rows" when the rows do not all fit.
std::string bounded_block(const std::string& header, const std::vector<std::string>& lines, std::size_t total,
                          std::size_t budget) {
  constexpr std::size_t k_reserve = 48;  // the "… N more rows" line
  std::string out;
  std::size_t shown = 0;
  if (header.size() + k_reserve <= budget) {
    out = header;
    for (const auto& line : lines) {
      if (out.size() + line.size() + k_reserve > budget) break;
      out += line;
      ++shown;
    }
  }
  if (shown < total) out += more_rows(total - shown);
  return out;
}

std::string top_table(const char* title, const model::TopList& list, const DiffReport& r, std::size_t budget) {
  std::string head = "#### " + md_text(detail::top_heading(title, list, r)) + "\n\n";
  if (list.rows.empty()) return head + "None.\n\n";
  head +=
      "| \xCE\x94% | \xCE\x94 | Control | Test | Calls | Per call | Name | Device | Called from |\n"
      "|--:|--:|--:|--:|--:|--:|:--|:--|:--|\n";
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < list.rows.size(); ++k) {
    const auto& row = r.rows[list.rows[k]];
    const auto path = k < list.paths.size() && !list.paths[k].empty()
                          ? (k < list.path_words.size() && list.path_words[k] != "in" ? list.path_words[k] + " " : std::string()) +
                                path_text(list.paths[k])
                          : std::string();
    const auto& sh = row.shown;
    const auto test_name = row.test_label.empty() ? std::string() : "<br>test: " + markdown_code_cell(plain(row.test_label));
    const auto mean = detail::mean_words(row);
    // Numbers first: a long name must not push them off a narrow screen.
    lines.push_back("| " + format_pct(sh.pct, sh.is_new()) + mark(row.verdict, r.hta_compat) +
                    (row.by_calls && row.significant ? " calls" : "") + " | " +
                    format_duration_ns(to_ns(sh.diff_ns()), true) + (mean.empty() ? "" : "<br>" + mean) + " | " +
                    format_duration_ns(to_ns(sh.control_ns), false) + " | " + format_duration_ns(to_ns(sh.test_ns), false) +
                    " | " + detail::calls_text(row) + " | " + detail::per_call_text(row) + " | " +
                    markdown_code_cell(plain(row.label)) + test_name + " | " +
                    model::device_name(row.device) + " | " +
                    (path.empty() ? std::string() : markdown_code_cell(plain(path))) +
                    (row.flops_per_call ? " " + md_text(detail::flops_words(row)) : std::string()) + " |\n");
  }
  return bounded_block(head, lines, list.rows.size(), budget) + "\n";
}

// The rows of one ops_diff group, by their labels.
std::string names_list(const char* title, const DiffReport& r, model::Change group, std::size_t budget) {
  const auto total = r.ops_diff.of(group).size();
  if (total == 0) return {};
  std::vector<std::string> lines;
  for (auto i : r.impact_order()) {
    // Stop building once the budget is certainly spent: 100k names must stay cheap.
    if (lines.size() * 8 > budget) break;
    if (r.rows[i].change == group) lines.push_back("- " + code_span(r.rows[i].label) + "\n");
  }
  return bounded_block(std::string("**") + title + "** (" + format_count(static_cast<std::int64_t>(total), false) +
                           ")\n\n",
                       lines, total, budget) +
         "\n";
}

std::string gate_section(const std::vector<model::GateResult>& gate, const std::string& heading, std::size_t budget) {
  if (gate.empty()) return {};
  std::size_t fired = 0, unevaluated = 0;
  for (const auto& g : gate) {
    fired += g.fired();
    unevaluated += g.outcome == model::GateOutcome::not_evaluated;
  }
  const char* sign = fired ? "\xE2\x9D\x8C" : unevaluated ? "\xE2\x9A\xA0\xEF\xB8\x8F" : "\xE2\x9C\x85";
  std::string head = "#### " + std::string(sign) + " " + md_text(heading) + "\n\n";
  std::vector<std::string> lines;
  for (const auto& g : gate) {
    const char* sign = g.outcome == model::GateOutcome::fired           ? "\xE2\x9D\x8C"
                       : g.outcome == model::GateOutcome::not_evaluated ? "\xE2\x9A\xA0\xEF\xB8\x8F"
                                                                        : "\xE2\x9C\x85";
    lines.push_back("- " + std::string(sign) + " " + code_span(g.condition.text) + ": " +
                    md_text(detail::gate_line(g)) + "\n");
  }
  return bounded_block(head, lines, lines.size(), budget) + "\n";
}

// A URL made safe as a Markdown link destination: cli/ let only http(s) and printable
// ASCII through; what could end the destination or the link is percent-encoded.
std::string link_target(std::string_view url) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : url) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      std::string_view("-._~:/?#@!$&*+,;=%").find(static_cast<char>(c)) != std::string_view::npos;
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    }
  }
  return out;
}

// The verdict first (what a reviewer reads in a notification), then the commits and
// the link to the full report.
std::string headline(const DiffReport& r, const MarkdownOptions& o) {
  const auto& c = r.control;
  const auto& t = r.test;
  const std::string sides = label(c, "Control") + " \xE2\x86\x92 " + label(t, "Test");
  std::string out = "<!-- tracediff-report -->\n";
  if (r.verdict_line.empty()) {
    out += "### tracediff: " + sides + "\n\n";
  } else {
    out += "### " + md_text(r.verdict_line) + "\n\n";
    out += "tracediff: **" + label(c, "Control") + "** \xE2\x86\x92 **" + label(t, "Test") + "**";
    if (!o.report_url.empty()) out += " \xC2\xB7 [Full report](" + link_target(o.report_url) + ")";
    out += "\n\n";
  }
  if (r.verdict_line.empty() && !o.report_url.empty())
    out += "[Full report](" + link_target(o.report_url) + ")\n\n";
  // Why the step moved: the bottom line, and the parts that add up to the change.
  if (r.step_change.decided)
    out += "**Why:** " + md_text(r.step_change.bottom_line) + "<br>\n<sub>" + md_text(r.step_change.equation) +
           " (per GPU; tracediff docs: Why the step moved)</sub>\n\n";
  if (const auto& cp = r.critical_path; cp.decided) {
    out += "**What bounded it:** " + md_text(cp.sentence) + "." + (cp.moved.empty() ? "" : " " + md_text(cp.moved) + ".");
    if (!cp.what_if_line.empty()) out += "<br>\n<sub>" + md_text(cp.what_if_line) + " (tracediff docs: What bounded the step)</sub>";
    if (!cp.asked_line.empty()) out += "<br>\n<sub>" + md_text(cp.asked_line) + "</sub>";
    out += "\n\n";
  }
  if (!r.sides_differ.empty()) {
    out += "> [!WARNING]\n> **The sides differ**, the likeliest cause of a change:\n";
    for (const auto& d : r.sides_differ)
      out += "> - " + md_text(d.what) + ": " + md_text(d.control) + " \xE2\x86\x92 " + md_text(d.test) + "\n";
    out += "\n";
  }
  for (const auto& line : r.ranks.straggler_lines) out += "**Waited on:** " + md_text(line) + "\n\n";
  const std::string basis = r.hta_compat ? "In total" : "Per " + r.unit + " (mean)";
  out += "| " + basis + " | " + label(c, "Control") + " | " + label(t, "Test") + " | \xCE\x94 | \xCE\x94% |\n";
  out += "|:--|--:|--:|--:|--:|\n";
  for (const auto& f : r.headline) out += figure_row(f, r.hta_compat);
  out += "\n";
  if (!r.hta_compat && !r.headline.empty())
    out += std::string("<sub>\xE2\x96\xB2 slower (GPU idle, past end") + (r.memory.empty() ? "" : ", memory") +
           ": more) \xC2\xB7 \xE2\x96\xBC faster (less) \xC2\xB7 \xE2\x89\x88 "
           "within noise \xC2\xB7 ? not testable (tracediff docs: Is it real?) \xC2\xB7 \xE2\x96\xB2 calls: more calls, "
           "each no slower (lists: medians per step; Calls: per step)</sub>\n\n";

  out += "**By count:**";
  const model::Change order[] = {model::Change::added, model::Change::deleted, model::Change::increased,
                                 model::Change::decreased, model::Change::unchanged};
  for (std::size_t i = 0; i < 5; ++i)
    out += std::string(i ? " \xC2\xB7 " : " ") +
           format_count(static_cast<std::int64_t>(r.ops_diff.of(order[i]).size()), false) + " " +
           model::change_name(order[i]);
  out += "\n\n";
  return out;
}

// GPU time by kernel family: the ones analysis lists (DiffReport::families_shown).
std::string families(const DiffReport& r) {
  if (r.hta_compat || r.families_shown.empty()) return {};
  std::string out = "#### Kernel families" + std::string(r.families_changed ? "" : " (none changed beyond noise)") +
                    "\n\n| GPU time per " + r.unit + " | " + label(r.control, "Control") + " | " +
                    label(r.test, "Test") + " | \xCE\x94 | \xCE\x94% |\n|:--|--:|--:|--:|--:|\n";
  for (const auto i : r.families_shown) {
    model::Figure fig;
    fig.label = r.families[i].label;
    fig.value = r.families[i].time;
    out += figure_row(fig, false);
  }
  return out + "\n";
}

// Memory per step, the figures analysis picked (DiffReport::memory_shown).
std::string memory(const DiffReport& r) {
  if (r.memory_shown.empty()) return {};
  std::string out = "#### Memory\n\n| Per " + r.unit + " | " + label(r.control, "Control") + " | " + label(r.test, "Test") +
                    " | \xCE\x94 | \xCE\x94% |\n|:--|--:|--:|--:|--:|\n";
  for (const auto& [d, f] : r.memory_shown) {
    auto fig = r.memory[d].figures[f];
    fig.label = r.memory[d].device + ": " + fig.label;
    out += figure_row(fig, false);
  }
  return out + "\n";
}

// The rows that allocate more per step (DiffReport::allocates_more, as long as analysis made
// it: --top, as in every view): self bytes.
std::string allocations(const DiffReport& r) {
  if (r.allocates_more.rows.empty()) return {};
  std::string out = "#### Allocates more\n\n| Memory allocated per " + r.unit + " (self) | " + label(r.control, "Control") +
                    " | " + label(r.test, "Test") + " | \xCE\x94 | \xCE\x94% |\n|:--|--:|--:|--:|--:|\n";
  for (const auto i : r.allocates_more.rows) {
    const auto& row = r.rows[i];
    model::Figure fig;
    fig.label = row.label.empty() ? row.name : row.label;
    fig.value = row.memory.allocated;
    fig.bytes = true;
    fig.duration = false;
    out += figure_row(fig, false);
  }
  return out + "\n";
}

std::string problems(const DiffReport& r) {
  const auto& d = r.diagnostics;
  if (d.total() == 0) return "**Input problems:** none.\n\n";
  std::string out = "#### Input problems (" + format_count(static_cast<std::int64_t>(d.total()), false) +
                    ")\n\n| Problem | Count | What it means |\n|:--|--:|:--|\n";
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (d.count(id) == 0) continue;
    out += "| " + markdown_code_cell(model::diag_name(id)) + " | " +
           format_count(static_cast<std::int64_t>(d.count(id)), false) + " | " +
           md_text(model::diag_description(id)) + " |\n";
  }
  // Data left out by accident names its files (every view does).
  std::string left_out;
  for (const auto& sample : d.samples())
    if (sample.id == model::DiagId::events_left_out)
      left_out += "- **Events left out** (" + md_text(sample.side) + ", " + markdown_code_cell(sample.file) + "): " +
                  md_text(detail::terminal_safe(sample.message)) + "\n";
  return out + (left_out.empty() ? "" : "\n" + left_out) + "\n";
}

std::string notes(const DiffReport& r, std::size_t budget) {
  if (r.notes.empty()) return {};
  std::vector<std::string> lines;
  // Whole: analysis writes each note as sentences of bounded parts; the block's budget
  // drops a note whole rather than cut one mid-word.
  for (const auto& n : r.notes) lines.push_back("- " + md_text(detail::terminal_safe(n)) + "\n");
  return bounded_block("**Notes**\n\n", lines, lines.size(), budget) + "\n";
}

// Cuts s to at most n bytes on a line (or at least UTF-8) boundary.
void hard_cap(std::string& s, std::size_t n) {
  if (s.size() <= n) return;
  const std::string tail = "\n\n_\xE2\x80\xA6 cut to fit_\n";
  std::size_t cut = n > tail.size() ? n - tail.size() : 0;
  const auto nl = s.rfind('\n', cut);
  if (nl != std::string::npos && nl > cut / 2) cut = nl;
  cut = utf8_floor(s, cut);
  s.resize(cut);
  if (s.size() + tail.size() <= n) s += tail;
}

}  // namespace

std::string detail::markdown_text(std::string_view s) { return md_text(s); }

void write_markdown(const model::DiffReport& r, const MarkdownOptions& o, std::ostream& out) {
  const std::size_t cap = o.max_bytes;
  const std::string head = headline(r, o);
  const std::string gate = gate_section(r.gate, r.gate_heading, 8000);
  // Notes right under the headline, as in the other views; input problems at the end.
  const std::string note_block = notes(r, 4000);
  const std::string family_block = families(r) + memory(r) + allocations(r);
  const std::string diag = problems(r);
  const std::string footer = "<sub>tracediff " TRACEDIFF_VERSION " \xC2\xB7 " +
                             std::string(r.hta_compat ? "totals (--hta-compat)" : "per-" + r.unit + " means") +
                             " \xC2\xB7 durations inclusive</sub>\n";
  const std::size_t fixed =
      head.size() + note_block.size() + gate.size() + family_block.size() + diag.size() + footer.size() + 64;
  std::size_t rest = cap > fixed ? cap - fixed : 0;

  const std::string regressions = top_table("Regressions", r.top_regressions, r, rest * 2 / 5);
  rest -= std::min(rest, regressions.size());
  const std::string improvements = top_table("Improvements", r.top_improvements, r, rest * 2 / 3);
  rest -= std::min(rest, improvements.size());

  std::string lists;
  const auto& added = r.ops_diff.of(model::Change::added);
  const auto& deleted = r.ops_diff.of(model::Change::deleted);
  if (!added.empty() || !deleted.empty()) {
    const std::string open = "<details><summary>" + format_count(static_cast<std::int64_t>(added.size()), false) +
                             " added, " + format_count(static_cast<std::int64_t>(deleted.size()), false) +
                             " deleted</summary>\n\n";
    const std::string close = "</details>\n\n";
    if (rest > open.size() + close.size() + 200) {
      std::size_t room = rest - open.size() - close.size();
      const std::string a = names_list("Added", r, model::Change::added, deleted.empty() ? room : room / 2);
      room -= std::min(room, a.size());
      const std::string d = names_list("Deleted", r, model::Change::deleted, room);
      lists = open + a + d + close;
    }
  }

  std::string doc = head + note_block + gate + family_block + regressions + improvements + lists + diag + footer;
  hard_cap(doc, cap);
  out << doc;
}

}  // namespace tracediff::output
