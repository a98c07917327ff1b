#include "support/sanitize_support.hpp"

#include <cstdio>
#include <cstdlib>

#include "support/test_support.hpp"
#include "util/escape.hpp"
#include "util/sanitize.hpp"

namespace tracediff::test {

std::vector<std::string> hostile_names() {
  return {"http://x.example/a",
          "esc\x1b[31mred\x1b[0m",
          "[a](http://b.example)",
          "nl\ntracediff: error: forged",
          "![i](http://u.example/i.png)",
          "osc\x1b]52;c;ZXZpbA==\x07",
          "<http://z.example>",
          "rlo\xE2\x80\xAE" "exe.txt",
          "www.w.example",
          "c1\xC2\x9B" "31m",
          "WWW.W2.EXAMPLE/p",
          "=HYPERLINK(\"http://e.example\")",
          "mail@example.com",
          "@octocat",
          "#12",
          "ftp://f.example",
          "<script>alert(1)</script>",
          "a|b",
          "iso\xE2\x81\xA6x\xE2\x81\xA9",
          "ls\xE2\x80\xA8ps\xE2\x80\xA9"};
}

std::string unsafe_for_humans(std::string_view s, bool lines) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const auto n = utf8_sequence_length(s, i);
    if (n == 0) return "invalid UTF-8 byte " + std::to_string(c) + " at " + std::to_string(i);
    if (control_length(s, i) && !(lines && (c == '\n' || c == '\r')))
      return "control character (first byte " + std::to_string(c) + ") at " + std::to_string(i);
    i += n;
  }
  return {};
}

std::string outside_code_spans(std::string_view md) {
  std::string out;
  for (std::size_t i = 0; i < md.size();) {
    if (md[i] != '`') {
      out += md[i++];
      continue;
    }
    std::size_t run = 0;
    while (i + run < md.size() && md[i + run] == '`') ++run;
    const std::string fence(run, '`');
    // The closing run: exactly as long.
    std::size_t close = i + run;
    for (;;) {
      close = md.find(fence, close);
      if (close == std::string_view::npos) break;
      std::size_t len = 0;
      while (close + len < md.size() && md[close + len] == '`') ++len;
      if (len == run) break;
      close += len;
    }
    if (close == std::string_view::npos) {  // no closing run: the backticks are text
      out.append(md.substr(i, run));
      i += run;
    } else {
      i = close + run;
    }
  }
  return out;
}

std::optional<std::string> render_gfm(const std::string& md) {
  if (std::system("command -v cmark-gfm >/dev/null 2>&1") != 0) return std::nullopt;
  const auto dir = temp_dir("gfm");
  write_file(dir + "/in.md", md);
  const std::string cmd = "cmark-gfm -e table -e autolink -e tagfilter -e strikethrough '" + dir + "/in.md' > '" +
                          dir + "/out.html'";
  if (std::system(cmd.c_str()) != 0) return std::nullopt;
  return read_file(dir + "/out.html");
}

}  // namespace tracediff::test
