// OutputSet: all outputs or none, also when the last swap into place fails (a fault
// injected where the file system would fail), when a writer throws, and when a
// signal arrives while writing.
#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "support/test_support.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

using tracediff::OutputSet;
using namespace tracediff::test;
namespace fs = std::filesystem;

namespace {

int temporaries(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp-") != std::string::npos) ++n;
  return n;
}

OutputSet::WriteFn text(const std::string& s) {
  return [s](std::ostream& os) { os << s; };
}

// Fails the swap of any output whose path ends in "c.txt".
int fail_c(const std::string& path) { return path.ends_with("c.txt") ? EIO : 0; }

struct FaultGuard {
  explicit FaultGuard(int (*f)(const std::string&)) { OutputSet::swap_fault_for_testing = f; }
  ~FaultGuard() { OutputSet::swap_fault_for_testing = nullptr; }
};

// Old a and c, new a, b and c, the swap of c failing: every old file must be back and
// b gone; then, without the fault, all three new.
void check_rollback_then_commit(const std::string& dir) {
  write_file(dir + "/a.txt", "old a");
  write_file(dir + "/c.txt", "old c");
  {
    FaultGuard fault(fail_c);
    OutputSet out;
    out.add(dir + "/a.txt", text("new a"));
    out.add(dir + "/b.txt", text("new b"));  // new: removed again
    out.add(dir + "/c.txt", text("new c"));  // its swap fails
    BOOST_CHECK_EXCEPTION(out.write_files(), tracediff::Fatal, [&](const tracediff::Fatal& e) {
      return std::string(e.what()) == dir + "/c.txt: cannot write: Input/output error";
    });
  }
  BOOST_TEST(read_file(dir + "/a.txt") == "old a");
  BOOST_TEST(!fs::exists(dir + "/b.txt"));
  BOOST_TEST(read_file(dir + "/c.txt") == "old c");
  BOOST_TEST(temporaries(dir) == 0);
  OutputSet out;
  out.add(dir + "/a.txt", text("new a"));
  out.add(dir + "/b.txt", text("new b"));
  out.add(dir + "/c.txt", text("new c"));
  out.write_files();
  BOOST_TEST(read_file(dir + "/a.txt") == "new a");
  BOOST_TEST(read_file(dir + "/b.txt") == "new b");
  BOOST_TEST(read_file(dir + "/c.txt") == "new c");
  BOOST_TEST(temporaries(dir) == 0);  // nor links to old files
}

}  // namespace

BOOST_AUTO_TEST_SUITE(atomic_file)

BOOST_AUTO_TEST_CASE(a_failed_swap_puts_back_the_outputs_already_swapped) {
  const auto dir = temp_dir("outputs");
  check_rollback_then_commit(dir);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(without_rename_exchange_a_failed_swap_still_puts_back_the_old_files) {
  // NFS and some FUSE file systems cannot exchange: the old file is hard-linked aside
  // before the rename, and renamed back on a failure.
  const auto dir = temp_dir("outputs");
  OutputSet::no_exchange_for_testing = true;
  check_rollback_then_commit(dir);
  OutputSet::no_exchange_for_testing = false;
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_writer_that_throws_costs_every_output) {
  const auto dir = temp_dir("outputs");
  write_file(dir + "/a.txt", "old a");
  {
    OutputSet out;
    out.add(dir + "/a.txt", text("new a"));
    out.add(dir + "/b.txt", [](std::ostream& os) {
      os << std::string(1 << 20, 'x');  // some of it written out already
      throw std::runtime_error("broken template");
    });
    BOOST_CHECK_THROW(out.write_files(), std::runtime_error);
  }
  BOOST_TEST(read_file(dir + "/a.txt") == "old a");
  BOOST_TEST(!fs::exists(dir + "/b.txt"));
  BOOST_TEST(temporaries(dir) == 0);
  // A device written in place that fails: the files are not swapped in either.
  {
    OutputSet out;
    out.add(dir + "/a.txt", text("new a"));
    out.add("/dev/full", text("x"));
    BOOST_CHECK_THROW(out.write_files(), tracediff::Fatal);
  }
  BOOST_TEST(read_file(dir + "/a.txt") == "old a");
  BOOST_TEST(temporaries(dir) == 0);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_signal_while_writing_removes_the_temporaries_and_kills) {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    const auto dir = temp_dir("outputs");
    write_file(dir + "/a.txt", "old a");
    const pid_t pid = ::fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
      ::signal(sig, SIG_DFL);  // whatever the test runner set (OutputSet leaves SIG_IGN alone)
      OutputSet out;
      out.add(dir + "/a.txt", text("new a"));
      out.add(dir + "/b.txt", [&](std::ostream& os) {
        os << "half of b" << std::flush;
        ::raise(sig);
      });
      try {
        out.write_files();
      } catch (...) {
      }
      ::_exit(0);  // not reached: the signal kills it
    }
    int status = 0;
    BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFSIGNALED(status), "signal " << sig << ": status " << status);
    BOOST_TEST((WIFSIGNALED(status) && WTERMSIG(status) == sig));
    BOOST_TEST(read_file(dir + "/a.txt") == "old a");
    BOOST_TEST(!fs::exists(dir + "/b.txt"));
    BOOST_TEST(temporaries(dir) == 0, "signal " << sig);
    fs::remove_all(dir);
  }
}

BOOST_AUTO_TEST_SUITE_END()
