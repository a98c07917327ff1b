#include "reading/trace_set_reader.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <exception>
#include <mutex>
#include <regex>
#include <system_error>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "reading/byte_source.hpp"
#include "util/errors.hpp"
#include "util/scratch_buffer.hpp"

namespace tracediff::reading {

namespace fs = std::filesystem;
using model::DiagId;

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool looks_like_trace(const std::string& name) {
  return ends_with(name, ".json") || ends_with(name, ".json.gz");
}

// distributedInfo.rank, else rank[-_]?N in the file name, else 0 (kineto-trace-format.md §1.4).
// A side of one file needs no rank: 0 is then no input problem (the report's notes say
// it once), only where files of a side might be taken for one another.
void settle_rank(model::TraceFile& file, bool alone) {
  if (file.rank_source != model::RankSource::distributed_info) {
    if (auto r = rank_from_file_name(file.path)) {
      file.rank = *r;
      file.rank_source = model::RankSource::file_name;
      file.diagnostics.report(DiagId::file_rank_from_name, file.path, 0,
                              "no distributedInfo.rank; rank " + std::to_string(*r) +
                                  " taken from the file name");
    } else {
      file.rank = 0;
      if (!alone)
        file.diagnostics.report(DiagId::file_rank_fallback, file.path, 0,
                                "no rank in the file or its name; rank 0 assumed");
    }
  }
}

}  // namespace

std::vector<std::string> find_trace_files(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    const auto status = fs::status(input, ec);
    if (!fs::exists(status)) throw Fatal(input + ": " + (ec && ec != std::errc::no_such_file_or_directory
                                                            ? ec.message()
                                                            : std::string("no such file or directory")));
    if (fs::is_directory(status)) {
      // A FIFO, device or socket named like a trace (or a symlink to one, say to
      // /dev/zero) stays in the list: its reader refuses it without opening it, and
      // the set's warnings name it. So does an entry that cannot even be stat'ed (a
      // symlink loop, a name too long): it costs that entry, never the run.
      std::vector<std::string> found;
      fs::directory_iterator it(input, ec);
      for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code entry_ec;
        if (looks_like_trace(name) && !it->is_directory(entry_ec)) found.push_back(it->path().string());
      }
      if (ec) throw Fatal(input + ": cannot list directory: " + ec.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (!fs::is_regular_file(status)) {
      // Named on purpose, so not a warning: reading it would block or never end.
      const char* kind = fs::is_fifo(status)             ? "a FIFO"
                         : fs::is_character_file(status) ? "a character device"
                         : fs::is_block_file(status)     ? "a block device"
                         : fs::is_socket(status)         ? "a socket"
                                                         : "not a plain file";
      throw Fatal(input + ": not a regular file (" + kind + "); tracediff reads only regular files and directories");
    } else {
      // A "regular" file that cannot be read to an end (procfs, tracefs's trace_pipe):
      // named on purpose, so fatal as a FIFO is. Other failures to open are the reader's.
      std::string error;
      bool refused = false;
      const int fd = open_regular_file(input, error, &refused);
      if (fd >= 0) ::close(fd);
      if (refused) throw Fatal(input + ": " + error);
      files.push_back(input);
    }
  }
  return files;
}

std::vector<std::string> run_names(const std::vector<std::string>& inputs, const std::vector<std::uint32_t>& input_runs) {
  std::vector<std::string> names;
  if (input_runs.empty()) return names;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const auto run = input_runs.at(k);
    if (names.size() <= run) names.resize(run + 1);
    names[run] += (names[run].empty() ? "" : ", ") + inputs[k];
  }
  return names;
}

std::vector<std::size_t> distinct_files(const std::vector<std::string>& files, model::Diagnostics& diagnostics) {
  // Indices, not copies of the paths: 10,000 files a side are many strings to hold twice.
  std::vector<std::size_t> kept;
  std::map<std::pair<dev_t, ino_t>, std::size_t> seen;
  std::map<std::string_view, std::size_t> unknown;  // those stat refuses (a loop): by name
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& path = files[i];
    struct stat st {};
    // One that cannot be stat'ed is kept once: its reader says why it cannot be read.
    const bool known = ::stat(path.c_str(), &st) == 0;
    const auto [it, fresh] = known ? seen.try_emplace({st.st_dev, st.st_ino}, i) : std::pair{seen.end(), true};
    const auto [jt, fresh_name] = known ? std::pair{unknown.end(), true} : unknown.try_emplace(path, i);
    if (!fresh || !fresh_name) {
      diagnostics.report(DiagId::input_duplicate, path, 0,
                         "the same file as " + files[!fresh ? it->second : jt->second] +
                             " (given twice, or a link to it); read once");
      continue;
    }
    kept.push_back(i);
  }
  return kept;
}

std::optional<int> rank_from_file_name(const std::string& path) {
  static const std::regex pattern("rank[-_]?([0-9]{1,9})", std::regex::icase);
  const std::string name = fs::path(path).filename().string();
  std::smatch m;
  if (std::regex_search(name, m, pattern)) return std::stoi(m[1].str());
  return std::nullopt;
}

