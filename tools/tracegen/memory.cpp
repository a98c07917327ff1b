// --memory: PyTorch's [memory] instant events (profile_memory=True) for each step's
// host events, with numbers tests can predict exactly:
//   - each CPU operator allocates k_mem_op_bytes on GPU 0 at its start and frees them
//     at once (a temporary);
//   - --memory-leak N: each aten::mse_loss (one a step) then allocates N more, never freed;
//   - --memory-peak OP=BYTES: each OP holds BYTES from its start to its end;
//   - each step's ProfilerStep span holds k_mem_host_bytes of host memory (Device Type 0)
//     until a microsecond before it ends;
//   - Total Allocated starts at k_mem_base (the weights); Total Reserved is the largest
//     allocation total so far rounded up to k_mem_reserve_unit.
// --memory-old writes Bytes alone (PyTorch before ~1.10; no host memory then).

#include "sim.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tracegen {

namespace {

struct Alloc {
  int64_t ns;
  int64_t bytes;
  int64_t tid;
  bool host;
  int64_t addr;  // a free's is its allocation's
};

}  // namespace

void Sim::emit_memory(JsonOut& out) {
  std::vector<Alloc> allocs;
  // Each allocation at an address of its own, its free at the same one.
  const auto pair = [&](int64_t from, int64_t to, int64_t bytes, int64_t tid, bool host) {
    m_mem_addr += 512;
    allocs.push_back({from, bytes, tid, host, m_mem_addr});
    if (to >= 0) {
      allocs.push_back({to, -bytes, tid, host, m_mem_addr});
    }
  };
  for (const Ev& e : m_evs) {
    const bool step = e.name.starts_with("ProfilerStep#");
    if (step && e.kind == Kind::UserAnn) {
      if (!m_o.memory_old) {
        // Freed a microsecond before the span ends: inside the step, also in integer µs.
        pair(e.ts, e.ts + e.dur - k_us, k_mem_host_bytes, host_tid(e), true);
      }
      continue;
    }
    if (e.kind != Kind::CpuOp || step) {
      continue;
    }
    const int64_t tid = host_tid(e);
    pair(e.ts, e.ts, k_mem_op_bytes, tid, false);
    if (m_o.memory_leak > 0 && e.name == k_mem_leak_op) {
      pair(e.ts, -1, m_o.memory_leak, tid, false);
    }
    if (m_o.memory_peak > 0 && e.name == m_o.memory_peak_op) {
      pair(e.ts, e.ts + e.dur, m_o.memory_peak, tid, false);
    }
  }
  // In time order; what happens at one time keeps the order above.
  std::stable_sort(allocs.begin(), allocs.end(), [](const Alloc& a, const Alloc& b) { return a.ns < b.ns; });
  int64_t host_allocated = 0;
  for (const Alloc& a : allocs) {
    int64_t& total = a.host ? host_allocated : m_mem_allocated;
    total += a.bytes;
    if (!a.host) {
      const int64_t reserved = (total + k_mem_reserve_unit - 1) / k_mem_reserve_unit * k_mem_reserve_unit;
      m_mem_reserved = std::max(m_mem_reserved, reserved);
    }
    out.put("\n  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n");
    out.put_all("    \"pid\": ", m_pid, ", \"tid\": ", a.tid, ",\n    \"ts\": ");
    put_ts(out, a.ns);
    out.put(",\n    \"args\": {\n      ");
    if (m_o.memory_old) {
      out.put_all("\"Bytes\": ", a.bytes);
    } else {
      out.put_all("\"Device Type\": ", a.host ? 0 : 1, ", \"Device Id\": ", a.host ? -1 : 0,
                  ", \"Addr\": ", (a.host ? 94000000000000 : 139900000000000) + a.addr, ", \"Bytes\": ", a.bytes,
                  ", \"Total Allocated\": ", total, ", \"Total Reserved\": ",
                  a.host ? k_mem_host_bytes : m_mem_reserved);
    }
    out.put("\n    }\n  },");
  }
}

}  // namespace tracegen
