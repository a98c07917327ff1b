#include "analysis/names/name_match.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "analysis/names/kernel_families.hpp"
#include "util/display_name.hpp"

namespace tracediff::analysis {

using model::Kind;

const char* match_reason_name(MatchReason r) {
  switch (r) {
    case MatchReason::python_line: return "python_line";
    case MatchReason::address: return "address";
    case MatchReason::runtime: return "runtime";
    case MatchReason::demangled: return "demangled";
    case MatchReason::vendor_op: return "vendor_op";
    case MatchReason::family: return "family";
  }
  return "?";
}

namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// "… at 0x7f3a…>" -> "…>", other "0x7f3a…" -> "0x…": object addresses differ from run
// to run, and some versions leave them out.
bool strip_addresses(std::string& s) {
  bool any = false;
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '0' && i + 2 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X') && is_hex(s[i + 2]) &&
        (i == 0 || !is_hex(s[i - 1]))) {
      if (out.ends_with(" at ")) out.resize(out.size() - 4);
      else out += "0x…";
      i += 2;
      while (i < s.size() && is_hex(s[i])) ++i;
      any = true;
    } else {
      out += s[i++];
    }
  }
  if (any) s = std::move(out);
  return any;
}

// Runtime and driver calls that do the same thing under CUDA's and HIP's names, by
// their neutral key; any other call loses its "cuda"/"hip" (runtime) or "cu" (driver)
// prefix.
struct RuntimePair {
  std::string_view name, key;
};
constexpr std::array k_runtime = {
    RuntimePair{"cudaLaunchKernel", "launch kernel"},        RuntimePair{"cudaLaunchKernelExC", "launch kernel"},
    RuntimePair{"hipLaunchKernel", "launch kernel"},         RuntimePair{"hipExtLaunchKernel", "launch kernel"},
    RuntimePair{"cuLaunchKernel", "launch module kernel"},   RuntimePair{"cuLaunchKernelEx", "launch module kernel"},
    RuntimePair{"hipModuleLaunchKernel", "launch module kernel"},
    RuntimePair{"hipExtModuleLaunchKernel", "launch module kernel"},
    RuntimePair{"cudaGraphLaunch", "graph launch"},          RuntimePair{"hipGraphLaunch", "graph launch"},
    RuntimePair{"cudaMemcpyAsync", "memcpy async"},          RuntimePair{"hipMemcpyAsync", "memcpy async"},
    RuntimePair{"hipMemcpyWithStream", "memcpy async"},
};

std::string runtime_key(std::string_view name) {
  for (const auto& p : k_runtime)
    if (p.name == name) return std::string(p.key);
  const auto upper_after = [&](std::string_view prefix) {
    return name.size() > prefix.size() && name.starts_with(prefix) && name[prefix.size()] >= 'A' &&
           name[prefix.size()] <= 'Z';
  };
  if (upper_after("cuda")) return "rt " + std::string(name.substr(4));
  if (upper_after("hip")) return "rt " + std::string(name.substr(3));
  if (upper_after("cu")) return "drv " + std::string(name.substr(2));
  return std::string(name);
}

// Operators that do the same work under NVIDIA's and AMD's library names.
struct VendorPair {
  std::string_view nvidia, amd;
};
constexpr std::array k_vendor_ops = {
    VendorPair{"aten::_cudnn_rnn", "aten::miopen_rnn"},
    VendorPair{"aten::_cudnn_rnn_backward", "aten::miopen_rnn_backward"},
    VendorPair{"cudnn_", "miopen_"},  // aten::cudnn_convolution, _transpose, _batch_norm, ...
    VendorPair{"Cudnn", "Miopen"},    // autograd nodes: CudnnConvolutionBackward0, CudnnBatchNormBackward0
};

