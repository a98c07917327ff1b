// tracegen's command line: the --help text and parse_options. Every option's
// default leaves the output as it was before the option existed.

#include "generator.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace tracegen {
namespace {

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

}  // namespace

extern const std::string_view k_usage;
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
  --run-offset PCT          one random offset in +-PCT% for the whole run, drawn from the seed,
                            on every duration: what differs between two runs of the same code
                            (another node, clocks, the allocator); default 0
  --series N                write N runs, DIR/run-001 ... (each with its own seed, so its own
                            --jitter and --run-offset draws) and DIR/runs.tsv listing them with
                            a made-up commit hash each (`tracediff trend --runs-from`)
  --shift-at K              with --series: runs K.. (1-based) carry --shift
  --shift PCT               with --series: from run K on, durations are PCT% longer (negative:
                            shorter); 0 (default) gives an A/A series
  --shift-name NAME         with --shift: only events whose name contains NAME (a kernel's row)
  --add-kernel NAME         launch an extra kernel NAME from each layer's aten::add; repeatable
  --renamed-kernel NAME     with --series: an extra kernel NAME_<run's hash>, a new name in every
                            run (autotuned or hashed kernel names); repeatable
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
  --with-stack              the same as --python-stack (torch.profiler's option)
  --step-inside-profiler    with_stack's shape at each step's start: ProfilerStep#N begins inside
                            torch.profiler's own frames (profiler.py step > autograd profiler.py
                            __enter__ > profiler::_record_function_enter_new, with an aten::empty
                            inside), which end a few us after the step began (implies --python-stack)
  --harness-frame           one Python frame of the user's profiling harness
                            ("bench.py(30): run_torch_profiler") around the whole run on the main
                            thread (implies --python-stack)
  --blocking-copy           each step's input copy from pageable memory (cudaMemcpyAsync, Memcpy HtoD
                            (Pageable -> Device)) returns only when the copy is done, behind the
                            GPU's queue: with --no-sync, the host waits there (a loader moved to
                            workers, the GPU now the bottleneck)
  --first-step-backlog MS   a weight-gradient GEMM of MS ms queued before the profiler started: on the
                            GPU at the first step's start, its launch not in the trace
  --idle-thread MS          a telemetry thread that launches no GPU work: in each step a
                            usage_lib.py _report_continuous_usage frame of MS ms (at most the step
                            less 20 us), asleep inside it
                            (<built-in function sleep>) but for a few us (implies --python-stack)
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
  --inductor-args           with --compile: the Triton kernels carry Inductor's kernel_num_gb (and
                            the layer-norm ones kernel_flop), as torch.compile writes them
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

  --memory                  [memory] events as profile_memory=True writes them: each CPU operator
                            allocates 4096 B on GPU 0 at its start and frees them at once, each
                            ProfilerStep span holds 1 MiB of host memory, with the allocator's
                            totals (1 GiB allocated before the first step; reserved: the largest
                            total so far in 2 MiB units)
  --memory-leak N           with --memory: aten::mse_loss (once a step) leaks N bytes a call
  --memory-peak OP=BYTES    with --memory: each call of OP holds BYTES while it runs (a peak
                            raised by one operator)
  --memory-old              with --memory: Bytes alone (PyTorch before 1.10: no totals, device or
                            address, no host memory) and host events' tid written as a string

