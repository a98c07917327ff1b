// The report's mustache context (templates/report.html.mustache). Every string is
// UTF-8-sanitised; the template escapes it ({{x}}) except our own assets
// ({{{css}}}, {{{chart_js}}}, {{{report_js}}}) and {{{data_json}}} (json_string-escaped).
//   control_label, test_label, generator, csp, css, chart_js, report_js, data_json
//   cards[], metrics[]  {metric, c, t, delta, pct, cls: worse|better|same|neutral, arrow, has_arrow}
//   has_whole_trace, whole_trace_text, has_notes, notes[] (strings), settings
//   compared[] {what, c, t}; has_files, files[] {side, path, rank, rank_source, events, size, truncated}
//   groups[] {group, sym, size, has_names, names[] (strings)}
//   charts[] {id, title, subtitle, empty, height,
//             bars[] {label, has_tip, tip, cw, tw, dw (bar widths, %), ct, tt, dt, dcls: pos|neg|zero}}
//   has_rows, row_count, pct_basis, rows[] {nm, has_tip, tip, cat, dev, cc, tc, cd, td, dc, dd, dp, chg, chg_sym,
//                                cls, arrow, has_arrow, and *_v: raw sort keys for cc tc cd td dc dd dp chg}
//   change_toggles[] {group, n}, device_toggles[] {device, n}
//   has_diagnostics, diagnostic_total, diagnostic_counts[] {id, description, count},
//   has_samples, diagnostic_samples[] {id, file, offset, message}
#include "output/html_writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <kainjow/mustache.hpp>

#include "output/escape.hpp"
#include "output/format.hpp"
#include "util/embedded.hpp"

#ifndef TRACEDIFF_VERSION
#define TRACEDIFF_VERSION "unknown"
#endif

namespace tracediff::output {

namespace mu = kainjow::mustache;
using mu::data;

// --- SHA-256 (FIPS 180-4), for the CSP hashes of our inline scripts ---------------

namespace detail {

std::string sha256_base64(std::string_view bytes) {
  static constexpr std::uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };

  std::string msg(bytes);
  const std::uint64_t bit_len = static_cast<std::uint64_t>(bytes.size()) * 8;
  msg += static_cast<char>(0x80);
  while (msg.size() % 64 != 56) msg += '\0';
  for (int i = 7; i >= 0; --i) msg += static_cast<char>((bit_len >> (8 * i)) & 0xff);

  for (std::size_t off = 0; off < msg.size(); off += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(msg.data() + off + 4 * i);
      w[i] = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) |
             (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
    }
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6],
                  hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const std::uint32_t ch = (e & f) ^ (~e & g);
      const std::uint32_t t1 = hh + s1 + ch + k[i] + w[i];
      const std::uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
      const std::uint32_t t2 = s0 + maj;
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }

  unsigned char digest[32];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<unsigned char>(h[i] >> (24 - 8 * j));

  static constexpr char b64[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (int i = 0; i < 32; i += 3) {
    const std::uint32_t v = (std::uint32_t{digest[i]} << 16) |
                            (i + 1 < 32 ? std::uint32_t{digest[i + 1]} << 8 : 0) |
                            (i + 2 < 32 ? std::uint32_t{digest[i + 2]} : 0);
    out += b64[(v >> 18) & 63];
    out += b64[(v >> 12) & 63];
    out += i + 1 < 32 ? b64[(v >> 6) & 63] : '=';
    out += i + 2 < 32 ? b64[v & 63] : '=';
  }
  return out;
}

std::string shorten_name(std::string_view name, std::size_t max_chars) {
  const std::string s = utf8_sanitize(name);
  // Byte offsets of each code point start.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  if (starts.size() <= max_chars || max_chars < 8) return s;
  const std::size_t tail = max_chars / 4;
  const std::size_t head = max_chars - tail - 1;
  return s.substr(0, starts[head]) + "\xE2\x80\xA6" + s.substr(starts[starts.size() - tail]);
}

}  // namespace detail

