#pragma once
// What both readers do with one event once its fields are known: decide whether it
// is kept (complete, with a category and usable ts and dur), report why not, and
// append it to the TraceFile. Internal to reading/.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.hpp"
#include "reading/trace_reader.hpp"

namespace tracediff::reading::detail {

enum class ValueType : std::uint8_t { missing, null, number, string, other };

// A kept field's value as written: its type and, for numbers and strings, its text.
struct FieldView {
  ValueType type = ValueType::missing;
  std::string_view text;
};

// The fields of one traceEvents entry that the analysis uses.
struct EventFields {
  FieldView ph, cat, name, pid, tid, ts, dur, correlation, stream;
  // --by-shape: canonical args["Input Dims"] and args["Input type"] (shape_text.hpp),
  // empty when absent or not a shape.
  std::string_view dims, types;
  // A collective's NCCL sequence number (args "Seq") and process group ("Process Group
  // Name"), on record_param_comms and on newer traces' NCCL kernels.
  FieldView seq, group;
  // A [memory] instant event's args (profile_memory=True): Bytes, and where the trace
  // has them the allocator's totals, the address and the device.
  FieldView bytes, total_allocated, total_reserved, addr, device_type, device_id;
  // Inductor's figures of a kernel: args kernel_flop and kernel_num_gb (model::KernelWork).
  FieldView kernel_flop, kernel_num_gb;
};

// Room for a file's events up front, from the JSON size hint: growing by doubling
// would briefly hold two copies of the largest array (2.5x a file's events at peak).
void reserve_events(model::TraceFile& file, std::uint64_t json_size_hint, const ReadOptions& options);

// Marks the file unusable: the reason goes to result and to the file's diagnostics.
void skip_file(ReadResult& result, model::DiagId id, std::string message);

// The top-level members both readers keep, met one after another. A key given twice
// is JSON all the same, and Python's json.load (so HTA) keeps the last: so do we. Each
// reader calls begin() as a kept value (traceEvents' array, distributedInfo's object,
// deviceProperties' array) starts: a second one is reported (file_duplicate_key) and
// what the earlier one gave is dropped first.
class TopKeys {
 public:
  enum Key : std::uint8_t { trace_events, distributed_info, device_properties, k_count };
  // `offset`: the key's opening quote in the (inflated) JSON.
  void begin(Key key, model::TraceFile& file, std::uint64_t offset);
  // Seen without its key (the tolerant reader found the events after broken metadata).
  void mark(Key key) { m_seen[key] = true; }

 private:
  bool m_seen[k_count] = {};
};

class EventSink {
 public:
  EventSink(model::TraceFile& file, const ReadOptions& options) : m_file(file), m_options(options) {}
  // One traceEvents object. `offset` locates it in messages (its first key's quote).
  void add(const EventFields& ev, std::uint64_t offset);

 private:
  struct CategoryEntry {
    std::string raw;
    std::uint32_t id;  // pool id of the normalised (or, --hta-compat, raw) category
    model::Kind kind;
  };
  struct Interned {
    std::string text;
    std::uint32_t id = 0;
    bool valid = false;
  };
  const CategoryEntry& category(std::string_view raw);
  void add_memory(const EventFields& ev);
  std::uint32_t intern_cached(std::string_view text, Interned& last);

  model::TraceFile& m_file;
  const ReadOptions& m_options;
  std::vector<CategoryEntry> m_categories;
  std::size_t m_last_category = 0;  // runs of events share their category
  Interned m_last_pid, m_last_tid;
  std::string m_shape;  // scratch for the shape's text
  std::string m_scratch_name;  // scratch for a Python frame's name without its object address
};

}  // namespace tracediff::reading::detail
