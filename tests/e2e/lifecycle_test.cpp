// The outputs' lifecycle, end to end (issue #16, item 5): a run replaces every output
// it was asked for or none; temporaries go on SIGINT, SIGTERM and SIGHUP; files are
// written before standard output, so a reader that goes away cannot cost them;
// /dev/stdout is appended to, never truncated; a replacement keeps the old file's
// mode; outputs are checked before the read. Each run has a time limit, so that a
// hang fails the test instead of blocking ctest.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/spawn.hpp"
#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

const std::string k_trace = trace_json({x_event("cpu_op", "aten::mm", 1, 1, 100, 10),
                                         x_event("cpu_op", "aten::add", 1, 1, 200, 5)});

struct Dir {
  std::string path = temp_dir("lifecycle");
  std::string trace = path + "/trace.json";
  Dir() { write_file(trace, k_trace); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
  // Left-over temporary outputs (".NAME.tmp-XXXXXX").
  int temporaries() const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(path))
      if (e.path().filename().string().find(".tmp-") != std::string::npos) ++n;
    return n;
  }
};

// Every output of a run, with the previous content each holds.
struct OldOutputs {
  std::vector<std::pair<std::string, std::string>> files;
  explicit OldOutputs(const Dir& d) {
    for (const char* name : {"r.csv", "r.json", "r.html", "r.md"}) {
      files.emplace_back(d / name, std::string("previous ") + name + "\n");
      write_file(files.back().first, files.back().second);
    }
  }
  bool all_unchanged() const {
    for (const auto& [path, bytes] : files)
      if (read_file(path) != bytes) return false;
    return true;
  }
  bool all_replaced() const {
    for (const auto& [path, bytes] : files)
      if (read_file(path) == bytes || read_file(path).empty()) return false;
    return true;
  }
};

std::vector<std::string> all_outputs(const Dir& d, const std::string& html) {
  return {d.trace, d.trace, "--csv", d / "r.csv", "--json", d / "r.json", "--markdown", d / "r.md", "-o", html};
}

fs::perms perms_of(const std::string& path) { return fs::status(path).permissions() & fs::perms::mask; }

}  // namespace

BOOST_AUTO_TEST_SUITE(lifecycle)

