#!/usr/bin/python3
"""Asks two running servers every api.Registry question about every bundle of a catalog and
reports the answers that differ. Orders upstream v1.26.5 leaves random (package names,
GetPackage channels, ListBundles, the entry lists) are compared sorted.

    serve_cache_roundtrip.py OURS_ADDRESS THEIRS_ADDRESS
"""
import json
import os
import subprocess
import sys

CLIENT = os.path.join(os.path.dirname(__file__), "..", "tests", "serve", "lib", "client.py")


def call(address, method, request="{}"):
    out = subprocess.run(["/usr/bin/python3", CLIENT, address, "api.Registry/" + method,
                          json.dumps(request) if isinstance(request, dict) else request],
                         check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    if method in ("ListPackages", "ListBundles") or "Entries" in method:
        lines.sort()
    if method == "GetPackage" and lines and not lines[0].startswith("error"):
        pkg = json.loads(lines[0])
        pkg["channels"] = sorted(pkg.get("channels", []), key=lambda c: c["name"])
        lines = [json.dumps(pkg, sort_keys=True)]
    return lines


def questions(address):
    yield "ListPackages", {}
    yield "ListBundles", {}
    seen_csv, seen_gvk = set(), set()
    for line in call(address, "ListBundles"):
        b = json.loads(line)
        pkg, ch, csv = b["packageName"], b["channelName"], b["csvName"]
        yield "GetPackage", {"name": pkg}
        yield "GetBundle", {"pkgName": pkg, "channelName": ch, "csvName": csv}
        yield "GetBundleForChannel", {"pkgName": pkg, "channelName": ch}
        yield "GetBundleThatReplaces", {"csvName": b.get("replaces", ""), "pkgName": pkg,
                                        "channelName": ch}
        if csv not in seen_csv:
            seen_csv.add(csv)
            yield "GetChannelEntriesThatReplace", {"csvName": csv}
        for gvk in b.get("providedApis", []):
            key = (gvk.get("group", ""), gvk.get("version", ""), gvk.get("kind", ""))
            if key in seen_gvk:
                continue
            seen_gvk.add(key)
            req = {"group": key[0], "version": key[1], "kind": key[2]}
            yield "GetChannelEntriesThatProvide", req
            yield "GetLatestChannelEntriesThatProvide", req
            yield "GetDefaultBundleThatProvides", req


def main():
    ours, theirs = sys.argv[1], sys.argv[2]
    asked = differ = 0
    for method, request in questions(ours):
        asked += 1
        a, b = call(ours, method, request), call(theirs, method, request)
        if a != b:
            differ += 1
            print("differs: %s %s" % (method, json.dumps(request)))
    print("%d questions, %d answers differ" % (asked, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
