#define BOOST_TEST_MODULE tracediff
#include <boost/test/unit_test.hpp>
