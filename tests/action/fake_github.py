#!/usr/bin/env python3
"""A fake GitHub REST API for the action's test: the issue-comment endpoints only.

    fake_github.py LOG PORT_FILE [EXISTING]

Listens on 127.0.0.1 (a free port, written to PORT_FILE), serves the comments of any
pull request from memory (EXISTING: a number of unrelated comments to start with, so
that the listing has pages), and appends every request to LOG as one JSON line:
method, path, query, authorization header and body.
"""
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log_path, port_path = sys.argv[1], sys.argv[2]
comments = [{"id": 1000 + i, "body": f"unrelated comment {i}; quoting <!-- tracediff-report --> is not ours",
             "html_url": f"https://github.example/c/{1000 + i}"} for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 0)]
next_id = [5000]


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
            c = {"id": next_id[0], "body": body["body"], "html_url": f"https://github.example/c/{next_id[0]}"}
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
import os
os.replace(port_path + ".tmp", port_path)
server.serve_forever()
