#include <boost/test/unit_test.hpp>

#include <string>

#include "analysis/families.hpp"

using tracediff::analysis::classify;
using tracediff::analysis::Family;
using tracediff::analysis::family_from_name;
using tracediff::analysis::family_label;
using tracediff::analysis::family_name;
using tracediff::analysis::k_family_count;
using tracediff::model::Kind;

namespace {

struct Case {
  const char* name;
  Family family;
};

// Real kernel names: from the reference traces in ../shared/traces (Kineto on A100,
// V100, MI250), and from public profiles, tests and sources of the libraries (vLLM,
// SGLang, aiter, TraceLens, NCCL, MIOpen, FlashInfer, FlashAttention).
void check(const char* library, std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    const Family got = classify(c.name, Kind::kernel);
    BOOST_TEST(family_name(got) == std::string(family_name(c.family)), library << ": " << c.name);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_families)

BOOST_AUTO_TEST_CASE(ids_and_labels) {
  for (int i = 0; i < k_family_count; ++i) {
    const auto f = static_cast<Family>(i);
    Family back = Family::other;
    BOOST_TEST(family_from_name(family_name(f), back));
    BOOST_TEST(static_cast<int>(back) == i);
    BOOST_TEST(std::string(family_label(f)).size() > 0);
  }
  BOOST_TEST(family_name(Family::comm_all_reduce) == std::string("all_reduce"));
  BOOST_TEST(family_label(Family::comm_all_reduce) == std::string("All-reduce"));
  BOOST_TEST(family_name(Family::memcpy_htod) == std::string("memcpy_htod"));
  BOOST_TEST(family_label(Family::memcpy_htod) == std::string("Memcpy HtoD"));
  Family f;
  BOOST_TEST(!family_from_name("GEMM", f));
  BOOST_TEST(!family_from_name("", f));
  BOOST_TEST(!family_from_name("comm_all_reduce", f));
}

BOOST_AUTO_TEST_CASE(memcpy_and_memset) {
  const std::pair<const char*, Family> copies[] = {
      {"Memcpy HtoD (Pageable -> Device)", Family::memcpy_htod},
      {"Memcpy HtoD (Pinned -> Device)", Family::memcpy_htod},
      {"Memcpy HtoD (Host -> Device)", Family::memcpy_htod},
      {"Memcpy DtoH (Device -> Pageable)", Family::memcpy_dtoh},
      {"Memcpy DtoH (Device -> Pinned)", Family::memcpy_dtoh},
      {"Memcpy DtoD (Device -> Device)", Family::memcpy_dtod},
      {"Memcpy PtoP (Device -> Device)", Family::memcpy_ptop},
      {"Memcpy (Pinned -> Device)", Family::memcpy_htod},  // direction from the parentheses only
      {"Memcpy", Family::other},
  };
  for (const auto& [name, fam] : copies)
    BOOST_TEST(family_name(classify(name, Kind::gpu_memcpy)) == std::string(family_name(fam)), name);
  BOOST_TEST(family_name(classify("Memset (Device)", Kind::gpu_memset)) == std::string("memset"));
  BOOST_TEST(family_name(classify("Memset (Unknown)", Kind::gpu_memset)) == std::string("memset"));
  // Host events are no family's, whatever their names say.
  BOOST_TEST(family_name(classify("aten::mm", Kind::cpu_op)) == std::string("other"));
  BOOST_TEST(family_name(classify("cudaMemcpyAsync", Kind::runtime)) == std::string("other"));
  BOOST_TEST(family_name(classify("nvjet_tst_64x8_64x16_4x1_v_bz_TNT", Kind::cpu_op)) == std::string("other"));
}

BOOST_AUTO_TEST_CASE(cublas) {
  check("cuBLAS/cuBLASLt",
        {{"nvjet_tst_64x32_64x16_2x2_2cta_h_bz_splitK_TNT", Family::gemm},
         {"nvjet_tst_32x64_64x16_4x1_v_bz_TNN", Family::gemm},
         {"nvjet_tst_256x96_64x5_2x1_2cta_v_badd_NNT", Family::gemm},
         {"nvjet_tst_128x16_64x11_2x1_v_bz_TNT", Family::gemm},
         {"nvjet_tss_64x8_64x16_2x1_v_bz_splitK_TNT", Family::gemm},
         {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
          Family::gemm},
         {"sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
          Family::gemm},
         {"ampere_sgemm_128x64_nn", Family::gemm},
         {"ampere_gcgemm_64x64_nt", Family::gemm},
         {"volta_sgemm_32x32_sliced1x4_tn", Family::gemm},
         {"void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 2, 2, false, false, "
          "cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
          "cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, "
          "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>, float, float)",
          Family::gemm},
         {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, float, float, false, "
          "true, false, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, "
          "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >",
          Family::gemm},
         {"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, false>"
          "(cublasLt::cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, "
          "float const*, float const*, float*, void*, long, float*, int*)",
          Family::gemm},
         {"void epilogue::impl::globalKernel<float, float, float, true, true>(int, int, long, float*, "
          "cublasLtEpilogue_t, int, float*, long, void*, long, long, long, float*, long, int*)",
          Family::gemm},
         {"void sgemm_largek_lds64<true, true, 6, 3, 4, 5, 2, 66>(float*, float const*, float const*, int, int, "
          "int, int, int, int, float const*, float const*, float, float, int, int, int*, int*)",
          Family::gemm}});
}

BOOST_AUTO_TEST_CASE(cutlass) {
  check("CUTLASS",
        {{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>"
          "(cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4::Params)",
          Family::gemm},
         {"void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)",
          Family::gemm},
         {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x128_32x3_tn_align4>"
          "(cutlass_80_tensorop_s1688gemm_256x128_32x3_tn_align4::Params)",
          Family::gemm},
         {"cutlass_gemm_kernel", Family::gemm},
         // CUTLASS convolutions (cuDNN's build) are convolutions, not GEMMs.
         {"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688fprop_optimized_tf32_128x128_16x4_nhwc_align4>"
          "(cutlass_tensorop_s1688fprop_optimized_tf32_128x128_16x4_nhwc_align4::Params)",
          Family::convolution},
         {"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_32x3_nhwc_align4>"
          "(cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_32x3_nhwc_align4::Params)",
          Family::convolution},
         {"void cutlass_cudnn_train::Kernel<cutlass_tensorop_s1688wgrad_optimized_tf32_256x64_16x4_nhwc_align4>"
          "(cutlass_tensorop_s1688wgrad_optimized_tf32_256x64_16x4_nhwc_align4::Params)",
          Family::convolution},
         {"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22ImplicitGemm"
          "MultistageINS_4gemm9GemmShapeILi128ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAccessIteratorOptimized",
          Family::convolution}});
}

BOOST_AUTO_TEST_CASE(tensile_rocblas_hipblaslt) {
  check("rocBLAS/hipBLASLt/Tensile",
        {{"Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_"
          "EPS0_GRVWA1_GRVWB1_GSUAMB_ISA90a_IU1_K1_LBSPPA0_LBSPPB0_LBSPPM0_LPA0_LPB0_LPM0_LRVW1_LWPMn1",
          Family::gemm},
         {"Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_"
          "EPS0_GRVWA2_GRVWB2_GSUAMB_ISA90a_IU1_K1_LBSPPA128_LBSPPB128_LBSPPM0_LPA8_LPB8_LPM0_LRVW4_LWPMn1",
          Family::gemm},
         {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_GRPM1_GSU1_ISA950_K1_WG32_8_1",
          Family::gemm},
         {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x96x32", Family::gemm},
         {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x32_MI16x16x1_SN", Family::gemm},
         {"Custom_Cijk_Alik_Bljk_BBS_BH_Bias_HAS_SAV_UserArgs_MT64x16x64_MI16x16x1_SN_LDSB0", Family::gemm}});
}

BOOST_AUTO_TEST_CASE(composable_kernel) {
  check("Composable Kernel",
        {{"void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemmMultiD_ABScale_xdl_cshuffle_v3<"
          "ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor>",
          Family::gemm},
         {"_ZN2ck59kernel_gemm_xdl_cshuffle_v3_multi_d_blockscale_b_preshuffleINS_58GridwiseGemm", Family::gemm},
         {"_ZN2ck48kernel_gemm_xdl_cshuffle_v3_multi_d_b_preshuffle", Family::gemm},
         {"_ZN2ck15kernel_moe_gemmINS_25GridwiseMoeGemmBlockScaleINS_13tensor_layout4gemm", Family::gemm},
         {"kernel_gemm_xdl_cshuffle_v3_multi_abd", Family::gemm},
         {"convolution_forward_implicit_gemm_v6r1_dlops_nchw_kcyx_nkhw", Family::convolution},
         {"MoeSortingKernel", Family::reduction}});
}

BOOST_AUTO_TEST_CASE(aiter) {
  check("aiter",
        {{"_ZN5aiter59fmoe_stage1_bf16_pertokenFp8_blockscale_g1u1_32x128_3tg_pf3E", Family::gemm},
         {"_ZN5aiter50fmoe_bf16_pertokenMXfp4_g1u1_flat_novs_silu_16x128E", Family::gemm},
         {"_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_32x128E", Family::gemm},
         {"_ZN5aiter33f4gemm_bf16_per1x32Fp4_tn_256x256E", Family::gemm},
         {"_ZN5aiter42pa_bf16_pertokenFp8_gqa10_1tg_4w_mtp3_msk1E", Family::attention},
         {"_ZN5aiter32fmha_fwd_hd192_hd128_bf16_causalE", Family::attention},
         {"aiter::fmha_bwd_hd64_bf16_causal_a16_rtne_recompile", Family::attention},
         {"_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvPT0_", Family::normalization},
         {"aiter::reduce_scatter_cross_device_store<bf16,8>", Family::comm_reduce_scatter},
         {"_ZN5aiter37dynamic_per_group_scaled_quant_kernelIDhDB8_Li32EEEvPT0_PfPKT_PKfiliibPKii", Family::elementwise}});
}

BOOST_AUTO_TEST_CASE(flash_attention) {
  check("FlashAttention",
        {{"void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, "
          "Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, "
          "false>(flash::Flash_fwd_params)",
          Family::attention},
         {"void pytorch_flash::flash_fwd_kernel<traits>(pytorch_flash::Flash_fwd_params)", Family::attention},
         {"void pytorch_flash::flash_fwd_splitkv_kernel<traits>(params)", Family::attention},
         {"void pytorch_flash::flash_fwd_splitkv_combine_kernel<traits>(params)", Family::attention},
         {"flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, "
          "false, cutlass::bfloat16_t> >",
          Family::attention},
         {"void flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "
          "cutlass::half_t> >(flash::Flash_bwd_params)",
          Family::attention},
         {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<"
          "flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> > > > > >"
          "(flash::FlashAttnFwdSm90::Params)",
          Family::attention},
         {"kiln_flash::flash_fwd_splitkv_kernel", Family::attention}});
}

BOOST_AUTO_TEST_CASE(flashinfer) {
  check("FlashInfer",
        {{"void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, 128u, "
          "1u, 4u, 8u, 8u, 1u, 4u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, "
          "int, flashinfer::DefaultAttention<false, false, false, false> > >",
          Family::attention},
         {"::flashinfer::BatchDecodeWithPagedKVCacheKernel<::flashinfer::PosEncodingMode::kNone, 2, 4, 8, 16, 1, 4, "
          "flashinfer::DefaultAttention<false, false, false, false>, flashinfer::BatchDecodeParams>",
          Family::attention},
         {"flashinfer::BatchPrefillWithRaggedKVCacheKernel", Family::attention},
         {"flashinfer::SinglePrefillWithKVCacheKernel", Family::attention},
         {"flashinfer::BatchMLAPagedAttentionKernel", Family::attention},
         {"void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, "
          "__nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)",
          Family::normalization},
         {"void flashinfer::activation::act_and_mul_kernel<__nv_bfloat16, &silu>(__nv_bfloat16*, "
          "__nv_bfloat16 const*, int)",
          Family::elementwise},
         {"flashinfer::BatchQKApplyRotaryPosIdsCosSinCacheKernel", Family::elementwise}});
}

BOOST_AUTO_TEST_CASE(fmha) {
  check("fmha",
        {{"fmhaSm100aKernel_QE4m3KvE2m1OE4m3H128PagedKvDenseP16VarSeqQ8Kv128PersistentSwapsAbForGen", Family::attention},
         {"fmhaSm100fKernel_QkvE4m3OBfloat16H128PagedKvCausalP64VarSeqQ128Kv128PersistentContext", Family::attention},
         {"fmha_cutlassF_f16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::half_t, "
          "cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
          Family::attention},
         {"fmha_cutlassB_f16_aligned_128x64_k128_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<"
          "cutlass::arch::Sm80, cutlass::half_t, true, false, true, 128, 64, 128, false>::Params)",
          Family::attention},
         {"fmhaReductionKernel", Family::attention},
         {"_ZN5aiter24fmha_fwd_hd128_bf16_rtneE", Family::attention},
         {"fmha_fwd_hd128_bf16_causal_rtz", Family::attention}});
}

BOOST_AUTO_TEST_CASE(vllm_sglang) {
  check("vLLM/SGLang",
        {{"void vllm::paged_attention_v1_kernel<unsigned short, unsigned short, 128, 16, 128, "
          "(vllm::Fp8KVCacheDataType)0, false>(unsigned short*, unsigned short const*, unsigned short const*, "
          "unsigned short const*, int, float, int const*, int const*, int, float const*, int, int, int, float const*, "
          "float const*, int, int, int, int, int)",
          Family::attention},
         {"paged_attention_v2_kernel", Family::attention},
         {"void vllm::paged_attention_v2_reduce_kernel<unsigned short, 128, 128, 512>(unsigned short*, float const*, "
          "float const*, unsigned short const*, int const*, int)",
          Family::attention},
         {"paged_attention_quantized_fa3_partial", Family::attention},
         {"kernel_unified_attention_3d", Family::attention},
         {"kernel_unified_attention_2d", Family::attention},
         {"_fwd_kernel_stage1", Family::attention},
         {"_fwd_grouped_kernel_stage1", Family::attention},
         {"void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>"
          "(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, int, int, int, "
          "int, int, int, float const*, float const*)",
          Family::copy},
         {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, "
          "vllm::Signal*, __nv_bfloat16*, int, int)",
          Family::comm_all_reduce},
         {"void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, c10::BFloat16 const*, "
          "float, int, int)",
          Family::normalization},
         {"void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>"
          "(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)",
          Family::elementwise},
         {"void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, "
          "c10::BFloat16 const*, int, long, long, int, int, int)",
          Family::elementwise},
         {"void vllm::moe::topkGatingSoftmax<4, 128, 4, 16, 32>(float const*, bool const*, float*, int, int*, int*, "
          "int, int, int)",
          Family::softmax}});
}

BOOST_AUTO_TEST_CASE(cudnn) {
  check("cuDNN",
        {{"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_"
          "warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn_infer",
          Family::convolution},
         {"sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_stage5_warpsize2x2x1_g1_"
          "tensor16x8x8_execute_kernel_cudnn_infer",
          Family::convolution},
         {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x64_stage4_"
          "warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_train",
          Family::convolution},
         {"cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1", Family::convolution},
         {"cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1", Family::convolution},
         {"cudnn_infer_volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1", Family::convolution},
         {"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>"
          "(cudnn::winograd_nonfused::WinogradDataParams<float, float>)",
          Family::convolution},
         {"void wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>(int, int, int, float const*, int, float*, "
          "float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
          Family::convolution},
         {"void fft2d_r2c_32x32<float, false, 0u, false>(float2*, float const*, int, int, int, int, int, int, int, "
          "int, int, cudnn::reduced_divisor, bool, int2, int, int)",
          Family::convolution},
         {"void cask_cudnn_infer::computeOffsetsKernel<false, false>(cask_cudnn_infer::ComputeOffsetsParams)",
          Family::convolution},
         {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 128, true, 1, true>(cudnnTensorStruct, float "
          "const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, "
          "float*, float, float)",
          Family::normalization},
         {"void cudnn::bn_bw_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_bw_1C11_args<float>)",
          Family::normalization},
         {"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)0>"
          "(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)",
          Family::copy},
         {"cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0",
          Family::attention}});
}

BOOST_AUTO_TEST_CASE(miopen) {
  check("MIOpen",
        {{"miopenSp3AsmConv_v21_1_3_gfx9_fp32_f2x3_stride1", Family::convolution},
         {"miopenSp3AsmConv3x3F", Family::convolution},
         {"miopenSp3AsmConv_Ultra_v1_0_14_gfx10", Family::convolution},
         {"miopenSp3AsmConvRage_v4_9_0", Family::convolution},
         {"igemm_fwd_gtcx_nhwc_fp32_bx0_bt64x64x16", Family::convolution},
         {"igemm_fwd_gtcx_cnhwc_fp16_ex0_bt256x128x32_wt32x32x8_ws2x1_wr2x2", Family::convolution},
         {"naive_conv_fwd_nchw_half_double_half", Family::convolution},
         {"naive_conv_fwd_nchw_fp32", Family::convolution},
         {"MIOpenBatchNormFwdTrainSpatial", Family::normalization}});
}

BOOST_AUTO_TEST_CASE(nccl_rccl) {
  check("NCCL",
        {{"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", Family::comm_all_reduce},
         {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", Family::comm_all_reduce},
         {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", Family::comm_all_reduce},
         {"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", Family::comm_all_gather},
         {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", Family::comm_all_gather},
         {"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", Family::comm_reduce_scatter},
         {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", Family::comm_send_recv},
         {"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)", Family::comm_send_recv},
         {"ncclDevKernel_Broadcast_RING_LL", Family::comm_broadcast},
         {"ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", Family::comm_broadcast},
         {"ncclDevKernel_Reduce_Sum_f32_RING_LL", Family::comm_other}});
  check("RCCL",
        {{"ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", Family::comm_other},
         {"ncclDevKernel_Generic", Family::comm_other},
         {"mscclKernel_Sum_hip_bfloat16_Simple_false", Family::comm_other},
         {"mscclKernel_Sum_half_Simple_false(ncclDevComm*, mscclAlgo*, mscclWork*)", Family::comm_other},
         {"ncclKernel_AllReduce_RING_LL_Sum_bfloat16", Family::comm_all_reduce},
         {"ncclKernel_AllReduce_RING_LL_Sum_bf16", Family::comm_all_reduce},
         {"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
          Family::comm_send_recv}});
}

BOOST_AUTO_TEST_CASE(triton) {
  check("Triton (Inductor)",
        {{"triton_poi_fused_add_cos_sin_0", Family::elementwise},
         {"triton_poi_fused_addmm_mul_silu_view_1", Family::elementwise},  // addmm's epilogue, not the GEMM
         {"triton_red_fused_native_layer_norm_16", Family::normalization},
         {"triton_red_fused_native_layer_norm_native_layer_norm_backward_relu_10", Family::normalization},
         {"triton_red_fused__fused_rms_norm__to_copy_add_mul_select_unsqueeze_1", Family::normalization},
         {"triton_red_fused__native_batch_norm_legit_functional_2", Family::normalization},
         {"triton_per_fused__to_copy_add_mean_mul_pow_rsqrt_0", Family::normalization},
         {"triton_red_fused__log_softmax__to_copy_21", Family::softmax},
         {"triton_red_fused_convert_element_type_div_exp_prepare_softmax_online_sub_0", Family::softmax},
         {"triton_poi_fused_embedding_dense_backward_25", Family::embedding},
         {"triton_poi_fused_arange_ge_index_put_lift_fresh_0", Family::embedding},
         {"triton_red_fused_linalg_vector_norm_0", Family::reduction},
         {"triton_red_fused__to_copy_add_mul_native_dropout_backwa", Family::reduction},
         {"triton_tem_fused_bmm_7", Family::gemm},
         {"triton_tem_fused__to_copy_addmm_gelu_t_view_9", Family::gemm},
         {"triton_tem_fused_addmm_t_view", Family::gemm},
         {"triton_tem_fused__to_copy_convolution_repeat_unsqueeze_view_2", Family::convolution},
         {"triton_tem_fused_flex_attention_backward", Family::attention},
         {"triton_red_fused_convolution_backward_4", Family::convolution}});
}

BOOST_AUTO_TEST_CASE(pytorch_native) {
  check("PyTorch at::native",
        {{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
          "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
          Family::elementwise},
         {"void at::native::unrolled_elementwise_kernel<at::native::AUnaryFunctor<float, float, float, "
          "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, "
          "unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, "
          "at::native::memory::StoreWithoutCast>",
          Family::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, "
          "1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
          Family::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)"
          "::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
          "at::detail::Array<char*, 2> >",
          Family::elementwise},
         {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned int, 1, 4, bool>"
          "(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned int>)",
          Family::elementwise},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
          "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
          "float>, unsigned int, float, 4>)",
          Family::reduction},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::NormTwoOps<float, float, "
          "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::NormTwoOps<float, float, float>, "
          "unsigned int, float, 4>)",
          Family::reduction},  // torch.norm: a reduction, not a normalization
         {"void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float const*, long, long, "
          "long, int, int, int, int, int, int, int, int, int, int, float*, long*)",
          Family::reduction},
         {"void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, int, int>::Policy800, false, "
          "long, int, int, int>(int*, int*, int*, int const*, long*, long const*, int*, int const*, int, int, int)",
          Family::reduction},
         {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, false>(float*, float const*, "
          "int, int, int, bool const*, int, bool)",
          Family::softmax},
         {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
          "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
          Family::softmax},
         {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float "
          "const*, float const*, float const*, float*, float*, float*)",
          Family::normalization},
         {"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<float, float>(float const*, float "
          "const*, float const*, float const*, float const*, float*, int)",
          Family::normalization},
         {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<float, float>(long, long, float "
          "const*, float const*, float const*, float const*, float*, float*)",
          Family::normalization},
         {"void at::native::batch_norm_collect_statistics_kernel<at::native::InvStd, float, float, float, int>",
          Family::normalization},
         {"void at::native::(anonymous namespace)::indexSelectLargeIndex<float, int, unsigned int, 1, 1, -2, true>"
          "(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned int>)",
          Family::embedding},
         {"void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::"
          "index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, "
          "c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>",
          Family::embedding},
         {"void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_gather_internal_"
          "kernel<true, float>::operator()<at::native::ReduceAdd>(at::TensorIterator&, long, long, long, float "
          "const*, at::native::ReduceAdd const&)::{lambda(int)#1}>(int, at::native::ReduceAdd)",
          Family::embedding},
         {"void at::native::(anonymous namespace)::embedding_backward_feature_kernel<float, float, long>(long const*, "
          "float const*, float*, int, long, int, int)",
          Family::embedding},
         {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, 1>(float*, "
          "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, "
          "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
          Family::copy},
         {"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
          "::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, "
          "at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned "
          "int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >",
          Family::copy},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::"
          "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::"
          "operator()() const::{lambda(float)#1}> >(int, at::native::gpu_kernel_impl_nocast)",
          Family::copy},
         {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
          "TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
          "std::plus<float>, float>",
          Family::elementwise}});
}

// The table's precedence (README "Kernel families"), where names carry words of
// several families.
BOOST_AUTO_TEST_CASE(precedence) {
  // A Triton kernel's op names are words: not NCCL, not cuBLAS.
  BOOST_TEST(family_name(classify("triton_poi_fused_all_reduce_copy_0", Kind::kernel)) == std::string("elementwise"));
  BOOST_TEST(family_name(classify("triton_red_fused_sum_0", Kind::kernel)) == std::string("reduction"));
  // Attention before convolution ("convert") and GEMM ("cutlass").
  BOOST_TEST(family_name(classify("flash_bwd_convert_dq_kernel", Kind::kernel)) == std::string("attention"));
  // Convolution before GEMM: cuDNN's implicit GEMMs are convolutions.
  BOOST_TEST(family_name(classify("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc", Kind::kernel)) ==
             std::string("convolution"));
  // FBGEMM names a library, not a GEMM.
  BOOST_TEST(family_name(classify("void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)",
                                  Kind::kernel)) == std::string("copy"));
  // Case does not matter; unknown names are "other".
  BOOST_TEST(family_name(classify("NVJET_TST_64X8", Kind::kernel)) == std::string("gemm"));
  BOOST_TEST(family_name(classify("my_custom_kernel", Kind::kernel)) == std::string("other"));
  BOOST_TEST(family_name(classify("", Kind::kernel)) == std::string("other"));
}

BOOST_AUTO_TEST_SUITE_END()
