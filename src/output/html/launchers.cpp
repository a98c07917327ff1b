// GPU time by launching operator (default mode), each launcher with its first
// kernels. The launchers are a block of their own ({{{launchers}}}): launchers[] of
// launchers.html.mustache.
//   has_launchers, launcher_count, launchers[] {id, nm, has_tip, tip, c, t, d, p, cls, arrow, has_arrow, vd, nk,
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
  constexpr std::size_t k_kernels = 25;
  const auto& l = r.by_launcher[k];
  const auto look = verdict_look(l.time.verdict);
  f.text("id", tag("l", k));
  f.text("nm", l.label);
  const auto full = text(l.launcher);
  f.flag("has_tip", full != l.label);
  f.text("tip", full);
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
    e.text("nm", kn.label);
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

void add_launchers(const DiffReport& r, data& ctx) {
  const bool on = has_launchers(r);
  ctx.set("has_launchers", on);
  if (!on) return;
  ctx.set("launcher_count", format_count(static_cast<std::int64_t>(r.by_launcher.size()), false));
}

std::string render_launchers(const DiffReport& r, const Anchors& a) {
  if (!has_launchers(r)) return std::string();
  return render_list("launchers.html.mustache", "launchers", r.by_launcher.size(), 2560,
                     [&](std::size_t k, Fields& row) { launcher_row(r, a, k, row); });
}

}  // namespace tracediff::output::html
