#pragma once
#include <string>
#include <string_view>

namespace tracediff::analysis {

// HTA's shorten_name, rule for rule (hta-tracediff-semantics.md §5.2): memory
// copies/sets unchanged; names without '<' or '(' unchanged; otherwise drop "->",
// strip matched <...> and (...) with a stack, and keep the last space-separated piece.
std::string shorten_name(std::string_view name);

}  // namespace tracediff::analysis
