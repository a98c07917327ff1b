// Summaries say how they were made (issue 31 item 3): --launcher, --by-shape and the step
// marker per file; a comparison refuses a summary made otherwise than it reads its
// traces, merge refuses parts made differently, and the notes say which files' steps
// came from which marker.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr const char* k_optimizer = "Optimizer\\.step#SGD\\.step";

// `tracediff summarize IN -o DIR/NAME.tdsum.json EXTRA...`: the summary's path.
std::string summarize(const std::string& in, const std::string& dir, const std::string& name,
                      std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"summarize", in, "-o", dir + "/" + name + ".tdsum.json", "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return dir + "/" + name + ".tdsum.json";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Each rank's trace of a tracegen folder, by rank.
std::vector<std::string> rank_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(summary_provenance)

// Every file says how it was made, --by-shape included (false said, not left out).
BOOST_AUTO_TEST_CASE(every_file_records_launcher_by_shape_and_marker) {
  const auto gen = tracegen("prov-rec", {"--steps", "3", "--ranks", "2", "--marker-loop", "train"});
  const auto dir = temp_dir("prov-rec");
  const auto plain = parse_json(read_file(summarize(gen, dir, "plain"))).as_object();
  const auto made = parse_json(read_file(summarize(gen, dir, "made", {"--launcher", "module", "--by-shape",
                                                                      "--step-marker", k_optimizer})))
                        .as_object();
  for (const auto& f : plain.at("files").as_array()) {
    BOOST_TEST(f.at("launcher").as_string() == "innermost");
    BOOST_TEST(f.at("by_shape").as_bool() == false);
    BOOST_TEST(!f.as_object().contains("step_marker"));
  }
  for (const auto& f : made.at("files").as_array()) {
    BOOST_TEST(f.at("launcher").as_string() == "module");
    BOOST_TEST(f.at("by_shape").as_bool() == true);
    BOOST_TEST(f.at("step_marker").at("pattern").as_string() == k_optimizer);
  }
}

// An outermost-level summary against traces read at the default level attributes the
// same launches to other operators: refused, naming the file and both levels, instead
// of a report of launchers "new and significantly slower". With the summary's level the
// comparison is the traces'.
BOOST_AUTO_TEST_CASE(a_summary_made_at_another_launcher_level_is_refused) {
  const auto c = tracegen("prov-lvl-c", {"--steps", "6", "--ranks", "1", "--seed", "1"});
  const auto t = tracegen("prov-lvl-t", {"--steps", "6", "--ranks", "1", "--seed", "2"});
  const auto dir = temp_dir("prov-lvl");
  const auto outer = summarize(c, dir, "outer", {"--launcher", "outermost"});
  const auto inner = summarize(t, dir, "inner");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {outer, t, "--json", dir + "/r.json"},                     // summary against traces
           {outer, inner, "--json", dir + "/r.json"},                 // two summaries made apart
           {outer, outer, "--json", dir + "/r.json"},                 // alike, but not as the comparison reads
           {inner, outer, "--launcher", "outermost", "--json", dir + "/r.json"}}) {
    const auto r = run_cli(args);
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(contains(r.err, "summary " + (args[0] == inner ? inner : outer)), r.err);
    BOOST_TEST(contains(r.err, "--launcher outermost"), r.err);
    BOOST_TEST(contains(r.err, "--launcher innermost"), r.err);
    BOOST_TEST(!fs::exists(dir + "/r.json"));
  }
  const auto at_outer = run_cli({outer, t, "--launcher", "outermost", "--json", "-", "-q"});
  BOOST_REQUIRE_MESSAGE(at_outer.exit_code == 0, at_outer.err);
  const auto traces = run_cli({c, t, "--launcher", "outermost", "--json", "-", "-q"});
  BOOST_TEST(json::serialize(parse_json(at_outer.out).at("by_launcher")) ==
             json::serialize(parse_json(traces.out).at("by_launcher")));
  // A summary that does not say (written by hand; tracediff has always written it in
  // schema 6) is refused rather than guessed.
  auto text = read_file(inner);
  const std::string field = "\"launcher\": \"innermost\", ";
  BOOST_REQUIRE(contains(text, field));
  text.erase(text.find(field), field.size());
  write_file(dir + "/unknown.tdsum.json", text);
  const auto unknown = run_cli({c, dir + "/unknown.tdsum.json", "--json", dir + "/r.json"});
  BOOST_TEST(unknown.exit_code == 1, unknown.err);
  BOOST_TEST(contains(unknown.err, "unknown.tdsum.json does not record the --launcher level"), unknown.err);
}

