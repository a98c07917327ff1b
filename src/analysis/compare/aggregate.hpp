#pragma once
// --hta-compat's aggregation (what one side contributes to each name, and how two
// sides become rows in HTA's order with ops_diff groups). Internal to analysis/.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/report.hpp"

namespace tracediff::analysis::detail {

struct KeyStats {
  model::SideStats stats;
  model::Device device = model::Device::cpu;
  std::string full_name;  // the first full name (in byte order) that produced this key
};

// (category, key name) -> stats; category is "" in --hta-compat.
using SideTable = std::map<std::pair<std::string, std::string>, KeyStats>;

// The row of (category, key), made if missing; it keeps the smallest full name and
// the first device.
KeyStats& row_of(SideTable& table, const std::string& category, const std::string& key,
                 const std::string& full_name, model::Device device);

// HTA's groups from counts alone (§7).
model::Change change_of(std::uint64_t control_count, std::uint64_t test_count);

// Rows of the union of keys. Order: HTA's (control keys sorted, then test-only keys
// sorted) when hta_order, else by impact. Also fills by_impact and ops_diff.
void build_rows(const SideTable& control, const SideTable& test, bool hta_order,
                model::DiffReport& report);

}  // namespace tracediff::analysis::detail
