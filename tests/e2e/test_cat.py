"""End-to-end: `zanj cat` on arrays: every array of the corpus in every format, slices, and
archives built here (the same values stored inline and external, byte orders, Fortran order,
strings). Tables, lists, --resolve, --member and errors are in test_cat_nodes.py."""
import csv
import hashlib
import io
import itertools
import math
import os
import re
import struct
import tempfile

from common import (ZanjTest, archives, corpus, decode_raw, facts, json_difference, main, nest, npy_bytes, numpy_name,
                    obj_path, precision, read_npy, resolved_at, run, write_zanj)


def corpus_arrays():
    """(archive, facts entry, object path) for every array of the corpus"""
    for a in archives():
        for arr in facts(a)["arrays"]:
            yield a, arr, obj_path(arr["path"])


def raw_values(path, node):
    r = run("cat", "--format", "raw", path, node)
    assert r.code == 0, r.err
    return r.out


def shown_indices(n, edge=3):
    """indices a summarized text print shows along an axis of length n"""
    return list(range(n)) if n <= 2 * edge else list(range(edge)) + list(range(n - edge, n))


def c_offsets(shape, per_axis):
    strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
    return [sum(i * s for i, s in zip(idx, strides)) for idx in itertools.product(*per_axis)]


NUMBER = r"-?(?:nan|inf|\d+\.?\d*(?:e[-+]\d+)?)"


def text_numbers(text):
    return [float(t) for t in re.findall(NUMBER, text.replace("...", " "))]


class CorpusArrays(ZanjTest):
    def test_raw_is_c_order_little_endian(self):
        for a, arr, p in corpus_arrays():
            got = hashlib.sha256(raw_values(corpus(a), p)).hexdigest()
            self.assertEqual(got, arr["sha256_c_order_le"], f"{a}:{p}")

    def test_json_equals_raw_values_and_the_reference_loader(self):
        for a, arr, p in corpus_arrays():
            got = self.assertOk(run("cat", "--format", "json", corpus(a), p)).json()
            raw = raw_values(corpus(a), p)
            want = nest(decode_raw(raw, arr["dtype"]), arr["shape"])
            self.assertIsNone(json_difference(got, want, p, precision(arr["dtype"])), a)
            if arr["storage"] == "external":  # the facts hold what the Python loader read
                loaded = resolved_at(a, arr["path"])["data"]
                self.assertIsNone(json_difference(got, loaded, p, precision(arr["dtype"])), a)
            self.assertEqual(run("cat", "--json", corpus(a), p).out, run("cat", "-f", "json", corpus(a), p).out)

    def test_npy_stream_loads_to_the_same_array(self):
        for a, arr, p in corpus_arrays():
            header, data = read_npy(self.assertOk(run("cat", "--format", "npy", corpus(a), p)).out)
            self.assertEqual(list(header["shape"]), arr["shape"], p)
            self.assertFalse(header["fortran_order"])
            self.assertIn(header["descr"][0], "<|", p)
            self.assertEqual(numpy_name(header["descr"]), numpy_name(arr["dtype"]), p)
            self.assertEqual(data, raw_values(corpus(a), p), f"{a}:{p}")

    def test_csv_rows_and_values(self):
        for a, arr, p in corpus_arrays():
            r = run("cat", "--format", "csv", corpus(a), p)
            shape = arr["shape"]
            if len(shape) > 2:
                self.assertFails(r, 2, "1-D and 2-D")
                continue
            rows = list(csv.reader(io.StringIO(self.assertOk(r).text)))
            self.assertEqual(len(rows), shape[0] if shape else 1, p)
            self.assertTrue(all(len(row) == (shape[1] if len(shape) == 2 else 1) for row in rows), p)
            flat = decode_raw(raw_values(corpus(a), p), arr["dtype"])
            cells = [c for row in rows for c in row]
            for cell, want in zip(cells, flat):
                if isinstance(want, bool):
                    self.assertEqual(cell, "true" if want else "false")
                elif isinstance(want, list):
                    got = complex(cell.replace("NaN", "nan").replace("Infinity", "inf"))
                    self.assertIsNone(json_difference([got.real, got.imag], want, p, precision(arr["dtype"])))
                else:
                    got = float(cell) if "." in cell or "e" in cell or "N" in cell or "I" in cell else int(cell)
                    self.assertIsNone(json_difference(got, want, p, precision(arr["dtype"])), f"{p}: {cell}")

    def test_text_shows_the_values_numpy_would(self):
        for a, arr, p in corpus_arrays():
            text = self.assertOk(run("cat", "--summary", corpus(a), p)).text  # as on a terminal
            shape, n = arr["shape"], math.prod(arr["shape"])
            self.assertTrue(text.endswith("]\n"), p)
            self.assertEqual(text.count("["), text.count("]"), p)
            flat = decode_raw(raw_values(corpus(a), p), arr["dtype"])
            per_axis = [shown_indices(d) if n > 1000 else list(range(d)) for d in shape]
            want = [flat[o] for o in c_offsets(shape, per_axis)]
            self.assertEqual("..." in text, n > 1000, p)
            name = numpy_name(arr["dtype"])
            if name == "bool":
                self.assertEqual(re.findall(r"True|False", text), ["True" if v else "False" for v in want])
            elif name.startswith("complex"):
                parts = re.findall(rf"({NUMBER}) *([-+])({NUMBER}) *j", text)
                self.assertEqual(len(parts), len(want), p)
                for (re_, sign, im), (wr, wi) in zip(parts, want):
                    self.assertTrue(math.isclose(float(re_), wr, rel_tol=1e-6, abs_tol=1e-8), p)
                    self.assertTrue(math.isclose(float(sign + im), wi, rel_tol=1e-6, abs_tol=1e-8), p)
            else:
                got = text_numbers(text)
                self.assertEqual(len(got), len(want), p)
                for g, w in zip(got, want):
                    if isinstance(w, float) and math.isnan(w):
                        self.assertTrue(math.isnan(g), p)
                    elif name == "float16":
                        self.assertEqual(struct.pack("e", g), struct.pack("e", w), p)
                    else:
                        self.assertTrue(math.isclose(g, w, rel_tol=1e-7, abs_tol=1e-8), f"{p}: {g} != {w}")

    def test_full_prints_every_element(self):
        text = self.assertOk(run("cat", "--full", corpus("model.zanj"), "state_dict/net.2.weight")).text
        self.assertNotIn("...", text)
        self.assertEqual(len(text_numbers(text)), 1024)


