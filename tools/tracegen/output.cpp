// The Kineto JSON: host events, then CUPTI records (runtime calls, kernels,
// copies, syncs, GPU annotations and their flows), between a header with the
// device properties (--gpu-name, --gpus, --cuda-runtime) and the metadata
// trailer. --ns switches timestamps to relative microseconds with 3 decimals.

#include "sim.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace tracegen {
namespace {

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

}  // namespace

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
  // --memory-old: host events' tid as text, as 2021 traces wrote it (memory events' a number).
  if (m_o.memory_old && pid == m_pid) {
    out.put_all(", \"pid\": ", pid, ", \"tid\": \"", tid, "\",\n    \"ts\": ");
  } else {
    out.put_all(", \"pid\": ", pid, ", \"tid\": ", tid, ",\n    \"ts\": ");
  }
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

void Sim::emit_idle_thread(JsonOut& out) const {
  const auto step = std::find_if(m_evs.begin(), m_evs.end(), [&](const Ev& e) { return e.name == m_step_name; });
  if (step == m_evs.end()) {
    return;
  }
  const int64_t tid = m_pid + 7;  // a thread of its own, neither main nor autograd
  const Ev frame{.kind = Kind::PyFunc, .name = "vllm/usage/usage_lib.py(220): _report_continuous_usage",
                 .ts = step->ts + 10 * k_us, .dur = std::min(m_o.idle_thread_ns, step->dur - 20 * k_us)};
  const Ev sleep{.kind = Kind::PyFunc, .name = "<built-in function sleep>", .ts = frame.ts + 2 * k_us,
                 .dur = frame.dur - 4 * k_us};
  for (const Ev* e : {&frame, &sleep}) {
    x_open(out, "python_function", *e, m_pid, tid);
    out.put("\"Python parent id\": null, \"Python id\": 0, \"Python thread\": 1\n    }\n  },");
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
      if (unlaunched || e.link < 0) {  // e.link < 0: queued before the profiler started (--first-step-backlog)
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

}  // namespace tracegen
