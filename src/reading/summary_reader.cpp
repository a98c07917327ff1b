// Reads a *.tdsum.json summary and checks every field against the format
// (docs/summaries.md, docs/summary.schema.json): one thing, the format's validator.
#include "reading/summary_reader.hpp"

#include <boost/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <array>
#include <cerrno>
#include <cstring>
#include <type_traits>
#include <unordered_set>

#include "model/summary_format.hpp"
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
  // "strings": what the files' indices name, shared with the part reader's later reads (not
  // copied a file at a time); and each one's Name, interned when a key first names it.
  std::shared_ptr<const std::vector<std::string>> table = std::make_shared<const std::vector<std::string>>();
  std::shared_ptr<std::vector<std::optional<model::Name>>> names = std::make_shared<std::vector<std::optional<model::Name>>>();
  std::uint64_t bytes = 0;         // of the document: bounds the rows runs may make
  std::uint64_t unit = 1;          // of the file being read
  std::uint64_t events = 0;        // of the file being read

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
  // A count that is only checked against others (the accounting's, which must add up):
  // at most 2^61, so that no sum of a few of them wraps.
  std::uint64_t bounded(const json::value& v, const char* what) const {
    const auto n = count(v, what);
    if (n > k_max_total) fail(std::string(what) + " " + std::to_string(n) + " is past 2^61, beyond any trace");
    return n;
  }
  // Rows of a table keyed by (key, step) (or (device, step)) are each one cell: a
  // second row of the same cell would be summed into it, so it is refused. V is sorted.
  template <typename T, typename Key>
  void unique_cells(const std::vector<T>& v, Key key, const char* what) const {
    for (std::size_t i = 1; i < v.size(); ++i)
      if (key(v[i - 1]) == key(v[i])) fail("two " + std::string(what) + "s of the same key and step");
  }
  // The same for rows in the order runs made them: their (key, step) pairs sorted.
  template <typename T, typename PairOf>
  void unique_pairs(const std::vector<T>& v, PairOf pair_of, const char* what) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> at;
    at.reserve(v.size());
    for (const auto& x : v) at.push_back(pair_of(x));
    if (!std::is_sorted(at.begin(), at.end())) std::sort(at.begin(), at.end());  // runs give them sorted
    unique_cells(at, [](const auto& p) { return p; }, what);
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

  // model::Accounting as the summary writer lays it out; it must add up.
  model::Accounting accounting(const json::value& v) {
    model::Accounting a;
    a.recorded = true;
    const auto& o = object(v, "accounting");
    a.broken = bounded(at(o, "broken"), "accounting.broken");
    constexpr std::size_t fields = 2 * (2 + model::k_left_out_reasons);
    for (std::size_t st = 0; st < model::k_event_streams; ++st) {
      const auto* name = model::event_stream_name(static_cast<model::EventStream>(st));
      const auto& t = tuple(at(o, name), fields, "accounting stream");
      auto& out = a.streams[st];
      const auto tally = [&](std::size_t k) {
        return model::Tally{bounded(t[2 * k], "accounting events"), duration(t[2 * k + 1], "accounting time")};
      };
      out.read = tally(0);
      out.rows = tally(1);
      for (std::size_t r = 0; r < model::k_left_out_reasons; ++r) out.left_out[r] = tally(2 + r);
    }
    if (!a.adds_up()) fail("accounting: the events in rows and left out do not add up to those read");
    a.every_step_count = bounded(at(o, "every_step"), "accounting.every_step");
    for (const auto& n : array(at(o, "every_step_names"), "accounting.every_step_names"))
      if (a.every_step_names.size() < model::Accounting::k_names_kept) a.every_step_names.push_back(str(n, "operator name"));
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


  // Schema 6's columns (docs/summaries.md "The format"; model/summary_format.hpp).
  const std::string& str(const json::value& v, const char* what) const {
    const auto i = count(v, what);
    if (i >= table->size())
      fail(std::string(what) + ": string " + std::to_string(i) + " out of range (" + std::to_string(table->size()) +
           " strings)");
    return (*table)[i];
  }
  // The same as a Name (set_table() made them).
  model::Name name(const json::value& v, const char* what) const {
    const auto& text = str(v, what);  // the same checks
    auto& n = (*names)[count(v, what)];
    if (!n) n = model::Name(text);
    return *n;
  }
  void set_table(std::vector<std::string> t) {
    names = std::make_shared<std::vector<std::optional<model::Name>>>(t.size());
    table = std::make_shared<const std::vector<std::string>>(std::move(t));
  }
  // A flat array of integers in tuples of n.
  const json::array& flat(const json::value& v, std::size_t n, const char* what) const {
    const auto& a = array(v, what);
    if (a.size() % n) fail(std::string(what) + " has " + std::to_string(a.size()) + " numbers, not a multiple of " + std::to_string(n));
    return a;
  }
  // A value in units back in ns.
  std::int64_t scaled(std::uint64_t v, const char* what) const {
    if (v > static_cast<std::uint64_t>(INT64_MAX) / unit)
      fail(std::string(what) + " " + std::to_string(static_cast<std::int64_t>(v)) + " x unit " + std::to_string(unit) +
           " is not a duration");
    return static_cast<std::int64_t>(v * unit);
  }
  // Integers as written, modulo 2^64 (a difference from a prediction).
  std::uint64_t wrapped(const json::value& v, const char* what) const {
    if (v.is_uint64()) return v.get_uint64();
    if (v.is_int64()) return static_cast<std::uint64_t>(v.get_int64());
    fail(std::string(what) + " is not an integer");
  }
  // [gap, value, ...]: the rows (of `rows`) whose value is not 0.
  template <typename Set>
  void sparse(const json::value& v, std::size_t rows, const char* what, Set set) const {
    const auto& a = flat(v, 2, what);
    std::size_t row = 0;
    for (std::size_t i = 0; i < a.size(); i += 2) {
      const auto gap = count(a[i], what);
      if (gap >= rows - std::min<std::uint64_t>(row, rows))
        fail(std::string(what) + ": row " + std::to_string(row + gap) + " out of range (" + std::to_string(rows) + " rows)");
      row += gap;
      set(row, wrapped(a[i + 1], what));
      ++row;
    }
  }
  // Runs of consecutive steps of one index, [index delta, first step, length, ...] (the
  // launches' with two indices, launcher and key): the rows' (indices..., step), at
  // most `limit` rows.
  template <std::size_t N>
  std::vector<std::array<std::uint32_t, N + 1>> runs(const json::value& v, const std::array<std::size_t, N>& sizes,
                                                      const std::array<const char*, N>& whats, std::size_t steps,
                                                      std::size_t limit, const char* what) const {
    const auto& a = flat(v, N + 2, what);
    std::vector<std::array<std::uint32_t, N + 1>> out;
    std::array<std::int64_t, N> prev{};
    for (std::size_t i = 0; i < a.size(); i += N + 2) {
      std::array<std::uint32_t, N + 1> row{};
      for (std::size_t k = 0; k < N; ++k) {
        const auto d = integer(a[i + k], whats[k]);
        if (d < -prev[k] || d >= static_cast<std::int64_t>(sizes[k]) - prev[k]) {
          std::int64_t at = 0;  // the index it names; a delta past int64 says itself
          const bool wraps = __builtin_add_overflow(prev[k], d, &at);
          fail(std::string(what) + ": " + whats[k] + " " +
               (wraps ? "delta " + std::to_string(d) : std::to_string(at)) + " out of range (" +
               std::to_string(sizes[k]) + " " + whats[k] + "s)");
        }
        prev[k] += d;
        row[k] = static_cast<std::uint32_t>(prev[k]);
      }
      const auto first = count(a[i + N], "step");
      const auto n = count(a[i + N + 1], "run length");
      if (n == 0 || first >= steps || n > steps - first)
        fail(std::string(what) + ": steps " + std::to_string(first) + " + " + std::to_string(n) + " out of range (" +
             std::to_string(steps) + " steps)");
      if (n > limit - out.size()) fail(std::string(what) + ": more rows than its columns hold");
      for (std::uint64_t s = 0; s < n; ++s) {
        row[N] = static_cast<std::uint32_t>(first + s);
        out.push_back(row);
      }
    }
    return out;
  }

  // Cells' counts: each event counted in one cell at most.
  std::uint64_t cell_count(std::uint64_t n, std::uint64_t& counted, const char* what) const {
    if (n > static_cast<std::uint64_t>(INT64_MAX)) fail(std::string(what) + " count is negative");
    if (n > events - counted) fail(std::string(what) + "s count more events than the file's " + std::to_string(events));
    counted += n;
    return n;
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
    // Optional: summaries written before it was recorded read as unknown (every schema 6
    // file tracediff wrote has it; a comparison or merge refuses a file without).
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
      f.step_marker_matches = figure(at(mo, "matches"), "step_marker.matches");
      if (!f.has_steps) fail("step_marker in a file without steps (has_steps false)");
    }
    if (const auto* m = o.if_contains("marker_hint")) {
      const auto& mo = object(*m, "marker_hint");
      f.marker_hint = string(at(mo, "pattern"), "marker_hint.pattern");
      f.marker_hint_name = string(at(mo, "name"), "marker_hint.name");
      f.marker_hint_count = figure(at(mo, "count"), "marker_hint.count");
      if (f.has_steps) fail("marker_hint in a file with steps (has_steps true)");
    }
    f.diagnostics = diagnostics(at(o, "diagnostics"));
    if (const auto* a = o.if_contains("accounting")) f.accounting = accounting(*a);
    namespace sf = model::summary_format;
    unit = count(at(o, "unit"), "unit");
    if (unit == 0) fail("unit 0");
    events = f.events;
    item = "key";
    item_no = 0;
    const auto& keys = flat(at(o, "keys"), 3, "keys");
    for (std::size_t i = 0; i < keys.size(); i += 3, ++item_no)
      f.keys.push_back({name(keys[i], "category"), name(keys[i + 1], "name"), kind(str(keys[i + 2], "kind"))});
    if (const auto* shapes = o.if_contains("key_shapes")) {  // --by-shape
      const auto& a = flat(*shapes, 2, "key_shapes");
      for (std::size_t i = 0; i < a.size(); i += 2) {
        item_no = index(a[i], f.keys.size(), "key");
        auto& shape = f.keys[item_no].shape;
        if (!shape.empty()) fail("a second shape");
        shape = str(a[i + 1], "shape");
        if (shape.empty()) fail("an empty shape (a key without one is not listed)");
      }
    }
    item = nullptr;
    for (const auto& l : array(at(o, "launchers"), "launchers")) f.launchers.push_back(str(l, "launcher"));
    if (const auto* ls = o.if_contains("launcher_shapes")) {  // --by-shape only
      for (const auto& l : array(*ls, "launcher_shapes")) f.launcher_shapes.push_back(str(l, "launcher shape"));
      if (f.launcher_shapes.size() != f.launchers.size())
        fail("launcher_shapes has " + std::to_string(f.launcher_shapes.size()) + " entries for " +
             std::to_string(f.launchers.size()) + " launchers");
    }
    // --by-shape: recorded since it is compared; before, a file made with it lists shapes.
    const bool shapes = !f.launcher_shapes.empty() ||
                        std::any_of(f.keys.begin(), f.keys.end(), [](const auto& k) { return !k.shape.empty(); });
    if (const auto* b = o.if_contains("by_shape")) {
      f.by_shape = boolean(*b, "by_shape");
      if (shapes && !f.by_shape) fail("input shapes in a file made without --by-shape (by_shape false)");
    } else {
      f.by_shape = shapes;
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
      model::StepSummary st;
      st.step = integer(s, "step number");
      if (!f.has_steps && st.step != model::k_whole_trace_step)
        fail("step number " + std::to_string(st.step) + " in a file without steps (has_steps false)");
      if (f.has_steps && (st.step < 0 || st.step > k_max_step))
        fail("step number " + std::to_string(st.step) + " is not a ProfilerStep number");
      if (!seen.insert(st.step).second) fail("step number " + std::to_string(st.step) + " twice");
      f.steps.push_back(st);
      ++item_no;
    }
    item = nullptr;
    if (f.steps.empty()) fail("a file without steps");
    const auto steps = f.steps.size();
    const auto& figures = array(at(o, "step_figures"), "step_figures");
    if (figures.size() != std::size(model::k_step_fields) * steps)
      fail("step_figures has " + std::to_string(figures.size()) + " numbers, not " +
           std::to_string(std::size(model::k_step_fields)) + " per step");
    for (std::size_t k = 0, i = 0; k < std::size(model::k_step_fields); ++k)
      for (auto& st : f.steps) st.detail.*model::k_step_fields[k].field = scaled(count(figures[i++], "step figure"), "step figure");

    // The call tree: a node's parent comes before it (gap 0: top level), so it is a
    // tree; its key is one of the file's, or -1 / -2 for the "(other)" nodes of the
    // budget. Paths end at k_tree_depth host levels, with GPU work one below.
    item = "tree node";
    item_no = 0;
    std::vector<std::uint32_t> depth;
    const auto& tree = flat(at(o, "tree"), 2, "tree");
    for (std::size_t i = 0; i < tree.size(); i += 2, ++item_no) {
      const auto gap = integer(tree[i], "parent");
      if (gap < 0 || gap > static_cast<std::int64_t>(f.tree.size())) {
        std::int64_t parent = 0;  // the node it names; a gap near -2^63 says itself
        if (__builtin_sub_overflow(static_cast<std::int64_t>(f.tree.size()), gap, &parent))
          fail("parent gap " + std::to_string(gap) + " is not an earlier node");
        fail("parent " + std::to_string(parent) + " is not an earlier node");
      }
      const auto parent = gap == 0 ? model::k_tree_top : static_cast<std::uint32_t>(f.tree.size() - static_cast<std::size_t>(gap));
      depth.push_back(gap == 0 ? 1 : depth[parent] + 1);
      if (depth.back() > model::k_tree_depth + 1)
        fail("deeper than the " + std::to_string(model::k_tree_depth + 1) + " levels a call tree has");
      const auto key = integer(tree[i + 1], "key");
      if (key < -2 || key >= static_cast<std::int64_t>(f.keys.size()))
        fail("key " + std::to_string(key) + " out of range (" + std::to_string(f.keys.size()) + " keys)");
      f.tree.push_back({parent, key == -1 ? model::k_tree_other : key == -2 ? model::k_tree_other_gpu
                                                                            : static_cast<std::uint32_t>(key)});
    }
    item = nullptr;
    {
      const auto& tc = at(o, "tree_cells");
      const auto& t = object(tc, "tree_cells");
      const auto& totals = array(at(t, "total"), "tree cell totals");
      const auto rows = runs<1>(at(t, "at"), {f.tree.size()}, {"node"}, steps, totals.size(), "tree cells");
      if (rows.size() != totals.size())
        fail("tree cells: " + std::to_string(rows.size()) + " rows and " + std::to_string(totals.size()) + " totals");
      f.tree_cells.resize(rows.size());
      std::vector<std::uint64_t> count_change(rows.size()), self_miss(rows.size());
      sparse(at(t, "count"), rows.size(), "tree cell counts", [&](std::size_t r, std::uint64_t v) { count_change[r] = v; });
      sparse(at(t, "self"), rows.size(), "tree cell self times", [&](std::size_t r, std::uint64_t v) { self_miss[r] = v; });
      for (std::size_t r = 0; r < rows.size(); ++r) {
        auto& c = f.tree_cells[r];
        c.node = rows[r][0];
        c.step = rows[r][1];
        c.total_ns = scaled(count(totals[r], "tree cell total"), "tree cell total");
      }
      const auto children = sf::tree_child_time(f, unit);
      std::uint64_t counted = 0;
      item = "tree cell";
      for (std::size_t r = 0; r < rows.size(); ++r) {
        item_no = r;
        auto& c = f.tree_cells[r];
        const bool same = r > 0 && f.tree_cells[r - 1].node == c.node;
        c.count = cell_count((same ? f.tree_cells[r - 1].count : 0) + count_change[r], counted, "tree cell");
        c.self_ns = scaled(sf::in_units(c.total_ns, unit) - children[r] - self_miss[r], "self");
      }
      item = nullptr;
      unique_pairs(f.tree_cells, [](const model::TreeCell& c) { return std::pair{c.node, c.step}; }, "tree cell");
      item = nullptr;
    }
    {
      const auto& t = object(at(o, "cells"), "cells");
      // At most a row per event counted and per tree cell: hostile runs cannot make more.
      const auto rows = runs<1>(at(t, "at"), {f.keys.size()}, {"key"}, steps,
                                static_cast<std::size_t>(std::min<std::uint64_t>(f.events, bytes)) + f.tree_cells.size(),
                                "cells");
      std::vector<std::uint64_t> col[5];
      const char* names[5] = {"count", "total", "self", "wait", "nested"};
      for (std::size_t k = 0; k < 5; ++k) {
        col[k].assign(rows.size(), 0);
        sparse(at(t, names[k]), rows.size(), names[k], [&](std::size_t r, std::uint64_t v) { col[k][r] = v; });
      }
      const auto guesses = sf::cell_guesses(f, unit);
      std::uint64_t counted = 0;
      item = "cell";
      f.cells.resize(rows.size());
      for (std::size_t r = 0; r < rows.size(); ++r) {
        item_no = r;
        auto& c = f.cells[r];
        c.key = rows[r][0];
        c.step = rows[r][1];
        const auto g = guesses.get(c.key, c.step);
        c.count = cell_count(g.count + col[0][r], counted, "cell");
        c.total_ns = scaled(g.total + col[1][r], "total");
        c.self_ns = scaled(g.self + col[2][r], "self");
        c.wait_ns = scaled(col[3][r], "wait");
        c.nested = col[4][r];
        if (c.nested > c.count) fail("more nested calls than calls");
      }
      item = nullptr;
      unique_pairs(f.cells, [](const model::Cell& c) { return std::pair{c.key, c.step}; }, "cell");
    }
    {
      const auto& t = object(at(o, "launches"), "launches");
      const auto& totals = array(at(t, "total"), "launch totals");
      const auto rows = runs<2>(at(t, "at"), {f.launchers.size(), f.keys.size()}, {"launcher", "key"}, steps,
                                totals.size(), "launches");
      if (rows.size() != totals.size())
        fail("launches: " + std::to_string(rows.size()) + " rows and " + std::to_string(totals.size()) + " totals");
      item = "launch";
      for (std::size_t r = 0; r < rows.size(); ++r) {
        item_no = r;
        f.launches.push_back({rows[r][0], rows[r][1], rows[r][2], scaled(count(totals[r], "total"), "total")});
      }
      item = nullptr;
    }
    // As summarize_file leaves them; stable, so that cells of one (node, step) (a summary
    // made by hand) keep their order and the summary writes back the same.
    std::stable_sort(f.tree_cells.begin(), f.tree_cells.end(), [](const model::TreeCell& a, const model::TreeCell& b) {
      return a.node != b.node ? a.node < b.node : a.step < b.step;
    });
    model::shrink_to_fit(f);  // kept until the comparison ends
    f.tree_folded = figure(at(o, "tree_folded"), "tree_folded");
    if (const auto* off = o.if_contains("off_launch_keys")) {
      for (const auto& k : array(*off, "off_launch_keys")) {
        const auto key = index(k, f.keys.size(), "off_launch_keys key");
        if (!f.off_launch_keys.empty() && key <= f.off_launch_keys.back()) fail("off_launch_keys not ascending");
        f.off_launch_keys.push_back(key);
      }
    }
    if (const auto* keys = o.if_contains("collective_keys")) {  // optional: files without collectives
      item = "collective key";
      item_no = 0;
      for (const auto& k : array(*keys, "collective_keys")) {
        const auto& t = tuple(k, 2, "collective key");
        f.collective_keys.push_back({str(t[0], "collective key"), boolean(t[1], "by_seq")});
        ++item_no;
      }
      item = "collective";
      item_no = 0;
      std::size_t in_step = 0;
      const auto& calls = flat(at(o, "collectives"), 4, "collectives");
      for (std::size_t i = 0; i < calls.size(); i += 4, ++item_no) {
        model::CollectiveCall call{index(calls[i], steps, "step"), index(calls[i + 1], f.collective_keys.size(), "key"),
                                   integer(calls[i + 2], "seq"), scaled(count(calls[i + 3], "duration"), "duration")};
        if (!f.collectives.empty() && call.step < f.collectives.back().step) fail("collectives not in step order");
        in_step = !f.collectives.empty() && call.step == f.collectives.back().step ? in_step + 1 : 1;
        if (in_step > model::k_collectives_per_step)
          fail("more than " + std::to_string(model::k_collectives_per_step) + " collectives in a step");
        if (call.seq < 0) fail("seq " + std::to_string(call.seq) + " is negative");
        f.collectives.push_back(call);
      }
      item = nullptr;
    }
    if (const auto* memory = o.if_contains("memory")) {  // optional: files without [memory] events
      item = "memory step";
      item_no = 0;
      const auto& a = flat(*memory, 9, "memory");
      for (std::size_t i = 0; i < a.size(); i += 9, ++item_no) {
        model::MemoryStep ms;
        ms.step = index(a[i], steps, "step");
        const auto type = integer(a[i + 1], "device type"), id = integer(a[i + 2], "device id");
        if (type < -1 || type > 127 || id < -1 || id > 32767)
          fail("device " + std::to_string(type) + ":" + std::to_string(id) + " out of range");
        ms.device_type = static_cast<std::int8_t>(type);
        ms.device_id = static_cast<std::int16_t>(id);
        ms.peak_allocated = integer(a[i + 3], "peak allocated");
        ms.peak_reserved = integer(a[i + 4], "peak reserved");
        ms.peak_growth = integer(a[i + 5], "peak growth");
        ms.net_change = integer(a[i + 6], "net change");
        ms.allocated_bytes = integer(a[i + 7], "bytes allocated");
        ms.allocations = figure(a[i + 8], "allocations");
        if (ms.peak_allocated < -1 || ms.peak_reserved < -1 || ms.peak_growth < 0 || ms.allocated_bytes < 0)
          fail("a negative size");
        f.memory.push_back(ms);
      }
      const auto device_step = [](const model::MemoryStep& m) { return std::tie(m.device_type, m.device_id, m.step); };
      std::sort(f.memory.begin(), f.memory.end(),
                [&](const model::MemoryStep& a, const model::MemoryStep& b) { return device_step(a) < device_step(b); });
      item = nullptr;
      unique_cells(f.memory, device_step, "memory step");
    }
    if (const auto* cells = o.if_contains("memory_cells")) {  // optional: files without allocations
      item = "memory cell";
      item_no = 0;
      const auto& a = flat(*cells, 7, "memory_cells");
      for (std::size_t i = 0; i < a.size(); i += 7, ++item_no) {
        model::MemoryCell c;
        c.key = index(a[i], f.keys.size(), "key");
        c.step = index(a[i + 1], steps, "step");
        c.self_bytes = integer(a[i + 2], "self bytes");
        c.self_count = figure(a[i + 3], "self allocations");
        c.bytes = integer(a[i + 4], "bytes");
        c.count = figure(a[i + 5], "allocations");
        c.held_bytes = integer(a[i + 6], "held bytes");
        if (c.self_bytes < 0 || c.bytes < 0 || c.held_bytes < 0 || c.held_bytes > c.self_bytes) fail("a negative size");
        f.memory_cells.push_back(c);
      }
      const auto key_step = [](const model::MemoryCell& c) { return std::tie(c.key, c.step); };
      std::sort(f.memory_cells.begin(), f.memory_cells.end(),
                [&](const model::MemoryCell& a, const model::MemoryCell& b) { return key_step(a) < key_step(b); });
      item = nullptr;
      unique_cells(f.memory_cells, key_step, "memory cell");
    }
    if (const auto* cells = o.if_contains("work_cells")) {  // optional: files without Inductor's figures
      item = "work cell";
      item_no = 0;
      const auto& a = flat(*cells, 6, "work_cells");
      for (std::size_t i = 0; i < a.size(); i += 6, ++item_no) {
        model::WorkCell c;
        c.key = index(a[i], f.keys.size(), "key");
        c.step = index(a[i + 1], steps, "step");
        c.flop = integer(a[i + 2], "flop");
        c.flop_ns = integer(a[i + 3], "flop ns");
        c.bytes = integer(a[i + 4], "bytes");
        c.bytes_ns = integer(a[i + 5], "bytes ns");
        if (c.flop < 0 || c.flop_ns < 0 || c.bytes < 0 || c.bytes_ns < 0) fail("a negative figure");
        f.work_cells.push_back(c);
      }
      std::sort(f.work_cells.begin(), f.work_cells.end(), [](const model::WorkCell& a, const model::WorkCell& b) {
        return std::tie(a.key, a.step) < std::tie(b.key, b.step);
      });
      item = nullptr;
    }
    if (const auto* ps = o.if_contains("path_steps")) {  // optional: what bounded each step
      item = "path step";
      item_no = 0;
      const auto& a = flat(*ps, 3 + model::k_bound_count, "path_steps");
      const auto duration = [&](const json::value& v, const char* what) {
        const auto x = integer(v, what);
        if (x < 0 || static_cast<std::uint64_t>(x) > model::k_max_durations) fail(std::string(what) + " out of range");
        return x;
      };
      for (std::size_t i = 0; i < a.size(); i += 3 + model::k_bound_count, ++item_no) {
        auto& path = f.steps[index(a[i], steps, "step")].path;
        if (path.recorded) fail("a step's path twice");
        path.recorded = true;
        path.length_ns = duration(a[i + 1], "path length");
        for (std::size_t b = 0; b < model::k_bound_count; ++b) path.bound_ns[b] = duration(a[i + 2 + b], "path bound");
        path.events = static_cast<std::uint64_t>(duration(a[i + 2 + model::k_bound_count], "path events"));
      }
      item = "path cell";
      item_no = 0;
      const auto& c = flat(at(o, "path_cells"), 3, "path_cells");
      for (std::size_t i = 0; i < c.size(); i += 3, ++item_no)
        f.path_cells.push_back({index(c[i], f.keys.size(), "key"), index(c[i + 1], steps, "step"), duration(c[i + 2], "path time")});
      const auto key_step = [](const model::PathCell& x) { return std::tie(x.key, x.step); };
      std::sort(f.path_cells.begin(), f.path_cells.end(),
                [&](const model::PathCell& x, const model::PathCell& y) { return key_step(x) < key_step(y); });
      unique_cells(f.path_cells, key_step, "path cell");
      item = "what-if";
      item_no = 0;
      for (const auto& v : array(at(o, "what_ifs"), "what_ifs")) {
        const auto& w = array(v, "what-if");
        if (w.size() != 3) fail("a what-if is [key, factor, spec]");
        model::WhatIf x;
        const auto key = integer(w[0], "what-if key");
        x.key = key < 0 ? -1 : static_cast<std::int32_t>(index(w[0], f.keys.size(), "what-if key"));
        x.factor = w[1].is_number() ? w[1].to_number<double>() : -1;
        if (!(x.factor >= 0 && x.factor <= 100)) fail("a what-if's factor is not a number from 0 to 100");
        if (!w[2].is_string()) fail("a what-if's spec is not a string");
        x.spec = std::string(w[2].as_string());
        f.what_ifs.push_back(std::move(x));
        ++item_no;
      }
      item = "what-if cell";
      item_no = 0;
      const auto& wc = flat(at(o, "what_if_cells"), 3, "what_if_cells");
      for (std::size_t i = 0; i < wc.size(); i += 3, ++item_no) {
        const auto saved = integer(wc[i + 2], "saved");
        if (saved < -static_cast<std::int64_t>(model::k_max_durations) || saved > static_cast<std::int64_t>(model::k_max_durations))
          fail("saved out of range");
        f.what_if_cells.push_back({index(wc[i], f.what_ifs.size(), "what-if"), index(wc[i + 1], steps, "step"), saved});
      }
      const auto what_step = [](const model::WhatIfCell& x) { return std::tie(x.what, x.step); };
      std::sort(f.what_if_cells.begin(), f.what_if_cells.end(),
                [&](const model::WhatIfCell& x, const model::WhatIfCell& y) { return what_step(x) < what_step(y); });
      unique_cells(f.what_if_cells, what_step, "what-if cell");
      item = nullptr;
    }
    if (const auto* tm = o.if_contains("tree_memory")) {  // optional: files without allocations
      const auto& t = object(*tm, "tree_memory");
      // A row per tree cell at most: each allocation's operator has its node's cell.
      const auto rows = runs<1>(at(t, "at"), {f.tree.size()}, {"node"}, steps, f.tree_cells.size(), "tree memory");
      std::vector<std::uint64_t> change(rows.size(), 0);
      sparse(at(t, "bytes"), rows.size(), "tree memory bytes", [&](std::size_t r, std::uint64_t v) { change[r] = v; });
      f.tree_memory.resize(rows.size());
      for (std::size_t r = 0; r < rows.size(); ++r) {
        auto& c = f.tree_memory[r];
        c.node = rows[r][0];
        c.step = rows[r][1];
        const bool same = r > 0 && f.tree_memory[r - 1].node == c.node;
        c.bytes = static_cast<std::int64_t>((same ? static_cast<std::uint64_t>(f.tree_memory[r - 1].bytes) : 0) + change[r]);
        if (c.bytes < 0) fail("tree memory: a negative size");
      }
      std::sort(f.tree_memory.begin(), f.tree_memory.end(), [](const model::TreeMemoryCell& a, const model::TreeMemoryCell& b) {
        return std::tie(a.node, a.step) < std::tie(b.node, b.step);
      });
    }
    if (const auto* timeline = o.if_contains("memory_timeline")) {  // optional: files without memory events
      const auto& a = flat(*timeline, 2, "memory_timeline");
      if (a.size() < 8) fail("memory_timeline has " + std::to_string(a.size()) + " numbers, fewer than 8");
      if ((a.size() - 8) / 2 > model::k_timeline_points)
        fail("memory_timeline has more than " + std::to_string(model::k_timeline_points) + " points");
      model::MemoryTimeline t;
      t.step = index(a[0], steps, "step");
      t.step_ns = integer(a[1], "step ns");
      const auto type = integer(a[2], "device type"), id = integer(a[3], "device id");
      if (type < -1 || type > 127 || id < -1 || id > 32767)
        fail("memory_timeline: device " + std::to_string(type) + ":" + std::to_string(id) + " out of range");
      t.device_type = static_cast<int>(type);
      t.device_id = static_cast<int>(id);
      const auto totals = integer(a[4], "totals");
      if (totals != 0 && totals != 1) fail("memory_timeline: totals " + std::to_string(totals) + " is not 0 or 1");
      t.totals = totals == 1;
      t.peak_ns = integer(a[5], "peak ns");
      t.peak_bytes = integer(a[6], "peak bytes");
      if (integer(a[7], "peak operator") != -1) t.peak_op = str(a[7], "peak operator");
      if (t.step_ns < 0 || t.peak_ns < 0) fail("memory_timeline: a negative time");
      t.points.reserve((a.size() - 8) / 2);
      std::int64_t ns = 0;  // each point's ns and bytes less the point before's
      std::uint64_t bytes = 0;
      for (std::size_t i = 8; i < a.size(); i += 2) {
        const auto dt = integer(a[i], "point ns");
        if (dt < 0 || __builtin_add_overflow(ns, dt, &ns))
          fail("memory_timeline: point " + std::to_string((i - 8) / 2) + " out of time order");
        bytes += wrapped(a[i + 1], "point bytes");
        t.points.push_back({ns, static_cast<std::int64_t>(bytes)});
      }
      f.memory_timeline = std::move(t);
    }
    return f;
  }
};

