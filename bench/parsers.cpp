// tracediff_parsers: how fast is tracediff's JSON scanner, next to other parsers on
// the same bytes? The trace is inflated into memory first; then each contender reads
// the whole JSON R times on one thread, and the median is printed:
//
//   tracediff     the fast reader (reading/fast_reader.cpp) as tracediff runs it: every
//                 value checked, events built, names interned (and the bytes copied
//                 window by window into its buffer, as from an inflater);
//   boost.json    one basic_parser pass with a handler that stores nothing (the parse
//                 half of tracediff_floor);
// and, when simdjson is installed (libsimdjson-dev; see bench/README.md):
//   simdjson-all  on-demand, every value visited and checked as tracediff checks it
//                 (number grammar, literals, the escapes of strings that have any):
//                 what a simdjson reader with tracediff's handling of broken events costs;
//   simdjson-used on-demand, only the fields tracediff uses; the other values are
//                 skipped by bracket counting, unchecked (a bound, not an option: a
//                 broken value there would go unnoticed);
//   simdjson-dom  the DOM parser: validates everything and builds a tape (numbers as
//                 binary doubles, which loses tracediff's exact nanoseconds).
//
// usage: tracediff_parsers [--runs N] FILE   (FILE: .json or .json.gz)
#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "null_handler.hpp"
#include "reading/byte_source.hpp"
#include "reading/fast_reader.hpp"
#include "reading/number.hpp"

#if defined(TRACEDIFF_HAVE_SIMDJSON)
#include <simdjson.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

std::string inflate_whole(const std::string& path) {
  tracediff::reading::ByteSource source(path);
  std::string out;
  std::string_view chunk;
  while (source.next(chunk)) out.append(chunk);
  if (!source.ok() || source.damaged()) throw std::runtime_error(path + ": cannot be read whole");
  return out;
}

// Median wall time of `runs` calls, in ms; each call returns what it found (a count),
// which must be the same every time.
double median_ms(int runs, const std::function<std::size_t()>& once, std::size_t& found) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    const std::size_t n = once();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (i > 0 && n != found) throw std::runtime_error("runs disagree");
    found = n;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::size_t tracediff_read(std::string_view json) {
  tracediff::reading::ByteSource source(json);
  const auto result = tracediff::reading::read_trace_fast(source, "trace", {});
  if (!result) throw std::runtime_error("the fast reader gave the file to the tolerant reader");
  return result->file.events.size();
}

std::size_t boost_json_parse(std::string_view json) {
  boost::json::basic_parser<bench::NullHandler> p{boost::json::parse_options{}};
  boost::json::error_code ec;
  const std::size_t n = p.write_some(false, json.data(), json.size(), ec);
  if (ec) throw std::runtime_error("Boost.JSON: error at byte " + std::to_string(n) + ": " + ec.message());
  return n;
}

#if defined(TRACEDIFF_HAVE_SIMDJSON)
namespace od = simdjson::ondemand;

void fail(simdjson::error_code e) {
  if (e) throw std::runtime_error(std::string("simdjson: ") + simdjson::error_message(e));
}

// Every value under v, checked as tracediff's scanner checks it.
void check_all(od::value v) {
  od::json_type type;
  fail(v.type().get(type));
  switch (type) {
    case od::json_type::array:
      for (auto element : v.get_array()) {
        od::value x;
        fail(element.get(x));
        check_all(x);
      }
      return;
    case od::json_type::object:
      for (auto field : v.get_object()) {
        std::string_view key;
        fail(field.unescaped_key().get(key));
        check_all(field.value());
      }
      return;
    case od::json_type::string: {
      const std::string_view raw = v.raw_json_token();
      std::string_view text;
      if (raw.find('\\') != std::string_view::npos) fail(v.get_string().get(text));  // checks the escapes
      return;
    }
    case od::json_type::number: {  // the grammar, as the scanner checks it, without converting
      std::string_view text = v.raw_json_token();
      while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
      if (!tracediff::reading::is_json_number(text)) fail(simdjson::NUMBER_ERROR);
      return;
    }
    case od::json_type::boolean: {
      bool b;
      fail(v.get_bool().get(b));
      return;
    }
    case od::json_type::null: {
      bool is_null = false;
      fail(v.is_null().get(is_null));
      if (!is_null) fail(simdjson::N_ATOM_ERROR);
      return;
    }
  }
}