bool vendor_neutral(std::string& s) {
  for (const auto& p : k_vendor_ops) {
    if (p.nvidia.starts_with("aten::") && (s == p.nvidia || s == p.amd)) {
      s = std::string(p.nvidia);
      return true;
    }
  }
  bool any = false;
  for (const auto& p : k_vendor_ops) {
    if (p.nvidia.starts_with("aten::")) continue;
    for (std::size_t at = s.find(p.amd); at != std::string::npos; at = s.find(p.amd, at + p.nvidia.size())) {
      s.replace(at, p.amd.size(), p.nvidia);
      any = true;
    }
    if (s.find(p.nvidia) != std::string::npos) any = true;
  }
  return any;
}

}  // namespace

std::optional<std::int64_t> python_line(std::string_view name) {
  const auto close = name.find("): ");
  if (close == std::string_view::npos || close == 0) return std::nullopt;
  const auto open = name.rfind('(', close);
  if (open == std::string_view::npos || open + 1 == close || close - open > 10) return std::nullopt;
  std::int64_t line = 0;
  for (auto i = open + 1; i < close; ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    line = line * 10 + (name[i] - '0');
  }
  return line;
}

std::optional<std::string> demangle(std::string_view name) { return tracediff::demangle(name, 64 * 1024); }

std::string match_key(std::string_view name, model::Kind kind, MatchReason* reason, bool demangle_names) {
  MatchReason why = MatchReason::address;
  std::string key;
  if (kind == Kind::python_function && python_line(name)) {
    // `…/site-packages/torch/nn/modules/module.py(1762): _call_impl` -> `module.py: _call_impl`
    const auto close = name.find("): ");
    const auto open = name.rfind('(', close);
    const auto path = name.substr(0, open);
    const auto slash = path.find_last_of("/\\");
    key = std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
    key += ": ";
    key += name.substr(close + 3);
    why = MatchReason::python_line;
  } else if (kind == Kind::runtime) {
    key = runtime_key(name);
    why = MatchReason::runtime;
  } else if (model::is_gpu_work(kind) && name.starts_with("_Z") && demangle_names) {
    auto d = demangle(name);
    key = d ? std::move(*d) : std::string(name);
    why = MatchReason::demangled;
  } else {
    key = std::string(name);
    if (kind == Kind::cpu_op && vendor_neutral(key)) why = MatchReason::vendor_op;
  }
  const bool addresses = strip_addresses(key);
  if (addresses && why != MatchReason::python_line) why = MatchReason::address;
  if (reason) *reason = why;
  return key;
}

const Rename* Renames::find(std::string_view category, std::string_view name) const {
  if (m_by_key.empty()) return nullptr;
  const auto it = m_by_key.find(joined(category, name));
  return it == m_by_key.end() ? nullptr : &it->second;
}

const Rename* Renames::find_host(std::string_view name) const {
  if (m_host.empty()) return nullptr;
  const auto it = m_host.find(name);
  return it == m_host.end() ? nullptr : it->second;
}

std::string Renames::joined(std::string_view category, std::string_view name) {
  std::string s;
  s.reserve(category.size() + 1 + name.size());
  s.append(category).append(1, '\0').append(name);
  return s;
}

void Renames::add(std::string category, std::string name, Rename r, bool host) {
  auto [it, inserted] = m_by_key.try_emplace(joined(category, name), std::move(r));
  if (inserted && host) m_host.try_emplace(std::move(name), &it->second);
}

namespace {

struct Name {
  std::string_view category, name;
  Kind kind;
  bool operator<(const Name& o) const { return std::tie(category, name) < std::tie(o.category, o.name); }
};

std::set<Name> names_of(const model::SetSummary& set) {
  std::set<Name> out;
  for (const auto& f : set.files)
    for (const auto& k : f.keys) out.insert({k.category, k.name, k.kind});
  return out;
}

// Runtime calls are one group whatever their category (HIP's API is recorded under
// cuda_runtime, CUDA's driver under cuda_driver).
std::string group_of(const Name& n) {
  return n.kind == Kind::runtime ? std::string("\x01runtime") : std::string(n.category);
}

}  // namespace

