// GPU time by launching operator (default mode), each launcher with its first
// kernels. The launchers are a block of their own ({{{launchers}}}): launchers[] of
// launchers.html.mustache.
//   has_launchers, launcher_count, launchers[] {id, nm, has_tip, tip, c, t, d, p, cls, arrow, has_arrow, nk,
//     kernels[] {has_href, href, nm, c, t, d, p, cls}, has_more, more}
#include <algorithm>
#include <cstdint>
#include <string>

#include "output/html/sections.hpp"
#include "output/html_writer.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

namespace {

bool has_launchers(const DiffReport& r) { return per_step_mode(r) && !r.by_launcher.empty(); }

// Launcher k with its first kernels.
void launcher_row(const DiffReport& r, const Anchors& a, std::size_t k, Fields& f) {
  const double cu = r.control.units ? static_cast<double>(r.control.units) : 1.0;
  const double tu = r.test.units ? static_cast<double>(r.test.units) : 1.0;
  constexpr std::size_t k_kernels = 25;
  const auto& l = r.by_launcher[k];
  const auto tone = change_tone(r, l.control_per_step_ns, l.test_per_step_ns);
  f.text("id", tag("l", k));
  const auto shown = detail::shorten_name(l.launcher);
  f.text("nm", shown);
  const auto full = text(l.launcher);
  f.flag("has_tip", full != shown);
  f.text("tip", full);
  f.text("c", dur(l.control_per_step_ns, false));
  f.text("t", dur(l.test_per_step_ns, false));
  f.text("d", dur(l.test_per_step_ns - l.control_per_step_ns, true));
  f.text("p", pct_text(l.control_per_step_ns, l.test_per_step_ns));
  f.text("cls", tone.cls);
  f.text("arrow", tone.arrow);
  f.flag("has_arrow", *tone.arrow != '\0');
  f.text("nk", std::to_string(l.kernels.size()));
  auto& kernels = f.objects("kernels", std::min(l.kernels.size(), k_kernels));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& kn = l.kernels[i];
    const double kc = static_cast<double>(kn.control_ns) / cu, kt = static_cast<double>(kn.test_ns) / tu;
    const auto kt_tone = change_tone(r, kc, kt);
    Fields e = f.item(kernels, i);
    const auto row = a.gpu_row.find(kn.name);
    e.flag("has_href", row != a.gpu_row.end());
    e.text("href", row != a.gpu_row.end() ? tag("#r", row->second) : std::string());
    e.text("nm", detail::shorten_name(kn.name));
    e.text("c", dur(kc, false));
    e.text("t", dur(kt, false));
    e.text("d", dur(kt - kc, true));
    e.text("p", pct_text(kc, kt));
    e.text("cls", kt_tone.cls);
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