// The events' fields tracediff uses; with all, every other value is checked too.
std::size_t simdjson_events(od::parser& parser, const simdjson::padded_string& json, bool all) {
  std::size_t events = 0;
  od::document doc;
  fail(parser.iterate(json).get(doc));
  od::object top;
  fail(doc.get_object().get(top));
  for (auto member : top) {
    std::string_view key;
    fail(member.unescaped_key().get(key));
    if (key != "traceEvents") {
      if (all) check_all(member.value());
      continue;
    }
    od::array list;
    fail(member.value().get_array().get(list));
    for (auto element : list) {
      od::object event;
      fail(element.get_object().get(event));
      for (auto field : event) {
        std::string_view name;
        fail(field.unescaped_key().get(name));
        std::string_view text;
        if (name == "ph" || name == "cat" || name == "name") {
          fail(field.value().get_string().get(text));
        } else if (name == "ts" || name == "dur" || name == "pid" || name == "tid") {
          text = field.value().raw_json_token();  // exact nanoseconds come from the text
        } else if (name == "args") {
          od::object args;
          fail(field.value().get_object().get(args));
          for (auto arg : args) {
            fail(arg.unescaped_key().get(name));
            if (name == "correlation" || name == "stream") text = arg.value().raw_json_token();
            else if (all) check_all(arg.value());
          }
        } else if (all) {
          check_all(field.value());
        }
      }
      ++events;
    }
  }
  return events;
}

std::size_t simdjson_dom(simdjson::dom::parser& parser, const simdjson::padded_string& json) {
  simdjson::dom::element doc;
  fail(parser.parse(json).get(doc));
  simdjson::dom::array events;
  fail(doc["traceEvents"].get_array().get(events));
  return events.size();
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int runs = 11;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else path = a;
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: tracediff_parsers [--runs N] FILE\n");
    return 2;
  }
  try {
    const std::string json = inflate_whole(path);
    std::printf("%s: %.1f MB of JSON, %d runs each, medians\n", path.c_str(), json.size() / 1e6, runs);
    std::printf("%-14s %9s %8s  %s\n", "parser", "ms", "GB/s", "found");
    const auto row = [&](const char* name, const char* what, const std::function<std::size_t()>& once) {
      std::size_t found = 0;
      const double ms = median_ms(runs, once, found);
      std::printf("%-14s %9.2f %8.2f  %zu %s\n", name, ms, json.size() / ms / 1e6, found, what);
    };
    row("tracediff", "events kept", [&] { return tracediff_read(json); });
    row("boost.json", "bytes", [&] { return boost_json_parse(json); });
#if defined(TRACEDIFF_HAVE_SIMDJSON)
    const simdjson::padded_string padded(json);
    od::parser ondemand;
    simdjson::dom::parser dom;
    row("simdjson-all", "traceEvents entries", [&] { return simdjson_events(ondemand, padded, true); });
    row("simdjson-used", "traceEvents entries", [&] { return simdjson_events(ondemand, padded, false); });
    row("simdjson-dom", "traceEvents entries", [&] { return simdjson_dom(dom, padded); });
    std::printf("simdjson %d.%d.%d, %s kernel\n", simdjson::SIMDJSON_VERSION_MAJOR, simdjson::SIMDJSON_VERSION_MINOR,
                simdjson::SIMDJSON_VERSION_REVISION, std::string(simdjson::get_active_implementation()->name()).c_str());
#else
    std::printf("simdjson: not built in (apt-get install libsimdjson-dev, then rebuild)\n");
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracediff_parsers: %s\n", e.what());
    return 1;
  }
  return 0;
}
