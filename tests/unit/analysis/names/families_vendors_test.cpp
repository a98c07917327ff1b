// Kernel names of the vendor and kernel libraries that current training and inference
// stacks run, as their sources declare them and as profiles quote them (demangled as
// Kineto writes them; bare names for Triton and assembly kernels): each must be named by
// a rule of the table, not left to the launcher or the words of the name.
#include <boost/test/unit_test.hpp>

#include <string>

#include "analysis/names/kernel_families.hpp"

using tracediff::analysis::classify_why;
using tracediff::analysis::family_by_name;
using tracediff::analysis::family_name;
using tracediff::analysis::FamilyBy;
using tracediff::model::Kind;
using F = tracediff::analysis::Family;

namespace {

struct Case {
  const char* name;
  F family;
};

void by_rule(const char* library, std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    const auto got = classify_why(c.name, Kind::kernel, "");
    BOOST_TEST(family_name(got.family) == std::string(family_name(c.family)), library << ": " << c.name);
    BOOST_TEST(family_by_name(got.by) == std::string("rule"), library << ": " << c.name);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_families_vendors)

BOOST_AUTO_TEST_CASE(miopen) {
  by_rule("MIOpen",
          {{"MIOpenBatchNormFwdTrainSpatial", F::normalization},
           {"MIOpenBatchNormBwdSpatial", F::normalization},
           {"MIOpenBatchNormFwdInferSpatialEst", F::normalization},
           {"MIOpenLRNWithinChannel_PS", F::normalization},
           {"MIOpenConvUni", F::convolution},
           {"MIOpenCvD3x3_WSR0", F::convolution},
           {"naive_conv_fwd_nchw_float_double_float", F::convolution},
           {"naive_conv_bwd_nhwc_half_double_half", F::convolution},
           {"naive_conv_wrw_nchw_bfloat16_double_bfloat16", F::convolution},
           {"igemm_fwd_gtcx_nhwc_fp16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2_ta1x8x2x1_1x4x1x64_tb1x8x1x2_1x4x1x64",
            F::convolution},
           {"igemm_wrw_gtcx_nchw_fp32_bx0_ex0_bt128x128x16_wt32x32x2_ws1x1_wr2x2_ta1x4x1x1_1x4x1x64", F::convolution},
           {"miopenSp3AsmConv_v21_1_3_gfx9_fp32_f2x3_stride1", F::convolution},
           {"miopenGcnAsmConv1x1U", F::convolution},
           // Not every MIOpen kernel is a convolution: activations, tensor arithmetic,
           // casts and layout changes, pooling, reductions.
           {"MIOpenActiveFwdLite", F::elementwise},
           {"Op2dTensorGeneric", F::elementwise},
           {"Op4dTensorLite", F::elementwise},
           {"OpTensorFwdBias", F::elementwise},
           {"SubTensorOpWithScalar1d", F::elementwise},
           {"SubTensorOpWithCastTensor1d", F::copy},
           {"transpose_NCHW2CNHW_V1_1D_WG_float", F::copy},
           {"mloPoolingG", F::reduction},
           {"mloPoolingForwardNDNhwcNaive", F::reduction},
           {"gridwise_generic_reduce_1", F::reduction}});
}

BOOST_AUTO_TEST_CASE(rocblas_hipblaslt) {
  by_rule("rocBLAS/hipBLASLt",
          {{"Cijk_Ailk_Bljk_SB_MT64x64x8_SE_APM1_AF0EM1_AF1EM1_AMAS3_ASAE01_ASCE01_ASEM1_BL1_DTL0_EPS1_FL0_GRVW4_GSU1_"
            "ISA906_IU1_K1_KLA_LBSPP0_LPA0_LPB0_LDL1_LRVW4_MAC_MDA2_NLCA1_NLCB1_ONLL1_PBD0_PK0_PGR1_PLR1_RK0_SU32_SUM0_"
            "SUS256_SVW4_SNLL0_TT4_4_TLDS0_USFGROn1_VAW1_VS1_VW4_WSGRA0_WSGRB0_WG16_16_1_WGM8",
            F::gemm},
           {"Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_ASE_ASGT_"
            "ASLT_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_DTL0_DTVA0_DVO0_ETSP_EPS1_FSSC10_FL0_GRPM1_GRVW8_GSU1_GSUASB_GLS0_"
            "ISA90a_IU1_K1_KLA_LBSPPA128_LBSPPB128_LPA0_LPB8_LDL1_LRVW8_WG32_4_1_WGM1",
            F::gemm},
           {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_GRPM1_GSU1_ISA950_K1_WG32_8_1",
            F::gemm},
           {"void rocblas_gemvt_kernel<false, 256, long, float, float const*, float, float const*, float*>(int, int, "
            "float, long, float const*, long, int, long, float const*, long, int, long, float, long, float*, long, int, "
            "long)",
            F::gemm},
           {"void rocblas_scal_kernel<long, 256, float, float, float*>(long, float, long, float*, long, long, long)",
            F::gemm}});
}

BOOST_AUTO_TEST_CASE(composable_kernel) {
  by_rule("Composable Kernel",
          {{"void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor, "
            "ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajor, ck::half_t, ck::half_t",
            F::gemm},
           {"void ck::kernel_contraction_multiple_d_xdl_cshuffle<ck::GridwiseGemmMultipleD_xdl_cshuffle<ck::half_t",
            F::gemm},
           {"void ck::kernel_grouped_conv_fwd_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout",
            F::convolution},
           {"void ck_tile::kentry<128, 1, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<ck_tile::"
            "BlockFmhaPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t",
            F::attention},
           {"ck_tile::FmhaBwdDQDKDVKernel<ck_tile::BlockFmhaBwdDQDKDVPipelineKRKTRVR", F::attention},
           {"ck_tile::Layernorm2dFwd<ck_tile::Layernorm2dFwdPipelineOnePass<ck_tile::Layernorm2dFwdPipelineProblem",
            F::normalization},
           {"ck_tile::Rmsnorm2dFwd<ck_tile::Rmsnorm2dFwdPipelineOnePass", F::normalization},
           {"ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 1, true, false, false>>", F::moe},
           {"ck_tile::SmoothquantKernel<ck_tile::SmoothquantPipelineOnePass", F::elementwise},
           {"void ck::kernel_elementwise<ck::GridwiseElementwise<ck::Tuple<ck::half_t const*>", F::elementwise},
           {"void ck::kernel_reduce_multiblock<ck::GridwiseReduction_mk_to_m_multiblock<float, float, float", F::reduction}});
}

BOOST_AUTO_TEST_CASE(aiter) {
  by_rule("AITER",
          {{"aiter::fmha_fwd_hd128_bf16_causal", F::attention},
           {"_ZN5aiter24fmha_fwd_hd128_bf16_rtneE", F::attention},
           {"_ZN5aiter39mla_a8w8_qh16_m16x4_n16x1_coex0_mask1E", F::attention},
           {"kn_get_mla_metadata", F::attention},
           {"void aiter::paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, __hip_bfloat16", F::attention},
           {"_ZN5aiter36fmoe_bf16_blockscaleFp8_g1u1_vs_silu_1tg_32x256E", F::moe},
           {"void aiter::grouped_topk_opt_sort_kernel<__hip_bfloat16>", F::moe},
           {"_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_32x128E", F::gemm},
           {"void aiter::add_rmsnorm_quant_kernel<__hip_bfloat16, __hip_bfloat16, 256, 16, true, false, true, 1>",
            F::normalization},
           {"void aiter::kn_entry_2c_sbhd_cached_indirect_inplace<aiter::OpCachedFwd<(aiter::RotateStyle)0, true",
            F::elementwise},
           {"void aiter::dynamic_per_token_scaled_quant_kernel<__hip_bfloat16, ck_tile::fp8_t>", F::elementwise}});
}

BOOST_AUTO_TEST_CASE(triton) {
  by_rule("Triton",
          {{"triton_poi_fused_add_mul_0", F::elementwise},
           {"triton_poi_fused__to_copy_1", F::copy},
           {"triton_red_fused_sum_1", F::reduction},
           {"triton_per_fused__softmax_2", F::softmax},
           {"triton_per_fused_add_mean_pow_rsqrt_3", F::normalization},
           {"triton_tem_fused_mm_4", F::gemm},
           {"triton_tem_fused_addmm_relu_5", F::gemm},
           {"_attn_fwd", F::attention},
           {"_attn_bwd", F::attention},
           {"_attn_bwd_preprocess", F::attention},
           {"_fwd_kernel", F::attention},
           {"matmul_kernel", F::gemm},
           {"_layer_norm_fwd_fused", F::normalization}});
}

BOOST_AUTO_TEST_CASE(cutlass_cute_dsl) {
  by_rule("CUTLASS/CuTe DSL",
          {{"void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_relu_bf16_128x128_32x3_tn_align8>"
            "(cutlass_80_tensorop_s16816gemm_relu_bf16_128x128_32x3_tn_align8::Params)",
            F::gemm},
           {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_2x1x1_0_tnn_align8_warpspecialized_"
            "cooperative_epi_tma",
            F::gemm},
           {"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
            "cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized",
            F::gemm},
           {"kernel_cutlass_kernel___main__DenseGemmKernel_object_at__tensorptrf16gmemalign16odiv8_tensorptrf16_0",
            F::gemm},
           {"kernel_cutlass_kernel_quackrmsnormRMSNorm_object_at__tensorptrbf16gmemalign16odiv8_0", F::normalization},
           {"kernel_cutlass_elementwise_add_kernel_tensorptrf32gmemalign16odiv4_tensorptrf32gmemalign16odiv4_0",
            F::elementwise}});
}

BOOST_AUTO_TEST_CASE(flashinfer) {
  by_rule("FlashInfer",
          {{"void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, "
            "128u, 2u, 2u, 8u, 8u, 4u, 1u, (flashinfer::PosEncodingMode)0, __nv_bfloat16",
            F::attention},
           {"void flashinfer::BatchDecodeWithPagedKVCacheKernelMLA<(flashinfer::PosEncodingMode)0, 16u, 8u, 2u",
            F::attention},
           {"void flashinfer::PersistentVariableLengthMergeStatesKernel<8u, 16u, 8u, 4u, __nv_bfloat16", F::attention},
           {"void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)1, "
            "(cub::BlockReduceAlgorithm)2, 4u, false, float, int>(float*, int*, bool*, int*, float*, int*, float*, "
            "unsigned int, unsigned int, unsigned long, unsigned long)",
            F::sampling},
           {"void flashinfer::sampling::TopPRenormProbKernel<1024u, (cub::BlockReduceAlgorithm)2, 4u, float>",
            F::sampling},
           {"void flashinfer::norm::RMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, "
            "unsigned int, unsigned int, unsigned int, unsigned int, float, float)",
            F::normalization},
           {"void flashinfer::activation::act_and_mul_kernel<__nv_bfloat16, &silu>", F::elementwise},
           {"void flashinfer::BatchQKApplyRotaryPosIdsCosSinCacheKernel<true, 128u, 8u, 16u, __nv_bfloat16, long>",
            F::elementwise},
           {"void flashinfer::quantization::PackBitsKernel<(flashinfer::quantization::BitOrder)0>", F::elementwise}});
}

BOOST_AUTO_TEST_CASE(sage_attention) {
  by_rule("SageAttention",
          {{"void qk_int_sv_f8_attn_kernel<128u, 64u, 32u, 64u, 128u, (DataType)0, (QuantGranularity)2, "
            "(QuantGranularity)2, float, false, __nv_bfloat16, (ComputeUnit)0, (MaskMode)1, false, true, false>",
            F::attention},
           {"void qk_int_sv_f16_attn_kernel<128u, 64u, 32u, 64u, 128u, (DataType)0", F::attention},
           {"sage_fwd", F::attention},
           {"sage_bwd_dq_kernel", F::attention},
           {"void QuantInt8Kernel<128u, 64u, 1u, true, false, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, "
            "signed char*, float*, float, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, "
            "unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int)",
            F::elementwise},
           {"void TransposePadPermuteKernel<64u, 128u, true, __nv_bfloat16>", F::copy},
           {"quant_per_block_int8_kernel", F::elementwise}});
}

BOOST_AUTO_TEST_CASE(xformers) {
  by_rule("xFormers",
          {{"fmha_cutlassF_f16_aligned_64x64_rf_sm80", F::attention},
           {"fmha_cutlassB_bf16_aligned_128x128_k128_sm80", F::attention},
           {"void attention_kernel_batched_impl<AttentionKernel<cutlass::half_t, cutlass::arch::Sm80, true, 64, 64, "
            "64, true, true> >(AttentionKernel<cutlass::half_t, cutlass::arch::Sm80, true, 64, 64, 64, true, "
            "true>::Params)",
            F::attention},
           {"_fwd_kernel_splitK", F::attention},
           {"_splitK_reduce", F::attention},
           {"void cutlass::Kernel<cutlass::gemm::kernel::DualGemm<cutlass::gemm::threadblock::DualMmaMultistage",
            F::gemm}});
}

BOOST_AUTO_TEST_CASE(liger) {
  by_rule("Liger",
          {{"_rms_norm_forward_kernel", F::normalization},
           {"_rms_norm_backward_kernel", F::normalization},
           {"_fused_add_rms_norm_forward_kernel", F::normalization},
           {"_layer_norm_forward_kernel", F::normalization},
           {"_group_norm_forward_kernel", F::normalization},
           {"_dyt_fwd_kernel", F::normalization},
           {"liger_cross_entropy_kernel", F::softmax},
           {"_cross_entropy_kernel", F::softmax},
           {"_kldiv_kernel_forward", F::softmax},
           {"_jsd_kernel", F::softmax},
           {"_swiglu_forward_kernel", F::elementwise},
           {"_geglu_tanh_forward_kernel", F::elementwise},
           {"_triton_rope", F::elementwise},
           {"_qwen2vl_mrope_forward", F::elementwise},
           {"element_mul_kernel", F::elementwise}});
}

BOOST_AUTO_TEST_CASE(transformer_engine) {
  by_rule("Transformer Engine",
          {{"void transformer_engine::normalization::ln_fwd_tuned_kernel<transformer_engine::normalization::"
            "Kernel_traits<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, unsigned int, 4096u, 1u, 1u, 4u, 16u, "
            "transformer_engine::normalization::Kernel_traits_base<4096u, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, "
            "float, unsigned int, 128u> > >(transformer_engine::normalization::ForwardKernelParams)",
            F::normalization},
           {"void transformer_engine::normalization::ln_bwd_finalize_tuned_kernel<transformer_engine::normalization",
            F::normalization},
           {"void transformer_engine::normalization::rmsnorm_fwd_tuned_kernel<transformer_engine::normalization",
            F::normalization},
           {"void transformer_engine::(anonymous namespace)::multi_cast_transpose_kernel<4, 8, true, float, "
            "__nv_bfloat16, __nv_fp8_e4m3>(transformer_engine::(anonymous namespace)::MultiCastTransposeArgs)",
            F::copy},
           {"void transformer_engine::mxfp8_kernel::cast_mxfp8_2D_kernel<float, __nv_bfloat16, __nv_fp8_e4m3>", F::copy},
           {"void transformer_engine::dispatch::mxfp8::quantize_kernel::quantize_mxfp8_kernel<float, __nv_bfloat16",
            F::elementwise},
           {"void transformer_engine::scaled_masked_softmax_warp_forward<__nv_bfloat16, __nv_bfloat16, float, 11>",
            F::softmax},
           {"void transformer_engine::fused_attn::cu_seqlens_to_offsets(unsigned long, long, int*, int*, int*)",
            F::attention},
           {"void transformer_engine::(anonymous namespace)::gated_act_kernel<8, true, float, "
            "&transformer_engine::silu<float, float>, __nv_bfloat16, __nv_bfloat16>",
            F::elementwise}});
}

BOOST_AUTO_TEST_SUITE_END()
