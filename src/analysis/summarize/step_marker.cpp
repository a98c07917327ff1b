#include "analysis/summarize/step_marker.hpp"

// Boost.Regex rather than std::regex: libstdc++'s matcher recurses once per character
// (a 100 KB name overflows the stack) and has no bound on its work; Boost's keeps its
// own stack and throws past a bound, so a hostile name cannot crash or hang a run.
// The bound on states visited per match, lower than Boost's default (10^8): a match
// that needs more gives up after about 3 ms instead of 15 (no other file includes
// Boost.Regex, so its templates see one value).
#define BOOST_REGEX_MAX_STATE_COUNT 100000
#include <boost/regex.hpp>

#include "util/errors.hpp"

namespace tracediff::analysis {

struct StepMarker::Compiled {
  boost::regex regex;
};

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

StepMarker::Match StepMarker::match(std::string_view name) const {
  if (name.size() > k_max_name_bytes) return Match::no;
  try {
    return boost::regex_search(name.begin(), name.end(), m_compiled->regex, boost::match_default | boost::match_any)
               ? Match::yes
               : Match::no;
  } catch (const std::runtime_error&) {  // the engine's bound on work or stack
    return Match::gave_up;
  }
}

}  // namespace tracediff::analysis
