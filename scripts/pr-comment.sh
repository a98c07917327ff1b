#!/usr/bin/env bash
# Creates or updates ONE pull-request comment with the body of FILE (tracediff's
# Markdown): the comment that holds the marker <!-- tracediff-report --> is PATCHed,
# else a new one is POSTed. Used by the GitHub Action (action.yml); runs anywhere
# with curl and python3 (for JSON).
#
#   scripts/pr-comment.sh FILE
#
# Environment: GITHUB_TOKEN (a token that may write pull-request comments),
# GITHUB_REPOSITORY (owner/name), GITHUB_EVENT_PATH (the event's JSON: the PR number
# is read from it) or PR_NUMBER, GITHUB_API_URL (default https://api.github.com).
# Outside a pull request it says so and exits 0. Sets comment-id and comment-url in
# $GITHUB_OUTPUT when that is set.
set -euo pipefail

file=${1:?usage: pr-comment.sh FILE}
marker='<!-- tracediff-report -->'
api=${GITHUB_API_URL:-https://api.github.com}
: "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY: owner/name}"
: "${GITHUB_TOKEN:?GITHUB_TOKEN: a token allowed to comment}"
[ -r "$file" ] || { echo "pr-comment: cannot read $file" >&2; exit 1; }

pr=${PR_NUMBER:-}
if [ -z "$pr" ] && [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -r "$GITHUB_EVENT_PATH" ]; then
  pr=$(python3 -c 'import json,sys
e = json.load(open(sys.argv[1]))
n = (e.get("pull_request") or {}).get("number") or (e.get("issue") or {}).get("number") or ""
print(n if str(n).isdigit() else "")' "$GITHUB_EVENT_PATH")
fi
if ! [[ $pr =~ ^[0-9]+$ ]]; then
  echo "pr-comment: not a pull request: no comment (the Markdown is in the job summary)"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The token goes through a header file, not the command line (ps would show it).
printf 'Authorization: Bearer %s\n' "$GITHUB_TOKEN" >"$tmp/auth"
call() {  # call METHOD URL [BODY_FILE]: the response body on stdout; fails on HTTP >= 400
  local code data=()
  [ -n "${3:-}" ] && data=(-H 'Content-Type: application/json' --data-binary @"$3")
  code=$(curl -sS -o "$tmp/response" -w '%{http_code}' -X "$1" -H @"$tmp/auth" \
    -H 'Accept: application/vnd.github+json' -H 'X-GitHub-Api-Version: 2022-11-28' \
    "${data[@]}" "$2") || return 1
  if ((code >= 400)); then
    echo "pr-comment: $1 $2: HTTP $code: $(head -c 300 "$tmp/response")" >&2
    return 1
  fi
  cat "$tmp/response"
}

# Our earlier comment: the first one whose body starts with the marker, over every page.
id=""
for ((page = 1; page <= 100; page++)); do
  call GET "$api/repos/$GITHUB_REPOSITORY/issues/$pr/comments?per_page=100&page=$page" >"$tmp/page"
  read -r id count < <(python3 -c 'import json,sys
cs = json.load(open(sys.argv[1]))
hit = next((str(c["id"]) for c in cs if str(c.get("body") or "").lstrip().startswith(sys.argv[2])), "-")
print(hit, len(cs))' "$tmp/page" "$marker")
  [ "$id" = "-" ] && id=""
  if [ -n "$id" ] || ((count < 100)); then break; fi
done

python3 -c 'import json,sys; json.dump({"body": open(sys.argv[1], encoding="utf-8", errors="replace").read()}, open(sys.argv[2], "w"))' \
  "$file" "$tmp/body.json"
if [ -n "$id" ]; then
  call PATCH "$api/repos/$GITHUB_REPOSITORY/issues/comments/$id" "$tmp/body.json" >"$tmp/result"
  what=updated
else
  call POST "$api/repos/$GITHUB_REPOSITORY/issues/$pr/comments" "$tmp/body.json" >"$tmp/result"
  what=created
fi
read -r id url < <(python3 -c 'import json,sys; c = json.load(open(sys.argv[1])); print(c.get("id", ""), c.get("html_url", ""))' "$tmp/result")
echo "pr-comment: $what comment $id on #$pr${url:+ ($url)}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "comment-id=$id"; echo "comment-url=$url"; } >>"$GITHUB_OUTPUT"
fi