Critical-path shapes (exact whole-us times, no random draw, every step the same; of the
options above only --ranks, --steps, --first-step, --ns, --gzip, --name-prefix, --vendor,
--gpu-name, --gpus, --cuda-runtime, --cuda-driver, --legacy-steps and --no-profiler-step apply):
  --bound SHAPE             a small trace whose steps one thing bounds (times in tools/tracegen/
                            bound_shapes.cpp, so the critical path can be worked out by hand):
                            host    4 x aten::linear > aten::addmm > cudaLaunchKernel whose host
                                    time (30 us) dwarfs its 2 us GEMM: the GPU waits for launches
                            gpu     4 quick launches queue 100 us GEMMs back to back (ampere_sgemm_
                                    128x64_tn); a cudaStreamSynchronize waits for the last one
                            launch  4 x aten::add, its kernel starting 20 us after the launch on an
                                    idle stream, then cudaDeviceSynchronize: launch delay bounds
                            sync    4 x a 50 us GEMM waited for by cudaStreamSynchronize, with 20 us
                                    of host work (aten::cat) between layers
                            loader  a 300 us enumerate(DataLoader)#_MultiProcessingDataLoaderIter.
                                    __next__ (cpu_op) opens each step, then one 30 us GEMM

  -h, --help                show this help
)";

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
    if (bool* flag = a == "--python-stack" || a == "--with-stack" ? &o.python_stack
                     : a == "--step-inside-profiler" ? &o.step_inside_profiler
                     : a == "--harness-frame" ? &o.harness_frame
                     : a == "--blocking-copy" ? &o.blocking_copy
                     : a == "--legacy-steps" ? &o.legacy_steps
                     : a == "--no-sync"      ? &o.no_sync
                     : a == "--sync-every-layer" ? &o.sync_every_layer
                     : a == "--cuda-graphs"  ? &o.cuda_graphs
                     : a == "--graph-from-python" ? &o.graph_from_python
                     : a == "--compile"      ? &o.compile
                     : a == "--inductor-args" ? &o.inductor_args
                     : a == "--no-profiler-step" ? &o.no_profiler_step
                     : a == "--generic-conv-gemm" ? &o.generic_conv_gemm
                     : a == "--comm-exposed" ? &o.comm_exposed
                     : a == "--stream-wait"  ? &o.stream_wait
                     : a == "--comm-seq"     ? &o.comm_seq
                     : a == "--memory"       ? &o.memory
                     : a == "--memory-old"   ? &o.memory_old
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
      o.ranks = static_cast<int>(parse_int(a, v, 1, 65536));  // bench set k: 10,000
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
    } else if (a == "--run-offset") {
      o.run_offset_ppm = parse_ppm(a, v, 99) / 100;
    } else if (a == "--series") {
      o.series = static_cast<int>(parse_int(a, v, 1, 100000));
    } else if (a == "--shift-at") {
      o.shift_at = static_cast<int>(parse_int(a, v, 1, 100000));
    } else if (a == "--shift") {
      const bool minus = !v.empty() && v[0] == '-';
      const int64_t pct = parse_ppm(a, minus ? v.substr(1) : v, 1000) / 100;  // ppm of a percent
      if (minus && pct >= k_ppm) throw UsageError{"--shift: a negative shift must stay above -100"};
      o.shift_ppm = minus ? -pct : pct;
    } else if (a == "--shift-name") {
      o.shift_name = std::string(v);
    } else if (a == "--jitter") {
      o.jitter_ppm = parse_ppm(a, v, 99) / 100;
    } else if (a == "--unlaunched-kernel") {
      if (v.empty()) throw UsageError{"--unlaunched-kernel: empty name"};
      o.unlaunched_kernels.emplace_back(v);
    } else if (a == "--renamed-kernel") {
      if (v.empty()) throw UsageError{"--renamed-kernel: empty name"};
      o.renamed_kernels.emplace_back(v);
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
    } else if (a == "--first-step-backlog") {
      o.backlog_ns = parse_int(a, v, 0, 100000) * 1000 * k_us;
    } else if (a == "--idle-thread") {
      o.idle_thread_ns = parse_int(a, v, 0, 100000) * 1000 * k_us;
      o.python_stack = true;
    } else if (a == "--launch-gap") {
      o.launch_gap_ns = parse_int(a, v, 0, 1000000) * k_us;
    } else if (a == "--many-names-from") {
      o.many_from = parse_int(a, v, 0, 1000000000);
    } else if (a == "--memory-leak") {
      o.memory_leak = parse_int(a, v, 0, int64_t{1} << 40);
    } else if (a == "--memory-peak") {
      const auto eq = v.rfind('=');
      if (eq == std::string_view::npos || eq == 0) {
        throw UsageError{"--memory-peak: expected OP=BYTES, got '" + std::string(v) + "'"};
      }
      o.memory_peak_op = std::string(v.substr(0, eq));
      o.memory_peak = parse_int(a, v.substr(eq + 1), 1, int64_t{1} << 40);
    } else if (a == "--bound") {
      if (std::find(k_bound_shapes.begin(), k_bound_shapes.end(), v) == k_bound_shapes.end()) {
        throw UsageError{"--bound: expected host, gpu, launch, sync or loader, got '" + std::string(v) + "'"};
      }
      o.bound = std::string(v);
    } else if (a == "--marker-loop") {
      if (v != "train" && v != "infer") {
        throw UsageError{"--marker-loop: expected train or infer, got '" + std::string(v) + "'"};
      }
      o.infer_loop = v == "infer";
    } else {
      throw UsageError{"unknown option: " + std::string(a)};
    }
  }
  if (!o.memory && (o.memory_old || o.memory_leak > 0 || o.memory_peak > 0)) {
    throw UsageError{"--memory-old, --memory-leak and --memory-peak need --memory"};
  }
  o.python_stack = o.python_stack || o.step_inside_profiler || o.harness_frame;
  if (!have_out) {
    throw UsageError{"--out DIR is required"};
  }
  if (!o.bound.empty() && o.target_bytes > 0) {
    throw UsageError{"--bound writes a fixed shape; --target-mb does not apply"};
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

}  // namespace tracegen
