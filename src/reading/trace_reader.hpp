#pragma once
// Streams one Kineto trace (Chrome trace JSON) into a model::TraceFile without ever
// holding the document: Boost.JSON's basic_parser calls a handler that keeps only
// the fields of complete events that the analysis needs.
//
// Tolerance, each with its reason (kineto-trace-format.md §6):
//  - a file cut short keeps every complete event (jobs get killed while writing);
//  - a syntax error inside traceEvents costs that event: the reader resynchronises
//    at the next event boundary (unescaped quotes, NaN, raw control bytes in names);
//  - errors after traceEvents (broken trailing metadata) keep the events;
//  - trailing commas and invalid UTF-8 are accepted (old Kineto, Python frame names).
#include <optional>
#include <string>
#include <string_view>

#include "model/trace.hpp"
#include "reading/byte_source.hpp"

namespace tracediff::reading {

struct ReadOptions {
  bool hta_compat = false;  // also keep model::HtaFields and HTA's event selection
  bool read_ahead = false;  // inflate on a second thread (ByteSource::read_ahead): a core is free
  bool by_shape = false;    // keep each cpu_op's input dims and types (Event::shape)
};

struct ReadResult {
  model::TraceFile file;
  // Set when the file is unusable and skipped; the reason is also in file.diagnostics.
  std::optional<model::DiagId> skipped;
  std::string message;
};

// The tolerant reader alone (tests compare it with the fast path).
ReadResult read_trace(ByteSource& source, const std::string& path, const ReadOptions& options);
// What the program uses: the fast path (fast_reader.hpp) for well-formed files, the
// tolerant reader for the rest.
ReadResult read_trace_file(const std::string& path, const ReadOptions& options);
ReadResult read_trace_bytes(std::string_view bytes, const std::string& path, const ReadOptions& options);

}  // namespace tracediff::reading
