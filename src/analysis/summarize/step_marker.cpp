#include "analysis/summarize/step_marker.hpp"

// Boost.Regex rather than std::regex: libstdc++'s matcher recurses once per character
// (a 100 KB name overflows the stack) and has no bound on its work; Boost's keeps its
// own stack and throws past a bound, so a hostile name cannot crash or hang a run.
// The bound on states visited per match, lower than Boost's default (10^8): a match
// that needs more gives up after about 3 ms instead of 15 (no other file includes
// Boost.Regex, so its templates see one value).
#define BOOST_REGEX_MAX_STATE_COUNT 100000
#include <boost/regex.hpp>

#include <time.h>

#include "util/errors.hpp"

namespace tracediff::analysis {

struct StepMarker::Compiled {
  boost::regex regex;
};

namespace {

// This thread's CPU time: what the matching costs, whatever else the machine runs.
std::int64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

}  // namespace

StepMarker::StepMarker(std::string pattern, std::string option)
    : m_pattern(std::move(pattern)), m_option(std::move(option)) {
  if (m_pattern.empty()) throw UsageError(m_option + ": an empty pattern would match every event");
  try {
    m_compiled = std::make_shared<const Compiled>(
        Compiled{boost::regex(m_pattern, boost::regex::ECMAScript)});
  } catch (const boost::regex_error& e) {
    throw UsageError(m_option + ": '" + m_pattern + "' is not a valid regular expression (" + e.what() + ")");
  }
}

StepMarker::Match StepMarker::match(std::string_view name, std::int64_t& spent_ns) const {
  if (name.size() > k_max_name_bytes) return Match::no;
  if (spent_ns >= k_budget_ns) return Match::over_budget;
  const auto start = thread_cpu_ns();
  Match m = Match::no;
  try {
    if (boost::regex_search(name.begin(), name.end(), m_compiled->regex, boost::match_default | boost::match_any))
      m = Match::yes;
  } catch (const std::runtime_error&) {  // the engine's bound on work or stack
    m = Match::gave_up;
  }
  spent_ns += thread_cpu_ns() - start;
  return m;
}

}  // namespace tracediff::analysis
