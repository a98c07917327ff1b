#pragma once
// Kernel families: what kind of work a GPU event does (GEMM, attention, all-reduce,
// memcpy HtoD, ...), read from its name by one ordered rule table (families.cpp,
// README "Kernel families"), so that traces from two vendors or library versions,
// whose kernel names share nothing, still compare family by family.
#include <string_view>

#include "model/report.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

enum class Family : unsigned char {
  gemm,
  convolution,
  attention,
  normalization,
  softmax,
  elementwise,     // elementwise and activation
  reduction,       // reductions, scans, sorts, top-k, pooling
  embedding,       // embedding and indexing (gather, scatter, index_select, ...)
  copy,            // copy and cast, concatenation, layout changes
  comm_all_reduce,
  comm_all_gather,
  comm_reduce_scatter,
  comm_send_recv,
  comm_all_to_all,
  comm_broadcast,
  comm_other,
  memcpy_htod,
  memcpy_dtoh,
  memcpy_dtod,
  memcpy_ptop,
  memset,
  other,
};
constexpr int k_family_count = static_cast<int>(Family::other) + 1;

// Stable id for JSON, CSV and --fail-on: "gemm", "all_reduce", "memcpy_htod", ...
const char* family_name(Family f);
// For people: "GEMM", "All-reduce", "Memcpy HtoD", ...
const char* family_label(Family f);
// The family of an id as family_name() writes it; false when there is none.
bool family_from_name(std::string_view id, Family& f);
// Every id, in enum order, comma-separated (for usage errors).
const char* family_ids();

// The family of a GPU event by its name and kind: memcpy by the direction in its
// name, memset, and kernels by the rule table (first match wins, case-insensitive).
// Anything that is not GPU work is `other`. Costs a pass over the name per rule:
// call it once per distinct name, never per event.
Family classify(std::string_view name, model::Kind kind);

struct NoiseRule;

namespace detail {
// Default mode, once the rows are in their final order: each GPU row's family
// (DiffRow::family, classified once per row by its full name and category) and the
// families table (DiffReport::families), judged per step with `rule` (family_table.cpp).
void decide_families(model::DiffReport& report, const NoiseRule& rule);
}  // namespace detail

}  // namespace tracediff::analysis
