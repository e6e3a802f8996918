#!/usr/bin/python3
"""Write the archives of tests/corpus/releases/ with old releases of the ZANJ library, and
record beside each what the release that wrote it loads back (NAME.facts.json).

Run once, by hand, with Debian's interpreter (numpy, pandas and torch from apt):

    /usr/bin/python3 tests/corpus/releases/make_releases.py [--only LABEL ...]

It takes each release's package out of the fetched histories of mivanit/ZANJ and
mivanit/muutils (git archive of a tag into a temporary folder; nothing fetched is committed)
and runs this same script once per release with that folder on PYTHONPATH. The archives and
facts it writes are data, committed; CI only reads them.

Objects: `make_objects()` below. Settings: `RELEASES` (which tags, which array modes).
"""
import argparse
import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MUUTILS_GIT = "/work/.mirror/mivanit+muutils/repo"
ZANJ_GIT = "/work/.mirror/mivanit+ZANJ/repo"

# label -> (muutils tag, zanj tag or None when muutils still held zanj, array modes written).
# Each release is paired with the newest muutils its pyproject allowed.
RELEASES = {
    # muutils 0.2.x (February 2023), the first zanj: "external:npy" / "external:jsonl" nodes,
    # bare "array_list_meta" / "array_hex_meta" formats, externals_info item_type "ndarray"
    "muutils-0.2.2": ("0.2.2", None, ["array_list_meta", "array_hex_meta"]),
    # muutils.zanj, before ZANJ was its own package (the 2023 checkpoints' era)
    "muutils-0.3.14": ("0.3.14", None, ["array_list_meta", "array_hex_meta"]),
    # ZANJ 0.1.0 needs muutils ^0.4.0
    "zanj-0.1.0": ("0.4.4", "0.1.0", ["array_list_meta", "array_hex_meta"]),
    # ZANJ 0.2.3 needs muutils >=0.5.1,<0.7.0
    "zanj-0.2.3": ("0.5.12", "0.2.3", ["array_list_meta", "array_hex_meta"]),
    # ZANJ 0.3.1 needs muutils ^0.6.1 (the last "__format__" release pair, mid-2024)
    "zanj-0.3.1": ("v0.6.21", "v0.3.1", ["array_list_meta", "array_hex_meta", "array_b64_meta"]),
    # ZANJ 0.4.0 needs muutils >=0.8.0: the first "__muutils_format__" release
    "zanj-0.4.0": ("v0.8.0", "v0.4.0", ["array_list_meta", "array_b64_meta"]),
    # today's library: externals inside external-list rows, and the polars handler
    "zanj-0.6.0": ("v0.9.1", "v0.6.0", ["array_list_meta"]),
}


# Shims for what old releases import but Debian 12 lacks. They touch no value the archives hold.
SHIMS = {
    # muutils.tensor_utils uses jaxtyping only to build type annotations
    "jaxtyping.py": '''"""Stand-in for jaxtyping (not in Debian 12): annotations only."""
class _Dtype:
    def __class_getitem__(cls, params):
        return params[0] if isinstance(params, tuple) else params
class Float(_Dtype): pass
class Int(_Dtype): pass
class Bool(_Dtype): pass
class Shaped(_Dtype): pass
''',
}


def extract(git_dir, tag, folder, dest):
    os.makedirs(dest, exist_ok=True)
    tar = subprocess.run(["git", "--git-dir", git_dir, "archive", tag, folder], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=tar, check=True)


# --------------------------------------------------------------------------------------------
# Inside one release's interpreter


