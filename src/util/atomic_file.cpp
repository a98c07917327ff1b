// Outputs written all together or not at all (atomic_file.hpp says how): one thing,
// the temporaries, the signals that must remove them, and the swap, kept together.
#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <streambuf>

#include "util/errors.hpp"

namespace tracediff {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- temporaries on signals

// The temporary files that exist, for the signal handler: fixed slots, so that it
// reads them with async-signal-safe calls only (no allocation, no lock).
struct TempSlot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> live{false};  // path is complete and the file may exist
  char path[PATH_MAX];
};
constexpr int k_slots = 16;
TempSlot g_slots[k_slots];
constexpr int k_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temporaries_and_die(int sig) {
  for (auto& s : g_slots)
    if (s.live.load(std::memory_order_acquire)) ::unlink(s.path);
  // SA_RESETHAND made the action the default again: die of the signal, as without us.
  ::raise(sig);
}

// Checked each time a temporary is made (three system calls): SA_RESETHAND, or a
// caller, may have reset an action since.
void install_handlers() {
  for (const int sig : k_signals) {
    struct sigaction old {};
    // Only over the default action: ignored (nohup, a background job) the run goes
    // on, and a handler of someone else's stays.
    if (::sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigaction(sig, &sa, nullptr);
  }
}

// A slot for path, or -1 when none is free or the path is too long (then the file is
// still removed on failure, just not on a signal).
int register_temporary(const std::string& path) {
  install_handlers();
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < k_slots; ++i) {
    bool expected = false;
    if (!g_slots[i].claimed.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].live.store(true, std::memory_order_release);
    return i;
  }
  return -1;
}

void unregister_temporary(int& slot) {
  if (slot < 0) return;
  g_slots[slot].live.store(false, std::memory_order_release);
  g_slots[slot].claimed.store(false);
  slot = -1;
}

// While swapping outputs into place: a signal then waits until all are swapped (or
// all are put back), so that it never leaves some outputs new and others old.
class BlockSignals {
 public:
  BlockSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (const int sig : k_signals) sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &m_old);
  }
  ~BlockSignals() { ::pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }
  BlockSignals(const BlockSignals&) = delete;
  BlockSignals& operator=(const BlockSignals&) = delete;

 private:
  sigset_t m_old;
};

// A closed pipe or FIFO is then EPIPE, an error like a full disk, not death.
void ignore_sigpipe() { ::signal(SIGPIPE, SIG_IGN); }

// ---------------------------------------------------------------- writing to a descriptor

