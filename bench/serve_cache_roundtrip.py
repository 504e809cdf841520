#!/usr/bin/python3
"""Asks two running servers every api.Registry question about every bundle of a catalog and
reports the answers that differ. Orders upstream v1.26.5 leaves random (package names,
GetPackage channels, ListBundles, the entry lists) are compared sorted.

    serve_cache_roundtrip.py OURS_ADDRESS THEIRS_ADDRESS
"""
import json
import os
import sys

import grpc
from google.protobuf import json_format

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "serve", "lib"))
import client  # noqa: E402

POOL = client.load_pool()
SERVICE = POOL.FindServiceByName("api.Registry")
CHANNELS = {}


def call(address, method, request=None):
    """The answer's messages as JSON lines, or the error line."""
    channel = CHANNELS.setdefault(address, grpc.insecure_channel(
        address, options=[("grpc.max_receive_message_length", -1)]))
    desc = SERVICE.FindMethodByName(method)
    req = client.message_class(desc.input_type)()
    json_format.ParseDict(request or {}, req)
    parse = client.message_class(desc.output_type).FromString
    path = "/api.Registry/" + method
    try:
        if desc.server_streaming:
            rpc = channel.unary_stream(path, request_serializer=lambda m: m.SerializeToString(),
                                       response_deserializer=parse)
            answers = list(rpc(req, timeout=60))
        else:
            rpc = channel.unary_unary(path, request_serializer=lambda m: m.SerializeToString(),
                                      response_deserializer=parse)
            answers = [rpc(req, timeout=60)]
        lines = [json.dumps(json_format.MessageToDict(a), sort_keys=True) for a in answers]
    except grpc.RpcError as e:
        lines = ["error %s: %s" % (e.code().name, e.details())]
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
    listing = [json.loads(line) for line in call(address, "ListBundles")]
    # GetBundleThatReplaces is only asked where one bundle of the channel replaces or skips
    # the name: among several, upstream picks by Go map order (ours: the lowest name).
    candidates = {}
    for b in listing:
        for name in set([b.get("replaces", "")] + b.get("skips", [])):
            key = (b["packageName"], b["channelName"], name)
            candidates[key] = candidates.get(key, 0) + 1
    for b in listing:
        pkg, ch, csv = b["packageName"], b["channelName"], b["csvName"]
        yield "GetPackage", {"name": pkg}
        yield "GetBundle", {"pkgName": pkg, "channelName": ch, "csvName": csv}
        yield "GetBundleForChannel", {"pkgName": pkg, "channelName": ch}
        if candidates[(pkg, ch, b.get("replaces", ""))] == 1:
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
