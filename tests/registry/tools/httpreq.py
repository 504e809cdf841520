#!/usr/bin/env python3
"""Tiny HTTP client for the test harness:
  httpreq.py METHOD URL [BODY] [--cacert F] [--header "K: V"]...
Prints the status on stderr and the body on stdout; exits 0 for any answer."""
import http.client
import ssl
import sys
import urllib.parse

args = [a for a in sys.argv[1:]]
cacert = None
extra = {}
while "--header" in args:
    i = args.index("--header")
    k, v = args[i + 1].split(":", 1)
    extra[k.strip()] = v.strip()
    del args[i:i + 2]
if "--cacert" in args:
    i = args.index("--cacert")
    cacert = args[i + 1]
    del args[i:i + 2]
method, url = args[0], args[1]
body = args[2].encode() if len(args) > 2 else None
u = urllib.parse.urlsplit(url)
if u.scheme == "https":
    ctx = ssl.create_default_context(cafile=cacert) if cacert else ssl.create_default_context()
    c = http.client.HTTPSConnection(u.netloc, context=ctx, timeout=10)
else:
    c = http.client.HTTPConnection(u.netloc, timeout=10)
headers = {"Content-Type": "application/json"} if body else {}
headers.update(extra)
c.request(method, u.path + ("?" + u.query if u.query else ""), body=body, headers=headers)
r = c.getresponse()
sys.stdout.write(r.read().decode(errors="replace"))
sys.stderr.write("%d\n" % r.status)