def make_objects(np, pd, torch):
    """name -> (object, ZANJ() keyword settings that differ from the release's defaults)"""
    rng = np.random.default_rng(25)
    main = {
        "config": {"name": "run-25", "lr": 0.001, "layers": [64, 64], "flag": True, "nothing": None},
        "small_int": np.arange(6, dtype=np.int32).reshape(2, 3),
        "small_float": rng.standard_normal((3, 4)).astype(np.float32),
        "flags": np.array([True, False, True]),
        "scalar": np.array(2.5),
        "weights": rng.standard_normal((32, 16)).astype(np.float32),
        "counts": np.arange(300, dtype=np.int64),
        "nested": {"deeper": {"matrix": rng.standard_normal((20, 20))}},
        "long_list": list(range(300)),
        "records": [{"id": i, "name": f"r{i}", "score": i * 0.5} for i in range(260)],
        "table": pd.DataFrame(
            {"a": list(range(300)), "b": [i * 0.25 for i in range(300)], "c": [f"s{i}" for i in range(300)]}
        ),
        "small_table": pd.DataFrame({"x": [1, 2, 3], "y": ["a", "b", "c"]}),
    }
    if torch is not None:
        gen = torch.Generator().manual_seed(25)
        main["torch_small"] = torch.arange(12, dtype=torch.float32).reshape(3, 4)
        main["torch_weights"] = torch.randn(16, 32, generator=gen)
        main["torch_ints"] = torch.arange(300, dtype=torch.int64)
    rows = {
        # a list long enough to go external whose rows each hold an external array
        "samples": [
            {"label": i, "arr": rng.standard_normal((20, 16)).astype(np.float32)} for i in range(10)
        ],
        "note": "rows holding arrays",
    }
    objects = {"main": (main, {}), "rows": (rows, {"external_list_threshold": 8})}
    objects.update(today_objects(np))
    return objects


class PolarsStandIn:
    """polars is not in Debian 12: this stands in for a polars.DataFrame where ZANJ 0.6.0's
    handler looks (its module name contains "polars", its class is named DataFrame; it has
    `columns` and `to_dicts()`), so the real handler writes the archive exactly as it would
    for polars: a "polars.DataFrame:external" node and a .jsonl member of row objects."""

    def __init__(self, columns):
        self._columns = columns

    @property
    def columns(self):
        return list(self._columns)

    def to_dicts(self):
        n = len(next(iter(self._columns.values())))
        return [{k: v[i] for k, v in self._columns.items()} for i in range(n)]

    def __len__(self):
        return len(next(iter(self._columns.values())))


PolarsStandIn.__name__ = "DataFrame"
PolarsStandIn.__qualname__ = "DataFrame"
PolarsStandIn.__module__ = "polars.dataframe.frame"


def today_objects(np):
    """Objects only today's library (muutils >= 0.9) writes: ZANJ's own nested-populate test
    object (tests/unit/no_torch/test_zanj_populate_nested.py of ZANJ 0.6.0: 20 dataclass rows
    in a .jsonl member, each with its own external .npy) and a polars table."""
    try:
        from muutils.json_serialize import SerializableDataclass, serializable_dataclass, serializable_field
        import zanj.serializing  # noqa: F401  (0.6.0 has the polars handler)
    except ImportError:
        return {}
    if not hasattr(zanj, "__file__") or "polars" not in open(zanj.serializing.__file__).read():
        return {}
    import typing

    @serializable_dataclass
    class InnerClassWithArray(SerializableDataclass):
        some_string: str
        arr_numbers: np.ndarray

    @serializable_dataclass
    class OuterClassWithNestedList(SerializableDataclass):
        name: str
        lst_basic: typing.List[InnerClassWithArray] = serializable_field(
            serialization_fn=lambda x: [b.serialize() for b in x],
            loading_fn=lambda x: [InnerClassWithArray.load(b) for b in x["lst_basic"]],
        )

    globals()["InnerClassWithArray"] = InnerClassWithArray
    globals()["OuterClassWithNestedList"] = OuterClassWithNestedList
    rng = np.random.default_rng(0)
    nested = OuterClassWithNestedList(
        name="hello",
        lst_basic=[InnerClassWithArray(some_string=f"hello_{i}", arr_numbers=rng.random(20)) for i in range(20)],
    )
    table = PolarsStandIn({"step": list(range(300)), "loss": [1.0 / (i + 1) for i in range(300)],
                           "tag": [f"t{i % 7}" for i in range(300)]})
    return {
        "populate_nested": (nested, {"external_array_threshold": 10, "external_list_threshold": 10}),
        "polars": ({"log": table, "note": "polars table"}, {}),
    }


