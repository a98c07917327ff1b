#include <string>
#include <vector>

#include "output/escape.hpp"
#include "output/machine_number.hpp"
#include "output/writers.hpp"

namespace tracediff::output {

namespace {

const char* device_name(model::Device d) {
  return d == model::Device::cpu ? "cpu" : d == model::Device::gpu ? "gpu" : "other";
}

const char* rank_source_name(model::RankSource s) {
  switch (s) {
    case model::RankSource::distributed_info: return "distributedInfo";
    case model::RankSource::file_name: return "file_name";
    case model::RankSource::fallback: return "fallback";
  }
  return "";
}

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
        << ", \"rank_source\": \"" << rank_source_name(f.rank_source) << "\", \"events\": " << f.events
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
    out << ", \"category\": " << json_string(row.category) << ", \"device\": \"" << device_name(row.device)
        << "\", \"control_count\": " << row.control.count << ", \"test_count\": " << row.test.count
        << ", \"control_total_us\": " << us_decimal(row.control.total_ns)
        << ", \"test_total_us\": " << us_decimal(row.test.total_ns) << ", \"diff_count\": " << row.diff_count()
        << ", \"diff_total_us\": " << us_decimal(row.diff_ns())
        << ", \"diff_pct\": " << pct_decimal(row.diff_pct(), "null") << ", \"change\": \""
        << model::change_name(row.change) << "\"}";
  }
  out << (r.rows.empty() ? "],\n" : "\n  ],\n") << "  \"ops_diff\": {";
  for (int g = 0; g < 5; ++g) {
    out << (g ? ",\n    " : "\n    ") << '"' << model::change_name(static_cast<model::Change>(g)) << "\": ";
    strings(out, r.ops_diff.groups[g]);
  }
  out << "\n  },\n  \"notes\": ";
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
