#pragma once
// Turns the command line's CONTROL and TEST arguments into two model::TraceSets:
// finds the trace files, reads them on all cores, and settles each file's rank.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.hpp"
#include "reading/trace_reader.hpp"

namespace tracediff::reading {

struct SetSpec {
  std::string label;
  std::vector<std::string> inputs;  // directories and/or files
  // The run of each input (--control-run, --runs), parallel to inputs; empty: one run.
  // A rank recurs once per run, so two files of a rank are a problem only within a run.
  std::vector<std::uint32_t> input_runs;
};

// Each run's inputs joined by ", " (TraceSet::runs, SetSummary::runs); empty for one run.
std::vector<std::string> run_names(const std::vector<std::string>& inputs, const std::vector<std::uint32_t>& input_runs);

// Files of a directory that look like traces: *.json, *.json.gz (so also
// *.pt.trace.json[.gz]), not recursive, sorted by name (FIFOs and devices among them
// too: reading skips them with a warning). Files named explicitly are taken whatever
// their name. Throws Fatal for a path that does not exist, or one named explicitly
// that is not a regular file or a directory (a FIFO, a device, a socket, a file of
// procfs or another pseudo file system).
std::vector<std::string> find_trace_files(const std::vector<std::string>& inputs);

// Each file once, by device and inode (links followed): the same folder given twice, a
// symlink or hard link to a file beside it. A later duplicate is dropped with an
// input_duplicate diagnostic naming both paths; the first one given is kept.
std::vector<std::size_t> distinct_files(const std::vector<std::string>& files, model::Diagnostics& diagnostics);

// The N of `rank[-_]?N` in a file's base name, if any.
std::optional<int> rank_from_file_name(const std::string& path);

// Progress of read_trace_sets: bytes of JSON read so far (inflated), files done, files
// in all. Called once before any file (0 done), then after each file, from the reading
// threads but never two calls at once.
using ReadProgressFn =
    std::function<void(std::uint64_t bytes, std::size_t files_done, std::size_t files_total)>;

// Runs on the reading thread right after a usable file is read (its rank settled):
// the default mode summarises the file there and drops its events, so memory holds
// one file's events per thread, not all of them. `side` indexes read_trace_sets' sides.
using AfterReadFn = std::function<void(model::TraceFile&, std::size_t side)>;

// Reads both sides, every file in parallel (threads = 0: one per core). Files that
// cannot be used are skipped with a diagnostic; throws Fatal when a side has none left.
std::vector<model::TraceSet> read_trace_sets(const std::vector<SetSpec>& sides,
                                             const ReadOptions& options, unsigned threads = 0,
                                             const ReadProgressFn& progress = {},
                                             const AfterReadFn& after_read = {});

}  // namespace tracediff::reading
