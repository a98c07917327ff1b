#!/usr/bin/env bash
# The GitHub Action's steps (scripts/action/compare.sh, scripts/pr-comment.sh), run
# as action.yml runs them, with a fake GITHUB_* environment and a fake comment API
# (fake_github.py) that records every request:
#   - the Markdown goes to $GITHUB_STEP_SUMMARY, the outputs to $GITHUB_OUTPUT;
#   - the first run POSTs one comment, whose body is the Markdown;
#   - a second run finds it by its marker (past the first page of comments) and
#     PATCHes it: still one comment;
#   - the comment is ours only when the token's identity wrote it: someone else's
#     comment with the marker (posted first) is never edited, a user's token (GET /user)
#     finds that user's comment, not the bot's; the same in examples/ci/github-actions.yml
#     (its github-script run by node, where there is node and PyYAML);
#   - every step's log holds no workflow command outside its stop-commands window
#     (runner_commands.py), and no run: of action.yml or the example workflows holds an
#     expression (${{ }}): inputs and outputs reach scripts through env only;
#   - outside a pull request nothing is posted; a usage error is passed on.
#   action_test.sh TRACEDIFF_BINARY
# Exit 77 (ctest: skipped) without python3 or curl.
set -uo pipefail
bin=$(realpath "${1:?usage: action_test.sh TRACEDIFF_BINARY}")
root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in python3 curl; do
  command -v "$tool" >/dev/null || { echo "action test: skipped: no $tool"; exit 77; }
done

tmp=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
requests() {  # requests METHOD: how many of that method the fake API got
  python3 -c 'import json,sys; print(sum(json.loads(l)["method"] == sys.argv[2] for l in open(sys.argv[1])))' "$tmp/api.log" "$1"
}
output() {  # output FILE KEY: the value of KEY in a GITHUB_OUTPUT file
  sed -n "s/^$2=//p" "$1" | tail -1
}

# 120 unrelated comments, then someone else's that starts with our marker: ours lands
# on the second page of 100, after theirs.
echo '[{"login": "mallory", "body": "<!-- tracediff-report -->\nposted first, not ours"}]' >"$tmp/more.json"
python3 "$root/tests/action/fake_github.py" "$tmp/api.log" "$tmp/port" 120 "$tmp/more.json" &
server=$!
for _ in $(seq 300); do [ -s "$tmp/port" ] && break; sleep 0.05; done
[ -s "$tmp/port" ] || { echo "FAILED: the fake API did not start"; exit 1; }
touch "$tmp/api.log"

echo '{"action": "synchronize", "pull_request": {"number": 42}}' >"$tmp/event.json"
export GITHUB_API_URL="http://127.0.0.1:$(cat "$tmp/port")" GITHUB_REPOSITORY=octo/repo \
  GITHUB_EVENT_PATH=$tmp/event.json GITHUB_STEP_SUMMARY=$tmp/summary.md GITHUB_TOKEN=fake-token-123 \
  GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 GITHUB_RUN_ID=777 GITHUB_SERVER_URL=https://github.example \
  RUNNER_TEMP=$tmp TRACEDIFF=$bin
export INPUT_CONTROL=$root/examples/control INPUT_TEST=$root/examples/test
export INPUT_FAIL_ON=$'step_time>+50%\n\n  # a comment line\n  added>0  \n'

# --- first push: compare, then comment.
GITHUB_OUTPUT=$tmp/out1 bash "$root/scripts/action/compare.sh" >"$tmp/compare1.log" 2>&1
check "compare.sh exits 0 when the gate fails (the action fails the job later)" test $? = 0
md=$(output "$tmp/out1" markdown-path)
check "exit-code output is 3 (added>0 holds)" test "$(output "$tmp/out1" exit-code)" = 3
check "report-path output names the HTML report" test -s "$(output "$tmp/out1" report-path)"
check "markdown-path output names the Markdown" test -s "$md"
check "verdict output is the Markdown's first line, unescaped" \
  test "$(output "$tmp/out1" verdict)" = "$(sed -n '2s/^### //p' "$md")"
check "verdict says the gate failed" grep -q '^verdict=❌ Gate failed (1 of 2 conditions)' "$tmp/out1"
check "the job summary is the Markdown" cmp -s "$md" "$tmp/summary.md"
check "the Markdown starts with the marker" test "$(head -1 "$md")" = "<!-- tracediff-report -->"
check "labels default to the commit (GITHUB_SHA)" grep -q '^tracediff: \*\*Control\*\* → \*\*0123456\*\*' "$md"
check "the report is linked (the run's page)" grep -qF '[Full report](https://github.example/octo/repo/actions/runs/777)' "$md"
cp "$md" "$tmp/first.md"

