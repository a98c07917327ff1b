#pragma once
// --by-shape: floating-point operations of one call of a matrix multiplication, from
// the input shapes the trace recorded (SummaryKey::shape). The shape text comes from
// the trace: anything malformed, or shapes that do not fit the operator, give no
// figure, never an error. Figures are doubles: dims of 10^19 give 10^57, not overflow.
#include <optional>

#include "model/report.hpp"
#include <string_view>
#include <vector>

namespace tracediff::analysis {

// One input of an operator: a tensor's dims, or nullopt (a TensorList, anything nested).
using InputDims = std::optional<std::vector<double>>;

// The inputs of "[[64,1024],[1024,4096]]": nullopt when the text is not a list of
// lists of non-negative integers (nested lists are inputs without dims).
std::optional<std::vector<InputDims>> parse_dims(std::string_view dims);

// "[[64,1024],[1024,4096]] (float,c10::BFloat16)" -> its dims and its types ("" when none).
struct ShapeParts {
  std::string_view dims, types;
};
ShapeParts split_shape(std::string_view shape);
std::vector<std::string_view> split_types(std::string_view types);  // "float,,Scalar" -> 3 entries

// The dtypes whose multiply-adds are floating-point operations: float, double, Half,
// BFloat16, the Float8 types.
bool is_floating_type(std::string_view type);

// FLOPs of one call (2 per multiply-add), for aten::mm, addmm, bmm, baddbmm, matmul and
// linear, when dims and types are known, the types are floating point and the dims fit
// (inner dimensions agree):
//   mm [M,K]x[K,N]: 2MKN;  addmm(bias, [M,K], [K,N]): 2MKN (the bias add, MN, is not
//   counted, as PyTorch's FlopCounterMode does not);  bmm [B,M,K]x[B,K,N]: 2BMKN;
//   baddbmm(input, [B,M,K], [B,K,N]): 2BMKN;  linear(input [...,K], weight [N,K]):
//   2 prod(...) K N;  matmul: both at least 2-D, batch dims broadcast: 2 prod(batch) M K N
//   (1-D operands: nullopt).
std::optional<double> flops_per_call(std::string_view op, std::string_view shape);

// Inductor's figures (kernel_flop, kernel_num_gb) as rates: TFLOP/s and GB/s of each
// side, each over the time of the kernels that carry it (nullopt without any), and the
// change in percent (nullopt without a control rate). Rows and families alike.
model::DiffRow::Work work_rates(const model::DiffRow::Work::Sums& control, const model::DiffRow::Work::Sums& test);

}  // namespace tracediff::analysis
