#include "output/escape.hpp"
#include "output/machine_number.hpp"
#include "output/writers.hpp"

namespace tracediff::output {

namespace {
const char* device_name(model::Device d) {
  return d == model::Device::cpu ? "cpu" : d == model::Device::gpu ? "gpu" : "other";
}
}  // namespace

void write_csv(const model::DiffReport& r, std::ostream& out) {
  if (r.hta_compat) {
    // HTA's layout: <Label>_counts, <Label>_total_duration per side (§6).
    const auto& c = r.control.label;
    const auto& t = r.test.label;
    out << (r.short_names ? "short_name" : "name") << ',' << csv_field(c + "_counts") << ','
        << csv_field(c + "_total_duration") << ',' << csv_field(t + "_counts") << ','
        << csv_field(t + "_total_duration") << ",diff_counts,diff_duration,counts_change_categories\r\n";
    for (const auto& row : r.rows) {
      out << csv_field(row.name) << ',' << row.control.count << ',' << us_decimal(row.control.total_ns)
          << ',' << row.test.count << ',' << us_decimal(row.test.total_ns) << ',' << row.diff_count()
          << ',' << us_decimal(row.diff_ns()) << ',' << model::change_symbol(row.change) << "\r\n";
    }
    return;
  }
  out << "name,category,device,control_count,test_count,diff_count,control_total_us,"
         "test_total_us,diff_total_us,diff_pct,change\r\n";
  for (const auto& row : r.rows) {
    out << csv_field(row.name) << ',' << csv_field(row.category) << ',' << device_name(row.device)
        << ',' << row.control.count << ',' << row.test.count << ',' << row.diff_count() << ','
        << us_decimal(row.control.total_ns) << ',' << us_decimal(row.test.total_ns) << ','
        << us_decimal(row.diff_ns()) << ',' << pct_decimal(row.diff_pct(), "") << ','
        << model::change_name(row.change) << "\r\n";
  }
}

}  // namespace tracediff::output
