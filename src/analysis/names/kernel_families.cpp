// Kernel families (kernel_families.hpp): the ordered rule table over kernel names, long on
// purpose (one line per name pattern of the libraries real traces hold), the launcher
// table for generic names, and the automaton that matches the rules in one pass.
#include "analysis/names/kernel_families.hpp"

#include <array>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace tracediff::analysis {

namespace {

struct FamilyInfo {
  const char* id;
  const char* label;
};
// In enum order.
constexpr FamilyInfo k_families[k_family_count] = {
    {"gemm", "GEMM"},
    {"convolution", "Convolution"},
    {"attention", "Attention"},
    {"moe", "MoE routing and experts"},
    {"normalization", "Normalization"},
    {"softmax", "Softmax"},
    {"elementwise", "Elementwise and activation"},
    {"reduction", "Reduction and pooling"},
    {"sort", "Sort, scan and top-k"},
    {"sampling", "Sampling"},
    {"embedding", "Embedding and indexing"},
    {"copy", "Copy and cast"},
    {"all_reduce", "All-reduce"},
    {"all_gather", "All-gather"},
    {"reduce_scatter", "Reduce-scatter"},
    {"send_recv", "Send/recv"},
    {"all_to_all", "All-to-all"},
    {"broadcast", "Broadcast"},
    {"comm_other", "Other communication"},
    {"memcpy_htod", "Memcpy HtoD"},
    {"memcpy_dtoh", "Memcpy DtoH"},
    {"memcpy_dtod", "Memcpy DtoD"},
    {"memcpy_ptop", "Memcpy PtoP"},
    {"memset", "Memset"},
    {"other", "Other"},
};

enum class Match : unsigned char {
  contains,        // the name contains the text
  prefix,          // the name starts with it (after a leading "void ")
  triton_op,       // an Inductor kernel (triton_poi_/red_/per_/tem_...) whose fused ops
                   // include it: "_text_" occurs in the name
  triton_reduce,   // the same, for reduction kernels (triton_red_/triton_per_) only
  triton_copy,     // a pointwise Inductor kernel whose fused ops are all copies, casts or views
};

struct Rule {
  Match match;
  const char* text;       // lower case
  Family family;
  const char* also = nullptr;  // a second text the name must contain too (lower case)
};

using F = Family;
using M = Match;

// THE rule table: first match wins; texts are lower case and matched against the
// lower-cased name. It is long on purpose: one line per name pattern of the libraries
// that real traces hold. The order is the precedence (docs/families.md): what
// a kernel does comes before the library that built it, so a CuTe-DSL or Triton
// normalization is normalization and a library's name alone decides only last.
//   1. Inductor's Triton kernels, by their fused op names, then by kind
//      (poi: pointwise, red/per: reduction, tem: GEMM template), before anything else
//      because their names list ops in words ("..._all_reduce_..." is not NCCL);
//   2. communication (by collective), 3. attention and its KV cache (its kernels
//      contain "gemm", "softmax" and "conv"ert), 4. MoE (its GEMMs, top-k and sorts are
//      routing), 5. sampling, 6. convolution (cuDNN's and CUTLASS's are "implicit_gemm"),
//      7. normalization, 8. softmax (FlashInfer's GemmaRMSNorm is no GEMM), 9. GEMM by
//      what the name says it computes (gemm, gemv, matmul, cuBLAS/Tensile names), 10. sort, scan and top-k, 11. embedding and
//      indexing, 12. reduction, 13. copy and cast, 14. the rest of cuDNN/MIOpen
//      (convolution helpers), 15. elementwise, 16. GEMM by library alone (CUTLASS,
//      cuBLAS helpers); anything else is "other" (classify() with a launcher then asks
//      the launching operator).
constexpr Rule k_rules[] = {
    // 1. Triton kernels from torch.compile (Inductor): triton_{poi,red,per,tem}_fused_<ops>_<n>.
    {M::triton_op, "convolution", F::convolution},
    {M::triton_op, "flex_attention", F::attention},  // flex_attention and its backward: templates too
    {M::prefix, "triton_tem_", F::gemm},  // Inductor's templates: mm, bmm, addmm
    {M::triton_op, "softmax", F::softmax},  // _softmax, _log_softmax, _softmax_backward_data
    {M::triton_op, "layer_norm", F::normalization},
    {M::triton_op, "rms_norm", F::normalization},
    {M::triton_op, "group_norm", F::normalization},
    {M::triton_op, "batch_norm", F::normalization},
    {M::triton_reduce, "rsqrt", F::normalization},  // RMSNorm/LayerNorm lowered: mean, pow, rsqrt
    {M::triton_op, "sort", F::sort},
    {M::triton_op, "topk", F::sort},
    {M::triton_op, "cumsum", F::sort},
    {M::triton_op, "embedding", F::embedding},
    {M::triton_op, "index", F::embedding},
    {M::triton_op, "gather", F::embedding},
    {M::triton_op, "scatter", F::embedding},
    {M::triton_copy, "", F::copy},  // triton_poi_fused__to_copy_1, ..._clone_view_3: a cast or layout copy
    {M::prefix, "triton_poi_", F::elementwise},
    {M::prefix, "triton_red_", F::reduction},
    {M::prefix, "triton_per_", F::reduction},

    // 2. Communication: NCCL/RCCL by collective, custom all-reduce kernels (vLLM,
    // TensorRT-LLM, aiter, SGLang), DeepEP's all-to-all.
    {M::contains, "allreduce", F::comm_all_reduce},
    {M::contains, "all_reduce", F::comm_all_reduce},
    {M::contains, "cross_device_reduce", F::comm_all_reduce},
    {M::contains, "allgather", F::comm_all_gather},
    {M::contains, "all_gather", F::comm_all_gather},
    {M::contains, "reducescatter", F::comm_reduce_scatter},
    {M::contains, "reduce_scatter", F::comm_reduce_scatter},
    {M::contains, "alltoall", F::comm_all_to_all},
    {M::contains, "all_to_all", F::comm_all_to_all},
    {M::contains, "deep_ep::", F::comm_all_to_all},
    {M::contains, "sendrecv", F::comm_send_recv},
    {M::contains, "send_recv", F::comm_send_recv},
    {M::contains, "broadcast", F::comm_broadcast, "nccl"},
    {M::contains, "nccl", F::comm_other},  // RCCL keeps NCCL's names
    {M::contains, "rccl", F::comm_other},
    {M::contains, "msccl", F::comm_other},

    // 3. Attention: FlashAttention 2/3/4, FlashInfer, fmha (CUTLASS/xFormers, PyTorch's
    // memory-efficient, TensorRT-LLM, CK tile, aiter), vLLM/SGLang paged and Triton
    // attention, cuDNN SDPA, MLA. The KV cache is part of it: backends differ in whether
    // the attention kernel writes the cache itself, so a swap of backends stays inside.
    {M::contains, "flash_fwd", F::attention},
    {M::contains, "flash_bwd", F::attention},
    {M::contains, "flash::", F::attention},
    {M::contains, "flash_attn", F::attention},
    {M::contains, "flashattn", F::attention},
    {M::contains, "flashattention", F::attention},
    {M::contains, "fmha", F::attention},
    {M::contains, "attention", F::attention},
    {M::contains, "attn", F::attention},
    {M::contains, "sdpa", F::attention},
    {M::contains, "mem_eff", F::attention},            // PyTorch's memory-efficient attention
    {M::contains, "withpagedkvcache", F::attention},   // FlashInfer Batch{Prefill,Decode}WithPagedKVCache
    {M::contains, "withraggedkvcache", F::attention},
    {M::contains, "withkvcache", F::attention},        // FlashInfer Single{Prefill,Decode}WithKVCache
    {M::contains, "mergestate", F::attention},         // FlashInfer's merge of partial attention
    {M::contains, "merge_state", F::attention},
    {M::contains, "mha_fwd", F::attention},
    {M::contains, "mha_bwd", F::attention},
    {M::contains, "mmha", F::attention},               // TensorRT-LLM masked multi-head attention
    {M::contains, "xqa", F::attention},                // TensorRT-LLM/FlashInfer XQA decode
    {M::contains, "mla_a8w8", F::attention},           // aiter's MLA decode
    {M::contains, "mla_dec", F::attention},
    {M::contains, "flash_mla", F::attention},
    {M::contains, "flashmla", F::attention},
    {M::contains, "mla_kernel", F::attention},
    {M::contains, "mla_metadata", F::attention},      // aiter's kn_get_mla_metadata
    {M::contains, "pa_bf16", F::attention, "aiter"},   // aiter's assembly paged attention
    {M::contains, "pa_fp8", F::attention, "aiter"},
    {M::prefix, "_fwd_kernel", F::attention},          // Triton prefill/decode attention (LightLLM, SGLang, vLLM)
    {M::prefix, "_bwd_kernel", F::attention},
    {M::contains, "_fwd_grouped_kernel_stage", F::attention},
    {M::contains, "reduce_segments", F::attention},    // vLLM unified attention's split reduce
    {M::contains, "_splitk_reduce", F::attention},     // xFormers' split-K decode attention, its merge
    {M::contains, "sageattn", F::attention},           // SageAttention (qk_int8_sv_f8_accum_f32_attn: "attn")
    {M::contains, "sage_fwd", F::attention},
    {M::contains, "sage_bwd", F::attention},
    // Linear attention and state-space mixers (FLA's gated delta rule, Mamba).
    {M::contains, "delta_rule", F::attention},
    {M::contains, "gdn_gating", F::attention},
    {M::contains, "selective_scan", F::attention},
    {M::contains, "chunk_scan", F::attention},
    {M::contains, "chunk_state", F::attention},
    {M::contains, "state_passing", F::attention},
    // KV cache: writes, block copies, gathers, index tables.
    {M::contains, "reshape_and_cache", F::attention},  // vLLM
    {M::contains, "concat_and_cache", F::attention},
    {M::contains, "copy_blocks", F::attention},
    {M::contains, "gather_cache", F::attention},
    {M::contains, "indexer_k_quant_and_cache", F::attention},
    {M::contains, "kv_cache", F::attention},           // FlashInfer AppendPagedKVCache, SGLang store_kvcache
    {M::contains, "kvcache", F::attention},
    {M::contains, "kv_buffer", F::attention},
    {M::contains, "kv_indices", F::attention},
    {M::contains, "kv_scale", F::attention},
    {M::contains, "req_to_token", F::attention},       // SGLang's request-to-KV-slot table

    // 4. Mixture of experts: routing (gating top-k/softmax, alignment, permutation) and
    // expert GEMMs (Triton fused_moe, CUTLASS/Marlin MoE, aiter fmoe, CK MoE).
    {M::contains, "moe", F::moe},
    {M::contains, "topkgating", F::moe},
    {M::contains, "topk_softmax", F::moe},             // vLLM, SGLang, aiter MoE gating
    {M::contains, "topksoftmax", F::moe},              // CK tile TopkSoftmaxKernel
    {M::contains, "expandinputrows", F::moe},          // TensorRT-LLM MoE permutation
    {M::contains, "grouped_topk", F::moe},
    {M::contains, "groupedtopk", F::moe},
    {M::contains, "expert", F::moe},

    // 5. Sampling: FlashInfer's and vLLM's top-k/top-p/min-p sampling and renorms,
    // multinomial, penalties.
    {M::contains, "sampling", F::sampling},
    {M::contains, "multinomial", F::sampling},
    {M::contains, "renormprob", F::sampling},
    {M::contains, "masklogits", F::sampling},
    {M::contains, "top_k_top_p", F::sampling},
    {M::contains, "topktopp", F::sampling},
    {M::contains, "penalt", F::sampling},              // penalty, penalties

    // 6. Convolution: cuDNN (xmma fprop/dgrad/wgrad, scudnn, winograd, FFT), CUTLASS
    // conv, MIOpen (asm, igemm, naive), Composable Kernel grouped conv.
    {M::contains, "convolution", F::convolution},
    {M::contains, "convolve", F::convolution},
    {M::contains, "fprop", F::convolution},
    {M::contains, "dgrad", F::convolution},
    {M::contains, "wgrad", F::convolution},
    {M::contains, "scudnn", F::convolution},
    {M::contains, "winograd", F::convolution},
    {M::contains, "conv1d", F::convolution},
    {M::contains, "conv2d", F::convolution},
    {M::contains, "conv3d", F::convolution},
    {M::contains, "conv_fwd", F::convolution},
    {M::contains, "conv_bwd", F::convolution},
    {M::contains, "conv_wrw", F::convolution},
    {M::contains, "_conv_", F::convolution},
    {M::contains, "conv_depthwise", F::convolution},
    {M::contains, "im2col", F::convolution},
    {M::contains, "col2im", F::convolution},
    {M::contains, "vol2col", F::convolution},
    {M::contains, "cutlass_cudnn", F::convolution},
    {M::contains, "cutlass__5x_cudnn", F::convolution},  // cuDNN's own CUTLASS build: conv kernels and their split-K
    {M::contains, "asmconv", F::convolution},   // MIOpen miopenSp3AsmConv*, miopenGcnAsmConv*
    {M::contains, "miopenconv", F::convolution},
    {M::contains, "miopencvd", F::convolution},
    {M::prefix, "igemm_fwd", F::convolution},   // MIOpen implicit-GEMM solvers
    {M::prefix, "igemm_bwd", F::convolution},
    {M::prefix, "igemm_wrw", F::convolution},
    {M::prefix, "fft2d_", F::convolution, "cudnn"},

    // 7. Normalization: PyTorch's layer/group/batch norm, cuDNN and MIOpen batch norm,
    // RMSNorm of vLLM, FlashInfer, aiter, apex, Transformer Engine, CuTe DSL (QuACK).
    // Before GEMM: FlashInfer's GemmaRMSNorm is no GEMM.
    {M::contains, "layer_norm", F::normalization},
    {M::contains, "layernorm", F::normalization},
    {M::contains, "rms_norm", F::normalization},
    {M::contains, "rmsnorm", F::normalization},
    {M::contains, "group_norm", F::normalization},
    {M::contains, "groupnorm", F::normalization},
    {M::contains, "batch_norm", F::normalization},
    {M::contains, "batchnorm", F::normalization},
    {M::contains, "instance_norm", F::normalization},
    {M::contains, "l2norm", F::normalization},
    {M::contains, "::bn_", F::normalization},  // cuDNN bn_fw_tr_*, bn_bw_*
    {M::prefix, "bn_", F::normalization},
    {M::contains, "gammabeta", F::normalization},          // layer/group norm backward (PyTorch, apex)
    {M::contains, "fusedparamscudakernel", F::normalization},  // group norm's Compute*FusedParamsCUDAKernel
    {M::contains, "rowwisemoments", F::normalization},     // group norm
    {M::contains, "cuapplylayernorm", F::normalization},  // apex
    {M::contains, "welford", F::normalization, "norm"},
    {M::contains, "ln_fwd_", F::normalization},        // Transformer Engine's LayerNorm (ln_fwd_tuned_kernel)
    {M::contains, "ln_bwd_", F::normalization},
    {M::contains, "miopenlrn", F::normalization},      // MIOpen's local response normalization
    {M::contains, "_dyt_", F::normalization},          // Liger's DyT, LayerNorm's replacement

    // 8. Softmax (and the losses built on it).
    {M::contains, "softmax", F::softmax},
    {M::contains, "cross_entropy", F::softmax},
    {M::contains, "crossentropy", F::softmax},
    {M::contains, "kldiv", F::softmax},                // Liger's distillation losses
    {M::contains, "_jsd_", F::softmax},
    {M::contains, "_tvd_", F::softmax},

    // 9. GEMM by what the name computes: cuBLAS/cuBLASLt (nvjet, xmma, sgemm, gemv,
    // split-K), Tensile/hipBLASLt (Cijk), Composable Kernel, aiter, rocBLAS, Marlin,
    // DeepGEMM, any "gemm", "gemv" or "matmul".
    {M::prefix, "nvjet", F::gemm},
    {M::contains, "cijk_", F::gemm},  // Tensile, also "Custom_Cijk_..."
    {M::contains, "gemm", F::gemm},
    {M::contains, "gemv", F::gemm},
    {M::contains, "matmul", F::gemm},
    {M::contains, "splitkreduce", F::gemm},
    {M::contains, "scal_kernel", F::gemm, "cublas"},  // cuBLAS's beta scaling
    {M::contains, "reducesplitk", F::gemm},    // CUTLASS's split-K reduction
    {M::contains, "wvsplitk", F::gemm},        // vLLM's ROCm skinny GEMMs
    {M::contains, "contraction", F::gemm},     // Composable Kernel's kernel_contraction_multiple_d_*
    {M::contains, "marlin", F::gemm},
    {M::contains, "scaled_mm", F::gemm},       // vLLM cutlass_scaled_mm, torch._scaled_mm
    {M::contains, "_mm_kernel", F::gemm},      // Triton matmuls (_w8a8_block_fp8_mm_kernel, bmm)
    {M::prefix, "bmm_", F::gemm},              // TensorRT-LLM/FlashInfer trtllm-gen GEMMs
    {M::prefix, "triton_mm", F::gemm},
    {M::prefix, "triton_bmm", F::gemm},

    // 10. Sort, scan, top-k and compaction: CUB and hipCUB/rocPRIM device algorithms,
    // PyTorch's sort and top-k.
    {M::contains, "sort", F::sort},
    {M::contains, "topk", F::sort},
    {M::contains, "top_k", F::sort},
    {M::contains, "cumsum", F::sort},
    {M::contains, "cumprod", F::sort},
    {M::contains, "devicescan", F::sort},
    {M::contains, "deviceselect", F::sort},
    {M::contains, "devicecompact", F::sort},
    {M::contains, "scan_kernel", F::sort},     // rocPRIM lookback_scan_kernel, PyTorch's tensor scans
    {M::contains, "scan_state", F::sort},
    {M::contains, "kernel_scan_", F::sort},      // PyTorch tensor_kernel_scan_{innermost,outer}_dim
    {M::contains, "devicepartition", F::sort},
    {M::contains, "partition_kernel", F::sort, "rocprim"},
    {M::contains, "onesweep", F::sort},
    {M::contains, "unique", F::sort},
    {M::contains, "kthvalue", F::sort},

    // 11. Embedding and indexing (rotary embeddings are elementwise, below).
    {M::contains, "rotary", F::elementwise},
    {M::contains, "embedding", F::embedding},
    {M::contains, "embbag", F::embedding},
    {M::contains, "indexselect", F::embedding},
    {M::contains, "index_select", F::embedding},
    {M::contains, "indexfunc", F::embedding},
    {M::contains, "index_elementwise", F::embedding},
    {M::contains, "index_put", F::embedding},
    {M::contains, "gather", F::embedding},
    {M::contains, "scatter", F::embedding},
    {M::contains, "take_along", F::embedding},
    {M::contains, "bounds_check_indices", F::embedding},  // FBGEMM's embedding lookups
    {M::contains, "linearize_index", F::embedding},
    {M::contains, "indexing_", F::embedding},          // indexing_backward_kernel
    {M::contains, "sparse_features", F::embedding},    // FBGEMM's bucketize of embedding inputs

    // 12. Reduction and pooling: they read a whole axis to make fewer values.
    {M::contains, "reduce", F::reduction},
    {M::contains, "reduction", F::reduction},
    {M::contains, "argmax", F::reduction},
    {M::contains, "argmin", F::reduction},
    {M::contains, "max_pool", F::reduction},
    {M::contains, "avg_pool", F::reduction},
    {M::contains, "average_pool", F::reduction},
    {M::contains, "pooling", F::reduction},            // MIOpen mloPooling*
    {M::contains, "maxpool", F::reduction},
    {M::contains, "avgpool", F::reduction},

    // 13. Copy and cast, concatenation, layout changes.
    {M::contains, "copy", F::copy},
    {M::contains, "catarray", F::copy},
    {M::contains, "concat", F::copy},
    {M::contains, "nchwtonhwc", F::copy},
    {M::contains, "nhwctonchw", F::copy},
    {M::contains, "transpose", F::copy},
    {M::contains, "permute", F::copy},
    {M::contains, "memcpy", F::copy},
    {M::prefix, "cast_", F::copy},
    {M::contains, "to_dense", F::copy},
    {M::contains, "::cast_", F::copy},         // Transformer Engine's casts (cast_transpose: "transpose")
    {M::contains, "subtensoropwithcast", F::copy},       // MIOpen's SubTensorOpWithCastTensor
    {M::contains, "subtensoropwithsubtensor", F::copy},

    // 14. The rest of cuDNN and MIOpen: convolution helpers (offsets, scaling), after
    // MIOpen's activations and tensor arithmetic (MIOpenActiveFwdLite, Op2dTensorGeneric).
    {M::contains, "miopenactive", F::elementwise},
    {M::contains, "miopenneuron", F::elementwise},
    {M::contains, "subtensorop", F::elementwise},  // SubTensorOpWithScalar1d, ...WithTransform
    {M::contains, "optensor", F::elementwise},     // OpTensorFwdBias, OpTensorLeadingOnes
    {M::contains, "op1dtensor", F::elementwise},
    {M::contains, "op2dtensor", F::elementwise},
    {M::contains, "op3dtensor", F::elementwise},
    {M::contains, "op4dtensor", F::elementwise},
    {M::contains, "op5dtensor", F::elementwise},
    {M::contains, "cudnn", F::convolution},
    {M::contains, "miopen", F::convolution},

    // 15. Elementwise and activation.
    {M::contains, "elementwise", F::elementwise},
    {M::contains, "fill", F::elementwise},
    {M::contains, "rope_", F::elementwise},
    {M::contains, "_rope", F::elementwise},    // Liger's _triton_rope
    {M::contains, "kn_entry_", F::elementwise},  // aiter's RoPE (kn_entry_2c_sbhd_cached_indirect_inplace)
    {M::contains, "mrope", F::elementwise},
    {M::contains, "element_mul", F::elementwise},  // Liger's element_mul_kernel
    {M::contains, "geglu", F::elementwise},
    {M::contains, "act_and_mul", F::elementwise},
    {M::contains, "silu", F::elementwise},
    {M::contains, "gelu", F::elementwise},
    {M::contains, "relu", F::elementwise},
    {M::contains, "swiglu", F::elementwise},
    {M::contains, "sigmoid", F::elementwise},
    {M::contains, "tanh", F::elementwise},
    {M::contains, "dropout", F::elementwise},
    {M::contains, "distribution", F::elementwise},
    {M::contains, "multi_tensor_apply", F::elementwise},  // fused optimizers
    {M::contains, "adam", F::elementwise},
    {M::contains, "quant", F::elementwise},
    {M::contains, "fp8rowwise", F::elementwise},       // FBGEMM's FP8 (de)quantization
    {M::contains, "qparam", F::elementwise},
    {M::contains, "upsample", F::elementwise},
    {M::contains, "triu_tril", F::elementwise},
    {M::prefix, "triton_", F::elementwise},  // older Inductor names (triton__0d1d2d): pointwise mostly

    // 16. GEMM by library alone, when nothing above says what else the kernel does.
    {M::contains, "cutlass", F::gemm},
    {M::contains, "cublas", F::gemm},          // cuBLASLt epilogues and helpers
    {M::contains, "xmma", F::gemm},
    {M::contains, "rocblas", F::gemm},
    {M::contains, "hipblas", F::gemm},         // and hipBLASLt
    {M::contains, "tensile", F::gemm},
    {M::contains, "flashinfer::", F::attention},  // its kernels outside the norm, sampling, ... namespaces
};

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

// "_text_" in `name` + "_": a whole fused op (or run of ops) of an Inductor name.
bool has_op(std::string_view name, std::string_view text) {
  for (std::size_t at = name.find(text); at != std::string_view::npos; at = name.find(text, at + 1)) {
    const std::size_t end = at + text.size();
    if (at > 0 && name[at - 1] == '_' && (end == name.size() || name[end] == '_')) return true;
  }
  return false;
}

// A pointwise Inductor kernel (triton_poi_fused_<ops>_<n>) whose ops are all copies,
// casts and views: data moved or converted, nothing computed.
bool only_copy_ops(std::string_view body) {
  static constexpr std::string_view k_ops[] = {"_to_copy", "_unsafe_view", "convert_element_type", "as_strided",
                                                "contiguous", "transpose", "unsqueeze", "permute", "reshape",
                                                "squeeze", "expand", "select", "slice", "clone", "copy", "view",
                                                "cat", "t"};
  constexpr std::string_view k_head = "triton_poi_fused_";
  if (!body.starts_with(k_head)) return false;
  body.remove_prefix(k_head.size());
  const auto tail = body.find_last_not_of("0123456789");  // the kernel's number
  if (tail == std::string_view::npos || tail + 1 == body.size() || body[tail] != '_') return false;
  body = body.substr(0, tail);
  while (!body.empty()) {
    bool hit = false;
    for (const auto op : k_ops)  // longest first where one is a prefix of another
      if (body.starts_with(op) && (body.size() == op.size() || body[op.size()] == '_')) {
        body.remove_prefix(std::min(body.size(), op.size() + 1));
        hit = true;
        break;
      }
    if (!hit) return false;
  }
  return true;
}

// Every text of the contains rules and every `also` text, found in one pass over a
// name (an Aho-Corasick automaton, built once): a name costs its length, not its
// length times the rules (a trace may hold a million distinct kernel names).
class Needles {
 public:
  static constexpr std::size_t k_max = 512;
  struct Found {
    std::array<std::uint64_t, k_max / 64> bits{};
    void set(std::size_t id) { bits[id / 64] |= std::uint64_t{1} << (id % 64); }
    bool operator[](std::size_t id) const { return (bits[id / 64] >> (id % 64)) & 1; }
  };

