// The simulation of one rank's trace: the event record, the slot scheme that
// keys every random draw, and the Sim class. Its members are defined by shape
// family: steps.cpp (steps, warm-up, noise), python.cpp (Python stacks),
// gpu.cpp (launches, graphs, syncs, collectives), model.cpp (the layers),
// hostile.cpp (hostile sizes), output.cpp (the Kineto JSON); bound_shapes.cpp writes
// --bound's small shapes instead of the training step.
#pragma once

#include "generator.hpp"
#include "json_out.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tracegen {

enum class Kind : uint8_t { CpuOp, UserAnn, Runtime, Device, Sync, GpuAnn, PyFunc };
enum class Api : uint8_t { LaunchKernel, MemcpyAsync, MemsetAsync, StreamSync, GraphLaunch, CuLaunchKernel, DeviceSync };

inline constexpr std::array<std::string_view, 7> k_api_name = {"cudaLaunchKernel",      "cudaMemcpyAsync", "cudaMemsetAsync",
                                                        "cudaStreamSynchronize", "cudaGraphLaunch", "cuLaunchKernel",
                                                        "cudaDeviceSynchronize"};
// ROCm's Kineto writes HIP API calls (under cat "cuda_runtime").
inline constexpr std::array<std::string_view, 7> k_hip_api_name = {"hipLaunchKernel",      "hipMemcpyAsync", "hipMemsetAsync",
                                                            "hipStreamSynchronize", "hipGraphLaunch",
                                                            "hipModuleLaunchKernel", "hipDeviceSynchronize"};
inline constexpr std::array<int, 7> k_api_cbid = {211, 41, 51, 131, 311, 307, 165};

struct Ev {
  Kind kind = Kind::CpuOp;
  std::string_view name{};
  int64_t ts = 0;  // absolute ns
  int64_t dur = 0;
  uint8_t th = 0;          // host thread index (0 main, 1 autograd), or device stream
  uint64_t slot = 0;       // position in the step template, keys the random draws
  int64_t ext = 0;         // External id
  std::string_view extra{};  // CpuOp: more args; Device: launch attributes
  int32_t seq = -1;        // autograd Sequence number
  uint8_t fwd_tid = 0;
  Api api = Api::LaunchKernel;
  int64_t corr = 0;
  int32_t link = -1;  // Runtime <-> Device/Sync
  const KDesc* k = nullptr;
  int64_t bytes = 0;
  int64_t py_parent = 0;   // PyFunc ("Python id" is in ext): parent's Python id, 0 = null
  int32_t py_module = -1;  // PyFunc: "Python module id" of nn.Module frames
  int32_t gnode = -1;      // Device: node index in a CUDA graph launch (--cuda-graphs)
};

