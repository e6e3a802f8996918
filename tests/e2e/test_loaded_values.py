"""End-to-end (issue 26): answers that are the reference loader's. `zanj hash` digests what ZANJ's
loader returns (numpy, pandas), `diff` compares the same, `stats` and `report` never turn finite
data into NaN, `extract --salvage` refuses a member whose end it cannot tell, and no message is
cut at a NUL in a name. Every archive is built here; what numpy and pandas return for it is
recorded below (numpy 1.24.2, pandas 1.5.3, Debian 12's), and checked again when this Python has
them (it does not in CI)."""
import base64
import io
import json
import math
import os
import random
import struct
import sys
import tempfile
import zipfile
import zlib
from fractions import Fraction

from common import (ZanjTest, external_array, inline_array, jsonl_bytes, main, npy_bytes, run,
                    write_reference_zanj)

sys.path.insert(0, os.path.dirname(__file__))
import hashref  # noqa: E402
import zipgen  # noqa: E402

try:  # only to check the recorded facts again; CI's Python has neither
    import numpy
    import pandas
except ImportError:
    numpy = pandas = None

NAN = float("nan")

# np.frombuffer(stored, dtype=bool).tolist(): numpy reads any nonzero byte as True.
NUMPY_BOOLS = {"0200": [True, False], "ff00": [True, False], "0100": [True, False]}

# np.load of an .npy of shape (0, 2**62), float64: ValueError("array is too big; ...").
NUMPY_TOO_BIG = "ValueError"

# Each table: (rows, the node's "columns"), loaded by ZANJ as pandas.DataFrame(rows), or
# pandas.DataFrame(columns=columns) without rows.
TABLE_CASES = {
    "ab": ([{"a": 1, "b": 2}, {"a": 3, "b": 4}], ["a", "b"]),
    "ba_rows": ([{"b": 2, "a": 1}, {"b": 4, "a": 3}], ["a", "b"]),
    "ab_columns_ba": ([{"a": 1, "b": 2}, {"a": 3, "b": 4}], ["b", "a"]),
    "ab_extra_key": ([{"a": 1, "b": 2}, {"a": 3, "b": 4, "z": None}], ["a", "b"]),
    "float_int": ([{"a": 1.5}, {"a": 1}], ["a"]),
    "float_float": ([{"a": 1.5}, {"a": 1.0}], ["a"]),
    "int_only": ([{"a": 1}, {"a": 2}], ["a"]),
    "float_only": ([{"a": 1.0}, {"a": 2.0}], ["a"]),
    "float_null": ([{"a": 1.5}, {"a": None}], ["a"]),
    "float_nan": ([{"a": 1.5}, {"a": NAN}], ["a"]),
    "float_missing": ([{"a": 1.5}, {}], ["a"]),
    "str_null": ([{"a": "x"}, {"a": None}], ["a"]),
    "str_missing": ([{"a": "x"}, {}], ["a"]),
    "bool_only": ([{"a": True}, {"a": False}], ["a"]),
    "bool_null": ([{"a": True}, {"a": None}], ["a"]),
    "bool_missing": ([{"a": True}, {}], ["a"]),
    "bool_int": ([{"a": True}, {"a": 1}], ["a"]),
    "uint": ([{"a": 2 ** 63}, {"a": 1}], ["a"]),
    "uint_sint": ([{"a": 2 ** 63}, {"a": -1}], ["a"]),
    "null_then_big": ([{"a": None}, {"a": 2 ** 70}], ["a"]),
    "big_then_null": ([{"a": 2 ** 70}, {"a": None}], ["a"]),
    "nulls": ([{"a": None}, {"a": None}], ["a"]),
    "null_missing": ([{"a": None}, {}], ["a"]),
    "nested": ([{"a": [1, 2]}, {"a": {"k": 1}}], ["a"]),
    "dup_key": ([{"a": 1, "b": 2}], ["a", "b"]),  # written as {"a": 0, "b": 2, "a": 1}
    "later_column": ([{"a": 1}, {"b": 2.5, "a": 2}], ["a", "b"]),
    "empty": ([], ["a", "b"]),
    "empty_ba": ([], ["b", "a"]),
}

