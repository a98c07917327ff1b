#pragma once
// Category names: Kineto's current names, legacy spellings, and what each means.
#include <string>
#include <string_view>

#include "model/trace.hpp"

namespace tracediff::reading {

// Lower-case, with legacy names mapped to current ones: Operator -> cpu_op,
// Runtime -> cuda_runtime, Kernel -> kernel, Memcpy -> gpu_memcpy, Memset -> gpu_memset,
// gpu_user_Annotation -> gpu_user_annotation (kineto-trace-format.md §2.3).
std::string normalize_category(std::string_view cat);

// Where an event of a normalised category runs.
model::Kind kind_of_category(std::string_view normalized);

}  // namespace tracediff::reading
