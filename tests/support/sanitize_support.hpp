#pragma once
// Hostile text for the sanitiser's tests, and the checks that what a person reads
// holds none of it raw.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracediff::test {

// Names that attack a terminal (escape sequences, OSC 52, a forged error line, bidi,
// C1), a spreadsheet (formulas) or Markdown (links, images, autolinks, mentions).
std::vector<std::string> hostile_names();

// The first thing in s that must not reach a person raw, described ("byte 0x1b at
// 12"), or "" when there is none: a C0 control (line breaks allowed when
// `lines`: \n, and \r), DEL, a C1 control, a bidi control, U+2028/U+2029, invalid UTF-8.
std::string unsafe_for_humans(std::string_view s, bool lines = false);

// The Markdown with its code spans (`...`, ``...``) left out.
std::string outside_code_spans(std::string_view md);

// The Markdown rendered by GitHub's cmark-gfm (tables, autolinks, tag filter), or
// nullopt when cmark-gfm is not installed.
std::optional<std::string> render_gfm(const std::string& md);

}  // namespace tracediff::test
