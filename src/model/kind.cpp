#include "model/trace.hpp"

namespace tracediff::model {

Device device_of(Kind kind) {
  switch (kind) {
    case Kind::kernel:
    case Kind::gpu_memcpy:
    case Kind::gpu_memset: return Device::gpu;
    case Kind::gpu_user_annotation:
    case Kind::cuda_sync:
    case Kind::other_device: return Device::other;
    default: return Device::cpu;
  }
}

bool is_gpu_work(Kind kind) { return device_of(kind) == Device::gpu; }
bool is_launch(Kind kind) { return kind == Kind::runtime; }

}  // namespace tracediff::model
