#!/usr/bin/env python3
"""A fake GitHub REST API for the action's test: the issue-comment endpoints only.

    fake_github.py LOG PORT_FILE [EXISTING [MORE.json]]

Listens on 127.0.0.1 (a free port, written to PORT_FILE), serves the comments of any
pull request from memory (EXISTING: a number of unrelated comments to start with, so
that the listing has pages; MORE.json: a list of {"body", "login"} comments after them,
e.g. someone else's with our marker), and appends every request to LOG as one JSON line:
method, path, query, authorization header and body.

Who a token is: "pat-NAME" is the user NAME's token (GET /user answers NAME); any other
is like GITHUB_TOKEN, an installation token (GET /user: 403) whose comments are
github-actions[bot]'s. FAKE_GITHUB_URL_TAIL, when set, is appended to every html_url
(hostile replies for the runner-command check).
"""
import json
import os
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log_path, port_path = sys.argv[1], sys.argv[2]
url_tail = os.environ.get("FAKE_GITHUB_URL_TAIL", "")
comments = [{"id": 1000 + i, "body": f"unrelated comment {i}; quoting <!-- tracediff-report --> is not ours",
             "user": {"login": "someone"}, "html_url": f"https://github.example/c/{1000 + i}{url_tail}"}
            for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 0)]
if len(sys.argv) > 4:
    for i, c in enumerate(json.load(open(sys.argv[4], encoding="utf-8"))):
        comments.append({"id": 3000 + i, "body": c["body"], "user": {"login": c["login"]},
                         "html_url": f"https://github.example/c/{3000 + i}{url_tail}"})
next_id = [5000]


def identity(authorization):
    """The login a token writes as, and whether GET /user may tell it."""
    token = (authorization or "").removeprefix("Bearer ")
    if token.startswith("pat-"):
        return token[4:], True
    return "github-actions[bot]", False


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def record(self, body):
        url = urllib.parse.urlsplit(self.path)
        with open(log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"method": self.command, "path": url.path, "query": url.query,
                                "authorization": self.headers.get("Authorization"), "body": body}) + "\n")
        return url

    def reply(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n).decode("utf-8")) if n else None

    def do_GET(self):
        url = self.record(None)
        parts = url.path.strip("/").split("/")
        if parts == ["user"]:
            login, is_user = identity(self.headers.get("Authorization"))
            if is_user:
                return self.reply(200, {"login": login, "type": "User"})
            return self.reply(403, {"message": "Resource not accessible by integration"})
        if len(parts) == 6 and parts[3] == "issues" and parts[5] == "comments":
            q = urllib.parse.parse_qs(url.query)
            per_page, page = int(q.get("per_page", ["30"])[0]), int(q.get("page", ["1"])[0])
            return self.reply(200, comments[(page - 1) * per_page:page * per_page])
        self.reply(404, {"message": "Not Found"})

    def do_POST(self):
        body = self.read_body()
        url = self.record(body)
        parts = url.path.strip("/").split("/")
        if len(parts) == 6 and parts[3] == "issues" and parts[5] == "comments":
            c = {"id": next_id[0], "body": body["body"], "user": {"login": identity(self.headers.get("Authorization"))[0]},
                 "html_url": f"https://github.example/c/{next_id[0]}{url_tail}"}
            next_id[0] += 1
            comments.append(c)
            return self.reply(201, c)
        self.reply(404, {"message": "Not Found"})

    def do_PATCH(self):
        body = self.read_body()
        url = self.record(body)
        parts = url.path.strip("/").split("/")
        if len(parts) == 6 and parts[3:5] == ["issues", "comments"]:
            for c in comments:
                if str(c["id"]) == parts[5]:
                    c["body"] = body["body"]
                    return self.reply(200, c)
        self.reply(404, {"message": "Not Found"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_path + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(port_path + ".tmp", port_path)
server.serve_forever()
