#include <string>
#include <vector>

#include "util/escape.hpp"
#include "output/machine_number.hpp"
#include "output/writers.hpp"

namespace tracediff::output {

namespace {

template <class T, class F>
void list(std::ostream& out, const std::vector<T>& v, F&& item) {
  out << '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out << ", ";
    item(v[i]);
  }
  out << ']';
}

void strings(std::ostream& out, const std::vector<std::string>& v) {
  list(out, v, [&](const std::string& s) { out << json_string(s); });
}

template <class N>
void numbers(std::ostream& out, const std::vector<N>& v) {
  list(out, v, [&](N n) { out << n; });
}

void side(std::ostream& out, const model::SideSummary& s) {
  out << "{\n    \"label\": " << json_string(s.label) << ",\n    \"inputs\": ";
  strings(out, s.inputs);
  out << ",\n    \"files\": ";
  list(out, s.files, [&](const model::FileInfo& f) {
    out << "\n      {\"path\": " << json_string(f.path) << ", \"rank\": " << f.rank
        << ", \"rank_source\": \"" << model::rank_source_name(f.rank_source) << "\", \"events\": " << f.events
        << ", \"json_bytes\": " << f.json_bytes << ", \"truncated\": " << (f.truncated ? "true" : "false")
        << '}';
  });
  out << ",\n    \"ranks\": ";
  numbers(out, s.ranks);
  out << ", \"available_ranks\": ";
  numbers(out, s.available_ranks);
  out << ",\n    \"iterations\": ";
  numbers(out, s.iterations);
  out << ", \"available_iterations\": ";
  numbers(out, s.available_iterations);
  out << ",\n    \"whole_trace\": " << (s.whole_trace ? "true" : "false") << ", \"gpu_names\": ";
  strings(out, s.gpu_names);
  const auto& st = s.step_times;
  out << ",\n    \"step_time_us\": {\"count\": " << st.steps.size() << ", \"mean\": " << us_decimal(st.mean_ns)
      << ", \"median\": " << us_decimal(st.median_ns) << ", \"min\": " << us_decimal(st.min_ns)
      << ", \"max\": " << us_decimal(st.max_ns) << "},\n    \"cpu_total\": {\"count\": " << s.cpu_total.count
      << ", \"total_us\": " << us_decimal(s.cpu_total.total_ns) << "}, \"gpu_total\": {\"count\": "
      << s.gpu_total.count << ", \"total_us\": " << us_decimal(s.gpu_total.total_ns) << "}\n  }";
}

void detail_fields(std::ostream& out, const model::StepDetail& d) {
  out << "\"step_us\": " << us_decimal(d.dur_ns) << ", \"gpu_busy_us\": " << us_decimal(d.gpu_busy_ns)
      << ", \"gpu_idle_us\": " << us_decimal(d.gpu_idle_ns) << ", \"kernel_us\": " << us_decimal(d.kernel_ns)
      << ", \"comm_kernel_us\": " << us_decimal(d.comm_ns) << ", \"memcpy_us\": " << us_decimal(d.memcpy_ns)
      << ", \"memset_us\": " << us_decimal(d.memset_ns) << ", \"cpu_self_us\": " << us_decimal(d.cpu_self_ns)
      << ", \"runtime_us\": " << us_decimal(d.runtime_ns);
}

void steps(std::ostream& out, const model::SideSummary& s) {
  const auto& st = s.step_times;
  out << "{\"count\": " << st.steps.size() << ", \"units\": " << s.units << ", \"mean_us\": " << us_decimal(st.mean_ns)
      << ", \"median_us\": " << us_decimal(st.median_ns) << ", \"min_us\": " << us_decimal(st.min_ns)
      << ", \"max_us\": " << us_decimal(st.max_ns) << ",\n      \"mean\": {";
  detail_fields(out, s.step_mean);
  out << "},\n      \"per_step\": ";
  list(out, s.step_details, [&](const model::StepDetail& d) {
    out << "\n        {\"rank\": " << d.rank << ", \"step\": " << d.step << ", ";
    detail_fields(out, d);
    out << '}';
  });
  out << '}';
}

void ranks(std::ostream& out, const std::vector<model::RankDetail>& v) {
  list(out, v, [&](const model::RankDetail& r) {
    out << "\n      {\"rank\": " << r.rank << ", \"steps\": " << r.steps << ", \"step_mean_us\": "
        << us_decimal(r.step_mean_ns) << ", \"gpu_busy_mean_us\": " << us_decimal(r.gpu_busy_mean_ns) << '}';
  });
}

}  // namespace

