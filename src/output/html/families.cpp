// The kernel families section (default mode, GPU work on a side): GPU time per step
// by family, judged, as analysis decided (DiffReport::families); its chart is
// charts.cpp's families_chart.
//   has_families, families[] (figure_row, + kernels): DiffReport::families_shown;
//   has_families_more, families_more: how many the JSON has beyond them
#include <algorithm>
#include <string>

#include "output/html/sections.hpp"

namespace tracediff::output::html {

void add_families(const DiffReport& r, data& ctx) {
  const bool has = per_step_mode(r) && !r.families_shown.empty();
  ctx.set("has_families", has);
  if (!has) return;
  double max = 0;
  for (const auto i : r.families_shown) max = std::max({max, r.families[i].time.control, r.families[i].time.test});
  data list = make_list();
  for (const auto i : r.families_shown) {
    const auto& f = r.families[i];
    model::Figure fig;
    fig.label = f.label;
    fig.value = f.time;
    data d = figure_row(fig, max);
    d.set("kernels", std::to_string(f.kernels));
    list.push_back(d);
  }
  ctx.set("families", list);
  // The rest, all within noise (analysis lists every significant one), are in the JSON.
  const std::size_t more = r.families.size() - r.families_shown.size();
  ctx.set("has_families_more", more > 0);
  ctx.set("families_more", std::to_string(more));
}

}  // namespace tracediff::output::html
