#include <utility>

#include "model/trace.hpp"

namespace tracediff::model {

const char* device_name(Device d) {
  return d == Device::cpu ? "cpu" : d == Device::gpu ? "gpu" : "other";
}

namespace {
constexpr std::pair<const char*, Kind> k_kinds[] = {
    {"cpu_op", Kind::cpu_op},         {"user_annotation", Kind::user_annotation},
    {"python_function", Kind::python_function}, {"runtime", Kind::runtime},
    {"other_host", Kind::other_host}, {"kernel", Kind::kernel},
    {"gpu_memcpy", Kind::gpu_memcpy}, {"gpu_memset", Kind::gpu_memset},
    {"gpu_user_annotation", Kind::gpu_user_annotation}, {"cuda_sync", Kind::cuda_sync},
    {"other_device", Kind::other_device}};
}  // namespace

const char* kind_name(Kind kind) {
  for (const auto& [n, k] : k_kinds)
    if (k == kind) return n;
  return "other_host";
}

bool kind_from_name(std::string_view name, Kind& kind) {
  for (const auto& [n, k] : k_kinds)
    if (name == n) {
      kind = k;
      return true;
    }
  return false;
}

const char* rank_source_name(RankSource s) {
  switch (s) {
    case RankSource::distributed_info: return "distributedInfo";
    case RankSource::file_name: return "file_name";
    case RankSource::fallback: return "fallback";
  }
  return "fallback";
}

}  // namespace tracediff::model
