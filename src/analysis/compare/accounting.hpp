#pragma once
// Every event accounted for, per side (model/event_accounting.hpp): each file's accounting as
// summarising left it, with the rows of the steps, ranks and keys the comparison did not
// take moved to the reason it did not (warm-up, not selected).
#include <cstdint>
#include <functional>
#include <set>
#include <utility>

#include "model/report.hpp"
#include "model/summary.hpp"

namespace tracediff::analysis::detail {

// File `fi` of its side (with its rows: model::WithRows), its accounting with the rows
// not compared moved to their reason; the side's is the sum of its files'.
// `compared(file, step)`: the (file index, step index) is a step unit of the comparison;
// `warm`: the warm-up ones; `kept(key)`: the key's device and category are compared.
model::Accounting account_file(const model::FileSummary& f, std::size_t fi,
                               const std::function<bool(std::size_t, std::uint32_t)>& compared,
                               const std::set<std::pair<std::size_t, std::uint32_t>>& warm,
                               const std::function<bool(const model::SummaryKey&)>& kept);

}  // namespace tracediff::analysis::detail