namespace {

using model::Change;
using model::DiffReport;
using model::DiffRow;
using model::SideStats;
using model::SideSummary;

constexpr Change k_changes[] = {Change::added, Change::deleted, Change::increased,
                                Change::decreased, Change::unchanged};

data make_list() { return data{data::type::list}; }

std::string text(std::string_view s) { return utf8_sanitize(s); }

const char* device_name(model::Device d) {
  switch (d) {
    case model::Device::cpu: return "cpu";
    case model::Device::gpu: return "gpu";
    case model::Device::other: return "other";
  }
  return "other";
}

const char* rank_source_name(model::RankSource s) {
  switch (s) {
    case model::RankSource::distributed_info: return "distributedInfo";
    case model::RankSource::file_name: return "file name";
    case model::RankSource::fallback: return "assumed (none found)";
  }
  return "";
}

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

std::optional<double> relative_pct(std::int64_t control, std::int64_t test) {
  if (control == 0) return std::nullopt;
  return 100.0 * static_cast<double>(test - control) / static_cast<double>(control);
}

// A bar's width as a percentage of the largest value in its chart, one decimal.
std::string width_pct(std::uint64_t v, std::uint64_t max) {
  if (max == 0 || v == 0) return "0";
  auto tenths = static_cast<std::uint64_t>((static_cast<unsigned __int128>(v) * 1000 + max / 2) / max);
  if (tenths < 3) tenths = 3;  // keep a non-zero value visible
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::uint64_t magnitude(std::int64_t n) {
  return n < 0 ? ~static_cast<std::uint64_t>(n) + 1 : static_cast<std::uint64_t>(n);
}

// A number for data-v attributes and JSON: locale-independent.
std::string fixed3(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  return std::string(buf, r.ptr);
}

// How a duration change reads: regression (slower) or improvement (faster).
struct Tone {
  const char* cls;
  const char* arrow;
};
Tone duration_tone(std::int64_t diff_ns) {
  if (diff_ns > 0) return {"worse", "\xE2\x96\xB2"};   // ▲
  if (diff_ns < 0) return {"better", "\xE2\x96\xBC"};  // ▼
  return {"same", ""};
}

bool is_profiler_step(const DiffRow& row) {
  return row.name.rfind("ProfilerStep#", 0) == 0 || row.full_name.rfind("ProfilerStep#", 0) == 0;
}

// Row indices in by_impact order (falls back to row order if by_impact is unusable).
std::vector<std::size_t> impact_order(const DiffReport& r) {
  std::vector<std::size_t> order;
  bool ok = r.by_impact.size() == r.rows.size();
  if (ok) {
    std::vector<bool> seen(r.rows.size(), false);
    for (auto i : r.by_impact) {
      if (i >= r.rows.size() || seen[i]) {
        ok = false;
        break;
      }
      seen[i] = true;
    }
  }
  if (ok) return r.by_impact;
  for (std::size_t i = 0; i < r.rows.size(); ++i) order.push_back(i);
  return order;
}

// --- headline --------------------------------------------------------------------

data metric_row(std::string label, std::string c, std::string t, std::string delta,
                std::string pct, const char* cls, const char* arrow) {
  data d;
  d.set("metric", label);
  d.set("c", c);
  d.set("t", t);
  d.set("delta", delta);
  d.set("pct", pct);
  d.set("cls", std::string(cls));
  d.set("arrow", std::string(arrow));
  d.set("has_arrow", *arrow != '\0');
  return d;
}

data duration_metric(const std::string& label, std::int64_t c, std::int64_t t) {
  const auto tone = duration_tone(t - c);
  return metric_row(label, format_duration_ns(c, false), format_duration_ns(t, false),
                    format_duration_ns(t - c, true), format_pct(relative_pct(c, t), c == 0 && t != 0),
                    tone.cls, tone.arrow);
}

data count_metric(const std::string& label, std::uint64_t c, std::uint64_t t) {
  const auto ci = static_cast<std::int64_t>(c), ti = static_cast<std::int64_t>(t);
  return metric_row(label, format_count(ci, false), format_count(ti, false), format_count(ti - ci, true),
                    format_pct(relative_pct(ci, ti), ci == 0 && ti != 0), "neutral", "");
}

bool has_steps(const SideSummary& s) { return !s.whole_trace && !s.step_times.steps.empty(); }

void add_headline(const DiffReport& r, data& ctx) {
  const auto& c = r.control;
  const auto& t = r.test;
  data metrics = make_list();
  data cards = make_list();
  const bool steps = has_steps(c) && has_steps(t);
  if (steps) {
    auto mean = duration_metric("Step time, mean", c.step_times.mean_ns, t.step_times.mean_ns);
    cards.push_back(mean);
    metrics.push_back(mean);
    metrics.push_back(duration_metric("Step time, median", c.step_times.median_ns, t.step_times.median_ns));
    metrics.push_back(metric_row("Step time, min – max",
                                 format_duration_ns(c.step_times.min_ns, false) + " \xE2\x80\x93 " +
                                     format_duration_ns(c.step_times.max_ns, false),
                                 format_duration_ns(t.step_times.min_ns, false) + " \xE2\x80\x93 " +
                                     format_duration_ns(t.step_times.max_ns, false),
                                 "", "", "neutral", ""));
  }
  auto cpu_time = duration_metric("CPU operators, total time", c.cpu_total.total_ns, t.cpu_total.total_ns);
  auto gpu_time = duration_metric("GPU work, total time", c.gpu_total.total_ns, t.gpu_total.total_ns);
  cards.push_back(cpu_time);
  cards.push_back(gpu_time);
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
  add("GPUs", join(c.gpu_names, ", "), join(t.gpu_names, ", "));
  ctx.set("compared", compared);

  data file_rows = make_list();
  for (const auto* side : {&c, &t}) {
    for (const auto& f : side->files) {
      data d;
      d.set("side", std::string(side == &c ? "control" : "test"));
      d.set("path", text(f.path));
      d.set("rank", std::to_string(f.rank));
      d.set("rank_source", std::string(rank_source_name(f.rank_source)));
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

// --- ops_diff groups -------------------------------------------------------------

void add_groups(const DiffReport& r, data& ctx) {
  data groups = make_list();
  for (auto ch : k_changes) {
    const auto& names = r.ops_diff.of(ch);
    data g;
    g.set("group", std::string(model::change_name(ch)));
    g.set("sym", std::string(model::change_symbol(ch)));
    g.set("size", format_count(static_cast<std::int64_t>(names.size()), false));
    data list = make_list();
    for (const auto& n : names) list.push_back(data(text(n)));
    g.set("names", list);
    g.set("has_names", !names.empty());
    groups.push_back(g);
  }
  ctx.set("groups", groups);
}

// --- charts ----------------------------------------------------------------------

struct ChartRow {
  const DiffRow* row;
  std::int64_t c, t, d;
};

struct Chart {
  std::string id, title, subtitle;
  bool durations;
  std::vector<ChartRow> rows;
};

std::string format_value(std::int64_t v, bool durations, bool with_sign) {
  return durations ? format_duration_ns(v, with_sign) : format_count(v, with_sign);
}

std::vector<Chart> build_charts(const DiffReport& r, const std::vector<std::size_t>& order, int top) {
  const auto n = static_cast<std::size_t>(std::max(top, 0));
  std::vector<std::size_t> candidates;
  for (auto i : order)
    if (!is_profiler_step(r.rows[i])) candidates.push_back(i);

  Chart count{"count", "Count difference", "", false, {}};
  Chart dur{"duration", "Duration difference", "", true, {}};

  // By |Δ count|, ties in impact order (stable sort on the impact-ordered list).
  std::vector<std::size_t> by_count = candidates;
  std::stable_sort(by_count.begin(), by_count.end(), [&](std::size_t a, std::size_t b) {
    return magnitude(r.rows[a].diff_count()) > magnitude(r.rows[b].diff_count());
  });
  for (std::size_t k = 0; k < by_count.size() && k < n; ++k) {
    const auto& row = r.rows[by_count[k]];
    count.rows.push_back({&row, static_cast<std::int64_t>(row.control.count),
                          static_cast<std::int64_t>(row.test.count), row.diff_count()});
  }
  for (std::size_t k = 0; k < candidates.size() && k < n; ++k) {
    const auto& row = r.rows[candidates[k]];
    dur.rows.push_back({&row, row.control.total_ns, row.test.total_ns, row.diff_ns()});
  }
  count.subtitle = "Top " + std::to_string(count.rows.size()) + " operators by |\xCE\x94 count|";
  dur.subtitle = "Top " + std::to_string(dur.rows.size()) + " operators by |\xCE\x94 total duration|";
  return {count, dur};
}

std::string display_name(const DiffRow& row) { return detail::shorten_name(row.name); }

// The full name for a tooltip, when it says more than the shown name.
std::string tip_name(const DiffRow& row) {
  const std::string shown = display_name(row);
  const std::string full = text(row.full_name.empty() ? row.name : row.full_name);
  if (full != shown) return full;
  return {};
}

void add_charts(const std::vector<Chart>& charts, data& ctx) {
  data list = make_list();
  for (const auto& ch : charts) {
    std::uint64_t max = 0;
    for (const auto& cr : ch.rows)
      max = std::max({max, magnitude(cr.c), magnitude(cr.t), magnitude(cr.d)});
    data c;
    c.set("id", ch.id);
    c.set("title", ch.title);
    c.set("subtitle", ch.subtitle);
    c.set("empty", ch.rows.empty());
    c.set("height", std::to_string(80 + 36 * ch.rows.size()));
    data rows = make_list();
    for (const auto& cr : ch.rows) {
      data d;
      d.set("label", display_name(*cr.row));
      const auto tip = tip_name(*cr.row);
      d.set("has_tip", !tip.empty());
      d.set("tip", tip);
      d.set("cw", width_pct(magnitude(cr.c), max));
      d.set("tw", width_pct(magnitude(cr.t), max));
      d.set("dw", width_pct(magnitude(cr.d), max));
      d.set("ct", format_value(cr.c, ch.durations, false));
      d.set("tt", format_value(cr.t, ch.durations, false));
      d.set("dt", format_value(cr.d, ch.durations, true));
      d.set("dcls", std::string(cr.d > 0 ? "pos" : cr.d < 0 ? "neg" : "zero"));
      rows.push_back(d);
    }
    c.set("bars", rows);
    list.push_back(c);
  }
  ctx.set("charts", list);
}

// The data the report's script draws the charts from. Every string goes through
// json_string, which escapes < > & so nothing can close the <script> element.
std::string chart_json(const DiffReport& r, const std::vector<Chart>& charts) {
  std::string j = "{\"labels\":[";
  j += json_string(r.control.label.empty() ? "Control" : r.control.label);
  j += ',';
  j += json_string(r.test.label.empty() ? "Test" : r.test.label);
  j += "],\"charts\":[";
  bool first_chart = true;
  for (const auto& ch : charts) {
    if (!first_chart) j += ',';
    first_chart = false;
    j += "{\"id\":" + json_string(ch.id) + ",\"unit\":" + json_string(ch.durations ? "ns" : "count") +
         ",\"rows\":[";
    bool first = true;
    for (const auto& cr : ch.rows) {
      if (!first) j += ',';
      first = false;
      const auto& row = *cr.row;
      j += "{\"label\":" + json_string(display_name(row));
      j += ",\"name\":" + json_string(row.full_name.empty() ? row.name : row.full_name);
      j += ",\"c\":" + std::to_string(cr.c) + ",\"t\":" + std::to_string(cr.t) +
           ",\"d\":" + std::to_string(cr.d);
      j += ",\"ct\":" + json_string(format_value(cr.c, ch.durations, false));
      j += ",\"tt\":" + json_string(format_value(cr.t, ch.durations, false));
      j += ",\"dt\":" + json_string(format_value(cr.d, ch.durations, true)) + "}";
    }
    j += "]}";
  }
  j += "]}";
  return j;
}

// --- the table -------------------------------------------------------------------

void add_table(const DiffReport& r, const std::vector<std::size_t>& order, data& ctx) {
  data rows = make_list();
  std::array<std::size_t, 5> per_change{};
  std::array<std::size_t, 3> per_device{};
  for (auto i : order) {
    const auto& row = r.rows[i];
    const auto dc = row.diff_count();
    const auto dd = row.diff_ns();
    const auto pct = row.diff_pct();
    const bool is_new = row.control.total_ns == 0 && row.test.total_ns != 0;
    const auto tone = duration_tone(dd);
    ++per_change[static_cast<std::size_t>(row.change)];
    ++per_device[static_cast<std::size_t>(row.device)];
    data d;
    d.set("nm", display_name(row));
    const auto tip = tip_name(row);
    d.set("has_tip", !tip.empty());
    d.set("tip", tip);
    d.set("cat", text(row.category));
    d.set("dev", std::string(device_name(row.device)));
    d.set("cc", format_count(static_cast<std::int64_t>(row.control.count), false));
    d.set("cc_v", std::to_string(row.control.count));
    d.set("tc", format_count(static_cast<std::int64_t>(row.test.count), false));
    d.set("tc_v", std::to_string(row.test.count));
    d.set("cd", format_duration_ns(row.control.total_ns, false));
    d.set("cd_v", std::to_string(row.control.total_ns));
    d.set("td", format_duration_ns(row.test.total_ns, false));
    d.set("td_v", std::to_string(row.test.total_ns));
    d.set("dc", format_count(dc, true));
    d.set("dc_v", std::to_string(dc));
    d.set("dd", format_duration_ns(dd, true));
    d.set("dd_v", std::to_string(dd));
    d.set("dp", format_pct(pct, is_new));
    d.set("dp_v", pct ? fixed3(*pct) : is_new ? std::string("Infinity") : std::string());
    d.set("chg", std::string(model::change_name(row.change)));
    d.set("chg_sym", std::string(model::change_symbol(row.change)));
    d.set("chg_v", std::to_string(static_cast<int>(row.change)));
    d.set("cls", std::string(tone.cls));
    d.set("arrow", std::string(tone.arrow));
    d.set("has_arrow", *tone.arrow != '\0');
    rows.push_back(d);
  }
  ctx.set("rows", rows);
  ctx.set("row_count", format_count(static_cast<std::int64_t>(r.rows.size()), false));
  ctx.set("has_rows", !r.rows.empty());
  ctx.set("pct_basis", std::string(r.hta_compat ? "Relative change of the total duration"
                                                 : "Relative change of the duration per step"));

  data change_toggles = make_list();
  for (auto ch : k_changes) {
    data d;
    d.set("group", std::string(model::change_name(ch)));
    d.set("n", std::to_string(per_change[static_cast<std::size_t>(ch)]));
    change_toggles.push_back(d);
  }
  ctx.set("change_toggles", change_toggles);
  data device_toggles = make_list();
  for (auto dev : {model::Device::cpu, model::Device::gpu, model::Device::other}) {
    data d;
    d.set("device", std::string(device_name(dev)));
    d.set("n", std::to_string(per_device[static_cast<std::size_t>(dev)]));
    device_toggles.push_back(d);
  }
  ctx.set("device_toggles", device_toggles);
}

// --- diagnostics -----------------------------------------------------------------

void add_diagnostics(const DiffReport& r, data& ctx) {
  const auto& diag = r.diagnostics;
  data counts = make_list();
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (diag.count(id) == 0) continue;
    data d;
    d.set("id", std::string(model::diag_name(id)));
    d.set("description", std::string(model::diag_description(id)));
    d.set("count", format_count(static_cast<std::int64_t>(diag.count(id)), false));
    counts.push_back(d);
  }
  data samples = make_list();
  for (const auto& s : diag.samples()) {
    data d;
    d.set("id", std::string(model::diag_name(s.id)));
    d.set("file", text(s.file));
    d.set("offset", s.offset == 0 ? std::string("\xE2\x80\x94") : format_count(static_cast<std::int64_t>(s.offset), false));
    d.set("message", text(s.message));
    samples.push_back(d);
  }
  ctx.set("has_diagnostics", diag.total() > 0);
  ctx.set("diagnostic_total", format_count(static_cast<std::int64_t>(diag.total()), false));
  ctx.set("diagnostic_counts", counts);
  ctx.set("has_samples", !diag.samples().empty());
  ctx.set("diagnostic_samples", samples);
}

std::string asset(std::string_view name) {
  const auto bytes = embedded_file(name);
  if (bytes.empty()) throw std::runtime_error("embedded asset missing: " + std::string(name));
  return std::string(bytes);
}

}  // namespace

void write_html(const model::DiffReport& report, const HtmlOptions& options, std::ostream& out) {
  const std::string tmpl_text = asset("report.html.mustache");
  mu::mustache tmpl{tmpl_text};
  if (!tmpl.is_valid()) throw std::runtime_error("report template: " + tmpl.error_message());
  tmpl.set_custom_escape([](const std::string& s) { return html_escape(s); });

  const std::string chart_js = asset("chart.umd.min.js");
  const std::string report_js = asset("report.js");

  data ctx;
  const std::string control = text(report.control.label.empty() ? "Control" : report.control.label);
  const std::string test = text(report.test.label.empty() ? "Test" : report.test.label);
  ctx.set("control_label", control);
  ctx.set("test_label", test);
  ctx.set("generator", std::string("tracediff ") + TRACEDIFF_VERSION);
  // No network at all; scripts only ours (by hash), so injected markup could run nothing.
  ctx.set("csp", "default-src 'none'; script-src 'sha256-" + detail::sha256_base64(chart_js) +
                     "' 'sha256-" + detail::sha256_base64(report_js) +
                     "'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  ctx.set("css", asset("report.css"));
  ctx.set("chart_js", chart_js);
  ctx.set("report_js", report_js);

  const auto order = impact_order(report);
  add_headline(report, ctx);
  add_groups(report, ctx);
  const auto charts = build_charts(report, order, options.top);
  add_charts(charts, ctx);
  ctx.set("data_json", chart_json(report, charts));
  add_table(report, order, ctx);
  add_diagnostics(report, ctx);

  tmpl.render(ctx, out);
  if (!tmpl.is_valid()) throw std::runtime_error("report template: " + tmpl.error_message());
}

}  // namespace tracediff::output
