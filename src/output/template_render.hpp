#pragma once
// The kainjow mustache plumbing of the HTML report: embedded templates, data that
// is cheap to fill item by item, and where the rendered text goes.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <kainjow/mustache.hpp>

namespace tracediff::output::templates {

namespace mu = kainjow::mustache;
using mu::data;

// templates/NAME, parsed, escaping {{x}} with html_escape.
// Throws std::runtime_error if it is missing or broken.
mu::mustache load(std::string_view name);
// Throws std::runtime_error if rendering found the template broken.
void check(const mu::mustache& tmpl, std::string_view name);

data make_list();
// kainjow's set() and push_back() copy their argument whole, nested lists and all;
// these move it instead (a list's vector is the data's own: list_value() only adds const).
void put(data& obj, const std::string& key, data&& value);
void append(data& list, data&& item);

// What an item's Fields wrote, when the item renders through Stencils: its values
// and its shape (keys, flags, list lengths, blank values).
struct Recorder {
  std::vector<std::string> values;  // by slot, in the order they were written
  std::size_t used = 0;
  std::string shape;
  bool write = false;  // also write the data (markers for values), for a new stencil
  void clear(bool write_data) {
    used = 0;
    shape.clear();
    write = write_data;
  }
};

// An item of a long list (a table row, a launcher) is written through Fields into
// one object reused from item to item (Stencils below), its nodes and buffers kept,
// or only recorded. Every item of a list sets the same fields, in the same order,
// so no stale one is ever shown.
class Fields {
 public:
  explicit Fields(data& obj, Recorder* rec = nullptr) : m_obj(obj), m_rec(rec) {}
  void text(std::string_view key, std::string_view value);
  void flag(std::string_view key, bool value);
  // A list of n objects under key; item() is a Fields target for one of them.
  mu::list& objects(std::string_view key, std::size_t n);
  Fields item(mu::list& items, std::size_t i) const { return Fields(items[i], m_rec); }

 private:
  void set(std::string_view key, std::string_view value);
  bool writes() const { return !m_rec || m_rec->write; }
  data& m_obj;
  Recorder* m_rec;
};

// The items of a long list, rendered through a cache of stencils: an item's text
// with a marker where each value goes, rendered by kainjow once per item shape
// (see Recorder); an item of a known shape is its stencil with its values escaped
// into place. The same text as kainjow's (it skips a line by what is on it, so blank
// values stay in the shape), at a fraction of the cost: the table's 400-odd rows
// come in a few dozen shapes.
class Stencils {
 public:
  // templates/NAME renders a list `key` and reads nothing else.
  Stencils(std::string_view name, std::string key);
  // Appends an item: fill writes it through the Fields it is given.
  void render(const std::function<void(Fields&)>& fill, std::string& out);
  std::size_t shapes() const { return m_cache.size(); }

 private:
  struct Piece {
    std::size_t text_end, next;  // the stencil's text up to its marker, and after it
    std::size_t slot;
    bool escape;
  };
  struct Stencil {
    std::string text;
    std::vector<Piece> pieces;
  };
  Stencil make();

  std::string m_name;
  mu::mustache m_tmpl;
  std::string m_key;
  data m_object;
  Recorder m_rec;
  std::unordered_map<std::string, Stencil> m_cache;
};

// Where kainjow renders to (it takes anything with << std::string): a string.
class StringSink {
 public:
  explicit StringSink(std::string& s) : m_s(s) {}
  StringSink& operator<<(const std::string& s) {
    m_s += s;
    return *this;
  }

 private:
  std::string& m_s;
};

// The page's output: kainjow hands over a line at a time, which goes out in large
// writes; blocks (Chart.js, the table's rows) go straight to the stream.
class StreamSink {
 public:
  explicit StreamSink(std::ostream& out);
  StreamSink(const StreamSink&) = delete;
  StreamSink& operator=(const StreamSink&) = delete;
  StreamSink& operator<<(const std::string& s);
  void block(std::string_view bytes);
  void flush();  // at the end: what is still gathered

 private:
  std::ostream& m_out;
  std::string m_buf;
};

// The value of a {{{name}}} tag whose bytes are written to sink where the tag is,
// rather than copied into the data and then through kainjow's line buffer (Chart.js
// is 210 KB, the table 440 KB). kainjow writes out everything before the tag first,
// then calls this; bytes() is called then, so it may wait for a block still being rendered.
data block(StreamSink& sink, std::function<std::string_view()> bytes);

}  // namespace tracediff::output::templates
