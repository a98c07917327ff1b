#include "reading/shape_text.hpp"

namespace tracediff::reading::detail {

namespace {
// Type names as PyTorch writes them: float, c10::BFloat16, Scalar, long int,
// std::optional<int>... Anything else (quotes, commas, control bytes) drops the types.
bool type_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':' ||
         c == '.' || c == '<' || c == '>' || c == ' ' || c == '*' || c == '&';
}
}  // namespace

void ShapeBuilder::reset() {
  m_valid = true;
  m_started = false;
  m_depth = 0;
  m_text.clear();
}

// Before a value inside an array: the separator.
void ShapeBuilder::element() {
  if (m_depth == 0) {
    m_valid = false;  // a scalar at the top: not a list
    return;
  }
  if (!m_first[m_depth]) m_text += ',';
  m_first[m_depth] = false;
}

void ShapeBuilder::begin_array() {
  if (!m_valid) return;
  if (m_started && m_depth == 0) {
    m_valid = false;
    return;
  }
  if (m_depth > 0) {
    if (m_types) {  // types are a flat list
      m_valid = false;
      return;
    }
    element();
  }
  m_started = true;
  if (m_depth >= k_max_dims_depth) {
    m_valid = false;
    return;
  }
  ++m_depth;
  m_first[m_depth] = true;
  if (!m_types) m_text += '[';
}

void ShapeBuilder::end_array() {
  if (!m_valid) return;
  if (m_depth == 0) {
    m_valid = false;
    return;
  }
  --m_depth;
  if (!m_types) m_text += ']';
}

void ShapeBuilder::number(std::string_view text) {
  if (!m_valid) return;
  if (m_types || text.empty() || text.size() > 20) {
    m_valid = false;
    return;
  }
  for (const char c : text)
    if (c < '0' || c > '9') {
      m_valid = false;  // negative, fractional or exponent: not a dimension
      return;
    }
  element();
  m_text += text;
  if (m_text.size() > k_max_dims_text) m_valid = false;
}

void ShapeBuilder::string(std::string_view text) {
  if (!m_valid) return;
  if (!m_types || m_depth != 1) {
    m_valid = false;
    return;
  }
  for (const char c : text)
    if (!type_char(c)) {
      m_valid = false;
      return;
    }
  element();
  m_text += text;
  if (m_text.size() > k_max_types_text) m_valid = false;
}

void shape_key(std::string_view dims, std::string_view types, std::string& out) {
  out.clear();
  if (dims.empty()) return;
  out += dims;
  if (types.empty()) return;
  out += " (";
  out += types;
  out += ')';
}

}  // namespace tracediff::reading::detail