namespace {

// Where a side runs each GPU name: the set of call paths it hangs under (the runtime
// calls that launched it and their callers, test names paired in the first pass as
// the control's), as one hash. Names are hashed once per file key, paths once per node.
std::unordered_map<std::string, std::uint64_t> places(const model::SetSummary& set, const std::vector<Name>& wanted,
                                                      const Renames* renames) {
  constexpr std::uint64_t k_top = 0x9e3779b97f4a7c15ull;
  const auto mix = [](std::uint64_t a, std::uint64_t b) {
    a ^= b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2);
    return a * 0xff51afd7ed558ccdull;
  };
  std::set<std::string> want;
  for (const auto& n : wanted) want.insert(Renames::joined(n.category, n.name));
  std::unordered_map<std::string, std::set<std::uint64_t>> parents;
  for (const auto& f : set.files) {
    std::vector<std::uint64_t> name_hash(f.keys.size());
    std::vector<const std::string*> wanted_key(f.keys.size(), nullptr);
    for (std::size_t k = 0; k < f.keys.size(); ++k) {
      const auto& key = f.keys[k];
      const Rename* r = renames ? renames->find(key.category, key.name) : nullptr;
      name_hash[k] = std::hash<std::string_view>()(r ? std::string_view(r->to) : std::string_view(key.name));
      if (model::is_gpu_work(key.kind))
        if (auto it = want.find(Renames::joined(key.category, key.name)); it != want.end()) wanted_key[k] = &*it;
    }
    std::vector<std::uint64_t> h(f.tree.size());
    for (std::size_t i = 0; i < f.tree.size(); ++i) {
      const auto& t = f.tree[i];
      const std::uint64_t up = t.parent == model::k_tree_top ? k_top : h[t.parent];
      const bool other = t.key == model::k_tree_other || t.key == model::k_tree_other_gpu;
      h[i] = mix(up, other ? t.key : name_hash[t.key]);
      if (!other && wanted_key[t.key]) parents[*wanted_key[t.key]].insert(up);
    }
  }
  std::unordered_map<std::string, std::uint64_t> out;
  for (const auto& [name, ups] : parents) {
    std::uint64_t sig = k_top;
    for (const auto u : ups) sig = mix(sig, u);
    out.emplace(name, sig);
  }
  return out;
}

// The operator that launched most of each wanted GPU name's time on one side: its
// family decides where the name is generic (kernel_families.hpp), as it does for the rows.
std::unordered_map<std::string, std::string> main_launchers(const model::SetSummary& set,
                                                            const std::vector<Name>& wanted) {
  std::set<std::string> want;
  for (const auto& n : wanted) want.insert(Renames::joined(n.category, n.name));
  std::unordered_map<std::string, std::map<std::string, std::int64_t>> ns;
  for (const auto& f : set.files) {
    std::vector<const std::string*> wanted_key(f.keys.size(), nullptr);
    for (std::size_t k = 0; k < f.keys.size(); ++k)
      if (auto it = want.find(Renames::joined(f.keys[k].category, f.keys[k].name)); it != want.end())
        wanted_key[k] = &*it;
    for (const auto& l : f.launches)
      if (wanted_key[l.key]) ns[*wanted_key[l.key]][f.launchers[l.launcher]] += l.total_ns;
  }
  std::unordered_map<std::string, std::string> out;
  for (const auto& [name, by] : ns) {
    const auto best = std::max_element(by.begin(), by.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;  // the first (least name) of equal ones
    });
    out.emplace(name, best->first);
  }
  return out;
}

