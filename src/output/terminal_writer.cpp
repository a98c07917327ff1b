// The terminal summary, and the helpers the Markdown writer shares.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/escape.hpp"
#include "util/format.hpp"
#include "output/human_writers.hpp"

namespace tracediff::output {

namespace detail {

namespace {

// Decodes one code point of valid UTF-8 at s[i]; advances i.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int len = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
  if (i + len > s.size()) len = 1;
  char32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

std::size_t cp_width(char32_t c) {
  // East Asian Wide and Fullwidth blocks (enough to keep CJK names aligned).
  if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
      (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
      (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1FAFF) ||
      (c >= 0x20000 && c <= 0x3FFFD))
    return 2;
  return 1;
}

}  // namespace

std::string terminal_safe(std::string_view raw) {
  const std::string s = utf8_sanitize(raw);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t cp = next_code_point(s, i);
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) out += '?';
    else out.append(s, start, i - start);
  }
  return out;
}

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) w += cp_width(next_code_point(s, i));
  return w;
}

std::string elide_middle(std::string_view s, std::size_t max_width) {
  if (display_width(s) <= max_width) return std::string(s);
  if (max_width == 0) return {};
  if (max_width == 1) return "\xE2\x80\xA6";
  struct Cp {
    std::size_t start, end, width;
  };
  std::vector<Cp> cps;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const auto cp = next_code_point(s, i);
    cps.push_back({start, i, cp_width(cp)});
  }
  const std::size_t tail_budget = (max_width - 1) / 4;
  const std::size_t head_budget = max_width - 1 - tail_budget;
  std::size_t head_end = 0, w = 0;
  while (head_end < cps.size() && w + cps[head_end].width <= head_budget) w += cps[head_end++].width;
  std::size_t tail_start = cps.size(), tw = 0;
  while (tail_start > head_end && tw + cps[tail_start - 1].width <= tail_budget)
    tw += cps[--tail_start].width;
  std::string out(s.substr(0, head_end ? cps[head_end - 1].end : 0));
  out += "\xE2\x80\xA6";
  if (tail_start < cps.size()) out += s.substr(cps[tail_start].start);
  return out;
}

double row_control_ns(const model::DiffRow& row) {
  return row.per_step_basis ? row.control_step.total_ns : static_cast<double>(row.control.total_ns);
}
double row_test_ns(const model::DiffRow& row) {
  return row.per_step_basis ? row.test_step.total_ns : static_cast<double>(row.test.total_ns);
}
double row_delta_ns(const model::DiffRow& row) {
  return row.per_step_basis ? row.diff_per_step_ns() : static_cast<double>(row.diff_ns());
}

TopRows top_rows(const model::DiffReport& report, std::size_t top) {
  std::vector<std::size_t> order;
  bool ok = report.by_impact.size() == report.rows.size();
  if (ok) {
    std::vector<bool> seen(report.rows.size(), false);
    for (auto i : report.by_impact) {
      if (i >= report.rows.size() || seen[i]) {
        ok = false;
        break;
      }
      seen[i] = true;
    }
  }
  if (ok) {
    order = report.by_impact;
  } else {
    for (std::size_t i = 0; i < report.rows.size(); ++i) order.push_back(i);
  }
  TopRows t;
  for (auto i : order) {
    const auto& row = report.rows[i];
    if (row.name.rfind("ProfilerStep#", 0) == 0 || row.full_name.rfind("ProfilerStep#", 0) == 0) continue;
    const double d = row_delta_ns(row);
    if (d > 0) {
      if (t.regressions.size() < top) t.regressions.push_back(&row);
      ++t.regressions_total;
    } else if (d < 0) {
      if (t.improvements.size() < top) t.improvements.push_back(&row);
      ++t.improvements_total;
    }
  }
  return t;
}

}  // namespace detail