std::vector<model::TraceSet> read_trace_sets(const std::vector<SetSpec>& sides,
                                             const ReadOptions& options, unsigned threads,
                                             const ReadProgressFn& progress,
                                             const AfterReadFn& after_read) {
  struct Job {
    std::size_t side;
    std::uint32_t run;
    std::string path;
    ReadResult result;
  };
  std::vector<Job> jobs;
  std::vector<model::TraceSet> sets(sides.size());
  for (std::size_t s = 0; s < sides.size(); ++s) {
    sets[s].label = sides[s].label;
    sets[s].inputs = sides[s].inputs;
    const auto& runs = sides[s].input_runs;
    sets[s].runs = run_names(sides[s].inputs, runs);
    // Each file once on a side, across its runs too: the first run that names it keeps it.
    std::vector<std::string> found;
    std::vector<std::uint32_t> found_run;  // parallel to found
    if (runs.empty()) {
      found = find_trace_files(sides[s].inputs);
      found_run.assign(found.size(), 0);
    } else {
      for (std::size_t k = 0; k < sides[s].inputs.size(); ++k)
        for (auto& path : find_trace_files({sides[s].inputs[k]})) {
          found.push_back(std::move(path));
          found_run.push_back(runs.at(k));
        }
    }
    for (const auto i : distinct_files(found, sets[s].diagnostics)) jobs.push_back({s, found_run[i], std::move(found[i]), {}});
  }

  // One file per thread at a time: files are independent, and a rank's file is
  // the unit of work users have (kineto-trace-format.md §6, "Huge files").
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const bool cores_to_spare = threads > 1;  // also with a single file: it can read ahead
  threads = std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(jobs.size(), 1)));
  // Files in parallel, but not two huge ones at once: a worker starts a file only
  // while the JSON in flight stays under k_parallel_json_budget (or nothing else is
  // in flight). Each GB of Kineto JSON holds about 110 MB of compact events.
  constexpr std::uint64_t k_parallel_json_budget = std::uint64_t{1} << 30;
  std::vector<std::size_t> files_of_side(sides.size());
  for (const auto& job : jobs) ++files_of_side[job.side];
  std::vector<std::uint64_t> estimate(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) estimate[i] = estimate_json_size(jobs[i].path);
  // Largest first: the threads then finish close together (the results keep the
  // files' own order).
  std::vector<std::size_t> order(jobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return estimate[a] > estimate[b]; });
  std::mutex mutex;
  std::condition_variable room;
  std::uint64_t in_flight = 0;
  std::size_t next = 0;
  std::uint64_t bytes_done = 0;
  std::size_t files_done = 0;
  std::exception_ptr failure;  // a worker's (out of memory ...): this thread throws it after the join
  if (progress) progress(0, 0, jobs.size());
  auto work = [&] {
    for (;;) {
      std::size_t i;
      ReadOptions file_options = options;
      {
        std::unique_lock lock(mutex);
        if (next >= jobs.size() || failure) return;
        i = order[next++];
        room.wait(lock, [&] { return failure || in_flight == 0 || in_flight + estimate[i] <= k_parallel_json_budget; });
        if (failure) return;
        // Alone, with no other file allowed beside it (a huge file, or the last one):
        // another core would idle, so it inflates this file ahead of the scan.
        file_options.read_ahead = cores_to_spare && in_flight == 0 &&
                                  (next >= jobs.size() || estimate[i] + estimate[order[next]] > k_parallel_json_budget);
        in_flight += estimate[i];
      }
      jobs[i].result = read_trace_file(jobs[i].path, file_options);
      {
        // No file left to take: the thread's input buffers would sit resident through
        // the summary and the comparison (about 1 MiB a thread).
        std::lock_guard lock(mutex);
        if (next >= jobs.size()) ScratchBuffer::release_kept();
      }
      if (!jobs[i].result.skipped) {
        jobs[i].result.file.run = jobs[i].run;
        settle_rank(jobs[i].result.file, files_of_side[jobs[i].side] == 1);
        if (after_read) after_read(jobs[i].result.file, jobs[i].side);
      }
      std::lock_guard lock(mutex);
      in_flight -= estimate[i];
      room.notify_all();
      if (progress) {
        bytes_done += jobs[i].result.file.json_bytes;
        progress(bytes_done, ++files_done, jobs.size());
      }
    }
  };
  // An exception must not leave a thread (std::terminate): the first is kept, the
  // others stop taking files, and it is thrown here once they are joined.
  auto guarded = [&] {
    try {
      work();
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      room.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(guarded);
    } catch (const std::system_error&) {  // no memory for another thread's stack: fewer threads
      break;
    }
  }
  guarded();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  for (auto& job : jobs) {
    auto& set = sets[job.side];
    auto& file = job.result.file;
    if (job.result.skipped) {
      set.diagnostics.merge(file.diagnostics);
      continue;
    }
    set.files.push_back(std::move(file));
  }

  for (std::size_t s = 0; s < sets.size(); ++s) {
    auto& set = sets[s];
    std::stable_sort(set.files.begin(), set.files.end(), [](const auto& a, const auto& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
    });
    std::map<std::pair<std::uint32_t, int>, std::vector<std::string>> by_rank;  // within a run
    for (const auto& f : set.files) by_rank[{f.run, f.rank}].push_back(f.path);
    for (const auto& [run_rank, paths] : by_rank) {
      const int rank = run_rank.second;
      if (paths.size() < 2) continue;
      std::string list;
      for (const auto& p : paths) list += (list.empty() ? "" : ", ") + p;
      set.diagnostics.report(DiagId::rank_duplicate, paths.front(), 0,
                             "rank " + std::to_string(rank) + " has " + std::to_string(paths.size()) +
                                 " files (" + list + "); all are used, one profiling window each");
    }
    if (set.files.empty()) {
      std::string what;
      for (const auto& in : set.inputs) what += (what.empty() ? "" : " ") + in;
      throw Fatal(set.label + " (" + what + "): no usable trace file" +
                  (set.diagnostics.samples().empty()
                       ? std::string()
                       : " (" + set.diagnostics.samples().front().file + ": " +
                             set.diagnostics.samples().front().message + ")"));
    }
  }
  return sets;
}

}  // namespace tracediff::reading
