// The careful reader of a Kineto file (Boost.JSON's SAX parser, resynchronising after
// damage, with repair.cpp): one thing, kept whole so its recovery paths read together.
#include "reading/trace_reader.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>

#include "reading/event_handler.hpp"
#include "reading/event_sink.hpp"
#include "reading/fast_reader.hpp"
#include "reading/repair.hpp"

namespace tracediff::reading {

namespace {

using detail::EventHandler;
using model::DiagId;

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Finds where the next event object starts after a syntax error, or where the event
// array ends. Kineto writes each event as "\n  {", so a line starting with "{" or
// "}," followed by "{" is a boundary; a line starting with "]" closes the array.
// State survives chunk boundaries.
class Resync {
 public:
  enum class Found { nothing, event, end };

  // Starts as if just after "}," so that an error on a stray comma resumes at the
  // very next "{" (leading commas, `[ , {`).
  void reset() { m_state = State::after_comma; m_newline = false; }
  // After "too deep" the rest of the event is well-formed, just deep: skip it
  // exactly, strings included, from the rejected byte on (`open` containers are
  // open there), then look for the next event as usual. Without this, every "{" of
  // the deep part looked like an event start (10,000 nested objects were counted as
  // 20 corrupt events).
  void reset_nested(int open) {
    m_state = State::nested;
    m_open = open;
    m_in_string = m_escape = false;
  }

  // Scans data from pos; on a find, pos is the index of the "{" or "]".
  Found scan(std::string_view data, std::size_t& pos) {
    for (; pos < data.size(); ++pos) {
      const char c = data[pos];
      switch (m_state) {
        case State::idle:
          if (c == '\n') enter(State::line_start, true);
          else if (c == '}') enter(State::after_close, false);
          break;
        case State::line_start:
          if (c == '{') return Found::event;
          if (c == ']') return Found::end;
          if (c == '}') enter(State::after_close, false);
          else if (!is_ws(c)) enter(State::idle, false);
          break;
        case State::after_close:
          if (c == ',') enter(State::after_comma, m_newline);
          else if (c == ']') return Found::end;
          else if (c == '{' && m_newline) return Found::event;
          else if (c == '\n') m_newline = true;
          else if (c == '}') m_newline = false;
          else if (!is_ws(c)) enter(State::idle, false);
          break;
        case State::after_comma:
          if (c == '{') return Found::event;
          if (c == '}') enter(State::after_close, false);
          else if (c == '\n') enter(State::line_start, true);
          else if (!is_ws(c) && c != ',') enter(State::idle, false);
          break;
        case State::nested:
          if (m_in_string) {
            if (m_escape) m_escape = false;
            else if (c == '\\') m_escape = true;
            else if (c == '"') m_in_string = false;
          } else if (c == '"') {
            m_in_string = true;
          } else if (c == '{' || c == '[') {
            ++m_open;
          } else if ((c == '}' || c == ']') && --m_open <= 0) {
            enter(State::after_close, false);  // the broken event's own "}"
          }
          break;
      }
    }
    return Found::nothing;
  }

 private:
  enum class State { idle, line_start, after_close, after_comma, nested };
  void enter(State s, bool newline) { m_state = s; m_newline = newline; }
  State m_state = State::after_comma;
  bool m_newline = false;
  int m_open = 0;
  bool m_in_string = false, m_escape = false;
};

// Finds `"traceEvents"` followed by `:` and `[`, when the header before the events is broken.
class SeekEvents {
 public:
  bool scan(std::string_view data, std::size_t& pos) {
    static constexpr std::string_view key = "\"traceEvents\"";
    for (; pos < data.size(); ++pos) {
      const char c = data[pos];
      if (m_matched < key.size()) {
        m_matched = c == key[m_matched] ? m_matched + 1 : (c == '"' ? 1 : 0);
      } else if (!m_colon) {
        if (c == ':') m_colon = true;
        else if (!is_ws(c)) m_matched = 0;
      } else if (c == '[') {
        ++pos;
        return true;
      } else if (!is_ws(c)) {
        m_matched = 0;
        m_colon = false;
      }
    }
    return false;
  }

