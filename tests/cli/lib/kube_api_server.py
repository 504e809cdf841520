#!/usr/bin/env python3
"""A small stand-in for the Kubernetes API server, for `opm alpha bundle extract` tests.

There is no kube-apiserver packaged for Debian, so this serves the two calls extract makes,
GET and PUT of /api/v1/namespaces/NS/configmaps/NAME, and checks each request as
kube-apiserver would: the bearer token, the JSON content type of a PUT, the object's kind,
name and namespace, string data and base64 binaryData, and the resourceVersion (a PUT of a
stale version is refused with 409 Conflict). Answers that fail are Status objects.

  kube_api_server.py STATE_FILE PORT_FILE TOKEN [--bump-on-get] [--tls CERT KEY]

STATE_FILE holds a JSON list of ConfigMaps and is rewritten after each accepted PUT.
With --bump-on-get every GET is followed by a change from elsewhere (a conflict).
Standard library only.
"""
import base64
import binascii
import http.server
import json
import os
import re
import ssl
import sys

PATH = re.compile(r"^/api/v1/namespaces/([^/]+)/configmaps/([^/?]+)$")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def status(self, code, reason, message):
        self.answer(code, {"kind": "Status", "apiVersion": "v1", "metadata": {},
                           "status": "Failure", "message": message, "reason": reason,
                           "code": code})

    def target(self):
        if self.headers.get("Authorization") != "Bearer " + self.server.token:
            self.status(401, "Unauthorized", "Unauthorized")
            return None
        match = PATH.match(self.path)
        if not match:
            self.status(404, "NotFound", "the server could not find the requested resource")
            return None
        ns, name = match.groups()
        for cm in self.server.configmaps:
            if cm["metadata"]["namespace"] == ns and cm["metadata"]["name"] == name:
                return cm
        self.status(404, "NotFound", 'configmaps "%s" not found' % name)
        return None

    def do_GET(self):
        cm = self.target()
        if cm is None:
            return
        self.answer(200, cm)
        if self.server.bump_on_get:
            bump(cm)

    def do_PUT(self):
        cm = self.target()
        if cm is None:
            return
        if self.headers.get("Content-Type") != "application/json":
            self.status(415, "UnsupportedMediaType", "the body of the request was in an unknown format")
            return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        problem = check(body, cm)
        if problem:
            self.status(422, "Invalid", problem)
            return
        if body["metadata"].get("resourceVersion") != cm["metadata"]["resourceVersion"]:
            self.status(409, "Conflict", 'Operation cannot be fulfilled on configmaps "%s": the '
                        'object has been modified; please apply your changes to the latest '
                        'version and try again' % cm["metadata"]["name"])
            return
        cm.clear()
        cm.update(body)
        bump(cm)
        with open(self.server.state_file, "w") as f:
            json.dump(self.server.configmaps, f, indent=1, sort_keys=True)
        self.answer(200, cm)


def bump(cm):
    cm["metadata"]["resourceVersion"] = str(int(cm["metadata"]["resourceVersion"]) + 1)


def check(body, current):
    if body.get("kind") != "ConfigMap" or body.get("apiVersion") != "v1":
        return "kind and apiVersion must be ConfigMap and v1"
    meta = body.get("metadata", {})
    for key in ("name", "namespace", "uid"):
        if meta.get(key) != current["metadata"].get(key):
            return "metadata.%s may not change" % key
    for key, value in body.get("data", {}).items():
        if not isinstance(value, str):
            return "data[%s] must be a string" % key
    for key, value in body.get("binaryData", {}).items():
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, TypeError):
            return "binaryData[%s] must be base64" % key
    if set(body.get("data", {})) & set(body.get("binaryData", {})):
        return "a key may not be in both data and binaryData"
    return None


def main():
    state_file, port_file, token = sys.argv[1:4]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.state_file = state_file
    server.token = token
    options = sys.argv[4:]
    server.bump_on_get = "--bump-on-get" in options
    if "--tls" in options:
        at = options.index("--tls")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options[at + 1], options[at + 2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(state_file) as f:
        server.configmaps = json.load(f)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
