#include "output/json_emit.hpp"

#include <algorithm>

#include "util/escape.hpp"

namespace tracediff::output {

namespace {

void new_line(std::ostream& out, int n) {
  static constexpr std::string_view spaces = "                                                                ";
  out << '\n';
  for (auto left = static_cast<std::size_t>(n); left > 0;) {
    const auto k = std::min(left, spaces.size());
    out << spaces.substr(0, k);
    left -= k;
  }
}

// Text json_string would write as it is, quoted: printable ASCII without " \ < > &
// (keys, names of verdicts and most operators). Written straight to the stream.
bool plain(std::string_view s, bool markup_escaped) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
    if (markup_escaped && (c == '<' || c == '>' || c == '&')) return false;
  }
  return true;
}

}  // namespace

void JsonEmit::separate() {
  if (m_after_key) {  // the value of a key: "key": value
    m_after_key = false;
    return;
  }
  if (m_first.empty()) return;  // the top-level value
  const bool first = m_first.back() == '1';
  m_first.back() = '0';
  if (!first) m_out << ',';
  if (m_break >= 0) {
    if (!first && m_space) m_out << ' ';
    new_line(m_out, m_break);
    m_break = -1;
  } else if (!first) {
    m_out << ' ';
  }
}

JsonEmit& JsonEmit::open(char bracket) {
  separate();
  m_out << bracket;
  m_first += '1';
  return *this;
}

JsonEmit& JsonEmit::close(char bracket, int indent) {
  m_first.pop_back();
  m_break = -1;
  if (indent >= 0) new_line(m_out, indent);
  m_out << bracket;
  return *this;
}

JsonEmit& JsonEmit::key(std::string_view k) {
  separate();
  if (plain(k, m_escape_markup)) m_out << '"' << k << "\": ";
  else m_out << json_string(k, m_keep_invalid, m_escape_markup) << ": ";
  m_after_key = true;
  return *this;
}

JsonEmit& JsonEmit::string(std::string_view s) {
  separate();
  if (plain(s, m_escape_markup)) m_out << '"' << s << '"';
  else m_out << json_string(s, m_keep_invalid, m_escape_markup);
  return *this;
}

JsonEmit& JsonEmit::number(std::string_view formatted) {
  separate();
  m_out << formatted;
  return *this;
}

}  // namespace tracediff::output