// The document's own fields (all but its files): the format and its version first.
model::SetSummary read_top(Reader& r, const json::object& top) {
  const auto& path = r.path;
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
  // unlike their traces; 5's layout is not 6's.
  if (version < model::k_summary_schema_version)
    throw Fatal(path + ": summary schema version " + std::to_string(version) +
                " was written by an older tracediff; this one reads version " +
                std::to_string(model::k_summary_schema_version) +
                (version == 5 ? " (the same figures in a compact layout, a fraction of the size)"
                              : " (it adds the step's timeline split: GPU parts, idle by cause, exposed communication, "
                                "the host waiting for the GPU)") +
                ": summarize the traces again");
  model::SetSummary s;
  s.label = r.string(r.at(top, "label"), "label");
  s.inputs = r.strings(r.at(top, "inputs"), "inputs");
  s.diagnostics = r.diagnostics(r.at(top, "diagnostics"));
  r.set_table(r.strings(r.at(top, "strings"), "strings"));
  return s;
}


// A summary read part by part (read_summary_file's `parts`): the document's own fields,
// then each file on its own, whose rows are left in the bytes (model::defer_rows) and
// decoded again when a comparison reaches the file. The files are read as the whole
// document reads them (Reader::file), so a summary reads the same either way; what this
// reader does not expect (a JSON error, a key twice, the files before the strings,
// durations past 2^61) it leaves to the whole document's read, which says it.
class SummaryParts final : public model::DeferredRows, public std::enable_shared_from_this<SummaryParts> {
 public:
  SummaryParts(std::string bytes, const std::string& path)
      : m_bytes(std::move(bytes)), m_size(m_bytes.size()), m_path(path) {}
  std::string_view bytes() const { return m_bytes; }

