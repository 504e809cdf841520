#!/usr/bin/env python3
"""A reverse proxy in front of one registry that misbehaves on request.

Rules (PUT /__fault/rules, a JSON list; the first matching rule applies): path (regex
searched in path?query), method, times (default 1, -1 = always), action and its
parameters:
  status     answer `status` with `headers` and `body` without asking upstream
  reset      close the connection with a TCP reset
  drop       send upstream's headers and `after_bytes` of the body, then close
  stall      like drop, but wait `seconds` before closing
  delay      wait `seconds`, then forward
  corrupt    forward with one byte flipped at `offset` (default: the middle)
  ignore_range  forward without the client's Range header
  rewrite    forward, then replace status / headers / body
  redirect   answer `status` (307) with Location `location`
GET /__fault/log lists every request (method, host, path, range, auth, status, bytes,
action); DELETE /__fault/log and DELETE /__fault/rules clear.
"""
import argparse
import http.client
import json
import re
import socket
import struct
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
       "proxy-authorization", "proxy-authenticate"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send_json(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def control(self, body):
        st = self.server
        if self.path == "/__fault/rules":
            with st.lock:
                st.rules = json.loads(body or b"[]") if self.command == "PUT" else []
            return self.send_json(200, {"ok": True})
        if self.path == "/__fault/log":
            with st.lock:
                if self.command == "DELETE":
                    st.log = []
                return self.send_json(200, st.log)
        self.send_json(404, {"error": "unknown control path"})

    def pick(self):
        st = self.server
        with st.lock:
            for rule in st.rules:
                if rule.get("times", 1) == 0:
                    continue
                if "method" in rule and rule["method"] != self.command:
                    continue
                if not re.search(rule.get("path", ""), self.path):
                    continue
                if rule.get("times", 1) > 0:
                    rule["times"] = rule.get("times", 1) - 1
                return dict(rule)
        return None

    def note(self, status, sent, action):
        st = self.server
        with st.lock:
            st.log.append({"method": self.command, "host": self.headers.get("Host", ""),
                           "path": self.path, "range": self.headers.get("Range"),
                           "auth": "Authorization" in self.headers, "status": status,
                           "bytes": sent, "action": action})

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0") or 0)
        body = self.rfile.read(length) if length else None
        if self.path.startswith("/__fault/"):
            return self.control(body)
        rule = self.pick()
        action = rule["action"] if rule else None
        if action == "reset":
            self.note(0, 0, action)
            return self.reset()
        if action == "status":
            status = rule.get("status", 500)
            payload = rule.get("body")
            if payload is None:
                payload = json.dumps({"errors": [{"code": "UNAVAILABLE", "message": "injected fault", "detail": None}]})
            data = payload.encode()
            self.send_response(status)
            for k, v in rule.get("headers", {}).items():
                self.send_header(k, v)
            self.send_header("Content-Type", rule.get("content_type", "application/json"))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            return self.note(status, len(data), action)
        if action == "redirect":
            status = rule.get("status", 307)
            self.send_response(status)
            self.send_header("Location", rule["location"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return self.note(status, 0, action)
        if action == "delay":
            time.sleep(rule.get("seconds", 5))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        if action == "ignore_range":
            headers = {k: v for k, v in headers.items() if k.lower() != "range"}
        up = urllib.parse.urlsplit(self.server.upstream)
        conn = http.client.HTTPConnection(up.netloc, timeout=60)
        try:
            conn.request(self.command, self.path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            status, rheaders = resp.status, [(k, v) for k, v in resp.getheaders() if k.lower() not in HOP]
        finally:
            conn.close()
        if action == "corrupt" and data:
            i = rule.get("offset", len(data) // 2)
            data = data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:]
        if action == "rewrite":
            status = rule.get("status", status)
            over = {k.lower(): v for k, v in rule.get("headers", {}).items()}
            rheaders = [(k, v) for k, v in rheaders if k.lower() not in over] + list(rule.get("headers", {}).items())
            if "body" in rule:
                data = rule["body"].encode()
                rheaders = [(k, v) for k, v in rheaders if k.lower() != "content-length"]
        self.send_response(status)
        declared = None
        for k, v in rheaders:
            if k.lower() == "content-length":
                declared = v
                continue
            self.send_header(k, v)
        if self.command == "HEAD" and declared is not None:
            self.send_header("Content-Length", declared)
        else:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command == "HEAD":
            return self.note(status, 0, action)
        if action in ("drop", "stall"):
            cut = rule.get("after_bytes", len(data) // 2)
            self.wfile.write(data[:cut])
            self.wfile.flush()
            if action == "stall":
                time.sleep(rule.get("seconds", 30))
            self.note(status, cut, action)
            return self.reset()
        self.wfile.write(data)
        self.note(status, len(data), action)

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--upstream", required=True)
    args = p.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.upstream = args.upstream
    server.lock = threading.Lock()
    server.rules = []
    server.log = []
    server.serve_forever()


if __name__ == "__main__":
    main()