# What pandas built from each (columns, dtypes, and each column's cells as [type, repr]).
PANDAS_FRAMES = {
    "ab": {"cells": [[["int", "1"], ["int", "3"]], [["int", "2"], ["int", "4"]]], "columns": ["a", "b"], "dtypes": ["int64", "int64"]},
    "ab_columns_ba": {"cells": [[["int", "1"], ["int", "3"]], [["int", "2"], ["int", "4"]]], "columns": ["a", "b"], "dtypes": ["int64", "int64"]},
    "ab_extra_key": {"cells": [[["int", "1"], ["int", "3"]], [["int", "2"], ["int", "4"]], [["nan", "nan"], ["nan", "nan"]]], "columns": ["a", "b", "z"], "dtypes": ["int64", "int64", "float64"]},
    "ba_rows": {"cells": [[["int", "2"], ["int", "4"]], [["int", "1"], ["int", "3"]]], "columns": ["b", "a"], "dtypes": ["int64", "int64"]},
    "big_then_null": {"cells": [[["int", "1180591620717411303424"], ["NoneType", "None"]]], "columns": ["a"], "dtypes": ["object"]},
    "bool_int": {"cells": [[["bool", "True"], ["int", "1"]]], "columns": ["a"], "dtypes": ["object"]},
    "bool_missing": {"cells": [[["bool", "True"], ["nan", "nan"]]], "columns": ["a"], "dtypes": ["object"]},
    "bool_null": {"cells": [[["bool", "True"], ["NoneType", "None"]]], "columns": ["a"], "dtypes": ["object"]},
    "bool_only": {"cells": [[["bool", "True"], ["bool", "False"]]], "columns": ["a"], "dtypes": ["bool"]},
    "dup_key": {"cells": [[["int", "1"]], [["int", "2"]]], "columns": ["a", "b"], "dtypes": ["int64", "int64"]},
    "empty": {"cells": [[], []], "columns": ["a", "b"], "dtypes": ["object", "object"]},
    "empty_ba": {"cells": [[], []], "columns": ["b", "a"], "dtypes": ["object", "object"]},
    "float_float": {"cells": [[["float", "1.5"], ["float", "1.0"]]], "columns": ["a"], "dtypes": ["float64"]},
    "float_int": {"cells": [[["float", "1.5"], ["float", "1.0"]]], "columns": ["a"], "dtypes": ["float64"]},
    "float_missing": {"cells": [[["float", "1.5"], ["nan", "nan"]]], "columns": ["a"], "dtypes": ["float64"]},
    "float_nan": {"cells": [[["float", "1.5"], ["nan", "nan"]]], "columns": ["a"], "dtypes": ["float64"]},
    "float_null": {"cells": [[["float", "1.5"], ["nan", "nan"]]], "columns": ["a"], "dtypes": ["float64"]},
    "float_only": {"cells": [[["float", "1.0"], ["float", "2.0"]]], "columns": ["a"], "dtypes": ["float64"]},
    "int_only": {"cells": [[["int", "1"], ["int", "2"]]], "columns": ["a"], "dtypes": ["int64"]},
    "later_column": {"cells": [[["int", "1"], ["int", "2"]], [["nan", "nan"], ["float", "2.5"]]], "columns": ["a", "b"], "dtypes": ["int64", "float64"]},
    "nested": {"cells": [[["list", "[1, 2]"], ["dict", "{'k': 1}"]]], "columns": ["a"], "dtypes": ["object"]},
    "null_missing": {"cells": [[["nan", "nan"], ["nan", "nan"]]], "columns": ["a"], "dtypes": ["float64"]},
    "null_then_big": {"cells": [[["nan", "nan"], ["float", "1.1805916207174113e+21"]]], "columns": ["a"], "dtypes": ["float64"]},
    "nulls": {"cells": [[["NoneType", "None"], ["NoneType", "None"]]], "columns": ["a"], "dtypes": ["object"]},
    "str_missing": {"cells": [[["str", "'x'"], ["nan", "nan"]]], "columns": ["a"], "dtypes": ["object"]},
    "str_null": {"cells": [[["str", "'x'"], ["NoneType", "None"]]], "columns": ["a"], "dtypes": ["object"]},
    "uint": {"cells": [[["int", "9223372036854775808"], ["int", "1"]]], "columns": ["a"], "dtypes": ["uint64"]},
    "uint_sint": {"cells": [[["int", "9223372036854775808"], ["int", "-1"]]], "columns": ["a"], "dtypes": ["object"]},
}


