// Names for the human views: simplified (demangled, template arguments cut), elided,
// and labels told apart when shown together: one thing, the naming rules in one place.
#include "util/display_name.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string_view>
#include <functional>
#include <utility>

#include "util/escape.hpp"
#include "util/sanitize.hpp"
#include "util/utf8.hpp"

namespace tracediff {

namespace {

constexpr std::size_t k_npos = std::string_view::npos;

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_ident(char c) { return is_alnum(c) || c == '_'; }

// The helpers below take valid UTF-8 (utf8_sanitize's output) and count code points.

// Code point ranges [first, last) of s joined with "…".
std::string join_elided(std::string_view s, std::initializer_list<std::pair<std::size_t, std::size_t>> cps) {
  std::string out;
  bool first = true;
  for (const auto& [a, b] : cps) {
    if (!first) out += k_ellipsis;
    first = false;
    const auto from = utf8_byte_of(s, a);
    out.append(s.substr(from, utf8_byte_of(s.substr(from), b - a)));
  }
  return out;
}

std::string elide_valid(std::string_view s, std::size_t n, std::size_t max) {
  if (n <= max) return std::string(s);
  if (max == 0) return {};
  const std::size_t tail = (max - 1) / 3;
  std::string out(s.substr(0, utf8_byte_of(s, max - 1 - tail)));
  out += k_ellipsis;
  out += s.substr(utf8_byte_of_last(s, tail));
  return out;
}

std::string elide_around_valid(std::string_view s, std::size_t n, std::size_t max, std::size_t at) {
  if (n <= max) return std::string(s);
  if (max < 5) return elide_valid(s, n, max);
  at = std::min(at, n - 1);
  // head…window…tail: the window gets most of the room, a quarter of it before `at`
  // (the difference is a template argument or an identifier's end, read forwards).
  const std::size_t room = max - 2;
  const std::size_t tail = std::max<std::size_t>(1, room / 8);
  const std::size_t head = std::max<std::size_t>(1, room / 4);
  const std::size_t window = room - head - tail;
  std::size_t ws = at - std::min(at, window / 4);
  if (ws + window > n) ws = n - window;
  // Start at a word: back to the start of the one cut ("GemmShape<64" rather than
  // "mShape<64") if that costs at most half the window, or on past separators
  // ("adagrad_" rather than "_adagrad_").
  {
    std::size_t w = ws, b = utf8_byte_of(s, ws);
    while (w > 0 && at - w < window / 2 && is_alnum(s[b - 1]) && is_alnum(s[b])) --w, --b;
    if (w == 0 || !is_alnum(s[b - 1]) || !is_alnum(s[b])) ws = w;
    for (b = utf8_byte_of(s, ws); ws < at && ws + window < n && (s[b] == '_' || s[b] == ':' || s[b] == ' ' || s[b] == ','); ++b) ++ws;
  }
  const std::size_t we = ws + window;
  // Each "…" stands for at least two code points.
  if (ws <= head + 1) return join_elided(s, {{0, we}, {n - (max - 1 - we), n}});
  if (we + tail + 1 >= n) return join_elided(s, {{0, max - 1 - (n - ws)}, {ws, n}});
  return join_elided(s, {{0, head}, {ws, we}, {n - tail, n}});
}

// s with a window at each of the code points `at` (from the start of its word), its
// head and its tail, joined with "…" where they do not meet: for names that differ
// in more than one place ("…adagrad_unweighted_kern…_cta_per_row…").
std::string elide_windows(std::string_view s, std::size_t n, std::vector<std::size_t> at, std::size_t max) {
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  const std::size_t head = std::min(n, std::max<std::size_t>(4, max / 4));
  const std::size_t tail = std::min(n, std::max<std::size_t>(4, max / 8));
  const std::size_t window = std::max<std::size_t>(10, max / (at.size() + 1));
  std::vector<std::pair<std::size_t, std::size_t>> ranges{{0, head}};
  for (auto p : at) {
    std::size_t b = p, bytes = utf8_byte_of(s, p);
    while (b > 0 && p - b < 12 && is_alnum(s[bytes - 1])) --b, bytes = utf8_byte_of(s, b);
    ranges.push_back({b, std::min(n, p + window)});
  }
  ranges.push_back({n - tail, n});
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::size_t, std::size_t>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second + 1) merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  std::string out;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    if (i) out += k_ellipsis;
    const auto from = utf8_byte_of(s, merged[i].first);
    out.append(s.substr(from, utf8_byte_of(s.substr(from), merged[i].second - merged[i].first)));
  }
  return out;
}

