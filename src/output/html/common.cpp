#include "output/html/common.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "output/html_writer.hpp"
#include "util/escape.hpp"
#include "util/format.hpp"

namespace tracediff::output {

namespace detail {

std::string shorten_name(std::string_view name, std::size_t max_chars) {
  std::string s = utf8_sanitize(name);
  if (s.size() <= max_chars || max_chars < 8) return s;  // no more code points than bytes
  const auto is_start = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  const auto n = static_cast<std::size_t>(std::count_if(s.begin(), s.end(), is_start));
  if (n <= max_chars) return s;
  // Byte offset of code point k.
  const auto offset = [&](std::size_t k) {
    for (std::size_t i = 0; i < s.size(); ++i)
      if (is_start(s[i]) && k-- == 0) return i;
    return s.size();
  };
  const std::size_t tail = max_chars / 4;
  const std::size_t head = max_chars - tail - 1;
  return s.substr(0, offset(head)) + "\xE2\x80\xA6" + s.substr(offset(n - tail));
}

}  // namespace detail

namespace html {

std::string text(std::string_view s) { return utf8_sanitize(s); }

std::optional<double> relative_pct(std::int64_t control, std::int64_t test) {
  if (control == 0) return std::nullopt;
  return 100.0 * static_cast<double>(test - control) / static_cast<double>(control);
}

std::string width_pct(double v, double max) {
  if (!(max > 0) || !(v > 0)) return "0";
  auto tenths = static_cast<std::uint64_t>(std::llround(std::min(v / max, 1.0) * 1000.0));
  if (tenths < 3) tenths = 3;  // keep a non-zero value visible
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::string fixed3(double v) {
  if (!std::isfinite(v)) return "0";
  if (v == 0) v = 0;  // no "-0.000"
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  return std::string(buf, r.ptr);
}

std::string key3(double v) {
  std::string s = fixed3(v);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::int64_t round_ns(double v) {
  if (!std::isfinite(v)) return 0;
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN + 1;
  return std::llround(v);
}

std::string tag(std::string_view prefix, std::size_t n) {
  std::string out(prefix);
  out += std::to_string(n);
  return out;
}

std::string dur(double ns, bool with_sign) { return format_duration_ns(round_ns(ns), with_sign); }

namespace {
std::optional<double> rel(double c, double t) {
  if (c == 0) return std::nullopt;
  return 100.0 * (t - c) / c;
}
}  // namespace

std::string pct_text(double c, double t) { return format_pct(rel(c, t), c == 0 && t != 0); }
std::string pct_key(double c, double t) {
  const auto p = rel(c, t);
  if (p) return key3(*p);
  return c == 0 && t != 0 ? std::string("Infinity") : std::string();
}

Tone duration_tone(double diff) {
  if (diff > 0) return {"worse", k_up};
  if (diff < 0) return {"better", k_down};
  return {"same", ""};
}

Tone change_tone(const DiffReport& r, double c, double t) {
  const double d = t - c;
  const Tone tone = duration_tone(d);
  if (r.hta_compat || d == 0) return tone;
  const double mag = std::fabs(d);
  if (mag < r.min_change_us * 1000.0 || (c > 0 && 100.0 * mag / c < r.min_change_pct))
    return {"same", tone.arrow};
  return tone;
}

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

bool is_profiler_step(const DiffRow& row) {
  return row.name.rfind("ProfilerStep#", 0) == 0 || row.full_name.rfind("ProfilerStep#", 0) == 0;
}

bool has_steps(const SideSummary& s) { return !s.whole_trace && !s.step_times.steps.empty(); }

bool per_step_mode(const DiffReport& r) { return !r.hta_compat; }

bool has_step_section(const DiffReport& r) {
  return per_step_mode(r) && has_steps(r.control) && has_steps(r.test) && !r.control.step_details.empty() &&
         !r.test.step_details.empty();
}

std::string unit_word(const DiffReport& r) {
  if (r.control.whole_trace && r.test.whole_trace) return "trace";
  if (r.control.whole_trace || r.test.whole_trace) return "unit";
  return "step";
}

std::string display_name(const DiffRow& row) { return detail::shorten_name(row.name); }

std::string tip_name(const DiffRow& row) {
  const std::string shown = display_name(row);
  const std::string full = text(row.full_name.empty() ? row.name : row.full_name);
  if (full != shown) return full;
  return {};
}

Anchors make_anchors(const DiffReport& r) {
  Anchors a;
  a.order = r.impact_order();
  a.pos.assign(r.rows.size(), 0);
  for (std::size_t p = 0; p < a.order.size(); ++p) a.pos[a.order[p]] = p;
  for (std::size_t k = 0; k < r.by_launcher.size(); ++k) a.launcher.emplace(r.by_launcher[k].launcher, k);
  for (std::size_t p = 0; p < a.order.size(); ++p) {
    const auto& row = r.rows[a.order[p]];
    if (row.device == model::Device::gpu) a.gpu_row.emplace(row.name, p);
  }
  return a;
}

std::string render_list(std::string_view name, const std::string& key, std::size_t n, std::size_t bytes_each,
                        const std::function<void(std::size_t, Fields&)>& fill) {
  templates::Stencils stencils(name, key);
  std::string out;
  out.reserve(n * bytes_each);
  for (std::size_t i = 0; i < n; ++i) stencils.render([&](Fields& f) { fill(i, f); }, out);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace html

}  // namespace tracediff::output
