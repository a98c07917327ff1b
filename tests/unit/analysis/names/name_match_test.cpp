// Names matched across versions and vendors (analysis/name_match): what a name is
// compared by, and which names of one side only pair with which of the other.
#include <boost/test/unit_test.hpp>

#include "analysis/names/name_match.hpp"

using namespace tracediff;
using analysis::match_key;
using analysis::MatchReason;
using model::Kind;

namespace {

model::SetSummary side(std::vector<model::SummaryKey> keys) {
  model::SetSummary s;
  s.files.emplace_back();
  s.files.back().keys = std::move(keys);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(name_match)

BOOST_AUTO_TEST_CASE(python_frames_lose_line_numbers_and_install_prefixes) {
  MatchReason why{};
  const auto a = match_key("torch/nn/modules/module.py(1762): _call_impl", Kind::python_function, &why);
  BOOST_TEST(a == "module.py: _call_impl");
  BOOST_TEST(match_reason_name(why) == "python_line");
  BOOST_TEST(match_key("/home/u/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py(1527): _call_impl",
                       Kind::python_function) == a);
  BOOST_TEST(match_key("C:\\Python311\\Lib\\site-packages\\torch\\nn\\modules\\module.py(1527): _call_impl",
                       Kind::python_function) == a);
  // Another function of the same file, and the same function elsewhere, stay apart.
  BOOST_TEST(match_key("torch/nn/modules/module.py(1751): _wrapped_call_impl", Kind::python_function) != a);
  BOOST_TEST(match_key("train.py(45): <module>", Kind::python_function) == "train.py: <module>");
  // Not a frame with a line: as it is. An operator's name is never taken for one.
  BOOST_TEST(match_key("nn.Module: Linear_0", Kind::python_function) == "nn.Module: Linear_0");
  BOOST_TEST(match_key("f(12): g", Kind::cpu_op) == "f(12): g");
  BOOST_TEST(!analysis::python_line("a.py(x1): f"));
  BOOST_TEST(*analysis::python_line("a.py(17): f") == 17);
}

BOOST_AUTO_TEST_CASE(object_addresses_are_left_out) {
  MatchReason why{};
  const auto k = match_key("<built-in method add of Tensor object at 0x7f3a2c0b6410>", Kind::python_function, &why);
  BOOST_TEST(k == "<built-in method add of Tensor object>");
  BOOST_TEST(match_reason_name(why) == "address");
  BOOST_TEST(match_key("<built-in method add of Tensor object at 0x7f00aa>", Kind::python_function) == k);
  BOOST_TEST(match_key("<built-in method add of Tensor object>", Kind::python_function) == k);
  BOOST_TEST(match_key("obj 0xdeadbeef", Kind::user_annotation) == "obj 0x…");
}

BOOST_AUTO_TEST_CASE(cuda_and_hip_runtime_calls_share_a_key) {
  for (const auto& [cuda, hip] : std::vector<std::pair<const char*, const char*>>{
           {"cudaLaunchKernel", "hipLaunchKernel"},
           {"cudaLaunchKernel", "hipExtLaunchKernel"},
           {"cuLaunchKernel", "hipModuleLaunchKernel"},
           {"cudaGraphLaunch", "hipGraphLaunch"},
           {"cudaMemcpyAsync", "hipMemcpyAsync"},
           {"cudaStreamSynchronize", "hipStreamSynchronize"},
           {"cudaDeviceSynchronize", "hipDeviceSynchronize"},
           {"cudaEventRecord", "hipEventRecord"}}) {
    BOOST_TEST_CONTEXT(cuda << " / " << hip) {
      MatchReason why{};
      BOOST_TEST(match_key(cuda, Kind::runtime, &why) == match_key(hip, Kind::runtime));
      BOOST_TEST(match_reason_name(why) == "runtime");
    }
  }
  BOOST_TEST(match_key("cudaLaunchKernel", Kind::runtime) != match_key("cudaMemcpyAsync", Kind::runtime));
  // Only runtime calls: an operator named like one is itself.
  BOOST_TEST(match_key("cudaLaunchKernel", Kind::cpu_op) == "cudaLaunchKernel");
}

BOOST_AUTO_TEST_CASE(mangled_kernels_match_their_demangled_names) {
  // The mangled and demangled names of one kernel, as CUPTI writes them with and
  // without demangling.
  MatchReason why{};
  const auto k = match_key("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
                           Kind::kernel, &why);
  BOOST_TEST(k == "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                  "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)");
  BOOST_TEST(match_reason_name(why) == "demangled");
  BOOST_TEST(!analysis::demangle("_Znot a name"));
  BOOST_TEST(!analysis::demangle("ampere_sgemm_128x64_nn"));
  BOOST_TEST(match_key("ampere_sgemm_128x64_nn", Kind::kernel) == "ampere_sgemm_128x64_nn");
}

BOOST_AUTO_TEST_CASE(vendor_operators_share_a_key) {
  MatchReason why{};
  BOOST_TEST(match_key("aten::miopen_convolution", Kind::cpu_op, &why) == match_key("aten::cudnn_convolution", Kind::cpu_op));
  BOOST_TEST(match_reason_name(why) == "vendor_op");
  BOOST_TEST(match_key("aten::miopen_batch_norm", Kind::cpu_op) == match_key("aten::cudnn_batch_norm", Kind::cpu_op));
  BOOST_TEST(match_key("aten::miopen_rnn", Kind::cpu_op) == match_key("aten::_cudnn_rnn", Kind::cpu_op));
  BOOST_TEST(match_key("autograd::engine::evaluate_function: MiopenConvolutionBackward0", Kind::cpu_op) ==
             match_key("autograd::engine::evaluate_function: CudnnConvolutionBackward0", Kind::cpu_op));
  BOOST_TEST(match_key("aten::convolution", Kind::cpu_op) != match_key("aten::cudnn_convolution", Kind::cpu_op));
}

BOOST_AUTO_TEST_CASE(only_names_of_one_side_pair_and_in_order) {
  using K = model::SummaryKey;
  const auto c = side({K{"python_function", "m.py(10): forward", Kind::python_function},
                       K{"python_function", "m.py(40): forward", Kind::python_function},
                       K{"python_function", "m.py(90): forward", Kind::python_function},
                       K{"cuda_runtime", "cudaLaunchKernel", Kind::runtime},
                       K{"cpu_op", "aten::mm", Kind::cpu_op}});
  // Line 10 is on both sides and stays itself; the other two shift; a new forward
  // at the end is left unpaired.
  const auto t = side({K{"python_function", "m.py(10): forward", Kind::python_function},
                       K{"python_function", "m.py(52): forward", Kind::python_function},
                       K{"python_function", "m.py(102): forward", Kind::python_function},
                       K{"python_function", "m.py(300): forward", Kind::python_function},
                       K{"cuda_runtime", "hipLaunchKernel", Kind::runtime},
                       K{"cpu_op", "aten::mm", Kind::cpu_op}});
  const auto r = analysis::plan_renames(c, t);
  BOOST_TEST(r.size() == 3u);
  BOOST_TEST(!r.find("python_function", "m.py(10): forward"));
  BOOST_TEST(r.find("python_function", "m.py(52): forward")->to == "m.py(40): forward");
  BOOST_TEST(r.find("python_function", "m.py(102): forward")->to == "m.py(90): forward");
  BOOST_TEST(!r.find("python_function", "m.py(300): forward"));
  BOOST_TEST(r.find("cuda_runtime", "hipLaunchKernel")->to == "cudaLaunchKernel");
  BOOST_TEST(r.find_host("hipLaunchKernel")->to == "cudaLaunchKernel");
  BOOST_TEST(!r.find("cpu_op", "aten::mm"));
}

BOOST_AUTO_TEST_SUITE_END()
