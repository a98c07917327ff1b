// Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY (GitHub-flavoured).
// Sections are built apart, the small fixed ones first, so that the lists that grow
// with the input (top tables, added/deleted names) get what is left of the cap.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/escape.hpp"
#include "util/format.hpp"
#include "output/html_writer.hpp"
#include "output/human_writers.hpp"

#ifndef TRACEDIFF_VERSION
#define TRACEDIFF_VERSION "unknown"
#endif

namespace tracediff::output {

namespace {

using model::DiffReport;
using model::DiffRow;

constexpr std::size_t k_name_chars = 120;  // names in tables, middle elided beyond

// A trace string made printable: line breaks and tabs become spaces, other control
// bytes '?' (an escape sequence would reach a terminal with --markdown -).
std::string plain(std::string_view raw) {
  std::string s(raw);
  for (auto& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return detail::terminal_safe(s);
}

// Text outside code spans: every character that Markdown or GitHub could read as
// markup is backslash-escaped; an '@' that could start a mention gets a zero-width
// space after it, so a name cannot notify anyone; line breaks become spaces.
std::string md_text(std::string_view raw) {
  const std::string s = plain(raw);  // valid UTF-8, no control bytes
  std::string out;
  out.reserve(s.size() + 8);
  for (char c : s) {
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>':
      case '|': case '~': case '&': case '$': case '!': case '#': case '{': case '}':
        out += '\\';
        out += c;
        break;
      case '@': {
        // A mention needs '@' after a non-word character: break those ("a@b" is no mention).
        const char prev = out.empty() ? ' ' : out.back();
        const bool word = (prev >= 'a' && prev <= 'z') || (prev >= 'A' && prev <= 'Z') ||
                          (prev >= '0' && prev <= '9') || prev == '_';
        out += word ? "@" : "@\xE2\x80\x8B";  // @ + U+200B
        break;
      }
      default: out += c;
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

bool has_steps(const model::SideSummary& s) { return !s.whole_trace && !s.step_times.steps.empty(); }

std::string label(const model::SideSummary& s, const char* fallback) {
  return md_text(detail::elide_middle(detail::terminal_safe(s.label.empty() ? fallback : s.label), 40));
}

std::string arrow(double delta) {
  return delta > 0 ? " \xE2\x96\xB2" : delta < 0 ? " \xE2\x96\xBC" : "";  // ▲ ▼
}

std::string headline_row(const std::string& what, double c, double t) {
  const double d = t - c;
  return "| " + what + " | " + format_duration_ns(to_ns(c), false) + " | " + format_duration_ns(to_ns(t), false) +
         " | " + format_duration_ns(to_ns(d), true) + " | " +
         format_pct(relative_pct(c, t), c == 0 && t != 0) + arrow(d) + " |\n";
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

std::string top_table(const char* title, const std::vector<const DiffRow*>& rows, std::size_t total,
                      const DiffReport& r, std::size_t budget, bool& any_noise) {
  const std::string basis = r.hta_compat ? "in total" : "per step";
  std::string head = "#### " + std::string(title) + " (" + basis + ")";
  if (total > rows.size())
    head += ": top " + std::to_string(rows.size()) + " of " + format_count(static_cast<std::int64_t>(total), false);
  head += "\n\n";
  if (rows.empty()) return head + "None.\n\n";
  head +=
      "| Name | Device | Control | Test | \xCE\x94 | \xCE\x94% |\n"
      "|:--|:--|--:|--:|--:|--:|\n";
  std::vector<std::string> lines;
  for (const auto* row : rows) {
    const double c = detail::row_control_ns(*row), t = detail::row_test_ns(*row), d = detail::row_delta_ns(*row);
    const bool noise = row->per_step_basis && !row->significant;
    any_noise = any_noise || noise;
    lines.push_back("| " + markdown_code_cell(plain(detail::shorten_name(row->name, k_name_chars))) + " | " +
                    model::device_name(row->device) + " | " + format_duration_ns(to_ns(c), false) + " | " +
                    format_duration_ns(to_ns(t), false) + " | " + format_duration_ns(to_ns(d), true) + " | " +
                    format_pct(row->diff_pct(), c == 0 && t != 0) + (noise ? " \\~" : "") + " |\n");
  }
  return bounded_block(head, lines, total, budget) + "\n";
}

std::string names_list(const char* title, const std::vector<std::string>& names, std::size_t budget) {
  if (names.empty()) return {};
  std::vector<std::string> lines;
  for (const auto& n : names) {
    // Stop building once the budget is certainly spent: 100k names must stay cheap.
    if (lines.size() * 8 > budget) break;
    lines.push_back("- " + code_span(detail::shorten_name(n, k_name_chars)) + "\n");
  }
  return bounded_block(std::string("**") + title + "** (" +
                           format_count(static_cast<std::int64_t>(names.size()), false) + ")\n\n",
                       lines, names.size(), budget) +
         "\n";
}

std::string gate_section(const std::vector<analysis::GateResult>& gate, std::size_t budget) {
  if (gate.empty()) return {};
  std::size_t fired = 0;
  for (const auto& g : gate) fired += g.fired;
  std::string head = fired ? "#### \xE2\x9D\x8C Gate failed: " + std::to_string(fired) + " of " +
                                 std::to_string(gate.size()) + " `--fail-on` conditions hold\n\n"
                           : "#### \xE2\x9C\x85 Gate passed: none of " + std::to_string(gate.size()) +
                                 " `--fail-on` conditions holds\n\n";
  std::vector<std::string> lines;
  for (const auto& g : gate) {
    const std::string expr = code_span(g.condition ? g.condition->text : std::string("?"));
    const char* mark = !g.evaluated ? "\xE2\x9A\xA0\xEF\xB8\x8F" : g.fired ? "\xE2\x9D\x8C" : "\xE2\x9C\x85";
    lines.push_back("- " + std::string(mark) + " " + expr + ": " + (g.evaluated ? "" : "not evaluated: ") +
                    md_text(g.detail) + "\n");
  }
  return bounded_block(head, lines, lines.size(), budget) + "\n";
}

std::string headline(const DiffReport& r) {
  const auto& c = r.control;
  const auto& t = r.test;
  std::string out = "<!-- tracediff-report -->\n### tracediff: " + label(c, "Control") + " \xE2\x86\x92 " +
                    label(t, "Test") + "\n\n";
  out += "| | " + label(c, "Control") + " | " + label(t, "Test") + " | \xCE\x94 | \xCE\x94% |\n";
  out += "|:--|--:|--:|--:|--:|\n";
  const bool steps = has_steps(c) && has_steps(t);
  if (steps)
    out += headline_row("Step time, mean", static_cast<double>(c.step_times.mean_ns),
                        static_cast<double>(t.step_times.mean_ns));
  if (c.step_mean.gpu_busy_ns != 0 || t.step_mean.gpu_busy_ns != 0)
    out += headline_row("GPU busy per step", static_cast<double>(c.step_mean.gpu_busy_ns),
                        static_cast<double>(t.step_mean.gpu_busy_ns));
  out += headline_row("CPU operators, total", static_cast<double>(c.cpu_total.total_ns),
                      static_cast<double>(t.cpu_total.total_ns));
  out += headline_row("GPU work, total", static_cast<double>(c.gpu_total.total_ns),
                      static_cast<double>(t.gpu_total.total_ns));
  out += "\n";
  if (!steps) out += "_Step time not compared: a side has no ProfilerStep (whole traces compared)._\n\n";

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
  return out + "\n";
}

std::string notes(const DiffReport& r, std::size_t budget) {
  if (r.notes.empty()) return {};
  std::vector<std::string> lines;
  for (const auto& n : r.notes) lines.push_back("- " + md_text(detail::elide_middle(detail::terminal_safe(n), 300)) + "\n");
  return bounded_block("**Notes**\n\n", lines, lines.size(), budget) + "\n";
}

// Cuts s to at most n bytes on a line (or at least UTF-8) boundary.
void hard_cap(std::string& s, std::size_t n) {
  if (s.size() <= n) return;
  const std::string tail = "\n\n_\xE2\x80\xA6 cut to fit_\n";
  std::size_t cut = n > tail.size() ? n - tail.size() : 0;
  const auto nl = s.rfind('\n', cut);
  if (nl != std::string::npos && nl > cut / 2) cut = nl;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.resize(cut);
  if (s.size() + tail.size() <= n) s += tail;
}

}  // namespace

void write_markdown(const model::DiffReport& r, const MarkdownOptions& o, std::ostream& out) {
  const std::size_t cap = o.max_bytes;
  const std::string head = headline(r);
  const std::string gate = gate_section(o.gate, 8000);
  const std::string diag = problems(r) + notes(r, 4000);
  const std::string footer = "<sub>tracediff " TRACEDIFF_VERSION " \xC2\xB7 " +
                             std::string(r.hta_compat ? "totals (--hta-compat)" : "per-step means") +
                             " \xC2\xB7 durations inclusive</sub>\n";
  const std::size_t fixed = head.size() + gate.size() + diag.size() + footer.size() + 64;
  std::size_t rest = cap > fixed ? cap - fixed : 0;

  const auto top = detail::top_rows(r, static_cast<std::size_t>(std::max(o.top, 0)));
  bool any_noise = false;
  const std::string regressions =
      top_table("Regressions", top.regressions, top.regressions_total, r, rest * 2 / 5, any_noise);
  rest -= std::min(rest, regressions.size());
  const std::string improvements =
      top_table("Improvements", top.improvements, top.improvements_total, r, rest * 2 / 3, any_noise);
  rest -= std::min(rest, improvements.size());
  const std::string noise = any_noise ? "\\~ within run-to-run noise (not significant)\n\n" : "";
  rest -= std::min(rest, noise.size());

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
      const std::string a = names_list("Added", added, deleted.empty() ? room : room / 2);
      room -= std::min(room, a.size());
      const std::string d = names_list("Deleted", deleted, room);
      lists = open + a + d + close;
    }
  }

  std::string doc = head + gate + regressions + improvements + noise + lists + diag + footer;
  hard_cap(doc, cap);
  out << doc;
}

}  // namespace tracediff::output
