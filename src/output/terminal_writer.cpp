// The terminal summary, and the helpers the Markdown writer shares: one thing, the
// human text view, whose layout rules (widths, elision, colour) read together.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/escape.hpp"
#include "util/sanitize.hpp"
#include "util/format.hpp"
#include "output/accounting_text.hpp"
#include "output/human_writers.hpp"
#include "util/display_name.hpp"
#include "util/utf8.hpp"

namespace tracediff::output {

namespace detail {

std::string terminal_safe(std::string_view raw) { return display_safe(raw); }

std::string sides_differ_text(const model::DiffReport& r) {
  std::string out;
  for (const auto& d : r.sides_differ)
    out += (out.empty() ? "" : "; ") + d.what + " " + d.control + " \xE2\x86\x92 " + d.test;
  return out;
}

std::string flops_words(const model::DiffRow& row) {
  if (!row.flops_per_call) return {};
  std::string out = format_flops(*row.flops_per_call) + "/call";
  if (row.control_tflops || row.test_tflops) {
    const auto rate = [](const std::optional<double>& v) { return v ? format_rate(*v) : std::string("?"); };
    out += ", " + rate(row.control_tflops) + " \xE2\x86\x92 " + rate(row.test_tflops) + " TFLOP/s";
  }
  return out;
}

std::string calls_text(const model::DiffRow& row) {
  const double c = row.control_calls, t = row.test_calls;
  if (c == t) return format_count_per_step(c, false);
  return format_count_per_step(c, false) + " \xE2\x86\x92 " + format_count_per_step(t, false);
}

std::string per_call_text(const model::DiffRow& row) {
  return row.per_call_pct ? format_pct(row.per_call_pct) : std::string();
}

std::string mean_words(const model::DiffRow& row) {
  if (!row.shown.mean_differs) return {};
  const double d = row.basis_diff_ns();
  return "mean " + format_duration_ns(to_ns(d), true);
}

std::string top_heading(const char* title, const model::TopList& list, const model::DiffReport& r) {
  const std::string basis = r.hta_compat ? "in total" : "median per " + r.unit;
  const bool up = std::string_view(title) == "Regressions";
  // Nothing testable: the largest raw changes, never called regressions.
  if (list.raw)
    return std::string(up ? "Largest increases" : "Largest decreases") + " (" + basis +
           "), not testable: too few " + r.unit + "s to tell them from noise";
  std::string h = std::string(title) + " (" + basis + ")";
  const auto n = [](std::size_t v) { return format_count(static_cast<std::int64_t>(v), false); };
  const std::size_t shown = list.rows.size(), all = shown + list.more;
  std::string counts = r.hta_compat ? (list.more ? "top " + n(shown) + " of " + n(all) : std::string())
                       : all == 0   ? "none significant"
                       : list.more  ? "top " + n(shown) + " of " + n(all) + " significant"
                                    : n(all) + " significant";
  const char* more = all == 0 ? "" : " more";
  if (list.folded) counts += (counts.empty() ? "" : "; ") + n(list.folded) + " folded along the stack";
  if (list.renamed) counts += (counts.empty() ? "" : "; ") + n(list.renamed) + " renamed within their kernel family";
  if (list.swapped) counts += (counts.empty() ? "" : "; ") + n(list.swapped) + (list.swapped == 1 ? " algorithm swap" : " algorithm swaps");
  if (list.waiting) counts += (counts.empty() ? "" : "; ") + n(list.waiting) + " wait for the GPU";
  if (list.sleeping) counts += (counts.empty() ? "" : "; ") + n(list.sleeping) + (list.sleeping == 1 ? " thread asleep" : " threads asleep");
  if (list.within_noise) counts += (counts.empty() ? "" : "; ") + n(list.within_noise) + more + " within noise";
  if (list.untestable) counts += (counts.empty() ? "" : "; ") + n(list.untestable) + more + " not testable";
  return counts.empty() ? h : h + ": " + counts;
}

std::string gate_line(const model::GateResult& g) {
  switch (g.outcome) {
    case model::GateOutcome::fired: return "fired: " + g.detail;
    case model::GateOutcome::passed: return "passed: " + g.detail;
    case model::GateOutcome::within_noise: return "passed (within noise): " + g.detail;
    case model::GateOutcome::not_evaluated: return "not evaluated: " + g.detail;
  }
  return g.detail;
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

// A first column too wide for its room gets a line of its own (up to the width),
// the figures the next: a label is never cut again, or two could read alike.
void write_rows(std::ostream& out, const Rows& rows, const Widths& w, bool color, std::size_t width = 0,
                const std::vector<std::string>* below = nullptr) {
  for (std::size_t ri = 0; ri < rows.size(); ++ri) {
    const auto& r = rows[ri];
    std::string first = r[0].text;
    if (width && display_width(first) > w.cols[0]) {
      out << detail::elide_middle(first, width) << '\n';
      first.clear();
    }
    std::string line = pad_right(detail::elide_middle(first, w.cols[0]), w.cols[0]);
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
    // The lines under it, each fitted to the width.
    for (std::size_t at = 0; below && ri < below->size() && at < (*below)[ri].size();) {
      const auto& all = (*below)[ri];
      const auto end = std::min(all.find('\n', at), all.size());
      const auto text = detail::elide_middle(std::string_view(all).substr(at, end - at), width ? width : 80);
      out << (color ? k_dim : "") << text << (color ? k_reset : "") << '\n';
      at = end + 1;
    }
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

std::string label(const model::SideSummary& s, const char* fallback) {
  return detail::elide_middle(detail::terminal_safe(s.label.empty() ? fallback : s.label), 24);
}

// A verdict as one mark: ▲ slower, ▼ faster, ≈ within noise, ? not testable.
Cell mark(model::Verdict v, bool hta) {
  if (hta) return {""};
  switch (v) {
    case model::Verdict::slower: return {"\xE2\x96\xB2", k_red};
    case model::Verdict::faster: return {"\xE2\x96\xBC", k_green};
    case model::Verdict::same: return {"\xE2\x89\x88", k_dim};
    case model::Verdict::untestable: return {"?", k_dim};
  }
  return {""};
}

const char* tone(model::Verdict v) {
  return v == model::Verdict::slower ? k_red : v == model::Verdict::faster ? k_green : nullptr;
}

std::vector<Cell> figure_line(const model::Figure& f, bool hta) {
  const auto& v = f.value;
  // GPU idle and the work past the step's end are neither better nor worse: no colour.
  const char* colour = f.direction_only ? nullptr : tone(v.verdict);
  Cell m = mark(v.verdict, hta || !f.judged);
  if (f.direction_only) m.color = nullptr;
  const auto number = [&](double x, bool sign) {
    return f.bytes ? format_size(x, sign) : f.duration ? format_duration_ns(to_ns(x), sign) : format_count_per_step(x, sign);
  };
  return {{f.label},
          {number(v.control, false)},
          {number(v.test, false)},
          {number(v.diff(), true), colour},
          {format_pct(v.pct, v.is_new()), colour},
          m};
}

struct TopTable {
  std::string heading;
  Rows rows;  // header row first; empty when there is nothing to show
  std::vector<std::string> below;  // per row: lines under it (calls, where it was called from), or empty
};

TopTable top_table(const char* title, const model::TopList& list, const DiffReport& r,
                   const std::vector<std::string>& labels, std::size_t width) {
  TopTable t;
  t.heading = detail::top_heading(title, list, r);
  if (list.rows.empty()) return t;
  t.rows.push_back({{"  Name"}, {"Control"}, {"Test"}, {"\xCE\x94"}, {"\xCE\x94%"}, {""}});
  for (std::size_t k = 0; k < list.rows.size(); ++k) {
    const auto& row = r.rows[list.rows[k]];
    const auto& s = row.shown;
    Cell m = mark(row.verdict, r.hta_compat);
    if (row.by_calls && row.significant) m.text += " calls";
    t.rows.push_back({{"  " + labels[k]},
                      {format_duration_ns(to_ns(s.control_ns), false)},
                      {format_duration_ns(to_ns(s.test_ns), false)},
                      {format_duration_ns(to_ns(s.diff_ns()), true), tone(row.verdict)},
                      {format_pct(s.pct, s.is_new()), tone(row.verdict)},
                      m});
  }
  // Where each was called from, each part shortened until the line fits the width.
  t.below.assign(t.rows.size(), {});
  for (std::size_t k = 0; k < list.rows.size() && k < list.paths.size(); ++k) {
    if (list.paths[k].empty()) continue;
    // The longest part gives way first (short names such as aten::item stay whole),
    // each cut again from its whole text, so that no "…" is cut into another.
    std::vector<std::string> whole = list.paths[k];
    for (auto& p : whole) p = detail::terminal_safe(p);
    std::vector<std::size_t> room(whole.size());
    for (std::size_t p = 0; p < whole.size(); ++p) room[p] = detail::display_width(whole[p]);
    auto parts = whole;
    const std::string lead = "      " + (k < list.path_words.size() ? list.path_words[k] : std::string("in")) + " ";
    std::string line = lead + path_text(parts);
    // First the longest parts of the form "kind: name" (nn.Module: Linear_2, a Python
    // frame's file(line): function, evaluate_function: XBackward0) keep only the name.
    while (detail::display_width(line) > width) {
      std::size_t best = whole.size();
      for (std::size_t p = 0; p < whole.size(); ++p) {
        const auto colon = whole[p].rfind(": ");
        if (colon != std::string::npos && colon + 2 < whole[p].size() && (best == whole.size() || room[p] > room[best]))
          best = p;
      }
      if (best == whole.size()) break;
      whole[best] = whole[best].substr(whole[best].rfind(": ") + 2);
      parts[best] = whole[best];
      room[best] = detail::display_width(whole[best]);
      // "evaluate_function: AddmmBackward0 › AddmmBackward0" would read the name twice.
      if (best + 1 < whole.size() && whole[best] == whole[best + 1]) {
        whole.erase(whole.begin() + static_cast<std::ptrdiff_t>(best));
        parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(best));
        room.erase(room.begin() + static_cast<std::ptrdiff_t>(best));
      }
      line = lead + path_text(parts);
    }
    while (detail::display_width(line) > width) {
      const auto p = static_cast<std::size_t>(std::max_element(room.begin(), room.end()) - room.begin());
      if (room[p] <= 6) break;
      room[p] -= 4;
      parts[p] = elide(whole[p], room[p]);
      line = lead + path_text(parts);
    }
    t.below[k + 1] = detail::elide_middle(line, width);
  }
  // On the line under the row, before its path: its calls per step and time per call
  // when the calls changed, the means' Δ where it differs much from the medians', and
  // with --by-shape FLOPs and TFLOP/s (the names keep the table's width).
  for (std::size_t k = 0; k < list.rows.size(); ++k) {
    const auto& row = r.rows[list.rows[k]];
    std::string words;
    const auto add = [&](const std::string& w) {
      if (!w.empty()) words += (words.empty() ? "" : "; ") + w;
    };
    // (A row new or gone says so already: no "calls 0 → 8".)
    if (const auto calls = detail::calls_text(row); row.per_call_pct && calls.find("\xE2\x86\x92") != std::string::npos)
      add("calls " + calls + ", " + detail::per_call_text(row) + " per call");
    add(detail::mean_words(row));
    add(detail::flops_words(row));
    if (words.empty()) continue;
    auto& line = t.below[k + 1];
    line = detail::elide_middle("      " + words, width) + (line.empty() ? std::string() : "\n" + line);
  }
  return t;
}

void write_top(std::ostream& out, const TopTable& t, const Widths& w, bool color, std::size_t width) {
  out << '\n' << (color ? k_bold : "");
  write_wrapped(out, t.heading, width);
  if (color) out << k_reset;
  if (t.rows.empty() && t.heading.find(": ") == std::string::npos) out << "  none\n";
  else write_rows(out, t.rows, w, color, width, &t.below);
}

// Labels for the names of both lists at the width the terminal leaves them: the
// report's rule (util/display_name), over both lists at once, so that no two rows
// of the summary read alike.
std::pair<std::vector<std::string>, std::vector<std::string>> list_labels(const DiffReport& r, std::size_t chars) {
  std::vector<std::string_view> names;
  std::vector<const model::DiffRow*> rows;
  for (const auto* list : {&r.top_regressions, &r.top_improvements})
    for (auto i : list->rows) rows.push_back(&r.rows[i]);
  for (const auto* row : rows) names.push_back(row->full_name.empty() || r.short_names ? row->name : row->full_name);
  auto labels = distinct_labels(names, chars);
  // The same name in two categories (a Triton kernel and the cpu_op that launches it):
  // as the report's labels do, the category tells them apart.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& own = rows[i]->label;
    const auto open = own.rfind(" [");
    if (open != std::string::npos && own.back() == ']') labels[i] += own.substr(open);
    labels[i] = detail::terminal_safe(labels[i]);
  }
  const auto n = r.top_regressions.rows.size();
  return {std::vector<std::string>(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(n)),
          std::vector<std::string>(labels.begin() + static_cast<std::ptrdiff_t>(n), labels.end())};
}

}  // namespace

namespace {

// -v: every event accounted for, per side, then per file.
void write_accounting(std::ostream& out, const model::DiffReport& r, std::size_t width) {
  for (const auto* side : {&r.control, &r.test}) {
    if (!side->accounting.recorded) continue;
    out << "\nEvery event accounted for, " << detail::terminal_safe(label(*side, side == &r.control ? "Control" : "Test"))
        << ":\n";
    const auto streams = [&](const model::Accounting& a, const std::string& indent) {
      for (const auto st : {model::EventStream::host, model::EventStream::gpu, model::EventStream::memory}) {
        if (st == model::EventStream::memory && !a.stream(st).read.events) continue;
        write_wrapped(out, indent + model::event_stream_name(st) + ": " + accounting_line(a, st), width);
      }
      if (a.broken) write_wrapped(out, indent + "unreadable: " + std::to_string(a.broken), width);
    };
    streams(side->accounting, "  ");
    if (side->files.size() < 2) continue;
    for (const auto& f : side->files) {
      if (!f.accounting.recorded) continue;
      write_wrapped(out, "  " + detail::terminal_safe(f.path) + " (rank " + std::to_string(f.rank) + "):", width);
      streams(f.accounting, "    ");
    }
  }
}

}  // namespace

void write_terminal_summary(const model::DiffReport& r, const TerminalOptions& o, std::ostream& out) {
  const std::size_t width = std::max<std::size_t>(o.width, 40);
  const auto& c = r.control;
  const auto& t = r.test;

  std::string title = "tracediff: " + label(c, "Control") + " \xE2\x86\x92 " + label(t, "Test");
  out << (o.color ? k_bold : "") << detail::elide_middle(title, width) << (o.color ? k_reset : "") << '\n';
  if (!r.verdict_line.empty()) {
    out << '\n' << (o.color ? k_bold : "");
    write_wrapped(out, r.verdict_line, width);
    if (o.color) out << k_reset;
  }
  // Why the step moved: the bottom line, then the parts that add up to the change.
  if (r.step_change.decided) {
    write_wrapped(out, detail::terminal_safe(r.step_change.bottom_line), width);
    write_wrapped(out, r.step_change.equation, width);
  }
  // What bounded the step: the critical path's bound types, what moved on it, what-ifs.
  if (const auto& cp = r.critical_path; cp.decided) {
    write_wrapped(out, "What bounded it: " + detail::terminal_safe(cp.sentence) + ".", width);
    if (!cp.moved.empty()) write_wrapped(out, detail::terminal_safe(cp.moved) + ".", width);
    if (!cp.what_if_line.empty()) write_wrapped(out, detail::terminal_safe(cp.what_if_line) + ".", width);
    if (!cp.asked_line.empty()) write_wrapped(out, detail::terminal_safe(cp.asked_line) + ".", width);
  }
  if (!r.sides_differ.empty()) {
    out << '\n' << (o.color ? k_bold : "");
    write_wrapped(out, "The sides differ: " + detail::terminal_safe(detail::sides_differ_text(r)), width);
    if (o.color) out << k_reset;
  }
  for (const auto& line : r.ranks.straggler_lines) {  // which rank everyone waited on
    out << '\n';
    write_wrapped(out, detail::terminal_safe(line), width);
  }

  Rows head;
  const std::string basis = r.hta_compat ? "In total" : "Per " + r.unit + " (mean)";
  head.push_back({{basis}, {label(c, "Control")}, {label(t, "Test")}, {"\xCE\x94"}, {"\xCE\x94%"}, {""}});
  for (const auto& f : r.headline) head.push_back(figure_line(f, r.hta_compat));
  out << '\n';
  write_rows(out, head, widths({&head}, width, 12), o.color);
  if (!r.hta_compat && !r.headline.empty())
    write_wrapped(out, std::string("\xE2\x96\xB2 slower (idle, past end") + (r.memory.empty() ? "" : ", memory") +
                           ": more), \xE2\x96\xBC faster (less), \xE2\x89\x88 within noise, ? not "
                       "testable; \xE2\x96\xB2 calls: more calls, each no slower",
                  width);
  for (const auto& n : r.notes) {
    out << '\n';
    write_wrapped(out, "Note: " + detail::terminal_safe(n), width);
  }
  if (o.verbose) write_accounting(out, r, width);

  std::string groups = "By count:";
  const model::Change order[] = {model::Change::added, model::Change::deleted, model::Change::increased,
                                 model::Change::decreased, model::Change::unchanged};
  for (std::size_t i = 0; i < 5; ++i)
    groups += std::string(i ? ", " : " ") +
              format_count(static_cast<std::int64_t>(r.ops_diff.of(order[i]).size()), false) + " " +
              model::change_name(order[i]);
  out << '\n';
  write_wrapped(out, groups, width);

  // The kernel families analysis lists, one line each: "GEMM +3.2 ms/step (+12.0%) slower".
  if (!r.families_shown.empty()) out << "\nKernel families:\n";
  for (const auto i : r.families_shown) {
    const auto& f = r.families[i];
    const char* colour = o.color ? tone(f.time.verdict) : nullptr;
    std::string line = "  " + f.label + " " + format_duration_ns(to_ns(f.time.diff()), true) + "/" + r.unit + " (" +
                       format_pct(f.time.pct, f.time.is_new()) + ") " + model::verdict_words(f.time.verdict);
    line = detail::elide_middle(line, width);
    out << (colour ? colour : "") << line << (colour ? k_reset : "") << '\n';
  }

  // Memory per step: the figures analysis picked.
  if (!r.memory_shown.empty()) {
    Rows mem;
    mem.push_back({{"Memory per " + r.unit}, {label(c, "Control")}, {label(t, "Test")}, {"\xCE\x94"}, {"\xCE\x94%"}, {""}});
    for (const auto& [d, f] : r.memory_shown) {
      auto fig = r.memory[d].figures[f];
      fig.label = r.memory[d].device + ": " + fig.label;
      mem.push_back(figure_line(fig, false));
    }
    out << '\n';
    write_rows(out, mem, widths({&mem}, width, 12), o.color);
  }

  // The rows that allocate more per step (self bytes), one line each.
  if (!r.allocates_more.rows.empty()) out << "\nAllocates more:\n";
  for (const auto i : r.allocates_more.rows) {  // as long as analysis made it (--top)
    const auto& row = r.rows[i];
    const auto& v = row.memory.allocated;
    std::string line = "  " + detail::terminal_safe(row.label.empty() ? row.name : row.label) + " " +
                       format_size(v.diff(), true) + "/" + r.unit + " (" + format_pct(v.pct, v.is_new()) + ")";
    line = detail::elide_middle(line, width);
    const char* colour = o.color ? tone(v.verdict) : nullptr;
    out << (colour ? colour : "") << line << (colour ? k_reset : "") << '\n';
  }

  // The name column gets what the figures leave of the width: laid out once without
  // names to measure that, then labelled to fit it, so that no label is cut again.
  const auto blank = [](const model::TopList& list) { return std::vector<std::string>(list.rows.size()); };
  auto slower = top_table("Regressions", r.top_regressions, r, blank(r.top_regressions), width);
  auto faster = top_table("Improvements", r.top_improvements, r, blank(r.top_improvements), width);
  auto w = widths({&slower.rows, &faster.rows}, width, 16);
  std::size_t rest = 2;  // the names' indent
  for (std::size_t c = 1; c < w.cols.size(); ++c) rest += w.cols[c] ? w.cols[c] + 2 : 0;
  const std::size_t chars = std::max<std::size_t>(width > rest ? width - rest : 0, 14);
  const auto [slower_labels, faster_labels] = list_labels(r, chars);
  slower = top_table("Regressions", r.top_regressions, r, slower_labels, width);
  faster = top_table("Improvements", r.top_improvements, r, faster_labels, width);
  w = widths({&slower.rows, &faster.rows}, width, 16);
  write_top(out, slower, w, o.color, width);
  write_top(out, faster, w, o.color, width);

  if (!r.gate.empty()) {
    out << '\n' << (o.color ? k_bold : "");
    write_wrapped(out, detail::terminal_safe(r.gate_heading), width);
    if (o.color) out << k_reset;
    for (const auto& g : r.gate)
      write_wrapped(out, "  " + detail::terminal_safe(g.condition.text) + ": " + detail::terminal_safe(detail::gate_line(g)),
                    width);
  }
}

}  // namespace tracediff::output
