// --perfetto and --embed-perfetto (docs/perfetto.md): the step file parsed and checked
// against the report and the input traces it came from, and the HTML page with and
// without the embedded step.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

double num(const json::value& v) { return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64()); }

std::string only_file(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) return e.path().string();
  return {};
}

// A pair with a known regression: every sgemm kernel twice as long on the test side.
struct Pair {
  std::string c, t;
};
const Pair& pair() {
  static const Pair p{tracegen("perfetto-c", {"--ranks", "1", "--steps", "8", "--jitter", "1"}),
                      tracegen("perfetto-t", {"--ranks", "1", "--steps", "8", "--jitter", "1", "--seed", "7",
                                              "--slowdown", "sgemm=2"})};
  return p;
}

// The side's median step by step time, as the report's JSON lists its steps.
std::int64_t median_step(const json::object& report, const char* side) {
  std::vector<std::pair<double, std::int64_t>> steps;
  for (const auto& s : report.at("steps").at(side).at("per_step").as_array())
    steps.emplace_back(num(s.at("step_us")), s.at("step").as_int64());
  std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return steps[(steps.size() - 1) / 2].second;
}

// The input's host events (cpu_op, user_annotation) that start in ProfilerStep#N.
std::multiset<std::string> host_events_in_step(const std::string& path, std::int64_t n, double& step_dur) {
  const auto trace = parse_json(read_file(path)).as_object();
  const auto& ev = trace.at("traceEvents").as_array();
  double begin = 0, end = 0;
  for (const auto& e : ev)
    if (e.as_object().contains("name") && e.at("name").as_string() == ("ProfilerStep#" + std::to_string(n)))
      begin = num(e.at("ts")), end = begin + num(e.at("dur"));
  step_dur = end - begin;
  std::multiset<std::string> names;
  for (const auto& e : ev) {
    const auto& o = e.as_object();
    if (!o.contains("cat") || o.at("ph").as_string() != "X") continue;
    const std::string cat(o.at("cat").as_string());
    if (cat != "cpu_op" && cat != "user_annotation") continue;
    const double ts = num(o.at("ts"));
    if (ts >= begin && ts < end) names.insert(std::string(o.at("name").as_string()));
  }
  return names;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(perfetto)

BOOST_AUTO_TEST_CASE(step_file) {
  const auto& p = pair();
  const auto dir = temp_dir("perfetto-out");
  const auto r = run_cli({p.c, p.t, "--perfetto", dir + "/step.json", "--json", dir + "/r.json", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto report = parse_json(read_file(dir + "/r.json")).as_object();
  const auto step_text = read_file(dir + "/step.json");
  const auto trace = parse_json(step_text).as_object();
  const auto& events = trace.at("traceEvents").as_array();

  // One process per side and rank, named so.
  std::map<std::int64_t, std::string> processes;
  for (const auto& e : events)
    if (e.at("ph").as_string() == "M" && e.at("name").as_string() == "process_name")
      processes[e.at("pid").as_int64()] = std::string(e.at("args").at("name").as_string());
  BOOST_TEST_REQUIRE(processes.size() == 2u);
  BOOST_TEST(processes.at(1) == "Control \xC2\xB7 rank 0");
  BOOST_TEST(processes.at(2) == "Test \xC2\xB7 rank 0");

  // The median step of each side, and its host events exactly (names, as in the input).
  const char* sides[] = {"control", "test"};
  const std::string inputs[] = {only_file(p.c), only_file(p.t)};
  const auto& meta = trace.at("metadata").at("sides").as_array();
  for (int s = 0; s < 2; ++s) {
    const auto n = median_step(report, sides[s]);
    BOOST_TEST(meta[s].at("step").as_int64() == n);
    double dur = 0;
    const auto expected = host_events_in_step(inputs[s], n, dur);
    std::multiset<std::string> got;
    for (const auto& e : events) {
      if (e.at("ph").as_string() != "X" || e.at("pid").as_int64() != s + 1) continue;
      const double ts = num(e.at("ts"));
      BOOST_TEST(ts >= 0.0);  // aligned at the step's start; GPU work may outlast it
      const auto cat = e.at("cat").as_string();
      if (cat == "cpu_op" || cat == "user_annotation") {
        BOOST_TEST(ts < dur);
        got.insert(std::string(e.at("name").as_string()));
      }
    }
    BOOST_TEST(!expected.empty());
    BOOST_TEST((got == expected), sides[s] << ": " << got.size() << " host events, the input has " << expected.size());
  }

  // Args carry the row's Δ and verdict, as the report's rows have them.
  std::map<std::string, const json::object*> rows;
  for (const auto& row : report.at("rows").as_array()) rows.emplace(std::string(row.at("name").as_string()), &row.as_object());
  std::size_t with_row = 0;
  for (const auto& e : events) {
    if (e.at("ph").as_string() != "X" || !e.at("args").as_object().contains("tracediff_verdict")) continue;
    ++with_row;
    const auto& a = e.at("args").as_object();
    // The row's name where it differs from the event's.
    const auto it = rows.find(std::string((a.contains("tracediff_row") ? a.at("tracediff_row") : e.at("name")).as_string()));
    BOOST_TEST_REQUIRE((it != rows.end()));
    BOOST_TEST(a.at("tracediff_verdict").as_string() == it->second->at("words").as_string());
    const auto& row = *it->second;  // the one Δ: the per-step medians
    BOOST_TEST(std::abs(num(a.at("tracediff_control_us")) - num(row.at("control_median_per_step_us"))) < 1e-9);
    BOOST_TEST(std::abs(num(a.at("tracediff_test_us")) - num(row.at("test_median_per_step_us"))) < 1e-9);
  }
  BOOST_TEST(with_row > 0u);

  // The top regression is flagged on the test side, in red, and it is an sgemm.
  const auto& top = report.at("top_regressions").as_array();
  BOOST_TEST_REQUIRE(!top.empty());
  const std::string first(top[0].at("name").as_string());
  BOOST_TEST(first.find("sgemm") != std::string::npos, first);
  std::size_t flagged = 0;
  for (const auto& e : events) {
    if (e.at("ph").as_string() != "X" || !e.at("args").as_object().contains("tracediff_flag")) continue;
    if (e.at("name").as_string() == first) {
      BOOST_TEST(e.at("args").at("tracediff_flag").as_string() == "top regression 1");
      BOOST_TEST(e.at("cname").as_string() == "terrible");
      flagged += e.at("pid").as_int64() == 2;
    }
  }
  BOOST_TEST(flagged > 0u);

  // Small enough to attach: one step of eight a side, so well under the inputs.
  const auto inputs_bytes = fs::file_size(inputs[0]) + fs::file_size(inputs[1]);
  BOOST_TEST(step_text.size() * 4 < inputs_bytes, step_text.size() << " bytes against " << inputs_bytes);

  // Deterministic.
  const auto again = run_cli({p.c, p.t, "--perfetto", dir + "/step2.json", "--csv", "/dev/null", "-q"});
  BOOST_TEST_REQUIRE(again.exit_code == 0, again.err);
  BOOST_TEST((read_file(dir + "/step2.json") == step_text));
}

BOOST_AUTO_TEST_CASE(embedded_in_the_page) {
  const auto& p = pair();
  const auto dir = temp_dir("perfetto-html");
  const auto with = run_cli({p.c, p.t, "-o", dir + "/with.html", "--embed-perfetto", "--perfetto", dir + "/step.json", "-q"});
  BOOST_TEST_REQUIRE(with.exit_code == 0, with.err);
  const auto without = run_cli({p.c, p.t, "-o", dir + "/without.html", "-q"});
  BOOST_TEST_REQUIRE(without.exit_code == 0, without.err);
  const auto page = read_file(dir + "/with.html");
  const auto plain = read_file(dir + "/without.html");
  const std::string open = "<script type=\"application/json\" id=\"perfetto-data\">";
  const auto at = page.find(open);
  BOOST_TEST_REQUIRE(at != std::string::npos);
  const auto body = page.substr(at + open.size(), page.find("</script>", at) - at - open.size());
  BOOST_TEST((body == read_file(dir + "/step.json")));  // the same file, byte for byte
  BOOST_TEST(page.find("id=\"open-perfetto\"") != std::string::npos);
  BOOST_TEST(page.find("ui.perfetto.dev") != std::string::npos);
  // Without the option: neither the data, nor the button, nor its script's hash.
  BOOST_TEST(plain.find("perfetto-data") == std::string::npos);
  BOOST_TEST(plain.find("open-perfetto") == std::string::npos);
  BOOST_TEST(plain.find("ui.perfetto.dev") == std::string::npos);
  const auto csp = [](const std::string& html) {  // the policy's script hashes
    const auto b = html.find("content=\"default-src");
    const auto policy = html.substr(b, html.find('"', b + 10) - b);
    std::size_t n = 0;
    for (auto at = policy.find("sha256-"); at != std::string::npos; at = policy.find("sha256-", at + 1)) ++n;
    return n;
  };
  BOOST_TEST(csp(page) == csp(plain) + 1);  // perfetto.js's
}

// Names from the trace are text: the step file parses and keeps them, and the page that
// embeds it has no markup of theirs.
BOOST_AUTO_TEST_CASE(hostile_names) {
  // As the trace's JSON writes them (escaped).
  const std::string names[] = {"</script><img src=x onerror=alert(1)>", "quote\\\" back\\\\slash", "tab\\tnew\\nline \\u2028"};
  const auto trace = [&](int factor) {
    std::vector<std::string> events = {x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100000)};
    long ts = 10;
    for (const auto& n : names) {
      events.push_back("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" + n + "\",\"pid\":1,\"tid\":1,\"ts\":" +
                       std::to_string(ts) + ",\"dur\":" + std::to_string(10 * factor) + "}");
      ts += 100;
    }
    return trace_json(events);
  };
  const auto dir = temp_dir("perfetto-hostile");
  write_file(dir + "/c.json", trace(1));
  write_file(dir + "/t.json", trace(2));
  const auto r = run_cli({dir + "/c.json", dir + "/t.json", "--perfetto", dir + "/s.json", "-o", dir + "/r.html",
                          "--embed-perfetto", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto step = parse_json(read_file(dir + "/s.json")).as_object();
  std::set<std::string> got;
  for (const auto& e : step.at("traceEvents").as_array())
    if (e.at("ph").as_string() == "X") got.insert(std::string(e.at("name").as_string()));
  // The names as the trace's JSON means them (its escapes undone).
  for (const auto& n : names) {
    const auto expected = parse_json("\"" + n + "\"").as_string();
    BOOST_TEST(got.count(std::string(expected)) == 1u, n);
  }
  const auto page = read_file(dir + "/r.html");
  BOOST_TEST(page.find("<img src=x") == std::string::npos);
  BOOST_TEST(page.find("id=\"perfetto-data\"") != std::string::npos);
}

// A step of 9,000 events with 2,000-byte names would write 18 MB a side: the file keeps the
// longest within 16 MiB, counts the rest, and a note says so.
BOOST_AUTO_TEST_CASE(bounded_in_bytes) {
  const std::string name(2000, 'k');
  std::string events = x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 10'000'000);
  for (long i = 0; i < 9000; ++i)
    events += ",{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":1,\"ts\":" +
              std::to_string(10 + 1000 * i) + ",\"dur\":" + std::to_string(1 + i % 500) + "}";
  const auto dir = temp_dir("perfetto-bytes");
  write_file(dir + "/t.json", "{\"traceEvents\": [" + events + "]}");
  const auto r = run_cli({dir + "/t.json", dir + "/t.json", "--perfetto", dir + "/s.json", "--json", dir + "/r.json", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto size = std::filesystem::file_size(dir + "/s.json");
  BOOST_TEST(size < 2 * (16u << 20) + (1u << 20), size);  // two sides, each within 16 MiB
  const auto step = parse_json(read_file(dir + "/s.json")).as_object();
  std::size_t kept = 0;
  for (const auto& e : step.at("traceEvents").as_array()) kept += e.at("ph").as_string() == "X";
  BOOST_TEST(kept < 2u * 9001u);
  const auto j = parse_json(read_file(dir + "/r.json")).as_object();
  bool note = false;
  for (const auto& n : j.at("notes").as_array()) note = note || n.as_string().starts_with("The Perfetto step file keeps the ");
  BOOST_TEST(note);
}

BOOST_AUTO_TEST_CASE(refused) {
  const auto& p = pair();
  const auto dir = temp_dir("perfetto-refused");
  const auto compat = run_cli({p.c, p.t, "--hta-compat", "--perfetto", dir + "/s.json", "-q"});
  BOOST_TEST(compat.exit_code == 2);
  BOOST_TEST(compat.err.find("--hta-compat") != std::string::npos, compat.err);
  const auto sum = run_cli({"summarize", p.c, "-o", dir + "/c.tdsum.json", "-q"});
  BOOST_TEST_REQUIRE(sum.exit_code == 0, sum.err);
  const auto from_summary = run_cli({dir + "/c.tdsum.json", p.t, "--perfetto", dir + "/s.json", "-q"});
  BOOST_TEST(from_summary.exit_code == 2);
  BOOST_TEST(from_summary.err.find("is a summary") != std::string::npos, from_summary.err);
  BOOST_TEST(!fs::exists(dir + "/s.json"));
  const auto no_page = run_cli({p.c, p.t, "--csv", dir + "/r.csv", "--embed-perfetto", "-q"});
  BOOST_TEST(no_page.exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
