#include "output/accounting_text.hpp"

#include <algorithm>
#include <vector>

#include "util/format.hpp"

namespace tracediff::output {

std::string accounting_line(const model::Accounting& a, model::EventStream stream) {
  const auto& t = a.stream(stream);
  const bool timed = stream != model::EventStream::memory;
  const auto count = [](std::uint64_t n) { return format_count(static_cast<std::int64_t>(n), false); };
  std::string out = count(t.rows.events) + " of " + count(t.read.events) + " in rows";
  if (timed && t.read.ns > 0)
    out += " (" + format_duration_ns(t.rows.ns, false) + " of " + format_duration_ns(t.read.ns, false) + ")";
  // The reasons, most events first (ties in the reasons' order).
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < model::k_left_out_reasons; ++r)
    if (t.left_out[r].events) order.push_back(r);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return t.left_out[x].events > t.left_out[y].events; });
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& l = t.left_out[order[k]];
    out += (k == 0 ? "; left out: " : ", ") + count(l.events) + " " +
           model::left_out_label(static_cast<model::LeftOut>(order[k]));
    if (timed && l.ns > 0) out += " (" + format_duration_ns(l.ns, false) + ")";
  }
  return out;
}

}  // namespace tracediff::output
