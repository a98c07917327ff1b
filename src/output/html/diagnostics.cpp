// The diagnostics: what was wrong with the inputs, counted, with samples.
//   has_diagnostics, diagnostic_total, diagnostic_counts[] {id, description, count},
//   has_samples, diagnostic_samples[] {id, file, offset, message} (as many as analysis embeds),
//   has_samples_left_out, samples_left_out
#include <algorithm>
#include <cstdint>
#include <string>

#include "output/html/sections.hpp"
#include "util/format.hpp"

namespace tracediff::output::html {

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
  const auto& all = diag.samples();
  const std::size_t listed = std::min(all.size(), r.embedded.samples);
  for (std::size_t k = 0; k < listed; ++k) {
    const auto& s = all[k];
    data d;
    d.set("id", std::string(model::diag_name(s.id)));
    d.set("file", fit(s.file, k_line_bytes));
    d.set("offset", s.offset == 0 ? std::string("\xE2\x80\x94") : format_count(static_cast<std::int64_t>(s.offset), false));
    d.set("message", fit(s.message, k_line_bytes));
    samples.push_back(d);
  }
  ctx.set("has_diagnostics", diag.total() > 0);
  ctx.set("diagnostic_total", format_count(static_cast<std::int64_t>(diag.total()), false));
  ctx.set("diagnostic_counts", counts);
  ctx.set("has_samples", !diag.samples().empty());
  ctx.set("diagnostic_samples", samples);
  ctx.set("has_samples_left_out", listed < all.size());
  ctx.set("samples_left_out", format_count(static_cast<std::int64_t>(all.size() - listed), false));
}

}  // namespace tracediff::output::html