 private:
  std::size_t m_matched = 0;
  bool m_colon = false;
};

std::string at(std::uint64_t offset) { return "byte " + std::to_string(offset) + ": "; }

// Lenient re-reading (repair.hpp) is tried on events up to this size. Attempts that
// fail may scan at most 1 MiB + twice the bytes read so far, so that input made of
// errors stays linear (fuzzing: 2,300 broken events in 600 KB took 0.2 s before).
constexpr std::size_t k_max_repair = 2u << 20;
constexpr std::uint64_t k_repair_slack = 1u << 20;
// Searching for the first event after a syntax error stops this far into the JSON:
// input with no event in its first 64 MiB is not a trace, however long it goes on
// ("[" or "{" and then a gzip of zeros inflates to gigabytes).
constexpr std::uint64_t k_max_seek_before_events = 64u << 20;

}  // namespace

ReadResult read_trace(ByteSource& source, const std::string& path, const ReadOptions& options) {
  ReadResult result;
  model::TraceFile& file = result.file;
  file.path = path;
  auto& diag = file.diagnostics;

  boost::json::parse_options po;
  po.allow_trailing_commas = true;  // old Kineto wrote `"Trace iteration": 0, }` (kineto 753d0d31)
  po.allow_invalid_utf8 = true;     // names are kept as bytes; writers sanitise for output
  po.max_depth = 512;               // deeper nesting costs the event, not the file
  boost::json::basic_parser<EventHandler> parser(po, file, options);
  EventHandler& h = parser.handler();
  detail::reserve_events(file, source.size_hint(), options);

  enum class State { parsing, seek_event, after_array, seek_events_key, done };
  State state = State::parsing;
  Resync resync;
  SeekEvents seek_key;
  bool synthetic = false;  // the parser was restarted mid-document with a synthetic prefix
  std::uint64_t base = 0;  // offset of the current chunk in the inflated JSON
  bool fatal_syntax = false;
  std::string fatal_message;
  std::uint64_t fatal_offset = 0;
  std::uint64_t repair_spent = 0;  // bytes scanned by failed repairs
  bool seeking = false;            // a syntax error sent the reader looking for events
  bool gave_up = false;            // and k_max_seek_before_events passed without one

  auto restart = [&](const char* prefix) {
    parser.reset();
    boost::json::error_code ec;
    parser.write_some(true, prefix, 1, ec);
    synthetic = true;
  };

  std::string_view chunk;
  while (state != State::done && source.next(chunk)) {
    std::size_t pos = 0;
    // A UTF-8 byte order mark (Windows editors and tools) is not JSON; skip it.
    if (base == 0 && chunk.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
    while (pos < chunk.size() && state != State::done) {
      switch (state) {
        case State::parsing: {
          h.set_input(chunk.data() + pos, chunk.size() - pos, base + pos);
          boost::json::error_code ec;
          const std::size_t n = parser.write_some(true, chunk.data() + pos, chunk.size() - pos, ec);
          pos += n;
          if (!ec) {
            if (parser.done()) {
              // A restarted parser ends at the events' "]"; the real document goes on.
              const bool more = synthetic && h.top() == EventHandler::Top::object &&
                                h.section() == EventHandler::Section::after_events &&
                                h.object_open();
              state = more ? State::after_array : State::done;
            }
            break;
          }
          const std::uint64_t offset = base + pos;
          if (h.section() == EventHandler::Section::events) {
            // 1. Inside an event: re-read it leniently (NaN, N/A, raw control bytes,
            // bad escapes, stray commas; repair.hpp), if it starts in this chunk.
            if (h.in_event() && repair_spent <= k_repair_slack + 2 * offset) {
              const std::uint64_t hint = h.event_key_offset().value_or(offset);
              std::size_t s = hint >= base ? static_cast<std::size_t>(hint - base) : 0;
              while (s > 0 && (is_ws(chunk[s - 1]) || chunk[s - 1] == ',')) --s;
              if (hint >= base && s > 0 && chunk[s - 1] == '{') {
                --s;
                auto fixed = repair_event(chunk.substr(s), k_max_repair);
                if (fixed) {
                  h.drop_partial_event();
                  h.resume_in_events();
                  restart("[");
                  h.set_input(fixed->json.data(), fixed->json.size(), base + s);
                  boost::json::error_code ec2;
                  parser.write_some(true, fixed->json.data(), fixed->json.size(), ec2);
                  if (!ec2 && !h.in_event()) {
                    diag.report(DiagId::event_repaired, path, base + s,
                                at(base + s) + ec.message() + "; event read leniently and kept");
                    pos = s + fixed->consumed;
                    break;  // go on parsing after the event, in the restarted parser
                  }
                  repair_spent += fixed->consumed;
                } else {
                  repair_spent += std::min(chunk.size() - s, k_max_repair);
                }
              }
            }
            // 2. Between events, a stray or missing comma (`[ , {`, `}, , {`, `}{`):
            // nothing is lost, go on at the next event.
            if (!h.in_event() && pos < chunk.size() && (chunk[pos] == ',' || chunk[pos] == '{')) {
              std::size_t p = pos;
              while (p < chunk.size() && (chunk[p] == ',' || is_ws(chunk[p]))) ++p;
              if (p < chunk.size() && chunk[p] == '{') {
                diag.report(DiagId::event_repaired, path, offset,
                            at(offset) + "stray or missing comma between events ignored");
                h.resume_in_events();
                restart("[");
                pos = p;
                break;
              }
            }
            // 3. Otherwise the event is lost: resynchronise at the next one.
            const bool too_deep = ec == boost::json::error::too_deep;
            const int open = h.open_in_events();
            h.drop_partial_event();
            diag.report(DiagId::event_corrupt, path, offset, at(offset) + ec.message());
            if (too_deep && open > 0) resync.reset_nested(open);
            else resync.reset();
            state = State::seek_event;
            seeking = true;
            // The parser did not consume the offending byte; start scanning at it.
          } else if (h.section() == EventHandler::Section::after_events) {
            diag.report(DiagId::file_metadata_error, path, offset,
                        at(offset) + ec.message() + " after traceEvents; events kept");
            state = State::done;
          } else if (h.top() == EventHandler::Top::object) {
            // Broken metadata before the events: look for the events themselves.
            fatal_message = at(offset) + ec.message();
            fatal_offset = offset;
            state = State::seek_events_key;
            seeking = true;
          } else {
            fatal_syntax = true;
            fatal_message = at(offset) + ec.message();
            state = State::done;
          }
          break;
        }
        case State::seek_event: {
          const auto found = resync.scan(chunk, pos);
          if (found == Resync::Found::event) {
            h.resume_in_events();
            restart("[");
            state = State::parsing;
          } else if (found == Resync::Found::end) {
            ++pos;
            state = h.top() == EventHandler::Top::array ? State::done : State::after_array;
            h.end_events();
          }
          break;
        }
        case State::after_array: {
          const char c = chunk[pos];
          if (is_ws(c)) {
            ++pos;
          } else if (c == ',') {
            ++pos;
            h.resume_after_events();
            restart("{");
            state = State::parsing;
          } else {
            state = State::done;  // "}" closes the document; anything else is ignored
          }
          break;
        }
        case State::seek_events_key:
          if (seek_key.scan(chunk, pos)) {
            diag.report(DiagId::file_header_error, path, fatal_offset,
                        fatal_message + " in the metadata before traceEvents; skipped to the events");
            h.resume_in_events();
            restart("[");
            state = State::parsing;
          }
          break;
        case State::done: break;
      }
    }
    base += chunk.size();
    if (seeking && state != State::done && base > k_max_seek_before_events && file.events.empty() &&
        h.event_objects() == 0) {
      gave_up = true;
      state = State::done;
    }
  }
  // Signal end of input: an unfinished document is a file cut short.
  if (state == State::parsing && !parser.done()) {
    boost::json::error_code ec;
    parser.write_some(false, nullptr, 0, ec);
    if (ec && h.section() == EventHandler::Section::none && !h.saw_trace_events() &&
        h.top() == EventHandler::Top::unknown && base > 0)
      fatal_syntax = true, fatal_message = at(base) + ec.message();
    if (ec) state = State::seek_event;  // reuse the truncation handling below
  }
  // Drain what follows the document so a damaged gzip tail is still noticed; not
  // when there were no events (not JSON, not a trace): the file is refused anyway,
  // and refused at its first bytes, not after inflating gigabytes of zeros.
  if (state == State::done && h.saw_trace_events() && !gave_up)
    while (source.next(chunk)) base += chunk.size();
  const bool cut_short = state == State::seek_event || state == State::parsing;
  if (!source.ok() && h.saw_trace_events()) {
    // A read error (EIO) is not gzip damage: say what happened.
    file.truncated = cut_short;
    diag.report(DiagId::file_truncated, path, base,
                at(base) + "read error (" + source.error() + "); " + std::to_string(file.events.size()) +
                    " complete events kept");
  } else if (source.damaged() && h.saw_trace_events()) {
    diag.report(DiagId::file_gzip_error, path, base,
                at(base) + "gzip stream corrupt or cut short; " + std::to_string(file.events.size()) +
                    " events read before it are kept");
  } else if (cut_short && h.section() == EventHandler::Section::events) {
    file.truncated = true;
    diag.report(DiagId::file_truncated, path, base,
                at(base) + "file ends inside traceEvents; " + std::to_string(file.events.size()) +
                    " complete events kept");
  } else if (cut_short && h.section() == EventHandler::Section::after_events) {
    diag.report(DiagId::file_metadata_error, path, base,
                at(base) + "file ends after traceEvents; events kept");
  }

  file.gzip = source.gzip();
  file.json_bytes = source.bytes_out();
  file.bytes_on_disk = source.bytes_in();

  auto skip = [&](DiagId id, std::string message) { detail::skip_file(result, id, std::move(message)); };
  if (!source.ok() && (!source.damaged() || !h.saw_trace_events())) {
    // Not opened, or a read error (EIO, EISDIR) before any event.
    skip(DiagId::file_skipped_unreadable, "cannot read: " + source.error());
  } else if (source.bytes_out() == 0 && !source.damaged()) {
    skip(DiagId::file_skipped_empty, "file is empty");
  } else if (source.damaged() && !h.saw_trace_events()) {
    skip(DiagId::file_gzip_error, "gzip stream is corrupt before any event");
  } else if (fatal_syntax) {
    skip(DiagId::file_skipped_not_json, "not JSON (" + fatal_message + ")");
  } else if (gave_up) {
    skip(DiagId::file_skipped_not_json, "no event in its first " + std::to_string(k_max_seek_before_events >> 20) +
                                            " MiB after a syntax error: not a trace");
  } else if (!h.saw_trace_events()) {
    if (!fatal_message.empty())
      skip(DiagId::file_skipped_not_json, "broken JSON before traceEvents (" + fatal_message + ")");
    else
      skip(DiagId::file_skipped_not_trace, "JSON without traceEvents: not a Kineto trace");
  } else if (h.top() == EventHandler::Top::array && h.event_objects() == 0) {
    skip(DiagId::file_skipped_not_trace, "JSON array without event objects: not a Kineto trace");
  } else if (file.events.empty()) {
    skip(DiagId::file_skipped_no_events, "no complete events to compare");
  }
  return result;
}

ReadResult read_trace_file(const std::string& path, const ReadOptions& options) {
  // A pipe or FIFO cannot be read twice: only regular files try the fast path first.
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    ByteSource source(path);
    if (options.read_ahead) source.read_ahead();
    if (auto fast = read_trace_fast(source, path, options)) return std::move(*fast);
  }
  ByteSource source(path);
  return read_trace(source, path, options);
}

ReadResult read_trace_bytes(std::string_view bytes, const std::string& path, const ReadOptions& options) {
  {
    ByteSource source(bytes);
    if (auto fast = read_trace_fast(source, path, options)) return std::move(*fast);
  }
  ByteSource source(bytes);
  return read_trace(source, path, options);
}

}  // namespace tracediff::reading
