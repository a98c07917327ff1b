// cli_docs: writes the CLI's documentation from its option table, the CLI11 declarations
// in src/cli (declare_compare_options, declare_summarize_options, declare_merge_options),
// so that no option is documented by hand.
//
//   cli_docs man [packaging/tracediff.1]    the man page's OPTIONS sections
//   cli_docs markdown [docs/cli.md]         docs/cli.md's options tables
//   cli_docs bash                           packaging/tracediff.bash-completion, whole
//   cli_docs names                          "COMMAND OPTION" per line (COMMAND '-' for the comparison)
//
// Given a FILE, man and markdown print it with the lines between its "options:begin" and
// "options:end" markers replaced, so the prose around them stays hand-written.
// scripts/update-cli-docs.sh rewrites the files; the cli_docs ctest checks them.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/summary_commands.hpp"
#include "cli/trend_command.hpp"

namespace {

using tracediff::cli::CompareArgs;
using tracediff::cli::MergeArgs;
using tracediff::cli::Options;
using tracediff::cli::SummarizeArgs;

struct Command {
  std::string key;  // its word after `tracediff`; empty for the comparison
  const CLI::App* app;
};

// One option as the docs show it, read from its declaration.
struct Entry {
  std::vector<std::string> names;  // "-o", "--output"; a positional's own name
  std::string value;               // "FILE", "cpu|gpu|all"; empty for a flag
  std::vector<std::string> choices;
  std::string help, group;
  bool positional = false;
};

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\n') c = ' ';
  return s;
}

Entry entry(const CLI::Option* opt) {
  Entry e;
  e.positional = opt->get_positional();
  if (e.positional) {
    e.names = {opt->get_name()};
  } else {
    for (const auto& s : opt->get_snames()) e.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) e.names.push_back("--" + l);
  }
  // get_type_name() is "NAME" or "NAME:{a,b,c}" when an IsMember validator holds the choices.
  const std::string type = opt->get_type_name();
  const auto colon = type.find(':');
  e.value = type.substr(0, colon);
  if (colon != std::string::npos && type.compare(colon + 1, 1, "{") == 0) {
    const auto list = type.substr(colon + 2, type.find('}', colon) - colon - 2);
    std::stringstream in(list);
    for (std::string c; std::getline(in, c, ',');) e.choices.push_back(c);
    e.value.clear();
    for (const auto& c : e.choices) e.value += (e.value.empty() ? "" : "|") + c;
  }
  if (opt->get_type_size() == 0 || e.positional) e.value.clear();
  e.help = one_line(opt->get_description());
  const auto& def = opt->get_default_str();
  if (!def.empty() && e.help.find("default") == std::string::npos) e.help += " (default " + def + ")";
  e.group = e.positional ? "Arguments" : opt->get_group();
  return e;
}

std::vector<Entry> entries(const CLI::App& app) {
  // Positionals first, as the usage line has them; --help and --version (declared first,
  // by CLI11) last.
  std::vector<const CLI::Option*> opts = app.get_options();
  const auto rank = [&](const CLI::Option* o) {
    return o->get_positional() ? 0 : o == app.get_help_ptr() || o == app.get_version_ptr() ? 2 : 1;
  };
  std::stable_sort(opts.begin(), opts.end(), [&](auto* a, auto* b) { return rank(a) < rank(b); });
  std::vector<Entry> out;
  for (const CLI::Option* opt : opts)
    if (!opt->get_group().empty()) out.push_back(entry(opt));  // an empty group: hidden
  return out;
}

std::vector<std::string> groups(const std::vector<Entry>& es) {
  std::vector<std::string> out;
  for (const auto& e : es)
    if (std::find(out.begin(), out.end(), e.group) == out.end()) out.push_back(e.group);
  return out;
}

// "tracediff summarize SET... -o FILE [options]": positionals and required options.
std::string usage(const CLI::App& app) {
  std::string u = app.get_name();
  for (const CLI::Option* opt : app.get_options())
    if (opt->get_positional()) u += " " + opt->get_name() + (opt->get_items_expected_max() > 1 ? "..." : "");
  for (const CLI::Option* opt : app.get_options())
    if (!opt->get_positional() && opt->get_required()) {
      const auto e = entry(opt);
      u += " " + e.names.front() + (e.value.empty() ? "" : " " + e.value);
    }
  return u + " [options]";
}

