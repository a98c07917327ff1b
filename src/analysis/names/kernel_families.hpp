#pragma once
// Kernel families: what kind of work a GPU event does (GEMM, attention, all-reduce,
// memcpy HtoD, ...), read from its name by one ordered rule table (kernel_families.cpp,
// docs/families.md) and, where the name is generic, from the operator that
// launched it, so that traces from two vendors or library versions, whose kernel
// names share nothing, still compare family by family.
#include <string>
#include <string_view>

#include "model/report.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

enum class Family : unsigned char {
  gemm,
  convolution,
  attention,       // attention and its KV cache (writes, copies, indices)
  moe,             // mixture of experts: routing, token permutation, expert GEMMs
  normalization,
  softmax,
  elementwise,     // elementwise and activation
  reduction,       // reductions and pooling
  sort,            // sorts, scans, top-k, compaction
  sampling,        // token sampling: top-k/top-p/min-p, multinomial, penalties
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
// A kernel no rule knows goes by the words of its name (words_family). Anything that is
// not GPU work is `other`. Costs one pass over the name (the rule texts are an
// automaton, built on the first call): call it once per distinct name, never per event.
Family classify(std::string_view name, model::Kind kind);
// The same, with the CPU operator that launched the kernel (DiffRow::launched_by;
// empty for none): where the name says only "a GEMM" or nothing known, the operator
// says what the work is for. A GEMM launched by a convolution (aten::cudnn_convolution,
// aten::convolution_backward, nn.Module: Conv2d) is convolution work, by an attention
// or MoE operator that family's; a name no rule knows takes its launcher's family
// (aten::mm: GEMM, aten::native_layer_norm: normalization, aten::add: elementwise, ...),
// and failing that the words of its name.
Family classify(std::string_view name, model::Kind kind, std::string_view launcher);
// The family an operator's GPU work belongs to by the operator's name (aten ops by
// name, modules and custom operators by the words in them); `other` if it says none.
Family launcher_family(std::string_view launcher);
// The family the words of a kernel's name suggest ("attn", "gemm", "mul", "cast", ...,
// whole words, camelCase split), for a name no rule knows and no launcher explains;
// `other` if they suggest none.
Family words_family(std::string_view name);

// How a GPU event's family was decided, in the order tried (DiffRow::family_by): a rule
// of the table; the launching operator (a name no rule knows, or a generic GEMM under a
// convolution, attention or MoE operator); the words of the name; the event's kind
// (memcpy, memset); none (`other`).
enum class FamilyBy : unsigned char { rule, launcher, words, kind, none };
// "rule", "launcher", "words", "kind", "none"
const char* family_by_name(FamilyBy by);
struct Classified {
  Family family = Family::other;
  FamilyBy by = FamilyBy::none;
};
// classify() with the reason: rule, then launcher, then words, then `other`.
Classified classify_why(std::string_view name, model::Kind kind, std::string_view launcher);

struct NoiseRule;

namespace detail {
// A name lower-cased for the rules and the launcher table, library prefixes that say
// nothing of the work ("fbgemm", CuTe DSL's "kernel_cutlass_") masked.
std::string lowered(std::string_view name);

// Default mode, once the rows are in their final order: each GPU row's family
// (DiffRow::family, classified once per row by its full name, category and launcher) and the
// families table (DiffReport::families), judged per step with `rule` (family_table.cpp).
void decide_families(model::DiffReport& report, const NoiseRule& rule);
}  // namespace detail

}  // namespace tracediff::analysis
