#pragma once
// The one sanitiser for text a person reads: file names, strings from traces and
// from summaries reach warnings, errors, the terminal summary, the Markdown, the
// report's labels and any output printed on a terminal. A name may hold escape
// sequences (clear the screen, set the clipboard with OSC 52), line breaks (forge a
// "tracediff: error:" line) or bidi controls (show text in another order than it
// is): each such character is written visibly instead, as an escape.
//
//   display_safe("a\x1b[2Jb")        -> "a\x1b[2Jb" with the ESC as the 4 characters \x1b
//   display_safe("x\nforged")        -> "x\nforged" with the newline as the 2 characters \n
//   display_safe("abc\u202Efdp.exe") -> "abc\u202efdp.exe" with the override as 6 characters
#include <cstddef>
#include <string>
#include <string_view>

namespace tracediff {

// Bytes of the control character starting at s[i] (the start of a valid UTF-8
// sequence), or 0 when it is none: C0 (U+0000-U+001F), DEL, C1 (U+0080-U+009F),
// the bidi controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, and the
// line and paragraph separators U+2028, U+2029.
std::size_t control_length(std::string_view s, std::size_t i);

// Appends the visible escape of the control character c (a code point that
// control_length accepts): \n \r \t, \xNN for the rest of C0 and DEL, \uNNNN above.
void append_control_escape(std::string& out, char32_t c);

// s as a person may see it: invalid UTF-8 as U+FFFD, control characters escaped
// visibly. Text without either comes back unchanged (a backslash stays one).
std::string display_safe(std::string_view s);
void display_safe_append(std::string& out, std::string_view s);

// As display_safe, and injective: invalid bytes as \xNN and a backslash as \\, so
// that two different strings never read alike (the labels' last resort).
std::string display_exact(std::string_view s);

// One message line for stderr: display_safe, at most max_bytes bytes, the middle
// elided with "…" (a 1 MiB name must not flood the terminal).
std::string message_safe(std::string_view s, std::size_t max_bytes = 4096);

// A CSV text cell for a spreadsheet: prefixed with ' when it starts with = + - @,
// tab, CR or NUL, or their full-width forms (＝ ＋ － ＠), which spreadsheets would run
// as a formula (OWASP, "CSV injection").
std::string csv_formula_guard(std::string s);

}  // namespace tracediff
