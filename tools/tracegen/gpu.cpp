// GPUs: runtime calls and the device work they launch on the compute, NCCL and
// side streams (--stream-wait, --launch-gap, --gpu-factor), CUDA graph launches
// (--cuda-graphs), host waits (stream syncs, .item()), and the DDP all-reduces
// (--comm-exposed, --straggler, --comm-seq).

#include "sim.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace tracegen {

int32_t Sim::runtime(int th, Api api, uint64_t slot) {
  const size_t t = static_cast<size_t>(th);
  m_corr += 1 + static_cast<int64_t>(rnd(slot, 3) % 3 == 0);  // gaps, as for blocklisted API calls
  const auto& names = m_o.amd ? k_hip_api_name : k_api_name;
  return push({.kind = Kind::Runtime, .name = names[static_cast<size_t>(api)], .ts = m_t[t],
               .th = static_cast<uint8_t>(th), .slot = slot,
               .ext = m_stack[t].empty() ? 0 : at(m_stack[t].back()).ext, .api = api, .corr = m_corr});
}

int32_t Sim::queue_device(int32_t rt, const KDesc& k, int64_t gpu_ns, int stream, int64_t bytes, std::string_view attrs,
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

void Sim::launch_at(int th, const KDesc& k, int64_t gpu_ns, int stream, int64_t bytes, std::string_view attrs,
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
  // --blocking-copy: a copy from pageable memory returns when it is done, behind the queue.
  if (m_o.blocking_copy && api == Api::MemcpyAsync && k.name.find("Pageable") != std::string_view::npos) {
    r.dur = std::max(r.dur, at(dev).ts + at(dev).dur - r.ts);
  }
  m_t[static_cast<size_t>(th)] = r.ts + r.dur;
}

void Sim::graph_launch(int th) {
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

void Sim::launch(int th, const KDesc& k, int64_t gpu_us, int stream, int64_t bytes,
                 std::string_view attrs, bool wait_nccl) {
  const uint64_t slot = next_slot();  // taken even when dropped, so later slots don't shift
  for (const auto& d : m_o.drop_kernels) {
    if (k.name.find(d) != std::string::npos) {
      return;
    }
  }
  launch_at(th, k, gpu_us * k_us, stream, bytes, attrs.empty() ? std::string_view(k.attrs) : attrs, slot,
            wait_nccl);
}

void Sim::stream_sync(int th) {
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

void Sim::item_sync() {
  const PyChain py(*this, 0, {{"<method 'item' of 'torch._C.TensorBase' objects>"}});
  const Scope item = op("aten::item", 0, 3, 1);
  const Scope dense = op("aten::_local_scalar_dense", 0, 4, 2);
  launch(0, m_c.d2h, 2, k_compute_stream, 4);
  stream_sync(0);
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

}  // namespace tracegen
