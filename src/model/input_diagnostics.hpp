#pragma once
// Counters of input problems, with the first few samples of each (file, byte
// offset, message), as perfetto's import stats do. Cheap to merge across files.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracediff::model {

enum class DiagId : std::uint8_t {
#define X(id, scope, desc) id,
#include "model/input_diagnostics.def"
#undef X
  count_
};

constexpr std::size_t k_diag_count = static_cast<std::size_t>(DiagId::count_);

const char* diag_name(DiagId id);
// The id of a name from diag_name, if there is one.
bool diag_from_name(std::string_view name, DiagId& id);
const char* diag_description(DiagId id);
bool diag_is_file_level(DiagId id);

struct DiagSample {
  DiagId id;
  std::string file;
  std::uint64_t offset = 0;  // byte offset in the (inflated) JSON; 0 when not applicable
  std::string message;
  std::string side;  // the label of the side it came from, once the sides are merged
  std::uint64_t covers = 1;  // how many of the id's count it stands for ("25 host events outside ...")
};

class Diagnostics {
 public:
  static constexpr std::size_t k_samples_per_id = 5;

  void add(DiagId id, std::uint64_t n = 1) { m_counts[static_cast<std::size_t>(id)] += n; }
  // Counts n and keeps the message (which speaks for all n) as a sample while fewer
  // than k_samples_per_id are kept.
  void report(DiagId id, std::string file, std::uint64_t offset, std::string message, std::uint64_t n = 1);
  // With a side, the merged samples are tagged with it (a self-diff reads each file twice).
  void merge(const Diagnostics& other, std::string_view side = {});
  // Keeps a sample without counting it (restoring saved diagnostics).
  void add_sample(DiagSample sample) { m_samples.push_back(std::move(sample)); }

  std::uint64_t count(DiagId id) const { return m_counts[static_cast<std::size_t>(id)]; }
  std::uint64_t total() const;
  const std::vector<DiagSample>& samples() const { return m_samples; }

 private:
  std::array<std::uint64_t, k_diag_count> m_counts{};
  std::vector<DiagSample> m_samples;
};

}  // namespace tracediff::model