// GPU work of one side only that is the only one of its family in the same places on
// each side: a kernel renamed (another library version, another vendor's GEMM).
void pair_by_place(const model::SetSummary& control, const model::SetSummary& test, const std::vector<Name>& cs,
                   const std::vector<Name>& ts, Renames& out) {
  const auto pc = places(control, cs, nullptr);
  const auto pt = places(test, ts, &out);
  const auto lc = main_launchers(control, cs), lt = main_launchers(test, ts);
  std::map<std::pair<int, std::uint64_t>, std::pair<std::vector<const Name*>, std::vector<const Name*>>> groups;
  for (const auto* side : {&cs, &ts}) {
    const auto& p = side == &cs ? pc : pt;
    for (const auto& n : *side) {
      const auto it = p.find(Renames::joined(n.category, n.name));
      if (it == p.end()) continue;  // in no step: no place to tell
      const auto& launchers = side == &cs ? lc : lt;
      const auto who = launchers.find(it->first);
      const std::string_view launcher = who == launchers.end() ? std::string_view() : std::string_view(who->second);
      auto& g = groups[{static_cast<int>(classify(n.name, n.kind, launcher)), it->second}];
      (side == &cs ? g.first : g.second).push_back(&n);
    }
  }
  for (const auto& [key, g] : groups)
    if (g.first.size() == 1 && g.second.size() == 1)
      out.add(std::string(g.second[0]->category), std::string(g.second[0]->name),
              Rename{std::string(g.first[0]->category), std::string(g.first[0]->name), MatchReason::family}, false);
}

}  // namespace

Renames plan_renames(const model::SetSummary& control, const model::SetSummary& test) {
  Renames out;
  const auto c = names_of(control), t = names_of(test);
  // (group, key) -> names of one side only
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<Name>, std::vector<Name>>> groups;
  std::map<std::pair<std::string, std::string>, MatchReason> reasons;
  // A mangled name is demangled only where the other side has GPU work of its own to pair
  // it with: the demangler's work is bounded (util/demangle.hpp), but not free.
  const auto one_sided_gpu = [](const std::set<Name>& side, const std::set<Name>& other) {
    return std::any_of(side.begin(), side.end(), [&](const Name& n) { return model::is_gpu_work(n.kind) && !other.count(n); });
  };
  const bool gpu_c_only = one_sided_gpu(c, t), gpu_t_only = one_sided_gpu(t, c);
  for (const auto* side : {&c, &t}) {
    const auto& other = side == &c ? t : c;
    const bool other_has_gpu = side == &c ? gpu_t_only : gpu_c_only;
    for (const auto& n : *side) {
      if (other.count(n)) continue;
      MatchReason why;
      auto key = match_key(n.name, n.kind, &why, other_has_gpu);
      std::pair<std::string, std::string> g{group_of(n), std::move(key)};
      reasons.try_emplace(g, why);
      auto& lists = groups[std::move(g)];
      (side == &c ? lists.first : lists.second).push_back(n);
    }
  }
  // Several names of one key on a side pair in order: Python frames by line (a file's
  // functions keep their order when lines shift), others by name.
  const auto order = [](const Name& a, const Name& b) {
    const auto la = python_line(a.name), lb = python_line(b.name);
    if (la && lb && *la != *lb) return *la < *lb;
    return a.name < b.name;
  };
  // GPU work left over, for the second pass.
  std::vector<Name> gpu_c, gpu_t;
  for (auto& [g, lists] : groups) {
    auto& [cs, ts] = lists;
    std::sort(cs.begin(), cs.end(), order);
    std::sort(ts.begin(), ts.end(), order);
    const auto paired = std::min(cs.size(), ts.size());
    for (std::size_t i = 0; i < paired; ++i)
      out.add(std::string(ts[i].category), std::string(ts[i].name),
              Rename{std::string(cs[i].category), std::string(cs[i].name), reasons[g]},
              model::device_of(ts[i].kind) == model::Device::cpu);
    for (std::size_t i = paired; i < cs.size(); ++i)
      if (model::is_gpu_work(cs[i].kind)) gpu_c.push_back(cs[i]);
    for (std::size_t i = paired; i < ts.size(); ++i)
      if (model::is_gpu_work(ts[i].kind)) gpu_t.push_back(ts[i]);
  }
  if (!gpu_c.empty() && !gpu_t.empty()) pair_by_place(control, test, gpu_c, gpu_t, out);
  return out;
}

}  // namespace tracediff::analysis
