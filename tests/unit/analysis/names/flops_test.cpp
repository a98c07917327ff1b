// The FLOP formulas of matrix multiplications over the readers' canonical shape text
// (issue #18 item 5; the text itself is pinned in reading/shapes_test.cpp).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "analysis/names/flops.hpp"
#include "util/format.hpp"

using namespace tracediff;

namespace {

double flops(std::string_view op, std::string_view shape) { return analysis::flops_per_call(op, shape).value_or(-1); }

}  // namespace

BOOST_AUTO_TEST_SUITE(flop_formulas)

BOOST_AUTO_TEST_CASE(flops_of_each_operator) {
  // mm [M,K]x[K,N]: 2MKN.
  BOOST_TEST(flops("aten::mm", "[[64,1024],[1024,4096]] (float,float)") == 2.0 * 64 * 1024 * 4096);
  // addmm(bias, a, b): 2MKN, the bias add not counted.
  BOOST_TEST(flops("aten::addmm", "[[4096],[64,1024],[1024,4096],[],[]] (c10::BFloat16,c10::BFloat16,c10::BFloat16,Scalar,Scalar)") ==
             2.0 * 64 * 1024 * 4096);
  // bmm [B,M,K]x[B,K,N]: 2BMKN; baddbmm(input, b1, b2) likewise.
  BOOST_TEST(flops("aten::bmm", "[[8,64,32],[8,32,128]] (c10::Half,c10::Half)") == 2.0 * 8 * 64 * 32 * 128);
  BOOST_TEST(flops("aten::baddbmm", "[[8,64,128],[8,64,32],[8,32,128],[],[]] (float,float,float,Scalar,Scalar)") ==
             2.0 * 8 * 64 * 32 * 128);
  // linear(input [...,K], weight [N,K], bias): 2 prod(...) K N.
  BOOST_TEST(flops("aten::linear", "[[4,16,1024],[4096,1024],[4096]] (float,float,float)") == 2.0 * 4 * 16 * 1024 * 4096);
  BOOST_TEST(flops("aten::linear", "[[16,1024],[4096,1024],[]] (float,float,)") == 2.0 * 16 * 1024 * 4096);
  // matmul: 2-D, 3-D x 2-D, broadcast batch.
  BOOST_TEST(flops("aten::matmul", "[[64,32],[32,16]] (float,float)") == 2.0 * 64 * 32 * 16);
  BOOST_TEST(flops("aten::matmul", "[[5,64,32],[32,16]] (float,float)") == 2.0 * 5 * 64 * 32 * 16);
  BOOST_TEST(flops("aten::matmul", "[[1,64,32],[7,32,16]] (float,float)") == 2.0 * 7 * 64 * 32 * 16);
  BOOST_TEST(flops("aten::mm", "[[0,1024],[1024,4096]] (float,float)") == 0.0);
}

BOOST_AUTO_TEST_CASE(no_flops_where_shapes_or_types_do_not_fit) {
  for (const auto& [op, shape] : std::vector<std::pair<std::string, std::string>>{
           {"aten::mm", "[[64,1024],[1023,4096]] (float,float)"},     // inner dims differ
           {"aten::mm", "[[64,1024],[1024,4096]]"},                   // no types
           {"aten::mm", "[[64,1024],[1024,4096]] (int,int)"},         // not floating point
           {"aten::mm", "[[64,1024],[1024,4096]] (float)"},           // a type missing
           {"aten::mm", "[[64,1024,1],[1024,4096]] (float,float)"},   // not 2-D
           {"aten::mm", "[[64,1024]] (float)"},                       // one input
           {"aten::mm", "[[[64],[1024]],[1024,4096]] (float,float)"}, // a TensorList
           {"aten::bmm", "[[8,64,32],[4,32,128]] (float,float)"},     // batch differs
           {"aten::matmul", "[[32],[32,16]] (float,float)"},          // 1-D
           {"aten::matmul", "[[3,64,32],[7,32,16]] (float,float)"},   // no broadcast
           {"aten::linear", "[[16,1024],[4096,512],[]] (float,float,)"},
           {"aten::add", "[[64,1024],[64,1024],[]] (float,float,Scalar)"},  // not a matmul
           {"aten::mm", ""}, {"aten::mm", "[[64,1024],[1024,4096"}, {"aten::mm", "]] ("},
           {"aten::mm", "[[64,,1024],[1024,4096]] (float,float)"}, {"aten::mm", "[64,1024] (float,float)"},
       })
    BOOST_TEST(!analysis::flops_per_call(op, shape).has_value(), op << " " << shape);
}

BOOST_AUTO_TEST_CASE(huge_dims_do_not_overflow) {
  // 20-digit dims: the figure is a double (about 2e80), finite, never a wrapped integer.
  const auto f = analysis::flops_per_call(
      "aten::bmm", "[[99999999999999999999,99999999999999999999,99999999999999999999],"
                   "[99999999999999999999,99999999999999999999,99999999999999999999]] (float,float)");
  BOOST_REQUIRE(f.has_value());
  BOOST_TEST(std::isfinite(*f));
  BOOST_TEST(*f > 1e79);
  BOOST_TEST(format_flops(*f).find("e+80") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(garbage_text_never_crashes) {
  std::mt19937 rng(18);
  const std::string alphabet = "[],0123456789 (),float";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const int n = static_cast<int>(rng() % 40);
    for (int k = 0; k < n; ++k) s += alphabet[rng() % alphabet.size()];
    for (const char* op : {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear"}) {
      const auto f = analysis::flops_per_call(op, s);
      if (f) BOOST_TEST((std::isfinite(*f) && *f >= 0));
    }
  }
}

BOOST_AUTO_TEST_CASE(flops_read_as_people_read_them) {
  BOOST_TEST(format_flops(812) == "812 FLOP");
  BOOST_TEST(format_flops(2.0 * 64 * 1024 * 4096) == "537 MFLOP");
  BOOST_TEST(format_flops(2147483648.0) == "2.15 GFLOP");
  BOOST_TEST(format_flops(1.07e12) == "1.07 TFLOP");
  BOOST_TEST(format_rate(312.4) == "312");
  BOOST_TEST(format_rate(45.24) == "45.2");
  BOOST_TEST(format_rate(0.8714) == "0.871");
}

BOOST_AUTO_TEST_SUITE_END()
