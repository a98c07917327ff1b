#include "output/svg.hpp"

#include <cstdio>

#include "util/escape.hpp"

namespace tracediff::output::svg {

std::string one_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

Points& Points::add(double x, double y) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%.1f,%.1f", m_text.empty() ? "" : " ", x, y);
  m_text += buf;
  return *this;
}

void Writer::end_start_tag() {
  if (!m_in_start_tag) return;
  m_out += '>';
  m_in_start_tag = false;
}

Writer& Writer::open(std::string_view name) {
  end_start_tag();
  m_out += '<';
  m_out += name;
  m_open.emplace_back(name);
  m_in_start_tag = true;
  return *this;
}

Writer& Writer::attr(std::string_view name, std::string_view value) {
  m_out += ' ';
  m_out += name;
  m_out += "=\"";
  html_escape_append(m_out, value);
  m_out += '"';
  return *this;
}

Writer& Writer::text(std::string_view s) {
  end_start_tag();
  html_escape_append(m_out, s);
  return *this;
}

Writer& Writer::own_text(std::string_view s) {
  end_start_tag();
  m_out += s;
  return *this;
}

Writer& Writer::end() {
  if (m_in_start_tag) {
    m_out += "/>";
    m_in_start_tag = false;
  } else {
    m_out += "</";
    m_out += m_open.back();
    m_out += '>';
  }
  m_open.pop_back();
  return *this;
}

}  // namespace tracediff::output::svg