inline uint64_t mix64(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Layer sizes cycle so that kernels differ in name and duration across layers.
inline constexpr std::array<size_t, 4> k_size_cycle = {1, 2, 0, 1};
inline constexpr std::array<int64_t, 3> k_hidden = {1024, 2048, 4096};
// GPU time in us per size class; a bit more than the CPU needs to launch it,
// so the GPU lags and work spills into the next step between syncs.
inline constexpr std::array<int64_t, 3> k_gemm_us = {22, 50, 135};
inline constexpr std::array<int64_t, 3> k_ew_us = {3, 5, 9};
inline constexpr std::array<int64_t, 3> k_ln_us = {5, 8, 14};
inline constexpr std::array<int64_t, 3> k_lnb_us = {7, 12, 22};
inline constexpr std::array<int64_t, 3> k_sum_us = {4, 6, 10};

inline size_t size_of(int layer) { return k_size_cycle[static_cast<size_t>(layer) % k_size_cycle.size()]; }

struct Dims {  // pre-rendered "Input Dims"/"Input type" args per layer size
  std::string linear, addmm, unary, binary, t, mm, ln;
};

// Slot regions: (region, index, counter) names a position in the step template.
// Options that add events give them slots in regions of their own (or counter
// values no other event uses), so that they never shift the draws of the rest.
enum Region : uint64_t {
  R_STEP = 1, R_EXTRA, R_FWD, R_FWD_LAYER, R_LOSS, R_BWD_LAYER, R_COMM, R_TAIL, R_RANK,
  R_PY, R_GRAPH, R_COMPILE, R_COMPILE_LAYER, R_MANY, R_LOADER
};
// Counter bases inside a region for options' extra launches.
inline constexpr uint64_t k_slot_added = 0x8000;  // --add-kernel
inline constexpr uint64_t k_slot_long = 0xA000;   // --long-names (at most 4096 per layer)
inline constexpr uint64_t k_slot_conv = 0xB000;   // --generic-conv-gemm
// Counter of aten::addmm in a layer's forward region; --compile reuses it and
// the next (the GEMM launch), so the GEMMs keep their eager-mode durations.
inline constexpr uint64_t k_slot_fwd_addmm = 4;

// A Python frame of --python-stack; module >= 0 for "nn.Module: ..." frames.
struct PyFrame {
  std::string_view name;
  int32_t module = -1;
};

inline constexpr std::string_view k_call_impl = "torch/nn/modules/module.py(1762): _call_impl";
inline constexpr std::string_view k_wrapped_call_impl = "torch/nn/modules/module.py(1751): _wrapped_call_impl";
inline constexpr std::string_view k_tree_map = "torch/utils/_pytree.py(900): tree_map";

// A Python frame's name as another version or install writes it (--py-line-shift,
// --py-prefix, --py-address); the name itself without those options (python.cpp).
std::string py_frame_name(const Options& o, std::string_view name);

// ns * ppm / 10^6 without overflow for ppm <= 10^9 (factors up to 1000), exact.
inline int64_t mul_ppm(int64_t ns, int64_t ppm) { return ns / k_ppm * ppm + ns % k_ppm * ppm / k_ppm; }

class Sim {
 public:
  Sim(const Options& o, const Catalog& c, int rank, std::string trace_name);  // model.cpp

  void write(JsonOut& out);  // steps.cpp
  // --bound SHAPE: instead of the training step, a small shape whose steps one thing
  // bounds (bound_shapes.cpp).
  void write_bound(JsonOut& out);

 private:
  // RAII like PyTorch's RECORD_FUNCTION: opens a host event, closes it (adding
  // post_us of self time) when the C++ scope ends, so scopes nest like the ops.
  class Scope {
   public:
    Scope(Sim& sim, Kind kind, std::string_view name, int th, int64_t pre_us, int64_t post_us,
          std::string_view extra = {}, int32_t seq = -1, int fwd_tid = 0)
        : m_sim(sim), m_idx(sim.open(kind, name, th, pre_us, extra, seq, fwd_tid)), m_post_us(post_us) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { m_sim.close(m_idx, m_post_us); }
    int32_t idx() const { return m_idx; }

   private:
    Sim& m_sim;
    int32_t m_idx;
    int64_t m_post_us;
  };
  Scope op(std::string_view name, int th, int64_t pre_us, int64_t post_us, std::string_view extra = {},
           int32_t seq = -1, int fwd_tid = 0) {
    return Scope(*this, Kind::CpuOp, name, th, pre_us, post_us, extra, seq, fwd_tid);
  }
  Scope ann(std::string_view name, int th, int64_t pre_us, int64_t post_us) {
    return Scope(*this, Kind::UserAnn, name, th, pre_us, post_us);
  }
  void leaf(std::string_view name, int th, int64_t us, std::string_view extra = {}) {
    close(open(Kind::CpuOp, name, th, us, extra, -1, 0), 0);
  }

  // --loader-on-main (steps.cpp).
  void loader_on_main();

  // --bound's events (bound_shapes.cpp): exact times, whole us from the step's start.
  void bound_step();
  int32_t bound_op(std::string_view name, int64_t at_us, int64_t dur_us, std::string_view extra = {});
  int32_t bound_call(Api api, int32_t parent, int64_t at_us, int64_t dur_us);
  void bound_kernel(int32_t call, const KDesc& k, int64_t at_us, int64_t dur_us);

  // --python-stack: Python frames, outermost first, open for the C++ scope's
  // lifetime around the ops made inside it; nothing at all without the option
  // (python.cpp).
  class PyChain {
   public:
    PyChain(Sim& sim, int th, std::initializer_list<PyFrame> frames);
    PyChain(const PyChain&) = delete;
    PyChain& operator=(const PyChain&) = delete;
    ~PyChain();

   private:
    Sim& m_sim;
    std::array<int32_t, 8> m_idx{};
    size_t m_n = 0;
  };
  int32_t open_py(const PyFrame& f, int th);
  void close_py(int32_t idx);

  // Saves the slot position and restores it at scope end: for events an option
  // inserts in the middle of a region whose later slots must not move.
  class SlotGuard {
   public:
    explicit SlotGuard(Sim& sim) : m_sim(sim), m_base(sim.m_slot_base), m_ctr(sim.m_slot_ctr) {}
    SlotGuard(const SlotGuard&) = delete;
    SlotGuard& operator=(const SlotGuard&) = delete;
    ~SlotGuard() {
      m_sim.m_slot_base = m_base;
      m_sim.m_slot_ctr = m_ctr;
    }

   private:
    Sim& m_sim;
    uint64_t m_base;
    uint64_t m_ctr;
  };

  uint64_t rnd(uint64_t slot, uint64_t salt) const { return mix64(m_step_key ^ mix64(slot * 16 + salt)); }

  // Natural +-4% variation, identical between runs that share seed/rank/step/slot.
  int64_t vary(int64_t ns, uint64_t slot, uint64_t salt) const;
  // --slowdown and --jitter.
  int64_t scaled(std::string_view name, int64_t ns, uint64_t slot) const;

  void region(Region r, uint64_t index) {
    m_slot_base = (static_cast<uint64_t>(r) << 40) | (index << 16);
    m_slot_ctr = 0;
  }
  uint64_t next_slot() { return m_slot_base + m_slot_ctr++; }
  void set_step_key(uint64_t step);
  Ev& at(int32_t idx) { return m_evs[static_cast<size_t>(idx)]; }
  int32_t push(const Ev& e) {
    m_evs.push_back(e);
    return static_cast<int32_t>(m_evs.size() - 1);
  }

  void reset();
  int32_t open(Kind kind, std::string_view name, int th, int64_t pre_us, std::string_view extra, int32_t seq,
               int fwd_tid);
  // --slowdown-under: how many events of the scope's name are open (the sim makes one
  // thread's events at a time, so a count over all threads is the count on this one).
  int in_scope(std::string_view name) const {
    return !m_o.slowdown_under.empty() && name.find(m_o.slowdown_under) != std::string_view::npos ? 1 : 0;
  }
  void close(int32_t idx, int64_t post_us);

  // Launches, graphs and syncs (gpu.cpp).
  // A runtime call at the thread's cursor, linked to the innermost open op.
  int32_t runtime(int th, Api api, uint64_t slot);
  // GPU work launched by runtime call rt; node >= 0 for the nodes of a graph launch.
  int32_t queue_device(int32_t rt, const KDesc& k, int64_t gpu_ns, int stream, int64_t bytes, std::string_view attrs,
                       uint64_t slot, bool wait_nccl, int32_t node);
  void launch_at(int th, const KDesc& k, int64_t gpu_ns, int stream, int64_t bytes, std::string_view attrs,
                 uint64_t slot, bool wait_nccl);
  // --cuda-graphs: one cudaGraphLaunch for everything launched since
  // m_capture was set; all nodes share its correlation id.
  void graph_launch(int th);
  void launch(int th, const KDesc& k, int64_t gpu_us, int stream = k_compute_stream, int64_t bytes = 0,
              std::string_view attrs = {}, bool wait_nccl = false);
  void stream_sync(int th);
  // tensor.item(): a copy to pageable host memory, then the host waits for the stream.
  void item_sync();
  void all_reduce(size_t bucket);

  // --long-names: kernel j runs from the addmm of layer j % layers (hostile.cpp).
  void long_launches(int l);
  // --many-names: operator K (with its kernel) runs in step K % steps (hostile.cpp).
  void many_launches(int i);

  // GPU-side spans are kept for forward (0), backward (1) and optimizer (2).
  void begin_gpu_ann(int which) {
    m_ann = which;
    m_ann_span[static_cast<size_t>(which)] = {INT64_MAX, INT64_MIN};
  }

  void build_step(int i);  // steps.cpp
  // --step-inside-profiler: torch.profiler's frames around the start of the step that starts at `start`.
  void profiler_step_frames(int64_t start);
  // --harness-frame: the user's frame around the whole run, written once after the last step.
  void emit_harness(JsonOut& out, int64_t first_start);
  // --idle-thread: the telemetry thread's frames in the current step (output.cpp).
  void emit_idle_thread(JsonOut& out) const;
  void warp_step(int i);
  void compiled_forward(int32_t seq);  // model.cpp
  void layer_forward(int l, int32_t seq);
  void layer_backward(int l, int32_t seq);
  // "autograd::engine::evaluate_function: <Node>" > "<Node>" > body, on the autograd thread.
  template <typename F>
  void backward_node(std::string_view eval_name, int32_t seq, const F& body) {
    const Scope eval = op(eval_name, 1, 6, 3, {}, seq, 1);
    const Scope node = op(eval_name.substr(eval_name.rfind(' ') + 1), 1, 4, 2, {}, seq, 1);
    body();
  }

  // The Kineto JSON (output.cpp).
  void put_ts(JsonOut& out, int64_t ns) const;
  void x_head(JsonOut& out, std::string_view cat, const Ev& e, int64_t pid, int64_t tid) const;
  void flow(JsonOut& out, char ph, int64_t id, int64_t pid, int64_t tid, int64_t ts) const;
  void x_open(JsonOut& out, std::string_view cat, const Ev& e, int64_t pid, int64_t tid) const;
  void emit_host(JsonOut& out) const;
  void emit_runtime(JsonOut& out, const Ev& r) const;
  void emit_device(JsonOut& out) const;
  void emit_memory(JsonOut& out);  // memory.cpp
  void write_header(JsonOut& out) const;
  void meta(JsonOut& out, std::string_view name, int64_t pid, int64_t tid, std::string_view key,
            std::string_view str_val, int64_t int_val) const;
  void write_trailer(JsonOut& out) const;
  int64_t host_tid(const Ev& e) const { return e.th == 0 ? m_pid : m_autograd_tid; }

  const Options& m_o;
  const Catalog& m_c;
  const int m_rank;
  const int64_t m_pid;
  const int64_t m_autograd_tid;
  const std::string m_trace_name;
  std::array<Dims, 3> m_dims;
  // --shape-scale: how many times longer the GEMMs of operator `name` run.
  int64_t scale_of(std::string_view name) const { return m_o.shape_scale_op == name ? m_o.shape_scale : 1; }
  std::vector<int64_t> m_bucket_elems;
  std::vector<std::string> m_comm_args;   // record_param_comms args per bucket
  std::vector<std::string> m_nccl_attrs;  // NCCL kernel args per bucket
  std::deque<std::string> m_seq_args;     // --comm-seq: record_param_comms args with "Seq" (events view them)
  int64_t m_comm_seq = 0;
  int64_t m_exact_gpu_ns = -1;            // --straggler: the next kernel's exact duration
  const int m_ws;                         // world size
  int m_under = 0;  // open events of --slowdown-under's name
  std::vector<std::string> m_py_modules;  // --python-stack: "nn.Module: Linear_<l>", ReLU, LayerNorm per layer

  std::vector<Ev> m_evs;  // the current step
  std::array<std::vector<int32_t>, 2> m_stack;
  std::array<std::pair<int64_t, int64_t>, 3> m_ann_span{};
  int m_ann = -1;
  std::string m_step_name;
  uint64_t m_step_key = 0;
  uint64_t m_slot_base = 0;
  uint64_t m_slot_ctr = 0;
  std::array<int64_t, 2> m_t{};            // host thread cursors
  std::array<int64_t, 3> m_stream_free{};  // compute, nccl, side (--stream-wait)
  bool m_side_waiting = false;             // --stream-wait: the compute stream waits on the side stream
  int64_t m_ext = 1;
  int64_t m_corr = 0;
  int64_t m_prof_start = 0;
  int64_t m_end = 0;
  // --python-stack
  std::array<std::vector<int32_t>, 2> m_py_stack;
  int64_t m_py_id = 1;
  uint64_t m_py_ctr = 0;
  // --cuda-graphs
  struct Pending {
    const KDesc* k;
    int64_t gpu_ns;
    int stream;
    int64_t bytes;
    std::string_view attrs;
    uint64_t slot;
    bool wait_nccl;
  };
  bool m_capture = false;
  std::vector<Pending> m_pending;
  // --warmup-steps: steps are simulated as without the option, then warped
  // (scaled about their start) or shifted by m_delta on output.
  int64_t m_step_start = 0;
  int64_t m_delta = 0;    // output time - simulated time at the current step's start
  int64_t m_out_end = 0;  // latest output end so far
  // --memory: the GPU allocator's totals so far.
  int64_t m_mem_allocated = k_mem_base;
  int64_t m_mem_reserved = 0;
  int64_t m_mem_addr = 0;
};

}  // namespace tracegen
