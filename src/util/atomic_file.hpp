#pragma once
// A run's outputs are replaced all together or not at all.
//
// Each output is one of three kinds:
// - a file (the usual case): written to a temporary file beside its target, which is
//   swapped into place only when every output has been written; a symlink is
//   followed (the file it points to is replaced, the link stays); a replacement keeps
//   the mode (and, where allowed, the group) of the file it replaces, a new file
//   follows the umask;
// - not a regular file (/dev/null, a FIFO), or a path that names a descriptor
//   (/dev/fd/3, /proc/self/fd/3): written in place, opened for appending, never
//   truncated nor replaced (a log that the shell appends to survives);
// - standard output ("-", or such a path that is our stdout or stderr, such as
//   /dev/stdout): written through descriptor 1 (or 2) as the shell opened it, last,
//   after the files are in place, so that a reader that goes away (`--csv - | head`)
//   costs only what it did not read.
//
// Temporary files are removed on failure, when the OutputSet is destroyed, and on
// SIGINT, SIGTERM and SIGHUP (the process then dies of the signal as it would have).
// SIGPIPE is ignored when writing (see prepare_standard_streams): a closed pipe is an
// error like any other.
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tracediff {

class OutputSet {
 public:
  using WriteFn = std::function<void(std::ostream&)>;

  OutputSet();
  ~OutputSet();  // removes every temporary file not yet swapped into place
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // An output and what writes it ("-": standard output).
  void add(const std::string& path, WriteFn write);

  // True when an output goes to standard output ("-", /dev/stdout, ...): the
  // terminal summary then steps aside.
  bool takes_stdout() const;

  // Files to temporaries, then devices and FIFOs in place, then every temporary
  // swapped into place at once. Throws Fatal naming the output on any failure: then
  // no file output was replaced and no temporary file is left.
  void write_files();

  // Then the outputs that go to standard output. Throws Fatal when one cannot be
  // written (EPIPE: the reader went away); the files stay written.
  void write_stdout();

  // Tests only: called before each file output is swapped into place; an errno it
  // returns fails that swap as the file system would.
  static inline int (*swap_fault_for_testing)(const std::string& path) = nullptr;
  // Tests only: swap as on a file system without RENAME_EXCHANGE (NFS).
  static inline bool no_exchange_for_testing = false;

 private:
  struct Output;
  std::vector<std::unique_ptr<Output>> m_outputs;
  void commit();
};

// Writes to standard output (the terminal summary) as write_stdout does: throws Fatal
// when it cannot be written.
void write_to_stdout(const OutputSet::WriteFn& write);

// Whether an output path ends on a terminal: "-" when standard output is one, or a
// path to a terminal device (/dev/stdout, /dev/fd/1, /dev/tty, /dev/pts/N). Text
// outputs then escape what a terminal would run.
bool output_is_terminal(const std::string& path);

// Throws Fatal when an output of this path could not be written as write_files will:
// a file whose directory is missing or where no temporary file can be made
// (permissions, a read-only or full file system: one is created and removed), a device
// or FIFO that cannot be opened for writing. "-" and our own stdout/stderr pass.
void probe_writable(const std::string& path);

// Whether two output paths end in the same file ("-", devices and FIFOs never do).
bool same_output_file(const std::string& a, const std::string& b);

}  // namespace tracediff
