// The model: a stack of Linear/ReLU/Add/LayerNorm layers trained with DDP.
// The Sim's constructor pre-renders each layer size's "Input Dims" and each
// gradient bucket's collective args; the layers' forward (eager, --compile,
// --generic-conv-gemm, --algo-swap, --shape-scale) and backward live here.

#include "sim.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace tracegen {

Sim::Sim(const Options& o, const Catalog& c, int rank, std::string trace_name)
    : m_o(o),
      m_c(c),
      m_rank(rank),
      m_pid(2910249 + 1117 * rank),
      m_autograd_tid(m_pid + 9503),
      m_trace_name(std::move(trace_name)),
      m_ws(o.world_size > 0 ? o.world_size : o.ranks) {
  for (size_t s = 0; s < 3; ++s) {
    const std::string h = std::to_string(k_hidden[s]);
    // Appended rather than "[" + ...: GCC 12 warns (-Wrestrict, a false positive) on that
    // with the constant batch size once this is inlined.
    std::string bh = "[";
    bh.append(std::to_string(k_batch)).append(", ").append(h).append("]");
    const std::string hh = "[" + h + ", " + h + "]";
    // --shape-scale: the scaled GEMM's N, F times h.
    const std::string fh = std::to_string(k_hidden[s] * o.shape_scale);
    const bool scale_mm = o.shape_scale_op == "aten::mm", scale_addmm = o.shape_scale_op == "aten::addmm";
    const std::string mm_b = scale_mm ? "[" + h + ", " + fh + "]" : hh;
    const std::string addmm_dims = scale_addmm ? "[" + fh + "], " + bh + ", [" + h + ", " + fh + "], [], []"
                                               : "[" + h + "], " + bh + ", " + hh + ", [], []";
    const auto mk = [](const std::string& dims, const std::string& types) {
      return ", \"Input Dims\": [" + dims + "], \"Input type\": [" + types + "]";
    };
    m_dims[s] = {
        .linear = mk(bh + ", " + hh + ", [" + h + "]", "\"float\", \"float\", \"float\""),
        .addmm = mk(addmm_dims,
                    "\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\""),
        .unary = mk(bh, "\"float\""),
        .binary = mk(bh + ", " + bh + ", []", "\"float\", \"float\", \"Scalar\""),
        .t = mk(hh, "\"float\""),
        .mm = mk(bh + ", " + mm_b, "\"float\", \"float\""),
        .ln = mk(bh + ", [], [" + h + "], [" + h + "], [], []",
                 "\"float\", \"ScalarList\", \"float\", \"float\", \"Scalar\", \"\""),
    };
  }
  if (o.python_stack) {
    for (int l = 0; l < o.layers; ++l) {
      for (const std::string_view m : {"Linear_", "ReLU_", "LayerNorm_"}) {
        m_py_modules.push_back("nn.Module: " + std::string(m) + std::to_string(l));
      }
    }
  }
  std::string ranks = "[";
  for (int r = 0; r < m_ws; ++r) {
    ranks += (r != 0 ? ", " : "") + std::to_string(r);
  }
  ranks += "]";
  const std::string ws = std::to_string(m_ws);
  for (int first = 0; first < o.layers; first += k_bucket_layers) {
    int64_t nelems = 0;
    for (int l = first; l < std::min(o.layers, first + k_bucket_layers); ++l) {
      nelems += k_hidden[size_of(l)] * (k_hidden[size_of(l)] + 3);
    }
    const std::string n = std::to_string(nelems);
    const std::string pg = ", \"In split size\": \"[]\", \"Out split size\": \"[]\", \"dtype\": \"Float\", "
                           "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
                           "\"Process Group Ranks\": \"" + ranks + "\"";
    m_bucket_elems.push_back(nelems);
    m_comm_args.push_back(", \"Collective name\": \"allreduce\", \"In msg nelems\": " + n +
                          ", \"Out msg nelems\": " + n + ", \"Group size\": " + ws +
                          ", \"Global rank start\": 0, \"Global rank stride\": 1" + pg);
    m_nccl_attrs.push_back(std::string(k_nccl_attrs) + ", \"Collective name\": \"allreduce\", \"In msg nelems\": " +
                           n + ", \"Out msg nelems\": " + n + ", \"Group size\": " + ws + pg);
  }
}

