// tracegen: writes deterministic, Kineto-shaped PyTorch profiler traces (one
// file per rank) for tests, examples and benchmarks. The simulated model is a
// stack of Linear/ReLU/Add/LayerNorm blocks trained with DDP; see --help.
//
// Every random draw is a hash of (seed, rank, step, position in the step
// template) rather than a shared stream, so --slowdown/--add-kernel/
// --drop-kernel/--extra-launches change only what they name: all other
// durations stay identical (to the ns) between a control and a test run.
// The options that reproduce real-trace pathologies keep to this: events they
// add draw from slots of their own, and --warmup-steps stretches or shifts the
// output of an unchanged simulation, so their defaults write what tracegen
// always wrote, byte for byte.

#include "json_out.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace tracegen {
namespace {

constexpr int64_t k_us = 1000;                        // time is simulated in integer ns
constexpr int64_t k_base_ns = 1735632360000000000;    // baseTimeNanoseconds written by --ns
constexpr int64_t k_start_rel_ns = 4458676388068751;  // ~51 days past the base, like real ns traces
constexpr int64_t k_ppm = 1000000;
constexpr int k_batch = 64;
constexpr int k_compute_stream = 7;
constexpr int k_nccl_stream = 20;
constexpr int k_side_stream = 9;  // --stream-wait
constexpr int k_bucket_layers = 4;  // DDP all-reduces gradients every 4 layers

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
  std::vector<std::string> add_kernels;
  std::vector<std::string> drop_kernels;
  std::vector<std::string> unlaunched_kernels;  // kernels written without their launch
  int extra_launches = 0;
  std::string prefix = "rank";
  // Pathologies of real traces; every default leaves the output as it was.
  int warmup_steps = 0;
  int64_t warmup_ppm = 10 * k_ppm;
  bool python_stack = false;
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
};

constexpr std::string_view k_usage = R"(usage: tracegen --out DIR [options]

Writes one Kineto-style trace per rank: DIR/<prefix><rank>.pt.trace.json[.gz].
Identical arguments give byte-identical files.

  --out DIR                 output directory (created if missing)
  --ranks N                 number of ranks = files (default 2)
  --steps N                 ProfilerStep iterations per file (default 4)
  --first-step N            number of the first ProfilerStep#N (default 1)
  --seed S                  random seed (default 1)
  --ns                      relative microseconds with 3 decimals plus baseTimeNanoseconds
                            (default: integer epoch microseconds)
  --gzip                    gzip the files (.json.gz)
  --layers N                model size; each layer adds ~90 events per step (default 4)
  --target-mb MB            choose steps (or layers, when --steps is given) so that each
                            file holds about MB (10^6 bytes) of JSON; layers default to 32
  --slowdown NAME=FACTOR    multiply the duration of every event whose name contains NAME
                            (CPU op, annotation, runtime call or kernel); repeatable
  --slowdown-under SCOPE    apply --slowdown only inside an open event (operator, annotation
                            or Python frame) whose name contains SCOPE, and to it: one call
                            path slows, the same names elsewhere do not (with --python-stack,
                            "nn.Module: Linear_2" is one layer)
  --jitter PCT              random +-PCT% noise on every duration (default 0)
  --add-kernel NAME         launch an extra kernel NAME from each layer's aten::add; repeatable
  --drop-kernel NAME        omit launches of kernels whose name contains NAME; repeatable
  --unlaunched-kernel NAME  write kernels whose name contains NAME without their launch (the
                            cudaLaunchKernel and its flow left out, the kernel kept with its
                            correlation), as graph replays and launches on threads or before
                            the window the profiler did not record look; repeatable
  --extra-launches N        N extra aten::add launches of the add kernel per step (default 0)
  --name-prefix P           file name prefix (default "rank")

Pathologies of real traces (none of them is on by default):
  --warmup-steps N          the first N steps of every file run F times slower: every host,
                            runtime and GPU duration is multiplied by F; later steps keep their
                            events and only start later (default 0)
  --warmup-factor F         the slowdown of the warm-up steps (default 10)
  --python-stack            python_function events as with with_stack=True: nn.Module frames and
                            module.py _call_impl/_wrapped_call_impl nested inside themselves, and a
                            recursive _pytree.py tree_map, enclosing the ops they call
  --py-line-shift N         write every Python frame `file.py(LINE): f` with LINE + N (another
                            version of the same code)
  --py-prefix DIR           write Python frames' file paths under DIR (an install prefix such as
                            /opt/venv/lib/python3.11/site-packages/)
  --py-address HEX          write built-in method frames with " at 0xHEX…" object addresses, as
                            CPython's repr does (one address per name, from HEX up)
  --legacy-steps            ProfilerStep#N spans with cat "cpu_op" (PyTorch <= 1.8) instead of
                            "user_annotation"
  --gpu-name NAME           deviceProperties name (default "NVIDIA A100-SXM4-80GB"); names with
                            V100, H100 or MI300 get that GPU's properties
  --vendor nvidia|amd       whose library names the kernels (default nvidia: cuBLAS/CUTLASS GEMMs,
                            PyTorch's layer norm, cuda* runtime calls); amd: Tensile GEMMs
                            (Cijk_...), Composable Kernel layer norms (ck_tile::Layernorm2d...),
                            hip* runtime calls, GPU name "AMD Instinct MI300X" unless --gpu-name
  --gpus N                  deviceProperties entries, ids 0..N-1 (default 1)
  --world-size N            distributedInfo.world_size and collective group size, >= --ranks
                            (default: the number of ranks)
  --cuda-runtime N          write top-level "cuda_runtime_version": N (e.g. 12040)
  --cuda-driver N           write top-level "cuda_driver_version": N (e.g. 12020)
  --gpu-factor F            multiply every GPU duration (kernels, memcpy, memset) by F (default 1)
  --no-sync                 leave out the aten::item/cudaStreamSynchronize of every other step,
                            so the host never waits for the GPU
  --sync-every-layer        after each layer's forward, a loss-style .item(): aten::item >
                            aten::_local_scalar_dense > cudaMemcpyAsync (Memcpy DtoH, Device ->
                            Pageable) + cudaStreamSynchronize, the host waiting for the GPU work
                            queued before it (a host sync in the middle of the step)
  --cuda-graphs             each step's forward kernels run from one cudaGraphLaunch (under a
                            "CUDAGraph::replay" op) and carry "graph id"/"graph node id"
  --graph-from-python       with --cuda-graphs: the graph is launched from Python with no
                            "CUDAGraph::replay" op around it (as decode loops of serving engines do)
  --generic-conv-gemm       each layer's forward starts with a convolution (aten::conv2d >
                            aten::convolution > aten::_convolution > aten::cudnn_convolution)
                            whose one kernel is a generic cuBLAS SGEMM (ampere_sgemm_*_nn), as
                            cuDNN runs 1x1 and batched convolutions: a GEMM name for conv work
                            (with --vendor amd: a MIOpen igemm_fwd_* convolution kernel)
  --compile                 the model's forward as torch.compile runs it: a "Torch-Compiled
                            Region: 0/0" op, Triton kernels launched by cuLaunchKernel from cpu_ops
                            named after them (kernel_backend, kernel_hash, grid, stream args)
  --long-names N            N distinct CUTLASS GEMM kernels with ~1800-character names that differ
                            only in the middle, launched from the layers' aten::addmm (default 0)
  --many-names N            N more distinct names: CPU operators aten::many_K, every one but the
                            last of an odd N launching a kernel of its own whose ~100-character
                            name differs from the others only in the middle; operator K runs in
                            step K % steps only, so a step holds N / steps of them (default 0)
  --shape-scale OP=F        OP (aten::mm or aten::addmm) multiplies a [M,K] by a [K,F*N] matrix
                            instead of [K,N] ("Input Dims"), and its GEMM kernels run F times
                            as long: a GEMM that changed shape (default: none)
  --many-names-from K       number them from K (default 0): two sides with a different K share
                            all names but the first and last ones
  --no-profiler-step        leave out the ProfilerStep#N spans (traces that mark iterations in
                            other ways; tracediff --step-marker)
  --marker-loop train|infer train: the training loop as without the option, where a short
                            Optimizer.step#SGD.step annotation near the end of each iteration
                            marks it (its only mark with --no-profiler-step); infer: a decode
                            loop, forward only (no loss, backward or optimizer), each iteration
                            also a "step[DECODE bs=32]" user_annotation as long as its
                            ProfilerStep span
  --loader-on-main MS       a single-process DataLoader on the main thread: each step opens with
                            an "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
                            annotation of about MS ms (aten::stack, aten::pin_memory inside),
                            before the input copy; leave it out on one side of a pair for work
                            that left the main thread (default: none)

  --comm-exposed            with several ranks: the gradient all-reduces run after the whole backward
                            instead of after each bucket's layers, so no computation overlaps them
  --launch-gap US           US microseconds of host time before each forward launch on the main
                            thread (a slow Python loop between small kernels): the GPU idles
                            waiting for launches
  --stream-wait             each layer's backward aten::sum kernel runs on a second stream (9) that
                            waits on an event of the compute stream, and the compute stream's next
                            kernel waits on an event of it

  --algo-swap PCT           the forward GEMMs of the first PCT% of layers run as another cuBLAS
                            algorithm (an xmma kernel of the same duration): two sides with other
                            PCT are an algorithm swap at constant GEMM time (default: none)
  --slow-step N=F           ProfilerStep#N (and everything in it) runs F times slower, as
                            --warmup-steps stretches a step: one outlier step (default: none)

  --straggler RANK=US       rank RANK's host spends US more before each collective's launch, so
                            the other ranks' NCCL kernels wait US longer inside; every rank's
                            NCCL kernel then runs its exact size-based time (no variation): the
                            others' kernels take exactly US more per collective (default: none)
  --comm-seq                record_param_comms carries the collective's NCCL sequence number
                            ("Seq", counted per process group from 0) as PyTorch 2.4+ writes it

  -h, --help                show this help
)";

