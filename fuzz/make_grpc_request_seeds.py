#!/usr/bin/env python3
"""Writes the seeds of the grpc_request fuzz target: one file per api.Registry call of the
serve suites' call lists (tests/data/serve/calls.txt for the catalog, ../registry/calls.txt
for the index database), as the target reads them: a byte choosing the rpc and the backend,
then the request's protobuf encoding (every field of these requests is a string).

    fuzz/make_grpc_request_seeds.py OUT_DIR
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data", "serve")
RPCS = ["ListPackages", "GetPackage", "GetBundle", "GetBundleForChannel",
        "GetChannelEntriesThatReplace", "GetBundleThatReplaces", "GetChannelEntriesThatProvide",
        "GetLatestChannelEntriesThatProvide", "GetDefaultBundleThatProvides", "ListBundles"]
PROVIDER = {"group": 1, "version": 2, "kind": 3, "plural": 4}
# Field numbers of each rpc's request, as registry.proto gives them.
FIELDS = {
    "GetPackage": {"name": 1},
    "GetBundle": {"pkgName": 1, "channelName": 2, "csvName": 3},
    "GetBundleForChannel": {"pkgName": 1, "channelName": 2},
    "GetChannelEntriesThatReplace": {"csvName": 1},
    "GetBundleThatReplaces": {"csvName": 1, "pkgName": 2, "channelName": 3},
    "GetChannelEntriesThatProvide": PROVIDER,
    "GetLatestChannelEntriesThatProvide": PROVIDER,
    "GetDefaultBundleThatProvides": PROVIDER,
}


def encode(rpc, request):
    out = bytearray()
    for name, value in request.items():
        data = value.encode()
        out += bytes([FIELDS[rpc][name] << 3 | 2, len(data)]) + data
    return bytes(out)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for backend, calls in ((0x00, os.path.join(DATA, "calls.txt")),
                           (0x10, os.path.join(DATA, "registry", "calls.txt"))):
        for i, line in enumerate(open(calls)):
            method, _, request = line.strip().partition(" ")
            service, _, rpc = method.partition("/")
            if service != "api.Registry" or rpc not in RPCS:
                continue
            seed = bytes([backend | RPCS.index(rpc)]) + encode(rpc, json.loads(request or "{}"))
            with open(os.path.join(out, "%s-%02d-%s" % ("db" if backend else "fbc", i, rpc)), "wb") as f:
                f.write(seed)


if __name__ == "__main__":
    main()