  std::optional<model::SetSummary> read(std::uint64_t* figures) {
    std::size_t at = 0;
    const auto ws = [&] {
      while (at < m_bytes.size() && std::strchr(" \t\r\n", m_bytes[at]) && m_bytes[at] != '\0') ++at;
    };
    const auto next = [&](char c) {
      ws();
      if (at >= m_bytes.size() || m_bytes[at] != c) return false;
      ++at;
      return true;
    };
    Reader r{m_path};
    r.total = std::min(*figures, k_max_total);
    r.shared = *figures > 0;
    r.bytes = m_size;
    json::object top;
    model::SetSummary s;
    bool files = false;
    std::uint64_t total = 0;  // the files' durations (bound_durations)
    if (!next('{')) return std::nullopt;
    do {
      ws();
      auto key = value(at, 1, {});
      if (!key || !key->is_string() || !next(':')) return std::nullopt;
      if (key->get_string() != "files") {
        auto v = value(at, k_depth - 1, {});
        if (!v || !top.emplace(key->get_string(), std::move(*v)).second) return std::nullopt;
        continue;
      }
      if (files) return std::nullopt;
      files = true;
      s = read_top(r, top);
      if (!next('[')) return std::nullopt;
      if (next(']')) continue;
      do {
        ws();
        const auto begin = at;
        json::monotonic_resource mr(k_block);  // a file's DOM, given back whole
        const auto v = value(at, k_depth - 2, json::storage_ptr(&mr));
        if (!v) return std::nullopt;
        r.file_no = s.files.size();
        auto f = r.file(*v);
        // Below 2^61 ns in all, bound_durations clamps nothing, and the rows read again
        // are the rows read now; past it, the whole document's read bounds them one by one.
        model::defer_rows(f, shared_from_this(), static_cast<std::uint32_t>(m_ranges.size()));
        total = std::min(total + model::duration_total(f), model::k_max_durations);
        if (total >= model::k_max_durations) return std::nullopt;
        s.files.push_back(std::move(f));
        m_ranges.push_back({begin, at - begin});
      } while (next(','));
      if (!next(']')) return std::nullopt;
    } while (next(','));
    if (!next('}')) return std::nullopt;
    ws();
    if (at != m_bytes.size() || !files || s.files.empty()) return std::nullopt;
    r.file_no = Reader::k_none;
    m_version = r.version;
    m_table = r.table;
    m_names = r.names;  // the keys' names, interned by this read
    *figures = r.total;
    model::bound_durations(s);
    // The rows are read again from the file, a file's bytes at a time, and checked
    // against what was read now: the side does not hold the summary's bytes.
    for (const auto& [begin, size] : m_ranges) m_hashes.push_back(std::hash<std::string_view>{}(bytes().substr(begin, size)));
    std::string().swap(m_bytes);
    return s;
  }