class Slices(ZanjTest):
    def full(self, a, p, dtype, shape):
        return nest(decode_raw(raw_values(corpus(a), p), dtype), shape)

    def check_slices(self, a, p, dtype, shape, cases):
        whole = self.full(a, p, dtype, shape)
        for text, pick in cases:
            got = self.assertOk(run("cat", "--format", "json", corpus(a), p + text)).json()
            self.assertIsNone(json_difference(got, pick(whole), f"{p}{text}", precision(dtype)))

    def test_numpy_semantics(self):
        cases = [
            ("[0:2]", lambda w: w[0:2]),
            ("[-1]", lambda w: w[-1]),
            ("[:, 3]", lambda w: [x[3] for x in w]),
            ("[::2, ::-3, 1:-1:4]", lambda w: [[y[1:-1:4] for y in x[::-3]] for x in w[::2]]),
            ("[..., -1]", lambda w: [[y[-1] for y in x] for x in w]),
            ("[1, ..., 2]", lambda w: [y[2] for y in w[1]]),
            ("[-1, -1, -1]", lambda w: w[-1][-1][-1]),
            ("[3:1:-1, 100:, :]", lambda w: [x[100:] for x in w[3:1:-1]]),
            ("[ 1 : 3 , 2 ]", lambda w: [x[2] for x in w[1:3]]),
        ]
        self.check_slices("dtypes.zanj", "f8_3d", "float64", [4, 8, 10], cases)

    def test_fortran_and_other_dtypes(self):
        self.check_slices("dtypes.zanj", "f4_fortran", "float32", [20, 15],
                          [("[::-1, 2]", lambda w: [x[2] for x in w[::-1]]), ("[5]", lambda w: w[5]),
                           ("[2:9:3, -4:]", lambda w: [x[-4:] for x in w[2:9:3]])])
        for p, dtype in (("b1", "bool"), ("c16", "complex128"), ("f2", "float16"), ("u8", "uint64")):
            self.check_slices("dtypes.zanj", p, dtype, [300], [("[::-7]", lambda w: w[::-7]), ("[-3]", lambda w: w[-3])])
        self.check_slices("inline_hex.zanj", "b", "int16", [2, 2], [("[:, ::-1]", lambda w: [x[::-1] for x in w])])

    def test_slices_in_every_format(self):
        want = nest(decode_raw(raw_values(corpus("stored.zanj"), "data"), "int64"), [1000])[990:]
        raw = self.assertOk(run("cat", "--format", "raw", corpus("stored.zanj"), "data[990:]")).out
        self.assertEqual(list(struct.unpack("<10q", raw)), want)
        header, data = read_npy(self.assertOk(run("cat", "--format", "npy", corpus("stored.zanj"), "data[990:]")).out)
        self.assertEqual((header["shape"], data), ((10,), raw))
        self.assertEqual(self.assertOk(run("cat", "-f", "csv", corpus("stored.zanj"), "data[-2:]")).text, "998\n999\n")
        self.assertEqual(self.assertOk(run("cat", corpus("stored.zanj"), "data[-3:]")).text, "[997 998 999]\n")

    def test_head_and_tail_on_the_first_axis(self):
        w = self.full("dtypes.zanj", "f8_3d", "float64", [4, 8, 10])
        for args, pick in ((["--head", "2"], w[:2]), (["--tail", "1"], w[-1:]), (["--head", "9"], w)):
            got = self.assertOk(run("cat", "--json", *args, corpus("dtypes.zanj"), "f8_3d")).json()
            self.assertIsNone(json_difference(got, pick), args)
        self.assertEqual(run("cat", "--head", "-1", corpus("dtypes.zanj"), "f8_3d").code, 2)
        got = self.assertOk(run("cat", "--json", "--tail", "2", corpus("dtypes.zanj"), "f8_3d[1, ::-1]")).json()
        self.assertIsNone(json_difference(got, w[1][::-1][-2:]))


