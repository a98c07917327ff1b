// The headline: where the sides differ, the headline figures, the notes, the gate,
// the calls per step, what was compared and how.
//   cards[], metrics[] (figure_row), metrics_caption
//   has_sides_differ, sides_differ[] {what, c, t}; has_notes, notes[] (strings)
//   has_gate, gate_title, gate_cls, gate[] {expr, outcome, cls, detail}; settings
//   compared[] {what, c, t}; has_files, files[] {side, path, rank, rank_source, events, size, truncated,
//   host_rows, gpu_rows (the file's accounting)},
//   has_files_left_out, files_left_out (files per side the page lists: analysis's bound)
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "output/accounting_text.hpp"
#include "output/html/sections.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

// "0-3, 5, 7" for a list of integers, runs of consecutive values joined.
template <typename Int>
std::string ranges(const std::vector<Int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(v[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(v[j]);
    i = j + 1;
  }
  return out;
}

// Step numbers, which read as counts when bare: "#6", "#1009–#1014", "#1, #3–#5".
std::string step_numbers(const std::vector<std::int64_t>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += "#" + std::to_string(v[i]);
    if (j > i) out += (j == i + 1 ? ", #" : "\xE2\x80\x93#") + std::to_string(v[j]);  // –
    i = j + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += text(s);
  }
  return out;
}

}  // namespace

