#include "model/report.hpp"

namespace tracediff::model {

const char* change_name(Change c) {
  switch (c) {
    case Change::added: return "added";
    case Change::deleted: return "deleted";
    case Change::increased: return "increased";
    case Change::decreased: return "decreased";
    case Change::unchanged: return "unchanged";
  }
  return "";
}

const char* change_symbol(Change c) {
  switch (c) {
    case Change::added:
    case Change::increased: return "+";
    case Change::deleted:
    case Change::decreased: return "-";
    case Change::unchanged: return "=";
  }
  return "";
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::slower: return "slower";
    case Verdict::faster: return "faster";
    case Verdict::same: return "same";
    case Verdict::untestable: return "untestable";
  }
  return "";
}

const char* verdict_words(Verdict v) {
  switch (v) {
    case Verdict::slower: return "slower";
    case Verdict::faster: return "faster";
    case Verdict::same: return "same within noise";
    case Verdict::untestable: return "not testable";
  }
  return "";
}

const char* row_words(const DiffRow& row) {
  if (row.waits_for_gpu && row.significant) return "waits for the GPU";
  if (row.by_calls && row.significant) return row.verdict == Verdict::slower ? "more calls" : "fewer calls";
  return verdict_words(row.verdict);
}

const char* figure_words(const Figure& f) {
  if ((f.direction_only || f.bytes) && f.value.significant) return f.value.verdict == Verdict::slower ? "more" : "less";
  return verdict_words(f.value.verdict);
}

std::string memory_device_name(int device_type, int device_id) {
  if (device_type < 0) return "device not recorded";
  if (device_type == 0) return "CPU";
  // CUDA, HIP (ROCm keeps CUDA's type in PyTorch's profiler, but HIP too is a GPU)
  if (device_type == 1 || device_type == 6) return "GPU " + std::to_string(device_id);
  return "device type " + std::to_string(device_type) + " id " + std::to_string(device_id);
}

const char* mark_name(Mark m) {
  switch (m) {
    case Mark::fail: return "fail";
    case Mark::pass: return "pass";
    case Mark::warn: return "warn";
    case Mark::neutral: return "neutral";
  }
  return "";
}

const char* gate_outcome_name(GateOutcome o) {
  switch (o) {
    case GateOutcome::fired: return "fired";
    case GateOutcome::passed: return "passed";
    case GateOutcome::within_noise: return "within_noise";
    case GateOutcome::not_evaluated: return "not_evaluated";
  }
  return "";
}

std::vector<std::size_t> DiffReport::impact_order() const {
  bool ok = by_impact.size() == rows.size();
  std::vector<bool> seen(rows.size(), false);
  for (auto i : by_impact) {
    if (!ok) break;
    ok = i < rows.size() && !seen[i];
    if (ok) seen[i] = true;
  }
  if (ok) return by_impact;
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  return order;
}

}  // namespace tracediff::model

namespace tracediff::model {

std::vector<std::string_view> CallTree::path(std::uint32_t node) const {
  std::vector<std::string_view> out;
  for (; node != k_no_node && node < nodes.size(); node = nodes[node].parent) out.push_back(nodes[node].name);
  return {out.rbegin(), out.rend()};
}

}  // namespace tracediff::model
