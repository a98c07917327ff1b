#pragma once
// Runs the tracediff binary as a child the test controls: stdout to a file (appended
// or not) or to a descriptor such as a pipe, a shell prelude (umask, ulimit, trap),
// signals sent while it runs, and a time limit after which it is killed, so that a
// hang fails the test instead of blocking ctest.
#include <sys/types.h>

#include <string>
#include <vector>

namespace tracediff::test {

struct SpawnOptions {
  std::string dir{};          // where stdout/stderr files go (default: a fresh temp dir)
  std::string stdout_path{};  // default: dir/out
  bool stdout_append = false; // open stdout with O_APPEND (a shell's >>)
  int stdout_fd = -1;         // use this descriptor as stdout instead (e.g. a pipe)
  int stderr_fd = -1;         // and this one as stderr (default: dir/err)
  std::string prelude{};      // shell commands run before exec ("umask 077; ulimit -f 64")
  double timeout_s = 60;      // then SIGKILL, and timed_out
};

struct Spawned {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that killed it
  bool timed_out = false;
  double seconds = 0;
  std::string out, err;
};

class Child {
 public:
  Child(const std::vector<std::string>& args, SpawnOptions options = {});
  ~Child();  // kills it if still running
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return m_pid; }
  void signal(int sig) const;
  // Waits (up to the time limit) and collects the outcome.
  Spawned wait();

 private:
  SpawnOptions m_options;
  pid_t m_pid = -1;
  double m_start = 0;
  bool m_done = false;
};

// Child(args, options).wait().
Spawned spawn_cli(const std::vector<std::string>& args, SpawnOptions options = {});

}  // namespace tracediff::test
