// tracegen's shared declarations: the options, the constants of the simulated
// model and the kernel catalog. The simulation itself is in sim.hpp; each .cpp
// file of this folder holds one family of trace shapes (see CMakeLists.txt).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracegen {

inline constexpr int64_t k_us = 1000;                        // time is simulated in integer ns
inline constexpr int64_t k_base_ns = 1735632360000000000;    // baseTimeNanoseconds written by --ns
inline constexpr int64_t k_start_rel_ns = 4458676388068751;  // ~51 days past the base, like real ns traces
inline constexpr int64_t k_ppm = 1000000;
inline constexpr int k_batch = 64;
inline constexpr int k_compute_stream = 7;
inline constexpr int k_nccl_stream = 20;
inline constexpr int k_side_stream = 9;  // --stream-wait
inline constexpr int k_bucket_layers = 4;  // DDP all-reduces gradients every 4 layers

// --- Options ---------------------------------------------------------------

struct Slowdown {
  std::string pattern;
  int64_t factor_ppm;
};

struct Options {
  std::string out_dir;
  int ranks = 2;
  int steps = 4;
  int first_step = 1;
  uint64_t seed = 1;
  bool ns = false;
  bool gzip = false;
  int layers = 4;
  bool layers_set = false;
  bool steps_set = false;
  int64_t target_bytes = 0;
  std::vector<Slowdown> slowdowns;
  std::string slowdown_under;  // --slowdown-under: slowdowns only inside events of this name
  int64_t jitter_ppm = 0;  // +- this fraction of each duration
  int64_t run_offset_ppm = 0;  // --run-offset: one draw in +- this fraction, for the whole run
  int64_t run_factor_ppm = k_ppm;  // the draw itself (main.cpp), on every duration
  int series = 0;              // --series N: N runs in DIR/run-NNN
  int shift_at = 0;            // --shift-at K (1-based)
  int64_t shift_ppm = 0;       // --shift PCT, signed
  std::string shift_name;      // --shift-name: "" shifts every event
  std::vector<std::string> add_kernels;
  // --renamed-kernel NAME (with --series): an extra kernel NAME_<hash> whose hash is the
  // run's, as autotuned or hashed kernel names change from run to run.
  std::vector<std::string> renamed_kernels;
  std::vector<std::string> drop_kernels;
  std::vector<std::string> unlaunched_kernels;  // kernels written without their launch
  int extra_launches = 0;
  std::string prefix = "rank";
  // Pathologies of real traces; every default leaves the output as it was.
  int warmup_steps = 0;
  int64_t warmup_ppm = 10 * k_ppm;
  bool python_stack = false;
  bool step_inside_profiler = false;  // --step-inside-profiler
  bool harness_frame = false;         // --harness-frame
  bool blocking_copy = false;         // --blocking-copy
  int64_t idle_thread_ns = 0;         // --idle-thread MS
  int64_t backlog_ns = 0;             // --first-step-backlog MS
  int64_t py_line_shift = 0;    // --py-line-shift
  std::string py_prefix;        // --py-prefix
  std::string py_address;       // --py-address
  bool legacy_steps = false;
  std::string gpu_name = "NVIDIA A100-SXM4-80GB";
  bool gpu_name_set = false;
  bool amd = false;  // --vendor amd: HIP runtime calls, Tensile GEMMs, Composable Kernel norms
  int gpus = 1;
  int world_size = 0;  // 0: the number of ranks
  int64_t cuda_runtime = -1;  // -1: not written
  int64_t cuda_driver = -1;
  int64_t gpu_ppm = k_ppm;
  bool no_sync = false;
  bool sync_every_layer = false;  // --sync-every-layer
  bool cuda_graphs = false;
  bool graph_from_python = false;  // --graph-from-python
  bool compile = false;
  bool inductor_args = false;  // --inductor-args: kernel_flop / kernel_num_gb on Triton kernels
  int long_names = 0;
  std::string shape_scale_op;  // --shape-scale: aten::mm or aten::addmm
  int64_t shape_scale = 1;     // its N (and its GEMM's GPU time) times this
  int64_t many_names = 0;
  int64_t many_from = 0;
  bool no_profiler_step = false;
  bool infer_loop = false;  // --marker-loop infer
  int64_t algo_swap_pct = -1;  // --algo-swap: the share of layers whose forward GEMM is another algorithm
  int64_t slow_step = -1;      // --slow-step: the step number that runs slow_ppm times slower
  int64_t slow_ppm = k_ppm;
  int64_t loader_us = 0;    // --loader-on-main: 0, none
  bool generic_conv_gemm = false;  // --generic-conv-gemm
  bool comm_exposed = false;       // --comm-exposed
  int64_t launch_gap_ns = 0;       // --launch-gap
  bool stream_wait = false;        // --stream-wait
  int straggler = -1;              // --straggler: the rank that launches each collective late
  int64_t straggler_us = 0;
  bool comm_seq = false;           // --comm-seq: "Seq" on record_param_comms
  // --memory (memory.cpp): [memory] events as profile_memory=True writes them.
  bool memory = false;
  bool memory_old = false;         // --memory-old: Bytes alone, host events' tid a string
  int64_t memory_leak = 0;         // --memory-leak: bytes aten::mse_loss leaks per call
  std::string memory_peak_op;      // --memory-peak OP=BYTES: OP holds BYTES while it runs
  int64_t memory_peak = 0;
  // --bound SHAPE (bound_shapes.cpp): one of k_bound_shapes instead of the training step.
  std::string bound;
};

