// Hostile sizes: names that stress a reader's width and count. --long-names
// writes ~1800-character CUTLASS GEMM names that differ only in the middle;
// --many-names writes N distinct operators and kernels spread over the steps.

#include "sim.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace tracegen {

std::string Catalog::long_gemm_name(int j) {
  static constexpr std::array<std::pair<int, int>, 8> warp = {
      {{64, 64}, {64, 32}, {32, 64}, {32, 32}, {128, 32}, {32, 128}, {128, 64}, {64, 128}}};
  const auto [wm, wn] = warp[static_cast<size_t>(j) % warp.size()];
  const int stages = 2 + j / 8 % 8;
  const int policy = 1 + j / 64;
  const std::string it_a =
      "cutlass::transform::PitchLinearWarpRakedThreadMap<cutlass::PitchLinearShape<32, 128>, 256, "
      "cutlass::PitchLinearShape<8, 4>, 4>";
  const std::string it_b =
      "cutlass::transform::threadblock::RegularTileAccessIterator<cutlass::MatrixShape<32, 128>, float>";
  const std::string epilogue =
      "cutlass::epilogue::thread::LinearCombination<float, 4, float, float, "
      "(cutlass::epilogue::thread::ScaleType::Kind)0, (cutlass::FloatRoundStyle)2, float>";
  return "void cutlass::Kernel2<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::threadblock::MmaMultistage<"
         "cutlass::gemm::GemmShape<128, 128, 32>, cutlass::transform::threadblock::PredicatedTileAccessIterator<"
         "cutlass::MatrixShape<128, 32>, float, cutlass::layout::RowMajor, 1, " + it_a +
         ", cutlass::Array<float, 4, true>>, (cutlass::arch::CacheOperation::Kind)1, " + it_b +
         ", (cutlass::arch::CacheOperation::Kind)1, float, cutlass::layout::RowMajor, "
         "cutlass::gemm::threadblock::MmaPolicy<cutlass::gemm::warp::MmaTensorOp<cutlass::gemm::GemmShape<" +
         std::to_string(wm) + ", " + std::to_string(wn) +
         ", 32>, float, cutlass::layout::RowMajor, cutlass::gemm::warp::MmaTensorOpPolicy<cutlass::arch::Mma<"
         "cutlass::gemm::GemmShape<16, 8, 8>, 32, cutlass::tfloat32_t, cutlass::layout::RowMajor, "
         "cutlass::tfloat32_t, cutlass::layout::ColumnMajor, float, cutlass::arch::OpMultiplyAdd>, "
         "cutlass::MatrixShape<" + std::to_string(policy) + ", 1> >, 1, false, bool>, cutlass::MatrixShape<0, 0>, "
         "cutlass::MatrixShape<0, 0>, 1>, " + std::to_string(stages) +
         ", cutlass::gemm::SharedMemoryClearOption::kNone, bool>, cutlass::epilogue::threadblock::Epilogue<"
         "cutlass::gemm::GemmShape<128, 128, 32>, cutlass::epilogue::threadblock::PredicatedTileIterator<"
         "cutlass::epilogue::threadblock::OutputTileShape<128, 8, 2, 1, 1>, float>, " + epilogue +
         ", cutlass::MatrixShape<0, 8>, 1, 1>, cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, "
         "false>>(cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::threadblock::DefaultMmaCore, "
         "cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<8>>::Params)";
}

void Catalog::add_hostile_names(const Options& o) {
  for (int j = 0; j < o.long_names; ++j) {
    long_gemms.push_back({long_gemm_name(j), DevCat::Kernel, std::string(k_gemm_attrs)});
  }
  const auto pairs = static_cast<size_t>((o.many_names + 1) / 2);
  many_ops.reserve(pairs);
  many_kernels.reserve(pairs);
  for (size_t j = 0; j < pairs; ++j) {
    const std::string k = std::to_string(static_cast<int64_t>(j) + o.many_from);
    many_ops.push_back("aten::many_" + k);
    if (static_cast<int64_t>(2 * j + 1) < o.many_names) {
      // Long enough to be elided in every view, alike but for the middle.
      many_kernels.push_back({"void at::native::generated::fused_pointwise_kernel<float, 4, " + k +
                                  ", at::native::generated::Params<float, 128> >(at::native::generated::Args)",
                              DevCat::Kernel, std::string(k_ew_attrs)});
    }
  }
}

void Sim::long_launches(int l) {
  const size_t s = size_of(l);
  for (size_t j = static_cast<size_t>(l); j < m_c.long_gemms.size(); j += static_cast<size_t>(m_o.layers)) {
    const KDesc& k = m_c.long_gemms[j];
    launch_at(0, k, k_gemm_us[s] * k_us / 2, k_compute_stream, 0, k.attrs,
              m_slot_base | k_slot_long | (j / static_cast<size_t>(m_o.layers)), false);
  }
}

void Sim::many_launches(int i) {
  const auto steps = static_cast<size_t>(m_o.steps);
  const size_t first = (static_cast<size_t>(i) + steps - static_cast<size_t>(m_o.many_from) % steps) % steps;
  for (size_t j = first; j < m_c.many_ops.size(); j += steps) {
    const Scope s = op(m_c.many_ops[j], 0, 2, 1);
    if (j < m_c.many_kernels.size()) {
      launch(0, m_c.many_kernels[j], 1);
    }
  }
}

}  // namespace tracegen