// --- man ---------------------------------------------------------------------------

std::string roff(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

void man_entries(std::ostream& os, const std::vector<Entry>& es, const std::string& group) {
  for (const auto& e : es) {
    if (e.group != group) continue;
    os << ".TP\n";
    std::string head;
    for (const auto& n : e.names)
      head += std::string(head.empty() ? "" : ", ") + (e.positional ? "\\fI" : "\\fB") + roff(n) + "\\fR";
    if (!e.value.empty()) head += " \\fI" + roff(e.value) + "\\fR";
    os << head << '\n' << roff(e.help) << '\n';
  }
}

void man(std::ostream& os, const std::vector<Command>& commands) {
  for (const auto& c : commands) {
    const auto es = entries(*c.app);
    os << (c.key.empty() ? ".SH OPTIONS\n" : ".SH \"" + [&] {
      std::string k = c.key;
      for (auto& ch : k) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      return k;
    }() + " OPTIONS\"\n");
    os << ".B " << roff(usage(*c.app)) << '\n';
    const auto gs = groups(es);
    for (const auto& g : gs) {
      if (gs.size() > 1) os << ".SS " << g << '\n';
      man_entries(os, es, g);
    }
  }
}

// --- markdown ----------------------------------------------------------------------

std::string md(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '*' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

void markdown(std::ostream& os, const std::vector<Command>& commands) {
  bool first = true;
  for (const auto& c : commands) {
    const auto es = entries(*c.app);
    os << (first ? "" : "\n") << "### `" << usage(*c.app) << "`\n";
    first = false;
    const auto gs = groups(es);
    for (const auto& g : gs) {
      if (gs.size() > 1) os << "\n**" << g << "**\n";
      os << "\n| option | meaning |\n|---|---|\n";
      for (const auto& e : es) {
        if (e.group != g) continue;
        std::string names;
        for (const auto& n : e.names) names += (names.empty() ? "" : ", ") + n;
        if (!e.value.empty()) names += " " + e.value;
        // A backtick span cannot hold '|' in a table cell; \| inside it is read as '|'.
        std::string code;
        for (char ch : names) code += ch == '|' ? std::string("\\|") : std::string(1, ch);
        os << "| `" << code << "` | " << md(e.help) << " |\n";
      }
    }
  }
}

// --- bash --------------------------------------------------------------------------

const char* k_bash_head = R"(# bash completion for tracediff (installed as share/bash-completion/completions/tracediff).
# Generated from src/cli's option table by tools/cli-docs: run scripts/update-cli-docs.sh,
# do not edit.

_tracediff() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion -s || return
  else  # without the bash-completion package's helpers
    cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    # '=' breaks words: "--color=al" arrives as "--color" "=" "al".
    if [[ $cur == "=" ]]; then cur="" ; elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
      prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
  fi

  local command=""
  ((cword > 1)) && case ${words[1]} in SUBCOMMANDS) command=${words[1]} ;; esac

  local opts
  case $command in
)";

const char* k_bash_tail = R"(  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    return
  fi
  # Positionals: the subcommands in first place, then trace directories and files.
  if ((cword == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "SUBCOMMAND_WORDS" -- "$cur")
  fi
  local files
  mapfile -t files < <(compgen -f -- "$cur")
  COMPREPLY+=("${files[@]}")
  compopt -o filenames 2>/dev/null
}
complete -F _tracediff tracediff
)";

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

