// The basic_parser handler behind read_trace (reading/event_handler.hpp), driven
// directly: what it keeps of each event, whatever the chunks the parser is fed.
#include <boost/json/basic_parser_impl.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

#include "reading/event_handler.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
using reading::detail::EventHandler;

namespace {

// JSON through the handler in chunks of `chunk` bytes (0: all at once), as read_trace
// feeds it. Fails the case on a syntax error.
model::TraceFile handle(const std::string& json, std::size_t chunk = 0, reading::ReadOptions options = {}) {
  model::TraceFile file;
  boost::json::parse_options po;
  po.allow_trailing_commas = true;
  boost::json::basic_parser<EventHandler> parser(po, file, options);
  boost::json::error_code ec;
  const std::size_t step = chunk ? chunk : json.size();
  for (std::size_t at = 0; at < json.size(); at += step) {
    const auto n = std::min(step, json.size() - at);
    parser.handler().set_input(json.data() + at, n, at);
    parser.write_some(at + n < json.size(), json.data() + at, n, ec);
    BOOST_REQUIRE_MESSAGE(!ec, ec.message() << " at byte " << at);
  }
  BOOST_TEST(parser.done());
  return file;
}

std::string name_of(const model::TraceFile& f, const model::Event& e) { return std::string(f.pool.get(e.name)); }

const std::string k_trace = R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": "7", "ts": 10.5, "dur": 2, "args": {"correlation": 9}},
  {"ph": "i", "cat": "cpu_op", "name": "instant", "pid": 1, "tid": 7, "ts": 11},
  {"ph": "X", "cat": "Kernel", "name": "gemm", "pid": 0, "tid": 3, "ts": 20, "dur": 4, "args": {"correlation": 9}},
  {"ph": "X", "cat": "cpu_op", "name": "neg", "pid": 1, "tid": 7, "ts": 30, "dur": -5}
], "deviceProperties": [{"name": "NVIDIA H100"}]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(event_handler)

BOOST_AUTO_TEST_CASE(complete_events_are_kept_with_exact_times) {
  const auto f = handle(k_trace);
  BOOST_REQUIRE(f.events.size() == 3u);  // the instant ("i") event is not a complete one
  const auto& mm = f.events[0];
  BOOST_TEST(name_of(f, mm) == "aten::mm");
  BOOST_TEST(mm.ts_ns == 10500);  // 10.5 us, exactly
  BOOST_TEST(mm.dur_ns == 2000);
  BOOST_TEST(mm.correlation == 9);
  BOOST_TEST((mm.kind == model::Kind::cpu_op));
  BOOST_TEST(f.pool.get(mm.tid) == "7");  // a string tid reads as its text
  BOOST_TEST(f.total_events == 4u);
}

BOOST_AUTO_TEST_CASE(categories_are_normalised_and_decide_the_kind) {
  const auto f = handle(k_trace);
  BOOST_REQUIRE(f.events.size() == 3u);
  BOOST_TEST(f.pool.get(f.events[1].category) == "kernel");
  BOOST_TEST((f.events[1].kind == model::Kind::kernel));
  BOOST_TEST((model::device_of(f.events[1].kind) == model::Device::gpu));
}

BOOST_AUTO_TEST_CASE(a_negative_duration_is_clamped_and_flagged) {
  const auto f = handle(k_trace);
  BOOST_REQUIRE(f.events.size() == 3u);
  BOOST_TEST(f.events[2].dur_ns == 0);
  BOOST_TEST(f.events[2].negative_dur);
  BOOST_TEST(!f.events[0].negative_dur);
}

BOOST_AUTO_TEST_CASE(metadata_after_the_events_is_read) {
  const auto f = handle(k_trace);
  BOOST_TEST(f.gpu_names == std::vector<std::string>{"NVIDIA H100"});
}

BOOST_AUTO_TEST_CASE(every_chunking_gives_the_same_events) {
  const auto whole = handle(k_trace);
  for (const std::size_t chunk : {1u, 2u, 3u, 7u, 64u}) {
    const auto f = handle(k_trace, chunk);
    BOOST_REQUIRE(f.events.size() == whole.events.size());
    for (std::size_t i = 0; i < f.events.size(); ++i) {
      BOOST_TEST(name_of(f, f.events[i]) == name_of(whole, whole.events[i]), "chunk " << chunk);
      BOOST_TEST(f.events[i].ts_ns == whole.events[i].ts_ns);
      BOOST_TEST(f.events[i].dur_ns == whole.events[i].dur_ns);
      BOOST_TEST(f.events[i].correlation == whole.events[i].correlation);
    }
  }
}

BOOST_AUTO_TEST_CASE(section_follows_the_events_array) {
  model::TraceFile file;
  boost::json::basic_parser<EventHandler> parser(boost::json::parse_options{}, file, reading::ReadOptions{});
  boost::json::error_code ec;
  const std::string head = R"({"traceEvents": [)";
  parser.write_some(true, head.data(), head.size(), ec);
  BOOST_TEST((parser.handler().section() == EventHandler::Section::events));
  BOOST_TEST(parser.handler().saw_trace_events());
  const std::string tail = R"(], "x": 1})";
  parser.write_some(false, tail.data(), tail.size(), ec);
  BOOST_TEST(!ec);
  BOOST_TEST((parser.handler().section() == EventHandler::Section::after_events));
  BOOST_TEST((parser.handler().top() == EventHandler::Top::object));
}

BOOST_AUTO_TEST_SUITE_END()
