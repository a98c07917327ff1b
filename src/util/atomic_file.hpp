#pragma once
// Output files are written to a temporary name beside the target and renamed into
// place on success, so a failed run never leaves a half-written report and never
// clobbers the previous one. "-" means standard output. A symlink is followed (the
// file it points to is replaced, the link stays); a target that is not a regular
// file (/dev/null, /dev/stdout, a FIFO) is written directly, never replaced.
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tracediff {

class AtomicFile {
 public:
  // Throws Fatal when the temporary file cannot be created.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream();
  // Flushes and renames into place; throws Fatal on failure.
  void commit();
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
  std::string m_target;  // m_path with symlinks resolved: what rename replaces
  std::string m_temp;
  std::ofstream m_file;
  bool m_stdout = false;
  bool m_direct = false;  // not a regular file: written in place
  bool m_committed = false;
};

// Throws Fatal when path cannot be an output: a directory, a missing directory, or
// the same file as one of the inputs.
void check_output_path(const std::string& path, const std::vector<std::string>& input_files);

}  // namespace tracediff
