#pragma once
// Escaping for every place an untrusted trace string can land. Names come from
// trace files and may hold any bytes: quotes, `</script>`, newlines, invalid UTF-8.
#include <string>
#include <string_view>

#include "util/utf8.hpp"  // utf8_sanitize: invalid UTF-8 as U+FFFD, for every escaper here

namespace tracediff {

// Text for HTML element content and quoted attribute values (& < > " '); control
// characters other than tab are shown as util/sanitize escapes them (\x1b, \n,
// \u202e), so no escape sequence reaches a terminal showing the page (-o -) and no
// bidi control reorders the text in a browser.
std::string html_escape(std::string_view s);
// The same, appended to out.
void html_escape_append(std::string& out, std::string_view s);

// A quoted JSON string. Also escapes < > & and U+2028/U+2029 as \uXXXX so the
// result is safe inside <script> (nothing can close the element) and is valid JS,
// and every control character (C0, DEL, C1, bidi) as \uXXXX, so the text shows no
// raw escape sequence on a terminal (--json -) while the string stays the same.
// Invalid UTF-8 becomes U+FFFD, unless keep_invalid: then its bytes are copied as
// they are (summaries keep names byte for byte; their reader allows it). Without
// escape_markup, < > & are written as they are (summaries: no page embeds them, and a
// kernel name has dozens).
std::string json_string(std::string_view s, bool keep_invalid = false, bool escape_markup = true);

// One CSV field per RFC 4180: quoted when it holds , " CR or LF; quotes doubled.
std::string csv_field(std::string_view s);

// A CSV text cell (a name, a category, a label): as csv_field, with a formula
// guard (util/sanitize: a leading = + - @ tab, CR, NUL or a full-width = + - @ gets a '), and for a terminal
// (--csv - on a TTY) with control characters escaped visibly.
std::string csv_text_field(std::string_view s, bool terminal);

// A Markdown table cell: the text as inline code, so `|`, `*`, `<`, backticks and
// HTML cannot change the table. Control characters (line breaks too) are escaped
// visibly, as util/sanitize does.
std::string markdown_code_cell(std::string_view s);

}  // namespace tracediff
