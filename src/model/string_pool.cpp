#include "model/string_pool.hpp"

#include <cstring>
#include <utility>

namespace tracediff::model {

namespace {
constexpr std::size_t k_block = 64 * 1024;  // characters per block; longer strings get their own

// Eight bytes per multiply: kernel names run to hundreds of bytes and one is hashed
// per event, where std::hash takes about three times as long. Only speed depends on
// the hash: ids follow first appearance.
std::uint32_t hash_bytes(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = 0x9E3779B97F4A7C15u ^ n;
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9u;
    h ^= h >> 31;
  }
  std::uint64_t tail = 0;
  for (std::size_t i = 0; i < n; ++i) tail |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  h = (h ^ tail) * 0x94D049BB133111EBu;
  h ^= h >> 29;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}
}  // namespace

StringPool::StringPool() {
  m_slots.resize(64);
  intern("");
}

StringPool& StringPool::operator=(StringPool&& other) noexcept {
  m_views = std::move(other.m_views);
  m_slots = std::move(other.m_slots);
  m_blocks = std::move(other.m_blocks);
  // The moved-from pool must not write into blocks it no longer owns.
  m_free = std::exchange(other.m_free, nullptr);
  m_left = std::exchange(other.m_left, 0);
  return *this;
}

std::uint32_t StringPool::intern(std::string_view s) {
  if (m_slots.empty()) m_slots.resize(64);  // a moved-from pool
  const auto hash = hash_bytes(s);
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    auto& slot = m_slots[i];
    if (slot.id == k_free) {
      const auto id = static_cast<std::uint32_t>(m_views.size());
      m_views.push_back(store(s));
      slot = {id, hash};
      if (2 * m_views.size() > m_slots.size()) rehash(2 * m_slots.size());
      return id;
    }
    if (slot.hash == hash && m_views[slot.id] == s) return slot.id;
  }
}

std::string_view StringPool::store(std::string_view s) {
  if (s.empty()) return {};
  char* at;
  if (s.size() > k_block / 4) {  // a block of its own; the current one stays current
    m_blocks.emplace_back(new char[s.size()]);
    at = m_blocks.back().get();
  } else {
    if (s.size() > m_left) {
      m_blocks.emplace_back(new char[k_block]);
      m_free = m_blocks.back().get();
      m_left = k_block;
    }
    at = m_free;
    m_free += s.size();
    m_left -= s.size();
  }
  std::memcpy(at, s.data(), s.size());
  return {at, s.size()};
}

void StringPool::rehash(std::size_t slots) {
  std::vector<Slot> fresh(slots);
  const std::size_t mask = slots - 1;
  for (const auto& slot : m_slots) {
    if (slot.id == k_free) continue;
    std::size_t i = slot.hash & mask;
    while (fresh[i].id != k_free) i = (i + 1) & mask;
    fresh[i] = slot;
  }
  m_slots = std::move(fresh);
}

}  // namespace tracediff::model
