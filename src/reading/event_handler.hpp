#pragma once
// The Boost.JSON basic_parser handler behind trace_reader: a small state machine
// over nesting depth that fills a model::TraceFile. Internal to reading/.
#include <boost/json/basic_parser.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.hpp"
#include "reading/event_sink.hpp"
#include "reading/shape_text.hpp"
#include "reading/trace_reader.hpp"

namespace tracediff::reading::detail {

using boost::json::error_code;
using boost::json::string_view;

class EventHandler {
 public:
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
  // Names are kept up to this size; a longer one is truncated and counted.
  static constexpr std::size_t k_max_name = 1 << 20;

  enum class Section : std::uint8_t { none, events, after_events };
  enum class Top : std::uint8_t { unknown, object, array };

  EventHandler(model::TraceFile& file, const ReadOptions& options);

  // Resynchronisation after a syntax error: the next parser is fed a synthetic "["
  // (resume_in_events) or "{" (resume_after_events) so it starts in the right place.
  // Both also forget any half-read key, string or number of the broken parse.
  void resume_in_events();
  void resume_after_events();
  void drop_partial_event() { m_in_event = m_in_args = false; }
  bool in_event() const { return m_in_event; }
  // Containers open inside traceEvents (1 = inside an event object, not deeper).
  int open_in_events() const { return m_depth - m_events_depth; }
  // Offset of the opening quote of the current event's first key, if it was seen in
  // the input given to set_input (repair finds the event's "{" from it).
  std::optional<std::uint64_t> event_key_offset() const { return m_event_key_offset; }
  // The resynchroniser found the "]" that closes traceEvents.
  void end_events() {
    m_section = Section::after_events;
    m_depth = m_events_depth - 1;
  }
  bool object_open() const { return m_depth > 0; }

  Section section() const { return m_section; }
  Top top() const { return m_top; }
  bool saw_trace_events() const { return m_saw_events; }
  std::uint64_t event_objects() const { return m_event_objects; }
  // The bytes the next parser write reads and their offset in the (inflated) JSON:
  // key pointers into them give events' positions for diagnostics and repair.
  void set_input(const char* data, std::size_t size, std::uint64_t offset) {
    m_input = data;
    m_input_size = size;
    m_offset = offset;
  }

  // basic_parser callbacks.
  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&);
  bool on_object_end(std::size_t, error_code&);
  bool on_array_begin(error_code&);
  bool on_array_end(std::size_t, error_code&);
  bool on_key_part(string_view s, std::size_t, error_code&);
  bool on_key(string_view s, std::size_t, error_code&);
  bool on_string_part(string_view s, std::size_t, error_code&);
  bool on_string(string_view s, std::size_t, error_code&);
  bool on_number_part(string_view s, error_code&);
  bool on_int64(std::int64_t, string_view s, error_code&) { return on_number(s); }
  bool on_uint64(std::uint64_t, string_view s, error_code&) { return on_number(s); }
  bool on_double(double, string_view s, error_code&) { return on_number(s); }
  bool on_bool(bool, error_code&) { return on_scalar(); }
  bool on_null(error_code&) { return on_null_value(); }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  // Fields of an event or of its args that we keep; everything else is skipped.
  enum class Field : std::uint8_t {
    none, ph, cat, name, pid, tid, ts, dur, args,              // event level
    correlation, stream, dims, types, seq, group,              // args level
    bytes, total_allocated, total_reserved, addr, device_type, device_id,  // [memory] args
    kernel_flop, kernel_num_gb,                                // Inductor's kernel args
    trace_events, distributed_info, device_properties, base_time,  // top level
    cuda_runtime, cuda_driver,
    rank, world_size, device_name,                             // inside top-level objects
  };
  struct Value {
    ValueType type = ValueType::missing;
    std::string text;
    void set(ValueType t, std::string_view s) {
      type = t;
      text.assign(s.data(), s.size());
    }
  };
  struct PendingEvent {
    Value ph, cat, name, pid, tid, ts, dur, correlation, stream, seq, group;
    Value bytes, total_allocated, total_reserved, addr, device_type, device_id;
    Value kernel_flop, kernel_num_gb;
    void clear();
  };

  Field classify_key(std::string_view key) const;
  Value* target();
  bool wants_top_scalar() const;  // the event/args value the current scalar belongs to, if kept
  bool on_number(string_view s);
  bool on_scalar();
  bool on_null_value();
  // --by-shape: the builder a token inside args["Input Dims"]/["Input type"] goes to.
  ShapeBuilder* shape_target();
  void on_top_scalar(ValueType type, std::string_view text);
  void finish_event();
  void note_key_position(const char* p);
  std::uint64_t event_offset() const { return m_event_key_offset.value_or(m_offset); }
  void clear_buffers();

  model::TraceFile& m_file;
  EventSink m_sink;
  TopKeys m_top_keys;
  const char* m_key_start = nullptr;  // the current key's first byte, where the parser gave it
  std::uint64_t m_top_key_offset = 0;  // the last top-level key's opening quote
  int m_depth = 0;
  int m_events_depth = -1;  // depth of the traceEvents array's elements' container
  Top m_top = Top::unknown;
  Section m_section = Section::none;
  bool m_saw_events = false;
  bool m_in_event = false;
  bool m_in_args = false;
  Field m_ev_key = Field::none;    // last key of the current event
  Field m_args_key = Field::none;  // last key of the current event's args
  Field m_top_key = Field::none;   // last key of the top-level object
  Field m_sub_key = Field::none;   // last key inside distributedInfo / deviceProperties[i]
  bool m_in_dist_info = false;
  bool m_in_device = false;
  bool m_device_array = false;
  bool m_resume_events = false;
  bool m_resume_object = false;
  std::string m_keybuf;
  std::string m_strbuf;
  std::string m_numbuf;
  bool m_str_truncated = false;
  PendingEvent m_ev;
  bool m_by_shape = false;
  ShapeBuilder m_dims{false}, m_types{true};
  std::string m_dims_text, m_types_text;  // the current event's, once complete
  std::uint64_t m_event_objects = 0;
  std::uint64_t m_offset = 0;  // byte offset of the current input, for messages
  const char* m_input = nullptr;
  std::size_t m_input_size = 0;
  std::optional<std::uint64_t> m_event_key_offset;  // see event_key_offset()
};

}  // namespace tracediff::reading::detail