GITHUB_OUTPUT=$tmp/out1 bash "$root/scripts/pr-comment.sh" "$md" >"$tmp/comment1.log" 2>&1
check "pr-comment.sh succeeds" test $? = 0
check "first run: one POST" test "$(requests POST)" = 1
check "first run: no PATCH" test "$(requests PATCH)" = 0
python3 - "$tmp/api.log" "$tmp/first.md" <<'PY' || failures=$((failures + 1))
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
post = [r for r in reqs if r["method"] == "POST"][0]
assert post["path"] == "/repos/octo/repo/issues/42/comments", post["path"]
assert post["body"]["body"] == open(sys.argv[2], encoding="utf-8").read(), "POST body is not the Markdown"
assert all(r["authorization"] == "Bearer fake-token-123" for r in reqs), "a request without the token"
print("ok: the POST went to PR #42 with the Markdown as its body and the token")
PY
check "comment-id output is set" test "$(output "$tmp/out1" comment-id)" = 5000
check "someone else's comment with the marker: untouched, ours is new" test "$(requests PATCH)" = 0

# --- second push: other labels, the same comment updated.
: >"$tmp/api.log"
# (INPUT_ARGS with a glob that matches files here: passed as it is, not expanded)
touch "$tmp/optional:kernel:x-gemm-y>+1000%"
(cd "$tmp" && INPUT_LABEL_CONTROL="main@abc1234" INPUT_LABEL_TEST="PR-42" INPUT_REPORT_URL="https://ci.example/r?id=(1)" \
  INPUT_ARGS="--fail-on optional:kernel:*gemm*>+1000%  --top 3" \
  GITHUB_OUTPUT=$tmp/out2 bash "$root/scripts/action/compare.sh" >"$tmp/compare2.log" 2>&1)
check "second compare exits 0" test $? = 0
md2=$(output "$tmp/out2" markdown-path)
# (a zero-width space after '@': no label becomes a mention)
check "the given labels win" grep -qF "tracediff: **main@$(printf '\342\200\213')abc1234** → **PR-42**" "$md2"
check "INPUT_ARGS reach tracediff unexpanded" grep -qF 'optional:kernel:*gemm*>+1000%' "$md2"
check "--report-url is linked, escaped" grep -qF '[Full report](https://ci.example/r?id=%281%29)' "$md2"
GITHUB_OUTPUT=$tmp/out2 bash "$root/scripts/pr-comment.sh" "$md2" >"$tmp/comment2.log" 2>&1
check "second pr-comment.sh succeeds" test $? = 0
check "second run: no POST" test "$(requests POST)" = 0
check "second run: one PATCH" test "$(requests PATCH)" = 1
python3 - "$tmp/api.log" "$md2" <<'PY' || failures=$((failures + 1))
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
patch = [r for r in reqs if r["method"] == "PATCH"][0]
assert patch["path"] == "/repos/octo/repo/issues/comments/5000", patch["path"]
assert patch["body"]["body"] == open(sys.argv[2], encoding="utf-8").read(), "PATCH body is not the new Markdown"
pages = sorted(r["query"] for r in reqs if r["method"] == "GET")
assert any("page=2" in q for q in pages), f"the second page was not read: {pages}"
print("ok: the PATCH updated comment 5000 (found on page 2 by its marker) with the new Markdown")
PY

# --- a user's token (GET /user answers octocat): the bot's comment 5000 is not theirs.
: >"$tmp/api.log"
GITHUB_TOKEN=pat-octocat GITHUB_OUTPUT=$tmp/out5 bash "$root/scripts/pr-comment.sh" "$md2" >"$tmp/comment5.log" 2>&1
check "a user's token: asks who it is" grep -q '"path": "/user"' "$tmp/api.log"
check "a user's token: a new comment (the bot's is not theirs)" test "$(requests POST)/$(requests PATCH)" = 1/0
GITHUB_TOKEN=pat-octocat GITHUB_OUTPUT=$tmp/out6 bash "$root/scripts/pr-comment.sh" "$md2" >"$tmp/comment6.log" 2>&1
check "a user's token, again: their own comment updated" test "$(requests POST)/$(requests PATCH)" = 1/1
check "a user's token, again: the PATCH is to their comment" \
  test "$(output "$tmp/out6" comment-id)" = "$(output "$tmp/out5" comment-id)"
check "the bot's comment and someone else's: never PATCHed by a user's token" \
  test -z "$(grep '"PATCH"' "$tmp/api.log" | grep -E 'comments/(5000|3000)"')"

# --- not a pull request: nothing posted.
: >"$tmp/api.log"
echo '{"ref": "refs/heads/main"}' >"$tmp/push.json"
GITHUB_EVENT_PATH=$tmp/push.json bash "$root/scripts/pr-comment.sh" "$md2" >"$tmp/comment3.log" 2>&1
check "outside a pull request: exit 0" test $? = 0
check "outside a pull request: no request" test ! -s "$tmp/api.log"

