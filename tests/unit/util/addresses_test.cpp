#include "util/addresses.hpp"

#include <boost/test/unit_test.hpp>
#include <string>

using tracediff::without_object_addresses;

BOOST_AUTO_TEST_SUITE(object_addresses)

BOOST_AUTO_TEST_CASE(a_repr_loses_its_address_and_nothing_else) {
  std::string scratch;
  BOOST_TEST(without_object_addresses("<built-in method relu of type object at 0x7ce2864e5ac0>", scratch) ==
             "<built-in method relu of type object>");
  BOOST_TEST(without_object_addresses("<method 'acquire' of '_thread.lock' objects>", scratch) ==
             "<method 'acquire' of '_thread.lock' objects>");
  // Not before '>': not CPython's repr of an object, kept.
  BOOST_TEST(without_object_addresses("load at 0x10 bytes", scratch) == "load at 0x10 bytes");
  BOOST_TEST(without_object_addresses("<a at 0x1> and <b at 0xFFab>", scratch) == "<a> and <b>");
  BOOST_TEST(without_object_addresses("ends at 0x", scratch) == "ends at 0x");
  BOOST_TEST(without_object_addresses("", scratch) == "");
}

BOOST_AUTO_TEST_SUITE_END()
