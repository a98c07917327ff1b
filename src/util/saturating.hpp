#pragma once
// Sums of counts and durations that saturate instead of wrapping: the inputs are
// untrusted (a forged summary, an absurd trace), and a wrapped sum is a wrong figure
// said with confidence. Every sum of counts from an input goes through here.
#include <cstdint>

namespace tracediff {

inline void add_sat(std::int64_t& sum, std::int64_t value) {
  if (__builtin_add_overflow(sum, value, &sum)) sum = value > 0 ? INT64_MAX : INT64_MIN;
}

inline void add_sat(std::uint64_t& sum, std::uint64_t value) {
  if (__builtin_add_overflow(sum, value, &sum)) sum = UINT64_MAX;
}

}  // namespace tracediff
