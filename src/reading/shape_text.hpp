#pragma once
// --by-shape: the canonical text of a cpu_op's `args["Input Dims"]` and
// `args["Input type"]`, built from the values' JSON tokens so that both readers (the
// fast path sees raw text, the tolerant one Boost.JSON's events) give the same bytes:
//   [[64, 1024], [1024, 4096]] + ["float", "float"]  ->  [[64,1024],[1024,4096]] (float,float)
// These are untrusted strings: anything but nested arrays of non-negative integers
// (dims) or an array of plain type names (types), or text past the limits, gives no
// shape (or no types), never an error. Internal to reading/.
#include <cstddef>
#include <string>
#include <string_view>

namespace tracediff::reading::detail {

// Dims longer than this are no shape (a TensorList of hundreds of tensors): the
// operator's row is then keyed by its name alone, as without --by-shape.
constexpr std::size_t k_max_dims_text = 1024;
constexpr std::size_t k_max_types_text = 512;
constexpr int k_max_dims_depth = 8;

class ShapeBuilder {
 public:
  explicit ShapeBuilder(bool types) : m_types(types) {}
  void reset();
  void begin_array();
  void end_array();
  void number(std::string_view text);
  void string(std::string_view text);
  void other() { m_valid = false; }  // an object, a bool or null: not a shape
  // The canonical text once the value is complete; empty when it is not one.
  std::string_view text() const { return m_valid && m_started && m_depth == 0 ? std::string_view(m_text) : std::string_view(); }

 private:
  void element();
  bool m_types;
  bool m_valid = true, m_started = false;
  int m_depth = 0;
  bool m_first[k_max_dims_depth + 1] = {};
  std::string m_text;
};

// "DIMS" or "DIMS (TYPES)", the text kept per event; empty without usable dims.
void shape_key(std::string_view dims, std::string_view types, std::string& out);

}  // namespace tracediff::reading::detail