// An output stream's buffer on a file descriptor that keeps the errno of the write
// that failed (ofstream loses it). Large writes go straight to the descriptor.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : m_fd(fd), m_buf(std::make_unique<char[]>(k_size)) { setp(m_buf.get(), m_buf.get() + k_size); }
  int error() const { return m_error; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n <= epptr() - pptr()) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    if (!drain()) return 0;
    if (n < static_cast<std::streamsize>(k_size)) return xsputn(s, n);
    return write_all(s, static_cast<std::size_t>(n)) ? n : 0;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr std::size_t k_size = 1 << 16;

  bool drain() {
    const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(m_buf.get(), m_buf.get() + k_size);
    return ok;
  }
  bool write_all(const char* p, std::size_t n) {
    if (m_error) return false;
    while (n > 0) {
      const ssize_t w = ::write(m_fd, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {  // stdout left non-blocking by a parent
          pollfd pfd{m_fd, POLLOUT, 0};
          ::poll(&pfd, 1, -1);
          continue;
        }
        m_error = errno;
        return false;
      }
      if (w == 0) {
        m_error = EIO;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return true;
  }

  int m_fd;
  std::unique_ptr<char[]> m_buf;
  int m_error = 0;
};

// Runs write on fd; returns 0 or the errno of what failed.
int write_to_fd(int fd, const OutputSet::WriteFn& write) {
  FdBuf buf(fd);
  std::ostream os(&buf);
  write(os);
  os.flush();
  if (buf.error()) return buf.error();
  return os ? 0 : EIO;
}

// Writes to a descriptor it then closes (also when write throws); 0 or an errno.
int write_and_close(int fd, const OutputSet::WriteFn& write) {
  struct Closer {
    int fd;
    ~Closer() {
      if (fd >= 0) ::close(fd);
    }
  } closer{fd};
  int err = write_to_fd(fd, write);
  closer.fd = -1;
  if (::close(fd) != 0 && err == 0) err = errno;
  return err;
}

std::string cannot_write(const std::string& path, int err) {
  return path + ": cannot write: " + std::strerror(err);
}

// ---------------------------------------------------------------- kinds of output

enum class Kind { file, in_place, out };  // out: descriptor 1 or 2, written last

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

bool is_descriptor(int fd, const struct stat& st) {
  struct stat s {};
  return ::fstat(fd, &s) == 0 && same_file(s, st);
}

// /dev/stdout, /dev/fd/3, /proc/self/fd/1: a descriptor's file, which may be a log a
// shell appends to; replacing it by rename (or truncating it) would wipe it.
bool names_a_descriptor(const std::string& path) {
  if (path == "/dev/stdout" || path == "/dev/stderr" || path.rfind("/dev/fd/", 0) == 0) return true;
  if (path.rfind("/proc/", 0) != 0) return false;
  const auto slash = path.find('/', 6);  // /proc/self/fd/N, /proc/PID/fd/N, /proc/thread-self/fd/N
  return slash != std::string::npos && path.compare(slash, 4, "/fd/") == 0;
}

// The descriptor (1 or 2) that an output of Kind::out goes to.
struct Classified {
  Kind kind = Kind::file;
  int fd = -1;
};

Classified classify(const std::string& path) {
  if (path == "-") return {Kind::out, 1};
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool special = exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  if (names_a_descriptor(path) || special) {
    // Our own stdout or stderr: written through that descriptor, last.
    for (const int fd : {1, 2})
      if (exists && is_descriptor(fd, st)) return {Kind::out, fd};
    return {Kind::in_place, -1};
  }
  return {Kind::file, -1};
}

Kind kind_of(const std::string& path) { return classify(path).kind; }

// The file a rename must replace: path with symlinks resolved (renaming onto the link
// would replace the link itself with a file).
// A dangling link too: its target is created, the link stays.
fs::path target_of(const std::string& path) {
  std::error_code ec;
  fs::path target(path);
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) break;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target.lexically_normal();
}

