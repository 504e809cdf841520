#!/usr/bin/env python3
"""Builds small test images and pushes them to a registry, or writes them as an OCI
layout or a `docker save` archive. Standard library only.

  imagetool.py push URL REPO TAG [layer options] [--label K=V] [--docker] [--arch A]
  imagetool.py index URL REPO TAG --entry DIGEST,SIZE,TYPE,OS/ARCH[/VARIANT] ... [--docker]
  imagetool.py layout DIR TAG [layer options]          (an OCI image layout)
  imagetool.py archive FILE REPO:TAG [layer options]   (a docker-save style tarball)

Layer options, each adding one layer in order:
  --files DIR           every file under DIR
  --entry-json FILE     a JSON list of tar entries: name, type (file|dir|symlink|hardlink|
                        char|block|fifo), data, zeros, link, mode (octal string); "$VAR" in
                        names and links is expanded from the environment
  --raw FILE            FILE's bytes as they are, labelled as an uncompressed tar layer
  --compression gzip|zstd|none   for the layers that follow (default gzip)
Push options: --user U:P (Basic or a bearer token fetched with it), --cacert FILE.
Prints "<manifest digest> <size> <media type>".
"""
import base64
import gzip
import hashlib
import http.client
import io
import json
import os
import ssl
import sys
import tarfile
import urllib.parse

OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json"
LAYER_TYPES = {
    ("oci", "gzip"): "application/vnd.oci.image.layer.v1.tar+gzip",
    ("oci", "zstd"): "application/vnd.oci.image.layer.v1.tar+zstd",
    ("oci", "none"): "application/vnd.oci.image.layer.v1.tar",
    ("docker", "gzip"): "application/vnd.docker.image.rootfs.diff.tar.gzip",
    ("docker", "zstd"): "application/vnd.oci.image.layer.v1.tar+zstd",
    ("docker", "none"): "application/vnd.oci.image.layer.v1.tar",
}


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def zstd_frame(data):
    """A valid zstd frame made of raw (stored) blocks: no compression library needed."""
    out = bytearray(b"\x28\xb5\x2f\xfd")
    # Frame header: single segment off, no checksum, no dictionary, 8-byte content size.
    out.append(0xC0)  # FCS flag 3 (8 bytes), single-segment 0
    out.append(0x58)  # window descriptor: 2^(10+11) = 2 MiB window
    out += len(data).to_bytes(8, "little")
    block = 128 * 1024
    chunks = [data[i:i + block] for i in range(0, len(data), block)] or [b""]
    for i, chunk in enumerate(chunks):
        last = 1 if i == len(chunks) - 1 else 0
        header = last | (0 << 1) | (len(chunk) << 3)  # block type 0 = raw
        out += header.to_bytes(3, "little")
        out += chunk
    return bytes(out)


def compress(raw, how):
    if how == "gzip":
        return gzip.compress(raw, mtime=0)
    if how == "zstd":
        return zstd_frame(raw)
    return raw


def tar_of_dir(root):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for dirpath, dirnames, filenames in sorted(os.walk(root)):
            dirnames.sort()
            rel = os.path.relpath(dirpath, root)
            if rel != ".":
                info = tarfile.TarInfo(rel + "/")
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                arc = os.path.normpath(os.path.join(rel, name))
                with open(path, "rb") as f:
                    data = f.read()
                info = tarfile.TarInfo(arc)
                info.size = len(data)
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def tar_of_spec(path):
    with open(path) as f:
        entries = json.load(f)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for e in entries:
            info = tarfile.TarInfo(os.path.expandvars(e["name"]))
            kind = e.get("type", "file")
            info.mode = int(e.get("mode", "644"), 8)
            data = None
            if kind == "file":
                data = b"\0" * e["zeros"] if "zeros" in e else e.get("data", "").encode()
                info.size = len(data)
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
            elif kind == "symlink":
                info.type = tarfile.SYMTYPE
                info.linkname = os.path.expandvars(e["link"])
            elif kind == "hardlink":
                info.type = tarfile.LNKTYPE
                info.linkname = os.path.expandvars(e["link"])
            elif kind in ("char", "block"):
                info.type = tarfile.CHRTYPE if kind == "char" else tarfile.BLKTYPE
                info.devmajor, info.devminor = 1, 3
            elif kind == "fifo":
                info.type = tarfile.FIFOTYPE
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


