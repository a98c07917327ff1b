#include "cli/output_policy.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace tracediff::cli {

namespace fs = std::filesystem;

void prepare_standard_streams() {
  // A closed pipe or FIFO is then EPIPE, an error like a full disk, not death.
  ::signal(SIGPIPE, SIG_IGN);
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // Read-only: writes to it fail (EBADF) instead of vanishing.
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0 && null != fd) {
      ::dup2(null, fd);
      ::close(null);
    }
  }
}

void check_output_path(const std::string& path, const std::vector<std::string>& input_files) {
  if (path == "-") return;
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) throw Fatal(path + ": is a directory, not an output file");
  if (fs::exists(p, ec)) {
    for (const auto& in : input_files)
      if (fs::equivalent(p, in, ec)) throw Fatal(path + ": is one of the input traces; refusing to overwrite it");
  }
  probe_writable(path);
}

void check_outputs_distinct(const std::vector<std::string>& paths) {
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (same_output_file(paths[j], paths[i]))
        throw UsageError(paths[j] + " and " + paths[i] + ": two outputs name the same file");
}

}  // namespace tracediff::cli