  model::FileSummary file(const model::FileSummary& header) const override {
    const auto index = header.deferred_index;
    Reader r{m_path};
    r.version = m_version;
    r.table = m_table;
    r.names = std::make_shared<std::vector<std::optional<model::Name>>>(*m_names);  // a copy: file() may run on any thread
    r.bytes = m_size;
    r.file_no = index;
    const auto [begin, size] = m_ranges.at(index);
    const auto bytes = read_range(begin, size);
    if (std::hash<std::string_view>{}(bytes) != m_hashes.at(index))
      throw Fatal(m_path + ": changed while tracediff was reading it; run the comparison again");
    std::size_t at = 0;
    json::monotonic_resource mr(k_block);
    const auto v = value(bytes, at, k_depth - 2, json::storage_ptr(&mr));
    if (!v) throw Fatal(m_path + ": changed while tracediff was reading it; run the comparison again");
    auto f = r.file(*v);
    // The comparison indexes what it made of the header's keys, launchers, steps and call
    // paths with these rows: they must be the header's (a hash can collide).
    const auto same_tree = [](const std::vector<model::TreeNode>& a, const std::vector<model::TreeNode>& b) {
      return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                        [](const auto& x, const auto& y) { return x.parent == y.parent && x.key == y.key; });
    };
    const auto same_keys = std::equal(f.keys.begin(), f.keys.end(), header.keys.begin(), header.keys.end(),
                                      [](const auto& x, const auto& y) {
                                        return x.category == y.category && x.name == y.name && x.kind == y.kind && x.shape == y.shape;
                                      });
    if (!same_keys || f.launchers != header.launchers || f.launcher_shapes != header.launcher_shapes ||
        f.steps.size() != header.steps.size() || !same_tree(f.tree, header.tree))
      throw Fatal(m_path + ": changed while tracediff was reading it; run the comparison again");
    std::uint64_t total = 0;
    model::bound_durations(f, total);  // as the first read left it: negatives 0, nothing clamped
    return f;
  }

 private:
  static constexpr unsigned k_depth = 32;  // the whole document's parser's limit (Boost.JSON's default)
  static constexpr std::size_t k_block = 64 * 1024;  // a rank's file is a few KB of JSON

  // `size` bytes of the file from `begin`.
  std::string read_range(std::size_t begin, std::size_t size) const {
    std::string error;
    const int fd = open_regular_file(m_path, error);
    if (fd < 0) throw Fatal(m_path + ": cannot read: " + error);
    std::string out(size, '\0');
    std::size_t got = 0;
    while (got < size) {
      const ssize_t n = ::pread(fd, out.data() + got, size - got, static_cast<off_t>(begin + got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = std::strerror(errno);
        ::close(fd);
        throw Fatal(m_path + ": cannot read: " + error);
      }
      if (n == 0) break;  // shorter than it was: the hash check says so
      got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    out.resize(got);
    return out;
  }

  std::optional<json::value> value(std::size_t& at, unsigned depth, json::storage_ptr sp) const {
    return value(m_bytes, at, depth, std::move(sp));
  }
  // The JSON value at `at` of `bytes`, `at` moved past it; nullopt where there is none.
  static std::optional<json::value> value(std::string_view bytes, std::size_t& at, unsigned depth, json::storage_ptr sp) {
    json::parse_options options;
    options.allow_invalid_utf8 = true;
    options.max_depth = depth;
    json::stream_parser parser({}, options);
    parser.reset(std::move(sp));
    boost::system::error_code ec;
    const auto used = parser.write_some(bytes.data() + at, bytes.size() - at, ec);
    if (ec || !parser.done()) return std::nullopt;
    at += used;
    return parser.release();
  }

  std::string m_bytes;  // until read() has read them
  std::size_t m_size;   // of the document
  std::string m_path;
  std::int64_t m_version = model::k_summary_schema_version;
  std::shared_ptr<const std::vector<std::string>> m_table;
  std::shared_ptr<const std::vector<std::optional<model::Name>>> m_names;
  std::vector<std::pair<std::size_t, std::size_t>> m_ranges;  // each file's bytes
  std::vector<std::size_t> m_hashes;                           // and their hash
};

}  // namespace

