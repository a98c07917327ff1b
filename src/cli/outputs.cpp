#include "cli/outputs.hpp"

#include <filesystem>

#include "cli/output_policy.hpp"
#include "output/folded_writer.hpp"
#include "output/html_writer.hpp"
#include "output/human_writers.hpp"
#include "output/perfetto_writer.hpp"
#include "output/writers.hpp"

namespace tracediff::cli {

namespace {

// --folded DIR's files: host time, then GPU time; control, then test.
constexpr const char* k_folded_files[] = {"control.folded", "test.folded", "control.gpu.folded", "test.gpu.folded"};

std::string folded_file(const std::string& dir, int k) {
  return (std::filesystem::path(dir) / k_folded_files[k]).string();
}

}  // namespace

std::vector<std::string> output_paths(const Options& o) {
  std::vector<std::string> paths;
  for (const auto* out : {&o.html, &o.csv, &o.json, &o.markdown, &o.perfetto})
    if (*out) paths.push_back(**out);
  if (o.folded)
    for (int k = 0; k < 4; ++k) paths.push_back(folded_file(*o.folded, k));
  return paths;
}

void check_outputs(const Options& o, const std::vector<std::string>& input_files) {
  if (o.folded) {
    // The directory is made now, so that its files are checked like any output's.
    std::error_code ec;
    std::filesystem::create_directories(*o.folded, ec);
  }
  const auto paths = output_paths(o);
  check_outputs_distinct(paths);
  for (const auto& p : paths) check_output_path(p, input_files);
}

void add_outputs(OutputSet& out, const model::DiffReport& report, const Options& o) {
  if (o.csv) {
    const bool terminal = output_is_terminal(*o.csv);  // escapes controls; a file keeps names as they are
    out.add(*o.csv, [&report, terminal](std::ostream& s) { output::write_csv(report, s, {.terminal = terminal}); });
  }
  if (o.json) {
    const bool full_tree = o.json_full_tree;
    out.add(*o.json, [&report, full_tree](std::ostream& s) { output::write_json(report, s, {.full_tree = full_tree}); });
  }
  if (o.perfetto && report.step_trace)
    out.add(*o.perfetto, [&report](std::ostream& s) { output::write_perfetto(report, *report.step_trace, s); });
  if (o.html) out.add(*o.html, [&report](std::ostream& s) { output::write_html(report, s); });
  if (o.markdown) {
    output::MarkdownOptions mo;
    mo.report_url = o.report_url;
    out.add(*o.markdown, [&report, mo](std::ostream& s) { output::write_markdown(report, mo, s); });
  }
  if (o.folded) {
    for (int k = 0; k < 4; ++k) {
      const output::FoldedOptions fo{.test = (k & 1) != 0, .gpu = k >= 2};
      out.add(folded_file(*o.folded, k), [&report, fo](std::ostream& s) { output::write_folded(report, s, fo); });
    }
  }
}

}  // namespace tracediff::cli
