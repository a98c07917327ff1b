#pragma once
// C++ names demangled within a budget. abi::__cxa_demangle's work and output grow with
// the output, which doubles per level of nested substitutions (S_, S0_, T_ ...): a
// 411-byte name can ask for terabytes. So the output's size is estimated first, from the
// mangled text alone, and only names whose estimate fits are handed to the demangler.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tracediff {

inline constexpr std::size_t k_demangle_input = 1024;        // the default cap on a mangled name
inline constexpr std::size_t k_demangle_output = 16 * 1024;  // results longer than this are dropped
// Estimates above this are refused before the demangler runs (a few ms of its work).
inline constexpr std::size_t k_demangle_estimate = 1024 * 1024;

// An upper estimate of the demangled length of `name` (Itanium mangling), linear in its
// length: every back-reference counts as the largest substitution candidate completed
// before it, every other byte as the longest text a mangled byte stands for. It
// saturates at SIZE_MAX.
std::size_t demangled_size_estimate(std::string_view name);

// A mangled C++ name (_Z…) demangled (abi::__cxa_demangle), bounded: names longer than
// max_input bytes, names whose estimate passes k_demangle_estimate and results over
// k_demangle_output are not demangled. nullopt: not a mangled name, not demangled or
// too long.
std::optional<std::string> demangle(std::string_view name, std::size_t max_input = k_demangle_input);

}  // namespace tracediff
