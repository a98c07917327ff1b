// Steps and noise: the per-step loop, the random draws every duration takes
// (natural variation, --jitter, --slowdown), the training step itself with its
// ProfilerStep, annotations and host syncs, and the warm-up (--warmup-steps)
// or outlier (--slow-step) steps stretched on output.

#include "sim.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tracegen {

void Sim::write(JsonOut& out) {
  write_header(out);
  // Kineto writes all host ops first, then the CUPTI records (runtime calls
  // and device activity). Simulating twice keeps memory at one step.
  for (const bool host : {true, false}) {
    reset();
    const int64_t first_start = m_t[0];
    for (int i = 0; i < m_o.steps; ++i) {
      build_step(i);
      if (m_o.warmup_steps > 0 || m_o.slow_step >= 0) {
        warp_step(i);
      }
      if (host) {
        emit_host(out);
        if (m_o.idle_thread_ns > 0) {
          emit_idle_thread(out);
        }
        if (m_o.memory) {
          emit_memory(out);
        }
      } else {
        emit_device(out);
      }
    }
    if (host && m_o.harness_frame) {
      emit_harness(out, first_start);
    }
  }
  write_trailer(out);
}

// --loader-on-main: the batch collated and pinned on the main thread, as a
// DataLoader without workers does; the parts add up to the option's duration.
void Sim::loader_on_main() {
  const int64_t us = m_o.loader_us;
  const Scope next = ann("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, us / 20, us / 20);
  {
    const Scope stack = op("aten::stack", 0, us / 10, us / 20);
    leaf("aten::cat", 0, us * 3 / 10);
  }
  const Scope pin = op("aten::pin_memory", 0, us / 20, us / 20);
  leaf("aten::copy_", 0, us * 7 / 20);
}

int64_t Sim::vary(int64_t ns, uint64_t slot, uint64_t salt) const {
  const auto d = static_cast<int64_t>(rnd(slot, salt) % 80001) - 40000;
  return ns * (k_ppm + d) / k_ppm;
}

int64_t Sim::scaled(std::string_view name, int64_t ns, uint64_t slot) const {
  for (const auto& s : m_o.slowdowns) {
    if (name.find(s.pattern) != std::string_view::npos && (m_o.slowdown_under.empty() || m_under > 0)) {
      ns = ns * s.factor_ppm / k_ppm;
    }
  }
  if (m_o.run_factor_ppm != k_ppm) ns = ns * m_o.run_factor_ppm / k_ppm;
  if (m_o.jitter_ppm > 0) {
    const auto span = static_cast<uint64_t>(2 * m_o.jitter_ppm + 1);
    ns = ns * (k_ppm + static_cast<int64_t>(rnd(slot, 7) % span) - m_o.jitter_ppm) / k_ppm;
  }
  return std::max<int64_t>(ns, 1);
}

void Sim::set_step_key(uint64_t step) {
  m_step_key = mix64(mix64(mix64(m_o.seed ^ 0x7472616365ULL) ^ static_cast<uint64_t>(m_rank)) ^ step);
}

void Sim::reset() {
  set_step_key(UINT64_MAX);
  const int64_t start = k_base_ns + k_start_rel_ns + m_rank * 173 * k_us + vary(60 * k_us, R_RANK, 0);
  m_prof_start = start - 180 * k_us;
  m_t = {start, start};
  m_stream_free = {start, start, start};
  m_side_waiting = false;
  m_ext = 1;
  m_corr = 10 + 37 * m_rank;
  m_end = start;
  m_py_id = 1;
  m_delta = 0;
  m_out_end = start;
}

int32_t Sim::open(Kind kind, std::string_view name, int th, int64_t pre_us, std::string_view extra, int32_t seq,
                  int fwd_tid) {
  const size_t t = static_cast<size_t>(th);
  const int32_t idx = push({.kind = kind, .name = name, .ts = m_t[t], .th = static_cast<uint8_t>(th),
                            .slot = next_slot(), .ext = m_ext++, .extra = extra, .seq = seq,
                            .fwd_tid = static_cast<uint8_t>(fwd_tid)});
  m_t[t] += vary(pre_us * k_us, at(idx).slot, 1);
  m_stack[t].push_back(idx);
  m_under += in_scope(name);
  return idx;
}

void Sim::close(int32_t idx, int64_t post_us) {
  Ev& e = at(idx);
  const size_t t = e.th;
  const int64_t inner_end = m_t[t];
  m_t[t] += vary(post_us * k_us, e.slot, 2);
  // A factor below 1 (speed-up, jitter) shrinks self time only, never cuts into children.
  e.dur = std::max(scaled(e.name, m_t[t] - e.ts, e.slot), inner_end - e.ts);
  m_under -= in_scope(e.name);
  m_t[t] = e.ts + e.dur;
  m_stack[t].pop_back();
}

// --- the training step -------------------------------------------------------

void Sim::build_step(int i) {
  m_evs.clear();
  m_ann = -1;
  m_py_ctr = 0;
  m_step_start = m_t[0];
  set_step_key(static_cast<uint64_t>(i));
  m_step_name = "ProfilerStep#" + std::to_string(static_cast<int64_t>(m_o.first_step) + i);
  const int last = m_o.layers - 1;
  const Dims& d0 = m_dims[size_of(0)];
  const Dims& dl = m_dims[size_of(last)];
  const int32_t seq0 = 1000 + i * (m_o.layers * 4 + 8);
  const int32_t loss_seq = seq0 + 4 * m_o.layers;
  int32_t fw = 0;
  int32_t bw = 0;
  int32_t opt = 0;

  region(R_STEP, 0);
  {
    const Scope step = ann(m_step_name, 0, 6, 4);
    if (m_o.step_inside_profiler) {
      profiler_step_frames(at(step.idx()).ts);
    }
    if (i == 0 && m_o.backlog_ns > 0) {  // no launch: link -1, a correlation no call has
      const KDesc& k = m_c.gemm_wgrad[2];
      const int64_t g0 = at(step.idx()).ts + 5 * k_us;
      push({.kind = Kind::Device, .name = k.name, .ts = g0, .dur = m_o.backlog_ns, .th = k_compute_stream,
            .slot = 0, .extra = k.attrs, .corr = 1000000000, .link = -1, .k = &k});
      m_stream_free[0] = std::max(m_stream_free[0], g0 + m_o.backlog_ns);
      m_end = std::max(m_end, g0 + m_o.backlog_ns);
    }
    const PyChain train_step(*this, 0, {{"train.py(48): train_step"}});
    if (m_o.loader_us > 0) {
      const SlotGuard keep(*this);
      region(R_LOADER, 0);
      loader_on_main();
    }
    {  // input batch to the GPU
      const PyChain py(*this, 0,
                       {{k_tree_map}, {k_tree_map}, {k_tree_map}, {"train.py(25): <lambda>"},
                        {"<method 'to' of 'torch._C.TensorBase' objects>"}});
      const int64_t bytes = int64_t{k_batch} * k_hidden[size_of(0)] * 4;
      const Scope to = op("aten::to", 0, 3, 1, d0.unary);
      const Scope copy = op("aten::_to_copy", 0, 2, 1, d0.unary);
      leaf("aten::empty_strided", 0, 3);
      const Scope copy_ = op("aten::copy_", 0, 3, 2, d0.binary);
      launch(0, m_c.h2d, bytes / 12000 + 2, k_compute_stream, bytes);  // ~12 GB/s pageable copy
    }
    region(R_EXTRA, 0);
    for (int e = 0; e < m_o.extra_launches; ++e) {
      const Scope add = op("aten::add", 0, 4, 2, d0.binary);
      launch(0, m_c.add, 2);
    }
    if (!m_c.many_ops.empty()) {
      region(R_MANY, 0);
      many_launches(i);
    }

    region(R_FWD, 0);
    {
      const Scope forward = ann("## forward ##", 0, 3, 2);
      fw = forward.idx();
      begin_gpu_ann(0);
      m_capture = m_o.cuda_graphs;
      {
        {
          const PyChain py(*this, 0, {{"<built-in method zeros of type object>"}});
          const Scope zeros = op("aten::zeros", 0, 3, 1, d0.unary);
          leaf("aten::empty", 0, 2);
          const Scope zero = op("aten::zero_", 0, 2, 1, d0.unary);
          launch(0, m_c.memset, 2, k_compute_stream, int64_t{k_batch} * 4);
        }
        {
          // The model call: _call_impl and _wrapped_call_impl here and again in
          // every layer's module call below, the same names nested in themselves.
          const PyChain model(*this, 0,
                              {{"nn.Module: Sequential_0", 0}, {k_call_impl}, {k_wrapped_call_impl},
                               {m_o.compile ? "torch/_dynamo/eval_frame.py(655): _fn"
                                            : "torch/nn/modules/container.py(250): forward"}});
          if (m_o.compile) {
            compiled_forward(seq0);
          } else {
            for (int l = 0; l < m_o.layers; ++l) {
              layer_forward(l, seq0 + 4 * l);
              if (m_o.sync_every_layer) item_sync();
            }
          }
        }
        if (!m_o.infer_loop) {  // --marker-loop infer: no loss
          region(R_LOSS, 0);
          const PyChain py(*this, 0, {{"torch/nn/functional.py(3791): mse_loss"}, {"<built-in function mse_loss>"}});
          const Scope loss = op("aten::mse_loss", 0, 4, 2, dl.binary, loss_seq);
          {
            const Scope sub = op("aten::sub", 0, 4, 2, dl.binary, loss_seq + 1);
            launch(0, m_c.add, k_ew_us[size_of(last)]);
          }
          {
            const Scope pow = op("aten::pow", 0, 4, 2, dl.unary, loss_seq + 2);
            launch(0, m_c.pow, k_ew_us[size_of(last)]);
          }
          const Scope mean = op("aten::mean", 0, 5, 2, dl.unary, loss_seq + 3);
          launch(0, m_c.mean, 6);
        }
      }
      if (m_o.cuda_graphs) {
        const SlotGuard keep(*this);
        region(R_GRAPH, 0);
        const PyChain py(*this, 0, {{"torch/cuda/graphs.py(88): replay"}});
        if (m_o.graph_from_python) {
          graph_launch(0);
        } else {
          const Scope replay = op("CUDAGraph::replay", 0, 4, 2);
          graph_launch(0);
        }
      }
    }

    // Backward runs on the autograd thread while the main thread waits in
    // loss.backward() under its "## backward ##" annotation.
    if (!m_o.infer_loop) {
      const Scope backward = ann("## backward ##", 0, 4, 3);
      bw = backward.idx();
      begin_gpu_ann(1);
      const PyChain py(*this, 0,
                       {{"torch/_tensor.py(626): backward"}, {"torch/autograd/__init__.py(347): backward"},
                        {"torch/autograd/graph.py(823): _engine_run_backward"},
                        {"<method 'run_backward' of 'torch._C._EngineBase' objects>"}});
      m_t[1] = std::max(m_t[1], m_t[0] + vary(12 * k_us, at(bw).slot, 3));
      backward_node("autograd::engine::evaluate_function: MseLossBackward0", loss_seq, [&] {
        const Scope b = op("aten::mse_loss_backward", 1, 5, 2, dl.binary);
        launch(1, m_c.mse_bwd, k_ew_us[size_of(last)]);
      });
      for (int l = last; l >= 0; --l) {
        layer_backward(l, seq0 + 4 * l);
        if (m_ws > 1 && l % k_bucket_layers == 0 && !m_o.comm_exposed) {
          all_reduce(static_cast<size_t>(l / k_bucket_layers));
        }
      }
      for (int l = last; m_o.comm_exposed && m_ws > 1 && l >= 0; --l) {  // after the whole backward
        if (l % k_bucket_layers == 0) all_reduce(static_cast<size_t>(l / k_bucket_layers));
      }
      m_t[0] = std::max(m_t[0], m_t[1] + vary(8 * k_us, at(bw).slot, 4));
    }

    region(R_TAIL, 0);
    if (!m_o.infer_loop) {
      const PyChain wrapper(*this, 0, {{"torch/optim/optimizer.py(487): wrapper"}});
      const Scope step_ann = ann("Optimizer.step#SGD.step", 0, 5, 4);
      opt = step_ann.idx();
      begin_gpu_ann(2);
      const PyChain sgd(*this, 0, {{"torch/optim/sgd.py(123): step"}, {"torch/optim/sgd.py(380): _multi_tensor_sgd"}});
      for (int c = 0; c < (m_o.layers + 7) / 8; ++c) {
        const PyChain py(*this, 0, {{"<built-in method _foreach_add_ of type object>"}});
        const Scope foreach = op("aten::_foreach_add_", 0, 6, 3);
        launch(0, m_c.foreach_add, 15, k_compute_stream, 0, {}, c == 0);  // waits for the all-reduce
      }
    }
    m_ann = -1;
    if (!m_o.infer_loop) {
      const PyChain py(*this, 0, {{"torch/optim/optimizer.py(955): zero_grad"}});
      ann("Optimizer.zero_grad#SGD.zero_grad", 0, 4, 3);
    }
    // loss.item() every other step: the only CPU/GPU syncs, so GPU work
    // otherwise spills into the next step's window, as in real traces.
    if (!m_o.no_sync && (i % 2 == 1 || i == m_o.steps - 1)) {
      item_sync();
    }
  }
  if (m_o.infer_loop) {  // the decode step's own annotation, as long as its ProfilerStep span
    Ev decode = at(0);
    decode.name = "step[DECODE bs=32]";
    decode.ext = m_ext++;
    push(decode);
  }
  m_t[0] += vary(40 * k_us, m_slot_base, 5);  // prof.step() bookkeeping gap

  const std::array<int32_t, 3> anns = {fw, bw, opt};
  for (size_t a = 0; a < anns.size(); ++a) {
    const auto [first, last_end] = m_ann_span[a];
    if (anns[a] == 0 || first > last_end) {  // not made (--marker-loop infer), or every kernel under it dropped
      continue;  // every kernel under it was dropped
    }
    // Kineto widens GPU annotations: -1 us in integer-us builds, -1/+2 ns in ns builds.
    push({.kind = Kind::GpuAnn, .name = at(anns[a]).name, .ts = first - (m_o.ns ? 1 : k_us),
          .dur = last_end - first + (m_o.ns ? 2 : k_us), .th = k_compute_stream, .ext = at(anns[a]).ext});
  }
  m_end = std::max({m_end, m_t[0], m_t[1]});
}

// prof.step() opens this step's record_function from inside its own frames, which end a
// few us after the step began: partial overlap, as in every with_stack trace. All of it
// ends before the step's first child starts (6 us); 8 us a step, as in real traces a
// small share of the step.
void Sim::profiler_step_frames(int64_t start) {
  const int64_t us = k_us;
  const int64_t frame = m_py_id++;
  push({.kind = Kind::PyFunc, .name = "torch/profiler/profiler.py(790): step", .ts = start - 5 * us, .dur = 8 * us,
        .ext = frame});
  push({.kind = Kind::PyFunc, .name = "torch/autograd/profiler.py(770): __enter__", .ts = start - 3 * us,
        .dur = 5 * us, .ext = m_py_id++, .py_parent = frame});
  push({.kind = Kind::CpuOp, .name = "profiler::_record_function_enter_new", .ts = start - 2 * us, .dur = 3 * us + us / 2,
        .ext = m_ext++});
  push({.kind = Kind::CpuOp, .name = "aten::empty", .ts = start + us / 2, .dur = us / 2, .ext = m_ext++});
}

void Sim::emit_harness(JsonOut& out, int64_t first_start) {
  const int64_t end = std::max(m_end + m_delta, m_out_end);
  m_evs.assign(1, {.kind = Kind::PyFunc, .name = "bench.py(30): run_torch_profiler", .ts = first_start - 100 * k_us,
                   .dur = end - first_start + 130 * k_us, .ext = 1 << 30});
  emit_host(out);
}

// --warmup-steps. Step i was simulated as without the option; a warm-up step
// is stretched by F about its start, later steps are moved by m_delta (whole
// microseconds, so integer-us output keeps every duration). The next step
// starts after the stretched step, and late enough that the stretched GPU
// tail of this step still ends before the next step's GPU work begins.
void Sim::warp_step(int i) {
  const int64_t s = m_step_start;
  const int64_t next = m_t[0];
  const int64_t base = s + m_delta;
  // --slow-step: one step stretched the same way, by its own factor.
  const bool slow = m_o.slow_step >= 0 && i == m_o.slow_step - m_o.first_step;
  if (i >= m_o.warmup_steps && !slow) {
    for (Ev& e : m_evs) {
      e.ts += m_delta;
      m_out_end = std::max(m_out_end, e.ts + e.dur);
    }
    m_out_end = std::max(m_out_end, next + m_delta);
    return;
  }
  const int64_t f = slow ? m_o.slow_ppm : m_o.warmup_ppm;
  const auto map = [&](int64_t t) { return base + mul_ppm(t - s, f); };
  const int64_t w1 = m_o.ns ? 1 : k_us;  // GPU annotation widening, see build_step
  const int64_t w2 = m_o.ns ? 2 : k_us;
  int64_t end = next;
  for (Ev& e : m_evs) {
    end = std::max(end, e.ts + e.dur);
    if (e.kind == Kind::GpuAnn) {  // stretch what it covers, not its widening
      const int64_t first = e.ts + w1;
      const int64_t last_end = first + e.dur - w2;
      e.ts = map(first) - w1;
      e.dur = map(last_end) - map(first) + w2;
    } else {
      const int64_t a = map(e.ts);
      e.dur = map(e.ts + e.dur) - a;
      e.ts = a;
    }
    m_out_end = std::max(m_out_end, e.ts + e.dur);
  }
  const int64_t next_out = map(next) + std::max<int64_t>(0, mul_ppm(end - next, f) - (end - next));
  const int64_t d = next_out - next;  // rounded up to whole microseconds
  m_delta = (d >= 0 ? (d + k_us - 1) / k_us : -(-d / k_us)) * k_us;
  m_out_end = std::max(m_out_end, next + m_delta);
}

}  // namespace tracegen
