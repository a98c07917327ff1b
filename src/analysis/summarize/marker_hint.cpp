#include "analysis/summarize/marker_hint.hpp"

#include <tuple>
#include <vector>

namespace tracediff::analysis::detail {

namespace {

std::string regex_escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

MarkerHint marker_hint(const model::TraceFile& f, std::int64_t window_begin, std::int64_t window_end) {
  using model::Kind;
  struct Seen {
    std::uint64_t count = 0;
    std::int64_t first = 0, last = 0, last_end = 0, covered = 0;
    std::uint64_t thread = 0;
    bool one_thread = true;
  };
  std::vector<Seen> seen(f.pool.size());
  for (const auto& e : f.events) {
    // record_function labels only: a Python frame that repeats (a lazy init, a helper) says
    // nothing of iterations, a label such as Optimizer.step#SGD.step does.
    if (e.kind != Kind::user_annotation) continue;
    auto& s = seen[e.name];
    const auto thread = (std::uint64_t{e.pid} << 32) | e.tid;
    if (s.count == 0) s.first = s.last = e.ts_ns, s.thread = thread;
    s.first = std::min(s.first, e.ts_ns);
    s.last = std::max(s.last, e.ts_ns);
    s.last_end = std::max(s.last_end, e.ts_ns + e.dur_ns);
    s.covered += e.dur_ns;
    s.one_thread = s.one_thread && s.thread == thread;
    ++s.count;
  }
  const auto window = window_end - window_begin;
  std::uint32_t best = ~0u;
  const auto rank = [&](std::uint32_t id) { return std::tuple(seen[id].count, seen[id].first, id); };
  for (std::uint32_t id = 0; id < seen.size(); ++id) {
    const auto& s = seen[id];
    if (s.count < 3 || !s.one_thread || window <= 0) continue;
    // The starts' spread, extended by one iteration's share: N evenly spaced starts cover N-1 gaps.
    const double spread = static_cast<double>(s.last - s.first) * static_cast<double>(s.count) /
                          static_cast<double>(s.count - 1);
    if (spread < 0.5 * static_cast<double>(window)) continue;
    // As --step-marker will read it: spans that cover their extent are steps, short marks a
    // step from one to the next; a label in between (a data loader's half of each
    // iteration) would make its own spans the steps, and leave the work out.
    const double cover = static_cast<double>(s.covered) / static_cast<double>(std::max<std::int64_t>(1, s.last_end - s.first));
    if (cover > 0.25 && cover < 0.8) continue;
    if (best == ~0u || rank(id) < rank(best)) best = id;
  }
  if (best == ~0u) return {};
  const auto name = f.pool.get(best);
  const auto hash = name.find('#');
  const auto stem = hash != std::string_view::npos && hash > 0 ? name.substr(0, hash) : name;
  return {std::string(name), regex_escaped(stem), seen[best].count};
}

}  // namespace tracediff::analysis::detail