bool is_summary_path(const std::string& path) {
  constexpr std::string_view suffix = ".tdsum.json";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ContentKey content_key(std::string_view bytes) {
  std::uint64_t fnv = 0xcbf29ce484222325u;
  for (const char c : bytes) fnv = (fnv ^ static_cast<unsigned char>(c)) * 0x100000001b3u;
  return {bytes.size(), std::hash<std::string_view>{}(bytes), fnv};
}

model::SetSummary read_summary_file(const std::string& path, std::uint64_t* figures, ContentKey* key, bool parts) {
  // Regular files only (a FIFO or /dev/zero would block or never end), and what is
  // not JSON is refused at its first bytes, not once it is all in memory.
  std::string error;
  const int fd = open_regular_file(path, error);
  if (fd < 0) throw Fatal(path + ": cannot read: " + error);
  std::string bytes;
  // Room for the whole file at once (a regular file's size; it may still grow), made once its
  // first bytes are known to be JSON.
  std::size_t room = 0;
  if (struct stat st{}; ::fstat(fd, &st) == 0 && st.st_size > 0) room = static_cast<std::size_t>(st.st_size);
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
        if (room > bytes.capacity()) bytes.reserve(room + (std::size_t{1} << 16));
      }
    }
  }
  ::close(fd);
  if (key) *key = content_key(bytes);
  if (!parts) return read_summary_bytes(bytes, path, figures);
  auto reader = std::make_shared<SummaryParts>(std::move(bytes), path);
  std::uint64_t part_figures = figures ? *figures : 0;
  try {
    if (auto s = reader->read(&part_figures)) {
      if (figures) *figures = part_figures;
      return std::move(*s);
    }
  } catch (const Fatal&) {
    // Read whole below, which says what is wrong where it first is.
  }
  return read_summary_bytes(reader->bytes(), path, figures);
}

