#pragma once
// --step-marker: a regular expression whose matches among a trace's host events
// (cpu_op, user_annotation, python_function) define its steps when it has no
// ProfilerStep, or when asked to (analysis/summarize/step_assignment.cpp decides how). Compiled once,
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

  // A file's matching may take this much CPU time: a pattern can stay just under the
  // engine's bound on every name (2-3 ms each), and 20,000 names would take a minute.
  // Past it the file's other names are not asked.
  static constexpr std::int64_t k_budget_ns = 1'000'000'000;

  enum class Match : std::uint8_t { no, yes, gave_up, over_budget };
  // Thread-safe (the compiled pattern is immutable). gave_up: the match passed the
  // engine's bound on its work or stack; over_budget: not asked, `spent_ns` (the CPU
  // time of the file's matching so far, which the call adds to) has reached k_budget_ns.
  // Both count as no match.
  Match match(std::string_view name, std::int64_t& spent_ns) const;
  Match match(std::string_view name) const {
    std::int64_t spent_ns = 0;
    return match(name, spent_ns);
  }

 private:
  struct Compiled;
  std::string m_pattern, m_option;
  std::shared_ptr<const Compiled> m_compiled;
};

}  // namespace tracediff::analysis
