#!/usr/bin/env python3
"""A second implementation of `zanj hash`, written from docs/hash.md alone, with Python's
standard library only: it reads the archive with zipfile, the object with json, and .npy and
.jsonl members as raw bytes. The tests compare its digests with zanj's.

Usage: hashref.py [--algorithm NAME] [--json] FILE...
"""
import ast
import base64
import hashlib
import json
import math
import struct
import sys
import zipfile

FORMAT_KEY = "__muutils_format__"
NUMPY_NAMES = {
    "bool": ("b", 1), "int8": ("i", 1), "int16": ("i", 2), "int32": ("i", 4), "int64": ("i", 8),
    "uint8": ("u", 1), "uint16": ("u", 2), "uint32": ("u", 4), "uint64": ("u", 8),
    "float16": ("f", 2), "float32": ("f", 4), "float64": ("f", 8),
    "complex64": ("c", 8), "complex128": ("c", 16),
}
TORCH_ALIASES = {"float": "float32", "double": "float64", "half": "float16",
                 "long": "int64", "int": "int32", "short": "int16"}
CANONICAL_NAN = {2: b"\x00\x7e", 4: b"\x00\x00\xc0\x7f", 8: b"\x00\x00\x00\x00\x00\x00\xf8\x7f"}


def u64(n):
    return struct.pack("<Q", n)


def text(s):
    b = s.encode("utf-8", "surrogatepass") if isinstance(s, str) else s
    return u64(len(b)) + b


