#pragma once
// What tracediff asks of its outputs before it reads a trace, and of the process's
// standard streams: the policy; util/atomic_file writes the outputs.
#include <string>
#include <vector>

namespace tracediff::cli {

// Before anything is opened or written: descriptors 0, 1 and 2, when closed, are
// opened on /dev/null (read-only, so that writing to them fails; else the first file
// opened would become "standard output"), and SIGPIPE is ignored, so that a closed
// stdout or stderr (`2>&1 | head -1`) is a failed write, not death before the files
// are written.
void prepare_standard_streams();

// Checks, before the read, that path can be an output: throws Fatal when it is a
// directory, one of the inputs, or cannot be written (util/atomic_file: probe_writable).
void check_output_path(const std::string& path, const std::vector<std::string>& input_files);

// Throws UsageError when two outputs name the same file ("-" and devices excepted).
void check_outputs_distinct(const std::vector<std::string>& paths);

}  // namespace tracediff::cli
