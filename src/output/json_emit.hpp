#pragma once
// One streaming JSON emitter for the report's JSON, the summaries and the HTML page's data
// blocks: values go to the stream (or string) as they come (no document is built), commas
// are its business, and where a line breaks is the writer's (line()), so the files read as
// they always did.
//
//   JsonEmit j(out);
//   j.begin_object().line(2).key("rows").begin_array();  // {\n  "rows": [
//   j.number(us_decimal(ns)).end_array().end_object(0);   // 1.5]\n}
//
// Strings are escaped by util/escape's json_string, not by Boost.JSON's serializer:
// that one writes DEL, C1 and bidi controls, U+2028/U+2029, '<' '>' '&' and invalid
// UTF-8 as they are, which a terminal showing --json - or a <script> embedding the
// JSON must not get (util/escape.hpp): with escape_markup (the default), no "</script>"
// or "<!--" can come out of a string, so the page embeds what this writes as it is.
#include <charconv>
#include <concepts>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace tracediff::output {

class JsonEmit {
 public:
  // keep_invalid: strings keep invalid UTF-8 byte for byte (summaries), else U+FFFD.
  // escape_markup false: < > & as they are (summaries; util json_string).
  explicit JsonEmit(std::ostream& out, bool keep_invalid = false, bool escape_markup = true)
      : m_stream(&out), m_keep_invalid(keep_invalid), m_escape_markup(escape_markup) {}
  // Appended to a string: the HTML page's data blocks, each a string the page puts in its
  // <script type="application/json"> element.
  explicit JsonEmit(std::string& out, bool keep_invalid = false, bool escape_markup = true)
      : m_string(&out), m_keep_invalid(keep_invalid), m_escape_markup(escape_markup) {}

  // No space after a comma or a key's colon ({"a":1,"b":[1,2]}): the page's data blocks,
  // a dozen numbers a row. line() still breaks lines.
  JsonEmit& compact() {
    m_compact = true;
    return *this;
  }

  JsonEmit& begin_object() { return open('{'); }
  JsonEmit& begin_array() { return open('['); }
  // indent >= 0: the bracket closes on a line of its own, indented so.
  JsonEmit& end_object(int indent = -1) { return close('}', indent); }
  JsonEmit& end_array(int indent = -1) { return close(']', indent); }

  // The next key or value starts a line indented by `indent` spaces (else ", ").
  JsonEmit& line(int indent) {
    m_break = indent;
    m_space = false;
    return *this;
  }
  // The same after ", " rather than ",": the report's lists have always read so.
  JsonEmit& spaced_line(int indent) {
    m_break = indent;
    m_space = true;
    return *this;
  }

  JsonEmit& key(std::string_view k);
  JsonEmit& string(std::string_view s);
  // Text that is a JSON number (or null) already: util machine_number's exact decimals.
  JsonEmit& number(std::string_view formatted);
  // Integers as the stream writes them (into a string: std::to_chars, the same digits).
  template <class T>
    requires(std::is_arithmetic_v<T> && !std::same_as<T, bool> && !std::same_as<T, char>)
  JsonEmit& number(T v) {
    separate();
    if (m_stream) {
      *m_stream << v;
    } else if constexpr (std::is_integral_v<T> && !std::same_as<T, signed char> && !std::same_as<T, unsigned char>) {
      char buf[24];
      m_string->append(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
    } else {
      std::ostringstream s;
      s << v;
      m_string->append(std::move(s).str());
    }
    return *this;
  }
  // Any JSON value already written out (a summary's columns of integers, "[1,2,3]").
  JsonEmit& raw(std::string_view json) { return number(json); }
  JsonEmit& boolean(bool v) { return number(std::string_view(v ? "true" : "false")); }
  JsonEmit& null() { return number(std::string_view("null")); }

 private:
  JsonEmit& open(char bracket);
  JsonEmit& close(char bracket, int indent);
  // The comma and the space or line break before a key or value in a container.
  void separate();
  void put(std::string_view s) {
    if (m_stream) *m_stream << s;
    else m_string->append(s);
  }
  void put(char c) {
    if (m_stream) *m_stream << c;
    else m_string->push_back(c);
  }
  void new_line(int indent);

  std::ostream* m_stream = nullptr;  // one of the two
  std::string* m_string = nullptr;
  bool m_keep_invalid;
  bool m_escape_markup;
  bool m_compact = false;
  std::string m_first;  // per open container: '1' until its first key or value
  bool m_after_key = false;
  int m_break = -1;
  bool m_space = false;
};

}  // namespace tracediff::output
