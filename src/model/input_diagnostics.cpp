#include "model/input_diagnostics.hpp"

#include <algorithm>
#include <cstring>

namespace tracediff::model {

namespace {
struct Info {
  const char* name;
  const char* scope;
  const char* description;
};
constexpr Info k_info[] = {
#define X(id, scope, desc) {#id, #scope, desc},
#include "model/input_diagnostics.def"
#undef X
};
}  // namespace

const char* diag_name(DiagId id) { return k_info[static_cast<std::size_t>(id)].name; }
bool diag_from_name(std::string_view name, DiagId& id) {
  for (std::size_t i = 0; i < k_diag_count; ++i)
    if (name == k_info[i].name) {
      id = static_cast<DiagId>(i);
      return true;
    }
  return false;
}

const char* diag_description(DiagId id) { return k_info[static_cast<std::size_t>(id)].description; }
bool diag_is_file_level(DiagId id) {
  return std::strcmp(k_info[static_cast<std::size_t>(id)].scope, "file") == 0;
}

void Diagnostics::report(DiagId id, std::string file, std::uint64_t offset, std::string message, std::uint64_t n) {
  add(id, n);
  const auto kept = std::count_if(m_samples.begin(), m_samples.end(),
                                  [&](const DiagSample& s) { return s.id == id; });
  if (static_cast<std::size_t>(kept) < k_samples_per_id)
    m_samples.push_back({id, std::move(file), offset, std::move(message), {}, n});
}

void Diagnostics::merge(const Diagnostics& other, std::string_view side) {
  for (std::size_t i = 0; i < k_diag_count; ++i) m_counts[i] += other.m_counts[i];
  for (const auto& s : other.m_samples) {
    const auto kept = std::count_if(m_samples.begin(), m_samples.end(),
                                    [&](const DiagSample& x) { return x.id == s.id; });
    if (static_cast<std::size_t>(kept) >= k_samples_per_id) continue;
    m_samples.push_back(s);
    if (!side.empty()) m_samples.back().side = side;
  }
}

std::uint64_t Diagnostics::total() const {
  std::uint64_t t = 0;
  for (auto c : m_counts) t += c;
  return t;
}

}  // namespace tracediff::model
