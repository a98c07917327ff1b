// GPU time by kernel family: each GPU row classified once (kernel_families.cpp's rule table,
// its launching operator, the words of its name) and told why, the rows' per-unit
// samples summed per family and judged like any row.
#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/names/flops.hpp"
#include "analysis/names/kernel_families.hpp"
#include "analysis/noise/noise.hpp"

namespace tracediff::analysis::detail {

void decide_families(model::DiffReport& report, const NoiseRule& rule) {
  struct Acc {
    model::Samples control, test;
    std::vector<std::size_t> rows;
    model::DiffRow::Work::Sums control_work, test_work;
  };
  std::array<Acc, k_family_count> acc;
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    auto& row = report.rows[i];
    if (row.device != model::Device::gpu) continue;
    model::Kind kind = model::Kind::kernel;
    if (!model::kind_from_name(row.category, kind)) kind = model::Kind::kernel;
    // The full name: with --short-names the key may have lost what tells the family.
    // The launcher is the row's main one (most GPU time, both sides): a kernel that
    // several operators launch goes by the one that runs most of it.
    const auto [f, by] = classify_why(row.full_name.empty() ? row.name : row.full_name, kind, row.launched_by);
    row.family = family_name(f);
    row.family_by = family_by_name(by);
    auto& a = acc[static_cast<std::size_t>(f)];
    if (a.rows.empty()) {
      a.control.set_units(row.control_samples.units());
      a.test.set_units(row.test_samples.units());
    }
    a.control.add_all(row.control_samples);
    a.test.add_all(row.test_samples);
    a.rows.push_back(i);  // rows are in |Δ per step| order already
    for (auto [to, from] : {std::pair{&a.control_work, &row.work.control_sums}, {&a.test_work, &row.work.test_sums}}) {
      to->flop += from->flop;
      to->flop_ns += from->flop_ns;
      to->bytes += from->bytes;
      to->bytes_ns += from->bytes_ns;
    }
  }
  report.families.clear();
  for (int f = 0; f < k_family_count; ++f) {
    auto& a = acc[static_cast<std::size_t>(f)];
    if (a.rows.empty()) continue;
    a.control.settle();
    a.test.settle();
    if (a.control.sum() == 0 && a.test.sum() == 0) continue;
    model::FamilyRow fr;
    fr.id = family_name(static_cast<Family>(f));
    fr.label = family_label(static_cast<Family>(f));
    fr.time = compare_samples(a.control, a.test, rule);
    // Distinct names: a row paired across the sides (another name on test) is two.
    fr.kernels = a.rows.size();
    for (const auto r : a.rows) fr.kernels += report.rows[r].test_name.empty() ? 0 : 1;
    fr.rows = std::move(a.rows);
    fr.work = work_rates(a.control_work, a.test_work);
    report.families.push_back(std::move(fr));
  }
  std::stable_sort(report.families.begin(), report.families.end(), [](const auto& a, const auto& b) {
    const double da = std::fabs(a.time.diff()), db = std::fabs(b.time.diff());
    return da != db ? da > db : a.id < b.id;
  });
}

}  // namespace tracediff::analysis::detail
