#include "output/template_render.hpp"

#include <stdexcept>
#include <utility>

#include "util/embedded_files.hpp"
#include "util/escape.hpp"

namespace tracediff::output::templates {

mu::mustache load(std::string_view name) {
  const auto text = embedded_file(name);
  if (text.empty()) throw std::runtime_error("embedded template missing: " + std::string(name));
  mu::mustache tmpl{std::string(text)};
  check(tmpl, name);
  tmpl.set_custom_escape([](const std::string& s) { return html_escape(s); });
  return tmpl;
}

void check(const mu::mustache& tmpl, std::string_view name) {
  if (!tmpl.is_valid()) throw std::runtime_error(std::string(name) + ": " + tmpl.error_message());
}

data make_list() { return data{data::type::list}; }

void put(data& obj, const std::string& key, data&& value) { obj[key] = std::move(value); }

void append(data& list, data&& item) { const_cast<mu::list&>(list.list_value()).push_back(std::move(item)); }

namespace {

// Stencil markers: \x01 slot \x02, or \x03 at the end once kainjow escaped it. No
// template holds these bytes, and values are put in after, never scanned.
constexpr char k_mark = '\x01', k_raw = '\x02', k_escaped = '\x03';

std::string marker(std::size_t slot) { return k_mark + std::to_string(slot) + k_raw; }

bool is_marker(const std::string& s) { return s.size() >= 3 && s.front() == k_mark && s.back() == k_raw; }

// kainjow skips a line that holds a section tag and nothing but spaces and tabs.
bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace

void Fields::set(std::string_view key, std::string_view value) {
  auto& d = m_obj[std::string(key)];
  if (!d.is_string()) d = data(std::string(value));
  else if (d.string_value() != value) const_cast<std::string&>(d.string_value()).assign(value);  // string_value() only adds const
}

void Fields::text(std::string_view key, std::string_view value) {
  if (!m_rec) return set(key, value);
  const std::size_t slot = m_rec->used++;
  if (slot == m_rec->values.size()) m_rec->values.emplace_back();
  m_rec->values[slot].assign(value);
  m_rec->shape += key;
  if (blank(value)) {  // stays in the stencil: it decides whether a line is skipped
    m_rec->shape += '=';
    m_rec->shape += value;
    m_rec->shape += '\n';
    if (m_rec->write) set(key, value);
  } else {
    m_rec->shape += '\n';
    if (m_rec->write) set(key, marker(slot));
  }
}

void Fields::flag(std::string_view key, bool value) {
  if (writes()) m_obj[std::string(key)] = data(value);
  if (!m_rec) return;
  m_rec->shape += key;
  m_rec->shape += value ? "=1\n" : "=0\n";
}

mu::list& Fields::objects(std::string_view key, std::size_t n) {
  if (m_rec) {
    m_rec->shape += key;
    m_rec->shape += '#';
    m_rec->shape += std::to_string(n);
    m_rec->shape += '\n';
  }
  auto& d = m_obj[std::string(key)];
  if (!d.is_list()) d = make_list();
  auto& items = const_cast<mu::list&>(d.list_value());
  items.resize(n);
  return items;
}

Stencils::Stencils(std::string_view name, std::string key) : m_name(name), m_tmpl(load(name)), m_key(std::move(key)) {
  // Markers go through kainjow's escaping marked, to be escaped with their values.
  m_tmpl.set_custom_escape([](const std::string& s) {
    if (!is_marker(s)) return html_escape(s);
    std::string m = s;
    m.back() = k_escaped;
    return m;
  });
}

void Stencils::render(const std::function<void(Fields&)>& fill, std::string& out) {
  m_rec.clear(false);
  Fields f(m_object, &m_rec);
  fill(f);
  auto it = m_cache.find(m_rec.shape);
  if (it == m_cache.end()) {  // a new shape: fill again, writing the data, and render it
    m_rec.clear(true);
    fill(f);
    it = m_cache.emplace(m_rec.shape, make()).first;
  }
  const Stencil& st = it->second;
  std::size_t at = 0;
  for (const auto& p : st.pieces) {
    out.append(st.text, at, p.text_end - at);
    const auto& v = m_rec.values[p.slot];
    if (p.escape) html_escape_append(out, v);
    else out += v;
    at = p.next;
  }
  out.append(st.text, at);
}

Stencils::Stencil Stencils::make() {
  data ctx;
  data items = make_list();
  append(items, data(m_object));
  put(ctx, m_key, std::move(items));
  Stencil st;
  StringSink sink(st.text);
  m_tmpl.render(ctx, sink);
  check(m_tmpl, m_name);
  for (std::size_t i = st.text.find(k_mark); i != std::string::npos; i = st.text.find(k_mark, i)) {
    const std::size_t end = st.text.find_first_of(std::string{k_raw, k_escaped}, i);
    st.pieces.push_back({i, end + 1, std::stoul(st.text.substr(i + 1, end - i - 1)), st.text[end] == k_escaped});
    i = end + 1;
  }
  return st;
}

namespace {
constexpr std::size_t k_write = 64 * 1024;  // gathered lines go out in writes this large
}

StreamSink::StreamSink(std::ostream& out) : m_out(out) { m_buf.reserve(k_write + 4096); }

StreamSink& StreamSink::operator<<(const std::string& s) {
  m_buf += s;
  if (m_buf.size() >= k_write) flush();
  return *this;
}

void StreamSink::block(std::string_view bytes) {
  flush();
  m_out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void StreamSink::flush() {
  m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
  m_buf.clear();
}

data block(StreamSink& sink, std::function<std::string_view()> bytes) {
  return data(mu::lambda([&sink, bytes = std::move(bytes)](const std::string&) {
    sink.block(bytes());
    return std::string();
  }));
}

}  // namespace tracediff::output::templates
