"""Deterministic archives written as the Python ZANJ library's ZANJ().save writes them (standard
library only): Python's zipfile, deflated at its default level, `__zanj_meta__.json` first, then
`__zanj__.json`, then one force_zip64 member per external array, both JSON members indented with
tabs. bench.py uses them for the many-member growth series and the JSON-heavy input."""
import array
import json
import os
import random
import struct
import zipfile

from cat import npy_header

HERE = os.path.dirname(os.path.abspath(__file__))
# The library's own zanj_cfg and sysinfo (about 24 KB of meta): taken from a corpus archive the
# library wrote, so the meta the benchmark parses is as large as a real one.
CORPUS_META = os.path.join(HERE, "..", "tests", "corpus", "basic.zanj")


def library_meta(externals_info):
    with zipfile.ZipFile(CORPUS_META) as z:
        meta = json.loads(z.read("__zanj_meta__.json"))
    meta["externals_info"] = externals_info
    meta["timestamp"] = 0.0
    return meta


def external_array_node(ref, shape, dtype="float32"):
    n = 1
    for d in shape:
        n *= d
    return {"__muutils_format__": "numpy.ndarray:external", "$ref": ref, "shape": shape,
            "dtype": dtype, "n_elements": n}


def external_array_info(path, shape):
    return {"item_type": "npy", "path": path, "type(data)": "<class 'numpy.ndarray'>", "len(data)": shape[0]}


def write_zanj(path, root, externals_info, members):
    """members: (name, bytes) of the external members, written after the JSON members."""
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("__zanj_meta__.json", json.dumps(library_meta(externals_info), indent="\t"))
        z.writestr("__zanj__.json", json.dumps(root, indent="\t"))
        for name, data in members:
            with z.open(name, "w", force_zip64=True) as f:  # as numpy's write_array is handed it
                f.write(data)
    os.replace(tmp, path)


def make_many_members(path, count, elements=16):
    """A dict of `count` external float32 arrays of shape (1, elements), each its own .npy member."""
    if os.path.exists(path):
        return path
    rng = random.Random(count)
    shape = [1, elements]
    header = npy_header("<f4", shape)
    root, externals = {}, {}
    names = []
    for i in range(count):
        key = f"w{i:06d}"
        root[key] = external_array_node(key + ".npy", shape)
        externals[key + ".npy"] = external_array_info([key], shape)
        names.append(key)

    def members():
        for key in names:
            values = array.array("f", (rng.gauss(0, 1) for _ in range(elements)))
            yield key + ".npy", header + values.tobytes()

    write_zanj(path, root, externals, members())
    return path


def _float32(x):
    """x rounded to float32 and printed back as a double, as ndarray.tolist() gives it"""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def json_heavy_entry(i, rng):
    """One small dict of scalars (about 60 bytes, so 20 MB holds some 300,000 of them, as in the
    issue's example); every twentieth also holds a small inline array."""
    entry = {"id": i, "loss": _float32(rng.random())}
    if i % 20 == 0:
        data = [[_float32(rng.gauss(0, 1)) for _ in range(2)] for _ in range(2)]
        entry["w"] = {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": data,
                      "shape": [2, 2], "dtype": "float32", "n_elements": 4}
    return entry


def make_json_heavy(path, target_bytes):
    """A large dict of small dicts and inline arrays, no external members; its `__zanj__.json`
    is about `target_bytes`. -> (path, path of a leaf in the middle, member size in bytes, dicts)"""
    rng = random.Random(14)
    sample = [json_heavy_entry(i, rng) for i in range(1000)]
    per_entry = len(json.dumps({f"r{i:07d}": e for i, e in enumerate(sample)}, indent="\t")) / len(sample)
    count = max(1, int(target_bytes / per_entry))
    leaf = f"r{count // 2:07d}/loss"
    if not os.path.exists(path):
        rng = random.Random(14)
        root = {f"r{i:07d}": json_heavy_entry(i, rng) for i in range(count)}
        write_zanj(path, root, {}, ())
    with zipfile.ZipFile(path) as z:
        size = z.getinfo("__zanj__.json").file_size
    return path, leaf, size, count
