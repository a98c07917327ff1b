#include "model/name.hpp"

#include <array>
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace tracediff::model {

namespace {

// Shards by hash, so that the reading threads seldom wait for each other.
struct Shard {
  std::mutex mutex;
  std::deque<std::string> texts;  // a deque: each copy stays where it is
  std::unordered_map<std::string_view, const std::string*> index;  // views its texts
};
constexpr std::size_t k_shards = 16;

std::array<Shard, k_shards>& shards() {
  static auto* all = new std::array<Shard, k_shards>;  // never destroyed: Names outlive static destructors
  return *all;
}

}  // namespace

const std::string& Name::empty_name() {
  static const std::string& empty = intern("");
  return empty;
}

const std::string& Name::intern(std::string_view s) {
  const auto h = std::hash<std::string_view>{}(s);
  auto& shard = shards()[h % k_shards];
  std::lock_guard lock(shard.mutex);
  if (const auto it = shard.index.find(s); it != shard.index.end()) return *it->second;
  const auto& text = shard.texts.emplace_back(s);
  shard.index.emplace(text, &text);
  return text;
}

}  // namespace tracediff::model
