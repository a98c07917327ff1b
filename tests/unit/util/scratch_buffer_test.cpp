#include <boost/test/unit_test.hpp>

#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "util/scratch_buffer.hpp"

using namespace tracediff;

BOOST_AUTO_TEST_SUITE(scratch_buffer)

BOOST_AUTO_TEST_CASE(gives_writable_memory_of_at_least_the_size) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{(256 << 10) + 64}, std::size_t{5} << 20}) {
    ScratchBuffer b(bytes);
    BOOST_REQUIRE(b);
    BOOST_TEST(b.size() >= bytes);
    std::memset(b.get(), 0x5a, bytes);
    BOOST_TEST(b.get()[bytes - 1] == 0x5a);
  }
}

BOOST_AUTO_TEST_CASE(a_thread_gets_its_given_back_buffer_again) {
  const char* first;
  {
    ScratchBuffer b(300000);
    first = b.get();
  }
  ScratchBuffer again(300000);
  BOOST_TEST(static_cast<const void*>(again.get()) == static_cast<const void*>(first));
  ScratchBuffer other_size(100000);
  BOOST_TEST(static_cast<const void*>(other_size.get()) != static_cast<const void*>(first));
}

BOOST_AUTO_TEST_CASE(buffers_in_use_are_distinct) {
  std::vector<ScratchBuffer> held;
  std::set<const char*> seen;
  for (int i = 0; i < 12; ++i) {  // more than a thread keeps
    held.emplace_back(65536);
    std::memset(held.back().get(), i, 65536);
    seen.insert(held.back().get());
  }
  BOOST_TEST(seen.size() == held.size());
  for (int i = 0; i < 12; ++i) BOOST_TEST(held[static_cast<std::size_t>(i)].get()[65535] == static_cast<char>(i));
}

BOOST_AUTO_TEST_CASE(moves_hand_over_and_give_back) {
  ScratchBuffer a(200000);
  const char* pa = a.get();
  ScratchBuffer b(std::move(a));
  BOOST_TEST(!a);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  BOOST_TEST(static_cast<const void*>(b.get()) == static_cast<const void*>(pa));
  b = ScratchBuffer(100000);  // pa goes back to the thread's buffers
  ScratchBuffer c(200000);
  BOOST_TEST(static_cast<const void*>(c.get()) == static_cast<const void*>(pa));
}

BOOST_AUTO_TEST_CASE(threads_keep_their_own) {
  const char* mine;
  {
    ScratchBuffer b(123456);
    mine = b.get();
  }
  const char* theirs = nullptr;
  std::thread t([&] {
    ScratchBuffer b(123456);
    theirs = b.get();
  });
  t.join();
  BOOST_TEST(static_cast<const void*>(theirs) != static_cast<const void*>(mine));
  ScratchBuffer again(123456);
  BOOST_TEST(static_cast<const void*>(again.get()) == static_cast<const void*>(mine));
}

BOOST_AUTO_TEST_SUITE_END()
