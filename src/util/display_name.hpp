#pragma once
// Operator and kernel names as every human view shows them (HTML report, terminal,
// Markdown). Kernel names are C++ signatures of up to ~1,700 characters: cutting one
// in the middle keeps the shared namespaces and parameter lists and drops exactly the
// template argument that tells two kernels apart, so five labels read
// "void cutlass::Kernel<cutla…::Params)". Here the noise goes first, the middle is
// cut by code points, and labels shown together differ where their names do.
//
//   simplify_name("void at::native::vectorized_elementwise_kernel<4, at::native::"
//                 "CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, ...)")
//       -> "vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3> >"
//   elide("abcdefghij", 7)              -> "abcd…ij"
//   elide_around("abcdefghijklmnop", 9, 8) -> "a…hijkl…p"
//
// Strings in, strings out: every result is valid UTF-8 (invalid bytes become U+FFFD)
// and lengths count code points, not bytes or terminal columns. Labels also show
// control characters as escapes (util/sanitize), as every view does.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/demangle.hpp"

namespace tracediff {

// demangle(): util/demangle.hpp.

// The name without what never tells two names apart, when it is a C++ function
// signature (a mangled name is demangled first, within demangle's bounds): the return type "void " and the trailing parameter list (with a
// trailing " const"; a kernel's parameters repeat its template arguments), and
// everywhere the qualifiers "(anonymous namespace)::", "at::native::" and
// "at::detail::". Template arguments and lambda names ("{lambda(float)#1}") stay.
// Other names (aten::add, Memcpy HtoD (Pageable -> Device), module.py(12): f, ...)
// come back unchanged; if nothing would be left, the name itself. Linear time.
std::string simplify_name(std::string_view name);

// At most max_chars code points: the head and the tail, "…" (U+2026) between
// them, when longer. The head gets two thirds: it holds the function's name.
std::string elide(std::string_view s, std::size_t max_chars);

// A call path in one line: its parts joined by " › ", each elided to max_chars
// code points when given (a terminal's width leaves less room than a page).
std::string path_text(const std::vector<std::string>& parts, std::size_t max_chars = 0);

// As elide, but code point number `at` (where s differs from a similar name)
// stays visible with its context: head…window…tail (or head…tail when the
// window reaches either end), at most max_chars code points. Below 5 there is no
// room for a window and this is elide. An invalid byte counts as one code point.
std::string elide_around(std::string_view s, std::size_t max_chars, std::size_t at);

// One label per name, in input order, for names shown together in one view (a
// chart, a table): elide(simplify_name(name), max_chars), except where two labels
// would be equal for different names. Those show the text around the first code
// point where their simplified names differ (elide_around), lengthened in steps
// beyond max_chars only when that is not enough; names that differ only in what
// simplify_name dropped (overloads) use the full name the same way, and names
// that differ only in invalid bytes show them as \xNN. Equal names get equal
// labels; the labels do not depend on the input order. O(n log n) comparisons.
std::vector<std::string> distinct_labels(const std::vector<std::string_view>& names,
                                         std::size_t max_chars);

}  // namespace tracediff
