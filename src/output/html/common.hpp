#pragma once
// What the sections of the HTML report share: text and number formatting for the
// mustache context, tones, which sections a report has, and where rows sit in the
// page. Internal to the HTML writer (output/html/); the entry is output/html_writer.hpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.hpp"
#include "output/template_render.hpp"

namespace tracediff::output::html {

using model::Change;
using model::DiffReport;
using model::DiffRow;
using model::SideSummary;
using templates::append;
using templates::data;
using templates::Fields;
using templates::make_list;
using templates::put;

// The ops_diff groups, in the order the page lists them.
inline constexpr Change k_changes[] = {Change::added, Change::deleted, Change::increased, Change::decreased,
                                       Change::unchanged};

inline constexpr const char* k_up = "\xE2\x96\xB2";      // ▲
inline constexpr const char* k_down = "\xE2\x96\xBC";    // ▼
inline constexpr const char* k_approx = "\xE2\x89\x88";  // ≈

// --- text and numbers ---------------------------------------------------------------

std::string text(std::string_view s);  // UTF-8-sanitised

// What the page embeds of one text from the input (a name, a path, a note), whatever
// its length: at most max_bytes once escaped (html_escape, or json_string for the
// charts' data), UTF-8-sanitised, cut at a code point and ended with "…" when longer.
// Reads no more of s than it keeps. The CSV and JSON outputs have every text whole.
enum class Escaped { html, json };
std::string fit(std::string_view s, std::size_t max_bytes, Escaped as = Escaped::html);
// The budgets (escaped bytes) of each kind of text, so that the page stays under
// 10 MB with every list at its bound (analysis/decide/embedded.hpp).
inline constexpr std::size_t k_label_bytes = 200;     // a label, as analysis elided it (60 characters)
inline constexpr std::size_t k_name_bytes = 2048;     // a full name on hover (kernel names run to ~1,800 characters)
inline constexpr std::size_t k_short_bytes = 64;      // a category, a side's label
inline constexpr std::size_t k_line_bytes = 1024;     // a path, a message, a cell of what was compared
inline constexpr std::size_t k_note_bytes = 4096;     // a note, a gate condition's detail
// A bar's width as a percentage of the largest value in its chart, one decimal.
std::string width_pct(double v, double max);
// A number for data-v attributes and JSON: locale-independent.
std::string fixed3(double v);
// A sort key with at most 3 decimals, trailing zeros dropped ("0", "2.5", "-13.411").
std::string key3(double v);
// Per-step means are fractional nanoseconds: shown and keyed as whole ones.
std::int64_t round_ns(double v);
// An element id or link: "r12", "#l3".
std::string tag(std::string_view prefix, std::size_t n);
std::string dur(double ns, bool with_sign);
// A relative change as decided ("+12.3%", "new", "n/a"), and its sort key (empty
// when there is no base, "Infinity" when new).
std::string pct_text(const std::optional<double>& pct, bool is_new);
std::string pct_key(const std::optional<double>& pct, bool is_new);

// --- how a verdict looks -------------------------------------------------------------

// Class, symbol, word and sort order: slower (worse ▲), faster (better ▼), same within
// noise (same ≈), not testable (untested ?).
struct Look {
  const char* cls;
  const char* sym;
  const char* word;
  int ord;
};
Look verdict_look(model::Verdict v);
// A figure's look: its verdict's; a figure that is not judged (a count, a total of
// --hta-compat) is neutral.
Look figure_look(const model::Figure& f);

// One line of a figure table: {what, has_note, note, c, t, delta, pct, cls, arrow,
// has_arrow, vd, has_bars, cw, tw}; bars scaled to bar_max (none when 0).
data figure_row(const model::Figure& f, double bar_max);

// --- what the report has ------------------------------------------------------------

// The per-step presentation: the default mode (rows carry per-step figures).
bool per_step_mode(const DiffReport& r);
// The step section: the breakdown of either side's steps (or whole traces).
bool has_step_section(const DiffReport& r);
// A side's label, or its fallback.
std::string side_label(const SideSummary& s, bool test);

// A row's label as the page embeds it, and its full name for a tooltip when that
// says more than the label (else empty).
std::string label_of(const DiffRow& row);
std::string tip_name(const DiffRow& row);

// What the page embeds of the long lists (DiffReport::embedded, as analysis decided
// it; everything in a report built by hand) and where it sits, for links between the
// table, the findings and the launcher view.
struct Anchors {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> order;                // table order (row indices)
  std::vector<std::size_t> pos;                  // row index -> table position, or none
  std::vector<std::size_t> launchers;            // the launchers shown (indices into by_launcher)
  std::map<std::string, std::size_t> launcher;   // launcher name -> its index in by_launcher, when shown
  std::map<std::string, std::size_t> gpu_row;    // GPU row name -> table position (first)
  std::size_t rows_left_out = 0, launchers_left_out = 0;
  bool has_flops = false;                        // a row shown has FLOPs (--by-shape) or Inductor's figures (the table's column)
};
Anchors make_anchors(const DiffReport& r);
// "#r12" for a row in the table, empty for one left out.
std::string row_href(const Anchors& a, std::size_t row);

// A long list rendered on its own: templates/NAME, an item of `key` at a time
// (Stencils). Without its last line break: the page's line with the {{{block}}}
// tag ends the block.
std::string render_list(std::string_view name, const std::string& key, std::size_t n, std::size_t bytes_each,
                        const std::function<void(std::size_t, Fields&)>& fill);

}  // namespace tracediff::output::html
