#include "output/accounting_text.hpp"

#include <algorithm>
#include <vector>

#include "util/format.hpp"

namespace tracediff::output {

namespace {

std::string count(std::uint64_t n) { return format_count(static_cast<std::int64_t>(n), false); }

// Short enough for a table cell; docs/reading-the-report.md has the long ones.
const char* short_label(model::LeftOut r) {
  switch (r) {
    case model::LeftOut::outside_steps: return "outside steps";
    case model::LeftOut::warmup: return "warm-up";
    case model::LeftOut::not_selected: return "not selected";
    case model::LeftOut::step_span: return "step spans";
    case model::LeftOut::profiler: return "profiler's own work";
    case model::LeftOut::unlinked: return "unlinked GPU work";
    case model::LeftOut::repeated_step: return "repeated step";
    case model::LeftOut::no_operator: return "no operator open (in the memory figures)";
    case model::LeftOut::not_allocation: return "frees and host memory (in the memory figures)";
    case model::LeftOut::device_span: return "GPU annotation spans";
  }
  return "?";
}

}  // namespace

std::string accounting_rows(const model::Accounting& a, model::EventStream stream) {
  const auto& t = a.stream(stream);
  std::string out = count(t.rows.events) + " of " + count(t.read.events) + " in rows";
  if (stream != model::EventStream::memory && t.read.ns > 0)
    out += " (" + format_duration_ns(t.rows.ns, false) + " of " + format_duration_ns(t.read.ns, false) + ")";
  return out;
}

std::string accounting_left_out(const model::Accounting& a, model::EventStream stream) {
  const auto& t = a.stream(stream);
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < model::k_left_out_reasons; ++r)
    if (t.left_out[r].events) order.push_back(r);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return t.left_out[x].events > t.left_out[y].events; });
  std::string out;
  for (const auto r : order) {
    const auto& l = t.left_out[r];
    out += (out.empty() ? "" : ", ") + std::string(short_label(static_cast<model::LeftOut>(r))) + ": " + count(l.events);
    if (stream != model::EventStream::memory && l.ns > 0) out += " (" + format_duration_ns(l.ns, false) + ")";
  }
  return out.empty() ? "none" : out;
}

std::string accounting_line(const model::Accounting& a, model::EventStream stream) {
  return accounting_rows(a, stream) + "; left out \xE2\x80\x94 " + accounting_left_out(a, stream);
}

}  // namespace tracediff::output
