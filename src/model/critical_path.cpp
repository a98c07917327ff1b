#include "model/critical_path.hpp"

namespace tracediff::model {

namespace {
struct BoundNames {
  const char* id;
  const char* label;
};
// HTA's names for the first five (its bound_by column), in Bound's order.
constexpr BoundNames k_bound_names[k_bound_count] = {
    {"cpu_bound", "CPU"},
    {"data_loading", "data loading"},
    {"gpu_compute_bound", "GPU compute"},
    {"gpu_communication_bound", "GPU communication"},
    {"gpu_kernel_launch_overhead", "kernel launch"},
    {"gpu_kernel_kernel_overhead", "gaps between kernels"},
};
}  // namespace

const char* bound_id(Bound b) { return k_bound_names[static_cast<std::size_t>(b)].id; }
const char* bound_label(Bound b) { return k_bound_names[static_cast<std::size_t>(b)].label; }

}  // namespace tracediff::model
