#pragma once
// Escaping for every place an untrusted trace string can land. Names come from
// trace files and may hold any bytes: quotes, `</script>`, newlines, invalid UTF-8.
#include <string>
#include <string_view>

namespace tracediff {

// Length of the valid UTF-8 sequence starting at s[i] (1 to 4), or 0 if invalid
// (overlong, surrogate, past U+10FFFF, cut short).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// Replaces invalid UTF-8 sequences with U+FFFD; valid text is returned unchanged.
std::string utf8_sanitize(std::string_view s);

// Text for HTML element content and quoted attribute values (& < > " ').
std::string html_escape(std::string_view s);
// The same, appended to out.
void html_escape_append(std::string& out, std::string_view s);

// A quoted JSON string. Also escapes < > & and U+2028/U+2029 as \uXXXX so the
// result is safe inside <script> (nothing can close the element) and is valid JS.
std::string json_string(std::string_view s);

// One CSV field per RFC 4180: quoted when it holds , " CR or LF; quotes doubled.
std::string csv_field(std::string_view s);

// A Markdown table cell: the text as inline code, so `|`, `*`, `<`, backticks and
// HTML cannot change the table. Newlines become spaces.
std::string markdown_code_cell(std::string_view s);

}  // namespace tracediff
