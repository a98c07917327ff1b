// The kernel catalog: real kernel names per vendor (cuBLAS/CUTLASS and
// PyTorch's kernels for nvidia; Tensile, Composable Kernel and MIOpen for amd),
// per layer size class, with the other algorithm of --algo-swap, the convolution
// GEMMs of --generic-conv-gemm, the Triton kernels of --compile and --add-kernel.

#include "generator.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tracegen {
namespace {

KDesc elementwise(std::string_view functor, int arity) {
  const std::string f(functor);
  const std::string arr = "at::detail::Array<char*, " + std::to_string(arity) + ">";
  return {"void at::native::vectorized_elementwise_kernel<4, " + f + ", " + arr + " >(int, " + f + ", " + arr + ")",
          DevCat::Kernel, std::string(k_ew_attrs)};
}

KDesc reduce(std::string_view head, std::string_view op, std::string_view attrs) {
  return {"void at::native::reduce_kernel<" + std::string(head) + std::string(op) + " >(" + std::string(op) + ")",
          DevCat::Kernel, std::string(attrs)};
}

}  // namespace

Catalog::Catalog(const Options& o) {
  static constexpr std::array<std::string_view, 3> tiles = {"64x32_sliced1x4", "128x64", "128x128"};
  for (size_t s = 0; s < 3; ++s) {
    const std::string base = "ampere_sgemm_" + std::string(tiles[s]);
    gemm_fwd[s] = {base + "_tn", DevCat::Kernel, std::string(k_gemm_attrs)};
    gemm_dgrad[s] = {base + "_nn", DevCat::Kernel, std::string(k_gemm_attrs)};
    gemm_wgrad[s] = {base + "_nt", DevCat::Kernel, std::string(k_gemm_attrs)};
    gemm_fwd_alt[s] = {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize" + std::string(tiles[s].substr(0, tiles[s].find('_'))) +
                           "x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas",
                       DevCat::Kernel, std::string(k_gemm_attrs)};
  }
  // --generic-conv-gemm: names of their own (no GEMM's), as real traces show under cuDNN.
  static constexpr std::array<std::string_view, 3> conv_tiles = {"32x32_sliced1x4", "64x64", "32x128"};
  for (size_t s = 0; s < 3; ++s)
    conv_gemm[s] = {"ampere_sgemm_" + std::string(conv_tiles[s]) + "_nn", DevCat::Kernel, std::string(k_gemm_attrs)};
  gemm_wgrad[0].name =  // cuBLAS picks a CUTLASS kernel for some shapes
      "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>"
      "(cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4::Params)";
  if (o.amd) {
    // hipBLASLt/Tensile: the layouts in the name (A/B transposed or not), the macro tile.
    static constexpr std::array<std::string_view, 3> mt = {"64x32x16", "128x64x16", "128x128x16"};
    for (size_t s = 0; s < 3; ++s) {
      const std::string tail = "_SB_MT" + std::string(mt[s]) +
                               "_MI32x32x2x1_SN_LDSB1_GRVW4_GSU1_ISA942_K1_LPA8_LPB8_WG32_8_1";
      gemm_fwd[s].name = "Cijk_Alik_Bljk" + tail;
      gemm_dgrad[s].name = "Cijk_Ailk_Bljk" + tail;
      gemm_wgrad[s].name = "Cijk_Ailk_Bjlk" + tail;
      gemm_fwd_alt[s].name = "Cijk_Alik_Bljk" + tail.substr(0, tail.find("_GSU1")) + "_GSU2" +
                             tail.substr(tail.find("_GSU1") + 5);
      // --generic-conv-gemm: MIOpen runs its own implicit-GEMM convolution kernels.
      conv_gemm[s].name = "igemm_fwd_gtcx3_nhwc_fp32_bx0_ex1_bt" + std::string(mt[s]) +
                          "_wt32x32x2_ws1x1_wr1x1_ta1x1x4x1_1x16x1x16_tb1x1x4x1_1x16x1x16";
    }
  }
  add = elementwise("at::native::CUDAFunctor_add<float>", 3);
  clamp = elementwise(
      "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
      "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
      "const::{lambda(float)#1}",
      2);
  thresh = elementwise(
      "at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
      "float)::{lambda(float, float)#1}",
      3);
  pow = elementwise(
      "at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, "
      "float)::{lambda(float)#1}",
      2);
  mse_bwd = elementwise(
      "at::native::mse_backward_cuda_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() "
      "const::{lambda()#2}::operator()() const::{lambda(float, float)#1}",
      3);
  sum = reduce("128, 4, ",
               "at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, "
               "float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>",
               k_reduce_attrs);
  mean = reduce("512, 1, ",
                "at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, "
                "float, 4>",
                k_reduce_attrs);
  ln_fwd = {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, "
            "float const*, float const*, float const*, float*, float*, float*)",
            DevCat::Kernel, std::string(k_ln_attrs)};
  ln_bwd = {"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, float>(float "
            "const*, float const*, float const*, float const*, float const*, float*, int)",
            DevCat::Kernel, std::string(k_ln_attrs)};
  gamma_beta = {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<float, float>(long, "
                "long, float const*, float const*, float const*, float const*, float*, float*)",
                DevCat::Kernel, std::string(k_ln_attrs)};
  const std::string mta =
      "at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
      "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float";
  if (o.amd) {  // Composable Kernel's tile-programming layer norms
    ln_fwd.name = ck_layernorm("Layernorm2dFwd");
    ln_bwd.name = ck_layernorm("Layernorm2dBwdDX");
    gamma_beta.name = ck_layernorm("Layernorm2dBwdGammaBeta");
  }
  foreach_add = {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<" + mta + ">(" + mta + ")",
                 DevCat::Kernel, std::string(k_ew_attrs)};
  nccl = {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", DevCat::Kernel,
          std::string(k_nccl_attrs)};
  for (const auto& n : o.add_kernels) {
    added.push_back({n, DevCat::Kernel, std::string(k_ew_attrs)});
  }
  if (o.compile) {
    for (size_t s = 0; s < 3; ++s) {
      tri_poi[s] = triton("triton_poi_fused_add_relu_" + std::to_string(2 * s), k_ew_attrs, 1024);
      tri_per[s] = triton("triton_per_fused_native_layer_norm_" + std::to_string(2 * s + 1), k_ln_attrs, 64);
      if (o.inductor_args) {  // as Inductor writes them: GB (a float) and FLOP (an integer) per call
        const auto k = static_cast<int>(s + 1);
        tri_poi[s].k.attrs += ", \"kernel_num_gb\": " + std::to_string(0.0125 * k);
        tri_per[s].k.attrs += ", \"kernel_flop\": " + std::to_string(2097152 * k) +
                              ", \"kernel_num_gb\": " + std::to_string(0.004 * k);
      }
    }
  }
  add_hostile_names(o);
}

std::string Catalog::ck_layernorm(std::string_view what) {
  const std::string w(what);
  return "void ck_tile::kentry<256, 1, ck_tile::" + w + "<ck_tile::" + w +
         "PipelineOnePass<ck_tile::Generic2dBlockShape<ck_tile::sequence<1, 1024>, ck_tile::sequence<1, 256>, "
         "ck_tile::sequence<1, 4> >, float, float> > >(ck_tile::" + w + "::Kargs)";
}

TritonK Catalog::triton(const std::string& name, std::string_view attrs, int grid) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a of the name, then splitmix64 steps
  for (const char c : name) {
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  std::string hash;
  for (int i = 0; i < 52; ++i) {
    h += 0x9e3779b97f4a7c15ULL;
    uint64_t x = h;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    hash += "abcdefghijklmnopqrstuvwxyz234567"[(x ^ (x >> 31)) % 32];
  }
  const std::string g = std::to_string(grid);
  return {{name, DevCat::Kernel, std::string(attrs), true},
          ", \"kernel_backend\": \"triton\", \"kernel_hash\": \"" + hash +
              "\", \"kernel_file\": \"/tmp/torchinductor_root/" + hash.substr(0, 2) + "/" + hash +
              ".py\", \"grid\": \"grid(" + g + ",)\", \"stream\": 0"};
}

}  // namespace tracegen
