"""Shared helpers for the end-to-end tests: run the built zanj binary on corpus archives.

ctest sets ZANJ (the binary), ZANJ_CORPUS (tests/corpus) and ZANJ_SOURCE_DIR.
"""
import ast
import base64
import json
import math
import os
import pty
import re
import select
import struct
import subprocess
import sys
import time
import unittest
import zipfile

ZANJ = os.environ.get("ZANJ", "")
CORPUS = os.environ.get("ZANJ_CORPUS", os.path.join(os.path.dirname(__file__), "..", "corpus"))
SOURCE_DIR = os.environ.get("ZANJ_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def corpus(*parts):
    return os.path.join(CORPUS, *parts)


def archives():
    return sorted(f for f in os.listdir(CORPUS) if f.endswith(".zanj"))


def malformed():
    d = corpus("malformed")
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".zanj"))


def facts(name):
    with open(corpus(name[: -len(".zanj")] + ".facts.json")) as f:
        return json.load(f)


def resolved_at(name, segments):
    """the facts' `resolved` document of an archive, at an object path given as segments"""
    node = facts(name)["resolved"]
    for s in segments:
        node = node[s]
    return node


def obj_path(segments):
    return "/".join(str(s).replace("~", "~0").replace("/", "~1") for s in segments)


def pack_values(fmt, values):
    """Values packed with a struct format letter ('<f', '>d', '<q', ...)."""
    return struct.pack(fmt[0] + fmt[1:] * len(values), *values) if values else b""


def external_array(ref, dtype, shape, torch=False):
    n = 1
    for d in shape:
        n *= d
    return {"__muutils_format__": ("torch.Tensor" if torch else "numpy.ndarray") + ":external",
            "$ref": ref, "shape": list(shape), "dtype": dtype, "n_elements": n}


def inline_array(mode, dtype, shape, data):
    """mode: array_list_meta (data: nested lists), array_b64_meta / array_hex_meta (data: bytes)."""
    n = 1
    for d in shape:
        n *= d
    if mode == "array_b64_meta":
        data = base64.b64encode(data).decode("ascii")
    elif mode == "array_hex_meta":
        data = data.hex()
    return {"__muutils_format__": "numpy.ndarray:" + mode, "shape": list(shape), "dtype": dtype,
            "n_elements": n, "data": data}


def external_list(ref, tuple_=False):
    return {"__muutils_format__": ("tuple" if tuple_ else "list") + ":external", "$ref": ref}


def jsonl_bytes(items):
    return "".join(json.dumps(x) + "\n" for x in items).encode("utf-8")


def write_reference_zanj(path, root, members=None, compress=zipfile.ZIP_DEFLATED, timestamp=1700000000.0,
                         reverse=False, cfg=None):
    """A .zanj archive laid out as the reference writes it: a full meta (zanj_cfg, sysinfo,
    externals_info, timestamp), __zanj__.json tab-indented, then `members` ({name: bytes});
    reverse=True stores them in the opposite order."""
    members = members or {}
    meta = {"zanj_cfg": cfg or {"array_mode": "array_list_meta", "compress": compress},
            "sysinfo": {"python": {"version": "3.11.2"}},
            "externals_info": {name: {"item_type": "npy" if name.endswith(".npy") else "jsonl",
                                      "path": name.rsplit(".", 1)[0].split("/")} for name in members},
            "timestamp": timestamp}
    entries = [("__zanj_meta__.json", json.dumps(meta, indent="\t").encode()),
               ("__zanj__.json", json.dumps(root, indent="\t").encode())] + list(members.items())
    if reverse:
        entries.reverse()
    with zipfile.ZipFile(path, "w", compression=compress) as z:
        for name, data in entries:
            z.writestr(name, data)
    return path


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    @property
    def text(self):
        return self.out.decode("utf-8")

    def json(self):
        return json.loads(self.out.decode("utf-8"))