BOOST_AUTO_TEST_CASE(a_failed_output_leaves_every_old_output_in_place) {
  Dir d;
  OldOutputs old(d);
  // Written in place and failing (a full device): nothing is replaced.
  auto r = spawn_cli(all_outputs(d, "/dev/full"), {.timeout_s = 30});
  BOOST_TEST_REQUIRE(!r.timed_out);
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find("tracediff: error: /dev/full: cannot write: No space left on device") != std::string::npos,
             r.err);
  BOOST_TEST(old.all_unchanged());
  BOOST_TEST(d.temporaries() == 0);

  // The HTML (265 KB) fails half-way as on a full disk (a file size limit of 32-64 KB,
  // SIGXFSZ ignored: write returns EFBIG), after the CSV, JSON and Markdown (a few KB)
  // were written whole: they are not swapped in either.
  r = spawn_cli(all_outputs(d, d / "r.html"), {.prelude = "trap '' XFSZ; ulimit -f 64", .timeout_s = 30});
  BOOST_TEST_REQUIRE(!r.timed_out);
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find("r.html: cannot write: File too large") != std::string::npos, r.err);
  BOOST_TEST(old.all_unchanged());
  BOOST_TEST(d.temporaries() == 0);

  // Without the limit the same run replaces all four, and leaves nothing behind.
  r = spawn_cli(all_outputs(d, d / "r.html"), {.timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(old.all_replaced());
  BOOST_TEST(parse_json(read_file(d / "r.json")).as_object().contains("rows"));
  BOOST_TEST(d.temporaries() == 0);
}

BOOST_AUTO_TEST_CASE(a_signal_while_writing_removes_the_temporaries) {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    Dir d;
    OldOutputs old(d);
    // A FIFO output is opened after the files are written to their temporaries, and
    // the open blocks until a reader comes: the run waits there, temporaries made.
    const auto fifo = d / "out.fifo";
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    Child child({d.trace, d.trace, "--csv", d / "r.csv", "--json", d / "r.json", "--markdown", fifo},
                {.timeout_s = 30});
    const auto t0 = std::chrono::steady_clock::now();
    while (d.temporaries() < 2 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    BOOST_TEST_REQUIRE(d.temporaries() == 2, "signal " << sig);
    child.signal(sig);
    const auto r = child.wait();
    BOOST_TEST_REQUIRE(!r.timed_out, "signal " << sig);
    BOOST_TEST(r.signal == sig, "died of " << r.signal << ", exit " << r.exit_code << ": " << r.err);
    BOOST_TEST(d.temporaries() == 0, "signal " << sig);
    BOOST_TEST(old.all_unchanged(), "signal " << sig);
    BOOST_TEST(fs::is_fifo(fifo));
  }
}

BOOST_AUTO_TEST_CASE(a_reader_that_goes_away_does_not_cost_the_files) {
  // `-o - | head -c 10`: the HTML (265 KB) fills the pipe, the reader takes 10 bytes
  // and closes it. The CSV and JSON were swapped into place before stdout was written.
  Dir d;
  OldOutputs old(d);
  int pipe_fds[2];  // close-on-exec: the child must not hold the reading end open
  BOOST_REQUIRE(::pipe2(pipe_fds, O_CLOEXEC) == 0);
  Child child({d.trace, d.trace, "-o", "-", "--csv", d / "r.csv", "--json", d / "r.json"},
              {.stdout_fd = pipe_fds[1], .timeout_s = 30});
  ::close(pipe_fds[1]);
  char head[10];
  std::size_t got = 0;
  while (got < sizeof head) {
    const auto n = ::read(pipe_fds[0], head + got, sizeof head - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(pipe_fds[0]);
  const auto r = child.wait();
  BOOST_TEST_REQUIRE(!r.timed_out);
  BOOST_TEST(std::string(head, got) == "<!DOCTYPE ");
  // Not killed by SIGPIPE: exit 1, said, and the files are the new ones.
  BOOST_TEST(r.signal == 0);
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find("tracediff: error: standard output: cannot write: Broken pipe (the file outputs were written)") !=
                 std::string::npos,
             r.err);
  BOOST_TEST(parse_json(read_file(d / "r.json")).as_object().contains("rows"));
  BOOST_TEST(parse_csv(read_file(d / "r.csv")).size() == 3u);
  BOOST_TEST(read_file(d / "r.html") == "previous r.html\n");  // not asked for
  BOOST_TEST(d.temporaries() == 0);
}

BOOST_AUTO_TEST_CASE(a_closed_stderr_does_not_stop_the_run) {
  // `2>&1 | head -1`: what goes to stderr ("report written to") meets a closed pipe
  // before any output is written; that must not kill the run (SIGPIPE) nor its files.
  Dir d;
  OldOutputs old(d);
  int pipe_fds[2];
  BOOST_REQUIRE(::pipe2(pipe_fds, O_CLOEXEC) == 0);
  ::close(pipe_fds[0]);  // nobody reads
  const auto r = spawn_cli(all_outputs(d, d / "r.html"), {.stderr_fd = pipe_fds[1], .timeout_s = 30});
  ::close(pipe_fds[1]);
  BOOST_TEST_REQUIRE(!r.timed_out);
  BOOST_TEST(r.signal == 0);
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(old.all_replaced());
  BOOST_TEST(d.temporaries() == 0);
}

BOOST_AUTO_TEST_CASE(dev_stdout_is_appended_to_not_truncated_nor_replaced) {
  // `tracediff ... --csv /dev/stdout >> log`: the log keeps what it had. /dev/stdout
  // is then a regular file; replacing it by rename (or opening it with O_TRUNC)
  // wiped the log.
  Dir d;
  const auto log = d / "log";
  write_file(log, "first line\n");
  auto r = spawn_cli({d.trace, d.trace, "--csv", "/dev/stdout", "--json", d / "r.json"},
                     {.stdout_path = log, .stdout_append = true, .timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto text = read_file(log);
  BOOST_TEST(text.rfind("first line\nname,category,", 0) == 0, text);
  // The CSV took stdout: the terminal summary stepped aside, as for `--csv -`.
  BOOST_TEST(text.find("Per step") == std::string::npos, text);
  BOOST_TEST(parse_csv(text.substr(text.find('\n') + 1)).size() == 3u);
  BOOST_TEST(fs::is_regular_file(log));
  // Twice: appended again after the first.
  r = spawn_cli({d.trace, d.trace, "--csv", "/dev/stdout", "-q"},
                {.stdout_path = log, .stdout_append = true, .timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read_file(log) == text + text.substr(text.find('\n') + 1));
  BOOST_TEST(d.temporaries() == 0);
}

BOOST_AUTO_TEST_CASE(a_regular_file_under_dev_shm_is_replaced_like_any_other) {
  // Only paths that name a descriptor are appended to: a report in /dev/shm (a
  // tmpfs) is replaced whole, not appended to the previous one.
  if (!fs::is_directory("/dev/shm") || ::access("/dev/shm", W_OK) != 0) return;
  Dir d;
  const auto out = "/dev/shm/tracediff-test-" + std::to_string(::getpid()) + ".csv";
  write_file(out, "previous\n");
  const auto r = spawn_cli({d.trace, d.trace, "-q", "--csv", out}, {.timeout_s = 30});
  const auto text = read_file(out);
  fs::remove(out);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(text.rfind("name,category,", 0) == 0, text);
}

BOOST_AUTO_TEST_CASE(a_replacement_keeps_the_mode_and_a_new_file_follows_the_umask) {
  Dir d;
  write_file(d / "private.csv", "old");
  fs::permissions(d / "private.csv", fs::perms::owner_read | fs::perms::owner_write);
  write_file(d / "group.json", "old");
  fs::permissions(d / "group.json", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  auto r = spawn_cli({d.trace, d.trace, "-q", "--csv", d / "private.csv", "--json", d / "group.json", "--markdown",
                      d / "new022.md"},
                     {.prelude = "umask 022", .timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read_file(d / "private.csv") != "old");
  BOOST_TEST((perms_of(d / "private.csv") == (fs::perms::owner_read | fs::perms::owner_write)));
  BOOST_TEST((perms_of(d / "group.json") == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read)));
  BOOST_TEST((perms_of(d / "new022.md") == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                            fs::perms::others_read)));
  r = spawn_cli({d.trace, d.trace, "-q", "--markdown", d / "new077.md"}, {.prelude = "umask 077", .timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST((perms_of(d / "new077.md") == (fs::perms::owner_read | fs::perms::owner_write)));
  // summarize writes its summary the same way.
  r = spawn_cli({"summarize", d.trace, "-q", "-o", d / "private.tdsum.json"}, {.prelude = "umask 077", .timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST((perms_of(d / "private.tdsum.json") == (fs::perms::owner_read | fs::perms::owner_write)));
  BOOST_TEST(d.temporaries() == 0);
}

BOOST_AUTO_TEST_CASE(outputs_are_checked_before_the_read) {
  // The test side cannot be read ("no usable trace file" once read); the output
  // problem must be the one reported, so it was found first.
  Dir d;
  write_file(d / "broken.json", "not json");
  std::string unwritable;
  if (::geteuid() != 0) {
    fs::create_directory(d / "ro");
    fs::permissions(d / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    unwritable = d / "ro/r.csv";
  } else if (fs::is_directory("/sys")) {
    // Root writes anywhere but on a read-only file system, such as /sys usually is.
    const int fd = ::open("/sys/tracediff-probe", O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) unwritable = "/sys/tracediff-r.csv";
    else ::close(fd), ::unlink("/sys/tracediff-probe");
  }
  if (!unwritable.empty()) {
    const auto r = spawn_cli({d.trace, d / "broken.json", "--csv", unwritable}, {.timeout_s = 30});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("tracediff: error: " + unwritable + ": cannot write: ") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("no usable trace file") == std::string::npos, r.err);
  }
  if (::geteuid() != 0) fs::permissions(d / "ro", fs::perms::owner_all);
  // A missing directory: the same.
  {
    const auto out = d / "no/such/dir/r.csv";
    const auto r = spawn_cli({d.trace, d / "broken.json", "--csv", out}, {.timeout_s = 30});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find(out) != std::string::npos, r.err);
    BOOST_TEST(r.err.find("no usable trace file") == std::string::npos, r.err);
  }
  // Two outputs that are one file: a usage error, before anything is read.
  fs::create_symlink("r.csv", d / "link.csv");
  for (const auto& other : {d / "r.csv", d / "link.csv", d / "./r.csv"}) {
    const auto r = spawn_cli({d.trace, d / "broken.json", "--csv", d / "r.csv", "--json", other}, {.timeout_s = 30});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("two outputs name the same file") != std::string::npos, r.err);
  }
  BOOST_TEST(!fs::exists(d / "r.csv"));
  BOOST_TEST(d.temporaries() == 0);
  // A dangling symlink is followed like any other: its target is created, the link stays.
  const auto r = spawn_cli({d.trace, d.trace, "-q", "--csv", d / "link.csv"}, {.timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(fs::is_symlink(d / "link.csv"));
  BOOST_TEST(parse_csv(read_file(d / "r.csv")).size() == 3u);
}

BOOST_AUTO_TEST_CASE(summaries_are_written_all_or_nothing_too) {
  Dir d;
  write_file(d / "s.tdsum.json", "previous summary");
  auto r = spawn_cli({"summarize", d.trace, "-q", "-o", "/dev/full"}, {.timeout_s = 30});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find("/dev/full: cannot write: No space left on device") != std::string::npos, r.err);
  r = spawn_cli({"summarize", d.trace, "-q", "-o", d / "s.tdsum.json"},
                {.prelude = "trap '' XFSZ; ulimit -f 1", .timeout_s = 30});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(read_file(d / "s.tdsum.json") == "previous summary");
  BOOST_TEST(d.temporaries() == 0);
  r = spawn_cli({"summarize", d.trace, "-q", "-o", d / "s.tdsum.json"}, {.timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  // To /dev/stdout, a regular file here: appended to, not replaced.
  write_file(d / "log", "first line\n");
  r = spawn_cli({"merge", d / "s.tdsum.json", "-o", "/dev/stdout"},
                {.stdout_path = d / "log", .stdout_append = true, .timeout_s = 30});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.rfind("first line\n{", 0) == 0, r.out);
  BOOST_TEST(r.out.find("tracediff-summary") != std::string::npos);
  BOOST_TEST(d.temporaries() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