  Needles() {
    for (const Rule& r : k_rules) {
      m_text_id.push_back(r.match == Match::contains ? add(r.text) : -1);
      m_also_id.push_back(r.also ? add(r.also) : -1);
    }
    // Plain contains rules are decided by their texts alone: the first rule of each
    // text. The others (prefix, Triton, "also") are tried one by one, and only
    // before the first plain rule whose text was found.
    m_first_rule.assign(m_texts.size(), k_none);
    for (std::size_t i = std::size(k_rules); i-- > 0;) {
      if (k_rules[i].match == Match::contains && !k_rules[i].also)
        m_first_rule[static_cast<std::size_t>(m_text_id[i])] = i;
      else
        m_special.insert(m_special.begin(), i);
    }
    build();
  }

  static constexpr std::size_t k_none = SIZE_MAX;
  // The first plain contains rule whose text `found` holds; k_none if none.
  std::size_t first_plain(const Found& found) const {
    std::size_t best = k_none;
    for (std::size_t w = 0; w < found.bits.size(); ++w)
      for (std::uint64_t b = found.bits[w]; b; b &= b - 1)
        best = std::min(best, m_first_rule[w * 64 + static_cast<std::size_t>(std::countr_zero(b))]);
    return best;
  }
  const std::vector<std::size_t>& special() const { return m_special; }

