#include "support/reader_diff.hpp"

#include <cmath>
#include <sstream>

namespace tracediff::test {

namespace {

template <typename T>
bool differ(std::ostringstream& out, const char* what, const T& a, const T& b) {
  if (a == b) return false;
  out << what << " differs";
  return true;
}

bool same_double(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

std::string first_difference(const reading::ReadResult& ra, const reading::ReadResult& rb) {
  std::ostringstream out;
  const auto& a = ra.file;
  const auto& b = rb.file;
  if (differ(out, "skipped", ra.skipped, rb.skipped) || differ(out, "skip message", ra.message, rb.message) ||
      differ(out, "rank", a.rank, b.rank) || differ(out, "rank source", a.rank_source, b.rank_source) ||
      differ(out, "world size", a.world_size, b.world_size) ||
      differ(out, "base time", a.base_time_ns, b.base_time_ns) ||
      differ(out, "gpu names", a.gpu_names, b.gpu_names) ||
      differ(out, "cuda runtime", a.cuda_runtime_version, b.cuda_runtime_version) ||
      differ(out, "cuda driver", a.cuda_driver_version, b.cuda_driver_version) ||
      differ(out, "total events", a.total_events, b.total_events) ||
      differ(out, "event count", a.events.size(), b.events.size()) ||
      differ(out, "hta count", a.hta.size(), b.hta.size()) ||
      differ(out, "hta float mode", a.hta_float_mode, b.hta_float_mode) ||
      differ(out, "truncated", a.truncated, b.truncated) || differ(out, "gzip", a.gzip, b.gzip) ||
      differ(out, "json bytes", a.json_bytes, b.json_bytes) ||
      differ(out, "bytes on disk", a.bytes_on_disk, b.bytes_on_disk))
    return out.str();
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    const auto& x = a.events[i];
    const auto& y = b.events[i];
    // Pool ids may differ in order only if interning order differs: compare text.
    const bool same = x.ts_ns == y.ts_ns && x.dur_ns == y.dur_ns && x.correlation == y.correlation &&
                      a.pool.get(x.name) == b.pool.get(y.name) &&
                      a.pool.get(x.category) == b.pool.get(y.category) &&
                      a.pool.get(x.pid) == b.pool.get(y.pid) && a.pool.get(x.tid) == b.pool.get(y.tid) &&
                      x.kind == y.kind && x.has_dur == y.has_dur && x.negative_dur == y.negative_dur &&
                      (x.shape == ~0u) == (y.shape == ~0u) &&
                      (x.shape == ~0u || a.pool.get(x.shape) == b.pool.get(y.shape));
    if (!same) {
      out << "event " << i << " differs (" << a.pool.get(x.name) << " / " << b.pool.get(y.name) << ")";
      return out.str();
    }
  }
  if (differ(out, "memory event count", a.memory.size(), b.memory.size())) return out.str();
  for (std::size_t i = 0; i < a.memory.size(); ++i) {
    const auto& x = a.memory[i];
    const auto& y = b.memory[i];
    if (x.ts_ns != y.ts_ns || x.bytes != y.bytes || x.total_allocated != y.total_allocated ||
        x.total_reserved != y.total_reserved || x.addr != y.addr || x.device_type != y.device_type ||
        x.device_id != y.device_id || a.pool.get(x.pid) != b.pool.get(y.pid) || a.pool.get(x.tid) != b.pool.get(y.tid)) {
      out << "memory event " << i << " differs";
      return out.str();
    }
  }
  if (differ(out, "comm tag count", a.comm_tags.size(), b.comm_tags.size())) return out.str();
  for (std::size_t i = 0; i < a.comm_tags.size(); ++i) {
    const auto& x = a.comm_tags[i];
    const auto& y = b.comm_tags[i];
    if (x.event != y.event || x.seq != y.seq || (x.group == ~0u) != (y.group == ~0u) ||
        (x.group != ~0u && a.pool.get(x.group) != b.pool.get(y.group))) {
      out << "comm tag " << i << " differs";
      return out.str();
    }
  }
  if (differ(out, "kernel work count", a.kernel_work.size(), b.kernel_work.size())) return out.str();
  for (std::size_t i = 0; i < a.kernel_work.size(); ++i) {
    const auto& x = a.kernel_work[i];
    const auto& y = b.kernel_work[i];
    if (x.event != y.event || !same_double(x.flop, y.flop) || !same_double(x.bytes, y.bytes)) {
      out << "kernel work " << i << " differs";
      return out.str();
    }
  }
  for (std::size_t i = 0; i < a.hta.size(); ++i) {
    const auto& x = a.hta[i];
    const auto& y = b.hta[i];
    if (!same_double(x.ts, y.ts) || !same_double(x.dur, y.dur) || x.stream != y.stream || x.index != y.index ||
        x.ts_integral != y.ts_integral) {
      out << "hta fields of event " << i << " differ";
      return out.str();
    }
  }
  for (std::size_t id = 0; id < model::k_diag_count; ++id) {
    const auto d = static_cast<model::DiagId>(id);
    if (a.diagnostics.count(d) != b.diagnostics.count(d)) {
      out << "diagnostic count of " << model::diag_name(d) << " differs: " << a.diagnostics.count(d) << " vs "
          << b.diagnostics.count(d);
      return out.str();
    }
  }
  const auto& sa = a.diagnostics.samples();
  const auto& sb = b.diagnostics.samples();
  if (differ(out, "diagnostic sample count", sa.size(), sb.size())) return out.str();
  for (std::size_t i = 0; i < sa.size(); ++i) {
    if (sa[i].id != sb[i].id || sa[i].offset != sb[i].offset || sa[i].message != sb[i].message ||
        sa[i].file != sb[i].file) {
      out << "diagnostic sample " << i << " differs: \"" << sa[i].message << "\" vs \"" << sb[i].message << "\"";
      return out.str();
    }
  }
  return {};
}

}  // namespace tracediff::test