void add_headline(const DiffReport& r, data& ctx) {
  const auto& c = r.control;
  const auto& t = r.test;
  // The figures people read first, with their verdicts; the calls per step beside.
  data cards = make_list();
  for (const auto& f : r.headline) cards.push_back(figure_row(f, 0));
  ctx.set("cards", cards);
  data metrics = make_list();
  for (const auto& f : r.counts) metrics.push_back(figure_row(f, 0));
  ctx.set("metrics", metrics);
  ctx.set("metrics_caption", std::string(r.hta_compat ? "Counts, in total" : "Calls per " + r.unit));

  // Where the sides differ: the likeliest cause of a change, before anything else.
  data differ = make_list();
  for (const auto& d : r.sides_differ) {
    data x;
    x.set("what", fit(d.what, k_line_bytes));
    x.set("c", fit(d.control, k_line_bytes));
    x.set("t", fit(d.test, k_line_bytes));
    differ.push_back(x);
  }
  ctx.set("has_sides_differ", !r.sides_differ.empty());
  ctx.set("sides_differ", differ);

  data notes = make_list();
  for (const auto& n : r.notes) notes.push_back(data(fit(n, k_note_bytes)));
  ctx.set("has_notes", !r.notes.empty());
  ctx.set("notes", notes);

  // --fail-on, as decided.
  data gate = make_list();
  std::size_t fired = 0, unevaluated = 0;
  for (const auto& g : r.gate) {
    data x;
    x.set("expr", fit(g.condition.text, k_line_bytes));
    x.set("outcome", std::string(g.outcome == model::GateOutcome::fired          ? "fired"
                                 : g.outcome == model::GateOutcome::passed       ? "passed"
                                 : g.outcome == model::GateOutcome::within_noise ? "passed (within noise)"
                                                                                 : "not evaluated"));
    x.set("cls", std::string(g.fired()                                           ? "worse"
                             : g.outcome == model::GateOutcome::not_evaluated ? "untested"
                                                                              : "better"));
    x.set("detail", fit(g.detail, k_note_bytes));
    gate.push_back(x);
    fired += g.fired();
    unevaluated += g.outcome == model::GateOutcome::not_evaluated;
  }
  ctx.set("has_gate", !r.gate.empty());
  ctx.set("gate", gate);
  ctx.set("gate_title", fit(r.gate_heading, k_line_bytes));
  ctx.set("gate_cls", std::string(fired ? "worse" : unevaluated ? "untested" : "better"));

  // What was compared, one line per property, control and test side by side.
  data compared = make_list();
  const auto add = [&](const std::string& what, std::string cv, std::string tv) {
    data d;
    d.set("what", what);
    d.set("c", cv.empty() ? std::string("\xE2\x80\x94") : fit(cv, k_line_bytes));  // —
    d.set("t", tv.empty() ? std::string("\xE2\x80\x94") : fit(tv, k_line_bytes));
    compared.push_back(d);
  };
  const auto files = [](const SideSummary& s) {
    std::uint64_t events = 0, bytes = 0;
    for (const auto& f : s.files) {
      events += f.events;
      bytes += f.json_bytes;
    }
    return format_count(static_cast<std::int64_t>(s.files.size()), false) +
           (s.files.size() == 1 ? " file, " : " files, ") +
           format_count(static_cast<std::int64_t>(events), false) + " events, " + format_bytes(bytes) +
           " of JSON";
  };
  const auto ranks = [](const SideSummary& s) {
    std::string out = ranges(s.ranks);
    if (!s.available_ranks.empty() && s.available_ranks != s.ranks)
      out += " (of " + ranges(s.available_ranks) + ")";
    return out;
  };
  // "Step #6", "Steps #1009–#1014 (6 steps) of #1000–#1020".
  const auto iters = [](const SideSummary& s) {
    if (s.whole_trace) return std::string("whole trace (no ProfilerStep)");
    if (s.iterations.empty()) return std::string();
    const auto n = s.iterations.size();
    std::string out = (n == 1 ? "Step " : "Steps ") + step_numbers(s.iterations);
    if (n > 1) out += " (" + format_count(static_cast<std::int64_t>(n), false) + " steps)";
    if (!s.available_iterations.empty() && s.available_iterations != s.iterations)
      out += " of " + step_numbers(s.available_iterations);
    return out;
  };
  add("Inputs", join(c.inputs, ", "), join(t.inputs, ", "));
  add("Files", files(c), files(t));
  add("Ranks", ranks(c), ranks(t));
  add("Steps compared", iters(c), iters(t));
  add("Steps timed", format_count(static_cast<std::int64_t>(c.step_times.steps.size()), false),
      format_count(static_cast<std::int64_t>(t.step_times.steps.size()), false));
  if (!c.warmup.empty() || !t.warmup.empty())
    add("Warm-up steps left out", format_count(static_cast<std::int64_t>(c.warmup.size()), false),
        format_count(static_cast<std::int64_t>(t.warmup.size()), false));
  if (per_step_mode(r))
    add("Step units (the per-" + r.unit + " divisor)", format_count(static_cast<std::int64_t>(c.units), false),
        format_count(static_cast<std::int64_t>(t.units), false));
  add("GPUs", join(c.meta.gpus, ", "), join(t.meta.gpus, ", "));
  const auto active = [](const SideSummary& s) {
    std::string out;
    for (int n : s.meta.gpus_with_work) out += (out.empty() ? "" : ", ") + std::to_string(n);
    return out;
  };
  if (!c.meta.gpus_with_work.empty() || !t.meta.gpus_with_work.empty())
    add("GPUs with work, per trace (GPU idle counts them)", active(c), active(t));
  // Every event accounted for: per stream, in rows of read and the reasons for the rest.
  for (const auto stream : {model::EventStream::host, model::EventStream::gpu, model::EventStream::memory}) {
    const auto& ca = c.accounting;
    const auto& ta = t.accounting;
    if (!ca.recorded && !ta.recorded) break;
    if (stream == model::EventStream::memory && !ca.stream(stream).read.events && !ta.stream(stream).read.events) continue;
    const std::string what = stream == model::EventStream::host ? "Host events"
                             : stream == model::EventStream::gpu ? "GPU events"
                                                                 : "Memory events";
    add(what + " in rows", ca.recorded ? accounting_rows(ca, stream) : "not recorded",
        ta.recorded ? accounting_rows(ta, stream) : "not recorded");
    add(what + " left out, by reason", ca.recorded ? accounting_left_out(ca, stream) : "",
        ta.recorded ? accounting_left_out(ta, stream) : "");
  }
  if (c.accounting.broken || t.accounting.broken)
    add("Events the reader could not read", format_count(static_cast<std::int64_t>(c.accounting.broken), false),
        format_count(static_cast<std::int64_t>(t.accounting.broken), false));
  ctx.set("compared", compared);

  data file_rows = make_list();
  std::size_t files_left_out = 0;
  for (const auto* side : {&c, &t}) {
    const std::size_t listed = std::min(side->files.size(), r.embedded.files);
    files_left_out += side->files.size() - listed;
    for (std::size_t k = 0; k < listed; ++k) {
      const auto& f = side->files[k];
      data d;
      d.set("side", std::string(side == &c ? "control" : "test"));
      d.set("path", fit(f.path, k_line_bytes));
      d.set("rank", std::to_string(f.rank));
      d.set("rank_source", std::string(model::rank_source_name(f.rank_source)));
      d.set("events", format_count(static_cast<std::int64_t>(f.events), false));
      d.set("size", format_bytes(f.json_bytes));
      d.set("truncated", f.truncated);
      const auto in_rows = [&](model::EventStream st) {
        return f.accounting.recorded ? accounting_line(f.accounting, st) : std::string("not recorded");
      };
      d.set("host_rows", fit(in_rows(model::EventStream::host), k_line_bytes));
      d.set("gpu_rows", fit(in_rows(model::EventStream::gpu), k_line_bytes));
      file_rows.push_back(d);
    }
  }
  ctx.set("files", file_rows);
  ctx.set("has_files", !c.files.empty() || !t.files.empty());
  ctx.set("has_files_left_out", files_left_out > 0);
  ctx.set("files_left_out", format_count(static_cast<std::int64_t>(files_left_out), false));

  std::string settings = "Devices: " + fit(r.device_filter, k_short_bytes);
  settings += r.short_names ? " \xC2\xB7 names: short (--short-names)" : " \xC2\xB7 names: full";
  if (r.hta_compat) settings += " \xC2\xB7 HTA-compatible mode (--hta-compat)";
  ctx.set("settings", settings);
}

}  // namespace tracediff::output::html
