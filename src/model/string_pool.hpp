#pragma once
// Interned strings: each distinct name is stored once and events carry its id.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tracediff::model {

class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  std::uint32_t intern(std::string_view s);
  std::string_view get(std::uint32_t id) const { return m_strings[id]; }
  std::size_t size() const { return m_strings.size(); }

  static constexpr std::uint32_t k_empty = 0;  // id of ""

 private:
  std::deque<std::string> m_strings;  // deque: views into it stay valid as it grows
  std::unordered_map<std::string_view, std::uint32_t> m_ids;
};

}  // namespace tracediff::model