struct UsageError {
  std::string message;  // empty: --help
};

int64_t parse_int(std::string_view flag, std::string_view s, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) {
    throw UsageError{std::string(flag) + ": expected an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + std::string(s) + "'"};
  }
  return v;
}

// Decimal text -> value * 10^6, without floating point or locale.
int64_t parse_ppm(std::string_view flag, std::string_view s, int64_t max_whole) {
  int64_t whole = 0;
  int64_t frac = 0;
  int digits = 0;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    whole = std::min(whole * 10 + (s[i] - '0'), max_whole + 1);
  }
  const bool any = i > 0;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (digits < 6) {
        frac = frac * 10 + (s[i] - '0');
        ++digits;
      }
    }
  }
  if (!any || i != s.size() || whole > max_whole) {
    throw UsageError{std::string(flag) + ": expected a decimal number in [0, " + std::to_string(max_whole) +
                     "], got '" + std::string(s) + "'"};
  }
  for (; digits < 6; ++digits) {
    frac *= 10;
  }
  return whole * k_ppm + frac;
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool have_out = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      throw UsageError{};
    }
    if (a == "--ns" || a == "--gzip") {
      (a == "--ns" ? o.ns : o.gzip) = true;
      continue;
    }
    if (bool* flag = a == "--python-stack"   ? &o.python_stack
                     : a == "--legacy-steps" ? &o.legacy_steps
                     : a == "--no-sync"      ? &o.no_sync
                     : a == "--sync-every-layer" ? &o.sync_every_layer
                     : a == "--cuda-graphs"  ? &o.cuda_graphs
                     : a == "--graph-from-python" ? &o.graph_from_python
                     : a == "--compile"      ? &o.compile
                     : a == "--no-profiler-step" ? &o.no_profiler_step
                     : a == "--generic-conv-gemm" ? &o.generic_conv_gemm
                     : a == "--comm-exposed" ? &o.comm_exposed
                     : a == "--stream-wait"  ? &o.stream_wait
                     : a == "--comm-seq"     ? &o.comm_seq
                                             : nullptr) {
      *flag = true;
      continue;
    }
    if (i + 1 >= argc) {
      throw UsageError{"unknown option or missing value: " + std::string(a)};
    }
    const std::string_view v = argv[++i];
    if (a == "--out") {
      o.out_dir = std::string(v);
      have_out = !v.empty();
    } else if (a == "--ranks") {
      o.ranks = static_cast<int>(parse_int(a, v, 1, 4096));
    } else if (a == "--steps") {
      o.steps = static_cast<int>(parse_int(a, v, 1, 10000000));
      o.steps_set = true;
    } else if (a == "--first-step") {
      o.first_step = static_cast<int>(parse_int(a, v, 0, 1000000000));
    } else if (a == "--seed") {
      o.seed = static_cast<uint64_t>(parse_int(a, v, 0, INT64_MAX));
    } else if (a == "--layers") {
      o.layers = static_cast<int>(parse_int(a, v, 1, 1000000));
      o.layers_set = true;
    } else if (a == "--target-mb") {
      o.target_bytes = parse_ppm(a, v, 1000000);  // MB * 10^6 = bytes
      if (o.target_bytes == 0) {
        throw UsageError{"--target-mb must be positive"};
      }
    } else if (a == "--py-line-shift") {
      o.py_line_shift = parse_int(a, v, -1000, 100000);
    } else if (a == "--py-prefix") {
      o.py_prefix = std::string(v);
    } else if (a == "--py-address") {
      if (v.empty() || v.find_first_not_of("0123456789abcdef") != std::string_view::npos)
        throw UsageError{"--py-address: expected lower-case hex digits"};
      o.py_address = std::string(v);
    } else if (a == "--slowdown-under") {
      if (v.empty()) throw UsageError{"--slowdown-under: empty name"};
      o.slowdown_under = std::string(v);
    } else if (a == "--slowdown") {
      const auto eq = v.rfind('=');
      if (eq == std::string_view::npos || eq == 0) {
        throw UsageError{"--slowdown: expected NAME=FACTOR, got '" + std::string(v) + "'"};
      }
      // Capped at 1000 so that ns * factor_ppm stays inside int64.
      const int64_t f = parse_ppm(a, v.substr(eq + 1), 1000);
      if (f == 0) {
        throw UsageError{"--slowdown: FACTOR must be positive"};
      }
      o.slowdowns.push_back({std::string(v.substr(0, eq)), f});
    } else if (a == "--jitter") {
      o.jitter_ppm = parse_ppm(a, v, 99) / 100;
    } else if (a == "--unlaunched-kernel") {
      if (v.empty()) throw UsageError{"--unlaunched-kernel: empty name"};
      o.unlaunched_kernels.emplace_back(v);
    } else if (a == "--add-kernel" || a == "--drop-kernel") {
      if (v.empty()) {
        throw UsageError{std::string(a) + ": empty name"};
      }
      (a == "--add-kernel" ? o.add_kernels : o.drop_kernels).emplace_back(v);
    } else if (a == "--extra-launches") {
      o.extra_launches = static_cast<int>(parse_int(a, v, 0, 1000000));
    } else if (a == "--name-prefix") {
      o.prefix = std::string(v);
    } else if (a == "--algo-swap") {
      o.algo_swap_pct = parse_int(a, v, 0, 100);
    } else if (a == "--straggler") {
      const auto eq = v.find('=');
      if (eq == std::string_view::npos) throw UsageError{"--straggler: expected RANK=US, got '" + std::string(v) + "'"};
      o.straggler = static_cast<int>(parse_int(a, v.substr(0, eq), 0, 1000000));
      o.straggler_us = parse_int(a, v.substr(eq + 1), 0, 1000000000);
    } else if (a == "--slow-step") {
      const auto eq = v.find('=');
      if (eq == std::string_view::npos) throw UsageError{"--slow-step: expected N=FACTOR, got '" + std::string(v) + "'"};
      o.slow_step = parse_int(a, v.substr(0, eq), 0, INT32_MAX);
      o.slow_ppm = parse_ppm(a, v.substr(eq + 1), 1000);
      if (o.slow_ppm == 0) throw UsageError{"--slow-step: FACTOR must be positive"};
    } else if (a == "--warmup-steps") {
      o.warmup_steps = static_cast<int>(parse_int(a, v, 0, 10000000));
    } else if (a == "--warmup-factor" || a == "--gpu-factor") {
      // Capped at 1000 so that ns * factor_ppm stays inside int64.
      const int64_t f = parse_ppm(a, v, 1000);
      if (f == 0) {
        throw UsageError{std::string(a) + " must be positive"};
      }
      (a == "--warmup-factor" ? o.warmup_ppm : o.gpu_ppm) = f;
    } else if (a == "--gpu-name") {
      if (v.empty()) {
        throw UsageError{"--gpu-name: empty name"};
      }
      o.gpu_name = std::string(v);
      o.gpu_name_set = true;
    } else if (a == "--vendor") {
      if (v != "nvidia" && v != "amd") {
        throw UsageError{"--vendor: expected nvidia or amd, got '" + std::string(v) + "'"};
      }
      o.amd = v == "amd";
    } else if (a == "--gpus") {
      o.gpus = static_cast<int>(parse_int(a, v, 1, 1024));
    } else if (a == "--world-size") {
      o.world_size = static_cast<int>(parse_int(a, v, 1, 1000000));
    } else if (a == "--cuda-runtime" || a == "--cuda-driver") {
      (a == "--cuda-runtime" ? o.cuda_runtime : o.cuda_driver) = parse_int(a, v, 0, INT32_MAX);
    } else if (a == "--long-names") {
      o.long_names = static_cast<int>(parse_int(a, v, 0, 4096));
    } else if (a == "--many-names") {
      o.many_names = parse_int(a, v, 0, 100000000);
    } else if (a == "--shape-scale") {
      const auto eq = v.rfind('=');
      const std::string_view name = eq == std::string_view::npos ? v : v.substr(0, eq);
      if (eq == std::string_view::npos || (name != "aten::mm" && name != "aten::addmm")) {
        throw UsageError{"--shape-scale: expected aten::mm=F or aten::addmm=F, got '" + std::string(v) + "'"};
      }
      o.shape_scale_op = std::string(name);
      o.shape_scale = parse_int(a, v.substr(eq + 1), 1, 64);
    } else if (a == "--loader-on-main") {
      o.loader_us = parse_int(a, v, 1, 100000) * 1000;
    } else if (a == "--launch-gap") {
      o.launch_gap_ns = parse_int(a, v, 0, 1000000) * k_us;
    } else if (a == "--many-names-from") {
      o.many_from = parse_int(a, v, 0, 1000000000);
    } else if (a == "--marker-loop") {
      if (v != "train" && v != "infer") {
        throw UsageError{"--marker-loop: expected train or infer, got '" + std::string(v) + "'"};
      }
      o.infer_loop = v == "infer";
    } else {
      throw UsageError{"unknown option: " + std::string(a)};
    }
  }
  if (!have_out) {
    throw UsageError{"--out DIR is required"};
  }
  if (o.target_bytes > 0 && o.layers_set && o.steps_set) {
    throw UsageError{"--target-mb picks steps or layers; give at most one of --steps and --layers"};
  }
  if (o.amd && !o.gpu_name_set) {
    o.gpu_name = "AMD Instinct MI300X";
  }
  if (o.world_size == 0) {
    o.world_size = o.ranks;
  } else if (o.world_size < o.ranks) {
    throw UsageError{"--world-size must be at least --ranks"};
  }
  return o;
}

