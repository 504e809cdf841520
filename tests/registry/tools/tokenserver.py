#!/usr/bin/env python3
"""A bearer-token service for docker-registry's `auth: token` mode (RS256 JWTs signed by
calling `openssl dgst`). Standard library only.

GET  /token?service=S&scope=X[&scope=Y]   Basic auth for users; anonymous gets pull only
                                          with --anonymous-pull, else no access
POST /token  grant_type=password|refresh_token (form)   (404 with --no-oauth-post)
GET  /_stats                              the token requests seen, as JSON
GET  /_config?expired_next=N&anonymous_pull=0|1&reset=1
"""
import argparse
import base64
import json
import os
import ssl
import subprocess
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.args = args
        self.users = dict(u.split(":", 1) for u in args.user)
        self.anonymous_pull = args.anonymous_pull
        self.expired_next = 0
        self.stats = []
        self.counter = 0
        with open(args.cert) as f:
            pem = f.read()
        body = pem.split("-----BEGIN CERTIFICATE-----")[1].split("-----END CERTIFICATE-----")[0]
        self.x5c = "".join(body.split())

    def sign(self, claims):
        header = {"typ": "JWT", "alg": "RS256", "x5c": [self.x5c]}
        signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
        sig = subprocess.run(["openssl", "dgst", "-sha256", "-sign", self.args.key],
                             input=signing_input.encode(), capture_output=True, check=True).stdout
        return signing_input + "." + b64url(sig)

    def issue(self, account, scopes, service, offline):
        now = int(time.time())
        with self.lock:
            self.counter += 1
            jti = "t%d" % self.counter
            expired = self.expired_next > 0
            if expired:
                self.expired_next -= 1
        access = []
        for scope in scopes:
            parts = scope.split(":")
            if len(parts) < 3 or parts[0] != "repository":
                continue
            name, actions = ":".join(parts[1:-1]), parts[-1].split(",")
            if account is None:
                actions = [a for a in actions if a == "pull"] if self.anonymous_pull else []
            if actions:
                access.append({"type": "repository", "name": name, "actions": actions})
        if expired:
            iat, exp = now - 600, now - 300
        else:
            iat, exp = now - 5, now + self.args.expires_in
        claims = {"iss": self.args.issuer, "sub": account or "", "aud": service, "exp": exp,
                  "nbf": iat, "iat": iat, "jti": jti, "access": access}
        token = self.sign(claims)
        out = {"token": token, "access_token": token, "expires_in": self.args.expires_in,
               "issued_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(iat))}
        if offline and account:
            out["refresh_token"] = "refresh-" + account
        return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, obj, headers=None):
        body = json.dumps(obj).encode() if obj is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def record(self, method, account, scopes, status):
        st = self.server.state
        with st.lock:
            st.stats.append({"method": method, "account": account, "scopes": scopes,
                             "status": status, "user_agent": self.headers.get("User-Agent", "")})

    def basic_account(self):
        h = self.headers.get("Authorization", "")
        if not h.lower().startswith("basic "):
            return None, True
        try:
            user, pw = base64.b64decode(h[6:]).decode().split(":", 1)
        except Exception:
            return None, False
        return (user, True) if self.server.state.users.get(user) == pw else (user, False)

    def do_GET(self):
        st = self.server.state
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query)
        if url.path == "/_stats":
            with st.lock:
                return self.reply(200, st.stats)
        if url.path == "/_config":
            with st.lock:
                if "expired_next" in q:
                    st.expired_next = int(q["expired_next"][0])
                if "anonymous_pull" in q:
                    st.anonymous_pull = q["anonymous_pull"][0] == "1"
                if "reset" in q:
                    st.stats = []
            return self.reply(200, {"ok": True})
        if url.path != "/token":
            return self.reply(404, {"error": "not found"})
        scopes = [s for v in q.get("scope", []) for s in v.split(" ") if s]
        account, ok = self.basic_account()
        if not ok:
            self.record("GET", account, scopes, 401)
            return self.reply(401, {"errors": [{"code": "UNAUTHORIZED", "message": "bad credentials"}]},
                              {"WWW-Authenticate": 'Basic realm="token"'})
        self.record("GET", account, scopes, 200)
        self.reply(200, st.issue(account, scopes, q.get("service", [""])[0],
                                 q.get("offline_token", ["false"])[0] == "true"))

    def do_POST(self):
        st = self.server.state
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if st.args.no_oauth_post:
            self.record("POST", None, [], 404)
            return self.reply(404, {"error": "not found"})
        scopes = [s for v in form.get("scope", []) for s in v.split(" ") if s]
        grant = form.get("grant_type", [""])[0]
        account = None
        if grant == "password":
            user, pw = form.get("username", [""])[0], form.get("password", [""])[0]
            if st.users.get(user) != pw:
                self.record("POST", user, scopes, 401)
                return self.reply(401, {"error": "invalid_grant"})
            account = user
        elif grant == "refresh_token":
            rt = form.get("refresh_token", [""])[0]
            account = rt[len("refresh-"):] if rt.startswith("refresh-") else None
            if account not in st.users:
                self.record("POST", None, scopes, 401)
                return self.reply(401, {"error": "invalid_grant"})
        else:
            self.record("POST", None, scopes, 400)
            return self.reply(400, {"error": "unsupported_grant_type"})
        self.record("POST", account, scopes, 200)
        self.reply(200, st.issue(account, scopes, form.get("service", [""])[0],
                                 form.get("access_type", [""])[0] == "offline"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--cert", required=True)
    p.add_argument("--issuer", default="opm-test-issuer")
    p.add_argument("--user", action="append", default=[])
    p.add_argument("--anonymous-pull", action="store_true")
    p.add_argument("--no-oauth-post", action="store_true")
    p.add_argument("--expires-in", type=int, default=300)
    p.add_argument("--tls-cert")
    p.add_argument("--tls-key")
    args = p.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.state = State(args)
    if args.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
