#!/usr/bin/env python3
"""Benchmark `zanj cat`: speed against `unzip -p` and peak memory, on a generated archive.

usage: python3 bench/cat.py [--mib N] [--zanj build/zanj] [--keep DIR]

Writes a .zanj with one deflated float32 array of N MiB (default 256) in C order and the same
values in Fortran order, then times each command (output to /dev/null) and reports its peak
resident memory. Streaming means the memory column stays at a few MiB whatever N is.
"""
import argparse
import array
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zipfile


def npy_header(descr, shape, fortran=False):
    dims = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin-1")


def build(path, mib):
    rng = random.Random(1)
    block = array.array("f", (rng.gauss(0, 1) for _ in range(1 << 18))).tobytes()  # 1 MiB of floats
    rows, cols = mib * 256, 1024  # rows x cols float32 = mib MiB
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr("__zanj_meta__.json", '{"externals_info": {}}')
        z.writestr("__zanj__.json",
                   '{"a": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [%d, %d], '
                   '"dtype": "float32", "n_elements": %d}, '
                   '"f": {"__muutils_format__": "numpy.ndarray:external", "$ref": "f.npy", "shape": [%d, %d], '
                   '"dtype": "float32", "n_elements": %d}}' % (rows, cols, rows * cols, rows, cols, rows * cols))
        for name, fortran in (("a.npy", False), ("f.npy", True)):
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=True) as out:
                out.write(npy_header("<f4", [rows, cols], fortran))
                for _ in range(mib):
                    out.write(block)


GNU_TIME = "/usr/bin/time"


def measure(cmd):
    """-> (seconds, peak RSS in MiB) of one run with stdout to /dev/null. The peak comes from GNU
    time when installed: a child started from Python inherits Python's own high-water mark."""
    with tempfile.NamedTemporaryFile("r") as report, open(os.devnull, "wb") as null:
        gnu_time = os.access(GNU_TIME, os.X_OK)
        full = [GNU_TIME, "-f", "%M", "-o", report.name, *cmd] if gnu_time else cmd
        start = time.perf_counter()
        p = subprocess.Popen(full, stdout=null, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - start
        err = p.stderr.read().decode()
        p.stderr.close()
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.exit(f"{' '.join(cmd)}: exit {code}: {err}")
        kib = int(report.read().split()[-1]) if gnu_time else usage.ru_maxrss
    return elapsed, kib / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--zanj", default=os.path.join(os.path.dirname(__file__), "..", "build", "zanj"))
    ap.add_argument("--keep", help="build the archive in this directory and keep it")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(args.keep or tmp, f"bench-{args.mib}.zanj")
        if not os.path.exists(path):
            print(f"writing {path} ({args.mib} MiB per array) ...", file=sys.stderr)
            build(path, args.mib)
        z = args.zanj
        runs = [
            ("unzip -p a.npy (reference)", ["unzip", "-p", path, "a.npy"]),
            ("cat --member a.npy", [z, "cat", "--member", "a.npy", path]),
            ("cat --format raw a", [z, "cat", "--format", "raw", path, "a"]),
            ("cat --format npy a", [z, "cat", "--format", "npy", path, "a"]),
            ("cat a (text summary)", [z, "cat", path, "a"]),
            ("cat --format raw 'a[:10]'", [z, "cat", "--format", "raw", path, "a[:10]"]),
            ("cat --format raw 'a[::-1]'", [z, "cat", "--format", "raw", path, "a[::-1]"]),
            ("cat --format raw f (Fortran)", [z, "cat", "--format", "raw", path, "f"]),
            ("cat --format json a", [z, "cat", "--format", "json", path, "a"]),
            ("cat --format csv a", [z, "cat", "--format", "csv", path, "a"]),
            ("cat --resolve --format json", [z, "cat", "--resolve", "--format", "json", path]),
        ]
        print(f"{'command':34} {'seconds':>8} {'MiB/s':>8} {'peak RSS MiB':>13}", flush=True)
        for label, cmd in runs:
            seconds, rss = measure(cmd)
            print(f"{label:34} {seconds:8.2f} {args.mib / seconds:8.0f} {rss:13.1f}", flush=True)


if __name__ == "__main__":
    main()