model::SetSummary read_summary_bytes(std::string_view bytes, const std::string& path, std::uint64_t* figures) {
  boost::system::error_code ec;
  json::parse_options options;
  options.allow_invalid_utf8 = true;  // names byte for byte, as the writer keeps them
  // The stream parser says where it stopped: a JSON error names its byte.
  json::stream_parser parser({}, options);
  const std::size_t used = parser.write_some(bytes.data(), bytes.size(), ec);
  // The parser stops where the document ends: what follows it, but whitespace, is
  // trailing data (two summaries pasted together, a cut-and-append), not a cut document.
  std::size_t trailing = used;
  if (!ec && parser.done())
    while (trailing < bytes.size() && std::strchr(" \t\r\n", bytes[trailing]) && bytes[trailing] != '\0') ++trailing;
  if (!ec && (trailing == bytes.size() || !parser.done())) parser.finish(ec);
  Reader r{path};
  if (figures) {
    r.total = std::min(*figures, k_max_total);
    r.shared = *figures > 0;
  }
  if (!ec && trailing < bytes.size())
    r.fail("trailing data at byte " + std::to_string(trailing) + " after the document");
  if (ec) r.fail("JSON error at byte " + std::to_string(used) + ": " + ec.message());
  const auto doc = parser.release();
  const auto& top = r.object(doc, "the document");
  r.bytes = bytes.size();
  auto s = read_top(r, top);
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
