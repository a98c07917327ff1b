// The kernel families section (default mode, GPU work on a side): GPU time per step
// by family, judged, as analysis decided (DiffReport::families); its chart is
// charts.cpp's families_chart.
//   has_families, families[] (figure_row, + kernels), families_n
#include <algorithm>
#include <string>

#include "output/html/sections.hpp"

namespace tracediff::output::html {

void add_families(const DiffReport& r, data& ctx) {
  const bool has = per_step_mode(r) && !r.families.empty();
  ctx.set("has_families", has);
  if (!has) return;
  double max = 0;
  for (const auto& f : r.families) max = std::max({max, f.time.control, f.time.test});
  data list = make_list();
  for (const auto& f : r.families) {
    model::Figure fig;
    fig.label = f.label;
    fig.value = f.time;
    data d = figure_row(fig, max);
    d.set("kernels", std::to_string(f.kernels));
    list.push_back(d);
  }
  ctx.set("families", list);
  ctx.set("families_n", std::to_string(r.families.size()));
}

}  // namespace tracediff::output::html
