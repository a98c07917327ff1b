// `tracediff merge`: summaries of disjoint ranks into one.
#include <algorithm>
#include <map>

#include "analysis/summarize/summarize.hpp"
#include "util/errors.hpp"

namespace tracediff::analysis {

model::SetSummary merge_summaries(std::vector<model::SetSummary> parts) {
  model::SetSummary out;
  std::map<int, std::pair<std::size_t, std::string>> owner;  // rank -> (part, a file with it)
  for (std::size_t pi = 0; pi < parts.size(); ++pi) {
    auto& part = parts[pi];
    if (out.label.empty()) out.label = part.label;
    out.inputs.insert(out.inputs.end(), part.inputs.begin(), part.inputs.end());
    out.diagnostics.merge(part.diagnostics);
    for (auto& f : part.files) {
      auto [it, fresh] = owner.emplace(f.rank, std::make_pair(pi, f.path));
      if (!fresh && it->second.first != pi)
        throw Fatal("rank " + std::to_string(f.rank) + " is in two summaries (" + it->second.second + ", " + f.path +
                    "); merge combines summaries of disjoint ranks");
      out.files.push_back(std::move(f));
    }
  }
  std::stable_sort(out.files.begin(), out.files.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
  });
  return out;
}

}  // namespace tracediff::analysis