class Dtype:
    """kind is one of b i u f c S U; size is bytes per element; big tells the stored order."""

    def __init__(self, kind, size, big=False):
        self.kind, self.size, self.big = kind, size, big

    def descr(self):
        single = self.kind in "bS" or (self.kind in "iu" and self.size == 1)
        count = self.size // 4 if self.kind == "U" else self.size
        return ("|" if single else "<") + self.kind + str(count)

    def unit(self):
        """Bytes swapped together when the stored order is big-endian."""
        return {"c": self.size // 2, "U": 4}.get(self.kind, 1 if self.kind in "bS" else self.size)


def parse_typestring(s):
    order, rest = (s[0], s[1:]) if s[0] in "<>|=" else ("=", s)
    kind, count = rest[0], int(rest[1:])
    kind = "S" if kind == "a" else kind
    return Dtype(kind, count * 4 if kind == "U" else count, order == ">")


def parse_dtype_name(name):
    if name.startswith("torch."):
        name = TORCH_ALIASES.get(name[6:], name[6:])
    if name in NUMPY_NAMES:
        return Dtype(*NUMPY_NAMES[name])
    return parse_typestring(name)


def to_little_endian(data, dtype):
    if not dtype.big or dtype.unit() == 1:
        return data
    u = dtype.unit()
    return b"".join(data[i:i + u][::-1] for i in range(0, len(data), u))


def canonical_nans(data, dtype):
    """Every NaN as the one quiet NaN of its width; every bool byte that is not 00 as 01."""
    if dtype.kind == "b":
        return bytes(1 if b else 0 for b in data)
    if dtype.kind not in "fc":
        return data
    width = dtype.size // 2 if dtype.kind == "c" else dtype.size
    fmt = {2: "<e", 4: "<f", 8: "<d"}[width]
    out = bytearray(data)
    for i in range(0, len(out), width):
        if math.isnan(struct.unpack(fmt, bytes(out[i:i + width]))[0]):
            out[i:i + width] = CANONICAL_NAN[width]
    return bytes(out)


def element_bytes(value, dtype):
    """One element of an inline list-mode array, from its JSON value."""
    k, n = dtype.kind, dtype.size
    if k == "b":
        return b"\x01" if value else b"\x00"
    if k in "iu":
        return int(value).to_bytes(n, "little", signed=(k == "i"))
    if k == "f":
        return struct.pack({2: "<e", 4: "<f", 8: "<d"}[n], float(value))
    if k == "c":
        re, im = (value if isinstance(value, list) else (value, 0))
        f = "<f" if n == 8 else "<d"
        return struct.pack(f, float(re)) + struct.pack(f, float(im))
    if k == "U":
        return value.encode("utf-32-le").ljust(n, b"\x00")
    if k == "S":
        return value.encode("latin-1").ljust(n, b"\x00")
    raise ValueError("unsupported dtype " + k)


def flatten(data):
    if isinstance(data, list):
        for x in data:
            yield from flatten(x)
    else:
        yield data


def read_npy(raw):
    assert raw[:6] == b"\x93NUMPY"
    major = raw[6]
    if major == 1:
        (hlen,), start = struct.unpack("<H", raw[8:10]), 10
    else:
        (hlen,), start = struct.unpack("<I", raw[8:12]), 12
    header = ast.literal_eval(raw[start:start + hlen].decode("utf-8"))
    dtype = parse_typestring(header["descr"])
    shape = list(header["shape"])
    count = math.prod(shape)
    data = raw[start + hlen:start + hlen + count * dtype.size]
    data = to_little_endian(data, dtype)
    if header["fortran_order"] and len(shape) > 1:
        data = fortran_to_c(data, shape, dtype.size)
    return dtype, shape, data


def fortran_to_c(data, shape, size):
    strides, s = [], 1
    for d in shape:
        strides.append(s)
        s *= d
    out = bytearray()
    index = [0] * len(shape)
    for _ in range(math.prod(shape)):
        off = sum(i * st for i, st in zip(index, strides)) * size
        out += data[off:off + size]
        for axis in reversed(range(len(shape))):
            index[axis] += 1
            if index[axis] < shape[axis]:
                break
            index[axis] = 0
    return bytes(out)


class Hasher:
    def __init__(self, archive, algorithm):
        self.zip, self.algorithm = archive, algorithm
        self.nodes = []

    def h(self, message):
        return hashlib.new(self.algorithm, message).digest()

    def node(self, value, path, tree):
        slot = len(self.nodes)
        if tree:
            self.nodes.append([path, self.kind(value), None])
        d = self.digest(value, path, tree)
        if tree:
            self.nodes[slot][2] = d.hex()
        return d

    @staticmethod
    def kind(value):
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, (int, float)):
            return "number"
        if isinstance(value, str):
            return "string"
        if isinstance(value, list):
            return "list"
        if FORMAT_KEY not in value:
            return "dict"
        fmt = format_text(value[FORMAT_KEY])
        if array_format(fmt):
            return "array"
        if fmt in ("list:external", "tuple:external"):
            return "external_list"
        if fmt.endswith("DataFrame:external"):
            return "table"
        if fmt.endswith("(SerializableDataclass)"):
            return "dataclass"
        return "other"

    def digest(self, value, path, tree):
        kind = self.kind(value)
        if kind == "null":
            return self.h(b"n")
        if kind == "bool":
            return self.h(b"t" if value else b"f")
        if kind == "number" and isinstance(value, int):
            return self.h(b"i" + str(value).encode())
        if kind == "number":
            bits = CANONICAL_NAN[8] if math.isnan(value) else struct.pack("<d", value)
            return self.h(b"r" + bits)
        if kind == "string":
            return self.h(b"s" + value.encode("utf-8", "surrogatepass"))
        if kind == "list":
            items_tree = tree and any(isinstance(x, (list, dict)) for x in value)
            return self.h(b"l" + b"".join(self.node(x, child(path, str(i)), items_tree) for i, x in enumerate(value)))
        if kind in ("dict", "dataclass", "other"):
            msg = b"d" if kind == "dict" else b"o" + text(format_text(value[FORMAT_KEY]))
            children = [(k, self.node(v, child(path, k), tree)) for k, v in value.items() if k != FORMAT_KEY]
            for k, d in sorted(children, key=lambda kd: kd[0].encode("utf-8", "surrogatepass")):
                msg += text(k) + d
            return self.h(msg)
        if kind == "array":
            return self.array(value)
        lines = self.zip.read(value["$ref"]).split(b"\n")
        items = [json.loads(line) for line in lines if line]
        if kind == "external_list":
            return self.h(b"l" + b"".join(self.digest(x, path, False) for x in items))
        if value[FORMAT_KEY].startswith("pandas.DataFrame"):
            return self.pandas_table(value, items, path)
        msg = b"T" + text(value[FORMAT_KEY].rsplit(":", 1)[0]) + u64(len(value["columns"]))
        for c in value["columns"]:
            msg += text(c if isinstance(c, str) else json.dumps(c))
        return self.h(msg + b"".join(self.digest(r, path, False) for r in items))

    def pandas_table(self, node, rows, path):
        """The frame pandas.DataFrame(rows) builds (docs/hash.md, "Tables")."""
        if not rows:
            columns = [(c if isinstance(c, str) else json.dumps(c), "object") for c in node.get("columns", [])]
        else:
            names = []
            for r in rows:
                if not isinstance(r, dict):
                    raise ValueError("a table row that is not an object")
                names += [k for k in r if k not in names]
            columns = [(c, frame_dtype([r.get(c, MISSING) for r in rows])) for c in names]
        msg = b"T" + text(node[FORMAT_KEY].rsplit(":", 1)[0]) + u64(len(columns))
        for name, dtype in columns:
            msg += text(name) + text(dtype)
        for r in rows:
            cells = b""
            for name, dtype in columns:
                v = r.get(name, MISSING)
                if v is MISSING or (dtype == "float64" and v is None):
                    v = math.nan
                elif dtype == "float64":
                    v = float(v)
                cells += self.digest(v, path, False)
            msg += self.h(b"l" + cells)
        return self.h(msg)

    def array(self, node):
        fmt = node[FORMAT_KEY]
        mode = array_format(fmt)
        if mode == "external":
            dtype, shape, data = read_npy(self.zip.read(node["$ref"]))
        else:
            dtype, shape = parse_dtype_name(node["dtype"]), list(node["shape"])
            raw = node["data"]
            if mode == "array_hex_meta":
                data = bytes.fromhex(raw)
            elif mode == "array_b64_meta":
                data = base64.b64decode(raw)
            else:
                data = b"".join(element_bytes(x, dtype) for x in flatten(raw))
            data = to_little_endian(data, dtype)
        msg = b"a" + text(fmt.split(":", 1)[0]) + text(dtype.descr()) + u64(len(shape))
        msg += b"".join(u64(d) for d in shape)
        return self.h(msg + canonical_nans(data, dtype))


