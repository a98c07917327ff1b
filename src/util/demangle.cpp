// C++ names demangled within a budget: the output's size estimated from the mangled text
// before abi::__cxa_demangle is asked (its work grows with its output).
#include "util/demangle.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace tracediff {

namespace {

using Size = std::size_t;
constexpr Size k_saturated = SIZE_MAX;
// The longest text one mangled byte stands for ("unsigned long long", "decltype(nullptr)",
// ", ", "::", "> >" ...).
constexpr Size k_per_byte = 24;

Size add(Size a, Size b) { return a > k_saturated - b ? k_saturated : a + b; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_seq(char c) { return is_digit(c) || (c >= 'A' && c <= 'Z'); }
bool is_builtin(char c) { return std::string_view("vwbcahstijlmxynofdegz").find(c) != std::string_view::npos; }

struct Frame {
  char kind;         // '0' the encoding, N nested name, I/J template arguments, L literal, X expression ...
  Size sum = 0;      // the text of the components completed at this level
  Size last = 0;     // the last component (a template-id's name, a constructor's class)
  Size pending = 0;  // prefixes waiting for their type (P, R, K, array and vector sizes)
  int parts = 0;
};

class Estimate {
 public:
  explicit Estimate(std::string_view s) : m_s(s) {}

  Size run() {
    m_stack.push_back({'0'});
    std::size_t i = 2;  // after "_Z"
    while (i < m_s.size() && m_largest != k_saturated) {
      if (m_stack.back().kind == 'L' && m_stack.back().parts > 0 && m_s[i] != 'E') {  // a literal's value
        const auto end = m_s.find('E', i);
        const auto n = (end == std::string_view::npos ? m_s.size() : end) - i;
        m_stack.back().sum = add(m_stack.back().sum, n);
        i += n;
        continue;
      }
      i = step(i);
    }
    if (m_stack.size() != 1) return k_saturated;  // not understood: not estimated low
    return add(m_stack.back().sum, m_stack.back().pending);
  }

 private:
  std::size_t digits_from(std::size_t i) const {
    while (i < m_s.size() && is_digit(m_s[i])) ++i;
    return i;
  }
  // Skips <digits>? '_' (sizes, discriminators, closure numbers); returns where it stops.
  std::size_t number_then_underscore(std::size_t i) const {
    i = digits_from(i);
    return i < m_s.size() && m_s[i] == '_' ? i + 1 : i;
  }

  bool in_expression() const {
    return std::any_of(m_stack.begin(), m_stack.end(), [](const Frame& f) { return f.kind == 'X'; });
  }

  void component(Size v) {
    auto& f = m_stack.back();
    v = add(v, f.pending);
    f.pending = 0;
    f.sum = add(f.sum, v);
    f.last = v;
    ++f.parts;
    m_largest = std::max(m_largest, v);
    if (f.kind == 'N') m_largest = std::max(m_largest, f.sum);  // a nested name's prefixes are candidates
  }

  // A substitution or template parameter: at most the largest candidate before it; inside
  // an expression (whose grammar this does not follow) all the text so far.
  void back_reference() {
    Size v = m_largest;
    if (in_expression())
      for (const auto& f : m_stack) v = add(v, f.sum);
    component(add(v, k_per_byte));
  }

  void open(char kind) { m_stack.push_back({kind}); }

  // Closes the innermost group; returns its kind.
  char close() {
    if (m_stack.size() == 1) {  // an 'E' with nothing open: not understood
      m_largest = k_saturated;
      return '0';
    }
    const Frame f = m_stack.back();
    m_stack.pop_back();
    const Size content = add(add(f.sum, f.pending), k_per_byte);
    auto& parent = m_stack.back();
    if (f.kind == 'I' && parent.parts > 0) {  // a template-id: its name and arguments
      const Size id = add(parent.last, content);
      parent.sum = add(parent.sum, content);
      parent.last = id;
      m_largest = std::max(m_largest, id);
      if (parent.kind == 'N') m_largest = std::max(m_largest, parent.sum);
    } else {
      component(content);
    }
    return f.kind;
  }

  std::size_t step(std::size_t i) {
    const char c = m_s[i];
    const char n = i + 1 < m_s.size() ? m_s[i + 1] : '\0';
    if (is_digit(c)) {  // <length><identifier>
      Size len = 0;
      std::size_t j = i;
      for (; j < m_s.size() && is_digit(m_s[j]) && len <= m_s.size(); ++j) len = len * 10 + (m_s[j] - '0');
      const Size take = std::min<Size>(len, m_s.size() - j);
      component(add(take, 2));
      return j + take;
    }
    switch (c) {
      case 'S':
        if (n == '_' || is_seq(n)) {
          std::size_t j = i + 1;
          while (j < m_s.size() && is_seq(m_s[j])) ++j;
          back_reference();
          return j < m_s.size() && m_s[j] == '_' ? j + 1 : j;
        }
        component(64);  // St, Sa, Ss, Si, So, Sd, Sb: std:: names of at most 64 characters
        return i + 2;
      case 'T':
        if (n == '_' || is_digit(n) || n == 'L') {  // T_, T<n>_, TL<n>__
          back_reference();
          std::size_t j = i + 1;
          while (j < m_s.size() && m_s[j] != '_') ++j;
          if (n == 'L' && j + 1 < m_s.size()) j = number_then_underscore(j + 1) - 1;
          return j + 1;
        }
        m_stack.back().pending = add(m_stack.back().pending, k_per_byte);  // special names (vtables ...)
        return i + 2;
      case 'f':
        if (n == 'p' || (n == 'L' && i + 2 < m_s.size() && is_digit(m_s[i + 2]))) {  // fp<cv>_, fL<n>p<cv>_
          back_reference();
          std::size_t j = i + 2;
          while (j < m_s.size() && m_s[j] != '_') ++j;
          return j + 1;
        }
        break;
      case 'N': open('N'); return i + 1;
      case 'I': open('I'); return i + 1;
      case 'J': open('J'); return i + 1;
      case 'X': open('X'); return i + 1;
      case 'F': open('F'); return i + 1;
      case 'Z': open('Z'); return i + 1;
      case 'L':
        if (is_digit(n) && (m_stack.back().kind == 'N' || (m_stack.size() == 1 && m_stack.back().parts == 0)))
          return i + 1;  // internal linkage (a static function), not a literal
        if (n == '_' && i + 2 < m_s.size() && m_s[i + 2] == 'Z') {  // L_Z <encoding> E
          open('Z');
          return i + 3;
        }
        open('L');
        return i + 1;
      case 'E':
        if (close() == 'U') return number_then_underscore(i + 1);  // a lambda's number: Ul...E<n>?_
        if (i + 1 < m_s.size() && m_s[i + 1] == '_') return number_then_underscore(i + 2);  // Z...E_<n>
        return i + 1;
      case 'U':
        if (n == 'l') {  // a lambda: Ul <parameters> E <n>? _
          open('U');
          return i + 2;
        }
        if (n == 't') {  // an unnamed type: Ut <n>? _
          component(k_per_byte);
          return number_then_underscore(i + 2);
        }
        break;
      case 'C':
      case 'D':
        if (is_digit(n) || (c == 'C' && n == 'I')) {  // constructors and destructors name their class
          component(add(m_stack.back().last, k_per_byte));  // or C: a complex type, " _Complex" after
          return c == 'C' && n == 'I' ? i + 3 : i + 2;
        }
        if (c == 'D') {
          if (n == 'v' || n == 'F' || n == 'B') {  // vector sizes, _FloatN, _BitInt(N)
            m_stack.back().pending = add(m_stack.back().pending, k_per_byte);
            return number_then_underscore(i + 2);
          }
          if (n == 't' || n == 'T') {  // decltype(expression)
            open('X');
            return i + 2;
          }
          if (n == 'p' || n == 'x' || n == 'o' || n == 'O' || n == 'w') {  // pack expansion, noexcept ...
            m_stack.back().pending = add(m_stack.back().pending, k_per_byte);
            return i + 2;
          }
          component(k_per_byte);  // Dd, De, Df, Dh, Di, Ds, Du, Da, Dc, Dn
          return i + 2;
        }
        break;
      case 'A':  // an array: A <size>? _ <type>
        m_stack.back().pending = add(m_stack.back().pending, k_per_byte);
        return number_then_underscore(i + 1);
      case '_':  // a discriminator: _<digit> or __<number>_
        return n == '_' ? number_then_underscore(i + 2) : digits_from(i + 1);
      case '.':  // a vendor's suffix (.constprop.0): printed as it is
        component(m_s.size() - i);
        return m_s.size();
      default: break;
    }
    if (is_builtin(c) && m_stack.back().kind != 'X') {
      component(k_per_byte);
      return i + 1;
    }
    // Qualifiers and prefixes (P, R, O, K, V, r, G, u ...) and an expression's operators.
    m_stack.back().pending = add(m_stack.back().pending, k_per_byte);
    return i + 1;
  }

  std::string_view m_s;
  std::vector<Frame> m_stack;
  Size m_largest = 0;
};

// The common grammar of kernel names followed exactly, with the substitution table the
// demangler keeps (which names and types become candidates, in its order), so that a
// back-reference counts as what it names: nested names, template arguments and
// literals, class types, qualifiers and pointers, template parameters. Anything else
// throws Unsupported and the conservative Estimate decides.
struct Unsupported {};

// Recursion depth, bounded: a name of 64 KiB could nest 64,000 deep (PPPP...) and overflow
// the stack; deeper names go to Estimate, which does not recurse.
class Depth {
 public:
  explicit Depth(int& depth) : m_depth(depth) {
    if (++m_depth > 256) {
      --m_depth;
      throw Unsupported{};
    }
  }
  ~Depth() { --m_depth; }
  Depth(const Depth&) = delete;
  Depth& operator=(const Depth&) = delete;

 private:
  int& m_depth;
};

class Exact {
 public:
  explicit Exact(std::string_view s) : m_s(s) {}

  Size run() {
    m_i = 2;
    Size r = encoding();
    if (peek() == '.') r = add(r, m_s.size() - m_i);  // a vendor's suffix (.constprop.0)
    else if (m_i != m_s.size()) throw Unsupported{};
    return r;
  }

 private:
  char peek(std::size_t k = 0) const { return m_i + k < m_s.size() ? m_s[m_i + k] : '\0'; }
  void push(Size v) {
    if (m_subs.size() > m_s.size()) throw Unsupported{};
    m_subs.push_back(v);
    seen(v);
  }
  Size seen(Size v) {
    m_largest = std::max(m_largest, v);
    return v;
  }

  // A function's name, its return type when it is a template's, its parameters (up to the
  // end, a vendor's suffix, or the E that closes a local name).
  Size encoding() {
    const Depth depth(m_depth);
    std::vector<Size> args;
    Size r = name(args);
    if (m_i == m_s.size() || peek() == 'E' || peek() == '.') return r;
    m_targs = args;
    if (!args.empty()) r = add(add(r, type()), 1);
    Size params = 2;
    while (m_i < m_s.size() && peek() != 'E' && peek() != '.') params = add(params, add(type(), 2));
    return seen(add(r, params));
  }

  // Z <encoding> E <entity> [<discriminator>]: a name local to a function. The demangler's
  // table around local names and lambdas is not followed: from here on every reference
  // counts as the largest text seen (an upper bound, as in Estimate).
  Size local_name() {
    ++m_i;  // Z
    const Size function = encoding();
    if (peek() != 'E') throw Unsupported{};
    ++m_i;
    m_uncertain = true;
    Size entity;
    if (peek() == 's') {
      ++m_i;
      entity = 16;  // "string literal"
    } else {
      std::vector<Size> args;
      entity = name(args);
    }
    if (peek() == '_') {  // _<digit> or __<number>_
      ++m_i;
      if (peek() == '_') {
        ++m_i;
        while (is_digit(peek())) ++m_i;
        if (peek() != '_') throw Unsupported{};
        ++m_i;
      } else if (is_digit(peek())) {
        ++m_i;
      } else {
        throw Unsupported{};
      }
    }
    return seen(add(add(function, entity), 2));
  }

  // One component of a name: an identifier, an operator (two lower-case letters: cl is
  // operator()), a lambda (Ul <parameters> E <number>? _) or an unnamed type (Ut <n>? _).
  Size unqualified_name() {
    const char c = peek();
    if (is_digit(c)) return source_name();
    if (c == 'U' && (peek(1) == 'l' || peek(1) == 't')) {
      m_uncertain = true;
      const bool lambda = peek(1) == 'l';
      m_i += 2;
      Size r = 24;
      if (lambda) {
        while (peek() != 'E') {
          if (peek() == '\0') throw Unsupported{};
          r = add(r, add(type(), 2));
        }
        ++m_i;
      }
      while (is_digit(peek())) ++m_i;
      if (peek() != '_') throw Unsupported{};
      ++m_i;
      return seen(r);
    }
    if (c >= 'a' && c <= 'z' && peek(1) >= 'a' && peek(1) <= 'z' && !(c == 'c' && peek(1) == 'v')) {
      m_i += 2;
      return 24;  // "operator()", "operator<<=" ...
    }
    throw Unsupported{};
  }

  Size source_name() {
    Size len = 0;
    while (is_digit(peek()) && len <= m_s.size()) len = len * 10 + (m_s[m_i++] - '0');
    if (len == 0 || len > m_s.size() - m_i) throw Unsupported{};
    m_i += len;
    return len;
  }

  // S_, S<seq-id>_ (the table's entries) and the std:: abbreviations; `abbreviated` says which.
  Size substitution(bool& abbreviated) {
    ++m_i;  // S
    const char c = peek();
    abbreviated = false;
    if (c == '_' || is_seq(c)) {
      Size id = 0;
      if (c != '_') {
        while (is_seq(peek()) && id <= m_s.size()) id = id * 36 + (is_digit(peek()) ? peek() - '0' : peek() - 'A' + 10), ++m_i;
        ++id;
      }
      if (peek() != '_') throw Unsupported{};
      ++m_i;
      if (m_uncertain) return add(m_largest, k_per_byte);
      if (id >= m_subs.size()) throw Unsupported{};
      return m_subs[id];
    }
    abbreviated = true;
    ++m_i;
    switch (c) {
      case 't': return 3;                        // std
      case 'a': case 'b': return 24;             // std::allocator, std::basic_string
      case 's': case 'i': case 'o': case 'd': return 80;  // std::string, std::istream ... in full
      default: throw Unsupported{};
    }
  }

  Size template_param() {
    ++m_i;  // T
    Size id = 0;
    if (peek() != '_') {
      if (!is_digit(peek())) throw Unsupported{};
      while (is_digit(peek()) && id <= m_s.size()) id = id * 10 + (m_s[m_i++] - '0');
      ++id;
    }
    if (peek() != '_') throw Unsupported{};
    ++m_i;
    if (m_uncertain) return add(m_largest, k_per_byte);
    if (id >= m_targs.size()) throw Unsupported{};
    return m_targs[id];
  }

  Size template_args(std::vector<Size>& out) {
    ++m_i;  // I
    out.clear();
    Size r = 3;  // "<", "> "
    while (peek() != 'E') {
      if (peek() == '\0') throw Unsupported{};
      out.push_back(argument());
      r = add(r, add(out.back(), 2));
    }
    ++m_i;
    return r;
  }

  Size argument() {
    const Depth depth(m_depth);
    if (peek() == 'L') return literal();
    if (peek() == 'J') {  // a pack
      ++m_i;
      Size r = 0;
      while (peek() != 'E') {
        if (peek() == '\0') throw Unsupported{};
        r = add(r, add(argument(), 2));
      }
      ++m_i;
      return r;
    }
    return type();
  }

  Size literal() {
    ++m_i;  // L
    Size t;
    if (is_builtin(peek())) {
      ++m_i;
      t = k_per_byte;
    } else {
      if (peek() == '_') throw Unsupported{};  // L_Z <encoding> E
      t = type();
    }
    const auto start = m_i;
    while (peek() != 'E') {
      if (peek() == '\0') throw Unsupported{};
      ++m_i;
    }
    ++m_i;
    return add(add(t, m_i - start), 3);  // "(type)value"
  }

  Size type() {
    const Depth depth(m_depth);
    const char c = peek();
    if (is_builtin(c)) {
      ++m_i;
      return k_per_byte;
    }
    if (c == 'D' && std::string_view("dfehisuacn").find(peek(1)) != std::string_view::npos && peek(1) != '\0') {
      m_i += 2;
      return k_per_byte;
    }
    if (c == 'K' || c == 'V' || c == 'r') {  // all qualifiers, then the type: one candidate
      Size q = 0;
      while (peek() == 'K' || peek() == 'V' || peek() == 'r') ++m_i, q = add(q, 9);
      const Size r = add(type(), q);
      push(r);
      return r;
    }
    if (c == 'P' || c == 'R' || c == 'O') {
      ++m_i;
      const Size r = add(type(), 1);
      push(r);
      return r;
    }
    if (c == 'N') {
      std::vector<Size> args;
      const Size r = nested_name(args);
      push(r);
      return r;
    }
    if (c == 'Z') {
      const Size r = local_name();
      push(r);
      return r;
    }
    if (c == 'D' && peek(1) == 'p') {  // a pack expansion
      m_i += 2;
      m_uncertain = true;
      return seen(add(type(), 3));
    }
    if (is_digit(c) || (c == 'S' && peek(1) == 't')) {  // a class, perhaps a template's
      Size r = 0;
      if (c == 'S') m_i += 2, r = 5;  // "std::"
      r = add(r, source_name());
      if (peek() == 'I') {
        push(r);
        std::vector<Size> args;
        r = add(r, template_args(args));
      }
      push(r);
      return r;
    }
    if (c == 'S') {
      bool abbreviated = false;
      Size r = substitution(abbreviated);
      if (peek() == 'I') {
        std::vector<Size> args;
        r = add(r, template_args(args));
        push(r);
      }
      return r;
    }
    if (c == 'T') {
      Size r = template_param();
      push(r);
      if (peek() == 'I') {
        std::vector<Size> args;
        r = add(r, template_args(args));
        push(r);
      }
      return r;
    }
    throw Unsupported{};
  }

  // N <prefix> E: each prefix a candidate, but for one made of a substitution alone and
  // for the whole (the caller's: a type is one, a function's name is not).
  Size nested_name(std::vector<Size>& args) {
    ++m_i;  // N
    Size r = 0, qualifiers = 0;
    while (peek() == 'K' || peek() == 'V' || peek() == 'r') ++m_i, qualifiers = add(qualifiers, 9);  // a method's
    if (peek() == 'R' || peek() == 'O') ++m_i, qualifiers = add(qualifiers, 3);
    bool first = true;
    while (peek() != 'E') {
      const char c = peek();
      bool from_table = false;
      args.clear();
      if (is_digit(c) || c == 'U' || (c >= 'a' && c <= 'z')) {
        const Size n = unqualified_name();
        r = first ? n : add(add(r, 2), n);
      } else if (c == 'Z' && first) {
        r = local_name();
      } else if (c == 'S') {
        if (!first) throw Unsupported{};
        bool abbreviated = false;
        r = substitution(abbreviated);
        from_table = true;
      } else if (c == 'T') {
        if (!first) throw Unsupported{};
        r = template_param();
      } else if (c == 'I') {
        if (first) throw Unsupported{};
        r = add(r, template_args(args));
      } else {
        throw Unsupported{};
      }
      if (peek() == '\0') throw Unsupported{};
      first = false;
      if (!from_table && peek() != 'E') push(r);
    }
    ++m_i;
    return seen(add(r, qualifiers));
  }

  // The encoding's name: nested or unscoped (perhaps a template's), not a candidate itself.
  Size name(std::vector<Size>& args) {
    args.clear();
    if (peek() == 'N') return nested_name(args);
    if (peek() == 'Z') return local_name();
    if (peek() == 'L' && is_digit(peek(1))) ++m_i;  // internal linkage
    Size r = 0;
    if (peek() == 'S' && peek(1) == 't') m_i += 2, r = 5;
    r = add(r, unqualified_name());
    if (peek() == 'I') {
      push(r);
      r = add(r, template_args(args));
    }
    return r;
  }

  std::string_view m_s;
  std::size_t m_i = 0;
  std::vector<Size> m_subs;
  std::vector<Size> m_targs;
  int m_depth = 0;
  Size m_largest = 0;        // the longest text of any component so far
  bool m_uncertain = false;  // past a construct whose substitutions are not followed
};

}  // namespace

std::size_t demangled_size_estimate(std::string_view name) {
  if (!name.starts_with("_Z")) return name.size();
  try {
    return Exact(name).run();
  } catch (const Unsupported&) {
    return Estimate(name).run();
  }
}

std::optional<std::string> demangle(std::string_view name, std::size_t max_input) {
  if (!name.starts_with("_Z") || name.size() > max_input) return std::nullopt;
  if (name.find('\0') != std::string_view::npos) return std::nullopt;  // as C text it would be another name
  if (demangled_size_estimate(name) > k_demangle_estimate) return std::nullopt;
  int status = 0;
  const std::string text(name);
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(text.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !out) return std::nullopt;
  std::string s(out.get());
  if (s.size() > k_demangle_output) return std::nullopt;
  return s;
}

}  // namespace tracediff
