#!/usr/bin/env python3
"""Writes the seed layers of the unpack fuzz target into corpus/unpack/: small tar, tar.gz and
tar.zst layers with the entries the extractor must handle or refuse (whiteouts, links that
climb out, absolute names, devices, long names). Run again after changing this file."""
import gzip
import io
import os
import shutil
import subprocess
import tarfile

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "unpack")


def entry(name, kind=tarfile.REGTYPE, data=b"", link="", mode=0o644):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.linkname = link
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    info.mtime = 1700000000
    return info, (io.BytesIO(data) if kind == tarfile.REGTYPE else None)


def layer(entries, fmt=tarfile.GNU_FORMAT):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as tar:
        for info, data in entries:
            tar.addfile(info, data)
    return buf.getvalue()


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    bundle = layer([
        entry("manifests/", tarfile.DIRTYPE, mode=0o755),
        entry("manifests/csv.yaml", data=b"kind: ClusterServiceVersion\n"),
        entry("metadata/annotations.yaml", data=b"annotations: {}\n"),
        entry("other/file", data=b"x"),
    ])
    write("bundle.tar", bundle)
    write("bundle.tar.gz", gzip.compress(bundle, mtime=0))
    if shutil.which("zstd"):
        zst = subprocess.run(["zstd", "-q", "-c"], input=bundle, capture_output=True, check=True)
        write("bundle.tar.zst", zst.stdout)
    write("whiteouts.tar", layer([
        entry("a/", tarfile.DIRTYPE, mode=0o755),
        entry("a/keep", data=b"1"),
        entry("a/.wh.gone"),
        entry("a/.wh..wh..opq"),
        entry("b/.wh.."),
        entry(".wh.a"),
        entry("a/again", data=b"2"),
    ]))
    write("links.tar", layer([
        entry("up", tarfile.SYMTYPE, link="../../victim"),
        entry("up/planted", data=b"escape"),
        entry("abs", tarfile.SYMTYPE, link="/etc"),
        entry("abs/passwd", data=b"re-rooted"),
        entry("loop", tarfile.SYMTYPE, link="loop"),
        entry("hard", tarfile.LNKTYPE, link="../victim/x"),
        entry("real", data=b"r"),
        entry("hard2", tarfile.LNKTYPE, link="real"),
        entry("dir/", tarfile.DIRTYPE, mode=0),
        entry("dir/child", data=b"c"),
    ]))
    write("names.tar", layer([
        entry("../outside", data=b"no"),
        entry("/absolute/file", data=b"rooted"),
        entry("./dot/./name", data=b"d"),
        entry("a/b/../../c", data=b"c"),
        entry("dev", tarfile.CHRTYPE),
        entry("fifo", tarfile.FIFOTYPE),
        entry("x" * 200 + "/" + "y" * 120, data=b"long"),
    ], fmt=tarfile.PAX_FORMAT))
    write("empty.tar", b"\0" * 1024)
    write("truncated.tar", bundle[:700])


if __name__ == "__main__":
    main()