// --- Kernel catalog ----------------------------------------------------------

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

constexpr std::string_view k_ew_attrs =
    "\"registers per thread\": 22, \"shared memory\": 0, \"blocks per SM\": 9.481482, \"warps per SM\": 37.925926, "
    "\"grid\": [1024, 1, 1], \"block\": [128, 1, 1], \"est. achieved occupancy %\": 59";
constexpr std::string_view k_gemm_attrs =
    "\"registers per thread\": 122, \"shared memory\": 32768, \"blocks per SM\": 1.185185, \"warps per SM\": 9.481482, "
    "\"grid\": [32, 4, 1], \"block\": [256, 1, 1], \"est. achieved occupancy %\": 13";
constexpr std::string_view k_reduce_attrs =
    "\"registers per thread\": 32, \"shared memory\": 16, \"blocks per SM\": 0.592593, \"warps per SM\": 2.37037, "
    "\"grid\": [64, 1, 1], \"block\": [32, 4, 1], \"est. achieved occupancy %\": 4";
constexpr std::string_view k_ln_attrs =
    "\"registers per thread\": 30, \"shared memory\": 0, \"blocks per SM\": 0.592593, \"warps per SM\": 4.740741, "
    "\"grid\": [64, 1, 1], \"block\": [32, 8, 1], \"est. achieved occupancy %\": 7";
