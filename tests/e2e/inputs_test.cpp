// Every input read once, and only what can be read to an end (issue 31 items 2, 5, 7 and
// the reading half of 4): the same file or summary twice on a side counts once; two
// spans with one step number are not one step; procfs, sysfs and tracefs files, symlink
// loops and entries that cannot be stat'ed cost that entry (or, named directly, end the
// run with a message naming them); a top-level key given twice is read as JSON does
// (the last counts); a forged gzip ISIZE reserves nothing; a summary with trailing data
// says so. Each case runs the real binary.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "support/spawn.hpp"
#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

std::uint64_t count(const json::object& j, const char* id) {
  const auto& c = j.at("diagnostics").at("counts").as_object();
  return c.contains(id) ? c.at(id).to_number<std::uint64_t>() : 0;
}

std::int64_t units(const json::object& j, const char* side) {
  return j.at("steps").at(side).at("units").to_number<std::int64_t>();
}

// The stderr line that warns about `file` and says `needle`.
bool warned(const std::string& err, const std::string& file, const std::string& needle) {
  std::size_t start = 0;
  while (start < err.size()) {
    auto end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    const std::string line = err.substr(start, end - start);
    start = end + 1;
    if (line.rfind("tracediff: warning: ", 0) == 0 && line.find(file) != std::string::npos &&
        line.find(needle) != std::string::npos)
      return true;
  }
  return false;
}

const json::object* row(const json::object& j, const std::string& name) {
  for (const auto& r : j.at("rows").as_array())
    if (r.at("name").as_string() == name) return &r.as_object();
  return nullptr;
}

std::string op(const std::string& name, long ts, long dur, int pid = 1, const std::string& cat = "cpu_op") {
  return x_event(cat, name, pid, pid, ts, dur);
}

