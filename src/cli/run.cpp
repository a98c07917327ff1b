#include "cli/run.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "analysis/compare.hpp"
#include "analysis/gate/verdict.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "cli/outputs.hpp"
#include "cli/perfetto_step.hpp"
#include "cli/summary_commands.hpp"
#include "cli/trend_command.hpp"
#include "util/format.hpp"
#include "output/human_writers.hpp"
#include "reading/byte_source.hpp"
#include "reading/trace_set_reader.hpp"
#include "cli/output_policy.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/sanitize.hpp"

namespace tracediff::cli {

namespace {

// Warnings on stderr: every kept sample (with its side), then a count for the rest;
// the notes too when no terminal summary shows them. Sides, file names and messages
// hold strings from the command line, file names and traces: each line is made
// safe where it is printed (util/sanitize), whoever built it.
void print_warnings(const model::DiffReport& report, bool notes) {
  const auto& d = report.diagnostics;
  std::uint64_t shown[model::k_diag_count] = {};  // of each id's count, what the samples said
  for (const auto& s : d.samples()) {
    std::cerr << "tracediff: warning: " << message_safe((s.side.empty() ? "" : s.side + ": ") + s.file + ": " + s.message)
              << '\n';
    shown[static_cast<std::size_t>(s.id)] += s.covers;
  }
  for (std::size_t i = 0; i < model::k_diag_count; ++i) {
    const auto id = static_cast<model::DiagId>(i);
    if (d.count(id) > shown[i])
      std::cerr << "tracediff: warning: " << d.count(id) - shown[i] << " more " << model::diag_name(id)
                << ": " << model::diag_description(id) << '\n';
  }
  if (notes)
    for (const auto& note : report.notes) std::cerr << "tracediff: note: " << message_safe(note) << '\n';
}

// "tracediff: reading 3/8 files, 1.2 GB, 410 MB/s" on stderr, redrawn in place, once
// reading has taken a second; only when stderr is a terminal.
class ReadProgress {
 public:
  explicit ReadProgress(bool enabled) : m_enabled(enabled), m_start(std::chrono::steady_clock::now()) {
    if (m_enabled) m_thread = std::thread([this] { loop(); });
  }
  ~ReadProgress() { finish(); }
  ReadProgress(const ReadProgress&) = delete;
  ReadProgress& operator=(const ReadProgress&) = delete;

  // The reader's callback (its threads call it one at a time).
  reading::ReadProgressFn callback() {
    if (!m_enabled) return {};
    return [this](std::uint64_t bytes, std::size_t done, std::size_t total) {
      std::lock_guard lock(m_mutex);
      m_bytes = bytes;
      m_done = done;
      m_total = total;
    };
  }

  // Stops the redraws and clears the line.
  void finish() {
    if (!m_thread.joinable()) return;
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
    if (m_drawn) std::cerr << "\r\x1b[K" << std::flush;
  }

 private:
  void loop() {
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(250), [this] { return m_stop; })) try {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
      if (secs < 1.0) continue;
      const auto rate = static_cast<std::uint64_t>(static_cast<double>(m_bytes) / secs);
      std::cerr << "\rtracediff: reading " << m_done << "/" << m_total << " files, "
                << format_bytes(m_bytes) << ", " << format_bytes(rate) << "/s, "
                << static_cast<long>(secs) << " s\x1b[K" << std::flush;
      m_drawn = true;
    } catch (...) {  // out of memory: no redraw this time (an exception here would end the run)
    }
  }

  bool m_enabled;
  std::chrono::steady_clock::time_point m_start;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::thread m_thread;
  std::uint64_t m_bytes = 0;
  std::size_t m_done = 0, m_total = 0;
  bool m_stop = false;
  bool m_drawn = false;
};

// glibc maps each block over 128 KiB afresh and unmaps it on free, so each later
// stage (comparing, the report) page-faults its memory in again, about 10 µs a page
// in a VM guest. When every file is small, blocks up to 32 MiB come from the heap
// and stay there once freed (a file's events, then the report, reuse the same
// pages). Not with large files: blocks freed mid-heap would raise the peak memory.
void tune_malloc(const std::vector<std::string>& files) {
#ifdef __GLIBC__
  constexpr std::uint64_t k_small_json = std::uint64_t{256} << 20;
  for (const auto& f : files)
    if (reading::estimate_json_size(f) > k_small_json) return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#else
  (void)files;
#endif
}

