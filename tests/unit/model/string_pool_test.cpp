#include <boost/test/unit_test.hpp>

#include <set>
#include <string>
#include <vector>

#include "model/string_pool.hpp"

using namespace tracediff;

BOOST_AUTO_TEST_SUITE(string_pool)

BOOST_AUTO_TEST_CASE(ids_are_stable_and_views_survive_growth) {
  model::StringPool pool;
  BOOST_TEST(pool.intern("") == model::StringPool::k_empty);
  BOOST_TEST(pool.get(model::StringPool::k_empty).empty());
  std::vector<std::string> texts;
  for (int i = 0; i < 20000; ++i) texts.push_back("op" + std::to_string(i * 7919));  // forces rehashes and blocks
  texts.push_back(std::string(100000, 'k'));  // longer than a block: a block of its own
  texts.push_back("after the long one");
  std::vector<std::uint32_t> ids;
  std::vector<std::string_view> views;
  for (const auto& t : texts) {
    ids.push_back(pool.intern(t));
    views.push_back(pool.get(ids.back()));
  }
  BOOST_TEST(pool.size() == texts.size() + 1);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    BOOST_TEST(pool.intern(texts[i]) == ids[i]);
    BOOST_TEST(pool.get(ids[i]) == texts[i]);
    BOOST_TEST(static_cast<const void*>(views[i].data()) == static_cast<const void*>(pool.get(ids[i]).data()));  // never moved
  }
}

BOOST_AUTO_TEST_CASE(moved_pools_keep_their_strings) {
  model::StringPool a;
  const auto id = a.intern("aten::mm");
  model::StringPool b = std::move(a);
  BOOST_TEST(b.get(id) == "aten::mm");
  BOOST_TEST(b.intern("aten::mm") == id);
  a = model::StringPool();  // what the reader does to drop a file's names
  BOOST_TEST(a.size() == 1u);
  BOOST_TEST(a.intern("x") == 1u);
  BOOST_TEST(b.intern("y") == 2u);
  BOOST_TEST(b.get(id) == "aten::mm");
}

// The hash reads eight bytes at a time and the rest one by one: strings that differ
// only in their last byte, at every length around those edges, are told apart.
BOOST_AUTO_TEST_CASE(strings_differing_in_their_tail_are_distinct) {
  model::StringPool pool;
  std::vector<std::string> texts;
  for (std::size_t n = 1; n <= 40; ++n)
    for (const char last : {'a', 'b', '\0', '\xff'}) texts.push_back(std::string(n - 1, 'x') + last);
  std::set<std::uint32_t> ids;
  for (const auto& t : texts) ids.insert(pool.intern(t));
  BOOST_TEST(ids.size() == texts.size());
  for (const auto& t : texts) BOOST_TEST(pool.get(pool.intern(t)) == t);
}

BOOST_AUTO_TEST_SUITE_END()