// A small valid trace: three steps of one aten::mm each.
std::string three_steps() {
  std::vector<std::string> ev;
  for (int s = 0; s < 3; ++s) {
    ev.push_back(op("ProfilerStep#" + std::to_string(s + 1), 1000 + s * 100, 100, 1, "user_annotation"));
    ev.push_back(op("aten::mm", 1010 + s * 100, 20));
  }
  return trace_json(ev);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(inputs)

// ---------------------------------------------------------------- read once

BOOST_AUTO_TEST_CASE(the_same_folder_twice_counts_once) {
  // 3 steps a side; the same folders again through --add-control/--add-test made 6 and
  // 6, enough for the rank test: a "not testable" gate became a failing one (exit 3).
  const auto c = tracegen("in-dup-c", {"--ranks", "1", "--steps", "3", "--layers", "1"});
  const auto t = tracegen("in-dup-t", {"--ranks", "1", "--steps", "3", "--layers", "1", "--slowdown", "aten::mm=3"});
  const auto r = run_cli({c, t, "--add-control", c, "--add-test", t, "--json", "-", "--fail-on", "step_time>+1%"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(units(j, "control") == 3);
  BOOST_TEST(units(j, "test") == 3);
  BOOST_TEST(count(j, "input_duplicate") == 2u);
  // Each warning names both paths: the one dropped and the one kept.
  const auto file = fs::directory_iterator(c)->path().filename().string();
  BOOST_TEST(warned(r.err, c + "/" + file, "the same file as " + c + "/" + file), r.err);
  BOOST_TEST(warned(r.err, t + "/" + file, "the same file as " + t + "/" + file), r.err);
}

BOOST_AUTO_TEST_CASE(links_to_a_file_beside_it_count_once) {
  const auto dir = temp_dir("in-links");
  write_file(dir + "/rank0.json", three_steps());
  fs::create_symlink("rank0.json", dir + "/soft.json");
  fs::create_hard_link(dir + "/rank0.json", dir + "/hard.json");
  const auto r = run_cli({dir + "/rank0.json", dir, "--json", "-"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(units(j, "test") == 3);
  BOOST_TEST(count(j, "input_duplicate") == 2u);
  BOOST_TEST(count(j, "rank_duplicate") == 0u);
  BOOST_TEST(j.at("test").at("files").as_array().size() == 1u);
  BOOST_TEST(warned(r.err, dir + "/soft.json", "the same file as " + dir + "/hard.json"), r.err);
  BOOST_TEST(warned(r.err, dir + "/rank0.json", "the same file as " + dir + "/hard.json"), r.err);
}

BOOST_AUTO_TEST_CASE(the_same_summary_twice_counts_once) {
  const auto dir = temp_dir("in-sum");
  write_file(dir + "/t.json", three_steps());
  auto r = run_cli({"summarize", dir + "/t.json", "-o", dir + "/a.tdsum.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  fs::copy_file(dir + "/a.tdsum.json", dir + "/copy.tdsum.json");
  r = run_cli({dir + "/a.tdsum.json", dir + "/t.json", "--add-control", dir + "/a.tdsum.json", "--add-control",
               dir + "/copy.tdsum.json", "--json", "-"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(units(j, "control") == 3);
  BOOST_TEST(count(j, "input_duplicate") == 2u);
  BOOST_TEST(warned(r.err, dir + "/copy.tdsum.json", "the same summary as " + dir + "/a.tdsum.json"), r.err);
}

// ---------------------------------------------------------------- one step number twice

BOOST_AUTO_TEST_CASE(a_step_number_twice_is_not_one_step_with_both_spans_work) {
  // ProfilerStep#1 twice in one process, one after the other, then #2: each span holds
  // one aten::mm. Step 1 is one span; it must not hold the other span's call too.
  const std::vector<std::string> ev = {
      op("ProfilerStep#1", 1000, 100, 1, "user_annotation"), op("aten::mm", 1010, 20),
      op("ProfilerStep#1", 1100, 100, 1, "user_annotation"), op("aten::mm", 1110, 20),
      op("ProfilerStep#2", 1200, 100, 1, "user_annotation"), op("aten::mm", 1210, 20),
  };
  const auto dir = temp_dir("in-steps");
  write_file(dir + "/t.json", trace_json(ev));
  const auto r = run_cli({dir + "/t.json", dir + "/t.json", "--json", "-"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  const auto* mm = row(j, "aten::mm");
  BOOST_TEST_REQUIRE(mm);
  const auto steps = units(j, "control");
  BOOST_TEST(mm->at("control_count").to_number<double>() / static_cast<double>(steps) == 1.0);
  BOOST_TEST(mm->at("control_count_per_step").to_number<double>() == 1.0);
  BOOST_TEST(count(j, "step_number_repeated") == 2u);  // once a side
  BOOST_TEST(warned(r.err, dir + "/t.json", "repeat a step number"), r.err);
}

// ---------------------------------------------------------------- only what ends

BOOST_AUTO_TEST_CASE(pseudo_file_system_files_are_refused) {
  const auto dir = temp_dir("in-proc");
  write_file(dir + "/good.json", three_steps());
  fs::create_symlink("/proc/self/status", dir + "/status.json");
  const bool sysfs = fs::exists("/sys/kernel/mm/transparent_hugepage/enabled");
  if (sysfs) fs::create_symlink("/sys/kernel/mm/transparent_hugepage/enabled", dir + "/thp.json");
  // In a folder: skipped with a warning that says why.
  auto r = spawn_cli({dir + "/good.json", dir, "--json", "-"}, {.timeout_s = 30});
  BOOST_TEST_REQUIRE(!r.timed_out);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(count(j, "file_skipped_unreadable") == (sysfs ? 2u : 1u));
  BOOST_TEST(warned(r.err, dir + "/status.json", "not a regular file (on procfs"), r.err);
  if (sysfs) BOOST_TEST(warned(r.err, dir + "/thp.json", "not a regular file (on sysfs"), r.err);
  // Named directly: an error naming it, exit 1, nothing written (as a FIFO's).
  std::vector<std::string> named = {"/proc/self/status", dir + "/status.json"};
  // tracefs's trace_pipe is a regular file of size 0 whose read blocks forever.
  for (const char* pipe : {"/sys/kernel/tracing/trace_pipe", "/sys/kernel/debug/tracing/trace_pipe"})
    if (fs::exists(pipe)) named.push_back(pipe);
  for (const auto& path : named) {
    r = spawn_cli({dir + "/good.json", path, "--json", dir + "/out.json"}, {.timeout_s = 30});
    BOOST_TEST_REQUIRE(!r.timed_out, path);
    BOOST_TEST(r.exit_code == 1, path << ": " << r.err);
    BOOST_TEST(r.err.find("tracediff: error: " + path + ": not a regular file (on ") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(dir + "/out.json"));
  }
  // A summary likewise.
  fs::create_symlink("/proc/self/status", dir + "/status.tdsum.json");
  r = spawn_cli({dir + "/status.tdsum.json", dir + "/good.json"}, {.timeout_s = 30});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find(dir + "/status.tdsum.json: not a regular file (on procfs") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(a_symlink_loop_or_an_entry_that_fails_stat_costs_that_entry) {
  const auto dir = temp_dir("in-loop");
  write_file(dir + "/good.json", three_steps());
  fs::create_symlink("loop.json", dir + "/loop.json");                                  // ELOOP
  fs::create_symlink("nowhere.json", dir + "/dangling.json");                           // ENOENT
  fs::create_symlink("/" + std::string(300, 'x') + ".json", dir + "/long.json");         // ENAMETOOLONG
  fs::create_symlink(dir + "/good.json/x.json", dir + "/notdir.json");                  // ENOTDIR
  // The folder twice: each entry once, also those that cannot be stat'ed (by name).
  const auto r = spawn_cli({dir + "/good.json", dir, "--add-test", dir, "--json", "-"}, {.timeout_s = 30});
  BOOST_TEST_REQUIRE(!r.timed_out);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(count(j, "file_skipped_unreadable") == 4u);
  BOOST_TEST(count(j, "input_duplicate") == 5u);
  BOOST_TEST(warned(r.err, dir + "/loop.json", "cannot read: Too many levels of symbolic links"), r.err);
  BOOST_TEST(warned(r.err, dir + "/dangling.json", "cannot read: No such file"), r.err);
  BOOST_TEST(warned(r.err, dir + "/long.json", "cannot read: File name too long"), r.err);
  BOOST_TEST(warned(r.err, dir + "/notdir.json", "cannot read: Not a directory"), r.err);
  BOOST_TEST(units(j, "test") == 3);
  // Named directly, a loop is an error that says what it is.
  const auto named = spawn_cli({dir + "/good.json", dir + "/loop.json"}, {.timeout_s = 30});
  BOOST_TEST(named.exit_code == 1, named.err);
  BOOST_TEST(named.err.find("tracediff: error: " + dir + "/loop.json: Too many levels of symbolic links") !=
                 std::string::npos,
             named.err);
}

// ---------------------------------------------------------------- JSON as JSON does it

BOOST_AUTO_TEST_CASE(a_top_level_key_twice_the_last_counts_in_both_readers) {
  // Python's json.load (and so HTA) keeps the last of a key given twice.
  const auto events = [](const std::string& name, int n, const std::string& dur = "5") {
    std::string s;
    for (int i = 0; i < n; ++i)
      s += std::string(i ? ",\n  " : "\n  ") + R"({"ph": "X", "cat": "cpu_op", "name": ")" + name +
           R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(100 + 10 * i) + R"(, "dur": )" + (i ? "5" : dur) + "}";
    return s;
  };
  // The second array's first dur: a number for the fast reader, NaN for the tolerant
  // reader (the fast path gives such a file up).
  for (const std::string dur : {"5", "NaN"}) {
    const std::string doc = "{\n \"distributedInfo\": {\"rank\": 3, \"world_size\": 8},\n"
                            " \"deviceProperties\": [{\"name\": \"A100\"}, {\"name\": \"A100\"}],\n"
                            " \"traceEvents\": [" + events("aten::mm", 3) + "\n ],\n"
                            " \"distributedInfo\": {\"rank\": 5, \"world_size\": 8},\n"
                            " \"deviceProperties\": [{\"name\": \"H100\"}],\n"
                            " \"traceEvents\": [" + events("aten::add", 2, dur) + "\n ]\n}\n";
    const auto dir = temp_dir("in-keys");
    write_file(dir + "/t.json", doc);
    const auto r = run_cli({dir + "/t.json", dir + "/t.json", "--json", "-"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto j = parse_json(r.out).as_object();
    BOOST_TEST(!row(j, "aten::mm"), dur);
    BOOST_TEST_REQUIRE(row(j, "aten::add"), dur);
    BOOST_TEST(row(j, "aten::add")->at("control_count").to_number<int>() == (dur == "5" ? 2 : 1), dur);
    const auto& file = j.at("control").at("files").at(0);
    BOOST_TEST(file.at("rank").to_number<int>() == 5, dur);
    BOOST_TEST(j.at("control").at("gpu_names").as_array().size() == 1u, dur);
    BOOST_TEST(j.at("control").at("gpu_names").at(0).as_string() == "H100", dur);
    BOOST_TEST(count(j, "file_duplicate_key") == 6u, dur);  // three keys, two sides
    const auto at = std::to_string(doc.rfind("\"traceEvents\""));
    BOOST_TEST(warned(r.err, dir + "/t.json", "byte " + at + ": traceEvents appears again: the last one counts"),
               r.err);
    BOOST_TEST(warned(r.err, dir + "/t.json", "distributedInfo appears again"), r.err);
    BOOST_TEST(warned(r.err, dir + "/t.json", "deviceProperties appears again"), r.err);
  }
}

// ---------------------------------------------------------------- bounded

BOOST_AUTO_TEST_CASE(a_forged_gzip_isize_reserves_nothing) {
#if defined(__SANITIZE_ADDRESS__)
  BOOST_TEST_MESSAGE("skipped under AddressSanitizer: its shadow memory takes the address space");
#else
  // A few KB of gzip whose ISIZE says 4 GiB: the events' reservation followed it
  // (400 MB of address space). Under a 256 MiB address-space limit it must still read.
  const auto dir = temp_dir("in-isize");
  std::string gz = gzip_bytes(three_steps());
  BOOST_TEST_REQUIRE(gz.size() < 4096u);
  gz.replace(gz.size() - 4, 4, std::string("\xf0\xff\xff\xff", 4));
  write_file(dir + "/forged.json.gz", gz);
  write_file(dir + "/good.json", three_steps());
  for (const char* file : {"good.json", "forged.json.gz"}) {
    const auto r = spawn_cli({dir + "/good.json", dir + "/" + file, "-j", "1", "--json", dir + "/out.json"},
                             {.prelude = "ulimit -v 262144", .timeout_s = 60});
    BOOST_TEST(r.exit_code == 0, file << ": " << r.err);
    BOOST_TEST(r.err.find("out of memory") == std::string::npos, r.err);
  }
#endif
}

// ---------------------------------------------------------------- summaries

BOOST_AUTO_TEST_CASE(a_summary_with_trailing_data_says_so) {
  const auto dir = temp_dir("in-trail");
  write_file(dir + "/t.json", three_steps());
  auto r = run_cli({"summarize", dir + "/t.json", "-o", dir + "/a.tdsum.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto bytes = read_file(dir + "/a.tdsum.json");
  write_file(dir + "/b.tdsum.json", bytes + "  {\"x\": 1}\n");
  r = run_cli({dir + "/b.tdsum.json", dir + "/t.json"});
  BOOST_TEST(r.exit_code == 1, r.err);
  const auto at = bytes.size() + 2;
  BOOST_TEST(r.err.find(dir + "/b.tdsum.json: not a valid tracediff summary: trailing data at byte " +
                        std::to_string(at) + " after the document") !=
                 std::string::npos,
             r.err);
  BOOST_TEST(r.err.find("incomplete") == std::string::npos, r.err);
  // Whitespace after the document is no trailing data.
  write_file(dir + "/c.tdsum.json", bytes + "\n\n  \t\n");
  r = run_cli({dir + "/c.tdsum.json", dir + "/t.json", "-q", "--json", "/dev/null"});
  BOOST_TEST(r.exit_code == 0, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
