#pragma once
// The fast path for well-formed traces: a scanner made for Kineto's shape that
// validates JSON as strictly as Boost.JSON with the reader's options, keeps the same
// fields, and hands them to the same EventSink, so it yields the same TraceFile as
// read_trace. Anything it is not sure of (any syntax error, an escape in a kept
// string or a key, a file cut short, a damaged gzip stream, a legacy top-level
// array) makes it give up; the caller then reads the file again with the tolerant
// reader. Broken files cost at most one extra partial read; well-formed ones are
// read about twice as fast as with Boost.JSON's basic_parser.
#include <cstddef>
#include <optional>
#include <string>

#include "reading/byte_source.hpp"
#include "reading/trace_reader.hpp"

namespace tracediff::reading {

// Bytes scanned at a time; the window grows for a larger event (up to 64 MiB).
inline constexpr std::size_t k_fast_window = 256 << 10;

// nullopt: the input needs the tolerant reader (read_trace) from the start. Tests
// pass tiny windows so that every unit crosses a window's edge somewhere.
std::optional<ReadResult> read_trace_fast(ByteSource& source, const std::string& path,
                                          const ReadOptions& options, std::size_t window = k_fast_window);

}  // namespace tracediff::reading