def sha256_le(np, arr):
    a = np.ascontiguousarray(arr)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return hashlib.sha256(a.tobytes()).hexdigest()


def jsonable(value):
    """A loaded scalar or record as JSON (NaN and infinities as strings)."""
    import math

    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "item") and not hasattr(value, "shape"):
        return value.item()
    return value


def loaded_facts(np, pd, torch, obj, path, out):
    """What the release's loader returned, node by node (path: keys and indices)."""
    if type(obj).__name__ in ("ZANJLoaderTreeNode", "LoadedZANJ"):
        # muutils 0.2.x: a lazy view that applies the loaders as items are taken; what it
        # gives for each key (or index of a list) is the loaded value.
        data = obj._data if hasattr(obj, "_data") else obj._json_data._data
        view = obj if hasattr(obj, "_data") else obj._json_data
        obj = [view[i] for i in range(len(data))] if isinstance(data, list) else {k: view[k] for k in data}
    if isinstance(obj, np.ndarray):
        out["arrays"].append(
            {"path": path, "type": "numpy.ndarray", "dtype": str(obj.dtype), "shape": list(obj.shape),
             "sha256_c_order_le": sha256_le(np, obj)}
        )
    elif torch is not None and isinstance(obj, torch.Tensor):
        a = obj.detach().cpu().numpy()
        out["arrays"].append(
            {"path": path, "type": "torch.Tensor", "dtype": str(obj.dtype), "shape": list(obj.shape),
             "sha256_c_order_le": sha256_le(np, a)}
        )
    elif isinstance(obj, pd.DataFrame):
        out["tables"].append(
            {"path": path, "columns": [str(c) for c in obj.columns], "rows": len(obj),
             "records": jsonable(obj.to_dict(orient="records"))}
        )
    elif isinstance(obj, PolarsStandIn) or type(obj).__name__ == "DataFrame" and hasattr(obj, "to_dicts"):
        records = obj.to_dicts()
        out["tables"].append({"path": path, "columns": list(obj.columns), "rows": len(records),
                              "records": jsonable(records)})
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out["dicts"].append({"path": path, "keys": [f.name for f in dataclasses.fields(obj)],
                             "dataclass": type(obj).__name__})
        for f in dataclasses.fields(obj):
            loaded_facts(np, pd, torch, getattr(obj, f.name), path + [f.name], out)
    elif isinstance(obj, dict):
        out["dicts"].append({"path": path, "keys": [str(k) for k in obj.keys()]})
        for k, v in obj.items():
            loaded_facts(np, pd, torch, v, path + [k], out)
    elif isinstance(obj, (list, tuple)):
        out["lists"].append({"path": path, "type": type(obj).__name__, "length": len(obj)})
        for i, v in enumerate(obj):
            loaded_facts(np, pd, torch, v, path + [i], out)
    else:
        out["scalars"].append({"path": path, "value": jsonable(obj)})


def first_generation(label):
    """muutils 0.2.x: its ZANJ() calls the list threshold external_table_threshold, its
    read() returns a lazy mapping whose default (lazy) externals loader fails on every archive
    (AttributeError: it reads each externals_info entry as an object), and it cannot load
    torch tensors it stored inline (np.array(..., dtype="torch.float32"))."""
    return label.startswith("muutils-0.2")


