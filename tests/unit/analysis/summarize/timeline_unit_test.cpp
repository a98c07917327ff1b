// The timeline's names (analysis/summarize/timeline.hpp): which kernels are communication and of
// which collective, which runtime calls block the host.
#include <boost/test/unit_test.hpp>

#include "analysis/summarize/timeline.hpp"

using tracediff::analysis::detail::host_sync_call;
using tracediff::analysis::detail::kernel_class;
using W = tracediff::analysis::detail::WorkClass;

BOOST_AUTO_TEST_SUITE(timeline_names)

BOOST_AUTO_TEST_CASE(communication_by_collective) {
  const std::pair<const char*, W> cases[] = {
      {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", W::all_reduce},
      {"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", W::all_gather},
      {"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", W::reduce_scatter},
      {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", W::send_recv},
      {"ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)", W::broadcast},
      {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, int)", W::all_reduce},
      {"void sglang::custom_all_reduce_two_shot<float>(...)", W::all_reduce},
      {"ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", W::other_comm},
      {"hcclKernelLaunch", W::other_comm},
      // Inductor names its fused ops in words: an elementwise kernel, not NCCL.
      {"triton_poi_fused_all_reduce_0", W::compute},
      {"ampere_sgemm_128x64_tn", W::compute},
  };
  for (const auto& [name, want] : cases) BOOST_TEST((kernel_class(name) == want), name);
}

BOOST_AUTO_TEST_CASE(host_blocking_calls) {
  for (const char* yes : {"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "hipStreamSynchronize",
                          "cuCtxSynchronize", "cudaMemcpy", "cudaMemcpy2D", "hipMemcpy", "hipMemcpyDtoH"})
    BOOST_TEST(host_sync_call(yes), yes);
  for (const char* no : {"cudaMemcpyAsync", "hipMemcpyAsync", "cudaLaunchKernel", "cudaStreamWaitEvent",
                         "cudaEventRecord", "cudaMemsetAsync"})
    BOOST_TEST(!host_sync_call(no), no);
}

BOOST_AUTO_TEST_SUITE_END()
