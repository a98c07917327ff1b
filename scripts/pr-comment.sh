#!/usr/bin/env bash
# Creates or updates ONE pull-request comment with the body of FILE (tracediff's
# Markdown): our own comment, the one written by the token's identity whose body starts
# with the marker <!-- tracediff-report -->, is PATCHed, else a new one is POSTed. A
# comment by anyone else is never touched, marker or not. Used by the GitHub Action
# (action.yml); runs anywhere with curl and python3 (for JSON).
#
#   scripts/pr-comment.sh FILE
#
# Environment: GITHUB_TOKEN (a token that may write pull-request comments),
# GITHUB_REPOSITORY (owner/name), GITHUB_EVENT_PATH (the event's JSON: the PR number
# is read from it) or PR_NUMBER, GITHUB_API_URL (default https://api.github.com),
# COMMENT_AUTHOR (the token's login; default: GET /user's, else github-actions[bot],
# whose comments GITHUB_TOKEN writes; a GitHub App's token needs APP-SLUG[bot] here).
# Outside a pull request it says so and exits 0. Sets comment-id and comment-url in
# $GITHUB_OUTPUT when that is set.
set -euo pipefail

# What this prints can hold the API's replies: between ::stop-commands::TOKEN and
# ::TOKEN:: (a fresh random TOKEN), on one stream, the runner runs none of it.
exec 2>&1
token=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
[[ $token =~ ^[0-9a-f]{32}$ ]] || { echo "pr-comment: no random token from /dev/urandom"; exit 1; }
echo "::stop-commands::$token"
trap 'printf "\n::%s::\n" "$token"' EXIT

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
trap 'rm -rf "$tmp"; printf "\n::%s::\n" "$token"' EXIT
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

# Who we are: a user's token may read /user; GITHUB_TOKEN may not, and writes as
# github-actions[bot].
me=${COMMENT_AUTHOR:-}
if [ -z "$me" ] && call GET "$api/user" >"$tmp/user" 2>/dev/null; then
  me=$(python3 -c 'import json,sys
u = json.load(open(sys.argv[1]))
print(u.get("login") or "" if isinstance(u, dict) else "")' "$tmp/user")
fi
me=${me:-github-actions[bot]}

# Our earlier comment: the first one that we wrote and whose body starts with the
# marker, over every page. Anyone may post the marker; only our own comment is ours.
id=""
for ((page = 1; page <= 100; page++)); do
  call GET "$api/repos/$GITHUB_REPOSITORY/issues/$pr/comments?per_page=100&page=$page" >"$tmp/page"
  read -r id count < <(python3 -c 'import json,sys
cs = json.load(open(sys.argv[1]))
mine = lambda c: ((c.get("user") or {}).get("login") == sys.argv[3]
                  and str(c.get("body") or "").lstrip().startswith(sys.argv[2]))
hit = next((str(c["id"]) for c in cs if mine(c)), "-")
print(hit, len(cs))' "$tmp/page" "$marker" "$me")
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
echo "pr-comment: $what comment $id by $me on #$pr${url:+ ($url)}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "comment-id=$id"; echo "comment-url=$url"; } >>"$GITHUB_OUTPUT"
fi
