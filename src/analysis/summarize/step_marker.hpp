#pragma once
// --step-marker: a regular expression whose matches among a trace's host events
// (cpu_op, user_annotation, python_function) define its steps when it has no
// ProfilerStep, or when asked to (analysis/summarize/steps.cpp decides how). Compiled once,
// shared by the reading threads; each file asks it once per distinct name.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace tracediff::analysis {

class StepMarker {
 public:
  // ECMAScript syntax (Boost.Regex's Perl/ECMAScript grammar), search semantics: a
  // name matches when the pattern matches anywhere in it. Throws UsageError naming
  // `option` when the pattern does not compile.
  StepMarker(std::string pattern, std::string option);

  const std::string& pattern() const { return m_pattern; }
  const std::string& option() const { return m_option; }  // "--test-step-marker", as given

  // Names longer than this never match: a backtracking match costs up to the square
  // of the name's length (or more), and step names are short ("step[DECODE bs=32]",
  // a Python frame's path and function).
  static constexpr std::size_t k_max_name_bytes = 512;
  // A file's names are asked until the engine has given up this often (a pattern that
  // backtracks on names made to defeat it); the rest then count as not matching.
  static constexpr std::size_t k_max_give_ups = 16;

  enum class Match : std::uint8_t { no, yes, gave_up };
  // Thread-safe (the compiled pattern is immutable). gave_up: the match passed the
  // engine's bound on its work or stack (counts as no match).
  Match match(std::string_view name) const;

 private:
  struct Compiled;
  std::string m_pattern, m_option;
  std::shared_ptr<const Compiled> m_compiled;
};

}  // namespace tracediff::analysis
