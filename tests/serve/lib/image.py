#!/usr/bin/python3
"""Reads the only image of an OCI image layout for the base image suite:

    image.py LAYOUT config          the image config, as JSON with sorted keys
    image.py LAYOUT layers          the layer blob files, lowest first
    image.py LAYOUT command         Entrypoint then Cmd, one argument a line
    image.py LAYOUT env NAME        the value of NAME in the config's Env
"""
import json
import os
import sys


def blob(root, digest):
    return os.path.join(root, "blobs", *digest.split(":"))


def main():
    root, what = sys.argv[1], sys.argv[2]
    top = json.load(open(os.path.join(root, "index.json")))["manifests"][0]
    manifest = json.load(open(blob(root, top["digest"])))
    config = json.load(open(blob(root, manifest["config"]["digest"])))
    c = config.get("config", {})
    if what == "config":
        print(json.dumps(config, sort_keys=True))
    elif what == "layers":
        for layer in manifest["layers"]:
            print(blob(root, layer["digest"]))
    elif what == "command":
        for arg in (c.get("Entrypoint") or []) + (c.get("Cmd") or []):
            print(arg)
    elif what == "env":
        for entry in c.get("Env") or []:
            name, _, value = entry.partition("=")
            if name == sys.argv[3]:
                print(value)


if __name__ == "__main__":
    main()
