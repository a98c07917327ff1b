#include "model/event_accounting.hpp"

#include <limits>

namespace tracediff::model {

namespace {

std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  if (b > 0 && a > std::numeric_limits<std::int64_t>::max() - b) return std::numeric_limits<std::int64_t>::max();
  if (b < 0 && a < std::numeric_limits<std::int64_t>::min() - b) return std::numeric_limits<std::int64_t>::min();
  return a + b;
}

}  // namespace

const char* event_stream_name(EventStream s) {
  switch (s) {
    case EventStream::host: return "host";
    case EventStream::gpu: return "gpu";
    case EventStream::memory: return "memory";
  }
  return "?";
}

const char* left_out_name(LeftOut r) {
  switch (r) {
    case LeftOut::outside_steps: return "outside_steps";
    case LeftOut::warmup: return "warmup";
    case LeftOut::not_selected: return "not_selected";
    case LeftOut::step_span: return "step_span";
    case LeftOut::profiler: return "profiler";
    case LeftOut::unlinked: return "unlinked";
    case LeftOut::repeated_step: return "repeated_step";
    case LeftOut::no_operator: return "no_operator";
    case LeftOut::not_allocation: return "not_allocation";
    case LeftOut::device_span: return "device_span";
  }
  return "?";
}

const char* left_out_label(LeftOut r) {
  switch (r) {
    case LeftOut::outside_steps: return "outside every step";
    case LeftOut::warmup: return "warm-up steps";
    case LeftOut::not_selected: return "not selected (ranks, steps, device, categories)";
    case LeftOut::step_span: return "the step spans themselves";
    case LeftOut::profiler: return "the profiler's own work";
    case LeftOut::unlinked: return "GPU work without its launch, outside every step";
    case LeftOut::repeated_step: return "in a repeated step number";
    case LeftOut::no_operator: return "allocations with no operator open";
    case LeftOut::not_allocation: return "frees and host memory";
    case LeftOut::device_span: return "GPU-side annotation spans in no step";
  }
  return "?";
}

bool left_out_warns(LeftOut r) {
  return r == LeftOut::profiler || r == LeftOut::unlinked || r == LeftOut::repeated_step;
}

void Tally::add(std::int64_t t) {
  ++events;
  ns = sat_add(ns, t);
}

Tally& Tally::operator+=(const Tally& o) {
  events += o.events;
  ns = sat_add(ns, o.ns);
  return *this;
}

Tally& Tally::operator-=(const Tally& o) {
  events -= o.events;
  ns = sat_add(ns, -o.ns);
  return *this;
}

Tally StreamAccount::left_out_total() const {
  Tally t;
  for (const auto& r : left_out) t += r;
  return t;
}

Accounting& Accounting::operator+=(const Accounting& o) {
  recorded = recorded || o.recorded;
  for (std::size_t s = 0; s < k_event_streams; ++s) {
    streams[s].read += o.streams[s].read;
    streams[s].rows += o.streams[s].rows;
    for (std::size_t r = 0; r < k_left_out_reasons; ++r) streams[s].left_out[r] += o.streams[s].left_out[r];
  }
  broken += o.broken;
  every_step_count += o.every_step_count;
  return *this;
}

bool Accounting::adds_up() const {
  for (const auto& s : streams)
    if (s.rows.events + s.left_out_total().events != s.read.events) return false;
  return true;
}

}  // namespace tracediff::model
