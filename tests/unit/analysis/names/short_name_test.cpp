#include <boost/test/unit_test.hpp>

#include "analysis/names/short_name.hpp"

using tracediff::analysis::shorten_name;

BOOST_AUTO_TEST_SUITE(short_names)

// The table of hta-tracediff-semantics.md §5.2, every row.
BOOST_AUTO_TEST_CASE(hta_table) {
  const std::pair<const char*, const char*> cases[] = {
      {"void foo<int>(float)", "foo"},
      {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>(cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4::Params)",
       "cutlass::Kernel"},
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, 1>(float*, "
       "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>)",
       "at::native::::CatArrayBatchedCopy"},
      {"autograd::engine::evaluate_function: torch::autograd::CppNode<SplitLookupFunction_rowwise_adagrad_Op>",
       "torch::autograd::CppNode"},
      {"autograd::engine::evaluate_function: AddBackward0", "autograd::engine::evaluate_function: AddBackward0"},
      {"torch/nn/modules/module.py(1501): _call_impl", "_call_impl"},
      {"<built-in method len of type object at 0x1>", ""},
      {"foo (bar)", ""},
      {"x > y (z)", ""},
      {"void ns::k<(anon)::T>(int) const", "const"},
      {"operator()(int)", "operator"},
      {"a->b(c)", "ab"},
      {"f(a)<b>", "f"},
      {"f(((a)", "f(("},
      {"Memcpy DtoH (Device -> Pinned)", "Memcpy DtoH (Device -> Pinned)"},
      {"hipMemsetAsync<int>(x)", "hipMemsetAsync<int>(x)"},
      {"dmaCopy(x)", "dmaCopy(x)"},
      {"ProfilerStep#5", "ProfilerStep#5"},
      {"a<b", "a<b"},
      {"a(b", "a(b"},
      {"a->b", "a->b"},  // no '<' or '(' : unchanged, arrow kept
  };
  for (const auto& [in, out] : cases) BOOST_TEST(shorten_name(in) == out, in);
}

BOOST_AUTO_TEST_SUITE_END()