class InlineVersusExternal(ZanjTest):
    """One set of values stored every way the format allows prints identically."""

    CASES = [  # dtype name, npy descr, struct code, shape, values
        ("int32", "<i4", "i", [2, 3], [0, 1, -2, 3, 2147483647, -2147483648]),
        ("uint64", "<u8", "Q", [3], [0, 18446744073709551615, 12345678901234567890]),
        ("float16", "<f2", "e", [2, 2], [0.0999755859375, -2.0, 65504.0, 6.103515625e-05]),
        ("float32", "<f4", "f", [4], [0.10000000149011612, float("nan"), float("inf"), -1e-45]),
        (">f8", ">f8", "d", [2, 2], [0.1, -0.0, 1e300, float("-inf")]),
        ("bool", "|b1", "?", [3], [True, False, True]),
        ("complex64", "<c8", "ff", [2], [[1.5, -2.0], [0.0, 0.25]]),
        ("<U3", "<U3", None, [2], ["ab", "\u00e9\u20ac"]),
        ("|S2", "|S2", None, [3], ["ab", "", "\u00ff"]),
    ]

    def build(self, tmp):
        root, members = {}, {}
        for name, descr, code, shape, values in self.CASES:
            if code is None:  # strings: fixed-size, NUL-padded
                size = int(descr[2:])
                enc = [v.encode("utf-32-le").ljust(4 * size, b"\0") if descr[1] == "U" else v.encode("latin-1").ljust(size, b"\0")
                       for v in values]
                data = b"".join(enc)
            else:
                flat = [x for v in values for x in (v if isinstance(v, list) else [v])]
                data = struct.pack(descr[0].replace("|", "<") + code * len(values), *flat)
            key = name.strip("<>|")
            fmt = lambda mode: {"__muutils_format__": "numpy.ndarray:" + mode, "shape": shape, "dtype": name,
                                "n_elements": math.prod(shape)}
            root[key + "_ext"] = dict(fmt("external"), **{"$ref": key + "_ext.npy"})
            members[key + "_ext.npy"] = npy_bytes(descr, shape, data)
            root[key + "_list"] = dict(fmt("array_list_meta"), data=nest(values, shape))
            if code is not None:
                root[key + "_hex"] = dict(fmt("array_hex_meta"), data=data.hex())
                root[key + "_b64"] = dict(fmt("array_b64_meta"), data=__import__("base64").b64encode(data).decode())
                # the same values stored in Fortran order
                if len(shape) == 2:
                    flat_values = values
                    fortran = [flat_values[i * shape[1] + j] for j in range(shape[1]) for i in range(shape[0])]
                    fdata = struct.pack(descr[0].replace("|", "<") + code * len(fortran),
                                        *[x for v in fortran for x in (v if isinstance(v, list) else [v])])
                    root[key + "_fortran"] = dict(fmt("external"), **{"$ref": key + "_f.npy"})
                    members[key + "_f.npy"] = npy_bytes(descr, shape, fdata, fortran=True)
        root["scalar"] = {"__muutils_format__": "numpy.ndarray:zero_dim", "data": 2.5, "shape": [], "dtype": "float64",
                          "n_elements": 1}
        root["scalar_ext"] = {"__muutils_format__": "numpy.ndarray:external", "$ref": "scalar.npy", "shape": [],
                              "dtype": "float64", "n_elements": 1}
        members["scalar.npy"] = npy_bytes("<f8", [], struct.pack("<d", 2.5))
        root["empty"] = {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [], "shape": [0, 5],
                         "dtype": "float64", "n_elements": 0}
        root["empty_ext"] = {"__muutils_format__": "numpy.ndarray:external", "$ref": "empty.npy", "shape": [0, 5],
                             "dtype": "float64", "n_elements": 0}
        members["empty.npy"] = npy_bytes("<f8", [0, 5], b"")
        return write_zanj(os.path.join(tmp, "ways.zanj"), root, members), root

    def test_every_format_prints_the_same(self):
        with tempfile.TemporaryDirectory() as tmp:
            path, root = self.build(tmp)
            groups = {}
            for key in root:
                groups.setdefault(key.rsplit("_", 1)[0] if "_" in key else key, []).append(key)
            for base, keys in groups.items():
                self.assertGreater(len(keys), 1, base)
                for fmt in ("text", "json", "csv", "npy", "raw"):
                    outs = {k: run("cat", "-f", fmt, path, k) for k in keys}
                    first = outs[keys[0]]
                    for k, r in outs.items():
                        self.assertEqual((r.code, r.out), (first.code, first.out), f"{fmt}: {k} vs {keys[0]}: {r.err}")
                    if fmt != "csv" or base not in ("empty",):
                        self.assertOk(first)

    def test_values_are_right(self):
        with tempfile.TemporaryDirectory() as tmp:
            path, _ = self.build(tmp)
            for name, descr, code, shape, values in self.CASES:
                key = name.strip("<>|")
                got = self.assertOk(run("cat", "--json", path, key + "_list")).json()
                self.assertIsNone(json_difference(got, nest(values, shape), key, precision(name)), key)
            self.assertEqual(self.assertOk(run("cat", path, "U3_ext")).text, "['ab' '\u00e9\u20ac']\n")
            self.assertEqual(self.assertOk(run("cat", path, "S2_ext")).text, "[b'ab' b'' b'\\xff']\n")
            self.assertEqual(self.assertOk(run("cat", path, "bool_ext")).text, "[ True False  True]\n")
            self.assertEqual(self.assertOk(run("cat", path, "int32_fortran")).text,
                             "[[          0           1          -2]\n [          3  2147483647 -2147483648]]\n")
            self.assertEqual(self.assertOk(run("cat", "--json", path, "float32_ext")).text, "[0.1, NaN, Infinity, -1e-45]\n")
            self.assertEqual(self.assertOk(run("cat", "--json", path, "f8_ext")).text, "[[0.1, -0.0], [1e+300, -Infinity]]\n")
            self.assertEqual(self.assertOk(run("cat", "--json", path, "empty_ext")).text, "[]\n")
            self.assertEqual(self.assertOk(run("cat", path, "scalar_ext")).text, "2.5\n")
            raw = self.assertOk(run("cat", "-f", "raw", path, "f8_fortran")).out
            self.assertEqual(struct.unpack("<4d", raw)[:3], (0.1, -0.0, 1e300))


if __name__ == "__main__":
    main()
