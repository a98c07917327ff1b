#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "analysis/names/kernel_families.hpp"

using tracediff::analysis::classify;
using tracediff::analysis::Family;
using tracediff::analysis::family_from_name;
using tracediff::analysis::family_label;
using tracediff::analysis::family_name;
using tracediff::analysis::k_family_count;
using tracediff::model::Kind;
using F = tracediff::analysis::Family;

namespace {

struct Case {
  const char* name;
  Family family;
};

// Real kernel names: verbatim from the reference traces in ../shared/traces (Kineto on
// A100, V100, MI250), and from public profiles, traces, tests and sources of the
// libraries (vLLM, SGLang, aiter, TraceLens, NCCL, RCCL, MIOpen, FlashInfer,
// FlashAttention), as they were written there: cut short ("...") where the profile cut
// them, bare names where a profile listed only those.
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
         {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, float, float, f"
          "alse, true, true, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemv"
          "TensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<"
          "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemv"
          "TensorStridedBatched<float>, float>)",
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
         {"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22Implicit"
          "GemmMultistageINS_4gemm9GemmShapeILi128ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAccessIterat"
          "orOptimizedINS_11MatrixShapeILi128ELi32EEENS_10tfloat32_tENS_9transform29PitchLinearWarpRakedThreadM"
          "apINS_16PitchLinearShapeILi128ELi32EEELi128ENSF_ILi8ELi4EEELi4EEENS_12AlignedArrayISC_Li4ELi16EEEEEN"
          "SD_11threadblock25RegularTileAccessIteratorISB_SC_NS_6layout40ColumnMajorTensorOpMultiplicandCongruo"
          "usILi32ELi32EEELi1ESI_Li16EEELNS_4arch14CacheOperation4KindE0ENS4_48Conv2dWgradActivationTileAccessI"
          "teratorOptimizedINSA_ILi32ELi128EEESC_SI_SK_EENSN_ISW_SC_NSO_37RowMajorTensorOpMultiplicandCongruous"
          "ILi32ELi32EEELi0ESI_Li16EEELSU_0ENS6_11threadblock9MmaPolicyINS6_4warp11MmaTensorOpINS7_ILi64ELi64EL"
          "i32EEESC_SQ_SC_SZ_fNSO_8RowMajorENS13_17MmaTensorOpPolicyINSS_3MmaINS7_ILi16ELi8ELi8EEELi32ESC_S16_S"
          "C_NSO_11ColumnMajorEfS16_NSS_13OpMultiplyAddEEENSA_ILi1ELi1EEEEELi1ELb0EbEENSA_ILi0ELi0EEES1G_Li1EEE"
          "Li4EbEENS_8epilogue11threadblock8EpilogueIS8_S1F_Li1ENS1K_22PredicatedTileIteratorINS1K_26OutputTile"
          "OptimalThreadMapINS1K_15OutputTileShapeILi128ELi8ELi2ELi1ELi1EEENS1O_ILi1ELi8ELi1ELi1ELi8EEELi128ELi"
          "4ELi32EEEfLb0ENSO_9NoPermuteELb0EEENS1J_4warp24FragmentIteratorTensorOpIS15_S19_fNS_5ArrayIfLi4ELb1E"
          "EES16_EENS1U_20TileIteratorTensorOpIS15_S19_fS16_EENS1K_18SharedLoadIteratorINS1R_18CompactedThreadM"
          "apEfLi16EEENS1J_6thread17LinearCombinationIfLi4EffLNS24_9ScaleType4KindE0ELNS_15FloatRoundStyleE2EEE"
          "NSA_ILi0ELi8EEELi2ELi1EEENS11_30GemmIdentityThreadblockSwizzleILi4EEELNS1_8OperatorE2ENS1_17Conv2dPr"
          "oblemSizeELNS1_9GroupModeE0EEEEEvNT_6ParamsE",
          Family::convolution}});
}

