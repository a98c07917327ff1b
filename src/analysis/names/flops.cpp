#include "analysis/names/flops.hpp"

#include <algorithm>
#include <cmath>

namespace tracediff::analysis {

namespace {

// A parser over the canonical text (no spaces); depth is bounded by the reader (8),
// and again here.
class DimsParser {
 public:
  explicit DimsParser(std::string_view s) : m_s(s) {}
  std::optional<std::vector<InputDims>> inputs() {
    std::vector<InputDims> out;
    if (!eat('[')) return std::nullopt;
    if (eat(']')) return m_pos == m_s.size() ? std::optional(out) : std::nullopt;
    do {
      if (m_pos < m_s.size() && m_s[m_pos] != '[') return std::nullopt;  // a number at the top
      auto d = tensor();
      if (!m_ok) return std::nullopt;
      out.push_back(std::move(d));
    } while (eat(','));
    if (!eat(']') || m_pos != m_s.size()) return std::nullopt;
    return out;
  }

 private:
  bool eat(char c) {
    if (m_pos < m_s.size() && m_s[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  // "[1,2]" -> dims; "[[1],[2]]" or deeper -> nullopt (consumed).
  InputDims tensor() {
    if (!eat('[')) return fail();
    std::vector<double> dims;
    bool flat = true;
    if (eat(']')) return dims;
    do {
      if (m_pos < m_s.size() && m_s[m_pos] == '[') {
        flat = false;
        if (++m_depth > 16) return fail();
        tensor();
        --m_depth;
        if (!m_ok) return std::nullopt;
      } else {
        const auto start = m_pos;
        double v = 0;
        while (m_pos < m_s.size() && m_s[m_pos] >= '0' && m_s[m_pos] <= '9') v = v * 10 + (m_s[m_pos++] - '0');
        if (m_pos == start) return fail();
        dims.push_back(v);
      }
    } while (eat(','));
    if (!eat(']')) return fail();
    if (!flat) return std::nullopt;
    return dims;
  }
  InputDims fail() {
    m_ok = false;
    return std::nullopt;
  }
  std::string_view m_s;
  std::size_t m_pos = 0;
  int m_depth = 0;
  bool m_ok = true;
};

const std::vector<double>* input(const std::vector<InputDims>& in, std::size_t i, std::size_t rank) {
  if (i >= in.size() || !in[i] || in[i]->size() != rank) return nullptr;
  return &*in[i];
}

bool floating(const std::vector<std::string_view>& types, std::initializer_list<std::size_t> which) {
  return std::all_of(which.begin(), which.end(),
                     [&](std::size_t i) { return i < types.size() && is_floating_type(types[i]); });
}

std::optional<double> finite(double v) { return std::isfinite(v) ? std::optional(v) : std::nullopt; }

// a [.., M, K] x b [.., K, N], batch dims broadcast (numpy's rules).
std::optional<double> matmul(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const double m = a[a.size() - 2], k = a.back(), k2 = b[b.size() - 2], n = b.back();
  if (k != k2) return std::nullopt;
  double batch = 1;
  const std::size_t ba = a.size() - 2, bb = b.size() - 2;
  for (std::size_t i = 0; i < std::max(ba, bb); ++i) {
    const double x = i < ba ? a[ba - 1 - i] : 1, y = i < bb ? b[bb - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    batch *= std::max(x, y);
  }
  return finite(2 * batch * m * k * n);
}

}  // namespace

std::optional<std::vector<InputDims>> parse_dims(std::string_view dims) { return DimsParser(dims).inputs(); }

ShapeParts split_shape(std::string_view shape) {
  const auto at = shape.find(" (");
  if (at == std::string_view::npos || shape.back() != ')') return {shape, {}};
  return {shape.substr(0, at), shape.substr(at + 2, shape.size() - at - 3)};
}

std::vector<std::string_view> split_types(std::string_view types) {
  std::vector<std::string_view> out;
  if (types.empty()) return out;
  std::size_t from = 0;
  for (;;) {
    const auto comma = types.find(',', from);
    out.push_back(types.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
    if (comma == std::string_view::npos) return out;
    from = comma + 1;
  }
}

bool is_floating_type(std::string_view t) {
  if (t.starts_with("c10::")) t.remove_prefix(5);
  return t == "float" || t == "double" || t == "Half" || t == "BFloat16" || t.starts_with("Float8_");
}

std::optional<double> flops_per_call(std::string_view op, std::string_view shape) {
  const auto parts = split_shape(shape);
  const auto in = parse_dims(parts.dims);
  if (!in) return std::nullopt;
  const auto types = split_types(parts.types);
  if (op == "aten::mm") {
    const auto* a = input(*in, 0, 2);
    const auto* b = input(*in, 1, 2);
    if (!a || !b || !floating(types, {0, 1})) return std::nullopt;
    return matmul(*a, *b);
  }
  if (op == "aten::addmm") {
    const auto* a = input(*in, 1, 2);
    const auto* b = input(*in, 2, 2);
    if (!a || !b || !floating(types, {1, 2})) return std::nullopt;
    return matmul(*a, *b);
  }
  if (op == "aten::bmm" || op == "aten::baddbmm") {
    const std::size_t first = op == "aten::bmm" ? 0 : 1;
    const auto* a = input(*in, first, 3);
    const auto* b = input(*in, first + 1, 3);
    if (!a || !b || (*a)[0] != (*b)[0] || !floating(types, {first, first + 1})) return std::nullopt;
    return matmul(*a, *b);
  }
  if (op == "aten::matmul") {
    if (in->size() < 2 || !(*in)[0] || !(*in)[1] || !floating(types, {0, 1})) return std::nullopt;
    return matmul(*(*in)[0], *(*in)[1]);
  }
  if (op == "aten::linear") {
    const auto* w = input(*in, 1, 2);
    if (in->empty() || !(*in)[0] || (*in)[0]->empty() || !w || !floating(types, {0, 1})) return std::nullopt;
    const auto& x = *(*in)[0];
    const double k = x.back(), n = (*w)[0];
    if ((*w)[1] != k) return std::nullopt;
    double rows = 1;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) rows *= x[i];
    return finite(2 * rows * k * n);
  }
  return std::nullopt;
}

model::DiffRow::Work work_rates(const model::DiffRow::Work::Sums& control, const model::DiffRow::Work::Sums& test) {
  const auto rate = [](double amount, double ns, double per_ns) -> std::optional<double> {
    if (ns <= 0) return std::nullopt;
    const double v = amount / ns / per_ns;
    return std::isfinite(v) ? std::optional(v) : std::nullopt;
  };
  const auto pct = [](const std::optional<double>& c, const std::optional<double>& t) -> std::optional<double> {
    if (!c || !t || *c <= 0) return std::nullopt;
    return 100.0 * (*t - *c) / *c;
  };
  model::DiffRow::Work w;
  w.control_sums = control;
  w.test_sums = test;
  w.control_tflops = rate(control.flop, control.flop_ns, 1000.0);  // FLOP/ns = GFLOP/s
  w.test_tflops = rate(test.flop, test.flop_ns, 1000.0);
  w.control_gbps = rate(control.bytes, control.bytes_ns, 1.0);  // bytes/ns = GB/s
  w.test_gbps = rate(test.bytes, test.bytes_ns, 1.0);
  w.tflops_pct = pct(w.control_tflops, w.test_tflops);
  w.gbps_pct = pct(w.control_gbps, w.test_gbps);
  w.recorded = w.control_tflops || w.test_tflops || w.control_gbps || w.test_gbps;
  return w;
}

}  // namespace tracediff::analysis
