#include "reading/event_handler.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "reading/category.hpp"
#include "reading/number.hpp"

namespace tracediff::reading::detail {

namespace {
constexpr std::int64_t k_max_ts = std::int64_t{1} << 62;
constexpr std::int64_t k_min_ts = std::int64_t{1} << 60;
constexpr std::int64_t k_max_dur = std::int64_t{1} << 48;
}  // namespace

void EventHandler::PendingEvent::clear() {
  for (Value* v : {&ph, &cat, &name, &pid, &tid, &ts, &dur, &correlation, &stream}) {
    v->type = ValueType::missing;
    v->text.clear();
  }
}

EventHandler::EventHandler(model::TraceFile& file, const ReadOptions& options)
    : m_file(file), m_options(options) {}

void EventHandler::clear_buffers() {
  // A parse that failed inside a key, string or number left its first part here
  // (found as "X" + "torch" = "torchX" for the next event's ph).
  m_keybuf.clear();
  m_strbuf.clear();
  m_numbuf.clear();
  m_str_truncated = false;
}

void EventHandler::note_key_position(const char* p) {
  // Only the event's first key, and only if p points into the current input (not
  // into Boost.JSON's buffer for escaped or split keys).
  if (m_event_key_offset || !m_in_event || m_depth != m_events_depth + 1) return;
  const std::less_equal<const char*> le;
  if (m_input && le(m_input + 1, p) && le(p, m_input + m_input_size))
    m_event_key_offset = m_offset + static_cast<std::uint64_t>(p - m_input) - 1;
}

void EventHandler::resume_in_events() {
  clear_buffers();
  m_in_event = m_in_args = m_in_dist_info = m_in_device = m_device_array = false;
  if (m_top == Top::unknown) m_top = Top::object;  // only reached by finding "traceEvents"
  m_events_depth = m_top == Top::array ? 1 : 2;
  m_resume_events = true;
}

void EventHandler::resume_after_events() {
  clear_buffers();
  m_in_event = m_in_args = m_in_dist_info = m_in_device = m_device_array = false;
  m_resume_object = true;
}

EventHandler::Field EventHandler::classify_key(std::string_view k) const {
  const int d = m_depth;
  if (m_in_event && d == m_events_depth + 1) {
    if (k == "ph") return Field::ph;
    if (k == "cat") return Field::cat;
    if (k == "name") return Field::name;
    if (k == "pid") return Field::pid;
    if (k == "tid") return Field::tid;
    if (k == "ts") return Field::ts;
    if (k == "dur") return Field::dur;
    if (k == "args") return Field::args;
    return Field::none;
  }
  if (m_in_args && d == m_events_depth + 2) {
    if (k == "correlation") return Field::correlation;
    if (k == "stream") return Field::stream;
    return Field::none;
  }
  if (m_top == Top::object && d == 1) {
    if (k == "traceEvents") return Field::trace_events;
    if (k == "distributedInfo") return Field::distributed_info;
    if (k == "deviceProperties") return Field::device_properties;
    if (k == "baseTimeNanoseconds") return Field::base_time;
    return Field::none;
  }
  if (m_in_dist_info && d == 2) {
    if (k == "rank") return Field::rank;
    if (k == "world_size") return Field::world_size;
    return Field::none;
  }
  if (m_in_device && d == 3 && k == "name") return Field::device_name;
  return Field::none;
}

bool EventHandler::on_key_part(string_view s, std::size_t, error_code&) {
  if (m_keybuf.empty()) note_key_position(s.data());
  // Keys we care about are short; don't buffer long ones.
  if (m_keybuf.size() < 64) m_keybuf.append(s.data(), std::min<std::size_t>(s.size(), 64));
  return true;
}

bool EventHandler::on_key(string_view s, std::size_t n, error_code&) {
  if (s.size() == n) note_key_position(s.data());  // the whole key is in this view
  if (m_keybuf.size() < 64) m_keybuf.append(s.data(), std::min<std::size_t>(s.size(), 64));
  const Field f = classify_key(m_keybuf);
  m_keybuf.clear();
  const int d = m_depth;
  if (m_in_event && d == m_events_depth + 1) m_ev_key = f;
  else if (m_in_args && d == m_events_depth + 2) m_args_key = f;
  else if (m_top == Top::object && d == 1) m_top_key = f;
  else m_sub_key = f;
  return true;
}

bool EventHandler::on_object_begin(error_code&) {
  if (m_resume_object) {
    m_resume_object = false;
    m_depth = 1;
    return true;
  }
  if (m_depth == 0 && m_top == Top::unknown) {
    m_top = Top::object;
  } else if (m_section == Section::events && m_depth == m_events_depth && !m_in_event) {
    m_in_event = true;
    m_event_key_offset.reset();
    m_ev.clear();
    m_ev_key = Field::none;
    ++m_event_objects;
  } else if (m_in_event && m_depth == m_events_depth + 1 && m_ev_key == Field::args) {
    m_in_args = true;
    m_args_key = Field::none;
  } else if (m_top == Top::object && m_depth == 1 && m_top_key == Field::distributed_info) {
    m_in_dist_info = true;
  } else if (m_device_array && m_depth == 2) {
    m_in_device = true;
  }
  ++m_depth;
  return true;
}

bool EventHandler::on_object_end(std::size_t, error_code&) {
  --m_depth;
  if (m_in_event && m_depth == m_events_depth) {
    m_in_event = false;
    m_in_args = false;
    finish_event();
  } else if (m_in_args && m_depth == m_events_depth + 1) {
    m_in_args = false;
  } else if (m_in_dist_info && m_depth == 1) {
    m_in_dist_info = false;
  } else if (m_in_device && m_depth == 2) {
    m_in_device = false;
  }
  return true;
}

bool EventHandler::on_array_begin(error_code&) {
  if (m_resume_events) {
    m_resume_events = false;
    m_section = Section::events;
    m_saw_events = true;
    m_depth = m_events_depth;
    return true;
  }
  if (m_depth == 0 && m_top == Top::unknown) {
    // Legacy export: the whole file is the event array.
    m_top = Top::array;
    m_section = Section::events;
    m_events_depth = 1;
    m_saw_events = true;
  } else if (m_top == Top::object && m_depth == 1 && m_top_key == Field::trace_events &&
             m_section == Section::none) {
    m_section = Section::events;
    m_events_depth = 2;
    m_saw_events = true;
  } else if (m_top == Top::object && m_depth == 1 && m_top_key == Field::device_properties) {
    m_device_array = true;
  }
  ++m_depth;
  return true;
}

bool EventHandler::on_array_end(std::size_t, error_code&) {
  --m_depth;
  if (m_section == Section::events && m_depth == m_events_depth - 1) {
    m_section = Section::after_events;
  } else if (m_device_array && m_depth == 1) {
    m_device_array = false;
  }
  return true;
}

EventHandler::Value* EventHandler::target() {
  if (m_in_event && m_depth == m_events_depth + 1) {
    switch (m_ev_key) {
      case Field::ph: return &m_ev.ph;
      case Field::cat: return &m_ev.cat;
      case Field::name: return &m_ev.name;
      case Field::pid: return &m_ev.pid;
      case Field::tid: return &m_ev.tid;
      case Field::ts: return &m_ev.ts;
      case Field::dur: return &m_ev.dur;
      default: return nullptr;
    }
  }
  if (m_in_args && m_depth == m_events_depth + 2) {
    if (m_args_key == Field::correlation) return &m_ev.correlation;
    if (m_args_key == Field::stream) return &m_ev.stream;
  }
  return nullptr;
}

bool EventHandler::wants_top_scalar() const {
  return (m_top == Top::object && m_depth == 1 && m_top_key == Field::base_time) ||
         (m_in_dist_info && m_depth == 2) || (m_in_device && m_depth == 3);
}

bool EventHandler::on_string_part(string_view s, std::size_t, error_code&) {
  if (m_in_event ? target() == nullptr : !wants_top_scalar()) return true;
  if (m_strbuf.size() + s.size() > k_max_name) {
    m_strbuf.append(s.data(), k_max_name - m_strbuf.size());
    m_str_truncated = true;
  } else {
    m_strbuf.append(s.data(), s.size());
  }
  return true;
}

bool EventHandler::on_string(string_view s, std::size_t n, error_code& ec) {
  on_string_part(s, n, ec);
  if (Value* v = m_in_event ? target() : nullptr) {
    if (m_str_truncated && v == &m_ev.name) {
      m_file.diagnostics.report(model::DiagId::event_name_truncated, m_file.path, event_offset(),
                                at_event() + "event name longer than 1 MiB truncated");
    }
    v->set(ValueType::string, m_strbuf);
  } else if (!m_in_event && wants_top_scalar()) {
    on_top_scalar(ValueType::string, m_strbuf);
  }
  m_strbuf.clear();
  m_str_truncated = false;
  return true;
}

bool EventHandler::on_number_part(string_view s, error_code&) {
  // Number text, not its double: exact nanoseconds need the digits.
  if (m_numbuf.size() < 64) m_numbuf.append(s.data(), s.size());
  return true;
}

bool EventHandler::on_number(string_view s) {
  if (m_numbuf.size() < 64) m_numbuf.append(s.data(), s.size());
  if (Value* v = m_in_event ? target() : nullptr) v->set(ValueType::number, m_numbuf);
  else if (!m_in_event && wants_top_scalar()) on_top_scalar(ValueType::number, m_numbuf);
  m_numbuf.clear();
  return true;
}

bool EventHandler::on_scalar() {
  if (Value* v = m_in_event ? target() : nullptr) v->set(ValueType::other, {});
  return true;
}

bool EventHandler::on_null_value() {
  if (Value* v = m_in_event ? target() : nullptr) v->set(ValueType::null, {});
  return true;
}

void EventHandler::on_top_scalar(ValueType type, std::string_view text) {
  if (m_top == Top::object && m_depth == 1 && m_top_key == Field::base_time) {
    if (auto v = parse_integer(text)) m_file.base_time_ns = *v;
  } else if (m_in_dist_info && m_depth == 2) {
    // Rank may be written as text by on-demand traces (kineto-trace-format.md §1.4).
    const auto v = parse_integer(text);
    if (v && *v >= 0 && *v < (1 << 30)) {
      if (m_sub_key == Field::rank) {
        m_file.rank = static_cast<int>(*v);
        m_file.rank_source = model::RankSource::distributed_info;
      } else if (m_sub_key == Field::world_size) {
        m_file.world_size = static_cast<int>(*v);
      }
    }
  } else if (m_in_device && m_depth == 3 && m_sub_key == Field::device_name &&
             type == ValueType::string) {
    m_file.gpu_names.emplace_back(text);
  }
}

// A field's value as a message shows it: missing, null, a number or a quoted string.
std::string EventHandler::describe(const Value& v) {
  switch (v.type) {
    case ValueType::missing: return "missing";
    case ValueType::null: return "null";
    case ValueType::other: return "not a number or string";
    case ValueType::number: return v.text.substr(0, 40);
    case ValueType::string: {
      // Messages go to a terminal: no control bytes from the file.
      std::string t = v.text.substr(0, 40);
      for (char& c : t)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
      return "\"" + t + (v.text.size() > 40 ? "...\"" : "\"");
    }
  }
  return {};
}

// A file has a handful of categories: normalise each once, not per event.
const EventHandler::CategoryEntry& EventHandler::category(const std::string& raw) {
  for (const auto& c : m_categories)
    if (c.raw == raw) return c;
  const std::string normalized = normalize_category(raw);
  // --hta-compat keys on the raw category, as HTA does.
  const auto id = m_file.pool.intern(m_options.hta_compat ? raw : normalized);
  return m_categories.emplace_back(CategoryEntry{raw, id, kind_of_category(normalized)});
}

// Consecutive events mostly share their pid and tid: skip the hash when it repeats.
std::uint32_t EventHandler::intern_cached(const std::string& text, Interned& last) {
  if (last.valid && last.text == text) return last.id;
  last.text = text;
  last.id = m_file.pool.intern(text);
  last.valid = true;
  return last.id;
}

void EventHandler::finish_event() {
  using model::DiagId;
  const std::uint64_t index = m_file.total_events++;
  const bool hta = m_options.hta_compat;

  // HTA rounds every ts of the file once any ts is fractional or missing (§2.2).
  const bool ts_integral = m_ev.ts.type == ValueType::number &&
                           m_ev.ts.text.find_first_of(".eE") == std::string::npos;
  if (m_ev.ts.type == ValueType::missing || m_ev.ts.type == ValueType::null ||
      (m_ev.ts.type == ValueType::number && !ts_integral))
    m_file.hta_float_mode = true;

  const bool is_complete = m_ev.ph.type == ValueType::string && m_ev.ph.text == "X";
  if (hta) {
    // HTA keeps any event with a dur and a cat, whatever its phase (§2.3).
    if (m_ev.dur.type != ValueType::number || m_ev.cat.type != ValueType::string ||
        m_ev.cat.text == "Trace")
      return;
  } else {
    if (!is_complete) return;  // instant, flow, metadata and counter events carry no op time
    if (m_ev.cat.type != ValueType::string) {
      m_file.diagnostics.report(DiagId::event_no_category, m_file.path, event_offset(),
                                at_event() + "complete event without cat");
      return;
    }
    if (m_ev.cat.text == "Trace") return;  // the profiler's own span
  }

  const bool ts_text = m_ev.ts.type == ValueType::number || m_ev.ts.type == ValueType::string;
  const auto ts = ts_text ? parse_us_to_ns(m_ev.ts.text) : std::nullopt;
  if (!ts) {
    m_file.diagnostics.report(DiagId::event_missing_ts, m_file.path, event_offset(),
                              at_event() + "complete event without a usable ts (" + describe(m_ev.ts) +
                                  "; a finite number of µs within int64 ns is needed)");
    return;
  }
  const bool dur_text = m_ev.dur.type == ValueType::number || m_ev.dur.type == ValueType::string;
  const auto dur = dur_text ? parse_us_to_ns(m_ev.dur.text) : std::nullopt;
  if (!dur) {
    m_file.diagnostics.report(DiagId::event_bad_dur, m_file.path, event_offset(),
                              at_event() + (m_ev.dur.type == ValueType::missing
                                                ? std::string("complete event without dur")
                                                : "dur is not a usable number (" + describe(m_ev.dur) + ")"));
    return;
  }

  // Bounds that keep the analysis' arithmetic (ends, and differences of starts and
  // ends of any two events) inside int64: ts within [-2^60, 2^62] ns (1933..2116 as
  // epoch time), dur at most 2^48 ns (78 hours). Fuzzing found ts + dur overflowing.
  if (*ts < -k_min_ts || *ts > k_max_ts) {
    m_file.diagnostics.report(DiagId::event_missing_ts, m_file.path, event_offset(),
                              at_event() + "ts " + describe(m_ev.ts) + " is out of range (years 1933 to 2116)");
    return;
  }
  if (*dur > k_max_dur) {
    m_file.diagnostics.report(DiagId::event_bad_dur, m_file.path, event_offset(),
                              at_event() + "dur " + describe(m_ev.dur) + " is longer than 78 hours");
    return;
  }

  model::Event e;
  e.ts_ns = *ts;
  e.dur_ns = *dur;
  e.has_dur = true;
  if (e.dur_ns < 0 && !hta) {
    // Kineto before 2022-08 could write negative durations (kineto c4597ab3).
    m_file.diagnostics.report(DiagId::event_negative_dur, m_file.path, event_offset(),
                              at_event() + "negative dur " + m_ev.dur.text + " clamped to 0");
    e.dur_ns = 0;
    e.negative_dur = true;
  }
  const auto& cat = category(m_ev.cat.text);
  e.category = cat.id;
  e.kind = cat.kind;
  e.name = m_file.pool.intern(m_ev.name.text);
  e.pid = intern_cached(m_ev.pid.text, m_last_pid);
  e.tid = intern_cached(m_ev.tid.text, m_last_tid);
  if (m_ev.correlation.type == ValueType::number) {
    if (auto c = parse_integer(m_ev.correlation.text)) e.correlation = *c;
  }
  m_file.events.push_back(e);

  if (hta) {
    model::HtaFields h;
    h.ts = parse_double(m_ev.ts.text).value_or(NAN);
    h.dur = parse_double(m_ev.dur.text).value_or(NAN);
    h.index = static_cast<std::uint32_t>(index);
    h.ts_integral = ts_integral;
    // pandas to_numeric, NaN -> -1, then truncation to int (§2.4): "7" -> 7, "0x0" -> -1.
    if (m_ev.stream.type == ValueType::number || m_ev.stream.type == ValueType::string) {
      if (auto s = parse_double(m_ev.stream.text)) h.stream = static_cast<std::int64_t>(std::trunc(*s));
    }
    m_file.hta.push_back(h);
  }
}

}  // namespace tracediff::reading::detail
