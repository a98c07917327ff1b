// What bounded the step (DiffReport::critical_path): the sentence, what moved on the path,
// a bar per side split by bound type (share of the path), and, folded, the rows on the
// path and the what-ifs. Static HTML: nothing here needs the script.
//   has_cpath, cpath_sentence, cpath_moved, has_cpath_moved, cpath_what_if, has_cpath_what_if,
//   cpath_missing, has_cpath_missing, cpath_sides[] {side, length, parts[] {id, label, share, width}},
//   cpath_key[] {id, label}, cpath_rows[] {label, href, c, t, delta, cls, c_on, t_on, change},
//   cpath_what_ifs[] {side, what, href, has_href, saved, saved_pct, on_path, steps}
#include <algorithm>
#include <cmath>
#include <string>

#include "output/html/sections.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

std::string share_text(double pct) { return std::to_string(static_cast<long long>(std::llround(pct))) + " %"; }

std::string opt_pct(const std::optional<double>& p) { return p ? share_text(*p) : "\xE2\x80\x94"; }

const char* cls_of(const model::Comparison& v) {
  if (v.verdict == model::Verdict::untestable) return "untested";
  if (!v.significant) return "same";
  return v.diff() > 0 ? "worse" : "better";
}

}  // namespace

void add_critical_path(const DiffReport& r, const Anchors& a, data& ctx) {
  const auto& cp = r.critical_path;
  ctx.set("has_cpath", cp.decided);
  ctx.set("has_cpath_missing", !cp.decided && !cp.missing.empty());
  ctx.set("cpath_missing", cp.missing);
  if (!cp.decided) return;
  ctx.set("cpath_sentence", cp.sentence);
  ctx.set("has_cpath_moved", !cp.moved.empty());
  ctx.set("cpath_moved", cp.moved);
  ctx.set("has_cpath_what_if", !cp.what_if_line.empty());
  ctx.set("cpath_what_if", cp.what_if_line);
  ctx.set("has_cpath_asked", !cp.asked_line.empty());
  ctx.set("cpath_asked", cp.asked_line);

  // One scale for both bars: a shorter path is a shorter bar.
  const double longest = std::max(cp.length.control, cp.length.test);
  data sides = make_list();
  for (const bool test : {false, true}) {
    data side;
    side.set("side", side_label(test ? r.test : r.control, test));
    side.set("length", dur(test ? cp.length.test : cp.length.control, false));
    data parts = make_list();
    for (const auto& b : cp.bounds) {
      const double share = test ? b.test_share : b.control_share;
      if (share < 1) continue;  // under a hundredth of the path: no room to show it
      data p;
      p.set("id", b.id);
      p.set("label", b.label);
      p.set("share", share_text(share));
      p.set("width", width_pct(share * (test ? cp.length.test : cp.length.control), 100 * longest));
      parts.push_back(p);
    }
    side.set("parts", parts);
    sides.push_back(side);
  }
  ctx.set("cpath_sides", sides);
  data key = make_list();
  for (const auto& b : cp.bounds) {
    data k;
    k.set("id", b.id);
    k.set("label", b.label);
    key.push_back(k);
  }
  ctx.set("cpath_key", key);

  data rows = make_list();
  for (const auto& pr : cp.rows) {
    data d;
    d.set("label", fit(r.rows[pr.row].label, k_label_bytes));
    d.set("href", row_href(a, pr.row));
    d.set("c", dur(pr.time.control, false));
    d.set("t", dur(pr.time.test, false));
    d.set("delta", dur(pr.time.diff(), true));
    d.set("cls", std::string(cls_of(pr.time)));
    d.set("c_on", opt_pct(pr.control_on_path));
    d.set("t_on", opt_pct(pr.test_on_path));
    d.set("change", pr.change);
    rows.push_back(d);
  }
  ctx.set("cpath_rows", rows);
  data whatifs = make_list();
  for (const auto& w : cp.what_if) {
    data d;
    d.set("side", side_label(w.side == "test" ? r.test : r.control, w.side == "test"));
    d.set("what", fit(w.row ? r.rows[*w.row].label + " \xC3\x97" + std::to_string(w.factor).substr(0, 4) : w.label,
                      k_label_bytes));
    d.set("has_href", w.row.has_value());
    d.set("href", w.row ? row_href(a, *w.row) : std::string());
    d.set("saved", dur(-w.saved_ns, true));
    d.set("saved_pct", format_pct(-w.saved_pct));
    d.set("on_path", opt_pct(w.on_path_pct));
    d.set("steps", std::to_string(w.steps));
    whatifs.push_back(d);
  }
  ctx.set("cpath_what_ifs", whatifs);
}

}  // namespace tracediff::output::html
