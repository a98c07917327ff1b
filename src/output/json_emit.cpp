#include "output/json_emit.hpp"

#include <algorithm>

#include "util/escape.hpp"

namespace tracediff::output {

namespace {

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

void JsonEmit::new_line(int indent) {
  static constexpr std::string_view spaces = "                                                                ";
  put('\n');
  for (auto left = static_cast<std::size_t>(indent); left > 0;) {
    const auto k = std::min(left, spaces.size());
    put(spaces.substr(0, k));
    left -= k;
  }
}

void JsonEmit::separate() {
  if (m_after_key) {  // the value of a key: "key": value
    m_after_key = false;
    return;
  }
  if (m_first.empty()) return;  // the top-level value
  const bool first = m_first.back() == '1';
  m_first.back() = '0';
  if (!first) put(',');
  if (m_break >= 0) {
    if (!first && m_space) put(' ');
    new_line(m_break);
    m_break = -1;
  } else if (!first && !m_compact) {
    put(' ');
  }
}

JsonEmit& JsonEmit::open(char bracket) {
  separate();
  put(bracket);
  m_first += '1';
  return *this;
}

JsonEmit& JsonEmit::close(char bracket, int indent) {
  m_first.pop_back();
  m_break = -1;
  if (indent >= 0) new_line(indent);
  put(bracket);
  return *this;
}

JsonEmit& JsonEmit::key(std::string_view k) {
  separate();
  if (plain(k, m_escape_markup)) {
    put('"');
    put(k);
    put('"');
  } else {
    put(json_string(k, m_keep_invalid, m_escape_markup));
  }
  put(m_compact ? ":" : ": ");
  m_after_key = true;
  return *this;
}

JsonEmit& JsonEmit::string(std::string_view s) {
  separate();
  if (plain(s, m_escape_markup)) {
    put('"');
    put(s);
    put('"');
  } else {
    put(json_string(s, m_keep_invalid, m_escape_markup));
  }
  return *this;
}

JsonEmit& JsonEmit::number(std::string_view formatted) {
  separate();
  put(formatted);
  return *this;
}

}  // namespace tracediff::output