bool colour_allowed(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return isatty(fd) == 1;
}

// --fail-on outcomes on stderr: one line per condition that holds; a condition with
// nothing to measure is a warning (a typo in a name must not pass silently).
bool report_gate(const std::vector<model::GateResult>& results, bool quiet) {
  bool fired = false;
  for (const auto& r : results) {
    if (r.fired()) {
      std::cerr << "tracediff: fail-on: " << message_safe(r.condition.text + ": " + r.detail) << '\n';
      fired = true;
    } else if (r.outcome == model::GateOutcome::not_evaluated && !quiet) {
      std::cerr << "tracediff: warning: fail-on: " << message_safe(r.condition.text + ": not evaluated: " + r.detail)
                << '\n';
    }
  }
  return fired;
}

int run_checked(int argc, const char* const* argv) {
  Options o;
  if (parse_options(argc, argv, o) == ParseOutcome::exit_ok) return k_exit_ok;
  default_outputs(o);

  // Check outputs before the (possibly long) read, as hyperfine does: each can be
  // written (a temporary file can be made beside it), none is an input, no two are
  // the same file.
  prepare_standard_streams();
  const auto inputs = input_files(o);
  check_outputs(o, inputs);
  const auto outputs = output_paths(o);
  check_perfetto_inputs(o);
  tune_malloc(inputs);

  // Work only for what is asked: the call tree is made for the outputs that show it
  // (the page, the JSON, the Markdown's and the terminal summary's paths) and for
  // matching names (GPU work is paired by the paths it runs under), not for a CSV of
  // exact names alone.
  const bool stdout_output = std::any_of(outputs.begin(), outputs.end(), [](const std::string& p) { return p == "-"; });
  o.summarize.call_tree = outputs_need_call_tree(o) || (!o.quiet && !stdout_output) || o.compare.match_names;

  ReadProgress progress(!o.quiet && isatty(2) == 1);
  auto report = load_and_compare(o, progress.callback());
  progress.finish();
  attach_step_trace(o, report);
  analysis::judge(report, o.fail_on);

  // All or nothing: every file output is written to a temporary, then all are swapped
  // into place together; standard output comes last, so a reader that goes away
  // early (`--csv - | head`) cannot cost the files.
  OutputSet out;
  add_outputs(out, report, o);
  const bool stdout_taken = out.takes_stdout();
  if (!o.quiet) print_warnings(report, stdout_taken);
  out.write_files();
  if (o.html && *o.html != "-" && !o.quiet) {
    // Absolute, so that it can be opened from anywhere (copied into a browser, a CI log).
    std::error_code ec;
    auto shown = std::filesystem::absolute(*o.html, ec).lexically_normal();
    if (ec) shown = *o.html;
    std::cerr << "tracediff: report written to " << message_safe(shown.string()) << '\n';
  }
  out.write_stdout();
  // The terminal summary, unless stdout already carries an output.
  if (!o.quiet && !stdout_taken) {
    output::TerminalOptions to;
    to.verbose = o.verbose;
    to.color = o.color == ColorMode::always || (o.color == ColorMode::automatic && colour_allowed(1));
    write_to_stdout([&](std::ostream& s) { output::write_terminal_summary(report, to, s); });
  }
  return report_gate(report.gate, o.quiet) ? k_exit_gate : k_exit_ok;
}

}  // namespace

int run(int argc, const char* const* argv) {
  try {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "summarize") return run_summarize(argc - 1, argv + 1);
    if (command == "merge") return run_merge(argc - 1, argv + 1);
    if (command == "trend") return run_trend(argc - 1, argv + 1);
    return run_checked(argc, argv);
  } catch (const UsageError& e) {
    // Messages name files and quote arguments, summaries and traces: made safe here,
    // where they are printed, whichever code built them.
    std::cerr << "tracediff: error: " << message_safe(e.what()) << "\nRun 'tracediff --help' for usage.\n";
    return k_exit_usage;
  } catch (const Fatal& e) {
    std::cerr << "tracediff: error: " << message_safe(e.what()) << '\n';
    return k_exit_fatal;
  } catch (const std::bad_alloc&) {
    std::cerr << "tracediff: error: out of memory\n";
    return k_exit_fatal;
  } catch (const std::exception& e) {
    std::cerr << "tracediff: error: internal: " << message_safe(e.what()) << '\n';
    return k_exit_fatal;
  }
}

}  // namespace tracediff::cli