MISSING = object()


def frame_dtype(cells):
    """The dtype pandas infers for a column of these cells (MISSING: a row without the key)."""
    null = nan = boolean = real = integer = uint = sint = False
    for v in cells:
        if v is MISSING:
            nan = True
        elif v is None:
            null = True
        elif isinstance(v, bool):
            boolean = True
        elif isinstance(v, float):
            real = True
        elif isinstance(v, int):
            integer = True
            if not null:
                uint = uint or 2 ** 63 <= v < 2 ** 64
                sint = sint or -2 ** 63 <= v < 0
                if (uint and sint) or not -2 ** 63 <= v < 2 ** 64:
                    return "object"
        else:
            return "object"
    if null or nan:
        return "float64" if not boolean and (real or integer or nan) else "object"
    if boolean:
        return "bool" if not (real or integer) else "object"
    if real:
        return "float64"
    return "uint64" if uint else "int64"


def format_text(fmt):
    """A format that is not a string counts as its compact JSON text."""
    return fmt if isinstance(fmt, str) else json.dumps(fmt)


def array_format(fmt):
    kind, _, mode = fmt.partition(":")
    modes = ("external", "array_list_meta", "array_hex_meta", "array_b64_meta", "zero_dim")
    return mode if kind in ("numpy.ndarray", "torch.Tensor") and mode in modes else None


def escape(segment):
    """An object path segment as zanj prints it: ~0, ~1, ~e, and ~xNN for each UTF-8 byte of
    a control character (C0, DEL, C1)."""
    out = ""
    for ch in segment:
        if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F:
            out += "".join(f"~x{b:02X}" for b in ch.encode("utf-8"))
        else:
            out += {"~": "~0", "/": "~1"}.get(ch, ch)
    return out or "~e"


def child(path, segment):
    return (path + "/" if path else "") + escape(segment)


def hash_file(path, algorithm="sha256"):
    with zipfile.ZipFile(path) as archive:
        root = json.loads(archive.read("__zanj__.json"))
        hasher = Hasher(archive, algorithm)
        digest = hasher.node(root, "", True).hex()
        return digest, [{"path": p, "kind": k, "digest": d} for p, k, d in hasher.nodes]


def main(argv):
    algorithm, as_json = "sha256", False
    if "--algorithm" in argv:
        i = argv.index("--algorithm")
        algorithm = argv[i + 1]
        del argv[i:i + 2]
    if "--json" in argv:
        argv.remove("--json")
        as_json = True
    for f in argv:
        digest, nodes = hash_file(f, algorithm)
        print(json.dumps({"file": f, "digest": digest, "nodes": nodes}) if as_json else f"{digest}  {f}")


if __name__ == "__main__":
    main(sys.argv[1:])
