#include "analysis/names/short_name.hpp"

#include <vector>

namespace tracediff::analysis {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Pops until `open` is on top (or the stack is empty), then pops `open` if present.
void pop_until(std::string& stack, char open) {
  while (!stack.empty() && stack.back() != open) stack.pop_back();
  if (!stack.empty()) stack.pop_back();
}

}  // namespace

std::string shorten_name(std::string_view name) {
  // Rule 1: regex (^(hip)?Memcpy)|(^(hip)?Memset)|(^dma).
  if (starts_with(name, "Memcpy") || starts_with(name, "hipMemcpy") ||
      starts_with(name, "Memset") || starts_with(name, "hipMemset") || starts_with(name, "dma"))
    return std::string(name);
  // Rule 2.
  if (name.find('<') == std::string_view::npos && name.find('(') == std::string_view::npos)
    return std::string(name);
  // Rule 3.
  std::string s;
  s.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '-' && i + 1 < name.size() && name[i + 1] == '>') {
      ++i;
      continue;
    }
    s += name[i];
  }
  std::string stack;
  for (char c : s) {
    if (c == '>') pop_until(stack, '<');
    else if (c == ')') pop_until(stack, '(');
    else stack += c;
  }
  const auto space = stack.rfind(' ');
  return space == std::string::npos ? stack : stack.substr(space + 1);
}

}  // namespace tracediff::analysis
