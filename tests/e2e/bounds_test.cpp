// Every resource bounded whatever a trace or an option says (issue 31, items 4 and 9):
// demangling, step-marker matching across names, memory exhausted on a reading thread,
// option ranges at the edge of int64. Each case runs the real binary under a time limit,
// so that what used to hang fails instead of blocking ctest.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "support/spawn.hpp"
#include "support/test_support.hpp"

using namespace tracediff::test;

namespace tracediff::test {
std::string doubling_mangled_name(int levels);  // tests/unit/util/demangle_test.cpp
}

namespace {

// A launcher and its kernel, `name`, in one step.
std::string one_kernel(const std::string& name) {
  return trace_json({x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100),
                     x_event("cpu_op", "aten::mm", 1, 1, 10, 20),
                     x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, 12, 5, 7),
                     x_event("kernel", name, 0, 7, 30, 40, 7)});
}

}  // namespace

// A limit of address space around a run, except under a sanitizer, whose shadow memory
// needs more address space than any such limit leaves (the timeout still bounds it).
std::string address_limit(const char* kb) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  (void)kb;
  return {};
#else
  return std::string("ulimit -v ") + kb;
#endif
}

BOOST_AUTO_TEST_SUITE(bounds)

BOOST_AUTO_TEST_CASE(hostile_mangled_kernel_names_are_not_demangled) {
  // 451 bytes whose demangled text doubles per level of substitutions: 2^40 characters.
  // Each side has a kernel of its own, so name matching would demangle both, and every
  // human view simplifies (demangles) the names it shows.
  const auto dir = temp_dir("bounds-demangle");
  const auto hostile = doubling_mangled_name(40);
  write_file(dir + "/control.json", one_kernel("_ZN5aiter4fmoeEPfi"));
  write_file(dir + "/test.json", one_kernel(hostile));
  const auto r = spawn_cli({dir + "/control.json", dir + "/test.json", "--json", dir + "/out.json", "--markdown",
                            dir + "/out.md", "-o", dir + "/out.html"},
                           {.dir = dir, .prelude = address_limit("4000000"), .timeout_s = 30});
  BOOST_TEST_REQUIRE(!r.timed_out, "still demangling after 30 s");  // a hang: 2^40 characters never end
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST_MESSAGE("hostile mangled names: " << r.seconds << " s");  // printed, not checked
  // Not demangled, so not matched: the hostile kernel is new, the other gone.
  const auto j = parse_json(read_file(dir + "/out.json")).as_object();
  bool seen = false;
  for (const auto& row : j.at("rows").as_array())
    if (row.at("name").as_string() == hostile) seen = true;
  BOOST_TEST(seen);
}

BOOST_AUTO_TEST_CASE(step_marker_matching_has_a_budget_per_file) {
  // 12 a's then a distinct tail: `(a|a)*c` stays just under Boost.Regex's bound on every
  // name (about 1-3 ms each), so the give-up counter never fires; 20,000 names a side
  // took about a minute. Each file's matching stops after 1 s of CPU and says so.
  const auto dir = temp_dir("bounds-marker");
  std::vector<std::string> events;
  for (int i = 0; i < 20000; ++i) {
    std::string tail;
    for (int v = i; v; v /= 20) tail += static_cast<char>('d' + v % 20);  // no 'a', 'b' or 'c'
    events.push_back(x_event("user_annotation", std::string(12, 'a') + "b" + tail, 1, 1, 10 * i, 5));
  }
  events.push_back(x_event("cpu_op", "aten::mm", 1, 1, 200001, 2));
  write_file(dir + "/t.json", trace_json(events));
  // Unbounded it ends too (24 s of CPU here), so no time limit is needed: CPU time, as
  // ctest runs suites side by side on a loaded machine.
  const auto r = run_measured({dir + "/t.json", dir + "/t.json", "--step-marker", "(a|a)*c", "--json",
                               dir + "/out.json", "-j", "1"},
                              dir);
  BOOST_TEST(r.exit_code == 0, r.err);
#if defined(__SANITIZE_ADDRESS__)
  constexpr double bound_s = 20.0;
#else
  constexpr double bound_s = 6.0;  // 1 s a file, and the rest of the run
#endif
  BOOST_TEST(r.cpu_seconds < bound_s);
  BOOST_TEST(r.err.find("matching time (1 s of CPU) was spent") != std::string::npos, r.err);
  const auto j = parse_json(read_file(dir + "/out.json")).as_object();
  BOOST_TEST(j.at("diagnostics").at("counts").as_object().contains("step_marker_gave_up"));
}