class Image:
    def __init__(self, docker=False):
        self.docker = docker
        self.layers = []  # (media type, compressed bytes, diff id)
        self.labels = {}
        self.arch, self.variant, self.os = "amd64", "", "linux"

    def add_layer(self, raw, how):
        blob = compress(raw, how)
        kind = "docker" if self.docker else "oci"
        self.layers.append((LAYER_TYPES[(kind, how)], blob, sha256(raw)))

    def config(self):
        cfg = {"architecture": self.arch, "os": self.os,
               "config": {"Labels": self.labels},
               "rootfs": {"type": "layers", "diff_ids": [l[2] for l in self.layers]}}
        if self.variant:
            cfg["variant"] = self.variant
        return json.dumps(cfg, sort_keys=True).encode()

    def manifest(self):
        config = self.config()
        m = {"schemaVersion": 2,
             "mediaType": DOCKER_MANIFEST if self.docker else OCI_MANIFEST,
             "config": {"mediaType": DOCKER_CONFIG if self.docker else OCI_CONFIG,
                        "digest": sha256(config), "size": len(config)},
             "layers": [{"mediaType": t, "digest": sha256(b), "size": len(b)}
                        for t, b, _ in self.layers]}
        return json.dumps(m).encode(), config


class Registry:
    def __init__(self, base, user=None, cacert=None):
        u = urllib.parse.urlsplit(base)
        self.scheme, self.netloc = u.scheme, u.netloc
        self.user = user
        self.ctx = ssl.create_default_context(cafile=cacert) if cacert else None
        self.auth = None

    def _conn(self, scheme, netloc):
        if scheme == "https":
            return http.client.HTTPSConnection(netloc, context=self.ctx or ssl.create_default_context(), timeout=30)
        return http.client.HTTPConnection(netloc, timeout=30)

    def _raw(self, method, url, body=None, headers=None):
        u = urllib.parse.urlsplit(url)
        c = self._conn(u.scheme, u.netloc)
        path = u.path + ("?" + u.query if u.query else "")
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, r.headers, data

    def _token(self, challenge):
        params = dict(p.split("=", 1) for p in split_params(challenge))
        params = {k: v.strip('"') for k, v in params.items()}
        q = {"service": params.get("service", "")}
        scope = params.get("scope", "")
        url = params["realm"] + "?" + urllib.parse.urlencode(q) + "".join(
            "&scope=" + urllib.parse.quote(s) for s in scope.split(" ") if s)
        h = {}
        if self.user:
            h["Authorization"] = "Basic " + base64.b64encode(self.user.encode()).decode()
        status, _, data = self._raw("GET", url, headers=h)
        if status != 200:
            raise SystemExit("token request failed: %d" % status)
        return "Bearer " + json.loads(data)["token"]

    def request(self, method, path, body=None, headers=None):
        url = path if "://" in path else "%s://%s%s" % (self.scheme, self.netloc, path)
        for _ in range(3):
            h = dict(headers or {})
            if self.auth:
                h["Authorization"] = self.auth
            status, rh, data = self._raw(method, url, body, h)
            if status != 401:
                return status, rh, data
            challenge = rh.get("WWW-Authenticate", "")
            if challenge.lower().startswith("basic"):
                self.auth = "Basic " + base64.b64encode((self.user or "").encode()).decode()
            else:
                self.auth = self._token(challenge[len("Bearer "):])
        return status, rh, data

    def push_blob(self, repo, data):
        d = sha256(data)
        status, _, _ = self.request("HEAD", "/v2/%s/blobs/%s" % (repo, d))
        if status == 200:
            return d
        status, h, body = self.request("POST", "/v2/%s/blobs/uploads/" % repo, body=b"")
        if status != 202:
            raise SystemExit("upload start failed: %d %s" % (status, body[:200]))
        loc = h["Location"]
        if "://" not in loc:
            loc = "%s://%s%s" % (self.scheme, self.netloc, loc)
        loc += ("&" if "?" in loc else "?") + "digest=" + urllib.parse.quote(d)
        status, _, body = self.request("PUT", loc, body=data,
                                       headers={"Content-Type": "application/octet-stream"})
        if status != 201:
            raise SystemExit("upload failed: %d %s" % (status, body[:200]))
        return d

    def put_manifest(self, repo, ref, data, media_type):
        status, _, body = self.request("PUT", "/v2/%s/manifests/%s" % (repo, ref), body=data,
                                       headers={"Content-Type": media_type})
        if status != 201:
            raise SystemExit("manifest upload failed: %d %s" % (status, body[:300]))


