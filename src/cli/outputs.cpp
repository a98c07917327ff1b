#include "cli/outputs.hpp"

#include <filesystem>

#include "cli/output_policy.hpp"
#include "util/errors.hpp"
#include "output/folded_writer.hpp"
#include "output/html_writer.hpp"
#include "output/human_writers.hpp"
#include "output/perfetto_writer.hpp"
#include "output/writers.hpp"

namespace tracediff::cli {

namespace {

std::vector<std::string> one_file(const std::string& path) { return {path}; }

// --folded DIR's files: host time, then GPU time; control, then test.
constexpr const char* k_folded_files[] = {"control.folded", "test.folded", "control.gpu.folded", "test.gpu.folded"};

std::vector<std::string> folded_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const char* f : k_folded_files) out.push_back((std::filesystem::path(dir) / f).string());
  return out;
}

void add_csv(OutputSet& out, const std::string& file, std::size_t, const model::DiffReport& r, const Options&) {
  const bool terminal = output_is_terminal(file);  // escapes controls; a file keeps names as they are
  out.add(file, [&r, terminal](std::ostream& s) { output::write_csv(r, s, {.terminal = terminal}); });
}

void add_json(OutputSet& out, const std::string& file, std::size_t, const model::DiffReport& r, const Options& o) {
  const bool full_tree = o.json_full_tree;
  out.add(file, [&r, full_tree](std::ostream& s) { output::write_json(r, s, {.full_tree = full_tree}); });
}

void add_perfetto(OutputSet& out, const std::string& file, std::size_t, const model::DiffReport& r, const Options&) {
  if (r.step_trace) out.add(file, [&r](std::ostream& s) { output::write_perfetto(r, *r.step_trace, s); });
}

void add_html(OutputSet& out, const std::string& file, std::size_t, const model::DiffReport& r, const Options&) {
  out.add(file, [&r](std::ostream& s) { output::write_html(r, s); });
}

void add_markdown(OutputSet& out, const std::string& file, std::size_t, const model::DiffReport& r, const Options& o) {
  output::MarkdownOptions mo;
  mo.report_url = o.report_url;
  out.add(file, [&r, mo](std::ostream& s) { output::write_markdown(r, mo, s); });
}

void add_folded(OutputSet& out, const std::string& file, std::size_t k, const model::DiffReport& r, const Options&) {
  const output::FoldedOptions fo{.test = (k & 1) != 0, .gpu = k >= 2};
  out.add(file, [&r, fo](std::ostream& s) { output::write_folded(r, s, fo); });
}

}  // namespace

const std::vector<OutputFormat>& output_formats() {
  static const std::vector<OutputFormat> formats{
      // option     default file             call tree  directory  main   path                 files         writer
      {"csv",       nullptr,                 false,     false,     true,  &Options::csv,       one_file,     add_csv},
      {"json",      nullptr,                 true,      false,     true,  &Options::json,      one_file,     add_json},
      {"perfetto",  nullptr,                 false,     false,     false, &Options::perfetto,  one_file,     add_perfetto},
      {"output",    "tracediff-report.html", true,      false,     true,  &Options::html,      one_file,     add_html},
      {"markdown",  nullptr,                 true,      false,     true,  &Options::markdown,  one_file,     add_markdown},
      {"folded",    nullptr,                 true,      true,      true,  &Options::folded,    folded_files, add_folded},
  };
  return formats;
}

void default_outputs(Options& o) {
  for (const auto& f : output_formats())
    if (f.main_output && o.*f.path) return;
  for (const auto& f : output_formats())
    if (f.default_file) o.*f.path = f.default_file;
}

bool outputs_need_call_tree(const Options& o) {
  for (const auto& f : output_formats())
    if (f.needs_call_tree && o.*f.path) return true;
  return false;
}

std::vector<std::string> output_paths(const Options& o) {
  std::vector<std::string> paths;
  for (const auto& f : output_formats())
    if (const auto& p = o.*f.path)
      for (auto& file : f.files(*p)) paths.push_back(std::move(file));
  return paths;
}

void check_outputs(const Options& o, const std::vector<std::string>& input_files) {
  const auto paths = output_paths(o);
  check_outputs_distinct(paths);
  // A directory output is made now, so that its files are checked like any output's,
  // and removed again when a check fails (all or nothing: no empty folder left).
  std::vector<std::filesystem::path> made;
  for (const auto& f : output_formats()) {
    if (!f.directory || !(o.*f.path)) continue;
    const std::filesystem::path dir = *(o.*f.path);
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
      throw UsageError(std::string("--") + f.option + " " + dir.string() + ": not a directory");
    for (auto p = dir; !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path()) made.push_back(p);
    std::filesystem::create_directories(dir, ec);
  }
  try {
    for (const auto& p : paths) check_output_path(p, input_files);
  } catch (...) {
    std::error_code ec;
    for (const auto& p : made) std::filesystem::remove(p, ec);  // innermost first; only if still empty
    throw;
  }
}

void add_outputs(OutputSet& out, const model::DiffReport& report, const Options& o) {
  for (const auto& f : output_formats())
    if (const auto& p = o.*f.path) {
      const auto files = f.files(*p);
      for (std::size_t k = 0; k < files.size(); ++k) f.add(out, files[k], k, report, o);
    }
}

}  // namespace tracediff::cli