// --compile: torch.compile'd model. Inductor calls the GEMM as an extern
// kernel (aten::addmm) and fuses the elementwise ops into Triton kernels,
// each launched by cuLaunchKernel from a cpu_op named after the kernel.
void Sim::compiled_forward(int32_t seq) {
  region(R_COMPILE, 0);
  leaf("TorchDynamo Cache Lookup", 0, 3);
  const Scope compiled = op("Torch-Compiled Region: 0/0", 0, 6, 3);
  const Scope fn = op("CompiledFunction", 0, 8, 3, {}, seq);
  for (int l = 0; l < m_o.layers; ++l) {
    const size_t s = size_of(l);
    {
      region(R_FWD_LAYER, static_cast<uint64_t>(l));
      m_slot_ctr = k_slot_fwd_addmm;
      const Scope addmm = op("aten::addmm", 0, 6, 3, m_dims[s].addmm);
      launch(0, m_c.gemm_fwd[s], k_gemm_us[s] * scale_of("aten::addmm"));
      long_launches(l);
    }
    region(R_COMPILE_LAYER, static_cast<uint64_t>(l));
    {
      const TritonK& t = m_c.tri_poi[s];
      const Scope launcher = op(t.k.name, 0, 7, 2, t.op_args);
      launch(0, t.k, k_ew_us[s]);
    }
    {
      const TritonK& t = m_c.tri_per[s];
      const Scope launcher = op(t.k.name, 0, 7, 2, t.op_args);
      launch(0, t.k, k_ln_us[s]);
    }
  }
}

void Sim::layer_forward(int l, int32_t seq) {
  region(R_FWD_LAYER, static_cast<uint64_t>(l));
  const size_t s = size_of(l);
  const Dims& d = m_dims[s];
  const auto lu = static_cast<size_t>(l);
  const auto module = [&](size_t k) {
    return PyFrame{m_o.python_stack ? std::string_view(m_py_modules[3 * lu + k]) : std::string_view(),
                   static_cast<int32_t>(3 * lu + k + 1)};
  };
  if (m_o.generic_conv_gemm) {
    const SlotGuard guard(*this);  // slots of its own: the layer's other draws stay
    m_slot_ctr = k_slot_conv;
    const Scope conv2d = op("aten::conv2d", 0, 3, 1, {}, seq);
    const Scope conv = op("aten::convolution", 0, 3, 1);
    const Scope conv_ = op("aten::_convolution", 0, 3, 1);
    const Scope cudnn = op("aten::cudnn_convolution", 0, 8, 3);
    launch(0, m_c.conv_gemm[s], k_gemm_us[s]);
  }
  {
    const PyChain py(*this, 0,
                     {module(0), {k_call_impl}, {k_wrapped_call_impl}, {"torch/nn/modules/linear.py(125): forward"},
                      {"<built-in function linear>"}});
    const Scope linear = op("aten::linear", 0, 4, 2, d.linear, seq);
    {
      const Scope t = op("aten::t", 0, 2, 1, d.t);
      const Scope transpose = op("aten::transpose", 0, 2, 1, d.t);
      leaf("aten::as_strided", 0, 1, d.t);
    }
    m_slot_ctr = k_slot_fwd_addmm;  // already so; --compile depends on it
    const Scope addmm = op("aten::addmm", 0, 6, 3, d.addmm, seq + 1);
    // --algo-swap: the first PCT% of layers get the other algorithm, same slot, same time.
    const bool alt = m_o.algo_swap_pct >= 0 && int64_t{l} * 100 < m_o.algo_swap_pct * m_o.layers;
    launch(0, alt ? m_c.gemm_fwd_alt[s] : m_c.gemm_fwd[s], k_gemm_us[s] * scale_of("aten::addmm"));
    long_launches(l);
  }
  {
    const PyChain py(*this, 0,
                     {module(1), {k_call_impl}, {k_wrapped_call_impl}, {"torch/nn/modules/activation.py(133): forward"},
                      {"torch/nn/functional.py(1704): relu"}, {"<built-in method relu of type object>"}});
    const Scope relu = op("aten::relu", 0, 3, 1, d.unary, seq + 2);
    const Scope clamp = op("aten::clamp_min", 0, 4, 2, d.unary);
    launch(0, m_c.clamp, k_ew_us[s]);
  }
  {
    const Scope add = op("aten::add", 0, 5, 2, d.binary, seq + 3);
    launch(0, m_c.add, k_ew_us[s]);
    for (size_t j = 0; j < m_c.added.size(); ++j) {  // own slots: must not shift other draws
      launch_at(0, m_c.added[j], (k_ew_us[s] + 2) * k_us, k_compute_stream, 0, m_c.added[j].attrs,
                m_slot_base | k_slot_added | j, false);
    }
  }
  const PyChain py(*this, 0,
                   {module(2), {k_call_impl}, {k_wrapped_call_impl},
                    {"torch/nn/modules/normalization.py(217): forward"}, {"torch/nn/functional.py(2910): layer_norm"},
                    {"<built-in method layer_norm of type object>"}});
  const Scope layer_norm = op("aten::layer_norm", 0, 3, 1, d.ln, seq + 3);
  const Scope native = op("aten::native_layer_norm", 0, 6, 2, d.ln, seq + 3);
  launch(0, m_c.ln_fwd, k_ln_us[s]);
}

