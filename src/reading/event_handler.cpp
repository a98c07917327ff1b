#include "reading/event_handler.hpp"

#include <algorithm>

#include "reading/number.hpp"

namespace tracediff::reading::detail {

void EventHandler::PendingEvent::clear() {
  for (Value* v : {&ph, &cat, &name, &pid, &tid, &ts, &dur, &correlation, &stream, &seq, &group, &bytes,
                   &total_allocated, &total_reserved, &addr, &device_type, &device_id, &kernel_flop, &kernel_num_gb}) {
    v->type = ValueType::missing;
    v->text.clear();
  }
}

EventHandler::EventHandler(model::TraceFile& file, const ReadOptions& options)
    : m_file(file), m_sink(file, options), m_by_shape(options.by_shape) {}

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
    if (k == "Seq" || k == "seq") return Field::seq;
    if (k == "Process Group Name") return Field::group;
    if (k == "Bytes") return Field::bytes;
    if (k == "Total Allocated") return Field::total_allocated;
    if (k == "Total Reserved") return Field::total_reserved;
    if (k == "Addr") return Field::addr;
    if (k == "Device Type") return Field::device_type;
    if (k == "Device Id") return Field::device_id;
    if (k == "kernel_flop") return Field::kernel_flop;
    if (k == "kernel_num_gb") return Field::kernel_num_gb;
    if (m_by_shape && k == "Input Dims") return Field::dims;
    if (m_by_shape && k == "Input type") return Field::types;
    return Field::none;
  }
  if (m_top == Top::object && d == 1) {
    if (k == "traceEvents") return Field::trace_events;
    if (k == "distributedInfo") return Field::distributed_info;
    if (k == "deviceProperties") return Field::device_properties;
    if (k == "baseTimeNanoseconds") return Field::base_time;
    if (k == "cuda_runtime_version") return Field::cuda_runtime;
    if (k == "cuda_driver_version") return Field::cuda_driver;
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
  if (m_keybuf.empty()) {
    note_key_position(s.data());
    m_key_start = s.data();
  }
  // Keys we care about are short; don't buffer long ones.
  if (m_keybuf.size() < 64) m_keybuf.append(s.data(), std::min<std::size_t>(s.size(), 64));
  return true;
}

bool EventHandler::on_key(string_view s, std::size_t n, error_code&) {
  if (s.size() == n) {  // the whole key is in this view
    note_key_position(s.data());
    m_key_start = s.data();
  }
  if (m_keybuf.size() < 64) m_keybuf.append(s.data(), std::min<std::size_t>(s.size(), 64));
  if (m_top == Top::object && m_depth == 1) {
    // Its quote, when the key's bytes are the input's (not the parser's copy of a
    // key split between two writes); else where this input starts.
    const std::less_equal<const char*> le;
    const bool in_input = m_input && m_key_start && le(m_input + 1, m_key_start) && le(m_key_start, m_input + m_input_size);
    m_top_key_offset = in_input ? m_offset + static_cast<std::uint64_t>(m_key_start - m_input) - 1 : m_offset;
  }
  m_key_start = nullptr;
  const Field f = classify_key(m_keybuf);
  m_keybuf.clear();
  const int d = m_depth;
  if (m_in_event && d == m_events_depth + 1) m_ev_key = f;
  else if (m_in_args && d == m_events_depth + 2) m_args_key = f;
  else if (m_top == Top::object && d == 1) m_top_key = f;
  else m_sub_key = f;
  return true;
}

// The builder of the shape value being read: args["Input Dims"] or ["Input type"]
// at args depth, or anything nested in it.
ShapeBuilder* EventHandler::shape_target() {
  if (!m_in_args || m_depth < m_events_depth + 2) return nullptr;
  if (m_args_key == Field::dims) return &m_dims;
  if (m_args_key == Field::types) return &m_types;
  return nullptr;
}

bool EventHandler::on_object_begin(error_code&) {
  if (ShapeBuilder* b = shape_target()) {
    if (m_depth == m_events_depth + 2) (b == &m_dims ? m_dims_text : m_types_text).clear();
    b->other();
  }
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
    m_dims_text.clear();
    m_types_text.clear();
    m_ev_key = Field::none;
    ++m_event_objects;
  } else if (m_in_event && m_depth == m_events_depth + 1 && m_ev_key == Field::args) {
    m_in_args = true;
    m_args_key = Field::none;
  } else if (m_top == Top::object && m_depth == 1 && m_top_key == Field::distributed_info) {
    m_top_keys.begin(TopKeys::distributed_info, m_file, m_top_key_offset);
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
  if (ShapeBuilder* b = shape_target()) {
    if (m_depth == m_events_depth + 2) b->reset();
    b->begin_array();
  }
  if (m_resume_events) {
    m_resume_events = false;
    m_top_keys.mark(TopKeys::trace_events);
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
             m_section != Section::events) {
    // The last traceEvents counts (TopKeys): a second one starts the events again.
    m_top_keys.begin(TopKeys::trace_events, m_file, m_top_key_offset);
    m_section = Section::events;
    m_events_depth = 2;
    m_saw_events = true;
  } else if (m_top == Top::object && m_depth == 1 && m_top_key == Field::device_properties) {
    m_top_keys.begin(TopKeys::device_properties, m_file, m_top_key_offset);
    m_device_array = true;
  }
  ++m_depth;
  return true;
}