BOOST_AUTO_TEST_CASE(tensile_rocblas_hipblaslt) {
  check("rocBLAS/hipBLASLt/Tensile",
        {{"Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CAD"
          "S0_EPS0_GRVWA1_GRVWB1_GSUAMB_ISA90a_IU1_K1_LBSPPA0_LBSPPB0_LBSPPM0_LPA0_LPB0_LPM0_LRVW1_LWPMn1_MIAV0"
          "_MIWT1_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS2_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO1_SR"
          "VW0_SSO0_SVW1_TLDS0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG64_4_1",
          Family::gemm},
         {"Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CAD"
          "S0_EPS0_GRVWA2_GRVWB2_GSUAMB_ISA90a_IU1_K1_LBSPPA128_LBSPPB128_LBSPPM0_LPA8_LPB8_LPM0_LRVW4_LWPMn1_M"
          "IAV0_MIWT1_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS2_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO"
          "1_SRVW0_SSO0_SVW1_TLDS1_USFGROn1_VSn1_VWA1_VWB1_WSGRA1_WSGRB1_WS64_WG64_4_1",
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
         {"_ZN2ck15kernel_moe_gemmINS_25GridwiseMoeGemmBlockScaleINS_13tensor_layout4gemm", Family::moe},
         {"kernel_gemm_xdl_cshuffle_v3_multi_abd", Family::gemm},
         {"convolution_forward_implicit_gemm_v6r1_dlops_nchw_kcyx_nkhw", Family::convolution},
         {"MoeSortingKernel", Family::moe}});
}

BOOST_AUTO_TEST_CASE(aiter) {
  check("aiter",
        {{"_ZN5aiter59fmoe_stage1_bf16_pertokenFp8_blockscale_g1u1_32x128_3tg_pf3E", Family::moe},
         {"_ZN5aiter50fmoe_bf16_pertokenMXfp4_g1u1_flat_novs_silu_16x128E", Family::moe},
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
        {{"void flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128, (int)128, (int)64, (i...", Family::attention},
         {"void pytorch_flash::flash_fwd_kernel<traits>(pytorch_flash::Flash_fwd_params)", Family::attention},
         {"void pytorch_flash::flash_fwd_splitkv_kernel<traits>(params)", Family::attention},
         {"void pytorch_flash::flash_fwd_splitkv_combine_kernel<traits>(params)", Family::attention},
         {"flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<(in...", Family::attention},
         // FlashAttention 3: a CUTLASS device kernel, attention all the same.
         {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloop"
          "FwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<64>, cute::C<128>, "
          "cute::C<128> >, 128, cutlass::bfloat16_t, float, c",
          Family::attention},
         {"kiln_flash::flash_fwd_splitkv_kernel", Family::attention}});
}

BOOST_AUTO_TEST_CASE(flashinfer) {
  check("FlashInfer",
        {{"void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, "
          "(unsigned int)128, (unsigned int)2, (unsigned int)2, (unsigned int)8, (unsigned int)8, (unsigned int)4, "
          "(unsigned int)1, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, fl",
          Family::attention},
         {"void flashinfer::BatchPrefillWithRaggedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, "
          "128u, 2u, 4u, 4u, 4u, 4u, 1u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bf",
          Family::attention},
         {"void flashinfer::BatchPrefillWithRaggedKVCacheKernel<(unsigned int)1, (bool)1, (flashinfer::QKVLayo",
          Family::attention},
         {"::flashinfer::BatchDecodeWithPagedKVCacheKernel<::flashinfer::PosEncodingMode::kNone, ", Family::attention},
         {"flashinfer::BatchDecodeWithPagedKVCache", Family::attention},
         {"void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, "
          "__nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)",
          Family::normalization},
         {"void flashinfer::norm::FusedAddRMSNormKernel<(unsigned int)8, __half>(T2 *, T2 *, T2 *, unsigned int, "
          "unsigned int, unsigned int, float, float)",
          Family::normalization},
         {"act_and_mul_kernel", Family::elementwise}});
}

BOOST_AUTO_TEST_CASE(fmha) {
  check("fmha",
        {{"fmhaSm100aKernel_QE4m3KvE2m1OE4m3H128PagedKvDenseP16VarSeqQ8Kv128PersistentSwapsAbForGen", Family::attention},
         {"fmhaSm100fKernel_Qkv", Family::attention},
         {"fmha_cutlassF_f16_aligned_64x64_rf_sm80", Family::attention},
         {"fmha_cutlassF_bf16_aligned_64x128_rf_sm80", Family::attention},
         {"fmha_cutlassB_bf16_aligned_128x128_k128_sm80", Family::attention},
         {"fmha_cutlassB_f16_aligned_64x64_k64_sm70", Family::attention},
         {"ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<Pipeline, Epilogue>", Family::attention},
         {"fmhaReductionKernel", Family::attention},
         {"_ZN5aiter24fmha_fwd_hd128_bf16_rtneE", Family::attention},
         {"fmha_fwd_hd128_bf16_causal_rtz", Family::attention}});
}

BOOST_AUTO_TEST_CASE(vllm_sglang) {
  check("vLLM/SGLang",
        {{"paged_attention_v1_kernel", Family::attention},
         {"paged_attention_v2_kernel", Family::attention},
         {"paged_attention_quantized_fa3_partial", Family::attention},
         {"kernel_unified_attention_3d", Family::attention},
         {"kernel_unified_attention_2d", Family::attention},
         {"_fwd_kernel_stage1", Family::attention},
         {"_fwd_grouped_kernel_stage1", Family::attention},
         {"reshape_and_cache_flash_kernel", Family::attention},
         {"vllm::cross_device_reduce_1stage", Family::comm_all_reduce},
         {"cross_device_reduce_1stage", Family::comm_all_reduce},
         {"rms_norm_kernel", Family::normalization},
         {"rms_norm_batched_offset", Family::normalization},
         {"silu_and_mul_kernel", Family::elementwise},
         {"act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, (bool)1>(T1 *, cons",
          Family::elementwise},
         {"topkGatingSoftmax", Family::moe}});
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
         {"void at::native::unrolled_elementwise_kernel<at::native::AUnaryFunctor<float, float, float, at::nati"
          "ve::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, un"
          "signed int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::nati"
          "ve::memory::StoreWithoutCast>(int, at::native::AUnaryFunctor<float, float, float, at::native::binary"
          "_internal::MulFunctor<float> >, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int"
          ">, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory"
          "::StoreWithoutCast)",
          Family::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, "
          "1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
          Family::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at::TensorIterator"
          "Base&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::d"
          "etail::Array<char*, 2> >(int, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}"
          "::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, "
          "2>)",
          Family::elementwise},
         {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned int, 1, 4, b"
          "ool>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned"
          " int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, at::PhiloxCudaState)",
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
          Family::sort},
         {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, false>(float*, float const*, "
          "int, int, int, bool const*, int, bool)",
          Family::softmax},
         {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, c10::Half, float, c10::Half, "
          "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(c10::Half*, c10::Half const*, int)",
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
         {"batch_norm_collect_statistics_kernel", Family::normalization},
         {"void at::native::(anonymous namespace)::indexSelectLargeIndex<float, int, unsigned int, 1, 1, -2, tr"
          "ue>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned "
          "int>, at::cuda::detail::TensorInfo<int, unsigned int>, int, int, unsigned int, unsigned int, long)",
          Family::embedding},
         {"void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_ker"
          "nel_impl<at::native::OpaqueType<8> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<lon"
          "g>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<lon"
          "g>, at::native::index_kernel_impl<at::native::OpaqueType<8> >(at::TensorIteratorBase&, c10::ArrayRef"
          "<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1} const&)::{lambda(int)#1}>(int, at::nati"
          "ve::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<8> >(at::TensorIteratorBas"
          "e&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBas"
          "e&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<8"
          "> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#"
          "1} const&)::{lambda(int)#1})",
          Family::embedding},
         {"void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_gather_interna"
          "l_kernel<true, float>::operator()<at::native::ReduceAdd>(at::TensorIterator&, long, long, long, at::"
          "native::ReduceAdd const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_gather_internal_kernel<tr"
          "ue, float>::operator()<at::native::ReduceAdd>(at::TensorIterator&, long, long, long, at::native::Red"
          "uceAdd const&)::{lambda(int)#1})",
          Family::embedding},
         {"embedding_backward_feature_kernel", Family::embedding},
         {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, 1>(float*, "
          "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, "
          "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
          Family::copy},
         {"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorB"
          "ase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, at::det"
          "ail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned "
          "int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::d"
          "irect_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::ope"
          "rator()() const::{lambda(long)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned "
          "int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::mem"
          "ory::StoreWithCast<1>)",
          Family::copy},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::direct_co"
          "py_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()("
          ") const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorI"
          "teratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}"
          " const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cu"
          "da(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{la"
          "mbda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&"
          ")::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{l"
          "ambda(int)#1})",
          Family::copy},
         {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace):"
          ":TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>,"
          " std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(ano"
          "nymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)",
          Family::elementwise}});
}

// Names as they are in the reference traces (../shared/traces, and real H100 traces of
// MLP, ResNet and synchronisation pairs): one name per line, grouped by the library that built them.
BOOST_AUTO_TEST_CASE(reference_traces) {
  check("cuBLAS, cuBLASLt, MAGMA (traces)",
        {{"volta_sgemm_64x64_nt", F::gemm},
         {"volta_sgemm_128x32_nt", F::gemm},
         {"volta_sgemm_64x64_tn", F::gemm},
         {"volta_sgemm_32x128_tn", F::gemm},
         {"volta_sgemm_64x64_nn", F::gemm},
         {"volta_sgemm_32x128_nn", F::gemm},
         {"volta_sgemm_64x32_sliced1x4_tn", F::gemm},
         {"volta_sgemm_128x32_sliced1x4_tn", F::gemm},
         {"volta_sgemm_64x64_tt", F::gemm},
         {"volta_sgemm_32x128_tt", F::gemm},
         {"ampere_sgemm_64x64_nn", F::gemm},
         {"ampere_sgemm_32x128_nn", F::gemm},
         {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", F::gemm},
         {"ampere_sgemm_32x128_tn", F::gemm},
         {"ampere_sgemm_128x128_tn", F::gemm},
         {"volta_sgemm_64x32_sliced1x4_nt", F::gemm},
         {"volta_sgemm_32x32_sliced1x4_nt", F::gemm},
         {"void splitKreduce_kernel<float, float, float, float, true, true, false>(cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*)", F::gemm},
         {"void splitKreduce_kernel<float, float, float, float, true, false, false>(cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*)", F::gemm},
         {"ampere_sgemm_128x128_tt", F::gemm},
         {"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", F::gemm},
         {"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT", F::gemm},
         {"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NTT", F::gemm},
         {"volta_sgemm_64x32_sliced1x4_nn", F::gemm},
         {"volta_sgemm_32x32_sliced1x4_nn", F::gemm},
         {"ampere_sgemm_32x32_sliced1x4_tn", F::gemm},
         {"sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", F::gemm},
         {"sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", F::gemm},
         {"void magma_sgemmEx_kernel<float, float, float, true, false, 6, 4, 6, 3, 4>(int, int, int, Tensor, int, Tensor, int, Tensor, int, Tensor, int, int, int, float const*, float const*, float, float, int, cublasLtEpilogue_t, int, void const*, long)", F::gemm},
         {"void magma_sgemmEx_kernel<float, float, float, false, false, 6, 3, 5, 3, 3>(int, int, int, Tensor, int, Tensor, int, Tensor, int, Tensor, int, int, int, float const*, float const*, float, float, int, cublasLtEpilogue_t, int, void const*, long)", F::gemm},
         {"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, true, false>(cublasLt::cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*)", F::gemm},
         {"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, false, float, float, float, true, false, false, false>(cublasLt::cublasSplitKParams<float>, float const*, float const*, float*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*, float*, float*, float const*, float const*, float const*, float const*, float const*)", F::gemm},
         {"void gemv2N_kernel<int, int, float, float, float, float, 128, 8, 4, 4, 1, false, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)", F::gemm},
         {"void sgemm_largek_lds64<true, false, 5, 5, 4, 4, 4, 34>(float*, float const*, float const*, int, int, int, int, int, int, float const*, float const*, float, float, int, int, int*, int*)", F::gemm},
         {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, float, float, false, true, false, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)", F::gemm},
         {"void gemmk1_kernel<float, 256, 5, false, false, false, false, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float, true, true>(cublasGemmk1Params<float, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float, biasType<cublasGemvTensorStridedBatched<float>::value_type, float>::type>)", F::gemm},
         {"void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>, float, float)", F::gemm},
         {"void gemvNSP_kernel<float, float, float, float, 1, 32, 4, 1024, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)", F::gemm},
         {"void gemvNSP_kernel<float, float, float, float, 1, 16, 4, 1024, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)", F::gemm},
         {"ampere_sgemm_32x32_sliced1x4_nt", F::gemm},
         {"ampere_sgemm_64x32_sliced1x4_nt", F::gemm},
         {"ampere_sgemm_32x32_sliced1x4_nn", F::gemm},
         {"ampere_sgemm_32x128_nt", F::gemm},
         {"void scal_kernel<float, float, 1, true, 6, 5, 5, 3>(cublasTransposeParams<float>, float const*, float*, float const*)", F::gemm},
         {"void scal_kernel<float, float, 1, false, 6, 5, 5, 3>(cublasTransposeParams<float>, float const*, float*, float const*)", F::gemm},
         {"void cublasLt::epilogue::impl::globalKernel<8, 32, float, float, float, true, true, 1>(int, int, long, float*, cublasLtEpilogue_t, int, float*, long, void*, long, long, long, float*, long, int*)", F::gemm}});
  check("CUTLASS (traces)",
        {{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>", F::gemm},
         {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nt_align4>(cutlass_80_tensorop_s1688gemm_64x64_32x4_nt_align4::Params)", F::gemm},
         {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nt_align1>(cutlass_80_tensorop_s1688gemm_64x64_32x4_nt_align1::Params)", F::gemm},
         {"void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(cutlass_80_simt_sgemm_64x64_8x5_nn_align1::Params)", F::gemm},
         {"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nt_align1>(cutlass_80_simt_sgemm_256x128_8x4_nt_align1::Params)", F::gemm}});
  check("cuDNN (traces)",
        {{"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>(float, float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float*, float*, float const*, float const*, float)", F::normalization},
         {"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(float, float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float*, float*, float const*, float const*, float)", F::normalization},
         {"void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int, int, float const*, int, float const*, int, float*, kernel_grad_params, unsigned long long, int, unsigned long long, int, float, int, int, int)", F::convolution},
         {"cudnn_infer_volta_scudnn_128x128_relu_medium_nn_v1", F::convolution},
         {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 32, true, 1, true>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)", F::normalization},
         {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)", F::normalization},
         {"cudnn_infer_volta_scudnn_128x64_stridedB_interior_nn_v1", F::convolution},
         {"cudnn_train_volta_scudnn_128x128_stridedB_splitK_medium_nn_v1", F::convolution},
         {"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)", F::copy},
         {"void wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, 512>(int, int, int, float const*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)", F::convolution},
         {"void wgrad_alg0_engine<float, 128, 6, 8, 3, 3, 5, false, 512>(int, int, int, float const*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)", F::convolution},
         {"cudnn_infer_volta_scudnn_128x64_relu_small_nn_v1", F::convolution},
         {"cudnn_infer_volta_scudnn_128x128_relu_small_nn_v1", F::convolution},
         {"void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_fw_tr_1C11_args<float>)", F::normalization},
         {"cudnn_infer_volta_scudnn_128x64_stridedB_small_nn_v1", F::convolution},
         {"cudnn_infer_volta_scudnn_128x128_stridedB_small_nn_v1", F::convolution},
         {"cudnn_train_volta_scudnn_128x64_stridedB_splitK_xregs_large_nn_v1", F::convolution},
         {"void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float const*, float*)", F::copy},
         {"void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float const*, float*)", F::copy},
         {"cudnn_infer_volta_scudnn_128x64_relu_xregs_large_nn_v1", F::convolution},
         {"void cudnn::cnn::reduce_wgrad_nchw_helper<float, float>(void*, void const*, float, int, int)", F::convolution},
         {"void cudnn::winograd_nonfused::winogradForwardOutput4x4<float, float>(cudnn::winograd_nonfused::WinogradOutputParams<float, float>)", F::convolution},
         {"void cudnn::winograd_nonfused::winogradWgradData4x4<float, float>(cudnn::winograd_nonfused::WinogradDataParams<float, float>)", F::convolution},
         {"void cudnn::winograd_nonfused::winogradWgradDelta4x4<float, float>(cudnn::winograd_nonfused::WinogradDeltaParams<float, float>)", F::convolution},
         {"cudnn_train_volta_scudnn_128x128_stridedB_splitK_interior_nn_v1", F::convolution},
         {"void cudnn::engines_precompiled::nhwcToNchwKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, float const*, float*)", F::copy},
         {"cudnn_infer_volta_scudnn_128x32_sliced1x4_ldg4_relu_exp_small_nhwc_tn_v1", F::convolution},
         {"cudnn_infer_volta_scudnn_128x64_3dconv_fprop_medium_nn_v1", F::convolution},
         {"cudnn_infer_volta_scudnn_128x32_sliced1x4_ldg4_relu_exp_medium_nhwc_tn_v1", F::convolution},
         {"void cudnn::ops::nhwcToNchwKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>(cudnn::ops::nhwc2nchw_params_t<float>, float const*, float*)", F::copy},
         {"sm90_xmma_dgrad_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32_warpgroupsize1x1x1_g1_strided_execute_kernel__5x_cudnn", F::convolution},
         {"sm90_xmma_dgrad_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize256x64x32_warpgroupsize1x1x1_g1_strided_execute_kernel__5x_cudnn", F::convolution},
         {"void cudnn::winograd_nonfused::winogradForwardFilter4x4<float, float>(cudnn::winograd_nonfused::WinogradFilterParams<float, float>)", F::convolution},
         {"void cutlass__5x_cudnn::Kernel<cutlass_tensorop_s1688fprop_optimized_tf32_256x64_16x4_nhwc_align4>(cutlass_tensorop_s1688fprop_optimized_tf32_256x64_16x4_nhwc_align4::Params)", F::convolution},
         {"void cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::reduction::kernel::ReduceSplitK<cutlass__5x_cudnn::MatrixShape<4, 128>, cutlass__5x_cudnn::epilogue::thread::LinearCombination<float, 4, float, float, (cutlass__5x_cudnn::epilogue::thread::ScaleType::Kind)0, (cutlass__5x_cudnn::FloatRoundStyle)2>, cutlass__5x_cudnn::reduction::thread::ReduceAdd<float, float, 4>, 4> >(cutlass__5x_cudnn::reduction::kernel::ReduceSplitK<cutlass__5x_cudnn::MatrixShape<4, 128>, cutlass__5x_cudnn::epilogue::thread::LinearCombination<float, 4, float, float, (cutlass__5x_cudnn::epilogue::thread::ScaleType::Kind)0, (cutlass__5x_cudnn::FloatRoundStyle)2>, cutlass__5x_cudnn::reduction::thread::ReduceAdd<float, float, 4>, 4>::Params)", F::convolution},
         {"sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn", F::convolution},
         {"sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn", F::convolution},
         {"void cudnn::ops::scalePackedTensor_kernel<float, float>(long, float*, float)", F::convolution},
         {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn", F::convolution},
         {"sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", F::convolution},
         {"sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", F::convolution},
         {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_train", F::convolution},
         {"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_64x256_32x4_nhwc_align4>(cutlass_tensorop_s1688dgrad_optimized_tf32_64x256_32x4_nhwc_align4::Params)", F::convolution},
         {"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_64x256_16x4_nhwc_align4>(cutlass_tensorop_s1688dgrad_optimized_tf32_64x256_16x4_nhwc_align4::Params)", F::convolution},
         {"void cudnn::winograd_nonfused::winogradWgradOutput4x4<float, float>(cudnn::winograd_nonfused::WinogradWgradOutputParams<float, float>)", F::convolution},
         {"sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", F::convolution},
         {"sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", F::convolution},
         {"sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn", F::convolution},
         {"cudnn_infer_ampere_scudnn_128x64_relu_xregs_large_nn_v1", F::convolution},
         {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer", F::convolution},
         {"sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize256x64x32_stage3_warpsize4x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn", F::convolution},
         {"_ZN17cutlass__5x_cudnn6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22ImplicitGemmMultistageINS_4gemm9GemmShapeILi64ELi128ELi16EEENS4_52Conv2dWgradOutputGradientTileAccessIteratorOptimizedINS_11MatrixShapeILi64ELi16EEENS_10tfloat32_tENS_9transform29PitchLinearWarpRakedThreadMapINS_16PitchLinearShapeILi64ELi16EEELi128ENSF_ILi8ELi4EEELi4EEENS_12AlignedArrayISC_Li4ELi16EEEEENSD_11threadblock25RegularTileAccessIteratorISB_SC_NS_6layout40ColumnMajorTensorOpMultiplicandCongruousILi32ELi32EEELi1ESI_Li16EEELNS_4arch14CacheOperation4KindE0ENS4_48Conv2dWgradActivationTileAccessIteratorOptimizedINSA_ILi16ELi128EEESC_NSE_INSF_ILi128ELi16EEELi128ESH_Li4EEESK_EENSN_ISW_SC_NSO_37RowMajorTensorOpMultiplicandCongruousILi32ELi32EEELi0ESY_Li16EEELSU_0ENS6_11threadblock9MmaPolicyINS6_4warp11MmaTensorOpINS7_ILi32ELi64ELi16EEESC_SQ_SC_S11_fNSO_8RowMajorENS15_17MmaTensorOpPolicyINSS_3MmaINS7_ILi16ELi8ELi8EEELi32ESC_S18_SC_NSO_11ColumnMajorEfS18_NSS_13OpMultiplyAddEEENSA_ILi1ELi1EEEEELi1ELb0EbEENSA_ILi0ELi0EEES1I_Li1EEELi6EbEENS_8epilogue11threadblock8EpilogueIS8_S1H_Li1ENS1M_22PredicatedTileIteratorINS1M_26OutputTileOptimalThreadMapINS1M_15OutputTileShapeILi128ELi8ELi2ELi1ELi1EEENS1Q_ILi1ELi4ELi1ELi1ELi4EEELi128ELi4ELi32EEEfLb0ENSO_9NoPermuteELb0EEENS1L_4warp24FragmentIteratorTensorOpIS17_S1B_fNS_5ArrayIfLi4ELb1EEES18_EENS1W_20TileIteratorTensorOpIS17_S1B_fS18_EENS1M_18SharedLoadIteratorINS1T_18CompactedThreadMapEfLi16EEENS1L_6thread17LinearCombinationIfLi4EffLNS26_9ScaleType4KindE0ELNS_15FloatRoundStyleE2EEENSA_ILi0ELi8EEELi2ELi1EEENS13_30GemmIdentityThreadblockSwizzleILi4EEELNS1_8OperatorE2ENS1_17Conv2dProblemSizeELNS1_9GroupModeE0EEEEEvNT_6ParamsE", F::convolution},
         {"void cutlass_cudnn_train::Kernel<cutlass_tensorop_s1688wgrad_optimized_tf32_256x128_16x3_nhwc_align4>(cutlass_tensorop_s1688wgrad_optimized_tf32_256x128_16x3_nhwc_align4::Params)", F::convolution},
         {"void cutlass_cudnn_train::Kernel<cutlass_cudnn_train::reduction::kernel::ReduceSplitK<cutlass_cudnn_train::MatrixShape<4, 128>, cutlass_cudnn_train::epilogue::thread::LinearCombination<float, 4, float, float, (cutlass_cudnn_train::epilogue::thread::ScaleType::Kind)0, (cutlass_cudnn_train::FloatRoundStyle)2>, cutlass_cudnn_train::reduction::thread::ReduceAdd<float, float, 4>, 4> >(cutlass_cudnn_train::reduction::kernel::ReduceSplitK<cutlass_cudnn_train::MatrixShape<4, 128>, cutlass_cudnn_train::epilogue::thread::LinearCombination<float, 4, float, float, (cutlass_cudnn_train::epilogue::thread::ScaleType::Kind)0, (cutlass_cudnn_train::FloatRoundStyle)2>, cutlass_cudnn_train::reduction::thread::ReduceAdd<float, float, 4>, 4>::Params)", F::convolution},
         {"sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer", F::convolution},
         {"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_stage5_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer", F::convolution},
         {"sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize256x64x32_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", F::convolution},
         {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize256x64x32_stage3_warpsize4x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer", F::convolution},
         {"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22ImplicitGemmMultistageINS_4gemm9GemmShapeILi64ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAccessIteratorOptimizedINS_11MatrixShapeILi64ELi32EEENS_10tfloat32_tENS_9transform29PitchLinearWarpRakedThreadMapINS_16PitchLinearShapeILi64ELi32EEELi128ENSF_ILi8ELi4EEELi4EEENS_12AlignedArrayISC_Li4ELi16EEEEENSD_11threadblock25RegularTileAccessIteratorISB_SC_NS_6layout40ColumnMajorTensorOpMultiplicandCongruousILi32ELi32EEELi1ESI_Li16EEELNS_4arch14CacheOperation4KindE0ENS4_48Conv2dWgradActivationTileAccessIteratorOptimizedINSA_ILi32ELi128EEESC_NSE_INSF_ILi128ELi32EEELi128ESH_Li4EEESK_EENSN_ISW_SC_NSO_37RowMajorTensorOpMultiplicandCongruousILi32ELi32EEELi0ESY_Li16EEELSU_0ENS6_11threadblock9MmaPolicyINS6_4warp11MmaTensorOpINS7_ILi32ELi64ELi32EEESC_SQ_SC_S11_fNSO_8RowMajorENS15_17MmaTensorOpPolicyINSS_3MmaINS7_ILi16ELi8ELi8EEELi32ESC_S18_SC_NSO_11ColumnMajorEfS18_NSS_13OpMultiplyAddEEENSA_ILi1ELi1EEEEELi1ELb0EbEENSA_ILi0ELi0EEES1I_Li1EEELi3EbEENS_8epilogue11threadblock8EpilogueIS8_S1H_Li1ENS1M_22PredicatedTileIteratorINS1M_26OutputTileOptimalThreadMapINS1M_15OutputTileShapeILi128ELi8ELi2ELi1ELi1EEENS1Q_ILi1ELi4ELi1ELi1ELi4EEELi128ELi4ELi32EEEfLb0ENSO_9NoPermuteELb0EEENS1L_4warp24FragmentIteratorTensorOpIS17_S1B_fNS_5ArrayIfLi4ELb1EEES18_EENS1W_20TileIteratorTensorOpIS17_S1B_fS18_EENS1M_18SharedLoadIteratorINS1T_18CompactedThreadMapEfLi16EEENS1L_6thread17LinearCombinationIfLi4EffLNS26_9ScaleType4KindE0ELNS_15FloatRoundStyleE2EEENSA_ILi0ELi8EEELi2ELi1EEENS13_30GemmIdentityThreadblockSwizzleILi4EEELNS1_8OperatorE2ENS1_17Conv2dProblemSizeELNS1_9GroupModeE0EEEEEvNT_6ParamsE", F::convolution},
         {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_stage5_warpsize2x2x1_g1_tensor16x8x8_t1r1s1_execute_kernel_cudnn_train", F::convolution},
         {"void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cudnn::implicit_gemm::wgrad_indexed::Warp_specialized_params<xmma__5x_cudnn::Grid_constant_params> >(xmma__5x_cudnn::implicit_gemm::wgrad_indexed::Warp_specialized_params<xmma__5x_cudnn::Grid_constant_params>, bool)", F::convolution},
         {"void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cudnn::implicit_gemm::dgrad::Warp_specialized_params_nontemplate<xmma__5x_cudnn::Grid_constant_params> >(xmma__5x_cudnn::implicit_gemm::dgrad::Warp_specialized_params_nontemplate<xmma__5x_cudnn::Grid_constant_params>, bool)", F::convolution},
         {"sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x32_warpgroupsize1x1x1_g1_execute_split_k_kernel__5x_cudnn", F::convolution},
         {"void cask_cudnn_infer::computeOffsetsKernel<true, false>(cask_cudnn_infer::ComputeOffsetsParams)", F::convolution},
         {"void fft2d_c2r_32x32<float, false, false, 0u, false, false>(float*, float2 const*, int, int, int, int, int, int, int, int, int, float, float, cudnn::reduced_divisor, bool, float*, float*, int2, int, int)", F::convolution},
         {"sm80_xmma_wgrad_implicit_gemm_indexed_wo_smem_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize16x64x64_stage1_warpsize1x4x1_g1_tensor16x8x8_aligna8_alignc8_execute_kernel__5x_cudnn", F::convolution},
         {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn", F::convolution},
         {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x64x64_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn", F::convolution},
         {"cask_cudnn_infer::computeBOffsetsKernel(cask_cudnn_infer::ComputeBOffsetsParams)", F::convolution},
         {"sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3_warpsize1x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn", F::convolution},
         {"void cudnn::winograd::generateWinogradTilesKernel<0, float, float>(cudnn::winograd::GenerateWinogradTilesParams<float, float>)", F::convolution},
         {"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_split_k_kernel_cudnn_train", F::convolution},
         {"void fft2d_r2c_32x32<float, false, 5u, true>(float2*, float const*, int, int, int, int, int, int, int, int, int, cudnn::reduced_divisor, bool, int2, int, int)", F::convolution},
         {"cask_cudnn_train::computeWgradSplitKOffsetsKernel(cask_cudnn_train::ComputeSplitKOffsetsParams)", F::convolution},
         {"cask_cudnn_train::computeWgradBOffsetsKernel(cask_cudnn_train::ComputeWgradBOffsetsParams)", F::convolution},
         {"void cask_cudnn_infer::computeOffsetsKernel3D<false>(cask_cudnn_infer::ComputeOffsetsParams)", F::convolution},
         {"void cask_cudnn::computeOffsetsKernel<false, false>(cask_cudnn::ComputeOffsetsParams)", F::convolution}});
  check("NCCL (traces)",
        {{"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", F::comm_all_reduce}});
  check("Triton (Inductor) (traces)",
        {{"triton__0d1d2d3d4d5d6d7d8d9d10d11d12d13d14", F::elementwise},
         {"triton__0d1d2d3d4d5d6d", F::elementwise},
         {"triton__0d1d2d3d4d5d", F::elementwise},
         {"triton_poi_fused_add_mul_tanh_tanh_backward_view_2", F::elementwise},
         {"triton_poi_fused_add_mul_tanh_view_3", F::elementwise},
         {"triton_poi_fused__to_copy_1", F::copy},
         {"triton_poi_fused__to_copy_3", F::copy},
         {"triton__0d1d2d3d", F::elementwise},
         {"triton__0d1d2d", F::elementwise},
         {"triton_red_fused_sum_view_5", F::reduction},
         {"triton_red_fused__to_copy_add_native_layer_norm_native_layer_norm_backward_view_11", F::normalization},
         {"triton_per_fused_sum_4", F::reduction},
         {"triton_red_fused__to_copy_native_layer_norm_backward_view_7", F::normalization},
         {"triton_per_fused__to_copy_add_native_layer_norm_backward_view_6", F::normalization},
         {"triton_red_fused_sum_1", F::reduction},
         {"triton_per_fused__to_copy_add_native_layer_norm_native_layer_norm_backward_view_7", F::normalization},
         {"triton_poi_fused_add_view_8", F::elementwise},
         {"triton_per_fused__to_copy_add_native_layer_norm_native_layer_norm_backward_view_10", F::normalization},
         {"triton_per_fused__to_copy_add_native_layer_norm_backward_view_9", F::normalization},
         {"triton_per_fused__to_copy_add_native_layer_norm_native_layer_norm_backward_view_6", F::normalization},
         {"triton_per_fused__to_copy_native_layer_norm_0", F::normalization},
         {"triton_per_fused__to_copy_add_native_layer_norm_view_5", F::normalization},
         {"triton_per_fused_sum_view_8", F::reduction},
         {"triton__0d1d23d", F::elementwise},
         {"triton_poi_fused__to_copy_view_0", F::copy},
         {"triton_poi_fused__to_copy_2", F::copy},
         {"triton_poi_fused__to_copy_4", F::copy}});
  check("CUB (traces)",
        {{"void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, float, int>::Policy800, false, long, float, int, int>(int*, int*, int*, int const*, long*, long const*, float*, float const*, int, int, int)", F::sort},
         {"void cub::DeviceReduceByKeyKernel<cub::DispatchReduceByKey<long*, long*, cub::ConstantInputIterator<int, int>, int*, int*, cub::Equality, cub::Sum, int>::PtxReduceByKeyPolicy, long*, long*, cub::ConstantInputIterator<int, int>, int*, int*, cub::ReduceByKeyScanTileState<int, int, true>, cub::Equality, cub::Sum, int>(long*, long*, cub::ConstantInputIterator<int, int>, int*, int*, cub::ReduceByKeyScanTileState<int, int, true>, int, cub::Equality, cub::Sum, int)", F::reduction},
         {"void cub::DeviceScanKernel<cub::AgentScanPolicy<128, 15, int, (cub::BlockLoadAlgorithm)3, (cub::CacheLoadModifier)0, (cub::BlockStoreAlgorithm)3, (cub::BlockScanAlgorithm)2, cub::MemBoundScaling<128, 15, int> >, int*, int*, cub::ScanTileState<int, true>, cub::Sum, int, int>(int*, int*, cub::ScanTileState<int, true>, int, cub::Sum, int, int)", F::sort},
         {"void cub::DeviceScanKernel<cub::AgentScanPolicy<128, 15, int, (cub::BlockLoadAlgorithm)3, (cub::CacheLoadModifier)0, (cub::BlockStoreAlgorithm)3, (cub::BlockScanAlgorithm)2, cub::MemBoundScaling<128, 15, int> >, int*, int*, cub::ScanTileState<int, true>, cub::Sum, cub::NullType, int>(int*, int*, cub::ScanTileState<int, true>, int, cub::Sum, cub::NullType, int)", F::sort},
         {"void cub::DeviceRadixSortHistogramKernel<cub::DeviceRadixSortPolicy<long, int, int>::Policy800, false, long, int>(int*, long const*, int, int, int)", F::sort},
         {"void cub::DeviceRadixSortHistogramKernel<cub::DeviceRadixSortPolicy<long, float, int>::Policy800, false, long, int>(int*, long const*, int, int, int)", F::sort},
         {"void cub::DeviceScanInitKernel<cub::ScanTileState<int, true> >(cub::ScanTileState<int, true>, int)", F::sort},
         {"void cub::DeviceScanInitKernel<cub::ScanTileState<long, true> >(cub::ScanTileState<long, true>, int)", F::sort},
         {"void at_cuda_detail::cub::DeviceScanKernel<at_cuda_detail::cub::AgentScanPolicy<128, 15, long, (at_cuda_detail::cub::BlockLoadAlgorithm)3, (at_cuda_detail::cub::CacheLoadModifier)0, (at_cuda_detail::cub::BlockStoreAlgorithm)3, (at_cuda_detail::cub::BlockScanAlgorithm)2, at_cuda_detail::cub::MemBoundScaling<128, 15, long> >, long*, long*, at_cuda_detail::cub::ScanTileState<long, true>, std::plus<long>, at_cuda_detail::cub::NullType, int>(long*, long*, at_cuda_detail::cub::ScanTileState<long, true>, int, std::plus<long>, at_cuda_detail::cub::NullType, int)", F::sort},
         {"void at_cuda_detail::cub::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<long, true> >(at_cuda_detail::cub::ScanTileState<long, true>, int)", F::sort},
         {"void cub::DeviceRadixSortExclusiveSumKernel<cub::DeviceRadixSortPolicy<long, int, int>::Policy800, int>(int*)", F::sort},
         {"void cub::DeviceRadixSortExclusiveSumKernel<cub::DeviceRadixSortPolicy<long, float, int>::Policy800, int>(int*)", F::sort},
         {"void cub::DeviceCompactInitKernel<cub::ReduceByKeyScanTileState<int, int, true>, int*>(cub::ReduceByKeyScanTileState<int, int, true>, int, int*)", F::sort}});
  check("FBGEMM (traces)",
        {{"void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1<float, float, float, 5ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, bool, at::PhiloxCudaState, FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1<float, float, float, 2ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, bool, at::PhiloxCudaState, FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void split_embedding_codegen_forward_unweighted_kernel<float, float, float, long, 5ul>(at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, long, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>)", F::embedding},
         {"void split_embedding_codegen_forward_unweighted_kernel<float, float, float, long, 2ul>(at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, long, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>)", F::embedding},
         {"void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_warp_per_row_1<float, float, float, 5ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, bool, at::PhiloxCudaState, FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_warp_per_row_1<float, float, float, 2ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, bool, at::PhiloxCudaState, FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void permute_pooled_embs_kernel<float>(float const*, long const*, long const*, long const*, float*, long, long, long)", F::copy},
         {"void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_hfp8_to_float_gpu(at::Tensor const&, long, long)::{lambda(unsigned char)#1}, at::detail::Array<char*, 2> >(int, fbgemm_gpu::_hfp8_to_float_gpu(at::Tensor const&, long, long)::{lambda(unsigned char)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void linearize_index_kernel<long>(at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>)", F::embedding},
         {"void fbgemm_gpu::permute_2D_data_kernel<true, int, int, float>(int, int, int, int const*, float const*, int const*, int const*, int const*, int*, float*)", F::copy},
         {"void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)", F::copy},
         {"void fbgemm_gpu::permute_indices_weights_kernel<true, int, float>(int, int, int, int const*, float const*, int const*, int const*, int const*, int*, float*)", F::copy},
         {"void fbgemm_gpu::permute_indices_weights_kernel<false, int, decltype(nullptr)>(int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)", F::copy},
         {"void split_embedding_backward_codegen_rowwise_adagrad_weighted_kernel_cta_per_row_1<float, float, float, 1ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, int>, bool, at::PhiloxCudaState, FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void split_embedding_backward_codegen_rowwise_adagrad_weighted_kernel_cta_per_row_1<c10::Half, float, c10::Half, 2ul, 32>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<c10::Half, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 1ul, at::RestrictPtrTraits, int>, bool, at::PhiloxCudaState, fbgemm_gpu::FixedDivisor, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, bool, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void recat_copy_async_kernel<float>(long const*, long const*, float const*, float*, long, long, long)", F::copy},
         {"void split_embedding_codegen_grad_indice_weights_kernel<float, float, float, 1ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, int>)", F::embedding},
         {"void split_embedding_codegen_grad_indice_weights_kernel<float, float, float, 1ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, int>)", F::embedding},
         {"void fbgemm_gpu::(anonymous namespace)::_FP8rowwise_to_float_cuda_kernel<float>(unsigned char const*, int, int, float*, bool)", F::elementwise},
         {"void fbgemm_gpu::(anonymous namespace)::_get_FP8_qparam_cuda_kernel<float>(float const*, int, int, unsigned char*, float*, bool)", F::elementwise},
         {"void bounds_check_indices_kernel<long>(at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, long, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, FixedDivisor)", F::embedding},
         {"void bounds_check_indices_kernel<long, false>(at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, int const*, long, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, fbgemm_gpu::FixedDivisor)", F::embedding},
         {"void split_embedding_codegen_forward_weighted_kernel<float, float, float, long, 1ul>(at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, long, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>)", F::embedding},
         {"void split_embedding_codegen_forward_weighted_kernel<float, float, float, false, long, 1ul, 16ul>(at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, fbgemm_gpu::FixedDivisor, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, long, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>)", F::embedding},
         {"void split_embedding_backward_codegen_rowwise_adagrad_weighted_kernel_warp_per_row_1<float, float, float, 1ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, bool, at::PhiloxCudaState, FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<float, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void split_embedding_backward_codegen_rowwise_adagrad_weighted_kernel_warp_per_row_1<c10::Half, float, c10::Half, 2ul, 32>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<c10::Half, 2ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, bool, at::PhiloxCudaState, fbgemm_gpu::FixedDivisor, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<at::AccumulateType<c10::Half, true>::type, 1ul, at::RestrictPtrTraits, long>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, float, float, float, long)", F::embedding},
         {"void fbgemm_gpu::_block_bucketize_sparse_features_cuda_kernel2<false, true, false, int, int, float>(int, int, int const*, int, int const*, int const*, float const*, int*, int*, float*, int*, int*)", F::embedding},
         {"void fbgemm_gpu::_block_bucketize_sparse_features_cuda_kernel2<false, false, false, int, int, decltype(nullptr)>(int, int, int const*, int, int const*, int const*, decltype(nullptr) const*, int*, int*, decltype(nullptr)*, int*, int*)", F::embedding},
         {"void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)", F::copy},
         {"split_embedding_backward_codegen_rowwise_adagrad_unweighted_find_long_segments(at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, int)", F::embedding},
         {"split_embedding_backward_codegen_rowwise_adagrad_unweighted_find_long_segments(at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, int, bool)", F::embedding},
         {"void fbgemm_gpu::_block_bucketize_sparse_features_cuda_kernel1<int, int>(int, int, int const*, int, int const*, int const*, int*)", F::embedding},
         {"split_embedding_backward_codegen_rowwise_adagrad_weighted_find_long_segments(at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>, int)", F::embedding},
         {"split_embedding_backward_codegen_rowwise_adagrad_weighted_find_long_segments(at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, int, bool)", F::embedding},
         // No rule: by the words of the name, a range per segment (as aten::arange: elementwise).
         {"void fbgemm_gpu::_offsets_range_cuda_kernel<int>(long, long, int const*, int*)", F::elementwise},
         {"void fbgemm_gpu::_offsets_range_cuda_kernel<long>(long, long, long const*, long*)", F::elementwise},
         {"split_embedding_backward_codegen_find_long_segments(at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<int, 1ul, at::RestrictPtrTraits, int>, int, int, bool)", F::embedding}});
  check("apex (traces)",
        {{"void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float, int, int>(int, int volatile*, TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float, int, int)", F::elementwise},
         {"void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, float, float, adamMode_t, float, int, int, int>(int, int volatile*, TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, float, float, adamMode_t, float, int, int, int)", F::elementwise}});
  check("PyTorch at::native (traces)",
        {{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<int>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<int>, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<bool, bool, bool, at::native::binary_internal::MulFunctor<bool> >, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<bool, bool, bool, at::native::binary_internal::MulFunctor<bool> >, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::sum_functor<long, long, long>::operator()(at::TensorIterator&)::{lambda(long, long)#1}>, unsigned int, long, 4> >(at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::sum_functor<long, long, long>::operator()(at::TensorIterator&)::{lambda(long, long)#1}>, unsigned int, long, 4>)", F::reduction},
         {"void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)", F::reduction},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)", F::reduction},
         {"void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float, float>(long, float, float const*, float*, float*)", F::normalization},
         {"void at::native::(anonymous namespace)::adaptive_average_pool<float>(float const*, float*, int, int, int, int, long, long, long)", F::reduction},
         {"void at::native::(anonymous namespace)::searchsorted_cuda_kernel<float, long>(long*, float const*, float const*, long const*, long, long, long, bool, bool)", F::sort},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})", F::elementwise},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})", F::elementwise},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda(int)#1})", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> >, at::detail::Array<char*, 2> >(int, at::native::AUnaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> >, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::compare_scalar_kernel<long>(at::TensorIteratorBase&, at::native::(anonymous namespace)::OpType, long)::{lambda(long)#1}, at::detail::Array<char*, 2> >(int, at::native::compare_scalar_kernel<long>(at::TensorIteratorBase&, at::native::(anonymous namespace)::OpType, long)::{lambda(long)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<int>, at::detail::Array<char*, 1>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::tanh_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::tanh_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::tanh_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::tanh_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)", F::copy},
         {"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)", F::copy},
         {"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#6}::operator()() const::{lambda(double)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#6}::operator()() const::{lambda(double)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)", F::copy},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::WelfordOps<float, float, int, float, thrust::pair<float, float> >, unsigned int, float, 2> >(at::native::ReduceOp<float, at::native::WelfordOps<float, float, int, float, thrust::pair<float, float> >, unsigned int, float, 2>)", F::reduction},
         {"void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, 4, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1>)", F::elementwise},
         {"void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast>(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::tanh_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::tanh_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::tanh_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::tanh_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::unrolled_elementwise_kernel<at::native::AUnaryFunctor<int, int, bool, at::native::(anonymous namespace)::CompareEqFunctor<int> >, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast>(int, at::native::AUnaryFunctor<int, int, bool, at::native::(anonymous namespace)::CompareEqFunctor<int> >, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast)", F::elementwise},
         {"void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_gather_internal_kernel<true, at::native::OpaqueType<4> >::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_gather_internal_kernel<true, at::native::OpaqueType<4> >::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1})", F::embedding},
         {"void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_gather_internal_kernel<false, at::native::OpaqueType<4> >::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_gather_internal_kernel<false, at::native::OpaqueType<4> >::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1})", F::embedding},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::nan_to_num_kernel_cuda(at::TensorIteratorBase&, c10::optional<double>, c10::optional<double>, c10::optional<double>)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::nan_to_num_kernel_cuda(at::TensorIteratorBase&, c10::optional<double>, c10::optional<double>, c10::optional<double>)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::nan_to_num_kernel_cuda(at::TensorIteratorBase&, c10::optional<double>, c10::optional<double>, c10::optional<double>)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::nan_to_num_kernel_cuda(at::TensorIteratorBase&, c10::optional<double>, c10::optional<double>, c10::optional<double>)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)", F::copy},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float>, unsigned int, float, 4>)", F::reduction},
         {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)", F::reduction},
         {"void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<long>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnSelf_add<long>, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#14}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#14}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::unrolled_elementwise_kernel<at::native::BinaryFunctor<double, double, double, at::native::binary_internal::MulFunctor<double> >, at::detail::Array<char*, 3>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1> >(int, at::native::BinaryFunctor<double, double, double, at::native::binary_internal::MulFunctor<double> >, at::detail::Array<char*, 3>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::log2_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#1}::operator()() const::{lambda(double)#1}, at::detail::Array<char*, 2> >(int, at::native::log2_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#1}::operator()() const::{lambda(double)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})", F::elementwise},
         {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnOther_add<float>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnOther_add<float>, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnOther_add<double>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnOther_add<double>, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::exp_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::exp_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::exp_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::exp_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::log_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::log_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::log_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::log_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void compute_cuda_kernel<long>(long*, long*, long*, long, long)", F::other},
         {"void at::native::index_elementwise_kernel<128, 4, at::native::index_copy_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, long, long, long)::{lambda(int)#1}>(int, at::native::index_copy_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, long, long, long)::{lambda(int)#1})", F::embedding},
         {"void at::native::index_elementwise_kernel<128, 4, at::native::index_copy_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, long, long, long)::{lambda(int)#1}>(int, at::native::index_copy_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, long, long, long)::{lambda(int)#1})", F::embedding},
         {"void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1} const&)::{lambda(int)#1})", F::embedding},
         {"void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<1> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<1> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<1> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<1> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, long)#1} const&)::{lambda(int)#1})", F::embedding},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(bool, long, long)#1}, at::detail::Array<char*, 4> >(int, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(bool, long, long)#1}, at::detail::Array<char*, 4>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() const::{lambda(bool, float, float)#1}, at::detail::Array<char*, 4> >(int, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() const::{lambda(bool, float, float)#1}, at::detail::Array<char*, 4>)", F::elementwise},
         {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 7, true, false>(float*, float const*, int, int, int, bool const*, int, bool)", F::softmax},
         {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 1, false, false>(float*, float const*, int, int, int, bool const*, int, bool)", F::softmax},
         {"void at::native::unrolled_elementwise_kernel<at::native::FillFunctor<float>, at::detail::Array<char*, 1>, TrivialOffsetCalculator<0, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast>(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>, TrivialOffsetCalculator<0, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::sqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::logit_backward_kernel_cuda(at::TensorIteratorBase&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#2}, at::detail::Array<char*, 3> >(int, at::native::logit_backward_kernel_cuda(at::TensorIteratorBase&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#2}, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::logit_kernel_cuda(at::TensorIteratorBase&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#2}, at::detail::Array<char*, 2> >(int, at::native::logit_kernel_cuda(at::TensorIteratorBase&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#2}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::indexFuncLargeIndex<float, int, unsigned int, 1, 1, -2, true, at::native::(anonymous namespace)::ReduceAdd>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<int, unsigned int>, int, int, unsigned int, unsigned int, long, long, at::native::(anonymous namespace)::ReduceAdd const&, float)", F::embedding},
         {"void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::MaxOps<float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MaxOps<float>, unsigned int, float, 4>)", F::reduction},
         {"void at::to_dense_representation_kernel<float>(long, long, long const*, float const*, long const*, float*)", F::copy},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::CompareFunctor<long>, at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::CompareFunctor<long>, at::detail::Array<char*, 3>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<float>, at::detail::Array<char*, 2> >(int, at::native::AbsFunctor<float>, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<double>, at::detail::Array<char*, 2> >(int, at::native::AbsFunctor<double>, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::sign_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::sign_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", F::elementwise},
         {"void at::native::vectorized_elementwise_kernel<4, at::native::mse_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::mse_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)", F::elementwise}});
}

// Names from the libraries of current training and inference stacks: their sources, tests
// and the profiles that their issues and pull requests quote, demangled as Kineto writes
// them (bare names for Triton kernels and assembly kernels, which have no signature).
BOOST_AUTO_TEST_CASE(inference_and_training_libraries) {
  // vLLM (csrc/, vllm/model_executor/layers, profiles in vLLM issues)
  check("vLLM",
        {{"void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, c10::BFloat16 const*, float, int, int)", F::normalization},
         {"void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, float, int, int)", F::normalization},
         {"void vllm::rms_norm_static_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(c10::Float8_e4m3fn*, c10::BFloat16 const*, c10::BFloat16 const*, float const*, float, int, int)", F::normalization},
         {"void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)", F::elementwise},
         {"void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)", F::elementwise},
         {"void vllm::scaled_fp8_quant_kernel<c10::BFloat16>(c10::Float8_e4m3fn*, c10::BFloat16 const*, float const*, long)", F::elementwise},
         {"void vllm::dynamic_per_token_scaled_fp8_quant_kernel<c10::BFloat16>(c10::Float8_e4m3fn*, float*, c10::BFloat16 const*, float const*, int)", F::elementwise},
         {"_per_token_group_quant_fp8", F::elementwise},
         {"void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, int, int, int, float const*, float const*)", F::attention},
         {"void vllm::reshape_and_cache_kernel<unsigned short, unsigned short, (vllm::Fp8KVCacheDataType)0>(unsigned short const*, unsigned short const*, unsigned short*, unsigned short*, long const*, int, int, int, int, int, int, float const*, float const*)", F::attention},
         {"void vllm::concat_and_cache_mla_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, long const*, int, int, int, int, int, int, float const*)", F::attention},
         {"void vllm::copy_blocks_kernel<c10::BFloat16>(long*, long*, long const*, int)", F::attention},
         {"void vllm::cp_gather_cache<__nv_bfloat16, 576>(__nv_bfloat16 const*, __nv_bfloat16*, int const*, int const*, int const*, int, long, long, long, long, int const*)", F::attention},
         {"void vllm::indexer_k_quant_and_cache_kernel<__nv_bfloat16, unsigned char, (vllm::Fp8KVCacheDataType)1>(__nv_bfloat16 const*, unsigned char*, long const*, int, int, int, int, int, bool)", F::attention},
         {"void vllm::paged_attention_v2_kernel<unsigned short, unsigned short, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false, 512>(float*, float*, unsigned short*, unsigned short const*, unsigned short const*, unsigned short const*, int, float, int const*, int const*, int, float const*, int, int, int, float const*, float const*, int, int, int)", F::attention},
         {"void vllm::paged_attention_v2_reduce_kernel<unsigned short, 128, 128, 512>(unsigned short*, float const*, float const*, unsigned short const*, int const*, int)", F::attention},
         {"_fwd_kernel_alibi", F::attention},
         {"void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 16, 128, 256, true, 1>(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16 const*, int, float, int const*, int const*, int const*, int, float const*, int, int, int, float*, float*, __hip_bfloat16*, __hip_bfloat16*, int, float const*, float const*)", F::attention},
         {"void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, 128, 128, 256, 1>(__hip_bfloat16*, float const*, float const*, __hip_bfloat16 const*, int const*, int const*, int, __hip_bfloat16 const*)", F::attention},
         {"void vllm::moe::topkGatingSoftmax<4, 16, 4, 16, 32, int, float, (vllm::moe::ScoringFunc)0>(float const*, bool const*, float*, int, int*, int*, int, int, int, int, bool, float const*)", F::moe},
         {"void vllm::moe::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, int, unsigned long, int*)", F::moe},
         {"void vllm::moe::count_and_sort_expert_tokens_kernel<int>(int const*, int*, int*, unsigned long)", F::moe},
         {"void vllm::moe::moe_sum_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, int)", F::moe},
         {"void vllm::moe::grouped_topk_fused_kernel<__nv_bfloat16, float, 8>(__nv_bfloat16*, float*, int*, float const*, long, long, long, long, bool, double)", F::moe},
         {"fused_moe_kernel", F::moe},
         {"fused_moe_kernel_gptq_awq", F::moe},
         {"void marlin_moe_wna16::Marlin<__nv_bfloat16, 4, 256, 1, 8, 8, true, 4, false>(int4 const*, int4 const*, int4*, int4*, int4 const*, int4 const*, int const*, int const*, int const*, int const*, float const*, int, bool, int, int, int, int, int*, bool, bool, bool, int)", F::moe},
         {"void marlin::Marlin<256, 1, 8, 8, 4, 8>(int4 const*, int4 const*, int4*, int4 const*, int, int, int, int*)", F::gemm},
         {"_w8a8_block_fp8_matmul", F::gemm},
         {"void cutlass::device_kernel<vllm::cutlass_3x_gemm<cutlass::float_e4m3_t, cutlass::bfloat16_t, vllm::c3x::ScaledEpilogue, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum, cutlass::epilogue::TmaWarpSpecialized>::GemmKernel>(vllm::cutlass_3x_gemm<cutlass::float_e4m3_t, cutlass::bfloat16_t, vllm::c3x::ScaledEpilogue, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum, cutlass::epilogue::TmaWarpSpecialized>::GemmKernel::Params)", F::gemm},
         {"void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>(int, int, __hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16*, int, int)", F::gemm},
         {"void LLGemm1_kernel<__hip_bfloat16, 4>(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16*, int)", F::gemm},
         {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)", F::comm_all_reduce},
         {"void vllm::cross_device_reduce_2stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)", F::comm_all_reduce},
         {"void vllm::apply_repetition_penalties_kernel<c10::BFloat16>(c10::BFloat16*, bool const*, bool const*, c10::BFloat16 const*, int, int)", F::sampling},
         {"void vllm::top_k_per_row_decode(float const*, int const*, int*, int, int, int, int, int)", F::sort}});
  // SGLang (sgl-kernel, python/sglang/srt/layers, profiles in SGLang PRs)
  check("SGLang",
        {{"void flashinfer::norm::RMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)", F::normalization},
         {"void flashinfer::norm::FusedAddRMSNormKernel<(unsigned int)8, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)", F::normalization},
         {"void flashinfer::norm::GemmaRMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)", F::normalization},
         {"void flashinfer::norm::GemmaFusedAddRMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)", F::normalization},
         {"_fwd_kernel_stage2", F::attention},
         {"create_flashinfer_kv_indices_triton", F::attention},
         {"write_req_to_token_pool_triton", F::attention},
         {"store_kvcache", F::attention},
         {"set_mla_kv_buffer_kernel", F::attention},
         {"fused_gdn_gating_kernel", F::attention},
         {"chunk_gated_delta_rule_fwd_kernel_h_blockdim64", F::attention},
         {"fused_recurrent_gated_delta_rule_fwd_kernel", F::attention},
         {"_causal_conv1d_update_kernel", F::convolution},
         {"chunk_local_cumsum_scalar_kernel", F::sort},
         {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1_swiglu", F::gemm},
         {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1", F::gemm},
         {"nvjet_tst_512x8_64x3_2x1_v_bz_TNT", F::gemm},
         {"nvjet_tst_64x24_64x16_4x1_v_bz_bias_TNT", F::gemm},
         {"nvjet_tst_64x24_64x16_4x1_v_bz_splitK_bias_TNT", F::gemm},
         {"void moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, int, unsigned long, int*)", F::moe},
         {"void moe_fused_gate_kernel<float, 256, 8, 4, 1>(void*, void*, float*, int*, long, long, long, long, double)", F::moe},
         {"void topk_softmax_kernel<float, 8>(float const*, float*, int*, int, int, int, bool)", F::moe}});
  // FlashInfer (include/flashinfer, csrc)
  check("FlashInfer",
        {{"void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, flashinfer::DefaultAttention<false, false, false, false>, flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)", F::attention},
         {"void flashinfer::BatchPrefillWithRaggedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, 128u, 1u, 8u, 4u, 4u, 4u, 1u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, flashinfer::DefaultAttention<false, false, false, false> >, flashinfer::BatchPrefillRaggedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >", F::attention},
         {"void flashinfer::MergeStatesKernel<8u, 16u, 8u, 4u, __nv_bfloat16, __nv_bfloat16>(__nv_bfloat16*, float*, __nv_bfloat16*, float*, unsigned int, unsigned int)", F::attention},
         {"void flashinfer::PersistentVariableLengthMergeStatesKernel<8u, 16u, 8u, 4u, __nv_bfloat16, __nv_bfloat16, int>(__nv_bfloat16*, float*, int*, __nv_bfloat16*, float*, unsigned int, unsigned int*, unsigned int)", F::attention},
         {"void flashinfer::AppendPagedKVCacheKernel<8u, 16u, __nv_bfloat16, int>(flashinfer::paged_kv_t<__nv_bfloat16, int>, __nv_bfloat16*, __nv_bfloat16*, int*, int*, unsigned int, unsigned long, unsigned long, unsigned long, unsigned long)", F::attention},
         {"void flashinfer::mla::BatchMLAPagedAttentionKernel<flashinfer::mla::KernelTraits<false, 512u, 64u, 64u, 64u, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int>, flashinfer::MLAParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::MLAParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)", F::attention},
         {"void flashinfer::PODWithKVCacheTensorKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, 128u, 1u, 8u, 4u, 4u, 4u, 1u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, flashinfer::DefaultAttention<false, false, false, false> > >", F::attention},
         {"fmhaSm100fKernel_QkvE4m3OBfloat16H128PagedKvCausalP64VarSeqQ128Kv128PersistentContext", F::attention},
         {"void xqa::kernel_mha(unsigned int, float, xqa::Vec<__nv_bfloat16, 128u>*, xqa::Vec<__nv_bfloat16, 128u> const*, float const*, xqa::KVCacheList<true>, unsigned int, float const*, xqa::BeamSearchParams, unsigned int*)", F::attention},
         {"void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)0, (cub::BlockReduceAlgorithm)2, 4u, true, float, int>(float*, int*, float*, int*, float*, float, unsigned int, unsigned long, unsigned long)", F::sampling},
         {"void flashinfer::sampling::TopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)0, (cub::BlockReduceAlgorithm)2, 4u, true, float, int>(float*, int*, int*, float*, float, unsigned int, unsigned long, unsigned long)", F::sampling},
         {"void flashinfer::sampling::MinPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)0, (cub::BlockReduceAlgorithm)2, 4u, true, float, int>(float*, float*, int*, int*, float, unsigned int, unsigned long, unsigned long)", F::sampling},
         {"void flashinfer::sampling::SamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)0, (cub::BlockReduceAlgorithm)2, 4u, true, float, int>(float*, int*, int*, unsigned int, unsigned long, unsigned long)", F::sampling},
         {"void flashinfer::sampling::TopPRenormProbKernel<1024u, (cub::BlockReduceAlgorithm)2, 4u, float>(float*, float*, float*, float, unsigned int)", F::sampling},
         {"void flashinfer::sampling::TopKMaskLogitsKernel<1024u, (cub::BlockReduceAlgorithm)2, 4u, float, int>(float*, float*, int*, unsigned int, unsigned int)", F::sampling},
         {"void flashinfer::activation::act_and_mul_kernel<__nv_bfloat16, &(float silu<float>(float const&))>(__nv_bfloat16*, __nv_bfloat16 const*, int)", F::elementwise},
         {"void flashinfer::BatchQKApplyRotaryPosIdsCosSinCacheKernel<false, 128u, 8u, 16u, __nv_bfloat16, long>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, float*, long*, unsigned int, unsigned int, unsigned int, unsigned int, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long)", F::elementwise}});
  // FlashAttention 2/3/4 (Dao-AILab/flash-attention, PyTorch's copy)
  check("FlashAttention 2/3/4",
        {{"void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)", F::attention},
         {"void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 3, true>(flash::Flash_fwd_params)", F::attention},
         {"void flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> > >(Flash_bwd_params)", F::attention},
         {"void flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, false, true, false, false, false, true, false, false>(Flash_bwd_params)", F::attention},
         {"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false>(pytorch_flash::Flash_fwd_params)", F::attention},
         {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnBwdSm90<flash::CollectiveMainloopBwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<64>, cute::C<128>, cute::C<128> >, 128, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false, false, false, false, true, false, true, 2, 2, 1, false> > > >", F::attention},
         {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnBwdPreprocess<cute::tuple<cute::C<64>, cute::C<128> >, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false> > >", F::attention},
         {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnBwdPostprocessConvertdQ<cute::tuple<cute::C<64>, cute::C<128> >, cutlass::bfloat16_t, float, cutlass::arch::Sm90, 256, false, false, 1, 1> > >", F::attention},
         {"kernel_cutlass_kernel_flash_attncuteflash_fwd_sm100FlashAttentionForwardSm100_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_0", F::attention},
         {"kernel_cutlass_kernel_flash_attncuteflash_bwd_sm90FlashAttentionBackwardSm90_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_0", F::attention}});
  // CuTe DSL (QuACK and other CuTe-DSL kernels: the library's prefix, what they do after it)
  check("CuTe DSL",
        {{"kernel_cutlass_kernel_quackrmsnormRMSNorm_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_tensorptrf32gmemalign16odiv4_0", F::normalization},
         {"kernel_cutlass_kernel_quackrmsnormRMSNormBackward_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_0", F::normalization},
         {"kernel_cutlass_kernel_quacklayernormLayerNorm_object_at__tensorptrbf16gmemalign16odiv8_tensorptrf32gmemalign16odiv4_0", F::normalization},
         {"kernel_cutlass_kernel_quacksoftmaxSoftmax_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_0", F::softmax},
         {"kernel_cutlass_kernel_quackcross_entropyCrossEntropy_object_at__tensorptrbf16gmemalign16odiv8_tensorptri64gmemalign16odiv2_0", F::softmax},
         {"kernel_cutlass_kernel_quacktopkTopK_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_0", F::sort},
         {"kernel_cutlass_kernel_quackgemm_sm90GemmSm90_object_at__tensorptrbf16gmemalign16odiv8_tensorptrbf16gmemalign16odiv8_0", F::gemm},
         {"kernel_cutlass_kernel_flashinfercute_dslsilu_and_mul_object_at__tensorptrbf16gmemalign16odiv8_0", F::elementwise},
         {"kernel_cutlass_kernel_cutlassutilsblackwell_helpersDenseGemmKernel_object_at__tensorptrf16gmemalign16odiv8_0", F::gemm}});
  // xFormers and PyTorch's memory-efficient attention (CUTLASS fmha)
  check("xFormers and PyTorch's memory-efficient attention",
        {{"fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)", F::attention},
         {"fmha_cutlassB_f16_aligned_64x64_k64_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<cutlass::arch::Sm80, cutlass::half_t, true, false, true, 64, 64, 64, false>::Params)", F::attention},
         {"fmha_cutlassF_bf16_aligned_64x128_rf_sm80(AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 128, 128, true, true>::Params)", F::attention},
         {"void attention_kernel_batched_impl<AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true> >(AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)", F::attention},
         {"void attention_kernel_backward_batched_impl<AttentionBackwardKernel<cutlass::arch::Sm80, cutlass::bfloat16_t, true, false, true, 64, 64, 64, false> >(AttentionBackwardKernel<cutlass::arch::Sm80, cutlass::bfloat16_t, true, false, true, 64, 64, 64, false>::Params)", F::attention}});
  // cuDNN SDPA and normalization
  check("cuDNN SDPA and normalization",
        {{"cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_7_64x128x128_4x1x1_kernel0_0", F::attention},
         {"cudnn_generated_fort_native_sdpa_sm80_flash_fprop_f16_knob_1_128x64x64_4x1x1_kernel0_0", F::attention},
         {"void cudnn::bn_fw_inf_1C11_kernel_NCHW<float, float, true, 1>(float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float const*, float const*, float)", F::normalization}});
  // cuBLAS / cuBLASLt
  check("cuBLAS / cuBLASLt",
        {{"sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize64x64x128_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", F::gemm},
         {"sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel", F::gemm},
         {"ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn", F::gemm},
         {"ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_32x3_nn", F::gemm},
         {"turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn", F::gemm},
         {"volta_h884gemm_64x64_ldg8_nn", F::gemm},
         {"nvjet_hsh_128x256_64x4_1x2_h_bz_coopA_NNT", F::gemm},
         {"void cublasLt::splitKreduce_kernel<32, 16, int, __nv_bfloat16, __nv_bfloat16, float, __nv_bfloat16, true, false, false>(cublasLt::cublasSplitKParams<float>, __nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, float const*, float const*, __nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, void*, long, float*, int*)", F::gemm},
         {"void dot_kernel<float, 128, 0, cublasDotParams<cublasGemvTensor<float const>, cublasGemvTensorStridedBatched<float> > >(cublasDotParams<cublasGemvTensor<float const>, cublasGemvTensorStridedBatched<float> >)", F::gemm},
         {"void reduce_1Block_kernel<float, 128, 7, cublasGemvTensorStridedBatched<float>, cublasGemvTensorStridedBatched<float>, cublasGemvTensorStridedBatched<float> >(float const*, float, cublasGemvTensorStridedBatched<float>, int, float const*, float, cublasGemvTensorStridedBatched<float>, cublasGemvTensorStridedBatched<float>, cublasPointerMode_t, cublasLtEpilogue_t, cublasGemvTensorStridedBatched<biasType<cublasGemvTensorStridedBatched<float>::value_type, float>::type const>)", F::gemm}});
  // CUTLASS 2/3 (GEMMs, grouped GEMMs, split-K)
  check("CUTLASS 2/3",
        {{"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, cutlass::gemm::KernelTmaWarpSpecializedCooperative>, cute::tuple<cute::C<128>, cute::C<128>, cute::C<64> > > > >", F::gemm},
         {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma", F::gemm},
         {"void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8::Params)", F::gemm},
         {"void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_relu_bf16_128x128_32x3_tn_align8>(cutlass_80_tensorop_s16816gemm_relu_bf16_128x128_32x3_tn_align8::Params)", F::gemm},
         {"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<int, int, int> >, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90ArrayTmaGmmaWarpSpecialized<4, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative> > > >", F::gemm},
         {"void cutlass::Kernel<cutlass::reduction::kernel::ReduceSplitK<cutlass::MatrixShape<4, 64>, cutlass::epilogue::thread::LinearCombination<float, 4, float, float>, cutlass::reduction::thread::ReduceAdd<float, float, 4>, 4> >(cutlass::reduction::kernel::ReduceSplitK<cutlass::MatrixShape<4, 64>, cutlass::epilogue::thread::LinearCombination<float, 4, float, float>, cutlass::reduction::thread::ReduceAdd<float, float, 4>, 4>::Params)", F::gemm},
         {"cutlass3x_sm90_tensorop_fprop_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_nhwc_align8_warpspecialized_cooperative_epi_tma", F::convolution}});
  // DeepGEMM, TensorRT-LLM, trtllm-gen
  check("DeepGEMM, TensorRT-LLM, trtllm-gen",
        {{"void deep_gemm::sm90_fp8_gemm_1d2d_impl<(cute::UMMA::Major)0, 0u, 0u, 0u, 128u, 128u, 128u, 1u, 1u, 6u, 128u, 128u, 1u, false, (deep_gemm::GemmType)0, cutlass::bfloat16_t>(float*, int*, unsigned int, unsigned int, unsigned int, CUtensorMap_st, CUtensorMap_st, CUtensorMap_st, CUtensorMap_st)", F::gemm},
         {"bmm_E4m3_E4m3E4m3_Fp32_t128x8x128u2_s6_et64x8_m64x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_sm100a", F::gemm},
         {"void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, tensorrt_llm::kernels::KVBlockArray, 128, 256, 4, true, false, false, false, false, 0u, true, false>(tensorrt_llm::kernels::Multihead_attention_params<__nv_bfloat16, false>)", F::attention},
         {"void tensorrt_llm::kernels::expandInputRowsKernel<__nv_bfloat16, __nv_bfloat16, (tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput::FpXBlockScalingType)0>(__nv_bfloat16 const*, __nv_bfloat16*, float const*, float*, int const*, int*, long, long, long, int, int const*)", F::moe},
         {"void tensorrt_llm::kernels::finalizeMoeRoutingKernel<__nv_bfloat16, __nv_bfloat16, (tensorrt_llm::kernels::cutlass_kernels::ScaleMode)1>(__nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16 const*, float const*, int const*, int const*, long, long, long, int const*)", F::moe},
         {"void moe::dev::routing::routingDeepSeek::routingMainKernel<moe::dev::routing::routingDeepSeek::KernelParams<__nv_bfloat16, float, 8, 256, true> >(moe::dev::routing::routingDeepSeek::KernelParams<__nv_bfloat16, float, 8, 256, true>)", F::moe},
         {"void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<(tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, true, true>(tensorrt_llm::kernels::ar_fusion::AllReduceFusionParams<__nv_bfloat16>)", F::comm_all_reduce}});
  // Transformer Engine, apex, Liger
  check("Transformer Engine, apex, Liger",
        {{"void transformer_engine::normalization::rmsnorm_fwd_tuned_kernel<transformer_engine::normalization::Kernel_traits<float, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 4096u, 1u, 1u, 4u, 16u, transformer_engine::normalization::Kernel_traits_base<4096u, float, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 128u> >, false, false>(transformer_engine::normalization::FwdParams)", F::normalization},
         {"void transformer_engine::cast_transpose_kernel<8, true, __nv_bfloat16, __nv_fp8_e4m3>(__nv_bfloat16 const*, float const*, __nv_fp8_e4m3*, __nv_fp8_e4m3*, float const*, float*, float*, unsigned long, unsigned long)", F::copy},
         {"void transformer_engine::scaled_aligned_causal_masked_softmax_warp_forward<__nv_bfloat16, __nv_bfloat16, float, 12>(__nv_bfloat16*, __nv_bfloat16 const*, float, int, int, int)", F::softmax},
         {"void transformer_engine::fused_attn::cu_seqlens_to_offsets(long, long, long, long, long, int const*, int const*, int*, int*, int*, int*, int*, int*)", F::attention},
         {"void cuApplyLayerNorm<float, float, float>(float*, float*, float*, float const*, int, int, float, float const*, float const*)", F::normalization},
         {"void cuComputePartGradGammaBeta<float, float, float>(float const*, float const*, int, int, float const*, float const*, float, float*, float*)", F::normalization},
         {"_rms_norm_forward_kernel", F::normalization},
         {"_layer_norm_fwd_1pass_kernel", F::normalization},
         {"liger_cross_entropy_kernel", F::softmax},
         {"_swiglu_forward_kernel", F::elementwise}});
  // Mamba (state-space mixers)
  check("Mamba",
        {{"void selective_scan_fwd_kernel<Selective_Scan_fwd_kernel_traits<32, 4, true, true, true, false, false, c10::BFloat16, float, c10::BFloat16> >(SSMParamsBase)", F::attention},
         {"void causal_conv1d_fwd_kernel<Causal_conv1d_fwd_kernel_traits<128, 4, true, c10::BFloat16, c10::BFloat16> >(ConvParamsBase)", F::convolution},
         {"_chunk_scan_fwd_kernel", F::attention},
         {"_chunk_state_fwd_kernel", F::attention},
         {"_state_passing_fwd_kernel", F::attention},
         {"_chunk_cumsum_fwd_kernel", F::sort}});
  // Tensile / hipBLASLt / rocBLAS
  check("Tensile / hipBLASLt / rocBLAS",
        {{"Cijk_Alik_Bljk_BBS_BH_Bias_HAS_SAV_UserArgs_MT128x128x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA8_GRVWB8_GSUAMB_IU1_K1_LBSPPA128_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV1_MIWT4_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO1_SRVW0_SSO0_SVW8_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRODn1_UIOFGRO0_USL1_UTLDS0_VSn1_VWA4_VWB4_WSGRA0_WSGRB0_WS64_WG32_8_1", F::gemm},
         {"Custom_Cijk_Alik_Bljk_HHS_BH_MT256x256x64_MI16x16x16x1_SN_1LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS1_FSSC10_FL0_GRPM1_GRVW8_GSU1_GSUASB_GLS0_ISA942_IU1_K1_KLA_LBSPPA128_LBSPPB128_LPA0_LPB0_LDL1_LRVW16_LWPMn1_LDW0_FMA_MIAV1_MDA2_MO40_NTA0_NTB0_NTC0_NTD0_NEPBS0_NLCA1_NLCB1_ONLL1_OPLV0_PK0_PAP0_PGR1_PLR1_SIA3_SS1_SU0_SUM0_SUS0_SCIUI1_SPO0_SRVW0_SSO0_SVW4_SNLL0_TT8_64_TLDS1_USFGROn1_VAW2_VSn1_VW8_VWB8_VFLRP0_WSGRA1_WSGRB1_WS64_WG32_8_1_WGM8", F::gemm},
         {"void rocblas_gemvt_kernel<false, 256, long, float, float const*, float, float const*, float*>(int, int, float, long, float const*, long, long, long, float const*, long, long, float, long, float*, long, long)", F::gemm},
         {"void rocblas_gemm_batched_general_kernel<float, 32, 32, 8, 32, 8, 16, 16, 8, 8, 78, 78, float, float const*, float*>(int, int, int, float, float const* const*, long, long, long, float const* const*, long, long, long, float, float* const*, long, long, long, int)", F::gemm}});
  // Composable Kernel (ck, ck_tile)
  check("Composable Kernel",
        {{"void ck::kernel_grouped_conv_fwd_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajor, ck::half_t, ck::half_t, ck::half_t, float, ck::half_t>", F::convolution},
         {"void ck_tile::kentry<64, 1, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<ck_tile::BlockFmhaPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, ck_tile::bf16_t, float, float, ck_tile::bf16_t, unsigned short, float, ck_tile::bf16_t, ck_tile::bf16_t>", F::attention},
         {"void ck_tile::kentry<256, 1, ck_tile::FmhaBwdDQDKDVKernel<ck_tile::BlockFmhaBwdDQDKDVPipelineKRKTRVR<ck_tile::BlockFmhaBwdPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, ck_tile::bf16_t, float, float, float, float, float, ck_tile::bf16_t>", F::attention},
         {"void ck_tile::kentry<256, 1, ck_tile::Layernorm2dFwd<ck_tile::Layernorm2dFwdPipelineOnePass<ck_tile::Layernorm2dFwdPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, ck_tile::bf16_t, float, ck_tile::bf16_t, float, float>", F::normalization},
         {"void ck_tile::kentry<256, 1, ck_tile::Rmsnorm2dFwd<ck_tile::Rmsnorm2dFwdPipelineOnePass<ck_tile::Rmsnorm2dFwdPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, float, ck_tile::bf16_t, float, float>", F::normalization},
         {"void ck_tile::kentry<256, 2, ck_tile::AddRmsnorm2dRdquantFwd<ck_tile::AddRmsnorm2dRdquantFwdPipelineOnePass<ck_tile::AddRmsnorm2dRdquantFwdPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, float, float, ck_tile::int8_t>", F::normalization},
         {"void ck_tile::kentry<256, 1, ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 1, true, false, true> > >(ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 1, true, false, true> >::Kargs)", F::moe},
         {"void ck_tile::kentry<256, 1, ck_tile::TopkSoftmaxKernel<ck_tile::TopkSoftmaxWarpPerRowPipeline<ck_tile::TopkSoftmaxWarpPerRowProblem<ck_tile::bf16_t, float, int, 8> > > >", F::moe},
         {"void ck_tile::kentry<256, 1, ck_tile::FusedMoeGemmKernel<ck_tile::FusedMoeGemmPipeline_FlatmmUk<ck_tile::FusedMoeGemmPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, ck_tile::bf16_t, float, float>", F::moe},
         {"void ck::kernel_batched_gemm_xdl<ck::GridwiseGemm_k0mk1_k0nk1_mn_xdlops_v2r3<256, ck::half_t, float, ck::half_t>", F::gemm},
         {"void ck::kernel_elementwise<ck::GridwiseElementwise<ck::Tuple<ck::half_t const*>, ck::Tuple<ck::half_t*>, ck::tensor_operation::element_wise::PassThrough, 256, 64, 64, 8, 8> >", F::elementwise}});
  // aiter (ROCm)
  check("aiter",
        {{"_ZN5aiter35pa_bf16_pertokenFp8_gqa8_2tg_4wE", F::attention},
         {"_ZN5aiter42fmha_fwd_hd128_bf16_causal_a32_rtz_pssk_ddvE", F::attention},
         {"_ZN5aiter34mla_dec_stage1_bf16_a16w16_subQ16E", F::attention},
         {"void aiter::reshape_and_cache_flash_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16*, __hip_bfloat16*, long const*, int, int, int, int, int, float const*, float const*)", F::attention},
         {"_ZN5aiter55fmoe_bf16_blockscaleFp8_g1u1_vs_silu_1tg_ps_32x256E", F::moe},
         {"void aiter::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, unsigned long, int*)", F::moe},
         {"void aiter::biased_grouped_topk_kernel<__hip_bfloat16, 8, 32, 4, 1>(__hip_bfloat16*, __hip_bfloat16*, float*, int*, int, int, int, int, int, bool, float)", F::moe},
         {"void aiter::grouped_topk_kernel<__hip_bfloat16, 8, 4, false>(__hip_bfloat16*, float*, int*, int, int, int, int, int, bool, float)", F::moe},
         {"void aiter::topk_softmax_kernel<__hip_bfloat16, 8>(__hip_bfloat16 const*, float*, int*, int*, int, int, int, bool)", F::moe},
         {"void aiter::act_and_mul_kernel<__hip_bfloat16, &(float aiter::silu_kernel<float>(float const&)), true>(__hip_bfloat16*, __hip_bfloat16 const*, int)", F::elementwise},
         {"void aiter::dynamic_per_token_scaled_quant_kernel<__hip_bfloat16, __hip_fp8_e4m3_fnuz, false>(__hip_fp8_e4m3_fnuz*, float*, __hip_bfloat16 const*, float const*, int, int const*)", F::elementwise},
         {"_ZN5aiter42f8_block_scale_gemm_a8w8_blockscale_256x128E", F::gemm},
         {"void aiter::cross_device_reduce_1stage<__hip_bfloat16, 8>(aiter::RankData*, aiter::RankSignals, aiter::Signal*, __hip_bfloat16*, int, int)", F::comm_all_reduce},
         {"void aiter::rmsnorm2d_fwd_with_add<__hip_bfloat16, 256, 8>(__hip_bfloat16*, __hip_bfloat16*, __hip_bfloat16*, __hip_bfloat16*, float, int, int)", F::normalization}});
  // MIOpen
  check("MIOpen",
        {{"MIOpenBatchNormBwdSpatial", F::normalization},
         {"MIOpenBatchNormFwdInferSpatialEst", F::normalization},
         {"miopenSp3AsmConv_v30_3_1_gfx9_fp32_f3x2_stride1", F::convolution},
         {"naive_conv_fwd_nchw_float_double_float", F::convolution},
         {"naive_conv_bwd_nhwc_half_double_half", F::convolution},
         {"igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt64x16x64_wt16x16x16_ws1x1_wr1x1_ta1x8x1x1_1x8x1x16_tb1x8x1x1_1x8x1x16_gkgs", F::convolution},
         {"igemm_wrw_gtcx3_nhwc_fp16_bx0_ex0_bt256x128x32_wt32x32x8_ws2x2_wr1x1_ta1x4x2x1_1x8x1x32_tb1x4x1x2_1x8x1x32_pta_vs1_gkgs", F::convolution},
         {"gridwise_convolution_implicit_gemm_v4r4_nchw_kcyx_nkhw", F::convolution},
         {"MIOpenConvUni", F::convolution},
         {"Im2Col", F::convolution},
         {"mloPoolingG", F::reduction},
         {"mloPoolingForwardNaive", F::reduction},
         {"SoftmaxForward", F::softmax},
         {"transpose_NCHW2CNHW_opt", F::copy}});
  // rocPRIM / hipCUB
  check("rocPRIM / hipCUB",
        {{"void rocprim::ROCPRIM_300400_NS::detail::lookback_scan_kernel<(rocprim::ROCPRIM_300400_NS::detail::lookback_scan_determinism)0, false, rocprim::ROCPRIM_300400_NS::default_config, long*, long*, long, rocprim::ROCPRIM_300400_NS::plus<long>, long, rocprim::ROCPRIM_300400_NS::detail::lookback_scan_state<long, true, true> >", F::sort},
         {"void rocprim::ROCPRIM_300400_NS::detail::init_lookback_scan_state_kernel<rocprim::ROCPRIM_300400_NS::detail::lookback_scan_state<long, true, true> >(rocprim::ROCPRIM_300400_NS::detail::lookback_scan_state<long, true, true>, unsigned int, rocprim::ROCPRIM_300400_NS::detail::ordered_block_id<unsigned int>, unsigned int, long*)", F::sort},
         {"void rocprim::ROCPRIM_300400_NS::detail::onesweep_histograms_kernel<rocprim::ROCPRIM_300400_NS::default_config, false, float*, unsigned long>(float*, unsigned long*, unsigned long, unsigned int, unsigned int, unsigned int)", F::sort},
         {"void rocprim::ROCPRIM_300400_NS::detail::onesweep_iteration_kernel<rocprim::ROCPRIM_300400_NS::default_config, false, float*, float*, long*, long*, unsigned long>(float*, float*, long*, long*, unsigned long, unsigned long*, unsigned long*, unsigned int*, bool, unsigned int, unsigned int, unsigned int)", F::sort},
         {"void rocprim::ROCPRIM_300400_NS::detail::radix_sort_block_sort_kernel<rocprim::ROCPRIM_300400_NS::default_config, false, float*, float*, long*, long*, unsigned int>(float*, float*, long*, long*, unsigned int)", F::sort},
         {"void rocprim::ROCPRIM_300400_NS::detail::partition_kernel<(rocprim::ROCPRIM_300400_NS::detail::select_method)0, true, rocprim::ROCPRIM_300400_NS::default_config, long*, long*, bool*>", F::sort},
         {"void rocprim::ROCPRIM_300400_NS::detail::block_reduce_kernel<false, rocprim::ROCPRIM_300400_NS::default_config, float*, float*, float, rocprim::ROCPRIM_300400_NS::plus<float> >(float*, unsigned long, float*, float, rocprim::ROCPRIM_300400_NS::plus<float>)", F::reduction},
         {"void rocprim::detail::lookback_scan_kernel<true, rocprim::detail::default_scan_config<0u, long>, long*, long*, rocprim::plus<long>, long, rocprim::detail::lookback_scan_state<long, true, true> >(long*, long*, unsigned long, long, rocprim::plus<long>, rocprim::detail::lookback_scan_state<long, true, true>, unsigned int, rocprim::detail::ordered_block_id<unsigned int>, long*, unsigned long, bool, bool)", F::sort}});
  // CUB (PyTorch's sort, unique, nonzero)
  check("CUB",
        {{"void at_cuda_detail::cub::DeviceRadixSortSingleTileKernel<at_cuda_detail::cub::DeviceRadixSortPolicy<long, at_cuda_detail::cub::NullType, int>::Policy800, false, long, at_cuda_detail::cub::NullType, int, int>(long const*, long*, at_cuda_detail::cub::NullType const*, at_cuda_detail::cub::NullType*, int, int, int)", F::sort},
         {"void at_cuda_detail::cub::DeviceSegmentedRadixSortKernel<at_cuda_detail::cub::DeviceRadixSortPolicy<float, long, int>::Policy800, false, true, float, long, int const*, int const*, int, int>(float const*, float*, long const*, long*, int const*, int const*, int, int, int)", F::sort},
         {"void cub::CUB_200200_800_NS::DeviceSelectSweepKernel<cub::CUB_200200_800_NS::DispatchSelectIf<cub::CUB_200200_800_NS::CountingInputIterator<long, long>, cub::CUB_200200_800_NS::TransformInputIterator<bool, at::native::NonZeroOp<bool>, bool const*, long>, long*, int*, cub::CUB_200200_800_NS::NullType, cub::CUB_200200_800_NS::NullType, int, false>::PtxSelectIfPolicyT>", F::sort},
         {"void cub::CUB_200200_800_NS::DeviceMergeSortBlockSortKernel<cub::CUB_200200_800_NS::DeviceMergeSortPolicy<long>::Policy600, long*, long*, long*, long*, long*, long*, long, at::native::LTOp<long>, long>", F::sort},
         {"void at_cuda_detail::cub::DeviceRadixSortUpsweepKernel<at_cuda_detail::cub::DeviceRadixSortPolicy<long, long, int>::Policy800, false, false, long, int>(long const*, int*, int, int, int, at_cuda_detail::cub::GridEvenShare<int>)", F::sort},
         {"void cub::CUB_200200_800_NS::DeviceReduceKernel<cub::CUB_200200_800_NS::DeviceReducePolicy<long, unsigned int, cub::CUB_200200_800_NS::Sum>::Policy600, long*, unsigned int, cub::CUB_200200_800_NS::Sum, long>", F::reduction},
         {"void cub::CUB_200200_800_NS::DeviceReduceSingleTileKernel<cub::CUB_200200_800_NS::DeviceReducePolicy<long, unsigned int, cub::CUB_200200_800_NS::Sum>::Policy600, long*, long*, int, cub::CUB_200200_800_NS::Sum, long>", F::reduction}});
  // PyTorch at::native: sort, top-k, scan, sampling, group norm, indexing
  check("PyTorch at::native: sort, top-k, scan, sampling, group norm, indexing",
        {{"void at::native::bitonicSortKVInPlace<2, -1, 16, 16, float, long, at::native::LTOp<float, true>, unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, at::native::LTOp<float, true>)", F::sort},
         {"void at::native::radixSortKVInPlace<-2, 1024, 16, float, long, unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, bool)", F::sort},
         {"void at::native::sbtopk::gatherTopK<float, unsigned int, 2, false>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, float*)", F::sort},
         {"void at::native::mbtopk::radixFindKthValues<float, unsigned int, unsigned int, 2>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int*, unsigned int, unsigned int, unsigned int, unsigned int, int, int, unsigned int, float*, unsigned int*, short*, unsigned int*)", F::sort},
         {"void at::native::mbtopk::computeBlockwiseWithinKCounts<unsigned int>(unsigned int*, short*, unsigned int*, unsigned int, int, bool, unsigned int*, unsigned int, unsigned int*)", F::sort},
         {"void at::native::(anonymous namespace)::sort_postprocess_kernel<float>(float const*, float*, long*, int2 const*, int, int)", F::sort},
         {"void at::native::tensor_kernel_scan_innermost_dim<float, std::plus<float> >(float*, float const*, unsigned int, unsigned int, unsigned int, float, std::plus<float>)", F::sort},
         {"void at::native::tensor_kernel_scan_outer_dim<long, std::plus<long> >(long*, long const*, unsigned int, unsigned int, unsigned int, long, std::plus<long>)", F::sort},
         {"void at::native::(anonymous namespace)::sampleMultinomialOnce<float, float>(long*, long, int, float const*, float const*, int, int)", F::sampling},
         {"void at::native::(anonymous namespace)::ComputeFusedParamsCUDAKernel<float>(long, long, long, float const*, float const*, float const*, float const*, float*, float*)", F::normalization},
         {"void at::native::(anonymous namespace)::Compute1dBackwardFusedParamsCUDAKernel<float>(long, long, float const*, float const*, float const*, float const*, float const*, float*, float*)", F::normalization},
         {"void at::native::(anonymous namespace)::GammaBeta1dBackwardCUDAKernel1<float>(long, long, long, float const*, float const*, float const*, float const*, float*, float*)", F::normalization},
         {"void at::native::batch_norm_collect_statistics_kernel<at::native::InvStd, float, float, float, 4>(at::GenericPackedTensorAccessor<float const, 3ul, at::RestrictPtrTraits, int>, float, float, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, int>, at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, int>)", F::normalization},
         {"void at::native::(anonymous namespace)::indexing_backward_kernel<float, 4>(long const*, long const*, float const*, float*, long, long, long, long, bool)", F::embedding},
         {"void at::native::(anonymous namespace)::upsample_bilinear2d_out_frame<float, float>(int, float, float, bool, at::GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, long>, at::GenericPackedTensorAccessor<float, 4ul, at::DefaultPtrTraits, long>)", F::elementwise},
         {"void at::native::triu_tril_kernel<float, int, false, 4, true>(at::cuda::detail::TensorInfo<float, int>, at::cuda::detail::TensorInfo<float const, int>, long, long, long, int)", F::elementwise},
         {"void at::native::(anonymous namespace)::conv_depthwise2d_forward_kernel<3, float, int>(at::GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, int>, at::GenericPackedTensorAccessor<float, 4ul, at::DefaultPtrTraits, int>, at::GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, int>, at::GenericPackedTensorAccessor<float const, 1ul, at::DefaultPtrTraits, int>, bool, int, int, int, int, int, int, int, int, int, int, int, int, int)", F::convolution},
         {"void at::native::(anonymous namespace)::max_pool_forward_nhwc<float, float>(float const*, int, long, long, long, int, int, int, int, int, int, int, int, int, int, int, int, float*, long*)", F::reduction}});
  // Triton (Inductor) beyond the reference traces
  check("Triton",
        {{"triton_tem_fused_mm_0", F::gemm},
         {"triton_tem_fused_addmm_relu_1", F::gemm},
         {"triton_red_fused__log_softmax_0", F::softmax},
         {"triton_per_fused__softmax_0", F::softmax},
         {"triton_poi_fused_convolution_0", F::convolution},
         {"triton_poi_fused_embedding_0", F::embedding},
         {"triton_poi_fused_index_put_0", F::embedding},
         {"triton_per_fused_add_mean_mul_pow_rsqrt_0", F::normalization},
         {"triton_red_fused_native_group_norm_0", F::normalization},
         {"triton_per_fused_cumsum_0", F::sort},
         {"triton_per_fused_sort_1", F::sort},
         {"triton_tem_fused_flex_attention_0", F::attention},
         {"triton_tem_fused_flex_attention_backward_1", F::attention}});
  // NCCL / RCCL / MSCCL / DeepEP
  check("NCCL / RCCL / MSCCL / DeepEP",
        {{"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", F::comm_reduce_scatter},
         {"ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)", F::comm_broadcast},
         {"ncclDevKernel_AllReduce_Sum_bf16_NVLS_SIMPLE(ncclDevKernelArgsStorage<4096ul>)", F::comm_all_reduce},
         {"ncclDevKernel_AllReduce_Sum_f32_TREE_LL(ncclDevKernelArgsStorage<4096ul>)", F::comm_all_reduce},
         {"ncclDevKernel_Reduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", F::comm_other},
         {"ncclKernel_ReduceScatter_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", F::comm_reduce_scatter},
         {"mscclKernel_Sum_float_LL128(ncclDevComm*, mscclAlgo*, mscclWork*)", F::comm_other},
         {"ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)", F::comm_other},
         {"void deep_ep::intranode::dispatch<8, 768, 6144>(int4*, float*, int*, long*, float*, int*, int*, int4 const*, float const*, long const*, float const*, bool const*, int const*, int, int, int, int, int, int, int, int, void**, int, int, int)", F::comm_all_to_all},
         {"void deep_ep::internode_ll::combine<false, 7168>(void*, void*, long*, void const*, long const*, int const*, float const*, int*, int*, int, int, int, int, int, int, int, int, bool, void*, bool)", F::comm_all_to_all}});
}

// The table's precedence (docs/families.md), where names carry words of
// several families.
BOOST_AUTO_TEST_CASE(precedence) {
  // A Triton kernel's op names are words: not NCCL, not cuBLAS.
  BOOST_TEST(family_name(classify("triton_poi_fused_all_reduce_copy_0", Kind::kernel)) == std::string("elementwise"));
  BOOST_TEST(family_name(classify("triton_red_fused_sum_0", Kind::kernel)) == std::string("reduction"));
  // A pointwise kernel of copies, casts and views only moves data; one op more computes.
  BOOST_TEST(family_name(classify("triton_poi_fused_clone_view_3", Kind::kernel)) == std::string("copy"));
  BOOST_TEST(family_name(classify("triton_poi_fused_cat_2", Kind::kernel)) == std::string("copy"));
  BOOST_TEST(family_name(classify("triton_poi_fused__to_copy_add_0", Kind::kernel)) == std::string("elementwise"));
  BOOST_TEST(family_name(classify("triton_poi_fused_tanh_1", Kind::kernel)) == std::string("elementwise"));
  // Attention before convolution ("convert") and GEMM ("cutlass").
  BOOST_TEST(family_name(classify("flash_bwd_convert_dq_kernel", Kind::kernel)) == std::string("attention"));
  // Convolution before GEMM: cuDNN's implicit GEMMs are convolutions.
  BOOST_TEST(family_name(classify("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc", Kind::kernel)) ==
             std::string("convolution"));
  // FBGEMM names a library, not a GEMM.
  BOOST_TEST(family_name(classify("void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)",
                                  Kind::kernel)) == std::string("copy"));
  // What a kernel does before the library that built it: a CuTe-DSL normalization
  // (kernel_cutlass_kernel_...) is no GEMM, FlashInfer's GemmaRMSNorm neither, and a
  // CUTLASS kernel that says nothing else is one.
  BOOST_TEST(family_name(classify("kernel_cutlass_kernel_quackrmsnormRMSNorm_object_at__tensorptrbf16", Kind::kernel)) ==
             std::string("normalization"));
  BOOST_TEST(family_name(classify("void flashinfer::norm::GemmaRMSNormKernel<8u, __nv_bfloat16>", Kind::kernel)) ==
             std::string("normalization"));
  BOOST_TEST(family_name(classify("void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>", Kind::kernel)) ==
             std::string("gemm"));
  BOOST_TEST(family_name(classify("void cublasLt::epilogue::impl::globalKernel<8, 32, float>", Kind::kernel)) ==
             std::string("gemm"));
  // MoE before softmax and sort (its gating is top-k of a softmax), KV cache in attention.
  BOOST_TEST(family_name(classify("void vllm::moe::topkGatingSoftmax<4, 16>", Kind::kernel)) == std::string("moe"));
  BOOST_TEST(family_name(classify("void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16>", Kind::kernel)) ==
             std::string("attention"));
  // Case does not matter; unknown names are "other".
  BOOST_TEST(family_name(classify("NVJET_TST_64X8", Kind::kernel)) == std::string("gemm"));
  BOOST_TEST(family_name(classify("my_custom_kernel", Kind::kernel)) == std::string("other"));
  BOOST_TEST(family_name(classify("", Kind::kernel)) == std::string("other"));
}

// Where the name says only "a GEMM" or nothing known, the launching operator decides.
BOOST_AUTO_TEST_CASE(launcher) {
  const auto fam = [](const char* name, const char* launcher) {
    return std::string(family_name(classify(name, Kind::kernel, launcher)));
  };
  // A generic GEMM under a convolution is convolution work; under aten::mm, GEMM.
  for (const char* conv : {"aten::cudnn_convolution", "aten::convolution", "aten::_convolution",
                           "aten::convolution_backward", "aten::miopen_convolution", "aten::conv2d",
                           "aten::cudnn_convolution_transpose", "nn.Module: Conv2d_3"}) {
    BOOST_TEST(fam("ampere_sgemm_128x64_nn", conv) == "convolution", conv);
    BOOST_TEST(fam("void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nt_align1>", conv) == "convolution", conv);
    BOOST_TEST(fam("nvjet_tst_64x8_64x16_4x1_v_bz_TNT", conv) == "convolution", conv);
    BOOST_TEST(fam("Cijk_Ailk_Bjlk_SB_MT64x16x16_MI16x16x1", conv) == "convolution", conv);
  }
  for (const char* mm : {"aten::mm", "aten::addmm", "aten::bmm", "aten::linear", ""})
    BOOST_TEST(fam("ampere_sgemm_128x64_nn", mm) == "gemm", mm);
  // A convolution's own kernels, and what is not a GEMM, keep their families.
  BOOST_TEST(fam("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc", "aten::mm") == "convolution");
  BOOST_TEST(fam("void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true>", "aten::cudnn_convolution") ==
             "copy");
  BOOST_TEST(fam("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >",
                 "aten::convolution") == "elementwise");
  // Attention and MoE operators claim their GEMMs; "convert" is no convolution.
  BOOST_TEST(fam("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1_swiglu", "triton_kernel_fused_experts_with_bias") ==
             "moe");
  BOOST_TEST(fam("void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<GroupProblemShape> >",
                 "_C::cutlass_moe_mm") == "moe");
  BOOST_TEST(fam("volta_sgemm_128x64_nn", "aten::_scaled_dot_product_attention_math") == "attention");
  BOOST_TEST(fam("volta_sgemm_128x64_nn", "aten::_convert_weight_to_int4pack") == "gemm");
  // A name no rule knows takes its launcher's family, else stays "other".
  BOOST_TEST(fam("my_attention_variant_kernel_v2", "vllm::unified_attention_with_output") == "attention");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::native_layer_norm") == "normalization");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::_softmax") == "softmax");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::topk") == "sort");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::multinomial") == "sampling");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::mm") == "gemm");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::add_") == "elementwise");
  BOOST_TEST(fam("kernel_0d1d2d", "aten::_foo_bar") == "other");
  BOOST_TEST(fam("kernel_0d1d2d", "") == "other");
  // FBGEMM's operators are no GEMMs.
  BOOST_TEST(fam("kernel_0d1d2d", "fbgemm::jagged_to_padded_dense") == "other");
  // Host events stay "other" whatever launched them.
  BOOST_TEST(family_name(classify("aten::mm", Kind::cpu_op, "aten::mm")) == std::string("other"));
}

// Every family but "other" has names in the table above: a family no name reaches is
// dead (the gate's family list and every writer read the families table).
BOOST_AUTO_TEST_CASE(families_reached) {
  const char* one_per_family[] = {
      "nvjet_tst_64x8_64x16_4x1_v_bz_TNT", "cudnn_infer_volta_scudnn_128x64_relu_small_nn_v1",
      "flash_fwd_kernel", "fused_moe_kernel", "void vllm::rms_norm_kernel<c10::BFloat16>",
      "softmax_warp_forward", "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >",
      "void at::native::reduce_kernel<512, 1>", "void at::native::bitonicSortKVInPlace<2, -1>",
      "void flashinfer::sampling::SamplingFromProbKernel<1024u>", "embedding_backward_feature_kernel",
      "CatArrayBatchedCopy", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ncclDevKernel_AllGather_RING_LL",
      "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", "ncclDevKernel_SendRecv", "deep_ep::intranode::dispatch",
      "ncclDevKernel_Broadcast_RING_LL", "ncclDevKernel_Generic_4"};
  std::set<std::string> reached;
  for (const char* n : one_per_family) reached.insert(family_name(classify(n, Kind::kernel)));
  reached.insert(family_name(classify("Memcpy HtoD (Pinned -> Device)", Kind::gpu_memcpy)));
  reached.insert(family_name(classify("Memcpy DtoH (Device -> Pinned)", Kind::gpu_memcpy)));
  reached.insert(family_name(classify("Memcpy DtoD (Device -> Device)", Kind::gpu_memcpy)));
  reached.insert(family_name(classify("Memcpy PtoP (Device -> Device)", Kind::gpu_memcpy)));
  reached.insert(family_name(classify("Memset (Device)", Kind::gpu_memset)));
  reached.insert("other");
  BOOST_TEST(reached.size() == static_cast<std::size_t>(k_family_count));
  for (int i = 0; i < k_family_count; ++i)
    BOOST_TEST(reached.count(family_name(static_cast<Family>(i))) == 1u, family_name(static_cast<Family>(i)));
}

BOOST_AUTO_TEST_SUITE_END()