  // The rule's own text (contains rules) and its `also` text: ids into Found, -1 for none.
  int text_id(std::size_t rule) const { return m_text_id[rule]; }
  int also_id(std::size_t rule) const { return m_also_id[rule]; }

  Found scan(std::string_view lower) const {
    Found found;
    std::uint32_t state = 0;
    for (const char c : lower) {
      state = m_next[state * m_classes + m_class[static_cast<unsigned char>(c)]];
      for (std::uint32_t o = m_out_at[state]; o < m_out_at[state + 1]; ++o) found.set(m_out[o]);
    }
    return found;
  }

 private:
  int add(std::string_view text) {
    for (std::size_t i = 0; i < m_texts.size(); ++i)
      if (m_texts[i] == text) return static_cast<int>(i);
    if (m_texts.size() == k_max) throw std::logic_error("families: more rule texts than Needles::k_max");
    m_texts.emplace_back(text);
    return static_cast<int>(m_texts.size() - 1);
  }

  void build() {
    // Byte classes: one per byte the texts use, 0 for every other byte.
    m_classes = 1;
    for (const auto& t : m_texts)
      for (const char c : t)
        if (!m_class[static_cast<unsigned char>(c)]) m_class[static_cast<unsigned char>(c)] = m_classes++;
    // The trie (-1: no edge yet), then failure links breadth-first, which complete
    // every missing edge into the longest suffix's.
    std::size_t text_bytes = 0;
    for (const auto& t : m_texts) text_bytes += t.size();
    std::vector<std::int32_t> next(m_classes, -1);
    next.reserve((text_bytes + 1) * m_classes);  // at most a node per byte: no regrowth
    std::vector<std::vector<std::uint16_t>> out(1);
    for (std::size_t id = 0; id < m_texts.size(); ++id) {
      std::size_t node = 0;
      for (const char c : m_texts[id]) {
        const auto k = node * m_classes + m_class[static_cast<unsigned char>(c)];
        if (next[k] < 0) {
          next[k] = static_cast<std::int32_t>(out.size());
          out.emplace_back();
          next.resize(next.size() + m_classes, -1);
        }
        node = static_cast<std::size_t>(next[k]);
      }
      out[node].push_back(static_cast<std::uint16_t>(id));
    }
    std::vector<std::uint32_t> fail(out.size(), 0), queue;
    for (std::size_t k = 0; k < m_classes; ++k) {
      if (next[k] < 0) next[k] = 0;
      else queue.push_back(static_cast<std::uint32_t>(next[k]));
    }
    for (std::size_t qi = 0; qi < queue.size(); ++qi) {
      const std::uint32_t node = queue[qi];
      const auto& inherited = out[fail[node]];
      out[node].insert(out[node].end(), inherited.begin(), inherited.end());
      for (std::size_t k = 0; k < m_classes; ++k) {
        auto& edge = next[node * m_classes + k];
        const auto via_fail = static_cast<std::uint32_t>(next[fail[node] * m_classes + k]);
        if (edge < 0) {
          edge = static_cast<std::int32_t>(via_fail);
        } else {
          fail[static_cast<std::size_t>(edge)] = via_fail;
          queue.push_back(static_cast<std::uint32_t>(edge));
        }
      }
    }
    if (out.size() > UINT16_MAX) throw std::logic_error("families: more automaton states than 16 bits hold");
    m_next.assign(next.begin(), next.end());
    for (const auto& ids : out) {
      m_out_at.push_back(static_cast<std::uint32_t>(m_out.size()));
      m_out.insert(m_out.end(), ids.begin(), ids.end());
    }
    m_out_at.push_back(static_cast<std::uint32_t>(m_out.size()));
  }

