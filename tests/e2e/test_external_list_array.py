"""End-to-end: an inline (array_list_meta) array whose "data" list went to a .jsonl member, as
the Python library writes it when external_array_threshold is above external_list_threshold.
The library cannot load it back (TypeError); zanj's cat, diff and stats read its values, and
verify reports it (invalid)."""
import json
import os
import shutil
import tempfile

from common import ZanjTest, jsonl_bytes, main, run, write_reference_zanj

VECTOR = [i * 0.5 - 7.25 for i in range(600)]
MATRIX = [[i, -i, i * 3] for i in range(300)]
CFG = {"array_mode": "array_list_meta", "external_array_threshold": 1024, "external_list_threshold": 256,
       "compress": 8}


def array_list_meta(dtype, shape, data):
    n = 1
    for d in shape:
        n *= d
    # The library's key order: the format key, data, shape, dtype, n_elements.
    return {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": data, "shape": shape, "dtype": dtype,
            "n_elements": n}


def external_data(ref):
    return {"__muutils_format__": "list:external", "$ref": ref}


def write_archives(tmp):
    """The archive as the library writes it, and the same values inline (what a lower list
    threshold would have written)."""
    split = os.path.join(tmp, "split.zanj")
    write_reference_zanj(split, {"vector": array_list_meta("float32", [600], external_data("vector/data.jsonl")),
                                 "matrix": array_list_meta("int64", [300, 3], external_data("matrix/data.jsonl")),
                                 "name": "run"},
                         {"vector/data.jsonl": jsonl_bytes(VECTOR), "matrix/data.jsonl": jsonl_bytes(MATRIX)},
                         cfg=CFG)
    whole = os.path.join(tmp, "inline.zanj")
    write_reference_zanj(whole, {"vector": array_list_meta("float32", [600], VECTOR),
                                 "matrix": array_list_meta("int64", [300, 3], MATRIX), "name": "run"}, cfg=CFG)
    return split, whole


class ExternalListArray(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.split, cls.whole = write_archives(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_cat_reads_the_values(self):
        self.assertEqual(json.loads(self.assertOk(run("cat", "--json", self.split, "vector")).out), VECTOR)
        self.assertEqual(json.loads(self.assertOk(run("cat", "--json", self.split, "matrix")).out), MATRIX)
        self.assertEqual(json.loads(self.assertOk(run("cat", "--json", self.split, "matrix[-2:, 1]")).out),
                         [-298, -299])
        for args in (["vector"], ["-f", "csv", "matrix"], ["--head", "3", "matrix"]):
            self.assertEqual(self.assertOk(run("cat", self.split, *args)).out,
                             self.assertOk(run("cat", self.whole, *args)).out, args)

    def test_stats_and_diff_read_the_values(self):
        self.assertEqual(self.assertOk(run("stats", self.split)).out, self.assertOk(run("stats", self.whole)).out)
        self.assertEqual(self.assertOk(run("diff", self.split, self.whole)).text, "no differences found\n")
        # A changed value in the .jsonl is a difference like any other.
        changed = os.path.join(self.tmp, "changed.zanj")
        write_reference_zanj(changed, {"vector": array_list_meta("float32", [600], external_data("vector/data.jsonl")),
                                       "matrix": array_list_meta("int64", [300, 3], MATRIX), "name": "run"},
                             {"vector/data.jsonl": jsonl_bytes(VECTOR[:-1] + [1000.0])}, cfg=CFG)
        r = run("diff", self.split, changed)
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("vector: 1 of 600 elements differ", r.text)

    def test_verify_reports_what_the_library_cannot_load(self):
        r = run("verify", "--json", self.split)
        self.assertEqual(r.code, 1, r.err)
        doc = r.json()
        self.assertFalse(doc["ok"])
        errors = [e for e in doc["errors"] if e["code"] == "inline_array_invalid"]
        self.assertEqual(sorted(e["path"] for e in errors), ["matrix", "vector"])
        self.assertIn("the library fails to load it", errors[0]["message"])
        self.assertIn("external list", errors[0]["message"])
        self.assertEqual([e["code"] for e in doc["errors"] if e["code"] != "inline_array_invalid"], [])
        self.assertOk(run("verify", self.whole))

    def test_a_missing_data_member_is_an_error(self):
        broken = os.path.join(self.tmp, "missing.zanj")
        write_reference_zanj(broken, {"vector": array_list_meta("float32", [600], external_data("vector/data.jsonl"))},
                             cfg=CFG)
        self.assertFails(run("cat", broken, "vector"), 1, "vector/data.jsonl")


if __name__ == "__main__":
    main()
