"""End-to-end: `zanj hash` — digests that depend on the object only. The same object stored
every which way (compressed, stored, all inline, reordered, re-dated, big-endian, Fortran
order, extracted and packed again) gives one digest; one ulp, one scalar, a dtype or a key
changes it. hashref.py, a second implementation written from docs/hash.md, must agree on every
corpus archive and on every archive made here. Exit status: 0 ok, 1 invalid or a --check
mismatch, 2 usage error or unreadable input."""
import json
import os
import struct
import sys
import tempfile
import zipfile

from common import (ZanjTest, archives, corpus, external_array, external_list, inline_array, jsonl_bytes, main, npy_bytes,
                    pack_values, run, write_reference_zanj)

sys.path.insert(0, os.path.dirname(__file__))
import hashref  # noqa: E402

W = [i / 7 for i in range(12)]      # float32 [3, 4], external
ITEMS = [{"step": i, "loss": 1.0 / (i + 1)} for i in range(5)]


def f32(values):
    return [struct.unpack("<f", struct.pack("<f", v))[0] for v in values]


def fortran(values, rows, cols):
    """C-order values of a rows x cols array, laid out column by column."""
    return [values[r * cols + c] for c in range(cols) for r in range(rows)]


class HashTest(ZanjTest):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def make(self, name, w=W, w_member=None, w_dtype="float32", cfg=None, extra=None, inline=False, **kw):
        """The object {cfg, w, small, log, table}; inline=True keeps w and log in __zanj__.json."""
        cfg_value = {"lr": 0.001, "name": "run", "layers": [64, 32], "big": 2 ** 70, "nan": float("nan")}
        cfg_value.update(cfg or {})
        members = {"table.jsonl": jsonl_bytes([{"a": 1, "b": "x"}, {"a": 2, "b": None}])}
        root = {"cfg": cfg_value,
                "small": inline_array("array_list_meta", "float64", [2], [1.5, float("nan")]),
                "table": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "table.jsonl",
                          "len(data)": 2, "columns": ["a", "b"], "data[0]": {"a": 1, "b": "x"}}}
        if inline:
            root["w"] = inline_array("array_b64_meta", w_dtype, [3, 4], pack_values("<f", w))
            root["log"] = ITEMS
        else:
            root["w"] = external_array("w.npy", w_dtype, [3, 4])
            members["w.npy"] = w_member or npy_bytes("<f4", (3, 4), pack_values("<f", w))
            root["log"] = external_list("log.jsonl")
            members["log.jsonl"] = jsonl_bytes(ITEMS)
        root.update(extra or {})
        return write_reference_zanj(self.path(name), root, members, **kw)

    def digest(self, path, *options):
        r = self.assertOk(run("hash", *options, path))
        digest, _, name = r.text.rstrip("\n").partition("  ")
        self.assertEqual(name, path)
        self.assertEqual(len(digest), 64)
        if not options:  # the second implementation agrees on every archive made here
            self.assertEqual(hashref.hash_file(path)[0], digest)
        return digest

    def test_storage_does_not_count(self):
        base = self.digest(self.make("base.zanj"))
        same = [
            self.make("stored.zanj", compress=zipfile.ZIP_STORED),
            self.make("reversed.zanj", reverse=True, timestamp=1800000000.5),
            self.make("inline.zanj", inline=True),
            self.make("bigendian.zanj", w_dtype=">f4", w_member=npy_bytes(">f4", (3, 4), pack_values(">f", W))),
        ]
        # Fortran order: the same values, stored column by column.
        fortran_path = self.make("fortran.zanj")
        with zipfile.ZipFile(fortran_path) as z:
            parts = {n: z.read(n) for n in z.namelist()}
        header = npy_bytes("<f4", (3, 4), b"", fortran=True)
        parts["w.npy"] = header + pack_values("<f", fortran(W, 3, 4))
        with zipfile.ZipFile(fortran_path, "w", zipfile.ZIP_DEFLATED) as z:
            z.comment = b"a comment"
            for name, data in parts.items():
                info = zipfile.ZipInfo(name, date_time=(2001, 2, 3, 4, 5, 6))
                z.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
        same.append(fortran_path)
        for path in same:
            with self.subTest(path=os.path.basename(path)):
                self.assertEqual(self.digest(path), base)

    def test_extract_then_pack_keeps_the_digest(self):
        path = self.make("round.zanj")
        out = self.path("round")
        self.assertOk(run("extract", "-C", out, path))
        self.assertOk(run("pack", out, "-o", self.path("packed.zanj"), "--level", "1"))
        self.assertEqual(self.digest(self.path("packed.zanj")), self.digest(path))

    def test_content_changes_the_digest(self):
        base = self.digest(self.make("base.zanj"))
        ulp = list(W)
        ulp[5] = struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", W[5]))[0] + 1))[0]
        changed = {
            "one ulp": self.make("ulp.zanj", w=ulp),
            "one scalar": self.make("scalar.zanj", cfg={"lr": 0.002}),
            "int to float": self.make("float.zanj", cfg={"layers": [64.0, 32]}),
            "dtype": self.make("dtype.zanj", w_dtype="float64",
                               w_member=npy_bytes("<f8", (3, 4), pack_values("<d", f32(W)))),
            "added key": self.make("added.zanj", extra={"new": None}),
        }
        for what, path in changed.items():
            with self.subTest(what=what):
                self.assertNotEqual(self.digest(path), base)

    def test_key_order_does_not_count(self):
        a = self.make("ab.zanj", extra={"x": {"p": 1, "q": 2}})
        b = self.make("ba.zanj", extra={"x": {"q": 2, "p": 1}})
        self.assertEqual(self.digest(a), self.digest(b))

    def test_python_reimplementation_agrees_on_the_corpus(self):
        for path in map(corpus, archives()):
            with self.subTest(archive=os.path.basename(path)):
                mine = self.assertOk(run("hash", "--json", path)).json()
                digest, nodes = hashref.hash_file(path)
                self.assertEqual(mine["digest"], digest)
                self.assertEqual(mine["nodes"], nodes)
                self.assertEqual(mine["algorithm"], "sha256")
                other = self.assertOk(run("hash", "--algorithm", "blake2b512", path)).text.split()[0]
                self.assertEqual(other, hashref.hash_file(path, "blake2b512")[0])

    def test_python_reimplementation_agrees_on_edge_values(self):
        neg_nan = struct.pack("<I", 0xFFC00001)  # a negative NaN with a payload
        root = {
            "f16": inline_array("array_list_meta", "float16", [3], [1.5, float("nan"), -0.0]),
            "c8": inline_array("array_hex_meta", "complex64", [2], pack_values("<f", [1, 2, float("nan"), 0])),
            "u": inline_array("array_list_meta", "<U3", [2], ["ab", "\u00e9t\u00e9"]),
            "b": inline_array("array_b64_meta", "bool", [2, 2], b"\x01\x00\x00\x01"),
            "zero": {"__muutils_format__": "numpy.ndarray:zero_dim", "data": 7, "shape": [], "dtype": "int64",
                     "n_elements": 1},
            "t": {"__muutils_format__": "torch.Tensor:array_list_meta", "data": [[1, 2]], "shape": [1, 2],
                  "dtype": "torch.long", "n_elements": 2},
            "nan_npy": external_array("nan.npy", "float32", [2]),
            "i2_be": external_array("be.npy", ">i2", [3]),
            "dc": {"__muutils_format__": "Cfg(SerializableDataclass)", "lr": 1e400, "z": -0.0, "\u00e9": 1, "e": 2},
            "set": {"__muutils_format__": "set", "items": [1, 2]},
            "big": [2 ** 64, -(2 ** 70), 0, -1],
            "nested": [[1, [2, []]], {}, [{"k": None}]],
            "": {"~/": True, "tab\there\x1b\u0085": 1},
            "df": {"__muutils_format__": "polars.DataFrame:external", "$ref": "df.jsonl", "columns": ["x", 5]},
            "tup": external_list("tup.jsonl", tuple_=True),
        }
        members = {"nan.npy": npy_bytes("<f4", (2,), neg_nan + struct.pack("<f", 1.0)),
                   "be.npy": npy_bytes(">i2", (3,), pack_values(">h", [1, -2, 300])),
                   "df.jsonl": jsonl_bytes([{"x": float("nan"), "5": "y"}]),
                   "tup.jsonl": jsonl_bytes([[1, 2], "s", None])}
        path = write_reference_zanj(self.path("edge.zanj"), root, members)
        mine = self.assertOk(run("hash", "--json", path)).json()
        digest, nodes = hashref.hash_file(path)
        self.assertEqual(mine["nodes"], nodes)
        self.assertEqual(mine["digest"], digest)
        # NaN is NaN however it was written: the npy's negative payload NaN hashes like JSON's NaN
        inline = write_reference_zanj(self.path("inline_nan.zanj"), {
            "nan_npy": inline_array("array_list_meta", "float32", [2], [float("nan"), 1.0])})
        external = write_reference_zanj(self.path("external_nan.zanj"), {"nan_npy": root["nan_npy"]},
                                        {"nan.npy": members["nan.npy"]})
        self.assertEqual(self.digest(inline), self.digest(external))

    def test_json_nodes_pin_subtrees(self):
        r = self.assertOk(run("hash", "--json", self.make("base.zanj"))).json()
        paths = [n["path"] for n in r["nodes"]]
        self.assertEqual(paths[0], "")
        self.assertEqual(r["nodes"][0]["digest"], r["digest"])
        for p in ("cfg", "cfg/lr", "cfg/layers", "w", "log", "table", "small"):
            self.assertIn(p, paths)
        kinds = {n["path"]: n["kind"] for n in r["nodes"]}
        self.assertEqual((kinds["w"], kinds["log"], kinds["table"]), ("array", "external_list", "table"))
        self.assertNotIn("cfg/layers/0", paths)  # a list of scalars is one node, as in `zanj ls`

    def test_check_a_lock(self):
        base = self.make("base.zanj")
        lock = self.path("model.lock")
        with open(lock, "wb") as f:
            f.write(self.assertOk(run("hash", "--json", base)).out)
        r = self.assertOk(run("hash", "--check", lock))
        self.assertEqual(r.text, f"{base}: OK\n")
        self.assertOk(run("hash", "--check", lock, self.make("stored.zanj", compress=zipfile.ZIP_STORED)))
        ulp = list(W)
        ulp[0] = 1e-30
        changed = self.make("changed.zanj", w=ulp, cfg={"lr": 0.5}, extra={"new": 1})
        r = run("hash", "--check", lock, changed)
        self.assertEqual(r.code, 1, r.err)
        self.assertEqual(sorted(r.text.splitlines()),
                         sorted([f"{changed}: w: changed", f"{changed}: cfg/lr: changed",
                                 f"{changed}: new: added", f"{changed}: FAILED"]))
        # globs on the command line narrow the check: the weights alone still match
        self.assertOk(run("hash", "--check", lock, "--include", "w", self.make("lr.zanj", cfg={"lr": 0.5})))
        r = run("hash", "--check", lock, "--exclude", "cfg", changed)
        self.assertEqual(r.code, 1)
        self.assertNotIn("cfg/lr", r.text)
        self.assertIn(f"{changed}: w: changed\n", r.text)
        # a pinned node that is gone
        gone = self.make("gone.zanj", extra={"table": None})
        r = run("hash", "--check", lock, gone)
        self.assertEqual(r.code, 1)
        self.assertIn(f"{gone}: table: changed\n", r.text)  # a table became null: same path, other kind

    def test_include_and_exclude(self):
        base = self.make("base.zanj")
        scalar = self.make("scalar.zanj", cfg={"lr": 0.5})
        self.assertNotEqual(self.digest(base), self.digest(scalar))
        self.assertEqual(self.digest(base, "--include", "w"), self.digest(scalar, "--include", "w"))
        self.assertEqual(self.digest(base, "--exclude", "cfg"), self.digest(scalar, "--exclude", "cfg"))
        self.assertNotEqual(self.digest(base, "--include", "cfg*"), self.digest(scalar, "--include", "cfg*"))
        nodes = self.assertOk(run("hash", "--json", "--include", "w", "--include", "cfg/name", base)).json()["nodes"]
        self.assertEqual([n["path"] for n in nodes], ["cfg/name", "w"])
        # a lock of the weights only: other changes pass, a weight change fails
        lock = self.path("weights.lock")
        with open(lock, "wb") as f:
            f.write(self.assertOk(run("hash", "--json", "--include", "w", base)).out)
        self.assertOk(run("hash", "--check", lock, scalar))
        r = run("hash", "--check", lock, self.make("w.zanj", w=[0.0] * 12))
        self.assertEqual(r.code, 1)
        self.assertIn(": w: changed\n", r.text)

    def test_several_files_and_exit_codes(self):
        a, b = self.make("a.zanj"), self.make("b.zanj", cfg={"lr": 1})
        r = self.assertOk(run("hash", a, b))
        self.assertEqual(len(r.text.splitlines()), 2)
        lines = self.assertOk(run("hash", "--json", a, b)).text.splitlines()
        self.assertEqual([json.loads(x)["file"] for x in lines], [a, b])
        both = self.path("both.lock")
        with open(both, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.assertOk(run("hash", "--check", both))
        not_zip = self.path("not.zanj")
        with open(not_zip, "wb") as f:
            f.write(b"not a zip file")
        self.assertEqual(run("hash", not_zip).code, 1)
        r = run("hash", a, not_zip)
        self.assertEqual(r.code, 1)
        self.assertEqual(len(r.text.splitlines()), 1)
        self.assertIn("zanj: error:", r.err)
        self.assertEqual(run("hash", self.path("missing.zanj")).code, 2)
        self.assertEqual(run("hash", "--algorithm", "md5", a).code, 2)
        self.assertEqual(run("hash").code, 2)
        self.assertEqual(run("hash", "--check", not_zip).code, 2)   # not a lock
        self.assertEqual(run("hash", "--check", both, a).code, 2)   # two pinned archives, one FILE
        broken = self.make("broken.zanj", w_member=npy_bytes("<f4", (3, 4), b"\0" * 8))
        self.assertEqual(run("hash", broken).code, 1)

    def test_json_error_lines_name_member_and_path(self):
        # An archive that cannot be hashed gets its own --json line; the member and object path
        # the error concerns are fields a script reads, not words to parse out of the message.
        good = self.make("good.zanj")
        r = run("hash", "--json", corpus("malformed", "missing_external.zanj"), good, self.path("none.zanj"))
        self.assertEqual(r.code, 2)
        lines = [json.loads(x) for x in r.text.splitlines()]
        self.assertEqual(len(lines), 3)
        self.assertEqual(lines[0]["member"], "big_array.npy")
        self.assertEqual(lines[0]["path"], "big_array")
        self.assertIn("which is not in the archive", lines[0]["error"])
        self.assertIn("digest", lines[1])
        self.assertEqual(set(lines[2]), {"file", "error"})  # no member or path to name

    def test_bad_table_row_names_table_and_member(self):
        root = {"table": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "table.jsonl",
                          "len(data)": 2, "columns": ["a"], "data[0]": {"a": 1}}}
        bad = write_reference_zanj(self.path("bad.zanj"), root, {"table.jsonl": jsonl_bytes([{"a": 1}, [2]])})
        r = run("hash", "--json", bad, self.make("good.zanj"))
        self.assertEqual(r.code, 1)
        line = json.loads(r.text.splitlines()[0])
        self.assertEqual((line["member"], line["path"]), ("table.jsonl", "table"))
        self.assertIn(bad + ": table 'table': member 'table.jsonl': table row 2 is a JSON array", r.err)
        r = run("diff", bad, bad)  # diff cannot compare what it cannot read: trouble, exit 2
        self.assertEqual(r.code, 2)
        self.assertIn(bad + ": table 'table': table row 2 is a JSON array", r.err)

    def test_standard_input(self):
        path = self.make("base.zanj")
        with open(path, "rb") as f:
            r = self.assertOk(run("hash", "-", stdin=f.read()))
        self.assertEqual(r.text.split()[0], self.digest(path))


if __name__ == "__main__":
    main()