void Sim::layer_backward(int l, int32_t seq) {
  region(R_BWD_LAYER, static_cast<uint64_t>(l));
  const size_t s = size_of(l);
  const Dims& d = m_dims[s];
  backward_node("autograd::engine::evaluate_function: NativeLayerNormBackward0", seq + 3, [&] {
    const Scope b = op("aten::native_layer_norm_backward", 1, 5, 2, d.ln);
    launch(1, m_c.ln_bwd, k_lnb_us[s]);
    launch(1, m_c.gamma_beta, k_lnb_us[s] * 3 / 4);
  });
  backward_node("autograd::engine::evaluate_function: AddBackward0", seq + 3, [] {});
  backward_node("autograd::engine::evaluate_function: ReluBackward0", seq + 2, [&] {
    const Scope b = op("aten::threshold_backward", 1, 5, 2, d.binary);
    launch(1, m_c.thresh, k_ew_us[s]);
  });
  backward_node("autograd::engine::evaluate_function: AddmmBackward0", seq + 1, [&] {
    for (const KDesc* k : {&m_c.gemm_dgrad[s], &m_c.gemm_wgrad[s]}) {
      {
        const Scope t = op("aten::t", 1, 2, 1, d.t);
        const Scope transpose = op("aten::transpose", 1, 2, 1, d.t);
        leaf("aten::as_strided", 1, 1, d.t);
      }
      const Scope mm = op("aten::mm", 1, 5, 2, d.mm);
      launch(1, *k, k_gemm_us[s] * scale_of("aten::mm"));
    }
    const Scope sum = op("aten::sum", 1, 5, 2, d.unary);
    launch(1, m_c.sum, k_sum_us[s], m_o.stream_wait ? k_side_stream : k_compute_stream);
  });
  backward_node("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", -1, [&] {
    const Scope add = op("aten::add_", 1, 4, 2, d.binary);
    launch(1, m_c.add, k_ew_us[s]);
  });
}

}  // namespace tracegen