void write_json(const model::DiffReport& r, std::ostream& out) {
  out << "{\n  \"tool\": {\"name\": \"tracediff\", \"version\": \"" TRACEDIFF_VERSION "\"},\n"
      << "  \"mode\": \"" << (r.hta_compat ? "hta-compat" : "default") << "\",\n"
      << "  \"device\": \"" << r.device_filter << "\", \"short_names\": " << (r.short_names ? "true" : "false")
      << ",\n  \"control\": ";
  side(out, r.control);
  out << ",\n  \"test\": ";
  side(out, r.test);
  out << ",\n  \"rows\": [";
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    out << (i ? ",\n    " : "\n    ") << "{\"name\": " << json_string(row.name);
    if (row.full_name != row.name) out << ", \"full_name\": " << json_string(row.full_name);
    out << ", \"category\": " << json_string(row.category) << ", \"device\": \"" << model::device_name(row.device)
        << "\", \"control_count\": " << row.control.count << ", \"test_count\": " << row.test.count
        << ", \"control_total_us\": " << us_decimal(row.control.total_ns)
        << ", \"test_total_us\": " << us_decimal(row.test.total_ns) << ", \"diff_count\": " << row.diff_count()
        << ", \"diff_total_us\": " << us_decimal(row.diff_ns())
        << ", \"diff_pct\": " << pct_decimal(row.diff_pct(), "null") << ", \"change\": \""
        << model::change_name(row.change) << '"';
    if (row.per_step_basis) {
      out << ",\n     \"control_count_per_step\": " << decimal(row.control_step.count, 3)
          << ", \"test_count_per_step\": " << decimal(row.test_step.count, 3)
          << ", \"control_per_step_us\": " << us_decimal(row.control_step.total_ns)
          << ", \"test_per_step_us\": " << us_decimal(row.test_step.total_ns)
          << ", \"diff_per_step_us\": " << us_decimal(row.diff_per_step_ns())
          << ",\n     \"control_self_us\": " << us_decimal(row.control.self_ns)
          << ", \"test_self_us\": " << us_decimal(row.test.self_ns)
          << ", \"control_self_per_step_us\": " << us_decimal(row.control_step.self_ns)
          << ", \"test_self_per_step_us\": " << us_decimal(row.test_step.self_ns)
          << ",\n     \"control_stddev_per_step_us\": " << us_decimal(row.control_step.stddev_ns)
          << ", \"test_stddev_per_step_us\": " << us_decimal(row.test_step.stddev_ns)
          << ", \"verdict\": \"" << model::verdict_name(row.verdict) << "\", \"significant\": "
          << (row.significant ? "true" : "false");
      if (!row.launched_by.empty()) out << ", \"launched_by\": " << json_string(row.launched_by);
    }
    out << '}';
  }
  out << (r.rows.empty() ? "],\n" : "\n  ],\n") << "  \"ops_diff\": {";
  for (int g = 0; g < 5; ++g) {
    out << (g ? ",\n    " : "\n    ") << '"' << model::change_name(static_cast<model::Change>(g)) << "\": ";
    strings(out, r.ops_diff.groups[g]);
  }
  out << "\n  },\n";
  if (!r.hta_compat) {
    out << "  \"steps\": {\n    \"control\": ";
    steps(out, r.control);
    out << ",\n    \"test\": ";
    steps(out, r.test);
    out << ",\n    \"change_pct\": "
        << pct_decimal(r.control.step_times.mean_ns
                           ? std::optional<double>(100.0 * static_cast<double>(r.test.step_times.mean_ns -
                                                                                r.control.step_times.mean_ns) /
                                                   static_cast<double>(r.control.step_times.mean_ns))
                           : std::nullopt,
                       "null")
        << "\n  },\n  \"ranks\": {\"control\": ";
    ranks(out, r.control.rank_details);
    out << ", \"test\": ";
    ranks(out, r.test.rank_details);
    out << ",\n    \"control_spread_us\": " << us_decimal(r.ranks.control_spread_ns)
        << ", \"test_spread_us\": " << us_decimal(r.ranks.test_spread_ns);
    if (r.ranks.changed_most_control_rank)
      out << ", \"changed_most\": {\"control_rank\": " << *r.ranks.changed_most_control_rank
          << ", \"test_rank\": " << *r.ranks.changed_most_test_rank
          << ", \"change_pct\": " << pct_decimal(r.ranks.changed_most_pct, "null") << '}';
    out << "},\n  \"by_launcher\": [";
    for (std::size_t i = 0; i < r.by_launcher.size(); ++i) {
      const auto& l = r.by_launcher[i];
      out << (i ? ",\n    " : "\n    ") << "{\"launcher\": " << json_string(l.launcher)
          << ", \"control_us\": " << us_decimal(l.control_ns) << ", \"test_us\": " << us_decimal(l.test_ns)
          << ", \"control_per_step_us\": " << us_decimal(l.control_per_step_ns)
          << ", \"test_per_step_us\": " << us_decimal(l.test_per_step_ns) << ", \"kernels\": ";
      list(out, l.kernels, [&](const model::LauncherRow::Kernel& k) {
        out << "\n      {\"name\": " << json_string(k.name) << ", \"control_us\": " << us_decimal(k.control_ns)
            << ", \"test_us\": " << us_decimal(k.test_ns) << '}';
      });
      out << '}';
    }
    out << (r.by_launcher.empty() ? "],\n" : "\n  ],\n");
    out << "  \"min_change\": {\"pct\": " << decimal(r.min_change_pct, 3)
        << ", \"us\": " << decimal(r.min_change_us, 3) << "},\n";
  }
  out << "  \"notes\": ";
  strings(out, r.notes);
  out << ",\n  \"diagnostics\": {\n    \"counts\": {";
  bool first = true;
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (!r.diagnostics.count(id)) continue;
    out << (first ? "" : ", ") << '"' << model::diag_name(id) << "\": " << r.diagnostics.count(id);
    first = false;
  }
  out << "},\n    \"samples\": ";
  list(out, r.diagnostics.samples(), [&](const model::DiagSample& s) {
    out << "\n      {\"kind\": \"" << model::diag_name(s.id) << "\", \"file\": " << json_string(s.file)
        << ", \"offset\": " << s.offset << ", \"message\": " << json_string(s.message) << '}';
  });
  out << "\n  }\n}\n";
}

}  // namespace tracediff::output
