"""End-to-end: `zanj diff --structure` (keys, node kinds, dtypes, shapes, list lengths and table
columns; not values) with --exclude, --json and -q, and two things diff's text report says
right: NaN against NaN shows the first difference (never a maximum where nothing differs), and
integer differences are exact integers. Exit status: 0 same, 1 different, 2 error."""
import os
import tempfile

from common import (ZanjTest, external_array, external_list, inline_array, jsonl_bytes, main, npy_bytes, pack_values,
                    run, write_reference_zanj)


class StructureTest(ZanjTest):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def make(self, name, w=None, dtype="<f4", shape=(2, 3), log=5, cfg=None, columns=("a", "b"), extra=None):
        w = w if w is not None else [float(i) for i in range(shape[0] * shape[1])]
        fmt = {"<f4": "<f", "<f8": "<d", "<i8": "<q"}[dtype]
        name_of = {"<f4": "float32", "<f8": "float64", "<i8": "int64"}[dtype]
        root = {"cfg": dict({"lr": 0.1, "layers": [4, 4]}, **(cfg or {})),
                "w": external_array("w.npy", name_of, list(shape)),
                "log": external_list("log.jsonl"),
                "t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl", "columns": list(columns)}}
        root.update(extra or {})
        members = {"w.npy": npy_bytes(dtype, shape, pack_values(fmt, w)),
                   "log.jsonl": jsonl_bytes([{"step": i} for i in range(log)]),
                   "t.jsonl": jsonl_bytes([{c: 1 for c in columns}])}
        return write_reference_zanj(os.path.join(self.tmp.name, name), root, members)

    def test_values_do_not_count(self):
        a = self.make("a.zanj")
        b = self.make("b.zanj", w=[9.0] * 6, cfg={"lr": 0.5, "layers": [8, 8]})
        self.assertEqual(run("diff", a, b).code, 1)
        r = self.assertOk(run("diff", "--structure", a, b))
        self.assertEqual(r.text, "no differences found\n")
        self.assertEqual(run("diff", "--structure", "-q", a, b).code, 0)

    def test_structure_changes(self):
        a = self.make("a.zanj")
        cases = {
            "dtype": (self.make("dtype.zanj", dtype="<f8"), "w: dtype changed: float32 -> float64"),
            "shape": (self.make("shape.zanj", shape=(3, 2)), "w: shape changed: [2, 3] -> [3, 2]"),
            "length": (self.make("len.zanj", log=6), "log: length changed: 5 -> 6"),
            "list length": (self.make("layers.zanj", cfg={"layers": [4, 4, 4]}), "cfg/layers: length changed: 2 -> 3"),
            "columns": (self.make("cols.zanj", columns=("a", "c")), "t: columns changed: [[\"a\", \"int64\"], [\"b\", \"int64\"]] -> [[\"a\", \"int64\"], [\"c\", \"int64\"]]"),
            "key": (self.make("key.zanj", extra={"new": 1}), "new: added (number 1)"),
            "kind": (self.make("kind.zanj", cfg={"lr": "0.1"}), "cfg/lr: kind changed: number 0.1 -> string \"0.1\""),
        }
        for what, (b, line) in cases.items():
            with self.subTest(what=what):
                r = run("diff", "--structure", a, b)
                self.assertEqual(r.code, 1, r.err)
                self.assertIn(line + "\n", r.text)
                self.assertEqual(run("diff", "--structure", "-q", a, b).out, b"")
                self.assertEqual(run("diff", "--structure", "-q", a, b).code, 1)

    def test_exclude_and_json(self):
        a = self.make("a.zanj")
        b = self.make("b.zanj", dtype="<f8", extra={"new": 1})
        r = run("diff", "--structure", "--json", a, b)
        self.assertEqual(r.code, 1)
        report = r.json()
        self.assertTrue(report["options"]["structure"])
        self.assertEqual([d["kind"] for d in report["differences"]], ["dtype_changed", "added"])
        self.assertOk(run("diff", "--structure", "--exclude", "w", "--exclude", "new", a, b))

    def test_errors(self):
        a = self.make("a.zanj")
        self.assertEqual(run("diff", "--structure", "--atol", "1", a, a).code, 2)
        self.assertEqual(run("diff", "--structure", "--nan-unequal", a, a).code, 2)
        self.assertEqual(run("diff", "--structure", a, os.path.join(self.tmp.name, "missing.zanj")).code, 2)


class ReportTest(ZanjTest):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def array(self, name, descr, fmt, values, shape):
        dtype = {"<f8": "float64", "<i8": "int64"}[descr]
        root = {"w": external_array("w.npy", dtype, list(shape))}
        return write_reference_zanj(os.path.join(self.tmp.name, name), root,
                                    {"w.npy": npy_bytes(descr, shape, pack_values(fmt, values))})

    def test_nan_only_difference_shows_the_first_one(self):
        values = [0.0] * 600
        values[3 * 30 + 3] = float("nan")
        a = self.array("a.zanj", "<f8", "<d", values, (20, 30))
        r = run("diff", "--nan-unequal", a, a)
        self.assertEqual(r.code, 1)
        self.assertIn("/w: 1 of 600 elements differ (first at [3, 3]: NaN -> NaN)\n".lstrip("/"), r.text)
        self.assertNotIn("max abs diff", r.text)

    def test_integer_differences_are_exact(self):
        a = self.array("a.zanj", "<i8", "<q", [0, 5], (2,))
        b = self.array("b.zanj", "<i8", "<q", [2 ** 62 - 10, 5], (2,))
        r = run("diff", a, b)
        self.assertEqual(r.code, 1)
        self.assertIn("max abs diff 4611686018427387894 at [0]", r.text)
        self.assertEqual(run("diff", "--json", a, b).json()["differences"][0]["max_abs_diff"], 2 ** 62 - 10)


if __name__ == "__main__":
    main()
