#include "support/pair_support.hpp"

#include <boost/test/unit_test.hpp>

#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"

namespace tracediff::test {

std::string steps_trace(const std::vector<StepOp>& ops, int steps) {
  std::vector<std::string> ev;
  long corr = 1;
  for (int s = 0; s < steps; ++s) {
    const long start = s * 10000L;
    ev.push_back(x_event("user_annotation", "ProfilerStep#" + std::to_string(s + 1), 1, 1, start, 9000));
    long t = start + 10;
    long gpu = start + 10;
    for (const auto& op : ops) {
      const long dur = op.op_us + s;
      if (!op.parent.empty()) ev.push_back(x_event("cpu_op", op.parent, 1, 1, t - 5, dur + 10));
      ev.push_back(x_event("cpu_op", op.name, 1, 1, t, dur));
      if (!op.kernel.empty()) {
        ev.push_back(x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, t + 1, 1, corr));
        gpu = std::max(gpu, t + 2);
        ev.push_back(x_event("kernel", op.kernel, 0, 7, gpu, op.kernel_us + s, corr));
        gpu += op.kernel_us + s + 1;
        ++corr;
      }
      t += dur + 20;
    }
  }
  return trace_json(ev);
}

model::TraceSet set_of(const std::string& label, const std::vector<std::string>& jsons, bool hta_compat) {
  model::TraceSet set;
  set.label = label;
  int rank = 0;
  for (const auto& j : jsons) {
    reading::ByteSource src{std::string_view(j)};
    reading::ReadOptions ro;
    ro.hta_compat = hta_compat;
    auto r = reading::read_trace(src, "rank" + std::to_string(rank) + ".json", ro);
    BOOST_REQUIRE(!r.skipped);
    r.file.rank = rank++;
    set.files.push_back(std::move(r.file));
  }
  return set;
}

model::DiffReport compare_pair(const std::string& control, const std::string& test,
                               const analysis::CompareOptions& options) {
  return analysis::compare_traces(set_of("Control", {control}, options.hta_compat),
                                  set_of("Test", {test}, options.hta_compat), options);
}

const model::DiffRow* row_named(const model::DiffReport& report, const std::string& name) {
  for (const auto& row : report.rows)
    if (row.name == name) return &row;
  return nullptr;
}

}  // namespace tracediff::test
