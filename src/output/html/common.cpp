#include "output/html/common.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "util/escape.hpp"
#include "util/sanitize.hpp"
#include "util/utf8.hpp"
#include "util/format.hpp"

namespace tracediff::output {

namespace html {

std::string text(std::string_view s) { return utf8_sanitize(s); }

std::string fit(std::string_view s, std::size_t max_bytes, Escaped as) {
  // What a character costs once escaped: a control character (util/sanitize: C0,
  // DEL, C1, bidi, line separators) at most 6 ("\u202e"), else html_escape's
  // entities or json_string's \" and \u003c.
  const auto cost = [as](unsigned char c, std::size_t bytes, bool control) -> std::size_t {
    if (control) return 6;
    if (as == Escaped::json) {
      if (c == '<' || c == '>' || c == '&') return 6;
      if (c == '"' || c == '\\') return 2;
      return bytes;
    }
    switch (c) {
      case '&': return 5;
      case '<':
      case '>': return 4;
      case '"': return 6;
      case '\'': return 5;
      default: return bytes;
    }
  };
  std::string out;
  std::size_t used = 0, keep = 0;  // escaped bytes so far; bytes of out that fit with "…"
  for (std::size_t i = 0; i < s.size();) {
    const auto next = utf8_next(s, i);
    const std::string_view cp = next.valid ? s.substr(i, next.bytes) : k_replacement;  // as utf8_sanitize
    const auto c = cost(static_cast<unsigned char>(s[i]), cp.size(), next.valid && control_length(s, i) != 0);
    if (used + c + k_ellipsis.size() <= max_bytes) keep = out.size() + cp.size();
    if (used + c > max_bytes) {
      out.resize(keep);
      return out += k_ellipsis;
    }
    used += c;
    out += cp;
    i += next.bytes;
  }
  return out;
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

std::string pct_text(const std::optional<double>& pct, bool is_new) { return format_pct(pct, is_new); }
std::string pct_key(const std::optional<double>& pct, bool is_new) {
  if (pct) return key3(*pct);
  return is_new ? std::string("Infinity") : std::string();
}

Look verdict_look(model::Verdict v) {
  switch (v) {
    case model::Verdict::slower: return {"worse", k_up, "slower", 0};
    case model::Verdict::faster: return {"better", k_down, "faster", 1};
    case model::Verdict::same: break;
    case model::Verdict::untestable: return {"untested", "?", "not testable", 3};
  }
  return {"same", k_approx, "same within noise", 2};
}

Look figure_look(const model::Figure& f) {
  // Memory: more is worse, but it is no time: "more" / "less" in the verdict's colours.
  if (f.bytes && f.judged && f.value.significant) {
    auto look = verdict_look(f.value.verdict);
    look.word = model::figure_words(f);
    return look;
  }
  if (f.direction_only && f.value.significant)
    return {"moved", f.value.verdict == model::Verdict::slower ? k_up : k_down, model::figure_words(f), 1};
  if (!f.judged) {
    // --hta-compat's totals keep their sign; counts are neutral.
    if (f.duration && f.value.verdict != model::Verdict::same) return verdict_look(f.value.verdict);
    return {"neutral", "", "", 2};
  }
  return verdict_look(f.value.verdict);
}

data figure_row(const model::Figure& f, double bar_max) {
  const auto& v = f.value;
  const auto look = figure_look(f);
  const auto number = [&](double x, bool sign) {
    return f.bytes ? format_size(x, sign) : f.duration ? dur(x, sign) : format_count_per_step(x, sign);
  };
  data d;
  d.set("what", text(f.label));
  d.set("has_note", !f.note.empty());
  d.set("note", text(f.note));
  d.set("c", number(v.control, false));
  d.set("t", number(v.test, false));
  d.set("delta", number(v.diff(), true));
  d.set("pct", pct_text(v.pct, v.is_new()));
  d.set("cls", std::string(look.cls));
  d.set("arrow", std::string(look.sym));
  d.set("has_arrow", *look.sym != '\0');
  d.set("vd", std::string(look.word));
  d.set("has_vd", *look.word != '\0');
  d.set("has_bars", bar_max > 0);
  d.set("cw", width_pct(v.control, bar_max));
  d.set("tw", width_pct(v.test, bar_max));
  return d;
}

bool per_step_mode(const DiffReport& r) { return !r.hta_compat; }

bool has_step_section(const DiffReport& r) { return per_step_mode(r) && !r.breakdown.empty(); }

std::string side_label(const SideSummary& s, bool test) {
  return fit(s.label.empty() ? (test ? "Test" : "Control") : s.label, k_short_bytes);
}

std::string label_of(const DiffRow& row) { return fit(row.label, k_label_bytes); }

std::string tip_name(const DiffRow& row) {
  std::string full = fit(row.full_name.empty() ? row.name : row.full_name, k_name_bytes);
  if (full != label_of(row)) return full;
  return {};
}

Anchors make_anchors(const DiffReport& r) {
  Anchors a;
  const auto& e = r.embedded;
  // What analysis embedded (analysis/decide/embedded); an index past the rows is dropped.
  for (const auto i : e.rows)
    if (i < r.rows.size()) a.order.push_back(i);
  a.rows_left_out = r.rows.size() - a.order.size();
  a.pos.assign(r.rows.size(), Anchors::none);
  for (std::size_t p = 0; p < a.order.size(); ++p) a.pos[a.order[p]] = p;
  for (const auto k : e.launchers)
    if (k < r.by_launcher.size()) a.launchers.push_back(k);
  a.launchers_left_out = r.by_launcher.size() - a.launchers.size();
  for (auto k : a.launchers) a.launcher.emplace(r.by_launcher[k].launcher, k);
  for (std::size_t p = 0; p < a.order.size(); ++p) {
    const auto& row = r.rows[a.order[p]];
    if (row.device == model::Device::gpu) a.gpu_row.emplace(row.name, p);
    a.has_flops |= row.flops_per_call.has_value() || row.work.recorded;
  }
  return a;
}

std::string row_href(const Anchors& a, std::size_t row) {
  return row < a.pos.size() && a.pos[row] != Anchors::none ? tag("#r", a.pos[row]) : std::string();
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