  std::vector<std::string> m_texts;
  std::vector<int> m_text_id, m_also_id;  // per rule
  std::vector<std::size_t> m_first_rule;  // per text
  std::vector<std::size_t> m_special;     // rules that are not plain contains rules, in order
  std::array<std::uint8_t, 256> m_class{};
  std::size_t m_classes = 1;
  std::vector<std::uint16_t> m_next;      // node * classes + class -> node (16 bits: half the pages)
  std::vector<std::uint32_t> m_out_at;    // per node: where its texts start in m_out
  std::vector<std::uint16_t> m_out;       // the texts that end at each node
};

const Needles& needles() {
  static const Needles n;
  return n;
}

bool matches(std::size_t i, const Needles& n, const Needles::Found& found, std::string_view body, bool triton,
             bool triton_reduce) {
  const Rule& r = k_rules[i];
  bool hit = false;
  switch (r.match) {
    case Match::contains: hit = found[static_cast<std::size_t>(n.text_id(i))]; break;
    case Match::prefix: hit = body.starts_with(r.text); break;
    case Match::triton_op: hit = triton && has_op(body, r.text); break;
    case Match::triton_reduce: hit = triton_reduce && has_op(body, r.text); break;
    case Match::triton_copy: hit = triton && only_copy_ops(body); break;
  }
  return hit && (r.also == nullptr || found[static_cast<std::size_t>(n.also_id(i))]);
}

Family memcpy_family(std::string_view name) {
  if (contains(name, "HtoD")) return Family::memcpy_htod;
  if (contains(name, "DtoH")) return Family::memcpy_dtoh;
  if (contains(name, "DtoD")) return Family::memcpy_dtod;
  if (contains(name, "PtoP")) return Family::memcpy_ptop;
  // Otherwise by the "(Source -> Destination)" Kineto writes.
  const bool from_device = contains(name, "(Device ->");
  const bool to_device = contains(name, "-> Device)");
  if (from_device && to_device) return Family::memcpy_dtod;
  if (to_device) return Family::memcpy_htod;
  if (from_device) return Family::memcpy_dtoh;
  return Family::other;
}

}  // namespace