# --- a usage error is passed on, with the outputs that say so.
INPUT_FAIL_ON='step_time>>5%' GITHUB_OUTPUT=$tmp/out4 bash "$root/scripts/action/compare.sh" >"$tmp/compare4.log" 2>&1
check "a malformed --fail-on: compare.sh exits 2" test $? = 2
check "a malformed --fail-on: exit-code output is 2" test "$(output "$tmp/out4" exit-code)" = 2

# --- action.yml runs these scripts and declares what docs/ci.md promises.
for want in "scripts/action/install.sh" "scripts/action/compare.sh" "scripts/pr-comment.sh" "actions/upload-artifact@v4" \
  "  control:" "  test:" "  fail-on:" "  label-control:" "  label-test:" "  report-url:" "  comment:" \
  "  verdict:" "  exit-code:" "  report-path:" "using: composite"; do
  check "action.yml has '$want'" grep -qF -- "$want" "$root/action.yml"
done

# --- no workflow command from any step's output (the runner's parser, replicated).
check "no workflow command outside the stop-commands windows" \
  python3 "$root/tests/action/runner_commands.py" "$tmp"/compare*.log "$tmp"/comment*.log

# With PyYAML (optional): action.yml and the example workflows parse, with the inputs,
# outputs and steps docs/ci.md promises.
if python3 -c 'import yaml' 2>/dev/null; then
  python3 - "$root" <<'PY' && echo "ok: action.yml and examples/ci parse as YAML" || failures=$((failures + 1))
import sys, yaml
root = sys.argv[1]
a = yaml.safe_load(open(f"{root}/action.yml"))
assert a["runs"]["using"] == "composite"
for k in ["control", "test", "fail-on", "label-control", "label-test", "report-url", "comment"]:
    assert k in a["inputs"], k
for k in ["verdict", "exit-code", "report-path"]:
    assert k in a["outputs"], k
steps = " ".join(str(s.get("run", "")) + str(s.get("uses", "")) for s in a["runs"]["steps"])
for k in ["install.sh", "compare.sh", "pr-comment.sh", "actions/upload-artifact"]:
    assert k in steps, k
for f in ["github-action.yml", "github-actions.yml", "gitlab-ci.yml"]:
    yaml.safe_load(open(f"{root}/examples/ci/{f}"))
w = open(f"{root}/examples/ci/github-action.yml").read()
assert 'git merge-base "origin/$GITHUB_BASE_REF" HEAD' in w
PY
  python3 - "$root" <<'PY' && echo "ok: no expression inside run: (action.yml, examples/ci/github-action*.yml)" || failures=$((failures + 1))
import sys, yaml
root = sys.argv[1]
for f in ["action.yml", "examples/ci/github-action.yml", "examples/ci/github-actions.yml"]:
    d = yaml.safe_load(open(f"{root}/{f}"))
    steps = d["runs"]["steps"] if "runs" in d else [s for j in d["jobs"].values() for s in j["steps"]]
    for s in steps:
        assert "${{" not in str(s.get("run", "")), f"{f}: step {s.get('name')!r}: an expression inside run:"
PY
  # The gate's one command: a verdict with line breaks stays its data, one line.
  python3 - "$root" "$tmp/gate.sh" <<'PY'
import sys, yaml
a = yaml.safe_load(open(f"{sys.argv[1]}/action.yml"))
open(sys.argv[2], "w").write(next(s["run"] for s in a["runs"]["steps"] if s.get("name") == "Gate"))
PY
  VERDICT=$'❌ 50% x\r::add-mask::y\n::error::z' bash "$tmp/gate.sh" >"$tmp/gate.out" 2>&1
  check "gate step: one line, the verdict escaped" test "$(cat "$tmp/gate.out")" = '::error title=tracediff::❌ 50%25 x%0D::add-mask::y%0A::error::z'
  if command -v node >/dev/null; then
    python3 - "$root" "$tmp/comment-script.js" <<'PY'
import sys, yaml
d = yaml.safe_load(open(f"{sys.argv[1]}/examples/ci/github-actions.yml"))
step = next(s for j in d["jobs"].values() for s in j["steps"] if s.get("name") == "Comment on the pull request")
open(sys.argv[2], "w").write(step["with"]["script"])
PY
    printf '<!-- tracediff-report -->\nbody\n' >"$tmp/comment.md"
    (cd "$tmp" && node "$root/tests/action/github_script_test.js" "$tmp/comment-script.js") || failures=$((failures + 1))
  else
    echo "note: no node: the example's comment script was not run"
  fi
else
  echo "note: no PyYAML: action.yml was not parsed"
fi

if ((failures)); then
  for f in "$tmp"/*.log; do echo "--- $f"; head -c 2000 "$f"; done
  echo "action test: $failures failed"
  exit 1
fi
echo "action test: all passed"
