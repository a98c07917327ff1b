// Every event accounted for (docs/reading-the-report.md "Every event accounted for"), on every
// real trace the suite can find and on tracegen's shapes of real traces: per file and stream,
// rows + left out = read, to the event; the rows' own counts agree with the accounting's;
// and the CPU rows hold at least 90 % of the operator names an independent reading of the
// trace finds in its steps, or a warning names the file.
#include <zlib.h>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/spawn.hpp"
#include "support/test_support.hpp"

namespace json = boost::json;
using namespace tracediff::test;

namespace {

std::string inflate_file(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");  // reads plain files as they are
  BOOST_REQUIRE(in);
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(in, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(in);
  return out;
}

double number(const json::value& v) { return v.is_double() ? v.get_double() : static_cast<double>(v.to_number<std::int64_t>()); }

// The trace read on its own: the distinct cpu_op names that start inside a ProfilerStep#N
// span of their process (any process's spans where it has none), or anywhere without steps.
std::set<std::string> operators_in_steps(const std::string& path) {
  json::error_code ec;
  const auto doc = json::parse(inflate_file(path), ec);
  std::set<std::string> names;
  if (ec || !doc.is_object()) return names;
  const auto* events = doc.as_object().if_contains("traceEvents");
  if (!events || !events->is_array()) return names;
  std::map<std::string, std::vector<std::pair<double, double>>> steps;  // pid -> windows
  std::vector<std::pair<double, double>> all_steps;
  const auto text = [](const json::value& v) {
    return v.is_string() ? std::string(v.get_string()) : v.is_number() ? json::serialize(v) : std::string();
  };
  for (const auto& e : events->as_array()) {
    if (!e.is_object()) continue;
    const auto& o = e.as_object();
    const auto* name = o.if_contains("name");
    const auto* cat = o.if_contains("cat");
    if (!name || !name->is_string() || !cat || !cat->is_string() || !o.contains("dur") || !o.contains("ts")) continue;
    const std::string n(name->get_string());
    if (n.rfind("ProfilerStep#", 0) == 0 && (cat->get_string() == "user_annotation" || cat->get_string() == "cpu_op")) {
      const double ts = number(o.at("ts")), dur = number(o.at("dur"));
      steps[text(o.at("pid"))].push_back({ts, ts + dur});
      all_steps.push_back({ts, ts + dur});
    }
  }
  for (const auto& e : events->as_array()) {
    if (!e.is_object()) continue;
    const auto& o = e.as_object();
    const auto* cat = o.if_contains("cat");
    const auto* name = o.if_contains("name");
    if (!cat || !cat->is_string() || cat->get_string() != "cpu_op" || !name || !name->is_string() || !o.contains("ts"))
      continue;
    const std::string n(name->get_string());
    if (n.rfind("ProfilerStep#", 0) == 0) continue;
    const double ts = number(o.at("ts"));
    const auto it = steps.find(text(o.at("pid")));
    const auto& windows = it != steps.end() ? it->second : all_steps;
    bool in = all_steps.empty();
    for (const auto& [b, end] : windows) in = in || (ts >= b && ts < end);
    if (in) names.insert(n);
  }
  return names;
}

struct Checked {
  std::size_t files = 0;
  std::set<std::string> warned;  // files an events_left_out warning names
};

// One report's invariants; returns the files that a warning names.
Checked check_report(const json::object& j, const std::string& what) {
  Checked out;
  for (const auto& d : j.at("diagnostics").at("samples").as_array())
    if (d.at("kind").as_string() == "events_left_out") out.warned.insert(std::string(d.at("file").as_string()));
  for (const char* side : {"control", "test"}) {
    const auto& s = j.at(side).as_object();
    BOOST_REQUIRE_MESSAGE(s.contains("accounting"), what << ": " << side << " has no accounting");
    std::map<std::string, std::uint64_t> side_rows;  // per stream, from the files
    for (const auto& fv : s.at("files").as_array()) {
      const auto& f = fv.as_object();
      const auto& a = f.at("accounting").as_object();
      ++out.files;
      std::uint64_t host_gpu = 0;
      for (const char* stream : {"host", "gpu", "memory"}) {
        const auto& t = a.at(stream).as_object();
        const auto read = t.at("read").at("events").to_number<std::uint64_t>();
        std::uint64_t parts = t.at("rows").at("events").to_number<std::uint64_t>();
        for (const auto& [reason, tally] : t.at("left_out").as_object()) parts += tally.at("events").to_number<std::uint64_t>();
        BOOST_TEST(parts == read, what << " " << f.at("path").as_string() << " " << stream << ": rows + left out "
                                        << parts << ", read " << read);
        if (std::string(stream) != "memory") host_gpu += read;
        // The rows hold at least 80 % of the time in the compared steps, or a warning says why not.
        if (std::string(stream) == "host") {
          const auto us = [&](const char* reason) {
            const auto* r = t.at("left_out").as_object().if_contains(reason);
            return r ? number(r->at("us")) : 0.0;
          };
          const double in_steps = number(t.at("read").at("us")) - us("outside_steps") - us("step_span") - us("warmup") -
                                  us("not_selected") - us("device_span");
          const double rows_us = number(t.at("rows").at("us"));
          BOOST_TEST((in_steps <= 0 || rows_us >= 0.8 * in_steps || out.warned.count(std::string(f.at("path").as_string()))),
                     what << " " << f.at("path").as_string() << ": host rows hold " << rows_us << " of " << in_steps
                          << " µs of self time in the steps, and no warning says why");
        }
        side_rows[stream] += t.at("rows").at("events").to_number<std::uint64_t>();
      }
      BOOST_TEST(host_gpu == f.at("events").to_number<std::uint64_t>(),
                 what << " " << f.at("path").as_string() << ": host + GPU events read " << host_gpu << ", file "
                      << f.at("events"));
    }
    // The rows, made from the cells, against the accounting, made from the events.
    std::map<std::string, std::uint64_t> rows;
    const std::string prefix = side;
    for (const auto& r : j.at("rows").as_array()) {
      const auto& o = r.as_object();
      rows[o.at("device").as_string() == "cpu" ? "host" : "gpu"] += o.at(prefix + "_count").to_number<std::uint64_t>();
    }
    const auto& a = s.at("accounting").as_object();
    for (const char* stream : {"host", "gpu"}) {
      BOOST_TEST(rows[stream] == a.at(stream).at("rows").at("events").to_number<std::uint64_t>(),
                 what << " " << side << " " << stream << ": the rows count " << rows[stream]);
      BOOST_TEST(side_rows[stream] == a.at(stream).at("rows").at("events").to_number<std::uint64_t>());
    }
  }
  return out;
}

// Compares the trace (or folder) with itself, all steps kept, and checks it.
void check_trace(const std::string& path, bool oracle) {
  const auto j = report_json(path, path, {"--keep-warmup"});
  const auto checked = check_report(j, path);
  BOOST_TEST(checked.files > 0u);
  if (!oracle) return;
  // Names of the CPU rows, then the share of the trace's operators in steps they cover.
  std::set<std::string> rows;
  for (const auto& r : j.at("rows").as_array())
    if (r.at("device").as_string() == "cpu") rows.insert(std::string(r.at("name").as_string()));
  for (const auto& fv : j.at("control").at("files").as_array()) {
    const std::string file(fv.at("path").as_string());
    const auto names = operators_in_steps(file);
    if (names.empty()) continue;
    std::size_t covered = 0;
    std::vector<std::string> missing;
    for (const auto& n : names) {
      if (rows.count(n)) ++covered;
      else missing.push_back(n);
    }
    const double share = static_cast<double>(covered) / static_cast<double>(names.size());
    BOOST_TEST_MESSAGE(file << ": CPU rows hold " << covered << " of " << names.size() << " operator names in steps");
    BOOST_TEST((share >= 0.9 || checked.warned.count(file)),
               file << ": the CPU rows hold " << covered << " of " << names.size()
                    << " operator names in the steps, and no warning says why; first missing: "
                    << (missing.empty() ? "" : missing.front()));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(accounting)

BOOST_AUTO_TEST_CASE(every_real_trace_adds_up_and_keeps_its_operators) {
  std::size_t n = 0;
  for (const auto& path : all_trace_files()) {
    check_trace(path, true);
    ++n;
  }
  BOOST_TEST(n >= 10u);  // tests/data has 15 traces; ../shared more
}

// The shapes of real traces tracegen reproduces (tools/tracegen --help), one report each.
BOOST_AUTO_TEST_CASE(every_generated_shape_adds_up_and_keeps_its_operators) {
  const std::vector<std::vector<std::string>> shapes = {
      {"--with-stack"},
      {"--with-stack", "--step-inside-profiler", "--harness-frame"},
      {"--step-inside-profiler", "--memory", "--warmup-steps", "1"},
      {"--harness-frame", "--no-profiler-step"},
      {"--with-stack", "--compile", "--inductor-args"},
      {"--cuda-graphs", "--step-inside-profiler"},
      {"--vendor", "amd", "--step-inside-profiler"},
      {"--legacy-steps", "--with-stack"},
      {"--loader-on-main", "2", "--harness-frame"},
      {"--ranks", "2", "--memory", "--step-inside-profiler"},
  };
  for (const auto& shape : shapes) {
    auto args = shape;
    args.insert(args.end(), {"--steps", "6", "--seed", "5"});
    std::string tag;
    for (const auto& a : shape) tag += a;
    const auto dir = tracegen("acct", args);
    BOOST_TEST_CONTEXT(tag) { check_trace(dir, true); }
  }
}

// with_stack's shape at a step's start: the step begins inside torch.profiler's frames and
// the whole run inside the user's harness. Every operator of the program is in the rows;
// the profiler's own (profiler::_record_function_enter_new and what runs in it) is not.
BOOST_AUTO_TEST_CASE(a_step_that_begins_inside_the_profiler_keeps_its_operators) {
  const auto plain = report_json(tracegen("acct-plain", {"--with-stack", "--steps", "6"}),
                                 tracegen("acct-plain2", {"--with-stack", "--steps", "6"}));
  const auto dir = tracegen("acct-inside", {"--with-stack", "--step-inside-profiler", "--harness-frame", "--steps", "6"});
  const auto j = report_json(dir, dir);
  std::map<std::string, std::int64_t> cpu, cpu_plain;
  for (const auto& r : j.at("rows").as_array())
    if (r.at("category").as_string() == "cpu_op") cpu[std::string(r.at("name").as_string())] = r.at("control_count").to_number<std::int64_t>();
  for (const auto& r : plain.at("rows").as_array())
    if (r.at("category").as_string() == "cpu_op")
      cpu_plain[std::string(r.at("name").as_string())] = r.at("control_count").to_number<std::int64_t>();
  BOOST_TEST(cpu.size() >= 15u);
  BOOST_TEST(cpu.count("aten::addmm") == 1u);
  BOOST_TEST(cpu.count("profiler::_record_function_enter_new") == 0u);
  // The same operators, as often, as in the trace without the profiler's frames.
  BOOST_TEST(cpu == cpu_plain);
  const auto& host = j.at("control").at("accounting").at("host").as_object();
  // In the steps, the profiler's is the aten::empty inside its record_function's start (one a
  // step, two ranks); its frames start before the step, outside it.
  BOOST_TEST(host.at("left_out").at("profiler").at("events").to_number<std::int64_t>() == 2 * 6);
  bool warned = false;
  for (const auto& d : j.at("diagnostics").at("samples").as_array()) warned = warned || d.at("kind").as_string() == "events_left_out";
  BOOST_TEST(!warned);
}

// A frame of the profiler's name around a whole step is the program's (a harness in a file
// called profiler.py); an event that only starts inside one of its frames is not its work.
BOOST_AUTO_TEST_CASE(the_profilers_work_is_what_lies_wholly_inside_its_frames) {
  const auto dir = temp_dir("acct-contain");
  const std::string frame = "torch/profiler/profiler.py(790): step";
  write_file(dir + "/t.json",
             trace_json({x_event("python_function", frame, 1, 1, 0, 1000),  // encloses the step: a harness
                         x_event("user_annotation", "ProfilerStep#1", 1, 1, 10, 900),
                         x_event("python_function", frame, 1, 1, 15, 20),  // the profiler's, ends early
                         x_event("cpu_op", "aten::empty", 1, 1, 20, 5),    // wholly inside it
                         x_event("cpu_op", "aten::mm", 1, 1, 30, 100),     // starts inside, outlives it
                         x_event("cpu_op", "aten::relu", 1, 1, 200, 50),
                         // broken nesting: a child that outlives its parent costs nothing
                         x_event("cpu_op", "aten::linear", 1, 1, 300, 100),
                         x_event("cpu_op", "aten::addmm", 1, 1, 350, 200)}));
  const auto j = report_json(dir + "/t.json", dir + "/t.json");
  std::set<std::string> names;
  for (const auto& r : j.at("rows").as_array()) names.insert(std::string(r.at("name").as_string()));
  BOOST_TEST(names.count("aten::mm") == 1u);
  BOOST_TEST(names.count("aten::relu") == 1u);
  BOOST_TEST(names.count("aten::empty") == 0u);
  BOOST_TEST(names.count("aten::linear") == 1u);
  BOOST_TEST(names.count("aten::addmm") == 1u);
  const auto& host = j.at("control").at("accounting").at("host").as_object();
  BOOST_TEST(host.at("left_out").at("profiler").at("events").to_number<std::int64_t>() == 2);
  BOOST_TEST(host.at("left_out").at("outside_steps").at("events").to_number<std::int64_t>() == 1);  // the harness
  BOOST_TEST(host.at("left_out").at("step_span").at("events").to_number<std::int64_t>() == 1);
}

// When the profiler's work takes the steps' operators (the shape this tool once lost every
// CPU row on), a warning names the file; a rank without steps beside ranks with steps is
// refused, never dropped.
BOOST_AUTO_TEST_CASE(a_stepless_rank_beside_stepped_ones_is_refused) {
  const auto dir = temp_dir("acct-stepless");
  write_file(dir + "/rank0.json", trace_json({x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100),
                                              x_event("cpu_op", "aten::mm", 1, 1, 10, 50)}));
  write_file(dir + "/rank1.json", trace_json({x_event("cpu_op", "aten::mm", 2, 2, 10, 50)}));
  const auto r = spawn_cli({dir, dir, "--json", dir + "/out.json", "-q"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("rank1.json") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("--control-step-marker") != std::string::npos, r.err);
  // A run without steps among runs with them: the same, naming the run's file.
  const auto runs = temp_dir("acct-stepless-run");
  for (const char* run : {"/r1", "/r2"}) {
    std::filesystem::create_directories(runs + run);
    write_file(runs + run + "/rank0.json",
               trace_json({x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100), x_event("cpu_op", "aten::mm", 1, 1, 10, 50)}));
  }
  std::filesystem::create_directories(runs + "/r3");
  write_file(runs + "/r3/rank0.json", trace_json({x_event("cpu_op", "aten::mm", 1, 1, 10, 50)}));
  const auto rr = spawn_cli({runs + "/r1", runs + "/r1", "--test-run", runs + "/r2", "--test-run", runs + "/r3", "--json",
                             runs + "/out.json", "-q"});
  BOOST_TEST(rr.exit_code == 1);
  BOOST_TEST(rr.err.find("r3/rank0.json") != std::string::npos, rr.err);
  BOOST_TEST(rr.err.find("--test-step-marker") != std::string::npos, rr.err);
}

BOOST_AUTO_TEST_SUITE_END()