def split_params(s):
    out, cur, quoted = [], "", False
    for ch in s:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_image_args(args, docker):
    img = Image(docker=docker)
    how = "gzip"
    i = 0
    rest = []
    while i < len(args):
        a = args[i]
        if a == "--compression":
            how = args[i + 1]; i += 2
        elif a == "--files":
            img.add_layer(tar_of_dir(args[i + 1]), how); i += 2
        elif a == "--entry-json":
            img.add_layer(tar_of_spec(args[i + 1]), how); i += 2
        elif a == "--raw":
            with open(args[i + 1], "rb") as f:
                blob = f.read()
            img.layers.append(("application/vnd.oci.image.layer.v1.tar", blob, sha256(blob))); i += 2
        elif a == "--label":
            k, v = args[i + 1].split("=", 1); img.labels[k] = v; i += 2
        elif a == "--arch":
            img.arch = args[i + 1]; i += 2
        elif a == "--variant":
            img.variant = args[i + 1]; i += 2
        else:
            rest.append(a); i += 1
    return img, rest


def option(rest, name):
    if name in rest:
        return rest[rest.index(name) + 1]
    return None


def cmd_push(argv):
    base, repo, tag = argv[:3]
    docker = "--docker" in argv
    img, rest = parse_image_args([a for a in argv[3:] if a != "--docker"], docker)
    reg = Registry(base, option(rest, "--user"), option(rest, "--cacert"))
    manifest, config = img.manifest()
    for _, blob, _ in img.layers:
        reg.push_blob(repo, blob)
    reg.push_blob(repo, config)
    mt = DOCKER_MANIFEST if docker else OCI_MANIFEST
    reg.put_manifest(repo, tag, manifest, mt)
    print(sha256(manifest), len(manifest), mt)


def cmd_index(argv):
    base, repo, tag = argv[:3]
    docker = "--docker" in argv
    entries = []
    i = 3
    while i < len(argv):
        if argv[i] == "--entry":
            digest, size, mt, plat = argv[i + 1].split(",")
            p = plat.split("/")
            e = {"mediaType": mt, "digest": digest, "size": int(size),
                 "platform": {"os": p[0], "architecture": p[1]}}
            if len(p) > 2:
                e["platform"]["variant"] = p[2]
            entries.append(e)
            i += 2
        else:
            i += 1
    mt = DOCKER_LIST if docker else OCI_INDEX
    body = json.dumps({"schemaVersion": 2, "mediaType": mt, "manifests": entries}).encode()
    reg = Registry(base, option(argv, "--user"), option(argv, "--cacert"))
    reg.put_manifest(repo, tag, body, mt)
    print(sha256(body), len(body), mt)


def write_blob(root, data):
    d = sha256(data)
    os.makedirs(os.path.join(root, "blobs", "sha256"), exist_ok=True)
    with open(os.path.join(root, "blobs", "sha256", d[7:]), "wb") as f:
        f.write(data)
    return d


def cmd_layout(argv):
    root, tag = argv[:2]
    img, _ = parse_image_args(argv[2:], False)
    manifest, config = img.manifest()
    for _, blob, _ in img.layers:
        write_blob(root, blob)
    write_blob(root, config)
    d = write_blob(root, manifest)
    with open(os.path.join(root, "oci-layout"), "w") as f:
        f.write('{"imageLayoutVersion":"1.0.0"}')
    index_path = os.path.join(root, "index.json")
    index = {"schemaVersion": 2, "manifests": []}
    if os.path.exists(index_path):
        with open(index_path) as f:
            index = json.load(f)
    index["manifests"].append({"mediaType": OCI_MANIFEST, "digest": d, "size": len(manifest),
                               "annotations": {"org.opencontainers.image.ref.name": tag}})
    with open(index_path, "w") as f:
        json.dump(index, f)
    print(d, len(manifest), OCI_MANIFEST)


def cmd_archive(argv):
    out, name = argv[:2]
    img, _ = parse_image_args(argv[2:], True)
    config = img.config()
    cfg_name = hashlib.sha256(config).hexdigest() + ".json"
    files = [(cfg_name, config)]
    layer_names = []
    for i, (_, blob, diff) in enumerate(img.layers):
        raw = gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob
        n = "%s/layer.tar" % diff[7:]
        layer_names.append(n)
        files.append((n, raw))
    files.append(("manifest.json", json.dumps(
        [{"Config": cfg_name, "RepoTags": [name], "Layers": layer_names}]).encode()))
    with tarfile.open(out, "w") as tar:
        for n, data in files:
            info = tarfile.TarInfo(n)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    print(sha256(config), len(config), DOCKER_CONFIG)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    cmd, argv = sys.argv[1], sys.argv[2:]
    {"push": cmd_push, "index": cmd_index, "layout": cmd_layout, "archive": cmd_archive}[cmd](argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
