#pragma once
// A name held once for the whole process: every rank's keys of a side (and of both
// sides) refer to one copy of "aten::mm", so that what a comparison holds grows with
// the distinct names, not with ranks x names. A Name reads as the std::string it
// stands for; two Names are the same name when they point at the same copy.
#include <compare>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace tracediff::model {

class Name {
 public:
  Name() : m_s(&empty_name()) {}
  explicit Name(std::string_view s) : m_s(&intern(s)) {}
  Name& operator=(std::string_view s) {
    m_s = &intern(s);
    return *this;
  }

  const std::string& str() const { return *m_s; }
  operator const std::string&() const { return *m_s; }
  operator std::string_view() const { return *m_s; }

  std::size_t size() const { return m_s->size(); }
  bool empty() const { return m_s->empty(); }
  const char* data() const { return m_s->data(); }
  const char* c_str() const { return m_s->c_str(); }
  bool starts_with(std::string_view p) const { return m_s->starts_with(p); }
  bool ends_with(std::string_view p) const { return m_s->ends_with(p); }
  std::size_t find(std::string_view p, std::size_t at = 0) const { return m_s->find(p, at); }
  std::size_t find(char c, std::size_t at = 0) const { return m_s->find(c, at); }
  std::size_t rfind(std::string_view p, std::size_t at = std::string::npos) const { return m_s->rfind(p, at); }
  std::string substr(std::size_t at, std::size_t n = std::string::npos) const { return m_s->substr(at, n); }
  std::string::const_iterator begin() const { return m_s->begin(); }
  std::string::const_iterator end() const { return m_s->end(); }
  char operator[](std::size_t i) const { return (*m_s)[i]; }

  friend bool operator==(const Name& a, const Name& b) { return a.m_s == b.m_s; }
  friend std::strong_ordering operator<=>(const Name& a, const Name& b) {
    return a.m_s == b.m_s ? std::strong_ordering::equal : a.str().compare(b.str()) <=> 0;
  }
  friend bool operator==(const Name& a, std::string_view b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const Name& a, std::string_view b) { return a.str().compare(b) <=> 0; }
  friend std::ostream& operator<<(std::ostream& out, const Name& n) { return out << n.str(); }
  friend std::string operator+(const std::string& a, const Name& b) { return a + b.str(); }
  friend std::string operator+(const Name& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const char* a, const Name& b) { return a + b.str(); }
  friend std::string operator+(const Name& a, const char* b) { return a.str() + b; }

 private:
  // The one copy of s (thread-safe; copies live as long as the process).
  static const std::string& intern(std::string_view s);
  static const std::string& empty_name();
  const std::string* m_s;
};

}  // namespace tracediff::model