BOOST_AUTO_TEST_CASE(out_of_memory_on_a_reading_thread_is_an_error_not_an_abort) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  BOOST_TEST_MESSAGE("skipped: the sanitizer's shadow memory needs more address space than the limit");
#else
  // Four files of 20 MB read on four threads, under limits of address space where the
  // reading runs out: every run ends with exit 0 or with the error and exit 1, never in
  // std::terminate (SIGABRT, 134).
  const auto dir = tracegen("bounds-oom", {"--ranks", "4", "--target-mb", "20"});
  int errors = 0;
  for (const char* limit_kb : {"60000", "80000", "100000", "120000"}) {
    const auto r = spawn_cli({dir, dir, "-j", "4", "--json", dir + "/out.json", "-q"},
                             {.prelude = std::string("ulimit -v ") + limit_kb, .timeout_s = 60});
    BOOST_TEST(r.signal == 0, limit_kb << " KiB: killed by signal " << r.signal << ": " << r.err);
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), limit_kb << " KiB: exit " << r.exit_code);
    if (r.exit_code == 1) {
      ++errors;
      BOOST_TEST(r.err.find("tracediff: error: out of memory") != std::string::npos, limit_kb << " KiB: " << r.err);
    }
  }
  BOOST_TEST(errors > 0, "no limit made the run run out of memory");
#endif
}

BOOST_AUTO_TEST_CASE(a_forged_gzip_size_is_a_hint_not_an_allocation) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  BOOST_TEST_MESSAGE("skipped: the sanitizer's shadow memory needs more address space than the limit");
#else
  // A small gzip whose trailer claims 4 GB (ISIZE, the size mod 2^32): the reader
  // reserved room for 8 million events from it, 400 MB of address space.
  const auto dir = temp_dir("bounds-isize");
  auto gz = gzip_bytes(one_kernel("k"));
  for (int i = 1; i <= 4; ++i) gz[gz.size() - i] = static_cast<char>(0xff);
  write_file(dir + "/control.json.gz", gz);
  write_file(dir + "/test.json", one_kernel("k"));
  for (const char* j : {"1", "2"}) {
    const auto r = spawn_cli({dir + "/control.json.gz", dir + "/test.json", "-j", j, "--json", dir + "/out.json", "-q"},
                             {.dir = dir, .prelude = "ulimit -v 250000", .timeout_s = 30});
    BOOST_TEST(r.exit_code == 0, "-j " << j << ": " << r.err);
  }
#endif
}

BOOST_AUTO_TEST_CASE(step_ranges_at_the_end_of_int64_are_counted_not_looped) {
  // `i <= b` never fails when b is INT64_MAX: the range looped on, past 7 GB.
  const auto dir = temp_dir("bounds-range");
  write_file(dir + "/t.json", one_kernel("k"));
  for (const std::string range : {"9223372036854775806-9223372036854775807", "9223372036854775807-9223372036854775807",
                                  "9223372036854775807", "0,9223372036854775800-9223372036854775807"}) {
    const auto r = spawn_cli({dir + "/t.json", dir + "/t.json", "--control-iteration", range, "--json",
                              dir + "/out.json", "-q"},
                             {.dir = dir, .prelude = address_limit("2000000"), .timeout_s = 20});
    BOOST_TEST_REQUIRE(!r.timed_out, range << ": still expanding after 20 s");
    BOOST_TEST(r.signal == 0, range << ": signal " << r.signal);
    BOOST_TEST(r.err.find("internal") == std::string::npos, range << ": " << r.err);
    BOOST_TEST(r.err.find("out of memory") == std::string::npos, range << ": " << r.err);
  }
  // Past the bound on selected steps: refused before anything is expanded.
  const auto r = spawn_cli({dir + "/t.json", dir + "/t.json", "--test-iteration", "0-9223372036854775807"},
                           {.dir = dir, .timeout_s = 20});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("selects more than 1,000,000 steps") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(choices_are_listed_plainly_in_help) {
  // CLI11's transformers once printed --launcher's values as
  // "{innermost-> ,module->,outermost->} OR { ,,}".
  for (const auto& args :
       {std::vector<std::string>{"--help"}, {"summarize", "--help"}, {"merge", "--help"}}) {
    const auto r = run_cli(args);
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("->") == std::string::npos, args.front());
    BOOST_TEST(r.out.find(" OR ") == std::string::npos, args.front());
  }
  const auto r = run_cli({"--help"});
  BOOST_TEST(r.out.find("--launcher LEVEL:{innermost,module,outermost}") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_SUITE_END()