namespace detail {

// Lower case, "fbgemm" made "fb_emm": FBGEMM is a library of every kind of kernel
// and operator, and its name says nothing of GEMM. So is CuTe DSL's "kernel_cutlass_"
// prefix, which every kernel the DSL compiles gets (made "kernel_cu_lass_").
std::string lowered(std::string_view name) {
  std::string lower(name);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (std::size_t at = lower.find("fbgemm"); at != std::string::npos; at = lower.find("fbgemm", at + 6))
    lower[at + 2] = '_';
  if (lower.starts_with("kernel_cutlass_")) lower[9] = '_';
  return lower;
}

}  // namespace detail

const char* family_name(Family f) { return k_families[static_cast<int>(f)].id; }
const char* family_label(Family f) { return k_families[static_cast<int>(f)].label; }

bool family_from_name(std::string_view id, Family& f) {
  for (int i = 0; i < k_family_count; ++i)
    if (id == k_families[i].id) {
      f = static_cast<Family>(i);
      return true;
    }
  return false;
}

const char* family_ids() {
  static const std::string ids = [] {
    std::string s;
    for (const auto& fi : k_families) {
      if (!s.empty()) s += ", ";
      s += fi.id;
    }
    return s;
  }();
  return ids.c_str();
}

namespace {

Family classify_kernel(std::string_view name) {
  const std::string lower = detail::lowered(name);
  std::string_view body = lower;
  while (!body.empty() && body.front() == ' ') body.remove_prefix(1);
  if (body.starts_with("void ")) body.remove_prefix(5);
  const auto& n = needles();
  const auto found = n.scan(lower);
  const bool triton = body.starts_with("triton_");
  const bool triton_reduce = body.starts_with("triton_red_") || body.starts_with("triton_per_");
  const std::size_t plain = n.first_plain(found);
  for (const std::size_t i : n.special()) {
    if (i > plain) break;
    if (matches(i, n, found, body, triton, triton_reduce)) return k_rules[i].family;
  }
  return plain == Needles::k_none ? Family::other : k_rules[plain].family;
}

// What a kernel's name says by itself: the rules' family and, for a name they do not
// know, its words'.
struct Named {
  Family rule = Family::other;
  Family words = Family::other;
};

// Each file's summariser and the comparison classify the same kernel names: a name
// is classified once per process (a few µs each, hundreds of characters long), up to
// a bound on the text kept (a trace may hold a million distinct names).
class KernelFamilies {
 public:
  Named operator()(std::string_view name) {
    {
      std::lock_guard lock(m_mutex);
      if (const auto it = m_known.find(name); it != m_known.end()) return it->second;
    }
    Named f{classify_kernel(name)};
    if (f.rule == Family::other) f.words = words_family(name);
    std::lock_guard lock(m_mutex);
    if (m_bytes + name.size() <= k_max_bytes && m_known.try_emplace(std::string(name), f).second) m_bytes += name.size();
    return f;
  }

