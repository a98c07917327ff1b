#include "support/report_support.hpp"

#include <cstdint>

namespace tracediff::test {

model::DiffRow steady_row(const std::string& name, model::Device device, double control_ns, double test_ns,
                          int calls) {
  model::DiffRow r;
  r.name = r.full_name = name;
  r.category = device == model::Device::gpu ? "kernel" : "cpu_op";
  r.device = device;
  r.control_step.total_ns = control_ns;
  r.test_step.total_ns = test_ns;
  r.control.count = control_ns > 0 ? static_cast<std::uint64_t>(calls) : 0;
  r.test.count = test_ns > 0 ? static_cast<std::uint64_t>(calls) : 0;
  r.control_step.count = r.control_calls = static_cast<double>(r.control.count);
  r.test_step.count = r.test_calls = static_cast<double>(r.test.count);
  r.control.total_ns = static_cast<std::int64_t>(control_ns * calls);
  r.test.total_ns = static_cast<std::int64_t>(test_ns * calls);
  std::vector<double> c, t;
  for (int i = 0; i < 6; ++i) {
    c.push_back(control_ns * (1 + 0.001 * i));
    t.push_back(test_ns * (1 + 0.001 * i));
  }
  r.control_samples = model::Samples::dense(c);
  r.test_samples = model::Samples::dense(t);
  r.significant = control_ns != test_ns;
  r.verdict = test_ns > control_ns   ? model::Verdict::slower
              : test_ns < control_ns ? model::Verdict::faster
                                     : model::Verdict::same;
  if (control_ns != 0) r.pct = 100.0 * (test_ns - control_ns) / control_ns;
  // What the lists print: the samples' medians (1.0025 times the value: samples 2 and 3).
  r.shown.control_ns = control_ns * 1.0025;
  r.shown.test_ns = test_ns * 1.0025;
  if (control_ns != 0) r.shown.pct = 100.0 * (test_ns - control_ns) / control_ns;
  r.median_diff_ns = r.shown.diff_ns();
  return r;
}

model::DiffReport six_step_report(std::int64_t control_step_ns, std::int64_t test_step_ns,
                                  std::int64_t control_busy_ns, std::int64_t test_busy_ns) {
  model::DiffReport r;
  r.control.label = "Control";
  r.test.label = "Test";
  for (int i = 0; i < 6; ++i) {
    model::StepDetail c, t;
    c.step = t.step = i;
    c.dur_ns = control_step_ns + i;
    t.dur_ns = test_step_ns + i;
    if (control_busy_ns) c.gpu_busy_ns = control_busy_ns + i;
    if (test_busy_ns) t.gpu_busy_ns = test_busy_ns + i;
    r.control.step_details.push_back(c);
    r.test.step_details.push_back(t);
    r.control.step_times.steps.push_back({0, i, c.dur_ns});
    r.test.step_times.steps.push_back({0, i, t.dur_ns});
  }
  r.control.units = r.test.units = 6;
  r.control.rank_details = {{0, 6, control_step_ns, control_busy_ns}};
  r.test.rank_details = {{0, 6, test_step_ns, test_busy_ns}};
  return r;
}

}  // namespace tracediff::test
