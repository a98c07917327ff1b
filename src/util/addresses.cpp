#include "util/addresses.hpp"

namespace tracediff {

namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

std::string_view without_object_addresses(std::string_view name, std::string& scratch) {
  constexpr std::string_view k_at = " at 0x";
  auto at = name.find(k_at);
  if (at == std::string_view::npos) return name;
  scratch.clear();
  std::size_t from = 0;
  for (; at != std::string_view::npos; at = name.find(k_at, from)) {
    std::size_t end = at + k_at.size();
    while (end < name.size() && is_hex(name[end])) ++end;
    const bool address = end > at + k_at.size() && end < name.size() && name[end] == '>';
    scratch.append(name.substr(from, (address ? at : end) - from));
    from = end;
  }
  scratch.append(name.substr(from));
  return scratch;
}

}  // namespace tracediff