 private:
  static constexpr std::size_t k_max_bytes = std::size_t{8} << 20;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::mutex m_mutex;
  std::unordered_map<std::string, Named, Hash, std::equal_to<>> m_known;
  std::size_t m_bytes = 0;
};

bool claims_gemms(Family f) { return f == Family::convolution || f == Family::attention || f == Family::moe; }

}  // namespace

const char* family_by_name(FamilyBy by) {
  switch (by) {
    case FamilyBy::rule: return "rule";
    case FamilyBy::launcher: return "launcher";
    case FamilyBy::words: return "words";
    case FamilyBy::kind: return "kind";
    case FamilyBy::none: break;
  }
  return "none";
}

Classified classify_why(std::string_view name, model::Kind kind, std::string_view launcher) {
  switch (kind) {
    case model::Kind::gpu_memcpy: {
      const Family f = memcpy_family(name);
      return {f, f == Family::other ? FamilyBy::none : FamilyBy::kind};
    }
    case model::Kind::gpu_memset: return {Family::memset, FamilyBy::kind};
    case model::Kind::kernel: break;
    default: return {};
  }
  static KernelFamilies families;
  const Named named = families(name);
  // The launcher only where the name is generic: a GEMM (cuBLAS's sgemm serves
  // convolutions too, cuDNN picks it for 1x1 and batched ones; attention and MoE run
  // GEMMs of their own) or a name no rule knows.
  const bool generic = named.rule == Family::gemm || named.rule == Family::other;
  const Family by_launcher = generic && !launcher.empty() ? launcher_family(launcher) : Family::other;
  if (named.rule == Family::gemm && claims_gemms(by_launcher)) return {by_launcher, FamilyBy::launcher};
  if (named.rule != Family::other) return {named.rule, FamilyBy::rule};
  if (by_launcher != Family::other) return {by_launcher, FamilyBy::launcher};
  if (named.words != Family::other) return {named.words, FamilyBy::words};
  return {};
}

Family classify(std::string_view name, model::Kind kind) { return classify_why(name, kind, {}).family; }

Family classify(std::string_view name, model::Kind kind, std::string_view launcher) {
  return classify_why(name, kind, launcher).family;
}

}  // namespace tracediff::analysis
