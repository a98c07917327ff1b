#include "util/escape.hpp"
#include "output/machine_number.hpp"
#include "output/writers.hpp"

namespace tracediff::output {

void write_csv(const model::DiffReport& r, std::ostream& out, const CsvOptions& o) {
  // Every text cell comes from a trace or the command line; HTA's change symbols
  // (+ - =) and the numbers are ours and stay as they are.
  const auto text = [&](std::string_view s) { return csv_text_field(s, o.terminal); };
  if (r.hta_compat) {
    // HTA's layout: <Label>_counts, <Label>_total_duration per side (§6). The one
    // exception to the fixed columns below: --hta-compat reproduces HTA's file.
    const auto& c = r.control.label;
    const auto& t = r.test.label;
    out << (r.short_names ? "short_name" : "name") << ',' << text(c + "_counts") << ','
        << text(c + "_total_duration") << ',' << text(t + "_counts") << ','
        << text(t + "_total_duration") << ",diff_counts,diff_duration,counts_change_categories\r\n";
    for (const auto& row : r.rows) {
      out << text(row.name) << ',' << row.control.count << ',' << us_decimal(row.control.total_ns)
          << ',' << row.test.count << ',' << us_decimal(row.test.total_ns) << ',' << row.diff_count()
          << ',' << us_decimal(row.diff_ns()) << ',' << model::change_symbol(row.change) << "\r\n";
    }
    return;
  }
  out << "name,category,device,control_count,test_count,diff_count,control_total_us,"
         "test_total_us,diff_total_us,control_count_per_step,test_count_per_step,control_per_step_us,"
         "test_per_step_us,diff_per_step_us,diff_pct,control_self_us,test_self_us,change,verdict,"
         "significant,launched_by,family,family_by,test_name,matched_by,control_median_per_step_us,"
         "test_median_per_step_us,median_diff_per_step_us,median_diff_pct,control_per_call_us,test_per_call_us,"
         "per_call_pct,diff_from_calls_us,diff_from_per_call_us,words,waits_for_gpu,control_wait_per_step_us,"
         "test_wait_per_step_us,shape,flops_per_call,control_tflops,test_tflops,allocated_control_bytes,"
         "allocated_test_bytes,allocated_self_control_bytes,allocated_self_test_bytes,allocated_self_diff_pct,"
         "allocated_self_verdict,allocated_count_control,allocated_count_test,allocated_held_control_bytes,"
         "allocated_held_test_bytes,inductor_control_tflops,inductor_test_tflops,inductor_tflops_pct,"
         "inductor_control_gbps,inductor_test_gbps,inductor_gbps_pct\r\n";
  for (const auto& row : r.rows) {
    out << text(row.name) << ',' << text(row.category) << ',' << model::device_name(row.device)
        << ',' << row.control.count << ',' << row.test.count << ',' << row.diff_count() << ','
        << us_decimal(row.control.total_ns) << ',' << us_decimal(row.test.total_ns) << ','
        << us_decimal(row.diff_ns()) << ',' << decimal(row.control_step.count, 3) << ','
        << decimal(row.test_step.count, 3) << ',' << us_decimal(row.control_step.total_ns) << ','
        << us_decimal(row.test_step.total_ns) << ',' << us_decimal(row.diff_per_step_ns()) << ','
        << pct_decimal(row.diff_pct(), "") << ',' << us_decimal(row.control.self_ns) << ','
        << us_decimal(row.test.self_ns) << ',' << model::change_name(row.change) << ','
        << model::verdict_name(row.verdict) << ',' << (row.significant ? "true" : "false") << ','
        << text(row.launched_by) << ',' << text(row.family) << ',' << row.family_by << ','
        << text(row.test_name) << ',' << row.matched_by
        << ',' << us_decimal(row.shown.control_ns) << ',' << us_decimal(row.shown.test_ns) << ','
        << us_decimal(row.shown.diff_ns()) << ',' << pct_decimal(row.shown.pct, "") << ','
        << us_decimal(row.control_per_call_ns) << ',' << us_decimal(row.test_per_call_ns) << ','
        << pct_decimal(row.per_call_pct, "") << ',' << us_decimal(row.diff_from_calls_ns) << ','
        << us_decimal(row.diff_from_per_call_ns) << ',' << model::row_words(row) << ','
        << (row.waits_for_gpu ? "true" : "false") << ',' << us_decimal(row.control_step.wait_ns) << ','
        << us_decimal(row.test_step.wait_ns);
    // One set of columns in every mode: shapes and FLOPs are empty without --by-shape,
    // and where the figure is unknown.
    const auto opt = [](const std::optional<double>& v, auto format) { return v ? format(*v) : std::string(); };
    out << ',' << text(row.shape) << ',' << opt(row.flops_per_call, flops_decimal) << ','
        << opt(row.control_tflops, [](double v) { return decimal(v, 3); }) << ','
        << opt(row.test_tflops, [](double v) { return decimal(v, 3); });
    // Memory per step (bytes, calls): empty without memory events on both sides.
    const auto& m = row.memory;
    if (m.recorded)
      out << ',' << decimal(m.control.allocated, 1) << ',' << decimal(m.test.allocated, 1) << ','
          << decimal(m.control.allocated_self, 1) << ',' << decimal(m.test.allocated_self, 1) << ','
          << pct_decimal(m.allocated.pct, "") << ',' << model::verdict_name(m.allocated.verdict) << ','
          << decimal(m.control.allocations, 3) << ',' << decimal(m.test.allocations, 3) << ','
          << decimal(m.control.held, 1) << ',' << decimal(m.test.held, 1);
    else
      out << ",,,,,,,,,,";
    // Inductor's figures: empty where a side's kernels carry none.
    const auto d3 = [](double v) { return decimal(v, 3); };
    const auto& w = row.work;
    out << ',' << opt(w.control_tflops, d3) << ',' << opt(w.test_tflops, d3) << ',' << pct_decimal(w.tflops_pct, "")
        << ',' << opt(w.control_gbps, d3) << ',' << opt(w.test_gbps, d3) << ',' << pct_decimal(w.gbps_pct, "")
        << "\r\n";
  }
}

}  // namespace tracediff::output
