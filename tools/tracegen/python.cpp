// Python stacks (--python-stack): python_function frames around the ops they
// call, with nn.Module frames, the module.py call wrappers nested in themselves
// and a recursive tree_map; --py-line-shift, --py-prefix and --py-address write
// the frames as another version or install of the same code would.

#include "sim.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace tracegen {

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

Sim::PyChain::PyChain(Sim& sim, int th, std::initializer_list<PyFrame> frames) : m_sim(sim) {
  if (sim.m_o.python_stack) {
    for (const PyFrame& f : frames) {
      m_idx.at(m_n++) = sim.open_py(f, th);
    }
  }
}

Sim::PyChain::~PyChain() {
  while (m_n > 0) {
    m_sim.close_py(m_idx[--m_n]);
  }
}

// Python frames draw their call overhead from their own region, so they
// shift timestamps but never the draws of other events.
int32_t Sim::open_py(const PyFrame& f, int th) {
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

void Sim::close_py(int32_t idx) {
  Ev& e = at(idx);
  const size_t t = e.th;
  m_t[t] += vary(e.name.starts_with('<') ? 300 : 700, e.slot, 2);
  e.dur = m_t[t] - e.ts;
  m_py_stack[t].pop_back();
  m_under -= in_scope(e.name);
}

}  // namespace tracegen
