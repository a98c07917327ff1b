// Reads a *.tdsum.json summary and checks every field against the format
// (docs/summaries.md, docs/summary.schema.json): one thing, the format's validator.
#include "reading/summary_reader.hpp"

#include <boost/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <tuple>
#include <cerrno>
#include <cstring>
#include <type_traits>
#include <unordered_set>

#include "reading/byte_source.hpp"
#include "util/errors.hpp"

namespace tracediff::reading {

namespace json = boost::json;

namespace {

// The counts and sizes of a summary are added up across cells, steps, files and both
// sides of a comparison: past 2^61 in all (more events than any file can hold) that
// could overflow downstream. Durations are bounded by bound_durations instead, which
// summarising applies too: a summary that tracediff wrote always reads back.
constexpr std::uint64_t k_max_total = std::uint64_t{1} << 61;
// Ranks and world sizes as the trace reader takes them (distributedInfo, file name).
constexpr std::int64_t k_rank_limit = std::int64_t{1} << 30;
// Step numbers as ProfilerStep#N gives them: at most 18 digits.
constexpr std::int64_t k_max_step = 999'999'999'999'999'999;

// Summaries are small (per step and name, not per event), so a DOM is fine here.
struct Reader {
  const std::string& path;
  std::uint64_t total = 0;  // of every count so far (k_max_total)
  bool shared = false;      // total started with other summaries' figures
  // Where in the document, for messages: file `file_no`, `item` number `item_no`.
  static constexpr std::size_t k_none = ~std::size_t{0};
  std::size_t file_no = k_none;
  const char* item = nullptr;
  std::size_t item_no = 0;
  std::int64_t version = model::k_summary_schema_version;