// --bound's shapes, each named after what bounds its steps (bound_shapes.cpp).
inline constexpr std::array<std::string_view, 5> k_bound_shapes = {"host", "gpu", "launch", "sync", "loader"};

// --memory's numbers (memory.cpp), for tests that check figures against them.
inline constexpr int64_t k_mem_op_bytes = 4096;            // each CPU operator's temporary
inline constexpr int64_t k_mem_base = 1073741824;          // allocated before the profiler started (weights)
inline constexpr int64_t k_mem_reserve_unit = 2097152;     // the caching allocator reserves in these
inline constexpr int64_t k_mem_host_bytes = 1048576;       // each step's host buffer
inline constexpr std::string_view k_mem_leak_op = "aten::mse_loss";

// Thrown by parse_options; main prints it (or the help) and exits 2 (or 0).
struct UsageError {
  std::string message;  // empty: --help
};

extern const std::string_view k_usage;  // the --help text (options.cpp)
Options parse_options(int argc, char** argv);

// --- Kernel catalog (names.cpp; --long-names and --many-names in hostile.cpp) ---

enum class DevCat : uint8_t { Kernel, Memcpy, Memset };

struct KDesc {
  std::string name;
  DevCat cat = DevCat::Kernel;
  std::string attrs;  // launch attributes written after the common kernel args
  bool driver = false;  // launched with cuLaunchKernel (Triton), not cudaLaunchKernel
};

// A Triton kernel of --compile and the args of the cpu_op that launches it.
struct TritonK {
  KDesc k;
  std::string op_args;
};

// Launch attributes written after the common kernel args, per kernel family.
inline constexpr std::string_view k_ew_attrs =
    "\"registers per thread\": 22, \"shared memory\": 0, \"blocks per SM\": 9.481482, \"warps per SM\": 37.925926, "
    "\"grid\": [1024, 1, 1], \"block\": [128, 1, 1], \"est. achieved occupancy %\": 59";
inline constexpr std::string_view k_gemm_attrs =
    "\"registers per thread\": 122, \"shared memory\": 32768, \"blocks per SM\": 1.185185, \"warps per SM\": 9.481482, "
    "\"grid\": [32, 4, 1], \"block\": [256, 1, 1], \"est. achieved occupancy %\": 13";
inline constexpr std::string_view k_reduce_attrs =
    "\"registers per thread\": 32, \"shared memory\": 16, \"blocks per SM\": 0.592593, \"warps per SM\": 2.37037, "
    "\"grid\": [64, 1, 1], \"block\": [32, 4, 1], \"est. achieved occupancy %\": 4";
inline constexpr std::string_view k_ln_attrs =
    "\"registers per thread\": 30, \"shared memory\": 0, \"blocks per SM\": 0.592593, \"warps per SM\": 4.740741, "
    "\"grid\": [64, 1, 1], \"block\": [32, 8, 1], \"est. achieved occupancy %\": 7";
inline constexpr std::string_view k_nccl_attrs =
    "\"registers per thread\": 96, \"shared memory\": 87568, \"blocks per SM\": 0.074074, \"warps per SM\": 1.259259, "
    "\"grid\": [8, 1, 1], \"block\": [544, 1, 1], \"est. achieved occupancy %\": 0";

// Real kernel names (CUDA 12 / PyTorch 2.x spelling) so parsers meet long templated names.
struct Catalog {
  std::array<KDesc, 3> gemm_fwd, gemm_dgrad, gemm_wgrad;  // per layer size class
  std::array<KDesc, 3> gemm_fwd_alt;                       // --algo-swap: another algorithm
  std::array<KDesc, 3> conv_gemm;  // --generic-conv-gemm, per layer size class
  KDesc add, clamp, thresh, pow, mse_bwd, sum, mean, ln_fwd, ln_bwd, gamma_beta, foreach_add, nccl;
  KDesc h2d{"Memcpy HtoD (Pageable -> Device)", DevCat::Memcpy, ""};
  KDesc d2h{"Memcpy DtoH (Device -> Pageable)", DevCat::Memcpy, ""};
  KDesc memset{"Memset (Device)", DevCat::Memset, ""};
  std::vector<KDesc> added;  // --add-kernel
  std::array<TritonK, 3> tri_poi, tri_per;  // --compile, per layer size class
  std::vector<KDesc> long_gemms;            // --long-names
  std::vector<std::string> many_ops;        // --many-names: operator K - many_from
  std::vector<KDesc> many_kernels;          // and the kernel it launches (none for the last of an odd N)

  explicit Catalog(const Options& o);

  static std::string ck_layernorm(std::string_view what);
  // Inductor names the launching cpu_op after the kernel and gives it the
  // source hash, file and grid (a string!) plus "stream": 0 [kineto-trace-format.md].
  static TritonK triton(const std::string& name, std::string_view attrs, int grid);
  // ~1800 characters: a long shared prefix and suffix around a middle that
  // differs per j (warp tile, pipeline stages, policy shape), so that cutting
  // the middle out of the names makes them all look the same.
  static std::string long_gemm_name(int j);
  // --long-names and --many-names (hostile.cpp).
  void add_hostile_names(const Options& o);
};

}  // namespace tracegen