def loaded_frame(name):
    rows, columns = TABLE_CASES[name]
    if pandas is None:
        return PANDAS_FRAMES[name]

    def cell(v):
        return ["nan", "nan"] if isinstance(v, float) and math.isnan(v) else [type(v).__name__, repr(v)]
    df = pandas.DataFrame(rows) if rows else pandas.DataFrame(columns=columns)
    return {"columns": [str(c) for c in df.columns], "dtypes": [str(d) for d in df.dtypes],
            "cells": [[cell(v) for v in df.iloc[:, i].astype(object).tolist()] for i in range(len(df.columns))]}


def exact_std(values):
    """The population standard deviation, exactly (fractions), rounded to a double."""
    xs = [Fraction(v) for v in values]
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / len(xs)
    # sqrt(p/q) to at least 80 significant bits: isqrt(p * 4^k / q) / 2^k
    k = max(0, 80 - (var.numerator.bit_length() - var.denominator.bit_length()) // 2)
    root = math.isqrt((var.numerator << (2 * k)) // var.denominator)
    return float(Fraction(root, 1 << k))


class LoadedValues(ZanjTest):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def digest(self, path):
        r = self.assertOk(run("hash", path))
        digest = r.text.split()[0]
        self.assertEqual(hashref.hash_file(path)[0], digest, "hashref.py (docs/hash.md) disagrees")
        return digest

    # 1. statistics that do not overflow
    def test_std_of_extreme_finite_values_is_exact(self):
        tiny = 5e-324
        cases = {"huge": [1e308, -1e308, 1e308, tiny],
                 "max": [1.7976931348623157e308, -1.7976931348623157e308],
                 "subnormal": [tiny, 2 * tiny, 3 * tiny, 2.5e-320],
                 "mixed": [1e308, 1e-300, -3.5, tiny, 2.0 ** -1000, -1e307],
                 "plain": [0.1 * i for i in range(10)]}
        root = {k: inline_array("array_list_meta", "float64", [len(v)], v) for k, v in cases.items()}
        root["external"] = external_array("x.npy", "float64", [4])
        members = {"x.npy": npy_bytes("<f8", (4,), struct.pack("<4d", *cases["huge"]))}
        path = write_reference_zanj(self.path("extreme.zanj"), root, members)
        got = {r["path"]: r for r in self.assertOk(run("stats", "--json", path)).json()["arrays"]}
        for name, values in list(cases.items()) + [("external", cases["huge"])]:
            with self.subTest(name):
                want = exact_std(cases.get(name, values))
                std = got[name]["std"]
                self.assertTrue(math.isfinite(std), f"std {std} for finite data")
                self.assertTrue(math.isclose(std, want, rel_tol=1e-14, abs_tol=5e-324), f"{std} != {want}")
                mean = sum(Fraction(v) for v in values) / len(values)
                self.assertTrue(math.isclose(got[name]["mean"], float(mean), rel_tol=1e-14, abs_tol=5e-324))
        self.assertNotIn("-nan", self.assertOk(run("stats", path)).text.lower())
        page = self.path("extreme.html")
        self.assertOk(run("report", path, "-o", page))
        with open(page, encoding="utf-8") as f:
            self.assertNotIn("-nan", f.read())

    def test_std_of_the_largest_values_is_exact(self):
        # The population std is at most half the range, so it never overflows for finite data:
        # here it is the largest double itself.
        m = 1.7976931348623157e308
        self.assertEqual(exact_std([m, -m, m, -m]), m)
        path = write_reference_zanj(self.path("ovf.zanj"), {
            "x": inline_array("array_list_meta", "float64", [4], [m, -m, m, -m])})
        std = self.assertOk(run("stats", "--json", path)).json()["arrays"][0]["std"]
        self.assertEqual(std, exact_std([m, -m, m, -m]))

    # 2. bools hashed as loaded
    def test_bools_hash_as_numpy_loads_them(self):
        if numpy is not None:
            for stored, want in NUMPY_BOOLS.items():
                self.assertEqual(numpy.frombuffer(bytes.fromhex(stored), dtype=bool).tolist(), want)
        digests = set()
        for stored in NUMPY_BOOLS:
            raw = bytes.fromhex(stored)
            self.assertEqual(NUMPY_BOOLS[stored], [True, False])
            for mode in ("external", "array_hex_meta", "array_b64_meta"):
                with self.subTest(stored=stored, mode=mode):
                    if mode == "external":
                        path = write_reference_zanj(self.path(f"b{stored}-{mode}.zanj"),
                                                    {"b": external_array("b.npy", "bool", [2])},
                                                    {"b.npy": npy_bytes("|b1", (2,), raw)})
                    else:
                        path = write_reference_zanj(self.path(f"b{stored}-{mode}.zanj"),
                                                    {"b": inline_array(mode, "bool", [2], raw)})
                    digests.add(self.digest(path))
        listed = write_reference_zanj(self.path("blist.zanj"), {"b": inline_array("array_list_meta", "bool", [2], [True, False])})
        digests.add(self.digest(listed))
        self.assertEqual(len(digests), 1)
        # base64 "/w==" is the byte ff: one True
        ff = write_reference_zanj(self.path("bff.zanj"), {"b": {"__muutils_format__": "numpy.ndarray:array_b64_meta",
                                                                 "shape": [1], "dtype": "bool", "n_elements": 1, "data": "/w=="}})
        one = write_reference_zanj(self.path("b01.zanj"), {"b": inline_array("array_list_meta", "bool", [1], [True])})
        self.assertEqual(self.digest(ff), self.digest(one))
        self.assertOk(run("diff", ff, one))
        zero = write_reference_zanj(self.path("b00.zanj"), {"b": inline_array("array_list_meta", "bool", [1], [False])})
        self.assertNotEqual(self.digest(ff), self.digest(zero))

    # 3. what numpy cannot build is an error everywhere, in verify's words
    def test_an_array_numpy_refuses_is_an_error_in_every_command(self):
        if numpy is not None:
            with self.assertRaises(ValueError):
                numpy.load(io.BytesIO(npy_bytes("<f8", (0, 2 ** 62), b"")))
        self.assertEqual(NUMPY_TOO_BIG, "ValueError")
        root = {"w": external_array("w.npy", "float64", [0, 2 ** 62])}
        bad = write_reference_zanj(self.path("toobig.zanj"), root, {"w.npy": npy_bytes("<f8", (0, 2 ** 62), b"")})
        good = write_reference_zanj(self.path("fine.zanj"), {"w": external_array("w.npy", "float64", [0, 4])},
                                    {"w.npy": npy_bytes("<f8", (0, 4), b"")})
        words = "shape is too big for numpy"
        verify = run("verify", bad)
        self.assertEqual(verify.code, 1)
        self.assertIn(words, verify.out.decode() + verify.err)
        for args in (("hash", bad), ("stats", bad), ("cat", bad, "w"), ("diff", bad, bad)):
            with self.subTest(args[0]):
                r = run(*args)
                # diff's statuses are GNU diff's: 1 differences, 2 trouble
                self.assertEqual(r.code, 2 if args[0] == "diff" else 1, f"{args}: {r.err}")
                self.assertIn(words, r.err)
        self.assertEqual(run("diff", bad, good).code, 1)  # the shapes differ
        # report refuses too, in verify's words, and writes no page
        page = self.path("toobig.html")
        r = run("report", bad, "-o", page)
        self.assertEqual(r.code, 1, r.err)
        self.assertIn(words, r.err)
        self.assertFalse(os.path.exists(page))

    # 4. tables as the frame the loader builds; diff sees what the digest sees
    def table_archive(self, name):
        rows, columns = TABLE_CASES[name]
        if name == "dup_key":
            member = b'{"a": 0, "b": 2, "a": 1}\n'
        else:
            member = jsonl_bytes(rows)
        root = {"t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
                      "len(data)": len(rows), "columns": columns}}
        return write_reference_zanj(self.path(f"table-{name}.zanj"), root, {"t.jsonl": member})

    def test_tables_hash_as_the_loaded_frame(self):
        frames = {name: loaded_frame(name) for name in TABLE_CASES}
        self.assertEqual(frames, PANDAS_FRAMES)
        paths = {name: self.table_archive(name) for name in TABLE_CASES}
        digests = {name: self.digest(p) for name, p in paths.items()}
        names = sorted(TABLE_CASES)
        for i, x in enumerate(names):
            for y in names[i + 1:]:
                equal = frames[x] == frames[y]
                with self.subTest(x=x, y=y, equal=equal):
                    self.assertEqual(digests[x] == digests[y], equal)
        # the cases the issue names: each pair loads equal (or not), and diff says the same
        for x, y, equal in (("ab", "ba_rows", False), ("ab", "ab_columns_ba", True), ("float_int", "float_float", True),
                            ("float_null", "float_nan", True), ("float_missing", "float_null", True),
                            ("int_only", "float_only", False), ("str_null", "str_missing", False),
                            ("null_then_big", "big_then_null", False), ("empty", "empty_ba", False)):
            with self.subTest(diff=(x, y)):
                self.assertEqual(frames[x] == frames[y], equal)
                r = run("diff", paths[x], paths[y])
                self.assertEqual(r.code, 0 if equal else 1, r.out.decode() + r.err)

    def test_a_row_that_is_not_an_object_is_refused(self):
        root = {"t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl", "columns": ["a"]}}
        path = write_reference_zanj(self.path("listrow.zanj"), root, {"t.jsonl": jsonl_bytes([{"a": 1}, [1]])})
        r = run("hash", path)
        self.assertEqual(r.code, 1)
        self.assertIn("row 2", r.err)

    # 5. salvage refuses a member it cannot tell the end of
    def test_salvage_refuses_a_stored_member_with_two_agreeing_descriptors(self):
        before = b"real data, then a forged descriptor: "
        forged = struct.pack("<IIII", 0x08074B50, zlib.crc32(before), len(before), len(before))
        data = before + forged + b" and the rest of the member"
        members = [zipgen.Member("__zanj__.json", b'{"a": 1}', zipgen.STORE, descriptor=True),
                   zipgen.Member("m.bin", data, zipgen.STORE, descriptor=True),
                   zipgen.Member("plain.bin", b"plain" * 10, zipgen.STORE, descriptor=True)]
        whole = zipgen.build_zip(members)
        cut = whole[:whole.index(b"PK\x01\x02") + 10]  # the directory is cut
        path = self.path("forged.zanj")
        with open(path, "wb") as f:
            f.write(cut)
        out = self.path("forged-out")
        r = run("extract", "--salvage", path, "-C", out)
        self.assertEqual(r.code, 1, r.err)
        self.assertFalse(os.path.exists(os.path.join(out, "m.bin")), "an ambiguous member was written")
        self.assertIn("'m.bin' not recovered", r.err)
        self.assertIn("ambiguous", r.err)
        with open(os.path.join(out, "plain.bin"), "rb") as f:
            self.assertEqual(f.read(), b"plain" * 10)
        # the same member without the forgery comes back whole
        members[1] = zipgen.Member("m.bin", b"real data, nothing forged", zipgen.STORE, descriptor=True)
        whole = zipgen.build_zip(members)
        with open(path, "wb") as f:
            f.write(whole[:whole.index(b"PK\x01\x02") + 10])
        out2 = self.path("clean-out")
        run("extract", "--salvage", path, "-C", out2)
        with open(os.path.join(out2, "m.bin"), "rb") as f:
            self.assertEqual(f.read(), b"real data, nothing forged")

    # 6. names in messages: escaped as verify escapes them, never cut at a NUL
    def test_a_nul_in_a_member_name_does_not_cut_messages(self):
        root = {"w": external_array("m\x00tail.npy", "float64", [2])}
        bad = write_reference_zanj(self.path("nul.zanj"), root, {"other.npy": npy_bytes("<f8", (2,), bytes(16))})
        good = write_reference_zanj(self.path("nul-good.zanj"), {"w": external_array("w.npy", "float64", [2])},
                                    {"w.npy": npy_bytes("<f8", (2,), bytes(16))})
        verify = run("verify", bad)
        self.assertIn("m\\x00tail.npy", verify.out.decode() + verify.err)
        for args in (("hash", bad), ("stats", bad), ("diff", bad, good), ("cat", bad, "w")):
            with self.subTest(args[0]):
                r = run(*args)
                self.assertEqual(r.code, 2 if args[0] == "diff" else 1, r.err)
                self.assertIn("m\\x00tail.npy", r.err)
                self.assertNotIn("\x00", r.err)

    # 7. property: one object, stored every which way, one digest; one element changed, another
    def test_random_objects_hash_alike_in_every_storage_and_differ_by_one_element(self):
        rng = random.Random(26)
        kinds = {"int32": ("<i4", lambda: rng.randrange(-1000, 1000)), "float64": ("<f8", lambda: rng.randrange(-64, 64) / 8),
                 "float32": ("<f4", lambda: rng.randrange(-64, 64) / 8), "bool": ("|b1", lambda: rng.random() < 0.5),
                 "uint8": ("|u1", lambda: rng.randrange(256))}
        for trial in range(12):
            arrays = {}
            for i in range(rng.randrange(1, 4)):
                dtype = rng.choice(sorted(kinds))
                shape = [rng.randrange(1, 4) for _ in range(rng.randrange(1, 3))]
                arrays[f"a{i}"] = (dtype, shape, [kinds[dtype][1]() for _ in range(math.prod(shape))])
            rows = [{"i": rng.randrange(100), "x": rng.randrange(-8, 8) / 4, "s": rng.choice("pqr")} for _ in range(rng.randrange(1, 5))]
            items = [rng.choice([1, 2.5, "t", None, True]) for _ in range(rng.randrange(0, 5))]
            scalar = rng.randrange(1000)
            digests = set()
            for variant in range(4):
                digests.add(self.digest(self.random_archive(f"r{trial}-{variant}", variant, arrays, rows, items, scalar, rng)))
            self.assertEqual(len(digests), 1, f"trial {trial}: storage changed the digest")
            base = digests.pop()
            # one element of one array
            name = rng.choice(sorted(arrays))
            dtype, shape, values = arrays[name]
            k = rng.randrange(len(values))
            changed = list(values)
            changed[k] = (not changed[k]) if dtype == "bool" else (changed[k] + 1 if dtype != "uint8" else (changed[k] + 1) % 256)
            mutated = dict(arrays, **{name: (dtype, shape, changed)})
            self.assertNotEqual(self.digest(self.random_archive(f"r{trial}-arr", 3, mutated, rows, items, scalar, rng)), base)
            # one table cell
            cell_rows = [dict(r) for r in rows]
            cell_rows[rng.randrange(len(rows))]["i"] += 1
            self.assertNotEqual(self.digest(self.random_archive(f"r{trial}-cell", 1, arrays, cell_rows, items, scalar, rng)), base)
            # the scalar
            self.assertNotEqual(self.digest(self.random_archive(f"r{trial}-sc", 2, arrays, rows, items, scalar + 1, rng)), base)

    def random_archive(self, name, variant, arrays, rows, items, scalar, rng):
        """variant 0: inline lists of values, deflated; 1: hex, stored; 2: base64, members in
        reverse; 3: external .npy and .jsonl members."""
        root, members = {"n": scalar}, {}
        for key, (dtype, shape, values) in arrays.items():
            descr = {"int32": "<i", "float64": "<d", "float32": "<f", "bool": "?", "uint8": "B"}[dtype]
            raw = struct.pack("<%d%s" % (len(values), descr.lstrip("<")), *values)
            if variant == 0:
                root[key] = inline_array("array_list_meta", dtype, shape, nest_list(values, shape))
            elif variant in (1, 2):
                root[key] = inline_array("array_hex_meta" if variant == 1 else "array_b64_meta", dtype, shape, raw)
            else:
                root[key] = external_array(key + ".npy", dtype, shape)
                members[key + ".npy"] = npy_bytes({"int32": "<i4", "float64": "<f8", "float32": "<f4", "bool": "|b1",
                                                   "uint8": "|u1"}[dtype], tuple(shape), raw)
        # rows after the first list their keys in any order: the frame's columns come from the first
        table_rows = [rows[0]] + [dict(rng.sample(sorted(r.items()), len(r))) for r in rows[1:]]
        members["t.jsonl"] = jsonl_bytes(table_rows)
        root["t"] = {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl", "len(data)": len(rows),
                     "columns": list(rows[0]) if variant % 2 == 0 else list(reversed(list(rows[0])))}
        if variant == 3 and items:
            root["l"] = {"__muutils_format__": "list:external", "$ref": "l.jsonl", "len(data)": len(items)}
            members["l.jsonl"] = jsonl_bytes(items)
        else:
            root["l"] = items
        compress = zipfile.ZIP_STORED if variant == 1 else zipfile.ZIP_DEFLATED
        return write_reference_zanj(self.path(name + ".zanj"), root, members, compress=compress, reverse=variant == 2)


def nest_list(flat, shape):
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0]
    return [nest_list(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


if __name__ == "__main__":
    main()
