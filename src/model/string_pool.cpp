#include "model/string_pool.hpp"

namespace tracediff::model {

StringPool::StringPool() { intern(""); }

std::uint32_t StringPool::intern(std::string_view s) {
  if (auto it = m_ids.find(s); it != m_ids.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(m_strings.size());
  m_strings.emplace_back(s);
  m_ids.emplace(m_strings.back(), id);
  return id;
}

}  // namespace tracediff::model
