#include "util/demangle.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>

using namespace tracediff;

namespace {

// A base-36 substitution reference: S_, S0_ ... S9_, SA_ ...
std::string subst(int n) {
  if (n == 0) return "S_";
  static const char* digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string s;
  for (n -= 1;; n /= 36) {
    s.insert(s.begin(), digits[n % 36]);
    if (n < 36) break;
  }
  return "S" + s + "_";
}

}  // namespace

namespace tracediff::test {
// f(A, B<A, A>, B<B<A, A>, B<A, A> >, ...): each level a template-id of the level before
// twice (S_ substitutions), so the demangled text doubles per level: 10 bytes a level.
std::string doubling_mangled_name(int levels) {
  std::string s = "_Z1f1A1BIS_S_E";  // candidates: A = S_, B = S0_, B<A, A> = S1_
  for (int k = 1, last = 2; k < levels; ++k, ++last) s += "S0_I" + subst(last) + subst(last) + "E";
  return s;
}
}  // namespace tracediff::test

BOOST_AUTO_TEST_SUITE(demangle_budget)

BOOST_AUTO_TEST_CASE(estimates_follow_the_substitutions) {
  // Real kernel names: the estimate is at least the demangled length, and near it.
  for (const std::string name :
       {"_ZN5aiter4fmoeEPfi",
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
        "_ZN7cutlass6KernelINS_4gemm6kernel4GemmINS1_11threadblock12MmaPipelinedINS1_9GemmShapeILi128ELi128ELi8EEEfNS_"
        "6layout8RowMajorEfS8_EEEEEEvNT_6ParamsE",
        "_Z1f1A1BIS_S_ES0_IS1_S1_E"}) {
    const auto d = demangle(name, 64 * 1024);
    BOOST_TEST_REQUIRE(d.has_value(), name);
    const auto e = demangled_size_estimate(name);
    BOOST_TEST(e >= d->size(), name << ": " << e << " < " << d->size());
    BOOST_TEST(e <= 8 * d->size() + 64, name << ": " << e);
  }
  // PyTorch's kernels name lambdas local to functions (Z...E, Ul...E_): past them every
  // reference counts as the largest text so far, still far under the bound.
  for (const std::string name :
       {"_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_23direct_copy_kernel_cudaERNS_18TensorIteratorBaseEENK"
        "UlvE1_clEvENKUlvE8_clEvEUlfE_NS_6detail5ArrayIPcLi2EEEEEviT0_T1_",
        "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastIZZZNS0_23direct_copy_kernel_cudaERNS_"
        "18TensorIteratorBaseEENKUlvE1_clEvENKUlvE8_clEvEUlN3c104HalfEE_EEvS4_RKT_EUliE_EEviT1_",
        "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_functorIfffEclERNS_"
        "14TensorIteratorEEUlffE_EEjfLi4EEEEEvT1_",
        "_ZN2at6native27unrolled_elementwise_kernelIZZZNS0_21copy_device_to_deviceERNS_14TensorIteratorEbbENKUlvE0_clEvENK"
        "UlvE5_clEvEUlN3c104HalfEE_NS_6detail5ArrayIPcLi2EEE23TrivialOffsetCalculatorILi1EjESE_NS0_6memory12LoadWithCast"
        "ILi1EEENSF_13StoreWithCastILi1EEEEEviT_T0_T1_T2_T3_T4_"}) {
    const auto d = demangle(name);
    BOOST_TEST_REQUIRE(d.has_value(), name);
    const auto e = demangled_size_estimate(name);
    BOOST_TEST(e >= d->size(), name << ": " << e << " < " << d->size());
    BOOST_TEST(e <= 64 * d->size(), name << ": " << e);
  }
  for (int levels : {4, 8, 10}) {
    const auto name = tracediff::test::doubling_mangled_name(levels);
    const auto d = demangle(name, 64 * 1024);
    BOOST_TEST_REQUIRE(d.has_value(), name);
    BOOST_TEST(demangled_size_estimate(name) >= d->size());
  }
}

BOOST_AUTO_TEST_CASE(exponential_names_are_refused_at_once) {
  // 40 levels: 451 bytes that ask for about 2^40 characters (issue 31: past 60 s and 1 GB).
  const auto name = tracediff::test::doubling_mangled_name(40);
  BOOST_TEST(name.size() < 500u);
  BOOST_TEST(demangled_size_estimate(name) > k_demangle_estimate);
  // Refused by the estimate, before any demangling (tried, 2^40 characters would never end).
  const auto start = std::chrono::steady_clock::now();
  BOOST_TEST(!demangle(name, 64 * 1024));
  BOOST_TEST(!demangle(name));
  BOOST_TEST_MESSAGE("refused in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s");
  // Whatever the grammar: a name the exact pass does not follow is estimated by the
  // conservative one, which counts every back-reference as the largest candidate.
  const auto odd = "_Z1fX1AE" + name.substr(4);
  BOOST_TEST(demangled_size_estimate(odd) > k_demangle_estimate);
  // Nor past a lambda, where references count as the largest text so far.
  const auto lambda = "_Z1fZ1gvEUlvE_" + name.substr(4);
  BOOST_TEST(demangled_size_estimate(lambda) > k_demangle_estimate);
}

BOOST_AUTO_TEST_SUITE_END()