constexpr std::string_view k_nccl_attrs =
    "\"registers per thread\": 96, \"shared memory\": 87568, \"blocks per SM\": 0.074074, \"warps per SM\": 1.259259, "
    "\"grid\": [8, 1, 1], \"block\": [544, 1, 1], \"est. achieved occupancy %\": 0";

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

  explicit Catalog(const Options& o) {
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
      }
    }
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

  static std::string ck_layernorm(std::string_view what) {
    const std::string w(what);
    return "void ck_tile::kentry<256, 1, ck_tile::" + w + "<ck_tile::" + w +
           "PipelineOnePass<ck_tile::Generic2dBlockShape<ck_tile::sequence<1, 1024>, ck_tile::sequence<1, 256>, "
           "ck_tile::sequence<1, 4> >, float, float> > >(ck_tile::" + w + "::Kargs)";
  }

  // Inductor names the launching cpu_op after the kernel and gives it the
  // source hash, file and grid (a string!) plus "stream": 0 [kineto-trace-format.md].
  static TritonK triton(const std::string& name, std::string_view attrs, int grid) {
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

  // ~1800 characters: a long shared prefix and suffix around a middle that
  // differs per j (warp tile, pipeline stages, policy shape), so that cutting
  // the middle out of the names makes them all look the same.
  static std::string long_gemm_name(int j) {
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
};

// --- Simulation --------------------------------------------------------------

enum class Kind : uint8_t { CpuOp, UserAnn, Runtime, Device, Sync, GpuAnn, PyFunc };
enum class Api : uint8_t { LaunchKernel, MemcpyAsync, MemsetAsync, StreamSync, GraphLaunch, CuLaunchKernel };

constexpr std::array<std::string_view, 6> k_api_name = {"cudaLaunchKernel",      "cudaMemcpyAsync", "cudaMemsetAsync",
                                                        "cudaStreamSynchronize", "cudaGraphLaunch", "cuLaunchKernel"};
// ROCm's Kineto writes HIP API calls (under cat "cuda_runtime").
constexpr std::array<std::string_view, 6> k_hip_api_name = {"hipLaunchKernel",      "hipMemcpyAsync", "hipMemsetAsync",
                                                            "hipStreamSynchronize", "hipGraphLaunch",
                                                            "hipModuleLaunchKernel"};
constexpr std::array<int, 6> k_api_cbid = {211, 41, 51, 131, 311, 307};

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

uint64_t mix64(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Layer sizes cycle so that kernels differ in name and duration across layers.
constexpr std::array<size_t, 4> k_size_cycle = {1, 2, 0, 1};
constexpr std::array<int64_t, 3> k_hidden = {1024, 2048, 4096};
// GPU time in us per size class; a bit more than the CPU needs to launch it,
// so the GPU lags and work spills into the next step between syncs.
constexpr std::array<int64_t, 3> k_gemm_us = {22, 50, 135};
constexpr std::array<int64_t, 3> k_ew_us = {3, 5, 9};
constexpr std::array<int64_t, 3> k_ln_us = {5, 8, 14};
constexpr std::array<int64_t, 3> k_lnb_us = {7, 12, 22};
constexpr std::array<int64_t, 3> k_sum_us = {4, 6, 10};

size_t size_of(int layer) { return k_size_cycle[static_cast<size_t>(layer) % k_size_cycle.size()]; }

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
constexpr uint64_t k_slot_added = 0x8000;  // --add-kernel
constexpr uint64_t k_slot_long = 0xA000;   // --long-names (at most 4096 per layer)
constexpr uint64_t k_slot_conv = 0xB000;   // --generic-conv-gemm
// Counter of aten::addmm in a layer's forward region; --compile reuses it and
// the next (the GEMM launch), so the GEMMs keep their eager-mode durations.
constexpr uint64_t k_slot_fwd_addmm = 4;

// A Python frame of --python-stack; module >= 0 for "nn.Module: ..." frames.
struct PyFrame {
  std::string_view name;
  int32_t module = -1;
};

constexpr std::string_view k_call_impl = "torch/nn/modules/module.py(1762): _call_impl";
constexpr std::string_view k_wrapped_call_impl = "torch/nn/modules/module.py(1751): _wrapped_call_impl";
constexpr std::string_view k_tree_map = "torch/utils/_pytree.py(900): tree_map";

// A Python frame's name as another version or install writes it (--py-line-shift,
// --py-prefix, --py-address); the name itself without those options.
std::string py_frame_name(const Options& o, std::string_view name) {
  std::string out(name);
  const auto close = out.find("): ");
  const auto open = close == std::string::npos ? std::string::npos : out.rfind('(', close);
  if (open != std::string::npos && !out.starts_with('<')) {
    if (o.py_line_shift != 0) {
      const int64_t line = std::stoll(out.substr(open + 1, close - open - 1)) + o.py_line_shift;
      out.replace(open + 1, close - open - 1, std::to_string(line < 1 ? 1 : line));
    }
    if (!o.py_prefix.empty()) out.insert(0, o.py_prefix);
  }
  if (!o.py_address.empty() && out.starts_with("<built-in method ") && out.ends_with(" object>")) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a: one object per name, as in one process
    for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(std::stoull(o.py_address, nullptr, 16) + 16 * (h % 65536)));
    out.insert(out.size() - 1, std::string(" at 0x") + hex);
  }
  return out;
}

// ns * ppm / 10^6 without overflow for ppm <= 10^9 (factors up to 1000), exact.
int64_t mul_ppm(int64_t ns, int64_t ppm) { return ns / k_ppm * ppm + ns % k_ppm * ppm / k_ppm; }

class Sim {
 public:
  Sim(const Options& o, const Catalog& c, int rank, std::string trace_name);

  void write(JsonOut& out) {
    write_header(out);
    // Kineto writes all host ops first, then the CUPTI records (runtime calls
    // and device activity). Simulating twice keeps memory at one step.
    for (const bool host : {true, false}) {
      reset();
      for (int i = 0; i < m_o.steps; ++i) {
        build_step(i);
        if (m_o.warmup_steps > 0 || m_o.slow_step >= 0) {
          warp_step(i);
        }
        host ? emit_host(out) : emit_device(out);
      }
    }
    write_trailer(out);
  }

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

