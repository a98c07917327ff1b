#!/usr/bin/env bash
# Golden outputs: runs tracediff on every case under tests/golden/<case>/ and compares what it
# writes, byte for byte, with the files kept there (README.md beside this script).
#
#   tests/golden/run.sh BINARY TRACEGEN [--update] [CASE...]
#
# --update rewrites the expected files instead of comparing (scripts/update-goldens.sh).
# Exit 0 when every case matches, 1 on any difference, 2 on a usage error.
set -u -o pipefail

usage() {
  echo "usage: $0 TRACEDIFF TRACEGEN [--update] [CASE...]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
abs() { (cd "$(dirname "$1")" && echo "$PWD/$(basename "$1")"); }
TRACEDIFF=$(abs "$1")
TRACEGEN=$(abs "$2")
shift 2
UPDATE=0
CASES=()
for a in "$@"; do
  case "$a" in
    --update) UPDATE=1 ;;
    -*) usage ;;
    *) CASES+=("$a") ;;
  esac
done
[ -x "$TRACEDIFF" ] || { echo "golden: no tracediff at $TRACEDIFF" >&2; exit 2; }
[ -x "$TRACEGEN" ] || { echo "golden: no tracegen at $TRACEGEN" >&2; exit 2; }

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
if [ ${#CASES[@]} -eq 0 ]; then
  for d in "$HERE"/*/; do [ -f "$d/args" ] && CASES+=("$(basename "$d")"); done
fi

# The files every case pins: a comparison's, or `tracediff trend`'s (arguments beginning with
# `trend`); a case's `keep` file names more (outputs of its `setup` or its arguments), its
# `html` file adds the HTML report's data (html-data/, see html_parts).
STANDARD=(report.json report.csv report.md terminal.txt stderr.txt exit_code)
TREND=(trend.json trend.md terminal.txt stderr.txt exit_code)
# A plain environment: nothing the shell or a library reads from it may change a byte.
export LC_ALL=C TZ=UTC
unset NO_COLOR TRACEDIFF_SHARED_DIR

# Shell words of a file (quotes and all), without comment lines.
words_of() { grep -v '^[[:space:]]*#' "$1" || true; }

# html_parts PAGE DIR: what an HTML page holds, without the assets it bundles (Chart.js, the
# scripts, the style sheet): each `<script type="application/json" id="ID">` block as
# DIR/ID.json, byte for byte as the page embeds it (and a final newline), and DIR/skeleton.txt,
# the page's outline: one line per element with an id (`tag#id`) and per script or style
# element, in page order. A page without such blocks (trend's, static) holds its data in its
# markup: DIR/page.html is the page with its style sheet elided.
html_parts() {
  perl -e '
    my ($page, $out) = @ARGV;
    open(my $in, "<:raw", $page) or die "$page: $!\n";
    my $html = do { local $/; <$in> };
    close $in;
    mkdir $out or die "$out: $!\n";
    sub put { my ($f, $text) = @_; open(my $o, ">:raw", $f) or die "$f: $!\n"; print $o $text; close $o or die "$f: $!\n"; }
    my $blocks = 0;
    while ($html =~ m{<script type="application/json" id="([^"]*)">(.*?)</script>}gs) {
      my ($id, $body) = ($1, $2);
      die "a JSON block with the id \"$id\"\n" unless $id =~ /^[A-Za-z0-9_-]+$/ && !-e "$out/$id.json";
      put("$out/$id.json", "$body\n");
      ++$blocks;
    }
    if (!$blocks) {
      (my $bare = $html) =~ s{(<style\b[^>]*>).*?(</style>)}{$1...$2}gs;
      put("$out/page.html", $bare);
      exit 0;
    }
    (my $bare = $html) =~ s{(<(script|style)\b[^>]*>).*?(</\2>)}{$1$3}gs;
    my @outline;
    while ($bare =~ m{<([a-zA-Z][a-zA-Z0-9]*)((?:\s[^>]*)?)>}g) {
      my ($tag, $attrs) = (lc $1, $2);
      my ($id) = $attrs =~ /\sid="([^"]*)"/;
      push @outline, $tag . (defined $id ? "#$id" : "") if defined $id || $tag eq "script" || $tag eq "style";
    }
    put("$out/skeleton.txt", join("", map { "$_\n" } @outline));
  ' "$1" "$2"
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tracediff-golden.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failed=()
g=() s=() args=() h=()  # filled by eval from the case files
for c in "${CASES[@]}"; do
  dir="$HERE/$c"
  [ -f "$dir/args" ] || { echo "golden: $c: no such case ($dir/args)" >&2; failed+=("$c"); continue; }
  # Every case runs in a fresh directory of its own, with the test data at tests/data: the
  # paths the reports name are then relative and the same on every machine.
  w="$WORK/$c"
  mkdir -p "$w/tests"
  ln -s "$REPO/tests/data" "$w/tests/data"
  cd "$w" || exit 1
  ok=1
  # gen: one line per trace set, "NAME tracegen-arguments...", written to ./NAME.
  if [ -f "$dir/gen" ]; then
    while IFS= read -r line; do
      eval "g=($line)"
      [ ${#g[@]} -gt 0 ] || continue
      if ! "$TRACEGEN" --out "${g[0]}" "${g[@]:1}" >/dev/null 2>"$w/tracegen.err"; then
        echo "golden: $c: tracegen ${g[*]} failed:" >&2
        cat "$w/tracegen.err" >&2
        ok=0
      fi
    done < <(words_of "$dir/gen")
  fi
  # setup: tracediff commands run before the comparison (e.g. summarize), one per line.
  if [ -f "$dir/setup" ] && [ $ok = 1 ]; then
    while IFS= read -r line; do
      eval "s=($line)"
      [ ${#s[@]} -gt 0 ] || continue
      if ! "$TRACEDIFF" "${s[@]}" >/dev/null 2>"$w/setup.err"; then
        echo "golden: $c: tracediff ${s[*]} failed:" >&2
        cat "$w/setup.err" >&2
        ok=0
      fi
    done < <(words_of "$dir/setup")
  fi
  if [ $ok = 0 ]; then
    failed+=("$c")
    continue
  fi
  eval "args=($(words_of "$dir/args"))"
  if [ "${args[0]:-}" = trend ]; then
    files=("${TREND[@]}") outputs=(--json trend.json --markdown trend.md) page=trend.html
  else
    files=("${STANDARD[@]}") outputs=(--json report.json --csv report.csv --markdown report.md) page=report.html
  fi
  "$TRACEDIFF" "${args[@]}" "${outputs[@]}" >terminal.txt 2>stderr.txt
  echo $? >exit_code

  if [ -f "$dir/keep" ]; then
    while IFS= read -r f; do [ -n "$f" ] && files+=("$f"); done < <(words_of "$dir/keep")
  fi
  # html: the same command again, writing the page alone (-q: the line naming the page gives
  # its absolute path), with the file's own arguments; its data pinned under html-data/.
  if [ -f "$dir/html" ]; then
    eval "h=($(words_of "$dir/html"))"
    "$TRACEDIFF" "${args[@]}" "${h[@]}" -o "$page" -q >/dev/null 2>html.err
    if [ ! -f "$page" ]; then
      echo "golden: $c: tracediff wrote no $page:" >&2
      cat html.err >&2
      ok=0
    elif ! html_parts "$page" html-data 2>html.err; then
      echo "golden: $c: $page: $(cat html.err)" >&2
      ok=0
    fi
    # What either side has: a block gone from the page is a difference too.
    [ $UPDATE = 1 ] && [ $ok = 1 ] && rm -rf "$dir/html-data"
    while IFS= read -r f; do files+=("$f"); done < <(
      { [ -d html-data ] && find html-data -type f; [ -d "$dir/html-data" ] && (cd "$dir" && find html-data -type f); } | sort -u)
  elif [ -d "$dir/html-data" ]; then
    echo "golden: $c: tests/golden/$c/html-data/ but no html file: remove the folder or add the file" >&2
    ok=0
  fi
  for f in "${files[@]}"; do
    # A path of this machine in an output would differ on the next: say so, mask nothing.
    if [ -f "$w/$f" ] && grep -qF -e "$WORK" -e "$REPO" "$w/$f"; then
      echo "golden: $c: $f holds a path of this machine ($WORK or $REPO):" >&2
      grep -nF -e "$WORK" -e "$REPO" "$w/$f" | head -n 5 >&2
      ok=0
      continue
    fi
    if [ ! -f "$w/$f" ]; then
      echo "golden: $c: tracediff wrote no $f" >&2
      ok=0
    elif [ $UPDATE = 1 ]; then
      mkdir -p "$(dirname "$dir/$f")"
      cp "$w/$f" "$dir/$f"
    elif [ ! -f "$dir/$f" ]; then
      echo "golden: $c: no expected $f (run scripts/update-goldens.sh)" >&2
      ok=0
    elif ! cmp -s "$dir/$f" "$w/$f"; then
      echo "golden: $c: $f differs from tests/golden/$c/$f:"
      diff -u --label "expected/$c/$f" --label "actual/$c/$f" "$dir/$f" "$w/$f" | head -n 150
      ok=0
    fi
  done
  [ $ok = 1 ] || failed+=("$c")
  cd "$HERE" || exit 1
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "golden: ${#failed[@]} of ${#CASES[@]} cases differ: ${failed[*]}"
  echo "golden: if the change is intended, run scripts/update-goldens.sh and commit the diff"
  exit 1
fi
if [ $UPDATE = 1 ]; then
  echo "golden: ${#CASES[@]} cases written"
else
  echo "golden: ${#CASES[@]} cases match"
fi
