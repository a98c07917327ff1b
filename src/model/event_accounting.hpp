#pragma once
// Every event accounted for (docs/reading-the-report.md "Every event accounted for"): for a
// file and a side, how many events, and how much time, were read, went into rows, and were
// left out by a named reason. For each stream, read = rows + the reasons, to the event.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tracediff::model {

// What is counted apart: host events (time: self time, so that a thread's add up to its
// busy time), device events (time: GPU work's duration; spans such as an annotation's GPU
// copy are counted, with no time) and [memory] events (no time).
enum class EventStream : std::uint8_t { host, gpu, memory };
inline constexpr std::size_t k_event_streams = 3;
const char* event_stream_name(EventStream s);  // "host", "gpu", "memory"

// Why an event that was read is in no row. Ids are an API (JSON); add, never rename.
enum class LeftOut : std::uint8_t {
  outside_steps,   // outside every step (before the first, between, after the last)
  warmup,          // in a warm-up step (docs/is-it-real.md)
  not_selected,    // a rank, step or device the options left out (--ranks, --iterations, --device, --categories)
  step_span,       // the step spans themselves (ProfilerStep#N, its GPU copy, a marker's spans): step times
  profiler,        // torch.profiler's own frames and what runs wholly inside them
  unlinked,        // GPU work without its launch, outside every step by its GPU time
  repeated_step,   // in a ProfilerStep span whose number its process already had (step_number_repeated)
  no_operator,     // memory: an allocation with no operator open on its thread (in the memory figures)
  not_allocation,  // memory: a free, or host memory (in the memory figures, charged to no operator)
  device_span,     // a device-side span that is not GPU work (an annotation's GPU copy) placed in no step
};
inline constexpr std::size_t k_left_out_reasons = 10;
const char* left_out_name(LeftOut r);   // "outside_steps", ...
const char* left_out_label(LeftOut r);  // "outside every step", ...
// A reason that says the data did not reach the rows by accident rather than by
// definition or choice: the warning's reasons (not outside steps, warm-up, selection,
// step spans, or memory events that are in the memory figures).
bool left_out_warns(LeftOut r);

struct Tally {
  std::uint64_t events = 0;
  std::int64_t ns = 0;  // saturating
  void add(std::int64_t t);
  Tally& operator+=(const Tally& o);
  Tally& operator-=(const Tally& o);
};

struct StreamAccount {
  Tally read, rows;
  std::array<Tally, k_left_out_reasons> left_out{};
  Tally& reason(LeftOut r) { return left_out[static_cast<std::size_t>(r)]; }
  const Tally& reason(LeftOut r) const { return left_out[static_cast<std::size_t>(r)]; }
  Tally left_out_total() const;
};

struct Accounting {
  bool recorded = false;  // false: a summary written before tracediff kept the accounting
  std::array<StreamAccount, k_event_streams> streams{};
  // Events the reader could not read (corrupt, without ts, dur or cat): their stream is
  // unknown; the file's diagnostics say which (event_corrupt, ...).
  std::uint64_t broken = 0;
  // Host operator names that occur in every step of the file and are in no row (left out
  // for a warning's reason in each), at most k_names_kept; names_left_out counts them all.
  std::vector<std::string> every_step_names;
  std::uint64_t every_step_count = 0;
  static constexpr std::size_t k_names_kept = 5;

  StreamAccount& stream(EventStream s) { return streams[static_cast<std::size_t>(s)]; }
  const StreamAccount& stream(EventStream s) const { return streams[static_cast<std::size_t>(s)]; }
  // Adds another file's (a side's total); names are not summed.
  Accounting& operator+=(const Accounting& o);
  // Whether read = rows + left out holds for every stream, to the event.
  bool adds_up() const;
};

}  // namespace tracediff::model
