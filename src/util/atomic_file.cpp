#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "util/errors.hpp"

namespace tracediff {

namespace fs = std::filesystem;

AtomicFile::AtomicFile(std::string path) : m_path(std::move(path)) {
  if (m_path == "-") {
    m_stdout = true;
    return;
  }
  std::error_code ec;
  fs::path target(m_path);
  // /dev/null, /dev/stdout to a pipe, a FIFO: write straight to it. Renaming over
  // it would replace a device node (as root) or fail (no temporary file in /dev).
  const auto st = fs::status(target, ec);
  if (!ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st)) {
    m_direct = true;
    m_file.open(m_path, std::ios::binary | std::ios::trunc);
    if (!m_file) throw Fatal(m_path + ": cannot write: " + std::strerror(errno));
    return;
  }
  // Follow a symlink, or rename would replace the link itself with a file.
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    const auto real = fs::weakly_canonical(target, ec);
    if (!ec) target = real;
  }
  m_target = target.string();
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw Fatal(m_path + ": cannot write: " + std::strerror(errno));
  ::close(fd);
  m_temp = pattern;
  // mkstemp made it empty. Opened without O_TRUNC: ext4 writes a file truncated
  // to 0 back to disk when it is closed (auto_da_alloc), a quarter of a millisecond.
  m_file.open(m_temp, std::ios::binary | std::ios::in | std::ios::out);
  if (!m_file) throw Fatal(m_path + ": cannot write: " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (!m_stdout && !m_direct && !m_committed && !m_temp.empty()) {
    m_file.close();
    std::remove(m_temp.c_str());
  }
}

std::ostream& AtomicFile::stream() { return m_stdout ? std::cout : m_file; }

void AtomicFile::commit() {
  if (m_stdout) {
    std::cout.flush();
    m_committed = true;
    return;
  }
  m_file.flush();
  m_file.close();
  if (!m_file) throw Fatal(m_path + ": write failed: " + std::strerror(errno));
  if (m_direct) {
    m_committed = true;
    return;
  }
  // mkstemp makes 0600 files; reports are shared, so use the usual 0644 less umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  fs::permissions(m_temp, static_cast<fs::perms>(0666 & ~mask));
#ifdef RENAME_EXCHANGE
  // Renaming over a file makes ext4 write the new file's data out first
  // (auto_da_alloc): 2 ms for a 900 KB report, a tenth of a small run. Swapping the
  // two names is just as atomic (a reader sees the old report or the new one) and
  // does not; the old report, now under the temporary name, is then removed.
  if (::renameat2(AT_FDCWD, m_temp.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE) == 0) {
    m_committed = true;
    ::unlink(m_temp.c_str());
    return;
  }
#endif
  // No target yet, or a file system (or kernel) without the exchange.
  if (std::rename(m_temp.c_str(), m_target.c_str()) != 0)
    throw Fatal(m_path + ": cannot write: " + std::strerror(errno));
  m_committed = true;
}

void check_output_path(const std::string& path, const std::vector<std::string>& input_files) {
  if (path == "-") return;
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) throw Fatal(path + ": is a directory, not an output file");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) throw Fatal(path + ": directory " + dir.string() + " does not exist");
  if (fs::exists(p, ec)) {
    for (const auto& in : input_files)
      if (fs::equivalent(p, in, ec)) throw Fatal(path + ": is one of the input traces; refusing to overwrite it");
  }
}

}  // namespace tracediff
