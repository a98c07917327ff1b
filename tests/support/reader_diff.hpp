#pragma once
// Compares what two readers made of the same bytes, field by field: the fast path
// (reading/fast_reader.hpp) must give exactly what the tolerant reader gives.
#include <string>

#include "reading/trace_reader.hpp"

namespace tracediff::test {

// The first difference, in words; empty when the two results are the same.
std::string first_difference(const reading::ReadResult& a, const reading::ReadResult& b);

}  // namespace tracediff::test