def run(*args, stdin=None, timeout=120, cwd=None, env=None):
    """stdin: bytes fed through a pipe, an open file (redirected as is), or None (/dev/null).
    env: variables to add to (or, with value None, remove from) the environment."""
    feed = stdin if isinstance(stdin, (bytes, str)) else None
    source = subprocess.DEVNULL if stdin is None else (None if feed is not None else stdin)
    p = subprocess.run([ZANJ, *args], capture_output=True, timeout=timeout, cwd=cwd,
                       stdin=source, input=feed, env=environment(env))
    return Result(p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"))


def environment(changes):
    if not changes:
        return None
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(text):
    return ANSI_ESCAPE.sub("", text)


def run_on_terminal(*args, streams=("stdout",), env=None, timeout=60, cwd=None):
    """Run zanj with the named standard streams ("stdin", "stdout", "stderr") on one
    pseudo-terminal; the others are /dev/null (stdin) or pipes. -> Result where a stream on
    the terminal reads as everything the terminal received (line ends as "\\n")."""
    master, slave = pty.openpty()
    pick = lambda name, other: slave if name in streams else other
    p = subprocess.Popen([ZANJ, *args], stdin=pick("stdin", subprocess.DEVNULL),
                         stdout=pick("stdout", subprocess.PIPE), stderr=pick("stderr", subprocess.PIPE),
                         env=environment(env), cwd=cwd)
    os.close(slave)
    shown, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not select.select([master], [], [], 0.1)[0]:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process has gone and the terminal with it
            break
        if not chunk:
            break
        shown += chunk
    else:
        p.kill()
    os.close(master)
    out, err = p.communicate(timeout=timeout)
    terminal = shown.replace(b"\r\n", b"\n")
    stdout = terminal if "stdout" in streams else out
    stderr = terminal if "stderr" in streams else err
    return Result(p.returncode, stdout, stderr.decode("utf-8", "replace"))


def run_into_closed_pipe(*args, ignore_sigpipe=False, timeout=120):
    """Run zanj with stdout on a pipe whose reader has already gone, as in `zanj ... | head`
    once head has exited. With ignore_sigpipe, zanj inherits SIGPIPE ignored (as Python
    itself has it), so writes fail with EPIPE instead. -> Result (returncode -13 when killed
    by SIGPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        p = subprocess.run([ZANJ, *args], stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                           timeout=timeout, restore_signals=not ignore_sigpipe)
    finally:
        os.close(write_end)
    return Result(p.returncode, b"", p.stderr.decode("utf-8", "replace"))


class ZanjTest(unittest.TestCase):
    def assertOk(self, r):
        self.assertEqual(r.code, 0, f"exit {r.code}, stderr: {r.err}")
        return r

    def assertFails(self, r, code=1, message=None):
        self.assertEqual(r.code, code, f"exit {r.code}, stdout: {r.out[:300]!r} stderr: {r.err}")
        self.assertTrue(r.err.startswith("zanj: error: "), f"stderr: {r.err!r}")
        self.assertEqual(len(r.err.strip().splitlines()), 1, f"one line wanted: {r.err!r}")
        if message:
            self.assertIn(message, r.err)
        return r

    def assertNotCrashed(self, r):
        # a signal shows as a negative code; sanitizers exit 1 with a report on stderr
        self.assertGreaterEqual(r.code, 0, r.err)
        self.assertNotIn("Sanitizer", r.err)
        self.assertNotIn("runtime error", r.err)


def files_below(root):
    """Every file and directory below `root` (not following symlinks), relative, sorted."""
    out = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            out.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(out)


def build_zip(path, members):
    """Write a ZIP of stored members byte by byte, so tests control what zipfile would clean up.

    members: list of (name: bytes|str, data: bytes) or dicts with name, data and optionally
    mode (the Unix st_mode put in the external attributes, default a 0644 file).
    """
    import struct
    import zlib

    out, central = bytearray(), bytearray()
    for m in members:
        if not isinstance(m, dict):
            m = {"name": m[0], "data": m[1]}
        name = m["name"].encode() if isinstance(m["name"], str) else m["name"]
        data, mode = m["data"], m.get("mode", 0o100644)
        crc = zlib.crc32(data)
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, len(data), len(data), len(name), 0)
        out += name + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, 20, 0, 0, 0, 0x21, crc, len(data),
                               len(data), len(name), 0, 0, 0, 0, mode << 16, offset)
        central += name
    cd_offset = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central), cd_offset, 0)
    with open(path, "wb") as f:
        f.write(out)


def read_npy(buf):
    """-> (header dict, data bytes) of .npy bytes; the header is a Python literal."""
    import ast
    import struct

    assert buf[:6] == b"\x93NUMPY", buf[:6]
    if buf[6] == 1:
        hl, start = struct.unpack("<H", buf[8:10])[0], 10
    else:
        hl, start = struct.unpack("<I", buf[8:12])[0], 12
    return ast.literal_eval(buf[start:start + hl].decode("latin1")), buf[start + hl:]


NUMPY_NAMES = {"b1": "bool", "i1": "int8", "u1": "uint8", "i2": "int16", "u2": "uint16", "i4": "int32",
               "u4": "uint32", "i8": "int64", "u8": "uint64", "f2": "float16", "f4": "float32",
               "f8": "float64", "c8": "complex64", "c16": "complex128"}


def numpy_dtype_name(descr):
    """What numpy prints for the dtype of an .npy `descr` ("<f4" -> "float32", ">f8" -> ">f8")."""
    if descr[0] in "<|" and descr[1:] in NUMPY_NAMES:
        return NUMPY_NAMES[descr[1:]]
    return descr


def zip_members(path):
    """{name: bytes} of every member, in archive order."""
    import zipfile

    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def reference_read_problems(path):
    """What the reference loader (LoadedZANJ + populate_externals) would trip over, checked with
    the standard library: both JSON members, every externals_info member present, its `path`
    leading to a node whose $ref names it, and npy headers agreeing with the node. -> [problems]"""
    import zipfile

    problems = []
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        if names[:2] != ["__zanj_meta__.json", "__zanj__.json"]:
            problems.append(f"first members are {names[:2]}")
        meta = json.loads(z.read("__zanj_meta__.json"))
        root = json.loads(z.read("__zanj__.json"))
        if z.testzip() is not None:
            problems.append("a member fails its CRC")
        infos = meta["externals_info"]
        loaded = {}
        for member, info in infos.items():
            if member not in names:
                problems.append(f"{member}: not in the archive")
                continue
            ext = member.rsplit(".", 1)[-1]
            if info.get("item_type") != ext:
                problems.append(f"{member}: item_type {info.get('item_type')!r}")
            raw = z.read(member)
            loaded[member] = [json.loads(line) for line in raw.decode().splitlines()] if ext == "jsonl" else raw
        # walk each path (shortest first, through already-populated externals, as the loader does)
        for member, info in sorted(infos.items(), key=lambda kv: len(kv[1]["path"])):
            node = root
            try:
                for key in info["path"]:
                    if isinstance(node, dict) and str(node.get("__muutils_format__", "")).endswith(":external"):
                        node = node["data"]
                    node = node[key]
            except (KeyError, IndexError, TypeError) as e:
                problems.append(f"{member}: path {info['path']} not found ({e!r})")
                continue
            if not isinstance(node, dict) or node.get("$ref") != member:
                problems.append(f"{member}: path {info['path']} leads to {str(node)[:80]}")
                continue
            if member.endswith(".npy"):
                header, data = read_npy(loaded[member])
                n = 1
                for d in header["shape"]:
                    n *= d
                if list(header["shape"]) != node.get("shape") or node.get("n_elements") != n:
                    problems.append(f"{member}: node shape {node.get('shape')} / n_elements {node.get('n_elements')}"
                                    f" vs header {header['shape']}")
                want = numpy_dtype_name(header["descr"])
                dtype = node.get("dtype", "")
                if dtype not in (want, "torch." + want):
                    problems.append(f"{member}: node dtype {dtype!r} vs header {header['descr']!r}")
            node["data"] = loaded[member]
    return problems


def main():
    if not ZANJ or not os.path.exists(ZANJ):
        print("ZANJ must name the built zanj binary", file=sys.stderr)
        sys.exit(2)
    unittest.main(verbosity=1)


# ---------------------------------------------------------------- array values (for `cat` tests)
# The layout numpy gives each dtype name in the corpus: struct format of one element (complex: the
# two parts) and its size. Enough to decode `cat --format raw` output without numpy.
_STRUCT = {"bool": "?", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i", "uint32": "I",
           "int64": "q", "uint64": "Q", "float16": "e", "float32": "f", "float64": "d", "complex64": "ff",
           "complex128": "dd"}
_TORCH = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32",
          "short": "int16"}
_DESCR = {"b1": "bool", "i1": "int8", "u1": "uint8", "i2": "int16", "u2": "uint16", "i4": "int32", "u4": "uint32",
          "i8": "int64", "u8": "uint64", "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64",
          "c16": "complex128"}


def numpy_name(dtype):
    """'torch.float32' -> 'float32', '>f8' -> 'float64'; strings ('<U3', '|S2') stay as they are"""
    if dtype.startswith("torch."):
        name = dtype[len("torch."):]
        return _TORCH.get(name, name)
    if dtype[:1] in "<>|=" and dtype[1:] in _DESCR:
        return _DESCR[dtype[1:]]
    return dtype


def precision(dtype):
    """struct code for comparing floats at the array's own precision, None for exact"""
    name = numpy_name(dtype)
    return {"float16": "e", "float32": "f", "complex64": "f"}.get(name)


def decode_raw(raw, dtype):
    """little-endian C-order bytes -> flat list of Python values (complex as [re, im])"""
    name = numpy_name(dtype)
    if name[:1] in "<>|" and name[1] in "US":
        size = int(name[2:]) * (4 if name[1] == "U" else 1)
        items = [raw[i:i + size] for i in range(0, len(raw), size)]
        if name[1] == "U":
            return [x.decode("utf-32-le").rstrip("\0") for x in items]
        return [x.rstrip(b"\0").decode("latin-1") for x in items]
    code = _STRUCT[name]
    size = struct.calcsize("<" + code)
    values = [struct.unpack_from("<" + code, raw, i) for i in range(0, len(raw), size)]
    return [list(v) if len(v) == 2 else v[0] for v in values]


def nest(flat, shape):
    """a flat C-order list as nested lists of `shape` (a 0-d shape gives the scalar)"""
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0] if shape[0] else 0
    return [nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def same_number(got, want, prec=None):
    if isinstance(want, str) and want in ("nan", "inf", "-inf"):  # the facts spell them so
        want = float(want)
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if not isinstance(got, (int, float)) or not isinstance(want, (int, float)):
        return False
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if got == want:
        return True
    if prec and isinstance(want, float):
        try:
            return struct.pack(prec, got) == struct.pack(prec, want)
        except (OverflowError, struct.error):
            return False
    return False


def json_difference(got, want, where="", prec=None):
    """None when equal (floats compared at `prec`, a dtype's own precision), else where they differ"""
    if isinstance(want, dict):
        if not isinstance(got, dict) or list(got) != list(want):
            return f"{where}: keys {list(got) if isinstance(got, dict) else type(got).__name__} != {list(want)}"
        if isinstance(want.get("dtype"), str):
            prec = precision(want["dtype"])
        for k in want:
            d = json_difference(got[k], want[k], f"{where}/{k}", prec)
            if d:
                return d
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{where}: {str(got)[:80]} != {str(want)[:80]}"
        for i, (a, b) in enumerate(zip(got, want)):
            d = json_difference(a, b, f"{where}/{i}", prec)
            if d:
                return d
        return None
    if isinstance(want, (int, float)) or want in ("nan", "inf", "-inf"):
        return None if same_number(got, want, prec) else f"{where}: {got!r} != {want!r}"
    return None if got == want else f"{where}: {got!r} != {want!r}"


def npy_bytes(descr, shape, data, fortran=False):
    """a .npy member as numpy.save writes it (version 1.0)"""
    dims = "(" + "".join(f"{d}, " for d in shape)[:-2] + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin-1") + data


def read_npy(buf):
    """-> (header dict, data bytes) of a version 1, 2 or 3 .npy stream"""
    if buf[:6] != b"\x93NUMPY":
        raise ValueError("not npy")
    if buf[6] == 1:
        n, start = struct.unpack("<H", buf[8:10])[0], 10
    else:
        n, start = struct.unpack("<I", buf[8:12])[0], 12
    return ast.literal_eval(buf[start:start + n].decode("latin-1")), buf[start + n:]


def write_zanj(path, root, members=None, stored=False):
    """a .zanj archive: `root` (JSON text or an object) as __zanj__.json, then `members` {name: bytes}"""
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", method) as z:
        z.writestr("__zanj_meta__.json", '{"externals_info": {}}')
        z.writestr("__zanj__.json", root if isinstance(root, str) else json.dumps(root))
        for name, data in (members or {}).items():
            z.writestr(name, data)
    return path