// A summary without shapes cannot give --by-shape's rows: refused. One with shapes
// compared without --by-shape merges them back (summaries_keep_shapes checks the rows).
BOOST_AUTO_TEST_CASE(a_summary_without_shapes_is_refused_by_shape) {
  const auto c = tracegen("prov-shape", {"--steps", "3", "--ranks", "1"});
  const auto dir = temp_dir("prov-shape");
  const auto plain = summarize(c, dir, "plain");
  const auto shaped = summarize(c, dir, "shaped", {"--by-shape"});
  const auto r = run_cli({plain, c, "--by-shape", "--json", dir + "/r.json"});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(contains(r.err, "Control summary " + plain + " was made without --by-shape"), r.err);
  BOOST_TEST(!fs::exists(dir + "/r.json"));
  BOOST_TEST(run_cli({shaped, c, "--by-shape", "--json", dir + "/r.json", "-q"}).exit_code == 0);
  BOOST_TEST(run_cli({shaped, c, "--json", dir + "/r.json", "-q"}).exit_code == 0);
  // A summary from before by_shape was recorded reads as made with it when it lists shapes.
  for (const auto& [path, with] : {std::pair{plain, false}, std::pair{shaped, true}}) {
    auto text = read_file(path);
    const std::string field = std::string(", \"by_shape\": ") + (with ? "true" : "false");
    BOOST_REQUIRE(contains(text, field));
    text.erase(text.find(field), field.size());
    write_file(dir + "/old.tdsum.json", text);
    BOOST_TEST(run_cli({dir + "/old.tdsum.json", c, "--by-shape", "--csv", "-", "-q"}).exit_code == (with ? 0 : 1));
  }
  // A file that says it was made without shapes and lists some is not a summary.
  auto forged = read_file(shaped);
  forged.replace(forged.find("\"by_shape\": true"), 16, "\"by_shape\": false");
  write_file(dir + "/forged.tdsum.json", forged);
  const auto f = run_cli({dir + "/forged.tdsum.json", c, "--csv", "-"});
  BOOST_TEST(f.exit_code == 1);
  BOOST_TEST(contains(f.err, "input shapes in a file made without --by-shape"), f.err);
}

// merge combines ranks summarized apart: each part must be made alike. Mixed launcher
// levels, --by-shape or step markers are refused, naming both parts and the difference;
// nothing is written.
BOOST_AUTO_TEST_CASE(merge_refuses_parts_made_differently) {
  const auto gen = tracegen("prov-merge", {"--steps", "4", "--ranks", "2", "--marker-loop", "train"});
  const auto files = rank_files(gen);
  BOOST_REQUIRE(files.size() == 2u);
  const auto dir = temp_dir("prov-merge");
  const auto r0 = summarize(files[0], dir, "r0");
  const auto r1 = summarize(files[1], dir, "r1");
  const auto ok = run_cli({"merge", r0, r1, "-o", dir + "/m.tdsum.json"});
  BOOST_REQUIRE_MESSAGE(ok.exit_code == 0, ok.err);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--launcher", "outermost"}, "r0.tdsum.json was made with --launcher innermost, " + dir + "/x.tdsum.json with outermost"},
      {{"--by-shape"}, "r0.tdsum.json was made without --by-shape, " + dir + "/x.tdsum.json with"},
      {{"--step-marker", k_optimizer},
       "r0.tdsum.json has steps not from a step marker, " + dir + "/x.tdsum.json steps from --step-marker '" +
           k_optimizer + "'"}};
  for (const auto& [options, message] : cases) {
    const auto x = summarize(files[1], dir, "x", options);
    const auto r = run_cli({"merge", r0, x, "-o", dir + "/bad.tdsum.json"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(contains(r.err, message), r.err);
    BOOST_TEST(!fs::exists(dir + "/bad.tdsum.json"));
  }
}

// A side whose files made their steps differently (a summary made with a step marker
// beside one made without) is compared, and its note names which files had which;
// it never claims the marker for the whole side.
BOOST_AUTO_TEST_CASE(notes_name_the_files_of_each_step_marker) {
  const auto gen = tracegen("prov-notes", {"--steps", "5", "--ranks", "2", "--marker-loop", "train"});
  const auto files = rank_files(gen);
  BOOST_REQUIRE(files.size() == 2u);
  const auto dir = temp_dir("prov-notes");
  const auto marked = summarize(files[0], dir, "marked", {"--step-marker", k_optimizer});
  const auto plain = summarize(files[1], dir, "plain");
  const auto j = report_json({marked, gen, "--add-control", plain});
  const auto name = [](const std::string& p) { return fs::path(p).filename().string(); };
  std::string note;
  for (const auto& n : j.at("notes").as_array())
    if (std::string(n.as_string()).starts_with("Control:")) note = std::string(n.as_string());
  BOOST_TEST(contains(note, "its files' steps are made differently"), note);
  BOOST_TEST(contains(note, std::string("the step marker '") + k_optimizer + "' in " + name(files[0])), note);
  BOOST_TEST(contains(note, "ProfilerStep spans in " + name(files[1])), note);
  // Both files' steps are compared: the marker's in one, ProfilerStep's in the other.
  const auto& m = j.at("control").at("step_markers").as_array();
  BOOST_REQUIRE(m.size() == 1u);
  BOOST_TEST(m[0].at("files").as_int64() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