void bash(std::ostream& os, const std::vector<Command>& commands) {
  std::vector<std::string> subs;
  for (const auto& c : commands)
    if (!c.key.empty()) subs.push_back(c.key);
  std::string head = k_bash_head, tail = k_bash_tail;
  replace_all(head, "SUBCOMMANDS", join(subs, " | "));
  replace_all(tail, "SUBCOMMAND_WORDS", join(subs, " "));
  os << head;
  // The comparison last: its case is the default.
  std::vector<Command> order(commands.begin() + 1, commands.end());
  order.push_back(commands.front());
  for (const auto& c : order) {
    const auto es = entries(*c.app);
    os << "    " << (c.key.empty() ? "*" : c.key) << ")\n";
    // Option values first: choices as words (also after "--opt="), files as file names.
    std::vector<std::string> files, text, all;
    std::string choices;
    for (const auto& e : es) {
      if (e.positional) continue;
      const auto names = join(e.names, " | ");
      all.insert(all.end(), e.names.begin(), e.names.end());
      if (e.value.empty()) continue;
      if (!e.choices.empty()) {
        const auto words = join(e.choices, " ");
        choices += "        " + names + ") mapfile -t COMPREPLY < <(compgen -W \"" + words + "\" -- \"$cur\"); return ;;\n";
      } else if (e.value == "FILE" || e.value == "PATH") {
        files.insert(files.end(), e.names.begin(), e.names.end());
      } else {
        text.insert(text.end(), e.names.begin(), e.names.end());
      }
    }
    os << "      case $prev in\n";
    os << choices;
    if (!files.empty())
      os << "        " << join(files, " | ")
         << ")\n          mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); compopt -o filenames 2>/dev/null; return ;;\n";
    if (!text.empty()) os << "        " << join(text, " | ") << ") return ;;  # free text\n";
    os << "      esac\n";
    // "--color=al" as one word (when '=' does not break words).
    for (const auto& e : es)
      for (const auto& n : e.names)
        if (!e.choices.empty() && n.starts_with("--"))
          os << "      if [[ $cur == " << n << "=* ]]; then\n        mapfile -t COMPREPLY < <(compgen -P \"" << n
             << "=\" -W \"" << join(e.choices, " ") << "\" -- \"${cur#" << n << "=}\"); return\n      fi\n";
    os << "      opts=\"" << join(all, " ") << "\" ;;\n";
  }
  os << tail;
}

// --- names, splicing -----------------------------------------------------------------

// Hidden options too: the test then fails on one, as no option goes undocumented.
void names(std::ostream& os, const std::vector<Command>& commands) {
  for (const auto& c : commands)
    for (const CLI::Option* opt : c.app->get_options())
      if (!opt->get_positional())
        for (const auto& n : entry(opt).names) os << (c.key.empty() ? "-" : c.key) << ' ' << n << '\n';
}

// FILE with the lines between the one that starts with BEGIN and the one that starts with
// END replaced by TEXT.
bool splice(const std::string& path, const std::string& begin, const std::string& end, const std::string& text,
            std::ostream& os) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cli_docs: cannot read " << path << '\n';
    return false;
  }
  enum { before, inside, after } state = before;
  for (std::string line; std::getline(in, line);) {
    if (state == inside && !line.starts_with(end)) continue;
    if (state == inside) {
      os << text;
      state = after;
    }
    os << line << '\n';
    if (state == before && line.starts_with(begin)) state = inside;
  }
  if (state != after) {
    std::cerr << "cli_docs: " << path << " lacks the lines " << begin << " and " << end << '\n';
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  Options options;
  CompareArgs compare_args;
  SummarizeArgs summarize_args;
  MergeArgs merge_args;
  tracediff::cli::TrendArgs trend_args;
  CLI::App compare, summarize, merge, trend;
  tracediff::cli::declare_compare_options(compare, options, compare_args);
  tracediff::cli::declare_summarize_options(summarize, summarize_args);
  tracediff::cli::declare_merge_options(merge, merge_args);
  tracediff::cli::declare_trend_options(trend, trend_args);
  const std::vector<Command> commands{{"", &compare}, {"summarize", &summarize}, {"merge", &merge}, {"trend", &trend}};

  std::ostringstream text;
  std::string begin, end;
  if (what == "man") {
    man(text, commands);
    begin = ".\\\" options:begin", end = ".\\\" options:end";
  } else if (what == "markdown") {
    markdown(text, commands);
    begin = "<!-- options:begin -->", end = "<!-- options:end -->";
  } else if (what == "bash" && argc == 2) {
    bash(std::cout, commands);
    return 0;
  } else if (what == "names" && argc == 2) {
    names(std::cout, commands);
    return 0;
  } else {
    std::cerr << "usage: cli_docs man|markdown [FILE] | bash | names\n";
    return 2;
  }
  if (argc == 2) {
    std::cout << text.str();
    return 0;
  }
  return splice(argv[2], begin, end, text.str(), std::cout) ? 0 : 1;
}
