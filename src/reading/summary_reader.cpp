#include "reading/summary_reader.hpp"

#include <boost/json.hpp>

#include <fstream>
#include <sstream>

#include "util/errors.hpp"

namespace tracediff::reading {

namespace json = boost::json;

namespace {

// Summaries are small (per step and name, not per event), so a DOM is fine here.
struct Reader {
  const std::string& path;

  [[noreturn]] void fail(const std::string& what) const {
    throw Fatal(path + ": not a valid tracediff summary: " + what);
  }
  const json::value& at(const json::object& o, const char* key) const {
    const auto* v = o.if_contains(key);
    if (!v) fail(std::string("missing \"") + key + "\"");
    return *v;
  }
  const json::object& object(const json::value& v, const char* what) const {
    if (!v.is_object()) fail(std::string(what) + " is not an object");
    return v.get_object();
  }
  const json::array& array(const json::value& v, const char* what) const {
    if (!v.is_array()) fail(std::string(what) + " is not an array");
    return v.get_array();
  }
  std::string string(const json::value& v, const char* what) const {
    if (!v.is_string()) fail(std::string(what) + " is not a string");
    return std::string(v.get_string());
  }
  std::int64_t integer(const json::value& v, const char* what) const {
    if (v.is_int64()) return v.get_int64();
    if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
      return static_cast<std::int64_t>(v.get_uint64());
    fail(std::string(what) + " is not an integer");
  }
  std::uint64_t count(const json::value& v, const char* what) const {
    const auto i = integer(v, what);
    if (i < 0) fail(std::string(what) + " is negative");
    return static_cast<std::uint64_t>(i);
  }
  std::uint32_t index(const json::value& v, std::size_t size, const char* what) const {
    const auto i = count(v, what);
    if (i >= size) fail(std::string(what) + " out of range");
    return static_cast<std::uint32_t>(i);
  }
  bool boolean(const json::value& v, const char* what) const {
    if (!v.is_bool()) fail(std::string(what) + " is not true/false");
    return v.get_bool();
  }
  std::vector<std::string> strings(const json::value& v, const char* what) const {
    std::vector<std::string> out;
    for (const auto& s : array(v, what)) out.push_back(string(s, what));
    return out;
  }
  const json::array& tuple(const json::value& v, std::size_t n, const char* what) const {
    const auto& a = array(v, what);
    if (a.size() != n) fail(std::string(what) + " has " + std::to_string(a.size()) + " fields, not " + std::to_string(n));
    return a;
  }

  model::Diagnostics diagnostics(const json::value& v) const {
    model::Diagnostics d;
    const auto& o = object(v, "diagnostics");
    for (const auto& [name, n] : object(at(o, "counts"), "diagnostics.counts")) {
      model::DiagId id;
      // An id this build does not know (from a newer one) is dropped, not fatal.
      if (model::diag_from_name(name, id)) d.add(id, count(n, "diagnostic count"));
    }
    for (const auto& s : array(at(o, "samples"), "diagnostics.samples")) {
      const auto& t = tuple(s, 4, "diagnostic sample");
      model::DiagId id;
      if (model::diag_from_name(string(t[0], "diagnostic id"), id))
        d.add_sample({id, string(t[1], "sample file"), count(t[2], "sample offset"), string(t[3], "sample message")});
    }
    return d;
  }

  model::Kind kind(const std::string& k) const {
    model::Kind v;
    if (!model::kind_from_name(k, v)) fail("unknown kind \"" + k + "\"");
    return v;
  }

  model::FileSummary file(const json::value& v) const {
    const auto& o = object(v, "file");
    model::FileSummary f;
    f.path = string(at(o, "path"), "path");
    f.rank = static_cast<int>(integer(at(o, "rank"), "rank"));
    const auto src = string(at(o, "rank_source"), "rank_source");
    f.rank_source = src == "distributedInfo" ? model::RankSource::distributed_info
                    : src == "file_name"     ? model::RankSource::file_name
                                             : model::RankSource::fallback;
    if (!at(o, "world_size").is_null()) f.world_size = static_cast<int>(integer(at(o, "world_size"), "world_size"));
    f.gpu_names = strings(at(o, "gpu_names"), "gpu_names");
    f.events = count(at(o, "events"), "events");
    f.json_bytes = count(at(o, "json_bytes"), "json_bytes");
    f.truncated = boolean(at(o, "truncated"), "truncated");
    f.has_steps = boolean(at(o, "has_steps"), "has_steps");
    f.diagnostics = diagnostics(at(o, "diagnostics"));
    for (const auto& k : array(at(o, "keys"), "keys")) {
      const auto& t = tuple(k, 3, "key");
      f.keys.push_back({string(t[0], "category"), string(t[1], "name"), kind(string(t[2], "kind"))});
    }
    f.launchers = strings(at(o, "launchers"), "launchers");
    for (const auto& s : array(at(o, "steps"), "steps")) {
      const auto& t = tuple(s, 10, "step");
      model::StepSummary st;
      st.step = integer(t[0], "step");
      auto& d = st.detail;
      std::int64_t* fields[] = {&d.dur_ns, &d.gpu_busy_ns, &d.gpu_idle_ns, &d.kernel_ns, &d.comm_ns,
                                &d.memcpy_ns, &d.memset_ns, &d.cpu_self_ns, &d.runtime_ns};
      for (std::size_t i = 0; i < 9; ++i) *fields[i] = integer(t[i + 1], "step figure");
      f.steps.push_back(st);
    }
    if (f.steps.empty()) fail("a file without steps");
    for (const auto& c : array(at(o, "cells"), "cells")) {
      const auto& t = tuple(c, 5, "cell");
      f.cells.push_back({index(t[0], f.keys.size(), "cell key"), index(t[1], f.steps.size(), "cell step"),
                         count(t[2], "cell count"), integer(t[3], "cell total"), integer(t[4], "cell self")});
    }
    for (const auto& l : array(at(o, "launches"), "launches")) {
      const auto& t = tuple(l, 4, "launch");
      f.launches.push_back({index(t[0], f.launchers.size(), "launcher"), index(t[1], f.keys.size(), "launch key"),
                            index(t[2], f.steps.size(), "launch step"), integer(t[3], "launch total")});
    }
    return f;
  }
};

}  // namespace

bool is_summary_path(const std::string& path) {
  constexpr std::string_view suffix = ".tdsum.json";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

model::SetSummary read_summary_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fatal(path + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  boost::system::error_code ec;
  const auto doc = json::parse(ss.str(), ec);
  const Reader r{path};
  if (ec) r.fail("JSON error: " + ec.message());
  const auto& top = r.object(doc, "the document");
  if (r.string(r.at(top, "format"), "format") != "tracediff-summary") r.fail("format is not \"tracediff-summary\"");
  const auto version = r.integer(r.at(top, "schema_version"), "schema_version");
  if (version > model::k_summary_schema_version)
    throw Fatal(path + ": summary schema version " + std::to_string(version) +
                " is newer than this tracediff reads (" + std::to_string(model::k_summary_schema_version) +
                "); upgrade tracediff or summarize again");
  if (version < 1) r.fail("schema_version " + std::to_string(version));
  model::SetSummary s;
  s.label = r.string(r.at(top, "label"), "label");
  s.inputs = r.strings(r.at(top, "inputs"), "inputs");
  s.diagnostics = r.diagnostics(r.at(top, "diagnostics"));
  for (const auto& f : r.array(r.at(top, "files"), "files")) s.files.push_back(r.file(f));
  return s;
}

}  // namespace tracediff::reading
