// The headline: cards, metrics, what was compared and how.
//   cards[], metrics[]  {metric, c, t, delta, pct, cls: worse|better|same|neutral, arrow, has_arrow}
//   has_whole_trace, whole_trace_text, has_notes, notes[] (strings), settings
//   compared[] {what, c, t}; has_files, files[] {side, path, rank, rank_source, events, size, truncated}
#include <cstdint>
#include <string>
#include <vector>

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

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += text(s);
  }
  return out;
}

data duration_metric(const DiffReport& r, const std::string& label, std::int64_t c, std::int64_t t) {
  const auto tone = change_tone(r, static_cast<double>(c), static_cast<double>(t));
  return metric_row(label, format_duration_ns(c, false), format_duration_ns(t, false),
                    format_duration_ns(t - c, true), format_pct(relative_pct(c, t), c == 0 && t != 0),
                    tone.cls, tone.arrow);
}

data count_metric(const std::string& label, std::uint64_t c, std::uint64_t t) {
  const auto ci = static_cast<std::int64_t>(c), ti = static_cast<std::int64_t>(t);
  return metric_row(label, format_count(ci, false), format_count(ti, false), format_count(ti - ci, true),
                    format_pct(relative_pct(ci, ti), ci == 0 && ti != 0), "neutral", "");
}

}  // namespace

void add_headline(const DiffReport& r, data& ctx) {
  const auto& c = r.control;
  const auto& t = r.test;
  data metrics = make_list();
  data cards = make_list();
  const bool steps = has_steps(c) && has_steps(t);
  const bool step_section = has_step_section(r);
  if (steps) {
    auto mean = duration_metric(r, "Step time, mean", c.step_times.mean_ns, t.step_times.mean_ns);
    cards.push_back(mean);
    if (!step_section) {  // else the step section has them all
      metrics.push_back(mean);
      metrics.push_back(duration_metric(r, "Step time, median", c.step_times.median_ns, t.step_times.median_ns));
      metrics.push_back(metric_row("Step time, min – max",
                                   format_duration_ns(c.step_times.min_ns, false) + " \xE2\x80\x93 " +
                                       format_duration_ns(c.step_times.max_ns, false),
                                   format_duration_ns(t.step_times.min_ns, false) + " \xE2\x80\x93 " +
                                       format_duration_ns(t.step_times.max_ns, false),
                                   "", "", "neutral", ""));
    }
  }
  auto cpu_time = duration_metric(r, "CPU operators, total time", c.cpu_total.total_ns, t.cpu_total.total_ns);
  auto gpu_time = duration_metric(r, "GPU work, total time", c.gpu_total.total_ns, t.gpu_total.total_ns);
  if (step_section) {
    cards.push_back(duration_metric(r, "GPU busy per step", c.step_mean.gpu_busy_ns, t.step_mean.gpu_busy_ns));
    cards.push_back(duration_metric(r, "GPU idle per step", c.step_mean.gpu_idle_ns, t.step_mean.gpu_idle_ns));
  } else {
    cards.push_back(cpu_time);
    cards.push_back(gpu_time);
  }
  metrics.push_back(count_metric("CPU operators, count", c.cpu_total.count, t.cpu_total.count));
  metrics.push_back(cpu_time);
  metrics.push_back(count_metric("GPU work (kernels, memcpy, memset), count", c.gpu_total.count,
                                 t.gpu_total.count));
  metrics.push_back(gpu_time);
  ctx.set("cards", cards);
  ctx.set("metrics", metrics);

  // Whole-trace mode, said plainly.
  std::string whole;
  if (c.whole_trace && t.whole_trace)
    whole = "Neither side has ProfilerStep annotations: each whole trace was compared, every event included.";
  else if (c.whole_trace)
    whole = "The control side has no ProfilerStep annotations: its whole trace was compared, every event included.";
  else if (t.whole_trace)
    whole = "The test side has no ProfilerStep annotations: its whole trace was compared, every event included.";
  ctx.set("has_whole_trace", !whole.empty());
  ctx.set("whole_trace_text", whole);

  data notes = make_list();
  for (const auto& n : r.notes) notes.push_back(data(text(n)));
  ctx.set("has_notes", !r.notes.empty());
  ctx.set("notes", notes);

  // What was compared, one line per property, control and test side by side.
  data compared = make_list();
  const auto add = [&](const std::string& what, std::string cv, std::string tv) {
    data d;
    d.set("what", what);
    d.set("c", cv.empty() ? std::string("\xE2\x80\x94") : cv);  // —
    d.set("t", tv.empty() ? std::string("\xE2\x80\x94") : tv);
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
  const auto iters = [](const SideSummary& s) {
    if (s.whole_trace) return std::string("whole trace (no ProfilerStep)");
    std::string out = ranges(s.iterations);
    if (!s.available_iterations.empty() && s.available_iterations != s.iterations)
      out += " (of " + ranges(s.available_iterations) + ")";
    return out;
  };
  add("Inputs", join(c.inputs, ", "), join(t.inputs, ", "));
  add("Files", files(c), files(t));
  add("Ranks", ranks(c), ranks(t));
  add("Steps", iters(c), iters(t));
  add("Steps timed", format_count(static_cast<std::int64_t>(c.step_times.steps.size()), false),
      format_count(static_cast<std::int64_t>(t.step_times.steps.size()), false));
  if (per_step_mode(r))
    add("Step units (the per-" + unit_word(r) + " divisor)", format_count(static_cast<std::int64_t>(c.units), false),
        format_count(static_cast<std::int64_t>(t.units), false));
  add("GPUs", join(c.gpu_names, ", "), join(t.gpu_names, ", "));
  ctx.set("compared", compared);

  data file_rows = make_list();
  for (const auto* side : {&c, &t}) {
    for (const auto& f : side->files) {
      data d;
      d.set("side", std::string(side == &c ? "control" : "test"));
      d.set("path", text(f.path));
      d.set("rank", std::to_string(f.rank));
      d.set("rank_source", std::string(model::rank_source_name(f.rank_source)));
      d.set("events", format_count(static_cast<std::int64_t>(f.events), false));
      d.set("size", format_bytes(f.json_bytes));
      d.set("truncated", f.truncated);
      file_rows.push_back(d);
    }
  }
  ctx.set("files", file_rows);
  ctx.set("has_files", !c.files.empty() || !t.files.empty());

  std::string settings = "Devices: " + text(r.device_filter);
  settings += r.short_names ? " \xC2\xB7 names: short (--short-names)" : " \xC2\xB7 names: full";
  if (r.hta_compat) settings += " \xC2\xB7 HTA-compatible mode (--hta-compat)";
  ctx.set("settings", settings);
}

}  // namespace tracediff::output::html