  // --loader-on-main: the batch collated and pinned on the main thread, as a
  // DataLoader without workers does; the parts add up to the option's duration.
  void loader_on_main() {
    const int64_t us = m_o.loader_us;
    const Scope next = ann("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, us / 20, us / 20);
    {
      const Scope stack = op("aten::stack", 0, us / 10, us / 20);
      leaf("aten::cat", 0, us * 3 / 10);
    }
    const Scope pin = op("aten::pin_memory", 0, us / 20, us / 20);
    leaf("aten::copy_", 0, us * 7 / 20);
  }

  // --python-stack: Python frames, outermost first, open for the C++ scope's
  // lifetime around the ops made inside it; nothing at all without the option.
  class PyChain {
   public:
    PyChain(Sim& sim, int th, std::initializer_list<PyFrame> frames) : m_sim(sim) {
      if (sim.m_o.python_stack) {
        for (const PyFrame& f : frames) {
          m_idx.at(m_n++) = sim.open_py(f, th);
        }
      }
    }
    PyChain(const PyChain&) = delete;
    PyChain& operator=(const PyChain&) = delete;
    ~PyChain() {
      while (m_n > 0) {
        m_sim.close_py(m_idx[--m_n]);
      }
    }

   private:
    Sim& m_sim;
    std::array<int32_t, 8> m_idx{};
    size_t m_n = 0;
  };

  // Python frames draw their call overhead from their own region, so they
  // shift timestamps but never the draws of other events.
  int32_t open_py(const PyFrame& f, int th) {
    const size_t t = static_cast<size_t>(th);
    const uint64_t slot = (uint64_t{R_PY} << 40) | m_py_ctr++;
    const int64_t parent = m_py_stack[t].empty() ? 0 : at(m_py_stack[t].back()).ext;
    const int32_t idx = push({.kind = Kind::PyFunc, .name = f.name, .ts = m_t[t], .th = static_cast<uint8_t>(th),
                              .slot = slot, .ext = m_py_id++, .py_parent = parent, .py_module = f.module});
    m_t[t] += vary(f.name.starts_with('<') ? 500 : f.module >= 0 ? 2500 : 1200, slot, 1);
    m_py_stack[t].push_back(idx);
    m_under += in_scope(f.name);
    return idx;
  }

  void close_py(int32_t idx) {
    Ev& e = at(idx);
    const size_t t = e.th;
    m_t[t] += vary(e.name.starts_with('<') ? 300 : 700, e.slot, 2);
    e.dur = m_t[t] - e.ts;
    m_py_stack[t].pop_back();
    m_under -= in_scope(e.name);
  }

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
  int64_t vary(int64_t ns, uint64_t slot, uint64_t salt) const {
    const auto d = static_cast<int64_t>(rnd(slot, salt) % 80001) - 40000;
    return ns * (k_ppm + d) / k_ppm;
  }

  // --slowdown and --jitter.
  int64_t scaled(std::string_view name, int64_t ns, uint64_t slot) const {
    for (const auto& s : m_o.slowdowns) {
      if (name.find(s.pattern) != std::string_view::npos && (m_o.slowdown_under.empty() || m_under > 0)) {
        ns = ns * s.factor_ppm / k_ppm;
      }
    }
    if (m_o.jitter_ppm > 0) {
      const auto span = static_cast<uint64_t>(2 * m_o.jitter_ppm + 1);
      ns = ns * (k_ppm + static_cast<int64_t>(rnd(slot, 7) % span) - m_o.jitter_ppm) / k_ppm;
    }
    return std::max<int64_t>(ns, 1);
  }

  void region(Region r, uint64_t index) {
    m_slot_base = (static_cast<uint64_t>(r) << 40) | (index << 16);
    m_slot_ctr = 0;
  }
  uint64_t next_slot() { return m_slot_base + m_slot_ctr++; }
  void set_step_key(uint64_t step) {
    m_step_key = mix64(mix64(mix64(m_o.seed ^ 0x7472616365ULL) ^ static_cast<uint64_t>(m_rank)) ^ step);
  }
  Ev& at(int32_t idx) { return m_evs[static_cast<size_t>(idx)]; }
  int32_t push(const Ev& e) {
    m_evs.push_back(e);
    return static_cast<int32_t>(m_evs.size() - 1);
  }

  void reset() {
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

  int32_t open(Kind kind, std::string_view name, int th, int64_t pre_us, std::string_view extra, int32_t seq,
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
  // --slowdown-under: how many events of the scope's name are open (the sim makes one
  // thread's events at a time, so a count over all threads is the count on this one).
  int in_scope(std::string_view name) const {
    return !m_o.slowdown_under.empty() && name.find(m_o.slowdown_under) != std::string_view::npos ? 1 : 0;
  }

  void close(int32_t idx, int64_t post_us) {
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

  // A runtime call at the thread's cursor, linked to the innermost open op.
  int32_t runtime(int th, Api api, uint64_t slot) {
    const size_t t = static_cast<size_t>(th);
    m_corr += 1 + static_cast<int64_t>(rnd(slot, 3) % 3 == 0);  // gaps, as for blocklisted API calls
    const auto& names = m_o.amd ? k_hip_api_name : k_api_name;
    return push({.kind = Kind::Runtime, .name = names[static_cast<size_t>(api)], .ts = m_t[t],
                 .th = static_cast<uint8_t>(th), .slot = slot,
                 .ext = m_stack[t].empty() ? 0 : at(m_stack[t].back()).ext, .api = api, .corr = m_corr});
  }

  // GPU work launched by runtime call rt; node >= 0 for the nodes of a graph launch.
  int32_t queue_device(int32_t rt, const KDesc& k, int64_t gpu_ns, int stream, int64_t bytes, std::string_view attrs,
                       uint64_t slot, bool wait_nccl, int32_t node) {
    const size_t si = stream == k_nccl_stream ? 1 : stream == k_side_stream ? 2 : 0;
    // The GPU starts after the launch and after earlier work on its stream.
    int64_t g0 = std::max(at(rt).ts + vary(2600, slot, 4), m_stream_free[si] + vary(900, slot, 5));
    if (si == 1 || wait_nccl) {  // cudaStreamWaitEvent on the other stream
      g0 = std::max(g0, m_stream_free[1 - si] + vary(1500, slot, 6));
    }
    // --stream-wait: the side stream waits on the compute stream's event, the compute
    // stream's next kernel on the side stream's (draws of salts no one else uses).
    if (si == 2) {
      g0 = std::max(g0, m_stream_free[0] + vary(1500, slot, 10));
      m_side_waiting = true;
    } else if (si == 0 && m_side_waiting) {
      g0 = std::max(g0, m_stream_free[2] + vary(1500, slot, 11));
      m_side_waiting = false;
    }
    int64_t gd = m_exact_gpu_ns >= 0 ? m_exact_gpu_ns : scaled(k.name, vary(gpu_ns, slot, 8), slot);
    if (m_o.gpu_ppm != k_ppm && m_exact_gpu_ns < 0) {
      gd = std::max<int64_t>(mul_ppm(gd, m_o.gpu_ppm), 1);
    }
    m_stream_free[si] = g0 + gd;
    if (m_ann >= 0) {
      auto& span = m_ann_span[static_cast<size_t>(m_ann)];
      span = {std::min(span.first, g0), std::max(span.second, g0 + gd)};
    }
    m_end = std::max(m_end, g0 + gd);
    return push({.kind = Kind::Device, .name = k.name, .ts = g0, .dur = gd, .th = static_cast<uint8_t>(stream),
                 .slot = slot, .ext = at(rt).ext, .extra = attrs, .corr = at(rt).corr, .link = rt, .k = &k,
                 .bytes = bytes, .gnode = node});
  }

  void launch_at(int th, const KDesc& k, int64_t gpu_ns, int stream, int64_t bytes, std::string_view attrs,
                 uint64_t slot, bool wait_nccl) {
    if (m_capture) {  // --cuda-graphs: the graph launch at the end of the forward runs it
      m_pending.push_back({&k, gpu_ns, stream, bytes, attrs, slot, wait_nccl});
      return;
    }
    if (m_o.launch_gap_ns > 0 && th == 0 && m_ann == 0) {
      m_t[0] += m_o.launch_gap_ns;  // --launch-gap: host time before the forward's launches
    }
    const Api api = k.driver                  ? Api::CuLaunchKernel
                    : k.cat == DevCat::Kernel ? Api::LaunchKernel
                    : k.cat == DevCat::Memcpy ? Api::MemcpyAsync
                                              : Api::MemsetAsync;
    const int32_t rt = runtime(th, api, slot);
    const int32_t dev = queue_device(rt, k, gpu_ns, stream, bytes, attrs, slot, wait_nccl, -1);
    Ev& r = at(rt);
    r.link = dev;
    r.dur = scaled(r.name, vary(api == Api::LaunchKernel || api == Api::CuLaunchKernel ? 4500 : 7000, slot, 9), slot);
    m_t[static_cast<size_t>(th)] = r.ts + r.dur;
  }

  // --cuda-graphs: one cudaGraphLaunch for everything launched since
  // m_capture was set; all nodes share its correlation id.
  void graph_launch(int th) {
    m_capture = false;
    if (m_pending.empty()) {
      return;
    }
    const uint64_t slot = next_slot();
    const int32_t rt = runtime(th, Api::GraphLaunch, slot);
    int32_t first = -1;
    for (size_t n = 0; n < m_pending.size(); ++n) {
      const Pending& p = m_pending[n];
      const int32_t dev = queue_device(rt, *p.k, p.gpu_ns, p.stream, p.bytes, p.attrs, p.slot, p.wait_nccl,
                                       static_cast<int32_t>(n));
      first = first < 0 ? dev : first;
    }
    m_pending.clear();
    Ev& r = at(rt);
    r.link = first;
    r.dur = scaled(r.name, vary(9000, slot, 9), slot);
    m_t[static_cast<size_t>(th)] = r.ts + r.dur;
  }

  // --long-names: kernel j runs from the addmm of layer j % layers.
  void long_launches(int l) {
    const size_t s = size_of(l);
    for (size_t j = static_cast<size_t>(l); j < m_c.long_gemms.size(); j += static_cast<size_t>(m_o.layers)) {
      const KDesc& k = m_c.long_gemms[j];
      launch_at(0, k, k_gemm_us[s] * k_us / 2, k_compute_stream, 0, k.attrs,
                m_slot_base | k_slot_long | (j / static_cast<size_t>(m_o.layers)), false);
    }
  }

  // --many-names: operator K (with its kernel) runs in step K % steps.
  void many_launches(int i) {
    const auto steps = static_cast<size_t>(m_o.steps);
    const size_t first = (static_cast<size_t>(i) + steps - static_cast<size_t>(m_o.many_from) % steps) % steps;
    for (size_t j = first; j < m_c.many_ops.size(); j += steps) {
      const Scope s = op(m_c.many_ops[j], 0, 2, 1);
      if (j < m_c.many_kernels.size()) {
        launch(0, m_c.many_kernels[j], 1);
      }
    }
  }

  void launch(int th, const KDesc& k, int64_t gpu_us, int stream = k_compute_stream, int64_t bytes = 0,
              std::string_view attrs = {}, bool wait_nccl = false) {
    const uint64_t slot = next_slot();  // taken even when dropped, so later slots don't shift
    for (const auto& d : m_o.drop_kernels) {
      if (k.name.find(d) != std::string::npos) {
        return;
      }
    }
    launch_at(th, k, gpu_us * k_us, stream, bytes, attrs.empty() ? std::string_view(k.attrs) : attrs, slot,
              wait_nccl);
  }

  void stream_sync(int th) {
    const uint64_t slot = next_slot();
    const int32_t rt = runtime(th, Api::StreamSync, slot);
    Ev& r = at(rt);
    const int64_t end = std::max(r.ts + vary(2500, slot, 4), m_stream_free[0] + vary(1500, slot, 5));
    r.dur = scaled(r.name, end - r.ts, slot);
    m_t[static_cast<size_t>(th)] = r.ts + r.dur;
    Ev s = r;
    s.kind = Kind::Sync;
    s.name = "Stream Sync";
    s.th = k_compute_stream;
    s.link = rt;
    at(rt).link = push(s);
  }

  // tensor.item(): a copy to pageable host memory, then the host waits for the stream.
  void item_sync() {
    const PyChain py(*this, 0, {{"<method 'item' of 'torch._C.TensorBase' objects>"}});
    const Scope item = op("aten::item", 0, 3, 1);
    const Scope dense = op("aten::_local_scalar_dense", 0, 4, 2);
    launch(0, m_c.d2h, 2, k_compute_stream, 4);
    stream_sync(0);
  }

  // GPU-side spans are kept for forward (0), backward (1) and optimizer (2).
  void begin_gpu_ann(int which) {
    m_ann = which;
    m_ann_span[static_cast<size_t>(which)] = {INT64_MAX, INT64_MIN};
  }

  void build_step(int i);
  void warp_step(int i);
  void compiled_forward(int32_t seq);
  void layer_forward(int l, int32_t seq);
  void layer_backward(int l, int32_t seq);
  template <typename F>
  void backward_node(std::string_view eval_name, int32_t seq, const F& body);
  void all_reduce(size_t bucket);

  void put_ts(JsonOut& out, int64_t ns) const;
  void x_head(JsonOut& out, std::string_view cat, const Ev& e, int64_t pid, int64_t tid) const;
  void flow(JsonOut& out, char ph, int64_t id, int64_t pid, int64_t tid, int64_t ts) const;
  void x_open(JsonOut& out, std::string_view cat, const Ev& e, int64_t pid, int64_t tid) const;
  void emit_host(JsonOut& out) const;
  void emit_runtime(JsonOut& out, const Ev& r) const;
  void emit_device(JsonOut& out) const;
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
};

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
    const std::string bh = "[" + std::to_string(k_batch) + ", " + h + "]";
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

// "autograd::engine::evaluate_function: <Node>" > "<Node>" > body, on the autograd thread.
template <typename F>
void Sim::backward_node(std::string_view eval_name, int32_t seq, const F& body) {
  const Scope eval = op(eval_name, 1, 6, 3, {}, seq, 1);
  const Scope node = op(eval_name.substr(eval_name.rfind(' ') + 1), 1, 4, 2, {}, seq, 1);
  body();
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

void Sim::all_reduce(size_t bucket) {
  region(R_COMM, bucket);
  const bool late = m_o.straggler >= 0;
  if (late && m_rank == m_o.straggler) m_t[1] += m_o.straggler_us * k_us;  // its host is late
  std::string_view args = m_comm_args[bucket];
  if (m_o.comm_seq) args = m_seq_args.emplace_back(std::string(args) + ", \"Seq\": " + std::to_string(m_comm_seq++));
  const Scope comms = op("record_param_comms", 1, 8, 5, args);
  const Scope nccl = ann("nccl:all_reduce", 1, 6, 3);
  const int64_t bytes = m_bucket_elems[bucket] * 4;
  const int64_t us = std::max<int64_t>(20, bytes / 400000);
  // --straggler: the transfer takes the same time on every rank; the others wait inside.
  if (late) m_exact_gpu_ns = (us + (m_rank == m_o.straggler ? 0 : m_o.straggler_us)) * k_us;
  launch(1, m_c.nccl, us, k_nccl_stream, 0, m_nccl_attrs[bucket]);
  m_exact_gpu_ns = -1;
}

// --- output --------------------------------------------------------------------

void Sim::put_ts(JsonOut& out, int64_t ns) const {
  if (m_o.ns) {
    out.put_us3(ns - k_base_ns);
  } else {
    out.put_int(ns / 1000);  // Kineto truncates to integer us
  }
}

// "X" event up to the first arg value. Integer-us durations are end - start
// after truncating both, so nesting and same-stream order survive rounding.
void Sim::x_head(JsonOut& out, std::string_view cat, const Ev& e, int64_t pid, int64_t tid) const {
  x_open(out, cat, e, pid, tid);
  out.put_all("\"External id\": ", e.ext);
}

// "X" event up to the first arg key.
void Sim::x_open(JsonOut& out, std::string_view cat, const Ev& e, int64_t pid, int64_t tid) const {
  out.put_all("\n  {\n    \"ph\": \"X\", \"cat\": \"", cat, "\", \"name\": ");
  out.put_str(e.name);
  out.put_all(", \"pid\": ", pid, ", \"tid\": ", tid, ",\n    \"ts\": ");
  put_ts(out, e.ts);
  out.put(", \"dur\": ");
  if (m_o.ns) {
    out.put_us3(e.dur);
  } else {
    out.put_int((e.ts + e.dur) / 1000 - e.ts / 1000);
  }
  out.put(",\n    \"args\": {\n      ");
}

void Sim::flow(JsonOut& out, char ph, int64_t id, int64_t pid, int64_t tid, int64_t ts) const {
  out.put_all("\n  {\n    \"ph\": \"", ph, "\", \"id\": ", id, ", \"pid\": ", pid, ", \"tid\": ", tid, ", \"ts\": ");
  put_ts(out, ts);
  out.put(ph == 'f' ? ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  },"
                    : ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  },");
}

void Sim::emit_host(JsonOut& out) const {
  for (const Ev& e : m_evs) {
    if (e.kind == Kind::PyFunc) {  // PyTorch writes null for a frame without a Python parent
      const std::string name = py_frame_name(m_o, e.name);
      Ev renamed = e;
      renamed.name = name;
      x_open(out, "python_function", renamed, m_pid, host_tid(e));
      out.put("\"Python parent id\": ");
      if (e.py_parent > 0) {
        out.put_int(e.py_parent);
      } else {
        out.put("null");
      }
      out.put_all(", \"Python id\": ", e.ext, ", \"Python thread\": 0");
      if (e.py_module >= 0) {
        out.put_all(", \"Python module id\": ", e.py_module);
      }
      out.put("\n    }\n  },");
      continue;
    }
    if (e.kind != Kind::CpuOp && e.kind != Kind::UserAnn) {
      continue;
    }
    if (m_o.no_profiler_step && e.name.starts_with("ProfilerStep#")) {
      continue;
    }
    // PyTorch <= 1.8 wrote the step spans as cpu_op.
    const bool as_op = e.kind == Kind::CpuOp || (m_o.legacy_steps && e.name.starts_with("ProfilerStep#"));
    x_head(out, as_op ? "cpu_op" : "user_annotation", e, m_pid, host_tid(e));
    out.put_all(",\"Record function id\": ", e.ext);
    if (e.seq >= 0) {
      out.put_all(", \"Sequence number\": ", e.seq, ", \"Fwd thread id\": ", e.fwd_tid);
    }
    out.put_all(", \"Ev Idx\": ", e.ext - 1, e.extra, "\n    }\n  },");
  }
}

void Sim::emit_runtime(JsonOut& out, const Ev& r) const {
  x_head(out, r.api == Api::CuLaunchKernel ? "cuda_driver" : "cuda_runtime", r, m_pid, host_tid(r));
  out.put_all(", \"cbid\": ", k_api_cbid[static_cast<size_t>(r.api)], ", \"correlation\": ", r.corr,
              "\n    }\n  },");
}

// CUPTI order: each device record and its flow end, then its launch and flow start.
void Sim::emit_device(JsonOut& out) const {
  for (const Ev& e : m_evs) {
    if (e.kind == Kind::Device) {
      const bool kernel = e.k->cat == DevCat::Kernel;
      x_head(out, kernel ? "kernel" : e.k->cat == DevCat::Memcpy ? "gpu_memcpy" : "gpu_memset", e, 0, e.th);
      out.put_all(kernel ? ", \"queued\": 0" : "", ", \"device\": 0, \"context\": 1, \"stream\": ", e.th,
                  ", \"correlation\": ", e.corr);
      if (e.gnode >= 0) {
        out.put_all(", \"graph id\": 1, \"graph node id\": ", e.gnode + 1);
      }
      if (kernel) {
        out.put_all(", ", e.extra);
      } else {
        out.put_all(", \"bytes\": ", e.bytes, ", \"memory bandwidth (GB/s)\": ");
        out.put_double(static_cast<double>(e.bytes) / static_cast<double>(e.dur));  // bytes/ns = GB/s
      }
      out.put("\n    }\n  },");
      const bool unlaunched = kernel && std::any_of(m_o.unlaunched_kernels.begin(), m_o.unlaunched_kernels.end(),
                                                    [&](const std::string& n) { return e.k->name.find(n) != std::string::npos; });
      if (unlaunched) {
        continue;
      }
      flow(out, 'f', e.corr, 0, e.th, e.ts);
      if (e.gnode > 0) {
        continue;  // a graph launch is written once, with its first node
      }
      const Ev& r = m_evs[static_cast<size_t>(e.link)];
      emit_runtime(out, r);
      flow(out, 's', r.corr, m_pid, host_tid(r), r.ts);
    } else if (e.kind == Kind::Sync) {
      emit_runtime(out, m_evs[static_cast<size_t>(e.link)]);
      x_head(out, "cuda_sync", e, 0, e.th);
      out.put_all(", \"cuda_sync_kind\": \"Stream Sync\", \"stream\": ", e.th, ", \"correlation\": ", e.corr,
                  ", \"device\": 0, \"context\": 1\n    }\n  },");
    } else if (e.kind == Kind::GpuAnn) {
      x_head(out, "gpu_user_annotation", e, 0, e.th);
      out.put("\n    }\n  },");
    }
  }
}

// CUDA device properties as Kineto writes them; A100 unless the name says otherwise.
struct GpuProps {
  int64_t mem;
  int major;
  int smem_per_sm;
  int sms;
  int smem_optin;
};

GpuProps gpu_props(std::string_view name) {
  const bool gb32 = name.find("32GB") != std::string_view::npos;
  const bool gb40 = name.find("40GB") != std::string_view::npos;
  if (name.find("V100") != std::string_view::npos) {
    return {gb32 ? 34089730048 : 16935419904, 7, 98304, 80, 98304};
  }
  if (name.find("H100") != std::string_view::npos) {
    return {85024112640, 9, 233472, 132, 232448};
  }
  if (name.find("MI300") != std::string_view::npos) {
    return {206141652992, 9, 65536, 304, 65536};
  }
  return {gb40 ? 42505273344 : 85196873728, 8, 167936, 108, 166912};
}

void Sim::write_header(JsonOut& out) const {
  const GpuProps p = gpu_props(m_o.gpu_name);
  out.put("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
  for (int g = 0; g < m_o.gpus; ++g) {
    out.put_all(g == 0 ? "\n" : ",\n", "    {\n      \"id\": ", g, ", \"name\": ");
    out.put_str(m_o.gpu_name);
    out.put_all(", \"totalGlobalMem\": ", p.mem, ",\n      \"computeMajor\": ", p.major,
                ", \"computeMinor\": 0,\n"
                "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, \"warpSize\": 32,\n"
                "      \"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": ",
                p.smem_per_sm, ",\n      \"numSms\": ", p.sms, ", \"sharedMemPerBlockOptin\": ", p.smem_optin,
                "\n    }");
  }
  out.put("\n  ],\n");
  if (m_o.cuda_runtime >= 0) {  // newer Kineto (CUDA builds)
    out.put_all("  \"cuda_runtime_version\": ", m_o.cuda_runtime, ",\n");
  }
  if (m_o.cuda_driver >= 0) {
    out.put_all("  \"cuda_driver_version\": ", m_o.cuda_driver, ",\n");
  }
  out.put_all("  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ", m_rank, ", \"world_size\": ", m_ws,
              "},\n");
  if (m_o.ns) {  // 2025+ Kineto layout: the base time precedes the events
    out.put_all("  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ", k_base_ns, ",\n");
  }
  out.put("  \"traceEvents\": [");
}

void Sim::meta(JsonOut& out, std::string_view name, int64_t pid, int64_t tid, std::string_view key,
               std::string_view str_val, int64_t int_val) const {
  out.put_all("\n  {\n    \"name\": \"", name, "\", \"ph\": \"M\", \"ts\": ");
  put_ts(out, m_prof_start);
  out.put_all(", \"pid\": ", pid, ", \"tid\": ", tid, ",\n    \"args\": {\n      \"", key, "\": ");
  if (str_val.empty()) {
    out.put_int(int_val);
  } else {
    out.put_str(str_val);
  }
  out.put("\n    }\n  },");
}

void Sim::write_trailer(JsonOut& out) const {
  meta(out, "process_name", m_pid, 0, "name", "python3.10", 0);
  meta(out, "process_labels", m_pid, 0, "labels", "CPU", 0);
  meta(out, "process_sort_index", m_pid, 0, "sort_index", {}, m_pid);
  meta(out, "process_name", 0, 0, "name", "python3.10", 0);
  meta(out, "process_labels", 0, 0, "labels", "GPU 0", 0);
  meta(out, "process_sort_index", 0, 0, "sort_index", {}, 16777216);
  for (const int s : {k_compute_stream, k_nccl_stream, k_side_stream}) {
    if (s == k_compute_stream || (s == k_nccl_stream && m_ws > 1) || (s == k_side_stream && m_o.stream_wait)) {
      meta(out, "thread_name", 0, s, "name", "stream " + std::to_string(s) + " ", 0);  // sic: trailing space
      meta(out, "thread_sort_index", 0, s, "sort_index", {}, s);
    }
  }
  for (const auto& [tid, label] : {std::pair{m_pid, "pt_main_thread"}, std::pair{m_autograd_tid, "pt_autograd_0"}}) {
    meta(out, "thread_name", m_pid, tid, "name", "thread " + std::to_string(tid) + " (" + label + ")", 0);
    meta(out, "thread_sort_index", m_pid, tid, "sort_index", {}, tid);
  }

  const int64_t window_end = (m_o.warmup_steps > 0 || m_o.slow_step >= 0 ? m_out_end : m_end) + 250 * k_us;
  out.put("\n  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
  put_ts(out, m_prof_start);
  out.put(", \"dur\": ");
  if (m_o.ns) {
    out.put_us3(window_end - m_prof_start);
  } else {
    out.put_int(window_end / 1000 - m_prof_start / 1000);
  }
  out.put(
      ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n    \"name\": \"PyTorch Profiler (0)\",\n"
      "    \"args\": {\n      \"Op count\": 0\n    }\n  },"
      "\n  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
  put_ts(out, m_prof_start);
  out.put(
      ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": 536870912\n    }\n  },"
      "\n  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
      "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
  put_ts(out, m_prof_start);
  out.put(
      "\n  },\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
      "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
  put_ts(out, window_end);
  out.put("\n  }\n  ],\n  \"traceName\": ");
  out.put_str(m_trace_name);
  out.put("\n}\n");
}

// --- driver ------------------------------------------------------------------

std::string file_name(const Options& o, int rank) {
  return o.prefix + std::to_string(rank) + ".pt.trace.json" + (o.gzip ? ".gz" : "");
}

uint64_t measure(const Options& o, const Catalog& c) {
  JsonOut counter;
  Sim(o, c, 0, file_name(o, 0)).write(counter);
  return counter.bytes();
}

// Bytes grow linearly in steps and in layers, so two small probes give the slope.
void fit_target(Options& o, const Catalog& c) {
  const auto target = static_cast<uint64_t>(o.target_bytes);
  Options p = o;
  const bool fit_layers = o.steps_set;
  if (!fit_layers && !o.layers_set) {
    o.layers = 32;
  }
  int& knob = fit_layers ? p.layers : p.steps;
  p.layers = o.layers;
  knob = 2;
  const uint64_t b2 = measure(p, c);
  knob = 4;
  const uint64_t b4 = measure(p, c);
  const uint64_t per = std::max<uint64_t>((b4 - b2) / 2, 1);
  const uint64_t fixed = b2 > 2 * per ? b2 - 2 * per : 0;
  const auto n = static_cast<int>(std::clamp<uint64_t>((target > fixed ? target - fixed + per / 2 : 0) / per, 1,
                                                       fit_layers ? 1000000 : 10000000));
  (fit_layers ? o.layers : o.steps) = n;
}

int run(Options& o) {
  const Catalog catalog(o);
  if (o.target_bytes > 0) {
    fit_target(o, catalog);
  }
  std::filesystem::create_directories(o.out_dir);
  std::vector<std::string> errors(static_cast<size_t>(o.ranks));
  const auto work = [&](int rank) {
    try {
      const std::string name = file_name(o, rank);
      JsonOut out((std::filesystem::path(o.out_dir) / name).string(), o.gzip);
      Sim(o, catalog, rank, name).write(out);
      out.finish();
    } catch (const std::exception& e) {
      errors[static_cast<size_t>(rank)] = e.what();
    }
  };
  // Files are independent: one thread per rank, at most one per core.
  const int par = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  for (int first = 0; first < o.ranks; first += par) {
    std::vector<std::thread> pool;
    for (int r = first; r < std::min(o.ranks, first + par); ++r) {
      pool.emplace_back(work, r);
    }
    for (auto& t : pool) {
      t.join();
    }
  }
  int rc = 0;
  for (const auto& e : errors) {
    if (!e.empty()) {
      std::fprintf(stderr, "tracegen: error: %s\n", e.c_str());
      rc = 1;
    }
  }
  if (rc == 0) {
    std::fprintf(stderr, "tracegen: wrote %d file(s) to %s (%d layers, %d steps)\n", o.ranks, o.out_dir.c_str(),
                 o.layers, o.steps);
  }
  return rc;
}

}  // namespace
}  // namespace tracegen

int main(int argc, char** argv) {
  try {
    tracegen::Options o = tracegen::parse_options(argc, argv);
    return tracegen::run(o);
  } catch (const tracegen::UsageError& e) {
    if (e.message.empty()) {
      std::fwrite(tracegen::k_usage.data(), 1, tracegen::k_usage.size(), stdout);
      return 0;
    }
    std::fprintf(stderr, "tracegen: %s (see --help)\n", e.message.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracegen: error: %s\n", e.what());
    return 1;
  }
}