def run_release(label, outdir):
    import numpy as np
    import pandas as pd

    try:
        import torch
    except ImportError:
        torch = None
    muutils_tag, zanj_tag, modes = RELEASES[label]
    if zanj_tag is None:
        from muutils.zanj import ZANJ
    else:
        from zanj import ZANJ
    written = []
    objects = make_objects(np, pd, None if first_generation(label) else torch)
    if first_generation(label):
        # Its loader reads list rows as plain JSON: arrays inside rows stay wrapper dicts.
        objects = {"main": objects["main"]}
    for obj_name, (obj, settings) in objects.items():
        for mode in modes if obj_name == "main" else modes[:1]:
            name = f"{label}_{obj_name}" + ("" if mode == "array_list_meta" else "_" + mode.split("_")[1])
            path = os.path.join(outdir, name + ".zanj")
            kwargs = dict(settings, internal_array_mode=mode)
            if first_generation(label) and "external_list_threshold" in kwargs:
                kwargs["external_table_threshold"] = kwargs.pop("external_list_threshold")
            z = ZANJ(**kwargs)
            z.save(obj, path)
            facts = {
                "made_by": {
                    "release": label, "muutils_tag": muutils_tag, "zanj_tag": zanj_tag,
                    "python": sys.version.split()[0], "numpy": np.__version__, "pandas": pd.__version__,
                    "torch": torch.__version__ if torch is not None else None,
                    "script": "tests/corpus/releases/make_releases.py",
                },
                "saved_with": kwargs,
            }
            with zipfile.ZipFile(path) as zf:
                facts["members"] = [
                    {"name": i.filename, "size": i.file_size, "compressed_size": i.compress_size,
                     "crc32": i.CRC, "method": i.compress_type} for i in zf.infolist()
                ]
                meta = json.loads(zf.read("__zanj_meta__.json"))
                main_text = zf.read("__zanj__.json").decode()
            facts["format_key"] = "__muutils_format__" if '"__muutils_format__"' in main_text else "__format__"
            facts["meta_keys"] = sorted(meta.keys())
            facts["externals_info"] = {
                k: {"item_type": v["item_type"], "path": v["path"], "fields": sorted(v.keys())}
                for k, v in meta.get("externals_info", {}).items()
            }
            loaded = {"arrays": [], "tables": [], "lists": [], "dicts": [], "scalars": []}
            if obj_name == "polars":
                # Without polars the loader cannot build the table; what polars.DataFrame(rows)
                # would hold is the stand-in's rows and columns, recorded from it.
                loaded_facts(np, pd, torch, obj, [], loaded)
                facts["reference_reads_back"] = None
                facts["note"] = ("hand-built: polars is not in Debian 12, so a stand-in class went through "
                                 "ZANJ 0.6.0's polars handler; loaded facts are the stand-in's rows")
            else:
                try:
                    if first_generation(label):
                        back = ZANJ(**kwargs).read(path, externals_mode="full")
                        facts["read_with"] = "read(path, externals_mode='full'): the default lazy mode fails on every archive"
                    else:
                        back = ZANJ(**kwargs).read(path)
                    loaded_facts(np, pd, torch, back, [], loaded)
                    facts["reference_reads_back"] = True
                except Exception as e:  # the release cannot read its own archive: say so
                    facts["reference_reads_back"] = False
                    facts["read_error"] = f"{type(e).__name__}: {e}"[:500]
            facts["loaded"] = loaded
            with open(os.path.join(outdir, name + ".facts.json"), "w") as f:
                json.dump(facts, f, indent=1, sort_keys=True)
                f.write("\n")
            written.append(name)
    print(label, "->", ", ".join(written))


# --------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--in-release")  # internal: run inside one release's PYTHONPATH
    ap.add_argument("--out", default=HERE)
    args = ap.parse_args()
    if args.in_release:
        run_release(args.in_release, args.out)
        return
    for label, (muutils_tag, zanj_tag, _) in RELEASES.items():
        if args.only and label not in args.only:
            continue
        tmp = tempfile.mkdtemp(prefix=f"zanj-release-{label}-")
        try:
            extract(MUUTILS_GIT, muutils_tag, "muutils", tmp)
            if zanj_tag is not None:
                extract(ZANJ_GIT, zanj_tag, "zanj", tmp)
            for shim, text in SHIMS.items():
                with open(os.path.join(tmp, shim), "w") as f:
                    f.write(text)
            env = dict(os.environ, PYTHONPATH=tmp, PYTHONHASHSEED="0")
            r = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--in-release", label, "--out", args.out],
                env=env, cwd=tmp,
            )
            if r.returncode:
                print(f"{label}: FAILED (exit {r.returncode})", file=sys.stderr)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