bool EventHandler::on_array_end(std::size_t, error_code&) {
  --m_depth;
  if (ShapeBuilder* b = shape_target()) {
    b->end_array();
    if (m_depth == m_events_depth + 2) (b == &m_dims ? m_dims_text : m_types_text) = b->text();
  }
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
    if (m_args_key == Field::seq) return &m_ev.seq;
    if (m_args_key == Field::group) return &m_ev.group;
    switch (m_args_key) {
      case Field::bytes: return &m_ev.bytes;
      case Field::total_allocated: return &m_ev.total_allocated;
      case Field::total_reserved: return &m_ev.total_reserved;
      case Field::addr: return &m_ev.addr;
      case Field::device_type: return &m_ev.device_type;
      case Field::device_id: return &m_ev.device_id;
      case Field::kernel_flop: return &m_ev.kernel_flop;
      case Field::kernel_num_gb: return &m_ev.kernel_num_gb;
      default: break;
    }
  }
  return nullptr;
}

bool EventHandler::wants_top_scalar() const {
  return (m_top == Top::object && m_depth == 1 &&
          (m_top_key == Field::base_time || m_top_key == Field::cuda_runtime || m_top_key == Field::cuda_driver)) ||
         (m_in_dist_info && m_depth == 2) || (m_in_device && m_depth == 3);
}

bool EventHandler::on_string_part(string_view s, std::size_t, error_code&) {
  if (m_in_event ? target() == nullptr && !shape_target() : !wants_top_scalar()) return true;
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
                                "byte " + std::to_string(event_offset()) + ": event name longer than 1 MiB truncated");
    }
    v->set(ValueType::string, m_strbuf);
  } else if (ShapeBuilder* b = m_in_event ? shape_target() : nullptr) {
    if (m_depth == m_events_depth + 2) b->reset();  // a scalar, not a list
    b->string(m_str_truncated ? std::string_view("\x01") : std::string_view(m_strbuf));
    if (m_depth == m_events_depth + 2) (b == &m_dims ? m_dims_text : m_types_text) = b->text();
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
  else if (ShapeBuilder* b = m_in_event ? shape_target() : nullptr) {
    if (m_depth == m_events_depth + 2) b->reset();
    b->number(m_numbuf.size() < 64 ? std::string_view(m_numbuf) : std::string_view("x"));
    if (m_depth == m_events_depth + 2) (b == &m_dims ? m_dims_text : m_types_text) = b->text();
  } else if (!m_in_event && wants_top_scalar()) on_top_scalar(ValueType::number, m_numbuf);
  m_numbuf.clear();
  return true;
}

bool EventHandler::on_scalar() {
  if (ShapeBuilder* b = m_in_event ? shape_target() : nullptr) {
    if (m_depth == m_events_depth + 2) (b == &m_dims ? m_dims_text : m_types_text).clear();
    b->other();
  }
  if (Value* v = m_in_event ? target() : nullptr) v->set(ValueType::other, {});
  return true;
}

bool EventHandler::on_null_value() {
  if (ShapeBuilder* b = m_in_event ? shape_target() : nullptr) {
    if (m_depth == m_events_depth + 2) (b == &m_dims ? m_dims_text : m_types_text).clear();
    b->other();
  }
  if (Value* v = m_in_event ? target() : nullptr) v->set(ValueType::null, {});
  return true;
}

void EventHandler::on_top_scalar(ValueType type, std::string_view text) {
  if (m_top == Top::object && m_depth == 1 && m_top_key == Field::base_time) {
    if (auto v = parse_integer(text)) m_file.base_time_ns = *v;
  } else if (m_top == Top::object && m_depth == 1 &&
             (m_top_key == Field::cuda_runtime || m_top_key == Field::cuda_driver)) {
    if (auto v = parse_integer(text); v && *v >= 0)
      (m_top_key == Field::cuda_runtime ? m_file.cuda_runtime_version : m_file.cuda_driver_version) = *v;
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

void EventHandler::finish_event() {
  const auto view = [](const Value& v) { return FieldView{v.type, v.text}; };
  m_sink.add(EventFields{view(m_ev.ph), view(m_ev.cat), view(m_ev.name), view(m_ev.pid), view(m_ev.tid),
                         view(m_ev.ts), view(m_ev.dur), view(m_ev.correlation), view(m_ev.stream),
                         m_dims_text, m_types_text, view(m_ev.seq), view(m_ev.group), view(m_ev.bytes),
                         view(m_ev.total_allocated), view(m_ev.total_reserved), view(m_ev.addr),
                         view(m_ev.device_type), view(m_ev.device_id), view(m_ev.kernel_flop),
                         view(m_ev.kernel_num_gb)},
             event_offset());
}

}  // namespace tracediff::reading::detail
