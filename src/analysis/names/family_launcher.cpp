// The family of the CPU operator that launched a kernel (kernel_families.hpp, launcher_family):
// asked where the kernel's name says only "a GEMM" or nothing the rules know. ATen
// operators go by their names; modules (nn.Module: ...), custom operators (vllm::,
// fbgemm::, sageattention::, nvte_...) and autograd nodes by the texts in them.
#include <algorithm>
#include <string>

#include "analysis/names/kernel_families.hpp"

namespace tracediff::analysis {

namespace {

using F = Family;

struct LauncherText {
  const char* text;  // lower case, found anywhere in the lower-cased launcher
  Family family;
};

// Before the ATen names: what an operator or module is for, where its name says so
// in any spelling (aten::_scaled_dot_product_flash_attention, nn.Module: LayerNorm,
// vllm::unified_attention). Communication first (its ops are words: "all_reduce"), then
// convolution, attention and MoE (they claim the generic GEMMs they launch).
constexpr LauncherText k_first[] = {
    {"allreduce", F::comm_all_reduce},
    {"all_reduce", F::comm_all_reduce},
    {"allgather", F::comm_all_gather},
    {"all_gather", F::comm_all_gather},
    {"reducescatter", F::comm_reduce_scatter},
    {"reduce_scatter", F::comm_reduce_scatter},
    {"alltoall", F::comm_all_to_all},
    {"all_to_all", F::comm_all_to_all},
    {"c10d::broadcast", F::comm_broadcast},
    {"nccl:broadcast", F::comm_broadcast},
    {"c10d::send", F::comm_send_recv},
    {"c10d::recv", F::comm_send_recv},
    {"nccl:send", F::comm_send_recv},
    {"nccl:recv", F::comm_send_recv},
    {"record_param_comms", F::comm_other},
    {"c10d::", F::comm_other},
    {"nccl:", F::comm_other},
    // aten::convolution, _convolution, cudnn_convolution, miopen_convolution,
    // convolution_backward, conv2d, conv_transpose2d, nn.Module: Conv2d
    {"convolution", F::convolution},
    {"conv1d", F::convolution},
    {"conv2d", F::convolution},
    {"conv3d", F::convolution},
    {"conv_transpose", F::convolution},
    {"convtranspose", F::convolution},
    {"conv_tbc", F::convolution},
    {"conv_depthwise", F::convolution},
    {"im2col", F::convolution},
    {"col2im", F::convolution},
    // aten::scaled_dot_product_attention, _scaled_dot_product_{flash,efficient,cudnn}_attention,
    // _flash_attention_{forward,backward}, _efficient_attention_{forward,backward},
    // nn.Module: ...Attention..., vllm::unified_attention, sageattention::qk_int8_sv_f8_accum_f32_attn
    {"attention", F::attention},
    {"attn", F::attention},
    {"sdpa", F::attention},
    {"multi_head", F::attention},
    {"multihead", F::attention},
    {"kv_cache", F::attention},
    {"kvcache", F::attention},
    {"reshape_and_cache", F::attention},
    {"moe", F::moe},
    {"expert", F::moe},
    {"topk_softmax", F::moe},  // MoE gating
    // Before the ATen names: aten::native_layer_norm, aten::_softmax, multinomial, ...
    {"layer_norm", F::normalization},
    {"layernorm", F::normalization},
    {"rms_norm", F::normalization},
    {"rmsnorm", F::normalization},
    {"batch_norm", F::normalization},
    {"batchnorm", F::normalization},
    {"group_norm", F::normalization},
    {"groupnorm", F::normalization},
    {"instance_norm", F::normalization},
    {"instancenorm", F::normalization},
    {"local_response_norm", F::normalization},
    {"softmax", F::softmax},
    {"cross_entropy", F::softmax},  // the losses built on it
    {"crossentropy", F::softmax},
    {"nll_loss", F::softmax},
    {"nllloss", F::softmax},
    {"kl_div", F::softmax},
    {"upsampl", F::elementwise},  // upsample_bilinear2d, nn.Module: UpsamplingNearest2d: no sampling
    {"grid_sampl", F::elementwise},
    {"multinomial", F::sampling},
    {"sampling", F::sampling},
    {"sampler", F::sampling},
    {"top_k_top_p", F::sampling},
};

struct AtenOp {
  const char* name;  // the operator's name without "aten::", leading "_", a trailing "_"
                     // (in place) or the overload (".Tensor")
  Family family;
  bool prefix = false;  // the name starts with it (upsample_bilinear2d, _foreach_mul_)
};

// ATen operators by name: many are short words that a text would find inside others
// ("add" in "addmm", "mul" in "multinomial", "max" in "max_pool2d").
constexpr AtenOp k_aten[] = {
    // GEMM
    {"mm", F::gemm}, {"addmm", F::gemm}, {"addmm_activation", F::gemm}, {"bmm", F::gemm},
    {"baddbmm", F::gemm}, {"addbmm", F::gemm}, {"matmul", F::gemm}, {"linear", F::gemm},
    {"addmv", F::gemm}, {"mv", F::gemm}, {"addr", F::gemm}, {"outer", F::gemm}, {"einsum", F::gemm},
    {"tensordot", F::gemm}, {"int_mm", F::gemm}, {"scaled_mm", F::gemm}, {"scaled_grouped_mm", F::gemm},
    {"grouped_mm", F::gemm}, {"linalg_matmul", F::gemm}, {"linalg_vecdot", F::gemm},
    // Sort, scan, top-k and compaction
    {"sort", F::sort}, {"argsort", F::sort}, {"msort", F::sort}, {"topk", F::sort}, {"cumsum", F::sort},
    {"cumprod", F::sort}, {"cummax", F::sort}, {"cummin", F::sort}, {"logcumsumexp", F::sort},
    {"unique", F::sort, true}, {"kthvalue", F::sort}, {"median", F::sort}, {"nanmedian", F::sort},
    {"mode", F::sort}, {"nonzero", F::sort}, {"randperm", F::sort}, {"searchsorted", F::sort},
    {"bucketize", F::sort},
    // Embedding and indexing
    {"embedding", F::embedding, true}, {"index", F::embedding, true}, {"unsafe_index", F::embedding, true},
    {"gather", F::embedding}, {"scatter", F::embedding, true}, {"take", F::embedding},
    {"take_along_dim", F::embedding}, {"put", F::embedding}, {"masked_scatter", F::embedding},
    {"masked_select", F::embedding}, {"repeat_interleave", F::embedding},  // builds an index, then gathers
    // Reduction and pooling
    {"sum", F::reduction}, {"nansum", F::reduction}, {"mean", F::reduction}, {"nanmean", F::reduction},
    {"prod", F::reduction}, {"max", F::reduction}, {"min", F::reduction}, {"amax", F::reduction},
    {"amin", F::reduction}, {"aminmax", F::reduction}, {"argmax", F::reduction}, {"argmin", F::reduction},
    {"norm", F::reduction}, {"linalg_vector_norm", F::reduction}, {"linalg_norm", F::reduction},
    {"frobenius_norm", F::reduction}, {"std", F::reduction}, {"var", F::reduction},
    {"std_mean", F::reduction}, {"var_mean", F::reduction}, {"logsumexp", F::reduction}, {"all", F::reduction},
    {"any", F::reduction}, {"count_nonzero", F::reduction}, {"histc", F::reduction}, {"bincount", F::reduction},
    {"max_pool", F::reduction, true}, {"avg_pool", F::reduction, true}, {"adaptive_", F::reduction, true},
    {"fractional_max_pool", F::reduction, true}, {"max_unpool", F::reduction, true}, {"mse_loss", F::reduction},
    {"l1_loss", F::reduction}, {"smooth_l1_loss", F::reduction}, {"huber_loss", F::reduction},
    {"binary_cross_entropy", F::reduction, true},
    // Copy and cast, concatenation, layout changes
    {"copy", F::copy}, {"copy_from", F::copy}, {"copy_from_and_resize", F::copy}, {"to", F::copy},
    {"to_copy", F::copy}, {"contiguous", F::copy}, {"clone", F::copy}, {"cat", F::copy}, {"concat", F::copy},
    {"concatenate", F::copy}, {"stack", F::copy}, {"hstack", F::copy}, {"vstack", F::copy}, {"transpose", F::copy},
    {"permute", F::copy}, {"reshape", F::copy}, {"flatten", F::copy}, {"repeat", F::copy}, {"tile", F::copy},
    {"flip", F::copy}, {"roll", F::copy}, {"rot90", F::copy}, {"pad", F::copy}, {"constant_pad_nd", F::copy},
    {"reflection_pad", F::copy, true}, {"replication_pad", F::copy, true}, {"narrow_copy", F::copy},
    {"split_with_sizes_copy", F::copy}, {"chunk_cat", F::copy}, {"to_dense", F::copy}, {"pixel_shuffle", F::copy},
    {"pixel_unshuffle", F::copy}, {"channel_shuffle", F::copy}, {"unfold", F::copy}, {"lift_fresh_copy", F::copy},
    // Elementwise and activation: arithmetic, comparisons, math, activations and their
    // backwards, fills, random numbers, fused optimizers, upsampling
    {"add", F::elementwise}, {"sub", F::elementwise}, {"rsub", F::elementwise}, {"mul", F::elementwise},
    {"div", F::elementwise}, {"true_divide", F::elementwise}, {"floor_divide", F::elementwise},
    {"remainder", F::elementwise}, {"fmod", F::elementwise}, {"neg", F::elementwise}, {"abs", F::elementwise},
    {"sign", F::elementwise}, {"sgn", F::elementwise}, {"exp", F::elementwise}, {"exp2", F::elementwise},
    {"expm1", F::elementwise}, {"log", F::elementwise}, {"log2", F::elementwise}, {"log10", F::elementwise},
    {"log1p", F::elementwise}, {"sqrt", F::elementwise}, {"rsqrt", F::elementwise}, {"pow", F::elementwise},
    {"square", F::elementwise}, {"reciprocal", F::elementwise}, {"sin", F::elementwise}, {"cos", F::elementwise},
    {"tan", F::elementwise}, {"atan2", F::elementwise}, {"tanh", F::elementwise, true},
    {"sigmoid", F::elementwise, true}, {"logit", F::elementwise, true}, {"erf", F::elementwise, true},
    {"relu", F::elementwise, true}, {"leaky_relu", F::elementwise, true}, {"elu", F::elementwise, true},
    {"selu", F::elementwise}, {"celu", F::elementwise}, {"gelu", F::elementwise, true},
    {"silu", F::elementwise, true}, {"mish", F::elementwise, true}, {"hardswish", F::elementwise, true},
    {"hardsigmoid", F::elementwise, true}, {"hardtanh", F::elementwise, true}, {"softplus", F::elementwise, true},
    {"threshold", F::elementwise, true}, {"glu", F::elementwise, true}, {"clamp", F::elementwise, true},
    {"clip", F::elementwise}, {"where", F::elementwise}, {"masked_fill", F::elementwise}, {"fill", F::elementwise, true},
    {"zero", F::elementwise}, {"zeros", F::elementwise}, {"zeros_like", F::elementwise}, {"ones", F::elementwise},
    {"ones_like", F::elementwise}, {"full", F::elementwise}, {"full_like", F::elementwise}, {"lerp", F::elementwise},
    {"addcmul", F::elementwise}, {"addcdiv", F::elementwise}, {"maximum", F::elementwise},
    {"minimum", F::elementwise}, {"fmax", F::elementwise}, {"fmin", F::elementwise}, {"eq", F::elementwise},
    {"ne", F::elementwise}, {"lt", F::elementwise}, {"le", F::elementwise}, {"gt", F::elementwise},
    {"ge", F::elementwise}, {"logical_", F::elementwise, true}, {"bitwise_", F::elementwise, true},
    {"isnan", F::elementwise}, {"isinf", F::elementwise}, {"isfinite", F::elementwise},
    {"nan_to_num", F::elementwise}, {"round", F::elementwise}, {"floor", F::elementwise}, {"ceil", F::elementwise},
    {"trunc", F::elementwise}, {"frac", F::elementwise}, {"arange", F::elementwise}, {"range", F::elementwise},
    {"linspace", F::elementwise}, {"logspace", F::elementwise}, {"triu", F::elementwise}, {"tril", F::elementwise},
    {"dropout", F::elementwise, true}, {"native_dropout", F::elementwise, true}, {"fused_dropout", F::elementwise},
    {"bernoulli", F::elementwise}, {"uniform", F::elementwise}, {"normal", F::elementwise},
    {"random", F::elementwise}, {"rand", F::elementwise, true}, {"exponential", F::elementwise},
    {"foreach_", F::elementwise, true}, {"fused_adam", F::elementwise, true}, {"fused_sgd", F::elementwise},
    {"fused_adagrad", F::elementwise}, {"amp_", F::elementwise, true}, {"upsample_", F::elementwise, true},
    {"grid_sampler", F::elementwise, true}, {"lgamma", F::elementwise}, {"digamma", F::elementwise},
    {"hypot", F::elementwise}, {"logaddexp", F::elementwise}, {"xlogy", F::elementwise},
    {"copysign", F::elementwise}, {"heaviside", F::elementwise}, {"polar", F::elementwise},
    {"complex", F::elementwise}, {"conj_physical", F::elementwise},
};

// After the ATen names: modules, custom operators and autograd nodes by the texts in
// them (nn.Module: Linear, vllm::cutlass_scaled_mm, MmBackward0, nn.Module: Dropout).
constexpr LauncherText k_then[] = {
    {"rotary", F::elementwise},  // before "embedding": nn.Module: RotaryEmbedding
    {"rope_", F::elementwise},
    {"_rope", F::elementwise},
    {"gemm", F::gemm},  // "fbgemm" is lowered to "fb_emm": the library says nothing of GEMM
    {"matmul", F::gemm},
    {"scaled_mm", F::gemm},
    {"mmbackward", F::gemm},  // MmBackward0, AddmmBackward0, BmmBackward0
    {"marlin", F::gemm},
    {"lora", F::gemm},
    {"aten::sort", F::sort},
    {"topk", F::sort},
    {"cumsum", F::sort},
    {"embedding", F::embedding},
    {"index_select", F::embedding},
    {"gather", F::embedding},
    {"scatter", F::embedding},
    {"pool", F::reduction},  // nn.Module: MaxPool2d, AdaptiveAvgPool2d
    {"copy", F::copy},
    {"transpose", F::copy},
    {"permute", F::copy},
    {"upsample", F::elementwise},
    {"interpolate", F::elementwise},
    {"dropout", F::elementwise},
    {"relu", F::elementwise},
    {"gelu", F::elementwise},
    {"silu", F::elementwise},
    {"sigmoid", F::elementwise},
    {"tanh", F::elementwise},
    {"swiglu", F::elementwise},
    {"geglu", F::elementwise},
    {"act_and_mul", F::elementwise},
    {"quant", F::elementwise},
    {"optimizer.step", F::elementwise},  // record_function of a fused optimizer's step
    {"adam", F::elementwise},
    {"linear", F::gemm},  // last: upsample_bilinear2d, linear_attention are caught above
};

bool has(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

// "aten::_foreach_mul_.Scalar" -> "foreach_mul"; empty for no ATen operator.
std::string_view aten_op(std::string_view lower) {
  constexpr std::string_view k_aten_prefix = "aten::";
  if (!lower.starts_with(k_aten_prefix)) return {};
  std::string_view op = lower.substr(k_aten_prefix.size());
  op = op.substr(0, op.find('.'));
  while (!op.empty() && op.front() == '_') op.remove_prefix(1);
  if (!op.empty() && op.back() == '_') op.remove_suffix(1);
  return op;
}

}  // namespace

Family launcher_family(std::string_view launcher) {
  const std::string lower = detail::lowered(launcher);
  for (const auto& r : k_first)
    if (has(lower, r.text)) return r.family;
  if (const auto op = aten_op(lower); !op.empty())
    for (const auto& r : k_aten)
      if (r.prefix ? op.starts_with(r.name) : op == r.name) return r.family;
  for (const auto& r : k_then)
    if (has(lower, r.text)) return r.family;
  return Family::other;
}

}  // namespace tracediff::analysis
