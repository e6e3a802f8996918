"""End-to-end: `zanj diff` on archive pairs built here (zipfile, json, npy bytes by hand) and on
the corpus. Exit status: 0 equal, 1 different, 2 error."""
import json
import os
import tempfile
import zipfile

from common import (ZanjTest, archives, corpus, external_array, external_list, inline_array, jsonl_bytes, main,
                    npy_bytes, pack_values, run, write_reference_zanj)

NAN = float("nan")
W = [float(i) / 4 for i in range(300)]  # 300 float64 values: external above the 256 threshold
ITEMS = [{"step": i, "loss": 1.0 / (i + 1)} for i in range(260)]


def nested(values, shape):
    if len(shape) == 1:
        return list(values)
    step = len(values) // shape[0]
    return [nested(values[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


class DiffTest(ZanjTest):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def external(self, name, w=W, cfg=None, items=ITEMS, **kw):
        """The reference layout: big array and long list external, deflated."""
        root = {"cfg": {"lr": 0.001, "name": "run"}, "w": external_array("w.npy", "float64", [20, 15]),
                "small": inline_array("array_list_meta", "float32", [2, 2], [[1.0, 2.0], [3.0, 4.0]]),
                "log": external_list("log.jsonl")}
        if cfg:
            root["cfg"].update(cfg)
        members = {"w.npy": npy_bytes("<f8", (20, 15), pack_values("<d", w)), "log.jsonl": jsonl_bytes(items)}
        return write_reference_zanj(self.path(name), root, members, **kw)

    def diff(self, *args):
        return run("diff", *args)

    def assertEqualArchives(self, a, b, *args):
        r = self.diff(*args, a, b)
        self.assertEqual(r.code, 0, f"stdout: {r.text} stderr: {r.err}")
        self.assertEqual(r.text, "no differences found\n")
        return r

    def assertDiffers(self, a, b, *args):
        r = self.diff(*args, a, b)
        self.assertEqual(r.code, 1, f"stdout: {r.text} stderr: {r.err}")
        return r


class Storage(DiffTest):
    def test_same_objects_other_storage_are_equal(self):
        a = self.external("a.zanj")
        # B: everything inline and stored, other member order and timestamp
        root = {"log": ITEMS, "small": inline_array("array_b64_meta", "float32", [2, 2], pack_values("<f", [1, 2, 3, 4])),
                "w": inline_array("array_list_meta", "float64", [20, 15], nested(W, [20, 15])),
                "cfg": {"name": "run", "lr": 0.001}}
        b = write_reference_zanj(self.path("b.zanj"), root, {}, compress=zipfile.ZIP_STORED, timestamp=1800000000.0,
                       reverse=True)
        self.assertEqualArchives(a, b)
        self.assertEqualArchives(b, a)
        r = self.diff("--strict", a, b)
        self.assertEqual(r.code, 1)
        self.assertIn("w: storage changed: external (w.npy) -> inline (array_list_meta)", r.text)
        self.assertIn("meta:timestamp: value changed", r.text)
        self.assertIn("archive:__zanj__.json: storage changed: deflate -> store", r.text)

    def test_byte_order_and_fortran_order_are_storage(self):
        a = self.external("a.zanj")
        fortran = [W[r * 15 + c] for c in range(15) for r in range(20)]
        for name, npy in (("big.zanj", npy_bytes(">f8", (20, 15), pack_values(">d", W))),
                          ("fortran.zanj", npy_bytes("<f8", (20, 15), pack_values("<d", fortran), fortran=True))):
            root = json.loads(zipfile.ZipFile(a).read("__zanj__.json"))
            if name == "big.zanj":
                root["w"]["dtype"] = ">f8"
            b = write_reference_zanj(self.path(name), root, {"w.npy": npy, "log.jsonl": jsonl_bytes(ITEMS)})
            self.assertEqualArchives(a, b)

    def test_corpus_restored_and_reordered_is_equal(self):
        for name in archives():
            src = zipfile.ZipFile(corpus(name))
            copy = self.path("copy-" + name)
            with zipfile.ZipFile(copy, "w", zipfile.ZIP_STORED) as z:
                for info in reversed(src.infolist()):
                    z.writestr(info.filename, src.read(info))
            self.assertEqualArchives(corpus(name), copy)
            self.assertEqual(self.diff("--strict", "-q", corpus(name), copy).code, 1, name)

    def test_every_corpus_archive_equals_itself(self):
        for name in archives():
            self.assertEqualArchives(corpus(name), corpus(name), "--strict")
            if name not in ("nan_values.zanj", "dtypes.zanj"):  # these two hold NaNs
                self.assertEqualArchives(corpus(name), corpus(name), "--nan-unequal")

    def test_different_corpus_archives_differ(self):
        r = self.assertDiffers(corpus("basic.zanj"), corpus("stored.zanj"))
        self.assertIn("big_array: removed (array float32 [32, 16])", r.text)
        self.assertIn("data: added (array int64 [1000])", r.text)


class Values(DiffTest):
    def test_array_value_within_and_beyond_tolerance(self):
        a = self.external("a.zanj")
        w = list(W)
        w[7 * 15 + 3] += 0.25  # [7, 3]
        w[299] += 1e-6         # [19, 14]
        b = self.external("b.zanj", w=w)
        r = self.assertDiffers(a, b)
        self.assertIn("w: 2 of 300 elements differ (max abs diff 0.25 at [7, 3], max rel diff ", r.text)
        self.assertIn("1 difference found", r.text)
        self.assertEqualArchives(a, b, "--atol", "0.25")
        self.assertDiffers(a, b, "--atol", "0.2")
        # |a - b| <= rtol * |b|: 0.25 against b = 27.0 + 0.25 needs rtol >= 0.25 / 27.25 = 0.00917...
        self.assertEqualArchives(a, b, "--rtol", "0.0093")
        r = self.assertDiffers(a, b, "--rtol", "0.009")
        self.assertIn("1 of 300 elements differ", r.text)
        self.assertEqualArchives(a, b, "--tol", "w=0,0.3")
        self.assertEqualArchives(a, b, "--tol", "*=0,0.3", "--tol", "cfg=0")  # the last match wins
        self.assertDiffers(a, b, "--tol", "w=0,0.3", "--tol", "w*=0")

    def test_scalar_changed(self):
        a, b = self.external("a.zanj"), self.external("b.zanj", cfg={"lr": 0.002})
        r = self.assertDiffers(a, b)
        self.assertEqual(r.text.splitlines()[0], "cfg/lr: value changed: 0.001 -> 0.002 (abs diff 0.001, rel diff 0.5)")
        self.assertEqualArchives(a, b, "--atol", "0.001")
        r = self.assertDiffers(a, self.external("c.zanj", cfg={"name": "other"}))
        self.assertIn('cfg/name: value changed: "run" -> "other"', r.text)

    def test_key_added_and_removed(self):
        a, b = self.external("a.zanj"), self.external("b.zanj", cfg={"seed": 42})
        self.assertIn("cfg/seed: added (number 42)", self.assertDiffers(a, b).text)
        self.assertIn("cfg/seed: removed (number 42)", self.assertDiffers(b, a).text)

    def test_dtype_and_shape_changed(self):
        a = self.external("a.zanj")
        root = json.loads(zipfile.ZipFile(a).read("__zanj__.json"))
        root["w"]["dtype"] = "float32"
        b = write_reference_zanj(self.path("b.zanj"), root, {"w.npy": npy_bytes("<f4", (20, 15), pack_values("<f", W)),
                                                    "log.jsonl": jsonl_bytes(ITEMS)})
        r = self.assertDiffers(a, b)
        self.assertIn("w: dtype changed: float64 -> float32", r.text)
        # W holds quarters, exact in float32: the values themselves agree
        self.assertNotIn("elements differ", r.text)
        root["w"] = external_array("w.npy", "float64", [15, 20])
        c = write_reference_zanj(self.path("c.zanj"), root, {"w.npy": npy_bytes("<f8", (15, 20), pack_values("<d", W)),
                                                    "log.jsonl": jsonl_bytes(ITEMS)})
        self.assertIn("w: shape changed: [20, 15] -> [15, 20]", self.assertDiffers(a, c).text)

    def test_nans(self):
        w = list(W)
        w[5] = NAN
        a, b = self.external("a.zanj", w=w), self.external("b.zanj", w=w)
        self.assertEqualArchives(a, b)
        r = self.assertDiffers(a, b, "--nan-unequal")
        self.assertIn("w: 1 of 300 elements differ", r.text)
        w2 = list(w)
        w2[5] = 1.0
        self.assertIn("w: 1 of 300 elements differ", self.assertDiffers(a, self.external("c.zanj", w=w2)).text)
        self.assertEqualArchives(corpus("nan_values.zanj"), corpus("nan_values.zanj"))
        self.assertEqual(self.diff("--nan-unequal", "-q", corpus("nan_values.zanj"), corpus("nan_values.zanj")).code, 1)

    def test_external_list_items(self):
        items = [dict(x) for x in ITEMS]
        items[100]["loss"] = 0.5
        r = self.assertDiffers(self.external("a.zanj"), self.external("b.zanj", items=items))
        self.assertIn("log: 1 of 260 items differ (first at [100]: log/100/loss: value changed:", r.text)
        r = self.assertDiffers(self.external("a.zanj"), self.external("c.zanj", items=ITEMS[:-1]))
        self.assertIn("log: length changed: 260 -> 259", r.text)

    def test_exclude(self):
        a, b = self.external("a.zanj"), self.external("b.zanj", cfg={"lr": 9.0, "seed": 1}, items=ITEMS[:5])
        self.assertEqualArchives(a, b, "--exclude", "cfg", "--exclude", "log")
        self.assertDiffers(a, b, "--exclude", "cfg")
        self.assertEqualArchives(a, b, "--exclude", "cfg/*", "--exclude", "l*")

    def test_table_rows(self):
        rows = [{"id": i, "score": i / 10, "name": "n%d" % i} for i in range(50)]
        table = {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
                 "columns": ["id", "score", "name"], "len(data)": 50}
        a = write_reference_zanj(self.path("a.zanj"), {"t": table}, {"t.jsonl": jsonl_bytes(rows)})
        rows[17]["score"] += 0.01
        b = write_reference_zanj(self.path("b.zanj"), {"t": table}, {"t.jsonl": jsonl_bytes(rows)})
        r = self.assertDiffers(a, b)
        self.assertIn('t: 1 of 50 rows differ (first at [17, "score"]: 1.7 -> 1.71', r.text)
        self.assertEqualArchives(a, b, "--tol", "t/score=0.01")
        self.assertEqualArchives(a, b, "--exclude", "t/score")


class Report(DiffTest):
    def test_json_report(self):
        w = list(W)
        w[0] = 5.0
        a, b = self.external("a.zanj"), self.external("b.zanj", w=w, cfg={"lr": 0.01, "new": True})
        r = self.diff("--json", "--rtol", "1e-9", a, b)
        self.assertEqual(r.code, 1, r.err)
        doc = r.json()
        self.assertEqual((doc["a"], doc["b"], doc["equal"]), (a, b, False))
        self.assertEqual(doc["options"]["rtol"], 1e-9)
        self.assertEqual(doc["options"]["nan_equal"], True)
        by_path = {d["path"]: d for d in doc["differences"]}
        self.assertEqual(set(by_path), {"cfg/lr", "cfg/new", "w"})
        self.assertEqual((by_path["cfg/lr"]["kind"], by_path["cfg/lr"]["a"], by_path["cfg/lr"]["b"]),
                         ("value_changed", 0.001, 0.01))
        self.assertEqual(by_path["cfg/new"]["kind"], "added")
        self.assertIsNone(by_path["cfg/new"]["a"])
        w_diff = by_path["w"]
        self.assertEqual(w_diff["kind"], "array_values")
        self.assertEqual(w_diff["scope"], "object")
        self.assertEqual((w_diff["unit"], w_diff["compared"], w_diff["differing"]), ("elements", 300, 1))
        self.assertEqual(w_diff["max_abs_diff"], 5.0)
        self.assertEqual(w_diff["max_abs_diff_at"], [0, 0])
        self.assertEqual(w_diff["max_rel_diff"], 1.0)  # |0 - 5| / |5|
        self.assertEqual(w_diff["first_at"], [0, 0])
        self.assertEqual(w_diff["rtol"], 1e-9)
        equal = self.diff("--json", a, a).json()
        self.assertEqual((equal["equal"], equal["differences"]), (True, []))
        self.assertEqual(self.diff("--json", a, a).code, 0)

    def test_brief_prints_nothing(self):
        a, b = self.external("a.zanj"), self.external("b.zanj", cfg={"lr": 1.0})
        for args, code in (((a, b), 1), ((a, a), 0)):
            r = self.diff("-q", *args)
            self.assertEqual((r.code, r.out, r.err), (code, b"", ""))
        self.assertEqual(self.diff("--brief", a, b).code, 1)


class Errors(DiffTest):
    def test_missing_files_exit_2(self):
        a = self.external("a.zanj")
        self.assertFails(self.diff(a, self.path("nope.zanj")), 2, "nope.zanj")
        self.assertFails(self.diff(self.path("nope.zanj"), a), 2, "nope.zanj")
        self.assertFails(self.diff("-q", a, self.tmp.name), 2)

    def test_invalid_archives_exit_2(self):
        a = self.external("a.zanj")
        self.assertFails(self.diff(a, corpus("malformed", "truncated.zanj")), 2)
        bad = self.path("bad.zanj")
        with open(bad, "wb") as f:
            f.write(b"not a zip file at all" * 20)
        self.assertFails(self.diff(bad, a), 2, "not a ZIP")
        # a member missing or an array whose .npy disagrees with its node is an error, not a difference
        with zipfile.ZipFile(a) as z:
            root = json.loads(z.read("__zanj__.json"))
        gone = write_reference_zanj(self.path("gone.zanj"), root, {"log.jsonl": jsonl_bytes(ITEMS)})
        self.assertFails(self.diff(a, gone), 2, "w.npy")
        short = write_reference_zanj(self.path("short.zanj"), root, {"w.npy": npy_bytes("<f8", (20, 15), pack_values("<d", W[:-1])),
                                                             "log.jsonl": jsonl_bytes(ITEMS)})
        self.assertFails(self.diff(a, short), 2)

    def many_arrays(self, name, changed=(), broken=None):
        """Twelve external arrays, `changed` ones with other values, `broken` one cut short."""
        root, members = {"n": 1}, {}
        for i in range(12):
            values = [float(i * 1000 + k) for k in range(300)]
            if i in changed:
                values[7 * i] += 0.5
            data = pack_values("<d", values)
            if i == broken:
                data = data[:-8]
            root["w%02d" % i] = external_array("w%02d.npy" % i, "float64", [300])
            members["w%02d.npy" % i] = npy_bytes("<f8", (300,), data)
        return write_reference_zanj(self.path(name), root, members)

    def test_jobs_give_one_report(self):
        # The arrays are compared on several threads; the report, its order and its counts are
        # the one thread's, and so is the error for an array that cannot be read.
        a, b = self.many_arrays("a.zanj"), self.many_arrays("b.zanj", changed=(2, 5, 11))
        one = self.diff("--json", "-j", "1", a, b)
        self.assertEqual(one.code, 1, one.err)
        report = one.json()
        self.assertEqual([d["path"] for d in report["differences"]], ["w02", "w05", "w11"])
        self.assertEqual(report["elements_compared"], 3600)
        for jobs in ("2", "5", "16"):
            with self.subTest(jobs=jobs):
                r = self.diff("--json", "-j", jobs, a, b)
                self.assertEqual((r.code, r.out), (one.code, one.out))
                self.assertEqual(self.diff("-j", jobs, a, b).out, self.diff("-j", "1", a, b).out)
        broken = self.many_arrays("broken.zanj", changed=(2,), broken=9)
        single = self.assertFails(self.diff("-j", "1", a, broken), 2, "w09")
        for jobs in ("3", "12"):
            self.assertEqual(self.assertFails(self.diff("-j", jobs, a, broken), 2).err, single.err)
        self.assertEqual(self.diff("-j", "0", a, b).code, 2)

    def test_standard_input(self):
        a, b = self.external("a.zanj"), self.external("b.zanj", cfg={"lr": 1.0})
        with open(a, "rb") as f:
            data = f.read()
        self.assertEqual(run("diff", "-", a, stdin=data).code, 0)
        r = run("diff", b, "-", stdin=data)
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("cfg/lr: value changed: 1.0 -> 0.001", r.text)
        self.assertFails(run("diff", "-", "-", stdin=data), 2, "standard input")

    def test_bad_options_exit_2(self):
        a = self.external("a.zanj")
        self.assertFails(self.diff("--atol", "-1", a, a), 2, "--atol")
        self.assertFails(self.diff("--tol", "w", a, a), 2, "--tol")
        self.assertEqual(self.diff(a).code, 2)

    def test_malformed_never_crash(self):
        from common import malformed
        for m in malformed():
            r = self.diff(m, corpus("basic.zanj"))
            self.assertNotCrashed(r)
            self.assertIn(r.code, (0, 1, 2), f"{m}: {r.err}")  # some hold the same objects as basic

    def test_help_documents_exit_codes_and_formula(self):
        r = self.assertOk(run("diff", "--help"))
        self.assertIn("|a - b| <= atol + rtol * |b|", r.text)
        status = r.text.split("Exit status:\n", 1)[1]
        self.assertRegex(status, r"(?m)^  0 +No differences\.$")
        self.assertRegex(status, r"(?m)^  1 +Differences found\.$")
        self.assertRegex(status, r"(?m)^  2 +Error")


if __name__ == "__main__":
    main()
