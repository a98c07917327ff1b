// --bound SHAPE: small traces in which one thing bounds every step, for the critical
// path (tests/e2e/critical_path_shapes_test.cpp works each one out by hand). No random
// draw: every time below is whole microseconds from the step's start, every step is the
// same, and the events are those the training step writes (ProfilerStep span, cpu_op,
// cuda_runtime with its correlation, kernels on stream 7 with their flows), so tracediff
// reads them as it reads the rest. No cuda_sync events: the host's waits are seen only
// from the runtime calls, as in traces recorded without CUDA sync activity.

#include "sim.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace tracegen {
namespace {

// Each shape's step, in us: the ProfilerStep span's length, and the next step starts as
// it ends (as prof.step() closes one span and opens the next).
int64_t step_us(std::string_view shape) {
  return shape == "host" ? 170 : shape == "gpu" ? 430 : shape == "launch" ? 130 : shape == "sync" ? 370 : 355;
}

}  // namespace

int32_t Sim::bound_op(std::string_view name, int64_t at_us, int64_t dur_us, std::string_view extra) {
  const int64_t ext = m_ext++;
  return push({.kind = Kind::CpuOp, .name = name, .ts = m_step_start + at_us * k_us, .dur = dur_us * k_us, .ext = ext,
               .extra = extra});
}

// A runtime call on the main thread; its External id is the operator around it (0: none).
int32_t Sim::bound_call(Api api, int32_t parent, int64_t at_us, int64_t dur_us) {
  const auto& names = m_o.amd ? k_hip_api_name : k_api_name;
  return push({.kind = Kind::Runtime, .name = names[static_cast<size_t>(api)], .ts = m_step_start + at_us * k_us,
               .dur = dur_us * k_us, .ext = parent >= 0 ? at(parent).ext : 0, .api = api, .corr = ++m_corr});
}

void Sim::bound_kernel(int32_t call, const KDesc& k, int64_t at_us, int64_t dur_us) {
  const int32_t dev = push({.kind = Kind::Device, .name = k.name, .ts = m_step_start + at_us * k_us,
                            .dur = dur_us * k_us, .th = k_compute_stream, .ext = at(call).ext, .extra = k.attrs,
                            .corr = at(call).corr, .link = call, .k = &k});
  at(call).link = dev;
}

// One step of the shape at m_step_start. Offsets in us; "a" is a layer's start.
void Sim::bound_step() {
  const std::string_view shape = m_o.bound;
  // The layers' size class 1 (hidden 2048) and its forward GEMM, ampere_sgemm_128x64_tn:
  // the same names in every shape, so two shapes compare row by row.
  const Dims& d = m_dims[1];
  const KDesc& gemm = m_c.gemm_fwd[1];
  if (shape == "host") {
    // A slow Python loop: each layer's operators hold the host 30 us for a 2 us GEMM that
    // starts 4 us after its launch, long done when the next launch comes. 10 us of Python
    // between layers.
    for (int64_t l = 0; l < 4; ++l) {
      const int64_t a = 10 + 40 * l;
      bound_op("aten::linear", a, 30, d.linear);
      const int32_t addmm = bound_op("aten::addmm", a + 5, 20, d.addmm);
      bound_kernel(bound_call(Api::LaunchKernel, addmm, a + 10, 5), gemm, a + 14, 2);
    }
  } else if (shape == "gpu") {
    // Launches 12 us apart queue 100 us GEMMs: the first starts 5 us after its launch,
    // each next one 1 us after the one before; the host then waits in the sync until
    // 2 us after the last one ends (at 421).
    for (int64_t l = 0; l < 4; ++l) {
      const int64_t a = 10 + 12 * l;
      bound_op("aten::linear", a, 10, d.linear);
      const int32_t addmm = bound_op("aten::addmm", a + 2, 6, d.addmm);
      bound_kernel(bound_call(Api::LaunchKernel, addmm, a + 3, 3), gemm, 18 + 101 * l, 100);
    }
    bound_call(Api::StreamSync, -1, 60, 363);
  } else if (shape == "launch") {
    // torch.cuda.synchronize() after each tiny add: the kernel starts 20 us after its
    // launch on an idle stream and runs 2 us; the sync returns 1 us after it ends.
    for (int64_t l = 0; l < 4; ++l) {
      const int64_t a = 10 + 30 * l;
      const int32_t add = bound_op("aten::add", a, 6, d.binary);
      bound_kernel(bound_call(Api::LaunchKernel, add, a + 1, 4), m_c.add, a + 21, 2);
      bound_call(Api::DeviceSync, -1, a + 8, 16);
    }
  } else if (shape == "sync") {
    // Each layer's 50 us GEMM (5 us after its launch) is waited for at once by a
    // cudaStreamSynchronize returning 1 us after it ends, then 20 us of host work on the
    // result (aten::cat) and 10 us of Python before the next layer.
    for (int64_t l = 0; l < 4; ++l) {
      const int64_t a = 10 + 90 * l;
      bound_op("aten::linear", a, 8, d.linear);
      const int32_t addmm = bound_op("aten::addmm", a + 1, 6, d.addmm);
      bound_kernel(bound_call(Api::LaunchKernel, addmm, a + 2, 4), gemm, a + 7, 50);
      bound_call(Api::StreamSync, -1, a + 9, 49);
      bound_op("aten::cat", a + 60, 20);
    }
  } else {  // loader
    // The main thread waits 300 us on the loader's workers (a cpu_op, so it is on the
    // path), then one layer: a 30 us GEMM 5 us after its launch, waited for by a sync
    // returning 1 us after it ends.
    bound_op("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", 5, 300);
    bound_op("aten::linear", 310, 10, d.linear);
    const int32_t addmm = bound_op("aten::addmm", 312, 6, d.addmm);
    bound_kernel(bound_call(Api::LaunchKernel, addmm, 313, 3), gemm, 318, 30);
    bound_call(Api::StreamSync, -1, 322, 27);
  }
}

void Sim::write_bound(JsonOut& out) {
  const int64_t step = step_us(m_o.bound) * k_us;
  // Whole microseconds from the start, so integer-us output keeps every time exact.
  const int64_t start = (k_base_ns + k_start_rel_ns) / k_us * k_us + m_rank * 173 * k_us;
  write_header(out);
  // Kineto writes all host events first, then the CUPTI records.
  for (const bool host : {true, false}) {
    m_ext = 1;
    m_corr = 10 + 37 * m_rank;
    m_prof_start = start - 180 * k_us;
    m_end = start;
    for (int i = 0; i < m_o.steps; ++i) {
      m_evs.clear();
      m_step_start = start + i * step;
      m_step_name = "ProfilerStep#" + std::to_string(static_cast<int64_t>(m_o.first_step) + i);
      push({.kind = Kind::UserAnn, .name = m_step_name, .ts = m_step_start, .dur = step, .ext = m_ext++});
      bound_step();
      m_end = std::max(m_end, m_step_start + step);
      if (host) {
        emit_host(out);
        continue;
      }
      emit_device(out);
      for (const Ev& e : m_evs)
        if (e.kind == Kind::Runtime && e.link < 0) emit_runtime(out, e);  // a sync: no GPU record of its own
    }
  }
  write_trailer(out);
}

}  // namespace tracegen
