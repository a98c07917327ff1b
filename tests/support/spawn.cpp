#include "support/spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "support/test_support.hpp"

extern char** environ;

namespace tracediff::test {

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

Child::Child(const std::vector<std::string>& args, SpawnOptions options) : m_options(std::move(options)) {
  if (m_options.dir.empty()) m_options.dir = temp_dir("spawn");
  if (m_options.stdout_path.empty()) m_options.stdout_path = m_options.dir + "/out";
  std::vector<std::string> argv_s;
  if (!m_options.prelude.empty()) argv_s = {"/bin/sh", "-c", m_options.prelude + "\nexec \"$0\" \"$@\""};
  argv_s.push_back(TRACEDIFF_BINARY);
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (m_options.stdout_fd >= 0)
    posix_spawn_file_actions_adddup2(&fa, m_options.stdout_fd, 1);
  else
    posix_spawn_file_actions_addopen(&fa, 1, m_options.stdout_path.c_str(),
                                     O_WRONLY | O_CREAT | (m_options.stdout_append ? O_APPEND : O_TRUNC), 0644);
  const std::string err = m_options.dir + "/err";
  if (m_options.stderr_fd >= 0)
    posix_spawn_file_actions_adddup2(&fa, m_options.stderr_fd, 2);
  else
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // Whatever the test runner ignores or blocks, the child starts with the defaults.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t all, none;
  sigemptyset(&none);
  sigemptyset(&all);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ}) sigaddset(&all, sig);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  m_start = now();
  const int rc = posix_spawn(&m_pid, argv[0], &fa, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("posix_spawn failed");
}

Child::~Child() {
  if (!m_done && m_pid > 0) {
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
  }
}

void Child::signal(int sig) const { ::kill(m_pid, sig); }

Spawned Child::wait() {
  Spawned s;
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid) break;
    if (now() - m_start > m_options.timeout_s) {
      s.timed_out = true;
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  m_done = true;
  s.seconds = now() - m_start;
  if (WIFEXITED(status)) s.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
  if (m_options.stdout_fd < 0) s.out = read_file(m_options.stdout_path);
  if (m_options.stderr_fd < 0) s.err = read_file(m_options.dir + "/err");
  return s;
}

Spawned spawn_cli(const std::vector<std::string>& args, SpawnOptions options) {
  return Child(args, std::move(options)).wait();
}

}  // namespace tracediff::test
