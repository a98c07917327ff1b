#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include "analysis/summarize/step_assignment.hpp"
#include "model/trace.hpp"

using namespace tracediff;

BOOST_AUTO_TEST_SUITE(launch_index)

BOOST_AUTO_TEST_CASE(dense_and_sparse_ids_agree) {
  // Dense ids (a table by id) and sparse ones (a sorted array): same answers, the
  // last launch of an id wins.
  for (const std::int64_t spread : {1, 1000000}) {
    model::TraceFile f;
    std::vector<std::int64_t> ids = {5, 3, 9, 3, 7, 0};
    for (auto& id : ids) id *= spread;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      model::Event e;
      e.kind = model::Kind::runtime;
      e.correlation = ids[i];
      f.events.push_back(e);
      model::Event k;  // GPU work is not a launch
      k.kind = model::Kind::kernel;
      k.correlation = ids[i] + 1;
      f.events.push_back(k);
    }
    const analysis::detail::LaunchIndex index(f);
    BOOST_TEST(index.find(5 * spread) == 0);
    BOOST_TEST(index.find(3 * spread) == 6);  // the second launch of id 3
    BOOST_TEST(index.find(0) == 10);
    BOOST_TEST(index.find(9 * spread) == 4);
    BOOST_TEST(index.find(4 * spread) == -1);
    BOOST_TEST(index.find(-1) == -1);
    BOOST_TEST(index.find(100 * spread) == -1);
  }
}

BOOST_AUTO_TEST_SUITE_END()
