#include "reading/category.hpp"

#include <algorithm>

namespace tracediff::reading {

std::string normalize_category(std::string_view cat) {
  std::string s(cat);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  if (s == "operator") return "cpu_op";
  if (s == "runtime") return "cuda_runtime";
  if (s == "memcpy") return "gpu_memcpy";
  if (s == "memset") return "gpu_memset";
  return s;
}

model::Kind kind_of_category(std::string_view c) {
  using model::Kind;
  if (c == "cpu_op") return Kind::cpu_op;
  if (c == "user_annotation") return Kind::user_annotation;
  if (c == "python_function") return Kind::python_function;
  if (c == "cuda_runtime" || c == "cuda_driver" || c == "mtia_runtime" || c == "xpu_runtime" ||
      c == "xpu_driver" || c == "privateuse1_runtime" || c == "privateuse1_driver")
    return Kind::runtime;
  if (c == "kernel") return Kind::kernel;
  if (c == "gpu_memcpy") return Kind::gpu_memcpy;
  if (c == "gpu_memset") return Kind::gpu_memset;
  if (c == "gpu_user_annotation") return Kind::gpu_user_annotation;
  if (c == "cuda_sync" || c == "xpu_sync") return Kind::cuda_sync;
  if (c == "cuda_event" || c == "cuda_profiler_range" || c == "mtia_ccp_events" ||
      c == "hardware_counters" || c == "mtia_counters")
    return Kind::other_device;
  return Kind::other_host;
}

}  // namespace tracediff::reading