// Code points a and b have in common at their start.
std::size_t common_prefix_code_points(std::string_view a, std::string_view b) {
  std::size_t i = static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
  i = utf8_floor(a, i);  // a difference inside a code point
  return utf8_count(a.substr(0, i));
}

// For a C++ function signature, the part between the return type "void " and the
// parameter list; nullopt for other names. Only a parenthesis right after an
// identifier, '>', ']' (abi tag) or "operator()" opens a parameter list: the space
// in "Memcpy HtoD (Pageable -> Device)" does not, nor do digits ("module.py(1762)").
// Only '(' and ')' are balanced: '<' and '>' also occur as operators ("->").
std::optional<std::string_view> signature_body(std::string_view s) {
  constexpr std::string_view k_const = " const";
  if (s.ends_with(k_const)) s.remove_suffix(k_const.size());
  if (!s.ends_with(')')) return std::nullopt;
  std::size_t depth = 0, open = k_npos;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == ')') ++depth;
    else if (s[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == k_npos || open == 0) return std::nullopt;
  std::string_view body = s.substr(0, open);
  const char before = body.back();
  if (!is_ident(before) && before != '>' && before != ']' && !body.ends_with("operator()")) return std::nullopt;
  const auto params = s.substr(open + 1, s.size() - open - 2);
  if (!params.empty() && std::all_of(params.begin(), params.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  if (body.starts_with("void ")) body.remove_prefix(5);
  return body;
}

// Drops the qualifiers that never tell two names apart, in one pass.
//  - "(anonymous namespace)::": the demangler's spelling of a file-local namespace.
//  - "at::native::": where every ATen kernel and functor lives.
//  - "at::detail::": it qualifies ATen's helper types in the template arguments of
//    nearly every elementwise kernel (at::detail::Array<char*, 3>); what follows it
//    (the operand count) is kept. The few names these leave equal are told apart
//    by distinct_labels, which falls back to the full name.
// The last two only as a whole qualifier: not in "xat::native::" or "::at::native::".
std::string drop_qualifiers(std::string_view s) {
  constexpr std::string_view k_anonymous = "(anonymous namespace)::";
  constexpr std::string_view k_native = "at::native::";
  constexpr std::string_view k_detail = "at::detail::";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto rest = s.substr(i);
    if (s[i] == '(' && rest.starts_with(k_anonymous)) {
      i += k_anonymous.size();
      continue;
    }
    if (s[i] == 'a' && (out.empty() || (!is_ident(out.back()) && out.back() != ':')) &&
        (rest.starts_with(k_native) || rest.starts_with(k_detail))) {
      i += k_native.size();
      continue;
    }
    out += s[i++];
  }
  return out;
}

std::string simplify_valid(std::string_view full) {
  if (full.starts_with("_Z"))
    if (auto d = demangle(full); d && !d->starts_with("_Z")) return simplify_valid(*d);
  const auto body = signature_body(full);
  std::string out = drop_qualifiers(body ? *body : full);
  if (out.find_first_not_of(' ') == std::string::npos) return std::string(full);
  return out;
}

// The labels of the distinct names (sorted by bytes), and the texts they are cut
// from: level 0 the simplified name, 1 the full name (display_safe), 2 the full name
// with invalid bytes as \xNN and backslashes doubled (display_exact). Each level
// tells apart names that the one before cannot. A text is kept only where it differs
// from the name (levels 1 and 2 of a plain name are the name itself), and equal
// labels are found by sorting hashes: a million names take a few seconds and little
// more memory than their labels.
class Labeller {
 public:
  Labeller(std::vector<std::string_view> names, std::size_t max_chars)
      : m_names(std::move(names)), m_max(max_chars), m_text(m_names.size()), m_label(m_names.size()) {}

  std::vector<std::string> run() {
    std::vector<std::size_t> all(m_names.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    for (auto id : all) m_label[id] = elide_valid(text(id, 0), cps(id, 0), m_max);
    for (auto& tie : ties(all)) resolve(std::move(tie), 0);
    // Labels that still meet differ in more than one place (weighted/unweighted and
    // cta/warp): a window at each place where a name differs from the others of its
    // tie, in the simplified text.
    // Wider windows while they still meet, a few times.
    for (std::size_t room = m_max, round = 0; round < 6; room *= 2, ++round) {
      const auto left = ties(all);
      if (left.empty()) break;
      for (auto tie : left) {
        // A name gets a window where it first differs from each other name of its tie
        // with another text, up to 15 windows. Those names come in runs of one text:
        // one comparison per run, so a tie of thousands costs no more than its sort.
        std::stable_sort(tie.begin(), tie.end(), [&](auto a, auto b) { return text(a, 0) < text(b, 0); });
        std::vector<std::pair<std::size_t, std::size_t>> runs;  // (where in the tie, how many)
        for (std::size_t k = 0; k < tie.size(); ++k) {
          if (!runs.empty() && text(tie[runs.back().first], 0) == text(tie[k], 0)) ++runs.back().second;
          else runs.push_back({k, 1});
        }
        if (runs.size() > 16) continue;  // 16 other texts or more: too many windows for anyone
        for (const auto& [own, own_n] : runs) {
          // The other names of the tie: 1 to 15 of them, or no windows.
          const std::size_t others = tie.size() - own_n;
          if (others == 0 || others >= 16) continue;
          const auto& mine = text(tie[own], 0);
          std::vector<std::size_t> at;  // one window per other text (elide_windows drops repeats)
          for (const auto& [first, n] : runs)
            if (first != own) at.push_back(common_prefix_code_points(mine, text(tie[first], 0)));
          const auto label = elide_windows(mine, cps(tie[own], 0), at, room);
          for (std::size_t k = own; k < own + own_n; ++k) m_label[tie[k]] = label;
        }
      }
    }
    // Labels from different groups or levels can still meet (a name may literally
    // hold "…"): those become their whole level-2 text, which no two names share.
    // Each round fixes at least one more name, so this ends.
    std::vector<bool> whole(m_names.size(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& tie : ties(all))
        for (auto id : tie)
          if (!whole[id]) {
            m_label[id] = text(id, 2);
            whole[id] = changed = true;
          }
    }
    return std::move(m_label);
  }

 private:
  struct Text {
    std::string s;  // when own: the name is not the text
    std::size_t cps = 0;
    bool done = false, own = false;
  };

  // What display_safe (and, but for backslashes, display_exact) leaves as it is:
  // valid UTF-8 without control characters.
  static bool plain(std::string_view s, bool backslashes) {
    for (std::size_t i = 0; i < s.size();) {
      if (control_length(s, i) != 0 || (backslashes && s[i] == '\\')) return false;
      const auto n = static_cast<unsigned char>(s[i]) < 0x80 ? 1 : utf8_sequence_length(s, i);
      if (n == 0) return false;
      i += n;
    }
    return true;
  }

  std::string_view text(std::size_t id, int level) {
    auto& t = m_text[id][level];
    if (!t.done) {
      // Labels are what every view shows: control characters escaped (util/sanitize).
      const std::string_view name = m_names[id];
      if (level == 0) {
        const auto full = text(id, 1);
        t.s = simplify_valid(full);
        t.own = !(t.s == full && full.data() == name.data());  // a plain name: no copy
        if (!t.own) t.s = std::string();
      } else if (auto d = level == 1 ? demangle(name) : std::nullopt) {  // overloads differ in it
        t.s = display_safe(*d);
        t.own = true;
      } else if (!plain(name, level == 2)) {
        t.s = level == 1 ? display_safe(name) : display_exact(name);
        t.own = true;
      }
      t.cps = utf8_count(t.own ? std::string_view(t.s) : name);
      t.done = true;
    }
    return t.own ? std::string_view(t.s) : m_names[id];
  }
  std::size_t cps(std::size_t id, int level) {
    text(id, level);
    return m_text[id][level].cps;
  }

  // The groups of two or more ids with equal labels, each in the order of ids, in the
  // order their first ids come (deterministic; no caller depends on it). Sorts hashes
  // of the labels, not the labels: labels of long names share long prefixes.
  std::vector<std::vector<std::size_t>> ties(const std::vector<std::size_t>& ids) {
    std::vector<std::pair<std::size_t, std::size_t>> by_hash(ids.size());  // (hash of the label, place in ids)
    for (std::size_t p = 0; p < ids.size(); ++p) by_hash[p] = {std::hash<std::string_view>{}(m_label[ids[p]]), p};
    std::sort(by_hash.begin(), by_hash.end());
    std::vector<std::vector<std::size_t>> places;  // of each group, ascending
    for (std::size_t b = 0, e; b < by_hash.size(); b = e) {
      for (e = b + 1; e < by_hash.size() && by_hash[e].first == by_hash[b].first;) ++e;
      if (e - b < 2) continue;
      // Equal hashes: almost always equal labels; split the rare collision by label.
      std::vector<std::size_t> run;
      for (std::size_t k = b; k < e; ++k) run.push_back(by_hash[k].second);
      std::stable_sort(run.begin(), run.end(), [&](auto x, auto y) { return m_label[ids[x]] < m_label[ids[y]]; });
      for (std::size_t i = 0, j; i < run.size(); i = j) {
        for (j = i + 1; j < run.size() && m_label[ids[run[j]]] == m_label[ids[run[i]]];) ++j;
        if (j - i < 2) continue;
        places.emplace_back(run.begin() + static_cast<std::ptrdiff_t>(i), run.begin() + static_cast<std::ptrdiff_t>(j));
        std::sort(places.back().begin(), places.back().end());
      }
    }
    std::sort(places.begin(), places.end(), [](const auto& x, const auto& y) { return x.front() < y.front(); });
    std::vector<std::vector<std::size_t>> out;
    out.reserve(places.size());
    for (const auto& g : places) {
      out.emplace_back();
      for (auto p : g) out.back().push_back(ids[p]);
    }
    return out;
  }

  // Different names with one label: told apart by their texts at this level where
  // those differ, at the next level where they are equal.
  void resolve(std::vector<std::size_t> ids, int level) {
    std::stable_sort(ids.begin(), ids.end(), [&](auto a, auto b) { return text(a, level) < text(b, level); });
    std::vector<std::size_t> firsts;
    std::vector<std::vector<std::size_t>> same;
    for (std::size_t b = 0, e; b < ids.size(); b = e) {
      for (e = b + 1; e < ids.size() && text(ids[e], level) == text(ids[b], level);) ++e;
      firsts.push_back(ids[b]);
      if (e - b >= 2) same.emplace_back(ids.begin() + static_cast<std::ptrdiff_t>(b), ids.begin() + static_cast<std::ptrdiff_t>(e));
    }
    if (firsts.size() >= 2) separate(std::move(firsts), level);
    if (level == 2) return;  // level-2 texts of different names differ
    for (auto& group : same) resolve(std::move(group), level + 1);
  }

  // Distinct texts: windows at the first code point where the group's texts differ.
  // A group whose windows still meet differs further on (a new position), or else
  // needs longer labels (doubled, up to the whole text, which always differs).
  void separate(std::vector<std::size_t> ids, int level) {
    struct Job {
      std::vector<std::size_t> ids;
      std::size_t len, pos, depth;
    };
    constexpr std::size_t k_max_depth = 16;  // then whole texts: bounds the work
    std::vector<Job> jobs;
    jobs.push_back({std::move(ids), m_max, k_npos, 0});
    while (!jobs.empty()) {
      Job job = std::move(jobs.back());
      jobs.pop_back();
      auto& g = job.ids;
      std::stable_sort(g.begin(), g.end(), [&](auto a, auto b) { return text(a, level) < text(b, level); });
      // Sorted, the first and the last differ earliest.
      const std::size_t pos = common_prefix_code_points(text(g.front(), level), text(g.back(), level));
      std::size_t longest = 0;
      for (auto id : g) longest = std::max(longest, cps(id, level));
      std::size_t len = job.len;
      if (job.depth >= k_max_depth) len = longest;
      else if (pos == job.pos) len = std::min(longest, std::max<std::size_t>(1, 2 * len));
      for (auto id : g) m_label[id] = elide_around_valid(text(id, level), cps(id, level), len, pos);
      for (auto& tie : ties(g)) jobs.push_back({std::move(tie), len, pos, job.depth + 1});
    }
  }

  std::vector<std::string_view> m_names;
  std::size_t m_max;
  std::vector<std::array<Text, 3>> m_text;
  std::vector<std::string> m_label;
};

}  // namespace

std::string simplify_name(std::string_view name) { return simplify_valid(utf8_sanitize(name)); }

std::string elide(std::string_view s, std::size_t max_chars) {
  const std::string v = utf8_sanitize(s);
  return elide_valid(v, utf8_count(v), max_chars);
}

std::string elide_around(std::string_view s, std::size_t max_chars, std::size_t at) {
  const std::string v = utf8_sanitize(s);  // one U+FFFD per invalid byte: `at` still counts the same
  return elide_around_valid(v, utf8_count(v), max_chars, at);
}

std::vector<std::string> distinct_labels(const std::vector<std::string_view>& names, std::size_t max_chars) {
  // The distinct names in byte order: equal names share a label, and every tie later
  // keeps this order, so the labels do not depend on the input order.
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return names[a] < names[b]; });
  std::vector<std::string_view> distinct;
  std::vector<std::size_t> id(names.size());
  for (auto i : order) {
    if (distinct.empty() || distinct.back() != names[i]) distinct.push_back(names[i]);
    id[i] = distinct.size() - 1;
  }
  auto labels = Labeller(std::move(distinct), max_chars).run();
  std::vector<std::string> out;
  out.reserve(names.size());
  for (auto i : id) out.push_back(labels[i]);
  return out;
}

std::string path_text(const std::vector<std::string>& parts, std::size_t max_chars) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += " \xE2\x80\xBA ";  // " › "
    out += max_chars ? elide(p, max_chars) : p;
  }
  return out;
}

}  // namespace tracediff
