// GPU time by launching operator (default mode): the launchers the page embeds (the
// bound analysis decided), each with its first kernels. The launchers are a block of
// their own ({{{launchers}}}): launchers[] of launchers.html.mustache.
//   has_launchers, launcher_count, has_launchers_left_out, launchers_shown, launchers_left_out,
//   launchers[] {id, nm, has_tip, tip, graph, c, t, d, p, cls, arrow, has_arrow, vd, nk,
//     kernels[] {has_href, href, nm, c, t, d, p, cls}, has_more, more}
#include <algorithm>
#include <cstdint>
#include <string>

#include "output/html/sections.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

bool has_launchers(const DiffReport& r) { return per_step_mode(r) && !r.by_launcher.empty(); }

// Launcher k with its first kernels.
void launcher_row(const DiffReport& r, const Anchors& a, std::size_t k, Fields& f) {
  const std::size_t k_kernels = r.embedded.launcher_kernels;  // as analysis bounded them
  const auto& l = r.by_launcher[k];
  const auto look = verdict_look(l.time.verdict);
  f.text("id", tag("l", k));
  const auto label = fit(l.label, k_label_bytes);
  f.text("nm", label);
  const auto full = fit(l.launcher, k_name_bytes);
  f.flag("has_tip", full != label);
  f.text("tip", full);
  f.flag("graph", l.graph_replay);
  f.text("c", dur(l.time.control, false));
  f.text("t", dur(l.time.test, false));
  f.text("d", dur(l.time.diff(), true));
  f.text("p", pct_text(l.time.pct, l.time.is_new()));
  f.text("cls", look.cls);
  f.text("arrow", look.sym);
  f.flag("has_arrow", true);
  f.text("vd", look.word);
  f.text("nk", std::to_string(l.kernels.size()));
  auto& kernels = f.objects("kernels", std::min(l.kernels.size(), k_kernels));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& kn = l.kernels[i];
    Fields e = f.item(kernels, i);
    const auto row = a.gpu_row.find(kn.name);
    e.flag("has_href", row != a.gpu_row.end());
    e.text("href", row != a.gpu_row.end() ? tag("#r", row->second) : std::string());
    e.text("nm", fit(kn.label, k_label_bytes));
    e.text("c", dur(kn.time.control, false));
    e.text("t", dur(kn.time.test, false));
    e.text("d", dur(kn.time.diff(), true));
    e.text("p", pct_text(kn.time.pct, kn.time.is_new()));
    e.text("cls", verdict_look(kn.time.verdict).cls);
  }
  const bool more = l.kernels.size() > k_kernels;
  f.flag("has_more", more);
  f.text("more", more ? format_count(static_cast<std::int64_t>(l.kernels.size() - k_kernels), false) +
                            " more (every kernel is in the JSON output)"
                      : std::string());
}

}  // namespace

void add_launchers(const DiffReport& r, const Anchors& a, data& ctx) {
  const bool on = has_launchers(r);
  ctx.set("has_launchers", on);
  if (!on) return;
  const auto count = [](std::size_t n) { return format_count(static_cast<std::int64_t>(n), false); };
  ctx.set("launcher_count", count(r.by_launcher.size()));
  ctx.set("has_launchers_left_out", a.launchers_left_out > 0);
  ctx.set("launchers_shown", count(a.launchers.size()));
  ctx.set("launchers_left_out", count(a.launchers_left_out));
}

std::string render_launchers(const DiffReport& r, const Anchors& a) {
  if (!has_launchers(r)) return std::string();
  return render_list("launchers.html.mustache", "launchers", a.launchers.size(), 2560,
                     [&](std::size_t j, Fields& row) { launcher_row(r, a, a.launchers[j], row); });
}

}  // namespace tracediff::output::html
