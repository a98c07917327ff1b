// Where no rule names a kernel: the operator that launched it (launcher_family), then the
// words of its name (words_family), then "other"; and the reason each row is told
// (classify_why, DiffRow::family_by).
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "analysis/names/kernel_families.hpp"

using tracediff::analysis::classify;
using tracediff::analysis::classify_why;
using tracediff::analysis::Family;
using tracediff::analysis::family_by_name;
using tracediff::analysis::family_name;
using tracediff::analysis::FamilyBy;
using tracediff::analysis::k_family_count;
using tracediff::analysis::launcher_family;
using tracediff::analysis::words_family;
using tracediff::model::Kind;
using F = tracediff::analysis::Family;

namespace {

std::string launched(const char* launcher) { return family_name(launcher_family(launcher)); }
std::string worded(const char* name) { return family_name(words_family(name)); }
std::string why(const char* name, Kind kind, const char* launcher) {
  const auto c = classify_why(name, kind, launcher);
  return std::string(family_name(c.family)) + " by " + family_by_name(c.by);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_families_fallback)

BOOST_AUTO_TEST_CASE(attention_launchers) {
  for (const char* op : {"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
                         "aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention",
                         "aten::_scaled_dot_product_flash_attention_backward", "aten::_flash_attention_forward",
                         "aten::_flash_attention_backward", "aten::_efficient_attention_forward",
                         "aten::_efficient_attention_backward", "aten::_native_multi_head_attention",
                         "nn.Module: LlamaAttention_0", "nn.Module: MultiheadAttention", "nn.Module: SelfAttention_3",
                         "vllm::unified_attention_with_output", "sageattention::qk_int8_sv_f8_accum_f32_attn",
                         "nvte_fused_attn_fwd", "_vllm_fa3_C::fwd_kvcache"})
    BOOST_TEST(launched(op) == "attention", op);
}

// ATen operators by their own names: the short ones are not found inside longer ones.
BOOST_AUTO_TEST_CASE(aten_operators) {
  const std::pair<const char*, F> ops[] = {
      {"aten::add", F::elementwise}, {"aten::add_", F::elementwise}, {"aten::add.Tensor", F::elementwise},
      {"aten::mul", F::elementwise}, {"aten::sub", F::elementwise}, {"aten::div_", F::elementwise},
      {"aten::where", F::elementwise}, {"aten::masked_fill_", F::elementwise}, {"aten::fill_", F::elementwise},
      {"aten::zero_", F::elementwise}, {"aten::gelu", F::elementwise}, {"aten::silu_backward", F::elementwise},
      {"aten::threshold_backward", F::elementwise}, {"aten::_foreach_mul_", F::elementwise},
      {"aten::_fused_adamw_", F::elementwise}, {"aten::randn", F::elementwise}, {"aten::native_dropout", F::elementwise},
      {"aten::upsample_bilinear2d", F::elementwise},  // not "linear"
      {"aten::grid_sampler_2d", F::elementwise},      // not sampling
      {"aten::addmm", F::gemm},                       // not "add"
      {"aten::mm", F::gemm}, {"aten::bmm", F::gemm}, {"aten::linear", F::gemm}, {"aten::_scaled_mm", F::gemm},
      {"aten::multinomial", F::sampling},             // not "mul"
      {"aten::max_pool2d_with_indices", F::reduction},  // not "max"
      {"aten::sum", F::reduction}, {"aten::max", F::reduction}, {"aten::linalg_vector_norm", F::reduction},
      {"aten::maximum", F::elementwise},
      {"aten::sort", F::sort}, {"aten::cumsum", F::sort}, {"aten::randperm", F::sort}, {"aten::nonzero", F::sort},
      {"aten::index_select", F::embedding}, {"aten::index_put_", F::embedding}, {"aten::gather", F::embedding},
      {"aten::scatter_add_", F::embedding}, {"aten::embedding_dense_backward", F::embedding},
      {"aten::repeat_interleave", F::embedding},
      {"aten::copy_", F::copy}, {"aten::_to_copy", F::copy}, {"aten::cat", F::copy}, {"aten::clone", F::copy},
      {"aten::constant_pad_nd", F::copy},
      {"aten::native_layer_norm", F::normalization}, {"aten::native_batch_norm_backward", F::normalization},
      {"aten::_log_softmax", F::softmax}, {"aten::nll_loss_forward", F::softmax},
      {"aten::cudnn_convolution", F::convolution}, {"aten::_foo_bar", F::other}, {"aten::", F::other},
  };
  for (const auto& [op, fam] : ops) BOOST_TEST(launched(op) == family_name(fam), op);
}

BOOST_AUTO_TEST_CASE(modules_custom_ops_and_collectives) {
  const std::pair<const char*, F> ops[] = {
      {"nn.Module: Linear_2", F::gemm}, {"nn.Module: ColumnParallelLinear", F::gemm},
      {"nn.Module: RotaryEmbedding", F::elementwise},  // not embedding
      {"nn.Module: Embedding", F::embedding}, {"nn.Module: LayerNorm", F::normalization},
      {"nn.Module: BatchNorm2d_5", F::normalization}, {"nn.Module: RMSNorm", F::normalization},
      {"nn.Module: Dropout", F::elementwise}, {"nn.Module: GELU", F::elementwise},
      {"nn.Module: UpsamplingNearest2d", F::elementwise}, {"nn.Module: MaxPool2d", F::reduction},
      {"nn.Module: CrossEntropyLoss", F::softmax}, {"nn.Module: Conv2d_3", F::convolution},
      {"nn.Module: MixtralSparseMoeBlock", F::moe}, {"nn.Module: Sequential", F::other},
      {"autograd::engine::evaluate_function: AddmmBackward0", F::gemm},
      {"Optimizer.step#AdamW.step", F::elementwise}, {"vllm::cutlass_scaled_mm", F::gemm},
      {"_C::rms_norm", F::normalization}, {"_C::silu_and_mul", F::elementwise}, {"nvte_layernorm_fwd", F::normalization},
      {"nvte_cast_transpose", F::copy}, {"nccl:all_reduce", F::comm_all_reduce}, {"c10d::allgather_", F::comm_all_gather},
      {"c10d::reduce_scatter_", F::comm_reduce_scatter}, {"nccl:send", F::comm_send_recv},
      {"c10d::broadcast_", F::comm_broadcast}, {"nccl:all_to_all", F::comm_all_to_all},
      {"record_param_comms", F::comm_other},
      {"fbgemm::jagged_to_padded_dense", F::other},  // FBGEMM names a library, not a GEMM
  };
  for (const auto& [op, fam] : ops) BOOST_TEST(launched(op) == family_name(fam), op);
}

// Every family a kernel can have is some launcher's: the table leaves none out.
BOOST_AUTO_TEST_CASE(every_kernel_family_has_launchers) {
  const char* launchers[] = {"aten::mm", "aten::convolution", "aten::scaled_dot_product_attention", "vllm::fused_moe",
                             "aten::native_layer_norm", "aten::_softmax", "aten::add", "aten::sum", "aten::topk",
                             "aten::multinomial", "aten::embedding", "aten::copy_", "nccl:all_reduce",
                             "nccl:all_gather", "nccl:reduce_scatter", "nccl:send", "nccl:all_to_all",
                             "nccl:broadcast", "record_param_comms"};
  std::set<std::string> reached;
  for (const char* l : launchers) reached.insert(family_name(launcher_family(l)));
  for (int i = 0; i < k_family_count; ++i) {
    const auto f = static_cast<F>(i);
    const std::string id = family_name(f);
    if (id.starts_with("memcpy_") || f == F::memset || f == F::other) continue;  // by the event's kind
    BOOST_TEST(reached.count(id) == 1u, id);
  }
}

// A GPU-only trace has no launchers: the words of the name carry it. Whole words, so
// that "add" is not found in "addmm" nor "cast" in "broadcast".
BOOST_AUTO_TEST_CASE(words_of_the_name) {
  const std::pair<const char*, F> names[] = {
      {"CustomAttnKernel", F::attention}, {"my_attention_v2", F::attention}, {"sage_fwd_kernel", F::attention},
      {"flash_decoding_split_kernel", F::attention},  // "flash" with a pass
      {"paged_prefill_v3", F::attention}, {"ExpertRouterKernel", F::moe}, {"my_sampler_kernel", F::sampling},
      {"myConvKernel", F::convolution}, {"fused_rms_kernel", F::normalization}, {"MyGemmKernel", F::gemm},
      {"_lora_shrink_kernel", F::gemm}, {"tile_mma_kernel_sm90", F::gemm}, {"radix_pass_kernel", F::sort},
      {"row_gather_kernel<float>", F::embedding}, {"segment_sum_kernel", F::reduction},
      {"fp32_to_bf16_cast", F::copy}, {"my_transpose_021", F::copy}, {"scalar_mul_kernel", F::elementwise},
      {"add_bias_kernel", F::elementwise}, {"add_kernel", F::elementwise}, {"UpSampleNearest", F::elementwise},
      {"fill_ones_kernel", F::elementwise}, {"philox_init_kernel", F::elementwise},
      {"void foo::(anonymous namespace)::scatter_rows<float>(float*, long)", F::embedding},
      // The parameter list's types say nothing: "IndexType", "ScaleParams" are not words of the kernel.
      {"void my_kernel<4>(at::IndexType, ScaleParams, float*)", F::other},
      {"broadcast_kernel", F::other}, {"addmm_helper", F::other}, {"kernel_0d1d2d", F::other},
      {"compute_cuda_kernel", F::other}, {"", F::other}};
  for (const auto& [name, fam] : names) BOOST_TEST(worded(name) == family_name(fam), name);
  // The kernel class reaches the words where no rule applies (a GPU-only trace).
  BOOST_TEST(family_name(classify("CustomAttnKernel", Kind::kernel)) == std::string("attention"));
  BOOST_TEST(family_name(classify("scalar_mul_kernel", Kind::kernel)) == std::string("elementwise"));
}

// Rule, then launcher, then words, then "other"; memcpy and memset by their kind.
BOOST_AUTO_TEST_CASE(reasons_in_order) {
  // A rule wins over the launcher and the words.
  BOOST_TEST(why("nvjet_tst_64x8_64x16_4x1_v_bz_TNT", Kind::kernel, "aten::mm") == "gemm by rule");
  BOOST_TEST(why("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >", Kind::kernel,
                 "aten::mm") == "elementwise by rule");
  // A generic GEMM under a convolution: the launcher.
  BOOST_TEST(why("ampere_sgemm_128x64_nn", Kind::kernel, "aten::cudnn_convolution") == "convolution by launcher");
  // No rule: the launcher before the words ("mul" says elementwise, aten::mm GEMM).
  BOOST_TEST(why("my_mul_kernel", Kind::kernel, "aten::mm") == "gemm by launcher");
  BOOST_TEST(why("kernel_0d1d2d", Kind::kernel, "aten::add_") == "elementwise by launcher");
  // No rule, a launcher that says nothing: the words.
  BOOST_TEST(why("my_mul_kernel", Kind::kernel, "aten::_foo_bar") == "elementwise by words");
  BOOST_TEST(why("my_mul_kernel", Kind::kernel, "") == "elementwise by words");
  // CuTe DSL's prefix says nothing of GEMM: such a kernel goes by its launcher.
  BOOST_TEST(why("kernel_cutlass_repro", Kind::kernel, "aten::add") == "elementwise by launcher");
  BOOST_TEST(why("kernel_cutlass_repro", Kind::kernel, "") == "other by none");
  // Nothing: "other".
  BOOST_TEST(why("kernel_0d1d2d", Kind::kernel, "") == "other by none");
  // Memcpy and memset by their kind; a memcpy of no known direction is "other".
  BOOST_TEST(why("Memcpy HtoD (Pinned -> Device)", Kind::gpu_memcpy, "aten::copy_") == "memcpy_htod by kind");
  BOOST_TEST(why("Memset (Device)", Kind::gpu_memset, "") == "memset by kind");
  BOOST_TEST(why("Memcpy", Kind::gpu_memcpy, "") == "other by none");
  // Host events are no family's.
  BOOST_TEST(why("aten::mm", Kind::cpu_op, "aten::mm") == "other by none");
  for (const auto by : {FamilyBy::rule, FamilyBy::launcher, FamilyBy::words, FamilyBy::kind, FamilyBy::none})
    BOOST_TEST(std::string(family_by_name(by)).size() > 0);
}

BOOST_AUTO_TEST_SUITE_END()