  [[noreturn]] void fail(const std::string& what) const {
    std::string where;
    if (file_no != k_none) where = "file " + std::to_string(file_no) + (item ? ", " : ": ");
    if (file_no != k_none && item) where += std::string(item) + " " + std::to_string(item_no) + ": ";
    throw Fatal(path + ": not a valid tracediff summary: " + where + what);
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
    if (v.is_uint64()) fail(std::string(what) + " " + std::to_string(v.get_uint64()) + " is too large");
    fail(std::string(what) + " is not an integer");
  }
  std::uint64_t count(const json::value& v, const char* what) const {
    const auto i = integer(v, what);
    if (i < 0) fail(std::string(what) + " is negative");
    return static_cast<std::uint64_t>(i);
  }
  // A count that goes into sums: counted against k_max_total.
  std::uint64_t figure(const json::value& v, const char* what) {
    const auto n = count(v, what);
    if (n > k_max_total - total)
      fail(std::string(what) + " " + std::to_string(n) + ": the summary's counts add up past 2^61" +
           (shared ? " with those of the summaries before it" : "") + ", beyond any trace");
    total += n;
    return n;
  }
  // A duration: any int64 from 0 (summarising saturates there); bound_durations
  // then bounds their sum.
  std::int64_t duration(const json::value& v, const char* what) const {
    return static_cast<std::int64_t>(count(v, what));
  }
  std::uint32_t index(const json::value& v, std::size_t size, const char* what) const {
    const auto i = count(v, what);
    if (i >= size)
      fail(std::string(what) + " " + std::to_string(i) + " out of range (" + std::to_string(size) + " " + what + "s)");
    return static_cast<std::uint32_t>(i);
  }
  int rank(const json::value& v, const char* what) const {
    const auto i = integer(v, what);
    if (i < 0 || i >= k_rank_limit) fail(std::string(what) + " " + std::to_string(i) + " is not in [0, 2^30)");
    return static_cast<int>(i);
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

  model::Diagnostics diagnostics(const json::value& v) {
    model::Diagnostics d;
    const auto& o = object(v, "diagnostics");
    for (const auto& [name, n] : object(at(o, "counts"), "diagnostics.counts")) {
      model::DiagId id;
      const auto c = figure(n, "diagnostic count");
      // An id this build does not know (from a newer one) is dropped, not fatal.
      if (model::diag_from_name(name, id)) d.add(id, c);
    }
    for (const auto& s : array(at(o, "samples"), "diagnostics.samples")) {
      const auto& t = tuple(s, 5, "diagnostic sample");
      model::DiagId id;
      if (model::diag_from_name(string(t[0], "diagnostic id"), id))
        d.add_sample({id, string(t[1], "sample file"), count(t[2], "sample offset"), string(t[3], "sample message"), {},
                      count(t[4], "sample covers")});
    }
    return d;
  }

  model::Kind kind(const std::string& k) const {
    model::Kind v;
    if (!model::kind_from_name(k, v)) fail("unknown kind \"" + k + "\"");
    return v;
  }


  // Cells [index, step, count, total, self] of a file (index: a key, or a tree node),
  // a key's with its wait sixth: each of its events counted in one cell at most.
  template <typename C>
  std::vector<C> cells(const json::value& v, const char* what, std::size_t indices, const char* index_what,
                       const model::FileSummary& f) {
    std::vector<C> out;
    std::uint64_t counted = 0;
    item = what;
    item_no = 0;
    for (const auto& c : array(v, what)) {
      constexpr bool waits = std::is_same_v<C, model::Cell>;
      const auto& t = tuple(c, waits ? 7 : 5, what);
      const auto i = index(t[0], indices, index_what);
      const auto step = index(t[1], f.steps.size(), "step");
      const auto n = count(t[2], "count");
      if (n > f.events - counted)
        fail(std::string(what) + "s count more events than the file's " + std::to_string(f.events));
      counted += n;
      out.push_back({i, step, n, duration(t[3], "total"), duration(t[4], "self")});
      if constexpr (waits) {
        out.back().wait_ns = duration(t[5], "wait");
        out.back().nested = count(t[6], "nested");
        if (out.back().nested > n) fail("more nested calls than calls");
      }
      ++item_no;
    }
    return out;
  }

  model::FileSummary file(const json::value& v) {
    const auto& o = object(v, "file");
    model::FileSummary f;
    f.path = string(at(o, "path"), "path");
    f.rank = rank(at(o, "rank"), "rank");
    const auto src = string(at(o, "rank_source"), "rank_source");
    f.rank_source = src == "distributedInfo" ? model::RankSource::distributed_info
                    : src == "file_name"     ? model::RankSource::file_name
                                             : model::RankSource::fallback;
    if (!at(o, "world_size").is_null()) f.world_size = rank(at(o, "world_size"), "world_size");
    f.gpu_names = strings(at(o, "gpu_names"), "gpu_names");
    for (auto [key, field] : {std::pair{"cuda_runtime_version", &f.cuda_runtime_version},
                              std::pair{"cuda_driver_version", &f.cuda_driver_version}})
      if (!at(o, key).is_null()) *field = static_cast<std::int64_t>(count(at(o, key), key));
    f.cuda_graphs = boolean(at(o, "cuda_graphs"), "cuda_graphs");
    f.compiled = boolean(at(o, "compiled"), "compiled");
    f.gpus_with_work = rank(at(o, "gpus_with_work"), "gpus_with_work");  // a small count, as a rank is
    f.events = figure(at(o, "events"), "events");
    f.json_bytes = figure(at(o, "json_bytes"), "json_bytes");
    f.truncated = boolean(at(o, "truncated"), "truncated");
    f.has_steps = boolean(at(o, "has_steps"), "has_steps");
    // Optional: summaries written before it was recorded read as unknown.
    if (const auto* l = o.if_contains("launcher")) {
      f.launcher_level = string(*l, "launcher");
      if (f.launcher_level != "innermost" && f.launcher_level != "outermost" && f.launcher_level != "module")
        fail("launcher \"" + f.launcher_level + "\" is not innermost, outermost or module");
    }
    // Written only when a step marker made the steps (optional: schema 3 as before).
    if (const auto* m = o.if_contains("step_marker")) {
      const auto& mo = object(*m, "step_marker");
      f.step_marker = string(at(mo, "pattern"), "step_marker.pattern");
      const auto shape = string(at(mo, "shape"), "step_marker.shape");
      if (shape != "spans" && shape != "markers") fail("step_marker.shape \"" + shape + "\" is not spans or markers");
      f.step_marker_shape = shape == "spans" ? model::StepMarkerShape::spans : model::StepMarkerShape::markers;
      f.step_marker_matches = count(at(mo, "matches"), "step_marker.matches");
      if (!f.has_steps) fail("step_marker in a file without steps (has_steps false)");
    }
    f.diagnostics = diagnostics(at(o, "diagnostics"));
    item = "key";
    item_no = 0;
    for (const auto& k : array(at(o, "keys"), "keys")) {
      // A fourth field: the key's input shapes (--by-shape).
      const auto& t = tuple(k, k.is_array() && k.get_array().size() == 4 ? 4 : 3, "key");
      f.keys.push_back({string(t[0], "category"), string(t[1], "name"), kind(string(t[2], "kind")),
                        t.size() == 4 ? string(t[3], "shape") : std::string()});
      if (t.size() == 4 && f.keys.back().shape.empty()) fail("an empty shape (a key without one has 3 fields)");
      ++item_no;
    }
    item = nullptr;
    f.launchers = strings(at(o, "launchers"), "launchers");
    if (const auto* ls = o.if_contains("launcher_shapes")) {  // --by-shape only
      f.launcher_shapes = strings(*ls, "launcher_shapes");
      if (f.launcher_shapes.size() != f.launchers.size())
        fail("launcher_shapes has " + std::to_string(f.launcher_shapes.size()) + " entries for " +
             std::to_string(f.launchers.size()) + " launchers");
    }
    if (const auto* g = o.if_contains("graph_launchers")) {  // optional (issue #18)
      for (const auto& v : array(*g, "graph_launchers")) {
        const auto i = index(v, f.launchers.size(), "launcher");
        if (!f.graph_launchers.empty() && i <= f.graph_launchers.back()) fail("graph_launchers not ascending");
        f.graph_launchers.push_back(i);
      }
    }
    // A file without steps has one pseudo-step over all of it; steps are distinct
    // ProfilerStep numbers (the comparison pairs them by number).
    std::unordered_set<std::int64_t> seen;
    item = "step";
    item_no = 0;
    for (const auto& s : array(at(o, "steps"), "steps")) {
      const auto& t = tuple(s, std::size(model::k_step_fields) + 1, "step");
      model::StepSummary st;
      st.step = integer(t[0], "step number");
      if (!f.has_steps && st.step != model::k_whole_trace_step)
        fail("step number " + std::to_string(st.step) + " in a file without steps (has_steps false)");
      if (f.has_steps && (st.step < 0 || st.step > k_max_step))
        fail("step number " + std::to_string(st.step) + " is not a ProfilerStep number");
      if (!seen.insert(st.step).second) fail("step number " + std::to_string(st.step) + " twice");
      for (std::size_t i = 0; i + 1 < t.size(); ++i)
        st.detail.*model::k_step_fields[i].field = duration(t[i + 1], "step figure");
      f.steps.push_back(st);
      ++item_no;
    }
    item = nullptr;
    if (f.steps.empty()) fail("a file without steps");
    f.cells = cells<model::Cell>(at(o, "cells"), "cell", f.keys.size(), "key", f);
    item = "launch";
    item_no = 0;
    for (const auto& l : array(at(o, "launches"), "launches")) {
      const auto& t = tuple(l, 4, "launch");
      f.launches.push_back({index(t[0], f.launchers.size(), "launcher"), index(t[1], f.keys.size(), "key"),
                            index(t[2], f.steps.size(), "step"), duration(t[3], "total")});
      ++item_no;
    }
    // The call tree: a node's parent comes before it (-1: top level), so it is a tree;
    // its key is one of the file's, or -1 / -2 for the "(other)" nodes of the budget.
    // Paths end at k_tree_depth host levels, with GPU work one below.
    item = "tree node";
    item_no = 0;
    std::vector<std::uint32_t> depth;
    for (const auto& n : array(at(o, "tree"), "tree")) {
      const auto& t = tuple(n, 2, "tree node");
      const auto parent = integer(t[0], "parent");
      if (parent < -1 || parent >= static_cast<std::int64_t>(f.tree.size()))
        fail("parent " + std::to_string(parent) + " is not an earlier node");
      depth.push_back(parent < 0 ? 1 : depth[static_cast<std::size_t>(parent)] + 1);
      if (depth.back() > model::k_tree_depth + 1)
        fail("deeper than the " + std::to_string(model::k_tree_depth + 1) + " levels a call tree has");
      const auto key = integer(t[1], "key");
      if (key < -2 || key >= static_cast<std::int64_t>(f.keys.size()))
        fail("key " + std::to_string(key) + " out of range (" + std::to_string(f.keys.size()) + " keys)");
      f.tree.push_back({parent < 0 ? model::k_tree_top : static_cast<std::uint32_t>(parent),
                        key == -1 ? model::k_tree_other : key == -2 ? model::k_tree_other_gpu
                                                                    : static_cast<std::uint32_t>(key)});
      ++item_no;
    }
    f.tree_cells = cells<model::TreeCell>(at(o, "tree_cells"), "tree cell", f.tree.size(), "node", f);
    // As summarize_file leaves them; stable, so that cells of one (node, step) (a summary
    // made by hand) keep their order and the summary writes back the same.
    std::stable_sort(f.tree_cells.begin(), f.tree_cells.end(), [](const model::TreeCell& a, const model::TreeCell& b) {
      return a.node != b.node ? a.node < b.node : a.step < b.step;
    });
    item = nullptr;
    f.tree_folded = figure(at(o, "tree_folded"), "tree_folded");
    if (const auto* keys = o.if_contains("collective_keys")) {  // optional: files without collectives
      item = "collective key";
      item_no = 0;
      for (const auto& k : array(*keys, "collective_keys")) {
        const auto& t = tuple(k, 2, "collective key");
        f.collective_keys.push_back({string(t[0], "collective key"), boolean(t[1], "by_seq")});
        ++item_no;
      }
      item = "collective";
      item_no = 0;
      std::size_t in_step = 0;
      for (const auto& c : array(at(o, "collectives"), "collectives")) {
        const auto& t = tuple(c, 4, "collective");
        model::CollectiveCall call{index(t[0], f.steps.size(), "step"), index(t[1], f.collective_keys.size(), "key"),
                                   integer(t[2], "seq"), duration(t[3], "duration")};
        if (!f.collectives.empty() && call.step < f.collectives.back().step) fail("collectives not in step order");
        in_step = !f.collectives.empty() && call.step == f.collectives.back().step ? in_step + 1 : 1;
        if (in_step > model::k_collectives_per_step)
          fail("more than " + std::to_string(model::k_collectives_per_step) + " collectives in a step");
        if (call.seq < 0) fail("seq " + std::to_string(call.seq) + " is negative");
        f.collectives.push_back(call);
        ++item_no;
      }
      item = nullptr;
    }
    if (const auto* memory = o.if_contains("memory")) {  // optional: files without [memory] events
      item = "memory step";
      item_no = 0;
      for (const auto& m : array(*memory, "memory")) {
        const auto& t = tuple(m, 9, "memory step");
        model::MemoryStep ms;
        ms.step = index(t[0], f.steps.size(), "step");
        const auto type = integer(t[1], "device type"), id = integer(t[2], "device id");
        if (type < -1 || type > 127 || id < -1 || id > 32767) fail("device " + std::to_string(type) + ":" + std::to_string(id) + " out of range");
        ms.device_type = static_cast<std::int8_t>(type);
        ms.device_id = static_cast<std::int16_t>(id);
        ms.peak_allocated = integer(t[3], "peak allocated");
        ms.peak_reserved = integer(t[4], "peak reserved");
        ms.peak_growth = integer(t[5], "peak growth");
        ms.net_change = integer(t[6], "net change");
        ms.allocated_bytes = integer(t[7], "bytes allocated");
        ms.allocations = count(t[8], "allocations");
        if (ms.peak_allocated < -1 || ms.peak_reserved < -1 || ms.peak_growth < 0 || ms.allocated_bytes < 0)
          fail("a negative size");
        f.memory.push_back(ms);
        ++item_no;
      }
      std::sort(f.memory.begin(), f.memory.end(), [](const model::MemoryStep& a, const model::MemoryStep& b) {
        return std::tie(a.device_type, a.device_id, a.step) < std::tie(b.device_type, b.device_id, b.step);
      });
      item = nullptr;
    }
    if (const auto* cells = o.if_contains("memory_cells")) {  // optional: files without allocations
      item = "memory cell";
      item_no = 0;
      for (const auto& m : array(*cells, "memory_cells")) {
        const auto& t = tuple(m, 7, "memory cell");
        model::MemoryCell c;
        c.key = index(t[0], f.keys.size(), "key");
        c.step = index(t[1], f.steps.size(), "step");
        c.self_bytes = integer(t[2], "self bytes");
        c.self_count = count(t[3], "self allocations");
        c.bytes = integer(t[4], "bytes");
        c.count = count(t[5], "allocations");
        c.held_bytes = integer(t[6], "held bytes");
        if (c.self_bytes < 0 || c.bytes < 0 || c.held_bytes < 0 || c.held_bytes > c.self_bytes) fail("a negative size");
        f.memory_cells.push_back(c);
        ++item_no;
      }
      std::sort(f.memory_cells.begin(), f.memory_cells.end(), [](const model::MemoryCell& a, const model::MemoryCell& b) {
        return std::tie(a.key, a.step) < std::tie(b.key, b.step);
      });
      item = nullptr;
    }
    return f;
  }
};

}  // namespace

bool is_summary_path(const std::string& path) {
  constexpr std::string_view suffix = ".tdsum.json";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

model::SetSummary read_summary_file(const std::string& path, std::uint64_t* figures) {
  // Regular files only (a FIFO or /dev/zero would block or never end), and what is
  // not JSON is refused at its first bytes, not once it is all in memory.
  std::string error;
  const int fd = open_regular_file(path, error);
  if (fd < 0) throw Fatal(path + ": cannot read: " + error);
  std::string bytes;
  std::size_t checked = 0;  // bytes known to be JSON whitespace
  for (;;) {
    const std::size_t have = bytes.size();
    bytes.resize(have + (std::size_t{1} << 16));
    const ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
    if (n < 0 && errno == EINTR) {
      bytes.resize(have);
      continue;
    }
    if (n < 0) {
      error = std::strerror(errno);
      ::close(fd);
      throw Fatal(path + ": cannot read: " + error);
    }
    bytes.resize(have + static_cast<std::size_t>(n));
    if (n == 0) break;
    if (checked != std::string::npos) {
      while (checked < bytes.size() && std::strchr(" \t\r\n", bytes[checked]) && bytes[checked] != '\0') ++checked;
      if (checked < bytes.size()) {
        if (bytes[checked] != '{') {
          ::close(fd);
          throw Fatal(path + ": not a valid tracediff summary: byte " + std::to_string(checked) +
                      ": not JSON (a summary starts with '{')");
        }
        checked = std::string::npos;
      }
    }
  }
  ::close(fd);
  return read_summary_bytes(bytes, path, figures);
}

model::SetSummary read_summary_bytes(std::string_view bytes, const std::string& path, std::uint64_t* figures) {
  boost::system::error_code ec;
  json::parse_options options;
  options.allow_invalid_utf8 = true;  // names byte for byte, as the writer keeps them
  // The stream parser says where it stopped: a JSON error names its byte.
  json::stream_parser parser({}, options);
  const std::size_t used = parser.write_some(bytes.data(), bytes.size(), ec);
  if (!ec) parser.finish(ec);
  Reader r{path};
  if (figures) {
    r.total = std::min(*figures, k_max_total);
    r.shared = *figures > 0;
  }
  if (ec) r.fail("JSON error at byte " + std::to_string(used) + ": " + ec.message());
  const auto doc = parser.release();
  const auto& top = r.object(doc, "the document");
  if (r.string(r.at(top, "format"), "format") != "tracediff-summary") r.fail("format is not \"tracediff-summary\"");
  const auto version = r.integer(r.at(top, "schema_version"), "schema_version");
  if (version > model::k_summary_schema_version)
    throw Fatal(path + ": summary schema version " + std::to_string(version) +
                " is newer than this tracediff reads (" + std::to_string(model::k_summary_schema_version) +
                "); upgrade tracediff or summarize again");
  if (version < 1) r.fail("schema_version " + std::to_string(version));
  r.version = version;
  // Older summaries lack figures this one compares (3: the call tree; 4: GPU work
  // without a recorded launch; 5: the step's timeline split): they would compare
  // unlike their traces.
  if (version < model::k_summary_schema_version)
    throw Fatal(path + ": summary schema version " + std::to_string(version) +
                " was written by an older tracediff; this one reads version " +
                std::to_string(model::k_summary_schema_version) +
                " (it adds the step's timeline split: GPU parts, idle by cause, exposed communication, the host "
                "waiting for the GPU): summarize the traces again");
  model::SetSummary s;
  s.label = r.string(r.at(top, "label"), "label");
  s.inputs = r.strings(r.at(top, "inputs"), "inputs");
  s.diagnostics = r.diagnostics(r.at(top, "diagnostics"));
  for (const auto& f : r.array(r.at(top, "files"), "files")) {
    r.file_no = s.files.size();
    s.files.push_back(r.file(f));
  }
  r.file_no = Reader::k_none;
  // summarize refuses a set without a readable trace, as the comparison does.
  if (s.files.empty()) r.fail("no files");
  if (figures) *figures = r.total;
  model::bound_durations(s);
  return s;
}

}  // namespace tracediff::reading
