#include "analysis/names/blocking.hpp"

#include <array>

namespace tracediff::analysis {

namespace {

// The called function's name in a Python frame's event name; empty when it is none.
std::string_view function_of(std::string_view name) {
  for (const std::string_view prefix : {"<built-in method ", "<built-in function ", "<method '"}) {
    if (!name.starts_with(prefix)) continue;
    name.remove_prefix(prefix.size());
    return name.substr(0, name.find_first_of(" '>"));
  }
  const auto colon = name.rfind("): ");  // "file.py(LINE): function"
  return colon == std::string_view::npos ? std::string_view() : name.substr(colon + 3);
}

}  // namespace

bool blocking_frame(std::string_view name) {
  constexpr std::array<std::string_view, 10> k_blocking = {"wait",   "wait_for", "acquire", "sleep",  "select",
                                                           "poll",   "join",     "recv",    "accept", "_wait_for_tstate_lock"};
  const auto f = function_of(name);
  for (const auto b : k_blocking)
    if (f == b) return true;
  return false;
}

}  // namespace tracediff::analysis
