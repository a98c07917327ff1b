#pragma once
// Interned strings: each distinct name is stored once and events carry its id.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace tracediff::model {

// The reader interns a name per event, so lookups are an open-addressing table of
// (id, hash) slots, and the characters live in large blocks that never move (views
// stay valid as the pool grows), instead of a node per string.
class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&& other) noexcept { *this = std::move(other); }
  StringPool& operator=(StringPool&& other) noexcept;

  std::uint32_t intern(std::string_view s);
  std::string_view get(std::uint32_t id) const { return m_views[id]; }
  std::size_t size() const { return m_views.size(); }

  static constexpr std::uint32_t k_empty = 0;  // id of ""

 private:
  struct Slot {
    std::uint32_t id = k_free;
    std::uint32_t hash = 0;  // low bits of the string's hash; also picks the slot
  };
  static constexpr std::uint32_t k_free = ~0u;

  std::string_view store(std::string_view s);
  void rehash(std::size_t slots);

  std::vector<std::string_view> m_views;           // by id
  std::vector<Slot> m_slots;                       // a power of two, at most half full
  std::vector<std::unique_ptr<char[]>> m_blocks;   // the characters
  char* m_free = nullptr;                          // unused tail of the last block
  std::size_t m_left = 0;
};

}  // namespace tracediff::model