// Creates `.NAME.tmp-XXXXXX` beside target with mode 0666 less the umask (mkstemp's
// 0600 would make every new report private); returns its descriptor, or -1 (errno).
int create_temporary(const fs::path& target, std::string& temp) {
  static std::mutex mutex;
  static std::mt19937_64 random{std::random_device{}() ^ static_cast<std::uint64_t>(::getpid())};
  static constexpr char k_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix(6, 'x');
    {
      std::lock_guard lock(mutex);
      for (auto& c : suffix) c = k_chars[random() % (sizeof k_chars - 1)];
    }
    temp = (dir / ("." + target.filename().string() + ".tmp-" + suffix)).string();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

// ---------------------------------------------------------------- OutputSet

struct OutputSet::Output {
  std::string path;
  WriteFn write;
  Kind kind = Kind::file;
  std::string target;  // Kind::file: what is replaced
  std::string temp;    // Kind::file: while it exists and is not yet in place
  int slot = -1;       // its signal-handler slot
  int fd = -1;         // Kind::out: 1 or 2
  std::string backup;  // replaced without an exchange: a hard link to the old file, to put back
  // exchanged: the old file is now under the temporary name (until removed).
  enum class Swap { none, exchanged, created, replaced } swap = Swap::none;
};

OutputSet::OutputSet() = default;

OutputSet::~OutputSet() {
  for (auto& o : m_outputs) {
    // Not swapped in: the temporary holds a new output, which goes. (Exchanged and
    // not put back, it holds the old one: kept rather than lost.)
    if (o->swap == Output::Swap::none && !o->temp.empty()) ::unlink(o->temp.c_str());
    unregister_temporary(o->slot);
  }
}

void OutputSet::add(const std::string& path, WriteFn write) {
  auto o = std::make_unique<Output>();
  o->path = path;
  o->write = std::move(write);
  const auto c = classify(path);
  o->kind = c.kind;
  o->fd = c.fd;
  if (o->kind == Kind::file) o->target = target_of(path).string();
  m_outputs.push_back(std::move(o));
}

bool OutputSet::takes_stdout() const {
  for (const auto& o : m_outputs)
    if (o->kind == Kind::out && o->fd == 1) return true;
  return false;
}

void OutputSet::write_files() {
  ignore_sigpipe();
  for (auto& o : m_outputs) {
    if (o->kind != Kind::file) continue;
    const int fd = create_temporary(o->target, o->temp);
    if (fd < 0) {
      const int err = errno;
      o->temp.clear();
      throw Fatal(cannot_write(o->path, err));
    }
    o->slot = register_temporary(o->temp);
    // A replacement keeps the old file's permissions (a private report stays private)
    // and, where we may, its group.
    struct stat st {};
    if (::stat(o->target.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      if (::fchown(fd, static_cast<uid_t>(-1), st.st_gid) != 0) {
        // Not a member of that group: the file keeps ours.
      }
      ::fchmod(fd, st.st_mode & 0777);
    }
    if (const int err = write_and_close(fd, o->write)) throw Fatal(cannot_write(o->path, err));
  }
  for (auto& o : m_outputs) {
    if (o->kind != Kind::in_place) continue;
    // Appended, never truncated: /dev/stdout may be a log the shell appends to.
    const int fd = ::open(o->path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0) throw Fatal(cannot_write(o->path, errno));
    if (const int err = write_and_close(fd, o->write)) throw Fatal(cannot_write(o->path, err));
  }
  commit();
}

// Swaps every temporary into place; on a failure puts back what was swapped. With
// RENAME_EXCHANGE each swap can be undone (and ext4 does not write a renamed-over
// file's data out first, 2 ms for a 900 KB report); where the file system cannot
// exchange (NFS, some FUSE), the old file is first hard-linked to a hidden name and
// renamed back from there; only where it has no hard links either (FAT) can a plain
// rename over an old file not be undone.
void OutputSet::commit() {
  BlockSignals blocked;
  using Swap = Output::Swap;
  auto swap_in = [](Output& o) -> int {
#ifdef RENAME_EXCHANGE
    if (!no_exchange_for_testing) {  // (tests: as if the file system refused both flags)
      if (::renameat2(AT_FDCWD, o.temp.c_str(), AT_FDCWD, o.target.c_str(), RENAME_EXCHANGE) == 0) {
        o.swap = Swap::exchanged;
        return 0;
      }
      if (errno == ENOENT) {
        if (::renameat2(AT_FDCWD, o.temp.c_str(), AT_FDCWD, o.target.c_str(), RENAME_NOREPLACE) == 0) {
          o.swap = Swap::created;
          return 0;
        }
        if (errno != EINVAL && errno != ENOSYS) return errno;
      } else if (errno != EINVAL && errno != ENOSYS) {
        return errno;
      }
    }
#endif
    struct stat st {};
    const bool existed = ::lstat(o.target.c_str(), &st) == 0;
    if (existed && ::link(o.target.c_str(), (o.temp + ".old").c_str()) == 0) o.backup = o.temp + ".old";
    if (std::rename(o.temp.c_str(), o.target.c_str()) != 0) {
      const int err = errno;
      if (!o.backup.empty()) ::unlink(o.backup.c_str());
      o.backup.clear();
      return err;
    }
    o.swap = existed ? Swap::replaced : Swap::created;
    return 0;
  };
  for (auto& o : m_outputs) {
    if (o->kind != Kind::file) continue;
    const int fault = swap_fault_for_testing ? swap_fault_for_testing(o->path) : 0;
    const int err = fault ? fault : swap_in(*o);
    if (err == 0) continue;
    // Put back, newest first, what was swapped in.
    for (auto it = m_outputs.rbegin(); it != m_outputs.rend(); ++it) {
      auto& back = *it;
      switch (back->swap) {
        case Swap::exchanged:
#ifdef RENAME_EXCHANGE
          if (::renameat2(AT_FDCWD, back->temp.c_str(), AT_FDCWD, back->target.c_str(), RENAME_EXCHANGE) == 0)
            back->swap = Swap::none;  // the new file is under the temporary name again
#endif
          break;
        case Swap::created:
          ::unlink(back->target.c_str());
          back->swap = Swap::none;
          back->temp.clear();
          break;
        case Swap::replaced:
          if (!back->backup.empty() && std::rename(back->backup.c_str(), back->target.c_str()) == 0) {
            back->backup.clear();
            back->swap = Swap::none;
            back->temp.clear();  // the new file was replaced by the old one again
          }
          break;
        case Swap::none: break;
      }
    }
    throw Fatal(cannot_write(o->path, err));  // the destructor removes the temporaries
  }
  // All in place: the old files (now under the temporary names) go.
  for (auto& o : m_outputs) {
    if (o->kind != Kind::file) continue;
    if (o->swap == Swap::exchanged) ::unlink(o->temp.c_str());
    if (!o->backup.empty()) ::unlink(o->backup.c_str());
    o->backup.clear();
    o->temp.clear();
    o->swap = Swap::replaced;
    unregister_temporary(o->slot);
  }
}

void OutputSet::write_stdout() {
  for (auto& o : m_outputs) {
    if (o->kind != Kind::out) continue;
    // Through the descriptor itself, as the shell opened it (>> appends, > goes on
    // where the last write ended), not reopened by name.
    ignore_sigpipe();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    if (const int err = write_to_fd(o->fd, o->write))
      throw Fatal(cannot_write(o->path == "-" ? "standard output" : o->path, err) + " (the file outputs were written)");
  }
}

void write_to_stdout(const OutputSet::WriteFn& write) {
  OutputSet out;
  out.add("-", write);
  out.write_stdout();
}

// ---------------------------------------------------------------- what an output path can be

bool output_is_terminal(const std::string& path) {
  if (path == "-") return ::isatty(1) == 1;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) return false;  // only a device can be a terminal
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool tty = ::isatty(fd) == 1;
  ::close(fd);
  return tty;
}

void probe_writable(const std::string& path) {
  if (path == "-") return;
  std::error_code ec;
  const fs::path p(path);
  const Kind kind = kind_of(path);
  if (kind == Kind::out) return;  // our own stdout or stderr: open already
  if (kind != Kind::file) {
    // Opened as it will be (a FIFO only checked: opened now, it would need a reader).
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
      if (::access(dir.c_str(), W_OK) != 0) throw Fatal(cannot_write(path, errno));
    } else if (S_ISFIFO(st.st_mode)) {
      if (::access(path.c_str(), W_OK) != 0) throw Fatal(cannot_write(path, errno));
    } else {
      const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
      if (fd < 0) throw Fatal(cannot_write(path, errno));
      ::close(fd);
    }
    return;
  }
  const fs::path target = target_of(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) throw Fatal(path + ": directory " + dir.string() + " does not exist");
  // The real test: a temporary file can be made there (permissions, a read-only or
  // full file system), as it will be once the traces are read.
  std::string temp;
  const int fd = create_temporary(target, temp);
  if (fd < 0) throw Fatal(cannot_write(path, errno));
  int slot = register_temporary(temp);
  ::close(fd);
  ::unlink(temp.c_str());
  unregister_temporary(slot);
}

bool same_output_file(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-" || kind_of(a) != Kind::file || kind_of(b) != Kind::file) return false;
  std::error_code ec;
  return fs::weakly_canonical(target_of(a), ec) == fs::weakly_canonical(target_of(b), ec) || fs::equivalent(a, b, ec);
}

}  // namespace tracediff
