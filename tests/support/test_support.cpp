#include "support/test_support.hpp"

#include "model/summary.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace tracediff::test {

namespace fs = std::filesystem;

namespace {
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}
}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string gzip_bytes(const std::string& bytes) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string temp_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  const auto dir = fs::temp_directory_path() /
                   ("tracediff-test-" + std::to_string(::getpid()) + "-" + tag + "-" +
                    std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

CliResult run_cli(const std::vector<std::string>& args) {
  const std::string dir = temp_dir("cli");
  std::string cmd = quote(TRACEDIFF_BINARY);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " </dev/null >" + quote(dir + "/out") + " 2>" + quote(dir + "/err");
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(dir + "/out");
  r.err = read_file(dir + "/err");
  fs::remove_all(dir);
  return r;
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(field), field.clear(), any = true;
    } else if (c == '\r') {
    } else if (c == '\n') {
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear(), any = false;
    } else {
      field += c, any = true;
    }
  }
  if (any || !field.empty()) row.push_back(field), rows.push_back(row);
  return rows;
}

std::string x_event(const std::string& cat, const std::string& name, int pid, int tid, long ts, long dur,
                    long corr) {
  std::string s = "{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name + "\",\"pid\":" + std::to_string(pid) +
                  ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + std::to_string(ts) + ",\"dur\":" +
                  std::to_string(dur);
  if (corr >= 0) s += ",\"args\":{\"correlation\":" + std::to_string(corr) + "}";
  return s + "}";
}

std::string trace_json(const std::vector<std::string>& events) {
  std::string s = "{\"traceEvents\":[";
  for (std::size_t i = 0; i < events.size(); ++i) s += (i ? "," : "") + events[i];
  return s + "]}";
}

std::string tracegen(const std::string& tag, const std::vector<std::string>& args) {
  const auto dir = temp_dir(tag);
  std::string cmd = std::string("'") + TRACEGEN_BINARY + "' --out '" + dir + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  if (std::system((cmd + " >/dev/null 2>&1").c_str()) != 0) throw std::runtime_error("tracegen failed: " + cmd);
  return dir;
}

std::string data_dir() { return std::string(TRACEDIFF_TESTS_DIR) + "/data"; }

std::string shared_dir() {
  const char* env = std::getenv("TRACEDIFF_SHARED_DIR");
  return env && *env ? env : TRACEDIFF_SHARED_DIR;
}
bool shared_available() { return fs::is_directory(shared_dir() + "/traces"); }

std::string trace_path(const std::string& rel) {
  for (const auto& root : {data_dir(), shared_dir()}) {
    const auto p = root + "/traces/" + rel;
    if (fs::exists(p)) return p;
  }
  return {};
}

std::vector<std::string> large_traces() {
  return {"hta-trace-diff/control/control.json.gz", "hta-trace-diff/test/test.json.gz", "formats/mtia-large.json.gz",
          "formats/large-216k-events.json.gz"};
}

namespace {
// Trace files under root/traces by their relative path, sorted (directory order is not).
std::vector<std::string> traces_under(const std::string& root) {
  std::vector<std::string> rels;
  if (!fs::is_directory(root + "/traces")) return rels;
  for (const auto& e : fs::recursive_directory_iterator(root + "/traces"))
    if (e.is_regular_file() && e.path().extension() != ".md")
      rels.push_back(fs::relative(e.path(), root + "/traces").string());
  std::sort(rels.begin(), rels.end());
  return rels;
}
}  // namespace

std::vector<std::string> data_trace_files() {
  std::vector<std::string> files;
  for (const auto& rel : traces_under(data_dir())) files.push_back(data_dir() + "/traces/" + rel);
  return files;
}

std::vector<std::string> large_trace_files() {
  const auto ours = traces_under(data_dir());
  std::vector<std::string> files;
  for (const auto& rel : traces_under(shared_dir()))
    if (!std::binary_search(ours.begin(), ours.end(), rel)) files.push_back(shared_dir() + "/traces/" + rel);
  return files;
}

std::vector<std::string> all_trace_files() {
  auto files = data_trace_files();
  const auto large = large_trace_files();
  files.insert(files.end(), large.begin(), large.end());
  return files;
}

boost::test_tools::assertion_result needs_traces::operator()(boost::unit_test::test_unit_id id) const {
  for (const auto& rel : rels)
    if (trace_path(rel).empty()) {
      const std::string why = "needs traces/" + rel + ", in neither tests/data nor " + shared_dir() + "/traces";
      // Said at the default log level too, so that ctest's log names every skip.
      BOOST_TEST_MESSAGE("skipped " << boost::unit_test::framework::get(id, boost::unit_test::TUT_ANY).full_name()
                                    << ": " << why);
      boost::test_tools::assertion_result r(false);
      r.message() << why;
      return r;
    }
  return true;
}

Measured run_measured(const std::vector<std::string>& args, const std::string& dir) {
  std::vector<std::string> argv_s = {TRACEDIFF_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string out = dir + "/measured.out", err = dir + "/measured.err";
  const auto t0 = std::chrono::steady_clock::now();
  Measured m;
  // fork, not posix_spawn: a child sharing this process's memory until exec (vfork)
  // inherits its peak RSS, which the big inputs built here would dominate.
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || o < 0 || e < 0 || ::dup2(in, 0) < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0) ::_exit(126);
    ::execve(argv[0], argv.data(), environ);
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  if (::wait4(pid, &status, 0, &ru) != pid) throw std::runtime_error("wait4 failed");
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.max_rss_kb = ru.ru_maxrss;
  m.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                  static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  m.err = read_file(err);
  return m;
}

boost::json::value parse_json(std::string_view text, boost::system::error_code& ec) {
  boost::json::parse_options deep;
  deep.max_depth = 2 * model::k_tree_depth + 16;
  return boost::json::parse(text, ec, {}, deep);
}

boost::json::value parse_json(std::string_view text) {
  boost::system::error_code ec;
  auto v = parse_json(text, ec);
  if (ec) throw boost::system::system_error(ec);
  return v;
}

}  // namespace tracediff::test

namespace tracediff::test {

boost::json::object report_json(std::vector<std::string> args) {
  args.insert(args.end(), {"--json", "-", "-q"});
  const auto r = run_cli(args);
  if (r.exit_code != 0) throw std::runtime_error("tracediff exited " + std::to_string(r.exit_code) + ": " + r.err);
  return parse_json(r.out).as_object();
}

boost::json::object report_json(const std::string& control, const std::string& test, std::vector<std::string> extra) {
  extra.insert(extra.begin(), {control, test});
  return report_json(std::move(extra));
}

}  // namespace tracediff::test
