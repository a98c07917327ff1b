#include "reading/event_sink.hpp"

#include <algorithm>
#include <cmath>

#include "reading/category.hpp"
#include "reading/number.hpp"
#include "reading/shape_text.hpp"
#include "util/addresses.hpp"

namespace tracediff::reading::detail {

namespace {
constexpr std::int64_t k_max_ts = std::int64_t{1} << 62;
constexpr std::int64_t k_min_ts = std::int64_t{1} << 60;
constexpr std::int64_t k_max_dur = std::int64_t{1} << 48;

std::string at(std::uint64_t offset) { return "byte " + std::to_string(offset) + ": "; }

// A field's value as a message shows it: missing, null, a number or a quoted string.
std::string describe(const FieldView& v) {
  switch (v.type) {
    case ValueType::missing: return "missing";
    case ValueType::null: return "null";
    case ValueType::other: return "not a number or string";
    case ValueType::number: return std::string(v.text.substr(0, 40));
    case ValueType::string: {
      // Messages go to a terminal: no control bytes from the file.
      std::string t(v.text.substr(0, 40));
      for (char& c : t)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
      return "\"" + t + (v.text.size() > 40 ? "...\"" : "\"");
    }
  }
  return {};
}

}  // namespace

void reserve_events(model::TraceFile& file, std::uint64_t json_size_hint, const ReadOptions& options) {
  // Complete events take 300-600 bytes of Kineto JSON; untouched capacity costs
  // address space, not memory.
  if (json_size_hint == 0) return;
  const auto n = std::min<std::uint64_t>(json_size_hint / 160, std::uint64_t{8} << 20);
  file.events.reserve(n);
  if (options.hta_compat) file.hta.reserve(n);
}

void TopKeys::begin(Key key, model::TraceFile& file, std::uint64_t offset) {
  static constexpr const char* k_name[] = {"traceEvents", "distributedInfo", "deviceProperties"};
  if (!m_seen[key]) {
    m_seen[key] = true;
    return;
  }
  std::string dropped;
  switch (key) {
    case trace_events:
      dropped = "the " + std::to_string(file.total_events) + " entries of the earlier one are dropped";
      file.events.clear();
      file.hta.clear();
      file.comm_tags.clear();
      file.kernel_work.clear();
      file.memory.clear();
      file.total_events = 0;
      file.hta_float_mode = false;
      file.truncated = false;
      break;
    case distributed_info:
      dropped = "the earlier one's rank and world size are dropped";
      file.rank = 0;
      file.rank_source = model::RankSource::fallback;
      file.world_size.reset();
      break;
    case device_properties:
      dropped = "the earlier one's " + std::to_string(file.gpu_names.size()) + " device names are dropped";
      file.gpu_names.clear();
      break;
    case k_count: return;
  }
  file.diagnostics.report(model::DiagId::file_duplicate_key, file.path, offset,
                          at(offset) + k_name[key] + " appears again: the last one counts, as with Python's json; " +
                              dropped);
}

void skip_file(ReadResult& result, model::DiagId id, std::string message) {
  result.skipped = id;
  result.message = message;
  result.file.diagnostics.report(id, result.file.path, 0, std::move(message));
}

// A file has a handful of categories: normalise each once, not per event.
const EventSink::CategoryEntry& EventSink::category(std::string_view raw) {
  if (m_last_category < m_categories.size() && m_categories[m_last_category].raw == raw)
    return m_categories[m_last_category];
  for (std::size_t i = 0; i < m_categories.size(); ++i) {
    if (m_categories[i].raw == raw) {
      m_last_category = i;
      return m_categories[i];
    }
  }
  m_last_category = m_categories.size();
  const std::string normalized = normalize_category(raw);
  // --hta-compat keys on the raw category, as HTA does.
  const auto id = m_file.pool.intern(m_options.hta_compat ? raw : normalized);
  return m_categories.emplace_back(CategoryEntry{std::string(raw), id, kind_of_category(normalized)});
}

// Consecutive events mostly share their pid and tid: skip the hash when it repeats.
std::uint32_t EventSink::intern_cached(std::string_view text, Interned& last) {
  if (last.valid && last.text == text) return last.id;
  last.text = text;
  last.id = m_file.pool.intern(text);
  last.valid = true;
  return last.id;
}

// A [memory] instant event: kept beside the events (model::MemoryEvent). One without a
// usable ts or Bytes is not a memory figure; it is dropped as other instants are.
void EventSink::add_memory(const EventFields& ev) {
  if (ev.ph.type != ValueType::string || ev.ph.text != "i" || ev.name.type != ValueType::string ||
      ev.name.text != "[memory]")
    return;
  const bool ts_text = ev.ts.type == ValueType::number || ev.ts.type == ValueType::string;
  const auto ts = ts_text ? parse_us_to_ns(ev.ts.text) : std::nullopt;
  const auto bytes = parse_integer(ev.bytes.text);
  if (!ts || *ts < -k_min_ts || *ts > k_max_ts || !bytes) return;
  const auto integer = [](const FieldView& v) -> std::optional<std::int64_t> {
    if (v.type != ValueType::number) return std::nullopt;
    return parse_integer(v.text);
  };
  model::MemoryEvent m;
  m.ts_ns = *ts;
  m.bytes = *bytes;
  if (const auto t = integer(ev.total_allocated); t && *t >= 0) m.total_allocated = *t;
  if (const auto t = integer(ev.total_reserved); t && *t >= 0) m.total_reserved = *t;
  if (const auto a = integer(ev.addr); a && *a >= 0) m.addr = static_cast<std::uint64_t>(*a);
  if (const auto t = integer(ev.device_type); t && *t >= 0 && *t < 128) m.device_type = static_cast<std::int8_t>(*t);
  if (const auto d = integer(ev.device_id); d && *d >= -1 && *d < 32768) m.device_id = static_cast<std::int16_t>(*d);
  m.pid = intern_cached(ev.pid.text, m_last_pid);
  m.tid = intern_cached(ev.tid.text, m_last_tid);
  m_file.memory.push_back(m);
}

void EventSink::add(const EventFields& ev, std::uint64_t offset) {
  using model::DiagId;
  const std::uint64_t index = m_file.total_events++;
  const bool hta = m_options.hta_compat;

  // HTA rounds every ts of the file once any ts is fractional or missing (§2.2).
  // Only --hta-compat reads that.
  const bool ts_integral = hta && ev.ts.type == ValueType::number &&
                           std::none_of(ev.ts.text.begin(), ev.ts.text.end(),
                                        [](char c) { return c == '.' || c == 'e' || c == 'E'; });
  if (hta && (ev.ts.type == ValueType::missing || ev.ts.type == ValueType::null ||
              (ev.ts.type == ValueType::number && !ts_integral)))
    m_file.hta_float_mode = true;

  const bool is_complete = ev.ph.type == ValueType::string && ev.ph.text == "X";
  if (!is_complete && ev.bytes.type == ValueType::number && !hta) return add_memory(ev);
  if (hta) {
    // HTA keeps any event with a dur and a cat, whatever its phase (§2.3).
    if (ev.dur.type != ValueType::number || ev.cat.type != ValueType::string ||
        ev.cat.text == "Trace")
      return;
  } else {
    if (!is_complete) return;  // instant, flow, metadata and counter events carry no op time
    if (ev.cat.type != ValueType::string) {
      m_file.diagnostics.report(DiagId::event_no_category, m_file.path, offset,
                                at(offset) + "complete event without cat");
      return;
    }
    if (ev.cat.text == "Trace") return;  // the profiler's own span
  }

  const bool ts_text = ev.ts.type == ValueType::number || ev.ts.type == ValueType::string;
  const auto ts = ts_text ? parse_us_to_ns(ev.ts.text) : std::nullopt;
  if (!ts) {
    m_file.diagnostics.report(DiagId::event_missing_ts, m_file.path, offset,
                              at(offset) + "complete event without a usable ts (" + describe(ev.ts) +
                                  "; a finite number of µs within int64 ns is needed)");
    return;
  }
  const bool dur_text = ev.dur.type == ValueType::number || ev.dur.type == ValueType::string;
  const auto dur = dur_text ? parse_us_to_ns(ev.dur.text) : std::nullopt;
  if (!dur) {
    m_file.diagnostics.report(DiagId::event_bad_dur, m_file.path, offset,
                              at(offset) + (ev.dur.type == ValueType::missing
                                                ? std::string("complete event without dur")
                                                : "dur is not a usable number (" + describe(ev.dur) + ")"));
    return;
  }

  // Bounds that keep the analysis' arithmetic (ends, and differences of starts and
  // ends of any two events) inside int64: ts within [-2^60, 2^62] ns (1933..2116 as
  // epoch time), dur at most 2^48 ns (78 hours). Fuzzing found ts + dur overflowing.
  if (*ts < -k_min_ts || *ts > k_max_ts) {
    m_file.diagnostics.report(DiagId::event_missing_ts, m_file.path, offset,
                              at(offset) + "ts " + describe(ev.ts) + " is out of range (years 1933 to 2116)");
    return;
  }
  if (*dur > k_max_dur) {
    m_file.diagnostics.report(DiagId::event_bad_dur, m_file.path, offset,
                              at(offset) + "dur " + describe(ev.dur) + " is longer than 78 hours");
    return;
  }

  model::Event e;
  e.ts_ns = *ts;
  e.dur_ns = *dur;
  e.has_dur = true;
  if (e.dur_ns < 0 && !hta) {
    // Kineto before 2022-08 could write negative durations (kineto c4597ab3).
    m_file.diagnostics.report(DiagId::event_negative_dur, m_file.path, offset,
                              at(offset) + "negative dur " + std::string(ev.dur.text) + " clamped to 0");
    e.dur_ns = 0;
    e.negative_dur = true;
  }
  const auto& cat = category(ev.cat.text);
  e.category = cat.id;
  e.kind = cat.kind;
  // A Python frame's object address differs in every process: the same frame, one name
  // (HTA's mode keeps names as written).
  e.name = m_file.pool.intern(e.kind == model::Kind::python_function && !m_options.hta_compat
                                  ? without_object_addresses(ev.name.text, m_scratch_name)
                                  : ev.name.text);
  e.pid = intern_cached(ev.pid.text, m_last_pid);
  e.tid = intern_cached(ev.tid.text, m_last_tid);
  if (ev.correlation.type == ValueType::number) {
    if (auto c = parse_integer(ev.correlation.text)) e.correlation = *c;
  }
  if (!ev.dims.empty() && e.kind == model::Kind::cpu_op) {
    shape_key(ev.dims, ev.types, m_shape);
    e.shape = m_file.pool.intern(m_shape);
  }
  m_file.events.push_back(e);
  // A collective's sequence number, beside the event (it would not fit in it).
  if (ev.seq.type == ValueType::number || ev.seq.type == ValueType::string) {
    if (const auto seq = parse_integer(ev.seq.text); seq && *seq >= 0) {
      const bool named = ev.group.type == ValueType::string || ev.group.type == ValueType::number;
      m_file.comm_tags.push_back({static_cast<std::uint32_t>(m_file.events.size() - 1),
                                  named ? m_file.pool.intern(ev.group.text) : ~0u, *seq});
    }
  }
  // Inductor's figures, on GPU work only: a finite, non-negative number or nothing.
  if (e.kind == model::Kind::kernel &&
      (ev.kernel_flop.type == ValueType::number || ev.kernel_num_gb.type == ValueType::number)) {
    const auto figure = [](const FieldView& v, double scale) {
      const auto d = v.type == ValueType::number ? parse_double(v.text) : std::nullopt;
      return d && std::isfinite(*d * scale) && *d >= 0 ? *d * scale : -1.0;
    };
    const model::KernelWork w{static_cast<std::uint32_t>(m_file.events.size() - 1), figure(ev.kernel_flop, 1),
                              figure(ev.kernel_num_gb, 1e9)};
    if (w.flop >= 0 || w.bytes >= 0) m_file.kernel_work.push_back(w);
  }

  if (hta) {
    model::HtaFields h;
    h.ts = parse_double(ev.ts.text).value_or(NAN);
    h.dur = parse_double(ev.dur.text).value_or(NAN);
    h.index = static_cast<std::uint32_t>(index);
    h.ts_integral = ts_integral;
    // pandas to_numeric, NaN -> -1, then truncation to int (§2.4): "7" -> 7, "0x0" -> -1.
    if (ev.stream.type == ValueType::number || ev.stream.type == ValueType::string) {
      if (auto s = parse_double(ev.stream.text)) h.stream = static_cast<std::int64_t>(std::trunc(*s));
    }
    m_file.hta.push_back(h);
  }
}

}  // namespace tracediff::reading::detail
