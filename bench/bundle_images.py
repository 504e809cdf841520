#!/usr/bin/env python3
"""Pushes corpus bundle directories as images and checks renders of them against the
corpus expectations. Used by bench/registry_render.sh. Standard library only.

  bundle_images.py push TOOLS REGISTRY BUNDLES_DIR LIST
  bundle_images.py check OPM CACHE_DIR REGISTRY BUNDLES_DIR EXPECTED_DIR LIST OUTPUT

LIST is a file of "<package>/<version>" lines in argument order. Each bundle is pushed as
REGISTRY/corpus/<package>-bundle:<version>, a one-layer OCI image (a gzip tar of the bundle
directory) whose config labels are the annotations of metadata/annotations.yaml.

`check` splits OUTPUT (one `opm render -o json` of all the refs, in LIST order) into one
object per bundle and compares each with the expected render; when OUTPUT cannot be split
into one object per bundle, each image is rendered alone. Each bundle directory must also
render as its image does, apart from the `image` field and the image's own entry in
relatedImages. Prints one line per failure and "N passed, M failed".
"""
import concurrent.futures
import json
import lzma
import os
import re
import subprocess
import sys

KEY_VALUE = re.compile(r"^([^\s#'\"][^:]*):(?:\s+(.*))?$")


class YamlError(Exception):
    pass


def scalar(text, where):
    """The string value of a flow scalar as bundle annotations use them: plain, 'single'
    or "double" quoted. Anything richer is refused rather than guessed."""
    if text.startswith('"'):
        if not text.endswith('"') or len(text) < 2:
            raise YamlError("%s: unterminated double-quoted value" % where)
        body = text[1:-1]
        if "\\" in body:
            try:
                return json.loads('"' + body + '"')
            except ValueError:
                raise YamlError("%s: unsupported escape in %s" % (where, text))
        return body
    if text.startswith("'"):
        if not text.endswith("'") or len(text) < 2:
            raise YamlError("%s: unterminated single-quoted value" % where)
        return text[1:-1].replace("''", "'")
    if text[:1] in ("|", ">", "[", "{", "&", "*", "!"):
        raise YamlError("%s: unsupported value %s" % (where, text))
    return re.sub(r"\s+#.*$", "", text)


def read_annotations(path):
    """The `annotations:` map of a bundle's metadata/annotations.yaml."""
    labels = {}
    inside = False
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\r\n")
            text = line.strip()
            if not text or text.startswith("#") or text == "---":
                continue
            where = "%s:%d" % (path, number)
            if not line[0].isspace():
                inside = text == "annotations:"
                continue
            if not inside:
                continue
            m = KEY_VALUE.match(text)
            if not m:
                raise YamlError("%s: not a key: value line" % where)
            labels[m.group(1).rstrip()] = scalar((m.group(2) or "").strip(), where)
    return labels


def repository(entry):
    package, _ = entry.split("/")
    return "corpus/%s-bundle" % package


def reference(registry, entry):
    return "%s/%s:%s" % (registry, repository(entry), entry.split("/")[1])


def read_list(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def push(argv):
    tools, registry, bundles, list_file = argv
    sys.path.insert(0, tools)
    import imagetool

    def push_one(entry):
        directory = os.path.join(bundles, entry)
        image = imagetool.Image()
        image.add_layer(imagetool.tar_of_dir(directory), "gzip")
        image.labels.update(read_annotations(os.path.join(directory, "metadata", "annotations.yaml")))
        manifest, config = image.manifest()
        client = imagetool.Registry("http://" + registry)
        repo = repository(entry)
        for _, blob, _ in image.layers:
            client.push_blob(repo, blob)
        client.push_blob(repo, config)
        client.put_manifest(repo, entry.split("/")[1], manifest, imagetool.OCI_MANIFEST)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for _ in pool.map(push_one, read_list(list_file)):
            pass
    return 0


def split_objects(data):
    """The top-level objects of indented JSON output, each ending in "\\n}\\n"."""
    parts = data.split(b"\n}\n")
    if parts[-1] != b"":
        return None
    return [p + b"\n}\n" for p in parts[:-1]]


def render(opm, args, cache):
    env = dict(os.environ, OLM_CACHE_DIR=cache)
    p = subprocess.run([opm, "render", *args, "-o", "json"], env=env, capture_output=True)
    if p.returncode != 0:
        return None, p.stderr.decode(errors="replace").strip()[:300]
    return p.stdout, ""


def without_image(obj, ref):
    obj = dict(obj)
    obj.pop("image", None)
    if ref is not None and isinstance(obj.get("relatedImages"), list):
        obj["relatedImages"] = [r for r in obj["relatedImages"] if r.get("image") != ref]
    return obj


def check(argv):
    opm, cache, registry, bundles, expected_dir, list_file, output = argv
    entries = read_list(list_file)
    with open(output, "rb") as f:
        actual = split_objects(f.read())
    if actual is None or len(actual) != len(entries):
        print("the combined render has %s objects for %d bundles: rendering each alone"
              % ("unsplittable" if actual is None else len(actual), len(entries)))
        actual = None
    passed = failed = 0
    for i, entry in enumerate(entries):
        ref = reference(registry, entry)
        with lzma.open(os.path.join(expected_dir, entry, "render.json.xz")) as f:
            want = f.read().replace(b"@REGISTRY@", registry.encode())
        got, err = (actual[i], "") if actual is not None else render(opm, ["--use-http", ref], cache)
        problems = []
        if got is None:
            problems.append("image render failed: " + err)
        elif got != want:
            problems.append("image render differs from upstream's")
        dir_out, err = render(opm, [os.path.join(bundles, entry)], cache)
        if dir_out is None:
            problems.append("directory render failed: " + err)
        elif got is not None:
            try:
                same = without_image(json.loads(dir_out), None) == without_image(json.loads(got), ref)
            except ValueError as e:
                same = False
                problems.append("not one JSON object: %s" % e)
            if not same:
                problems.append("directory render differs from the image render")
        if problems:
            failed += 1
            print("FAIL: %s: %s" % (entry, "; ".join(problems)))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


def main():
    commands = {"push": push, "check": check}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    try:
        return commands[sys.argv[1]](sys.argv[2:])
    except YamlError as e:
        print(e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