namespace {

using detail::display_width;
using model::DiffReport;
using model::DiffRow;

constexpr const char* k_red = "\x1b[31m";
constexpr const char* k_green = "\x1b[32m";
constexpr const char* k_bold = "\x1b[1m";
constexpr const char* k_dim = "\x1b[2m";
constexpr const char* k_reset = "\x1b[0m";

struct Cell {
  std::string text;
  const char* color = nullptr;  // applied around the padded text when colours are on
};

std::string pad_right(const std::string& s, std::size_t w) {
  const auto dw = display_width(s);
  return dw >= w ? s : s + std::string(w - dw, ' ');
}

const char* tone(double delta) { return delta > 0 ? k_red : delta < 0 ? k_green : nullptr; }

// Rows of cells: the first column left-aligned and elided to what the others leave,
// the rest right-aligned and never cut. Tables printed one under the other can share
// their column widths (widths() over all of them).
using Rows = std::vector<std::vector<Cell>>;

struct Widths {
  std::vector<std::size_t> cols;  // [0] is the first column
};

Widths widths(const std::vector<const Rows*>& tables, std::size_t width, std::size_t min_first) {
  Widths w;
  for (const auto* t : tables)
    for (const auto& r : *t) {
      if (w.cols.size() < r.size()) w.cols.resize(r.size(), 0);
      for (std::size_t c = 0; c < r.size(); ++c) w.cols[c] = std::max(w.cols[c], display_width(r[c].text));
    }
  if (w.cols.empty()) return w;
  std::size_t rest = 0;
  for (std::size_t c = 1; c < w.cols.size(); ++c) rest += w.cols[c] + (w.cols[c] ? 2 : 0);
  const std::size_t room = width > rest ? width - rest : 0;
  w.cols[0] = std::min(w.cols[0], std::max(room, min_first));
  return w;
}

void write_rows(std::ostream& out, const Rows& rows, const Widths& w, bool color) {
  for (const auto& r : rows) {
    std::string line = pad_right(detail::elide_middle(r[0].text, w.cols[0]), w.cols[0]);
    for (std::size_t c = 1; c < r.size() && c < w.cols.size(); ++c) {
      if (!w.cols[c]) continue;
      const auto dw = display_width(r[c].text);
      line += std::string(2 + (w.cols[c] > dw ? w.cols[c] - dw : 0), ' ');
      if (color && r[c].color && !r[c].text.empty()) line += r[c].color + r[c].text + k_reset;
      else line += r[c].text;
    }
    // No trailing blanks (a right-aligned column can be empty on some rows).
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

// Words of text wrapped to width columns.
void write_wrapped(std::ostream& out, const std::string& text, std::size_t width) {
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto sp = text.find(' ', start);
    if (sp == std::string::npos) sp = text.size();
    const std::string word = text.substr(start, sp - start);
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      out << line << '\n';
      line = "  " + word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
    start = sp + 1;
  }
  if (!line.empty()) out << line << '\n';
}

bool has_steps(const model::SideSummary& s) { return !s.whole_trace && !s.step_times.steps.empty(); }

std::string label(const model::SideSummary& s, const char* fallback) {
  return detail::elide_middle(detail::terminal_safe(s.label.empty() ? fallback : s.label), 24);
}

std::vector<Cell> duration_line(std::string what, double c, double t) {
  const double d = t - c;
  return {{std::move(what)},
          {format_duration_ns(to_ns(c), false)},
          {format_duration_ns(to_ns(t), false)},
          {format_duration_ns(to_ns(d), true), tone(d)},
          {format_pct(relative_pct(c, t), c == 0 && t != 0), tone(d)}};
}

struct TopTable {
  std::string heading;
  Rows rows;  // header row first; empty when there is nothing to show
};

TopTable top_table(const char* title, const std::vector<const DiffRow*>& rows, std::size_t total,
                   const DiffReport& r, bool& any_noise) {
  TopTable t;
  t.heading = std::string(title) + (r.hta_compat ? " (in total)" : " (per step)");
  if (total > rows.size())
    t.heading += ": top " + std::to_string(rows.size()) + " of " + format_count(static_cast<std::int64_t>(total), false);
  if (rows.empty()) return t;
  t.rows.push_back({{"  Name"}, {"Control"}, {"Test"}, {"\xCE\x94"}, {"\xCE\x94%"}, {""}});
  for (const auto* row : rows) {
    const double c = detail::row_control_ns(*row), tt = detail::row_test_ns(*row), d = detail::row_delta_ns(*row);
    const bool noise = row->per_step_basis && !row->significant;
    any_noise = any_noise || noise;
    t.rows.push_back({{"  " + detail::terminal_safe(row->name)},
                      {format_duration_ns(to_ns(c), false)},
                      {format_duration_ns(to_ns(tt), false)},
                      {format_duration_ns(to_ns(d), true), tone(d)},
                      {format_pct(row->diff_pct(), c == 0 && tt != 0), tone(d)},
                      {noise ? "~" : "", k_dim}});
  }
  return t;
}

void write_top(std::ostream& out, const TopTable& t, const Widths& w, bool color) {
  out << '\n' << (color ? k_bold : "") << t.heading << (color ? k_reset : "") << '\n';
  if (t.rows.empty()) out << "  none\n";
  else write_rows(out, t.rows, w, color);
}

}  // namespace

void write_terminal_summary(const model::DiffReport& r, const TerminalOptions& o, std::ostream& out) {
  const std::size_t width = std::max<std::size_t>(o.width, 40);
  const auto& c = r.control;
  const auto& t = r.test;

  std::string title = "tracediff: " + label(c, "Control") + " \xE2\x86\x92 " + label(t, "Test");
  out << (o.color ? k_bold : "") << detail::elide_middle(title, width) << (o.color ? k_reset : "") << '\n';

  Rows head;
  head.push_back({{""}, {label(c, "Control")}, {label(t, "Test")}, {"\xCE\x94"}, {"\xCE\x94%"}});
  const bool steps = has_steps(c) && has_steps(t);
  if (steps)
    head.push_back(duration_line("Step time, mean", static_cast<double>(c.step_times.mean_ns),
                           static_cast<double>(t.step_times.mean_ns)));
  if (c.step_mean.gpu_busy_ns != 0 || t.step_mean.gpu_busy_ns != 0)
    head.push_back(duration_line("GPU busy per step", static_cast<double>(c.step_mean.gpu_busy_ns),
                           static_cast<double>(t.step_mean.gpu_busy_ns)));
  head.push_back(duration_line("CPU operators, total", static_cast<double>(c.cpu_total.total_ns),
                         static_cast<double>(t.cpu_total.total_ns)));
  head.push_back(duration_line("GPU work, total", static_cast<double>(c.gpu_total.total_ns),
                         static_cast<double>(t.gpu_total.total_ns)));
  out << '\n';
  write_rows(out, head, widths({&head}, width, 12), o.color);
  if (!steps) out << "(step time not compared: no ProfilerStep on "
                  << (c.whole_trace || c.step_times.steps.empty()
                          ? (t.whole_trace || t.step_times.steps.empty() ? "either side" : "the control side")
                          : "the test side")
                  << ")\n";

  std::string groups = "By count:";
  const model::Change order[] = {model::Change::added, model::Change::deleted, model::Change::increased,
                                 model::Change::decreased, model::Change::unchanged};
  for (std::size_t i = 0; i < 5; ++i)
    groups += std::string(i ? ", " : " ") +
              format_count(static_cast<std::int64_t>(r.ops_diff.of(order[i]).size()), false) + " " +
              model::change_name(order[i]);
  out << '\n';
  write_wrapped(out, groups, width);

  const auto top = detail::top_rows(r, static_cast<std::size_t>(std::max(o.top, 0)));
  bool any_noise = false;
  const auto slower = top_table("Regressions", top.regressions, top.regressions_total, r, any_noise);
  const auto faster = top_table("Improvements", top.improvements, top.improvements_total, r, any_noise);
  const auto w = widths({&slower.rows, &faster.rows}, width, 16);
  write_top(out, slower, w, o.color);
  write_top(out, faster, w, o.color);
  if (any_noise) {
    out << '\n';
    write_wrapped(out, "~ within run-to-run noise (not significant)", width);
  }
}

}  // namespace tracediff::output
