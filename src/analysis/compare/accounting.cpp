#include "analysis/compare/accounting.hpp"

#include <optional>

namespace tracediff::analysis::detail {

model::Accounting account_file(const model::FileSummary& f, std::size_t fi,
                               const std::function<bool(std::size_t, std::uint32_t)>& compared,
                               const std::set<std::pair<std::size_t, std::uint32_t>>& warm,
                               const std::function<bool(const model::SummaryKey&)>& kept) {
  using model::EventStream;
  using model::LeftOut;
  auto a = f.accounting;
  if (a.recorded) {
    // Why a cell of the file's rows is not compared; nothing when it is.
    const auto why = [&](const model::SummaryKey* k, std::uint32_t step) -> std::optional<LeftOut> {
      if (warm.count({fi, step})) return LeftOut::warmup;
      if (!compared(fi, step) || (k && !kept(*k))) return LeftOut::not_selected;
      return std::nullopt;
    };
    const auto move = [&](EventStream stream, LeftOut reason, std::uint64_t events, std::int64_t ns) {
      auto& t = a.stream(stream);
      const model::Tally moved{events, ns};
      t.rows -= moved;
      t.reason(reason) += moved;
    };
    for (const auto& c : f.cells) {
      const auto& k = f.keys[c.key];
      const bool host = model::device_of(k.kind) == model::Device::cpu;
      if (const auto r = why(&k, c.step))  // a device-side span has no time (summarize.cpp)
        move(host ? EventStream::host : EventStream::gpu, *r, c.count,
             host || model::is_gpu_work(k.kind) ? c.self_ns : 0);
    }
    for (const auto& c : f.memory_cells)
      if (const auto r = why(nullptr, c.step)) move(EventStream::memory, *r, c.self_count, 0);
  }
  return a;
}

}  // namespace tracediff::analysis::detail
