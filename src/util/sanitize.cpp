#include "util/sanitize.hpp"

#include "util/utf8.hpp"

namespace tracediff {

namespace {

constexpr char k_hex[] = "0123456789abcdef";

// Most text is printable ASCII: checked first, it comes back as it is.
bool plain_ascii(std::string_view s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F) return false;
  }
  return true;
}

// The shared loop: valid UTF-8 copied, controls escaped, invalid bytes and
// backslashes as the caller wants them.
template <bool Exact>
void escape_into(std::string& out, std::string_view s) {
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && (!Exact || c != '\\')) {
      ++i;
      continue;
    }
    const auto n = utf8_sequence_length(s, i);
    const auto control = n ? control_length(s, i) : 0;
    if (n && !control && c != '\\') {
      i += n;
      continue;
    }
    out.append(s, run, i - run);
    if (c == '\\') {
      out += "\\\\";
      i += 1;
    } else if (control) {
      append_control_escape(out, utf8_decode(s, i, n));
      i += n;
    } else if (Exact) {  // an invalid byte
      out += "\\x";
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
      i += 1;
    } else {
      out += k_replacement;
      i += 1;
    }
    run = i;
  }
  out.append(s, run);
}

}  // namespace

std::size_t control_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x20 || b0 == 0x7F) return 1;
  if (b0 < 0x80 || i + 1 >= s.size()) return 0;
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  if (b0 == 0xC2) return b1 <= 0x9F ? 2 : 0;           // C1
  if (b0 == 0xD8) return b1 == 0x9C ? 2 : 0;           // U+061C arabic letter mark
  if (b0 != 0xE2 || i + 2 >= s.size()) return 0;
  const auto b2 = static_cast<unsigned char>(s[i + 2]);
  if (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xA8 && b2 <= 0xAE))) return 3;  // U+200E/F, U+2028-U+202E
  if (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) return 3;                                  // U+2066-U+2069
  return 0;
}

void append_control_escape(std::string& out, char32_t c) {
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  if (c < 0x80) {
    out += "\\x";
  } else {
    out += "\\u";
    out += k_hex[(c >> 12) & 15];
    out += k_hex[(c >> 8) & 15];
  }
  out += k_hex[(c >> 4) & 15];
  out += k_hex[c & 15];
}

void display_safe_append(std::string& out, std::string_view s) {
  if (plain_ascii(s)) {
    out.append(s);
    return;
  }
  escape_into<false>(out, s);
}

std::string display_safe(std::string_view s) {
  if (plain_ascii(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  escape_into<false>(out, s);
  return out;
}

std::string display_exact(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  escape_into<true>(out, s);
  return out;
}

std::string message_safe(std::string_view s, std::size_t max_bytes) {
  std::string out = display_safe(s);
  if (out.size() <= max_bytes || max_bytes < 16) return out;
  // The head names the file and says what happened: it gets three quarters.
  const std::size_t room = max_bytes - k_ellipsis.size();
  const std::size_t head = utf8_floor(out, room * 3 / 4);
  std::size_t tail = out.size() - (room - room * 3 / 4);
  while (tail < out.size() && utf8_continuation(out[tail])) ++tail;
  return out.substr(0, head) + std::string(k_ellipsis) + out.substr(tail);
}

std::string csv_formula_guard(std::string s) {
  if (s.empty()) return s;
  bool lead = false;
  switch (s.front()) {
    case '=': case '+': case '-': case '@': case '\t': case '\r': case '\0': lead = true; break;
    default: break;
  }
  // The full-width forms (U+FF1D = U+FF0B + U+FF0D - U+FF20 @), which spreadsheets in
  // East Asian locales read as their ASCII twins.
  for (std::string_view wide : {"\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\xA0"})
    lead = lead || s.compare(0, wide.size(), wide) == 0;
  if (lead) s.insert(s.begin(), '\'');
  return s;
}

}  // namespace tracediff
