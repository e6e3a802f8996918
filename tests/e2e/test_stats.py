"""End-to-end: `zanj stats` against the facts the reference library wrote for every corpus array."""
import json
import math
import os
import struct
import tempfile
import zipfile

from common import (ZanjTest, archives, corpus, external_array, facts, main, npy_bytes, numpy_name, obj_path, pack_values, run,
                    write_zanj)


def close(x, y, rel=1e-9):
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= rel * max(1.0, abs(x), abs(y))


class Stats(ZanjTest):
    def stats(self, *args):
        doc = self.assertOk(run("stats", "--json", *args)).json()
        return {a["path"]: a for a in doc["arrays"]}

    def test_every_corpus_array_matches_facts(self):
        checked = 0
        for name in archives():
            got = self.stats(corpus(name))
            want = facts(name)["arrays"]
            self.assertEqual(sorted(got), sorted(obj_path(a["path"]) for a in want), name)
            for a in want:
                s = got[obj_path(a["path"])]
                where = f"{name}:{obj_path(a['path'])}"
                self.assertEqual(s["count"], a["n_elements"], where)
                self.assertEqual((s["dtype"], s["shape"]), (numpy_name(a["dtype"]), a["shape"]), where)
                if a.get("min") is None:  # complex: no order, counts only
                    self.assertIsNone(s["min"], where)
                    continue
                # the array's own values, exactly (the facts hold them as Python floats)
                self.assertEqual(float(s["min"]), a["min"], where)
                self.assertEqual(float(s["max"]), a["max"], where)
                self.assertTrue(close(s["sum"], a["sum"]), f"{where}: sum {s['sum']} != {a['sum']}")
                if s["finite"] and math.isfinite(a["sum"]):
                    self.assertTrue(close(s["mean"], a["sum"] / s["finite"]), where)
                self.assertEqual(s["count"], s["finite"] + s["nan"] + s["pos_inf"] + s["neg_inf"], where)
                checked += 1
        self.assertGreater(checked, 30)

    def test_nan_and_inf_counts(self):
        s = self.stats(corpus("nan_values.zanj"))["small"]
        self.assertEqual((s["count"], s["finite"], s["nan"], s["pos_inf"], s["neg_inf"]), (4, 1, 1, 1, 1))
        self.assertEqual((s["min"], s["max"], s["mean"], s["std"]), (1.0, 1.0, 1.0, 0.0))

    def test_mean_and_std(self):
        with tempfile.TemporaryDirectory() as tmp:
            values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] * 40  # 320: external
            p = write_zanj(os.path.join(tmp, "s.zanj"), {"x": external_array("x.npy", ">f8", [320])},
                           {"x.npy": npy_bytes(">f8", (320,), pack_values(">d", values))})
            s = self.stats(p)["x"]
            self.assertEqual((s["mean"], s["std"], s["min"], s["max"], s["sum"]), (5.0, 2.0, 2.0, 9.0, 1600.0))

    def test_integers_are_exact(self):
        # 64-bit extremes beyond 2^53, read straight from the .npy bytes here
        with zipfile.ZipFile(corpus("dtypes.zanj")) as z:
            for name, fmt in (("i8", "<q"), ("u8", "<Q")):
                raw = z.read(name + ".npy")
                start = 10 + struct.unpack("<H", raw[8:10])[0]
                values = struct.unpack("<%d%s" % (300, fmt[1]), raw[start:])
                s = self.stats(corpus("dtypes.zanj"), name)[name]
                self.assertIsInstance(s["max"], int)
                self.assertEqual((s["min"], s["max"]), (min(values), max(values)), name)

    def test_path_glob_and_text(self):
        got = self.stats(corpus("model.zanj"), "state_dict", "--glob", "*weight*")
        self.assertEqual(sorted(got), ["state_dict/net.0.weight", "state_dict/net.2.weight", "state_dict/net.4.weight"])
        text = self.assertOk(run("stats", corpus("basic.zanj"))).text.splitlines()
        self.assertEqual(text[0].split(), ["path", "dtype", "shape", "count", "min", "max", "mean", "std", "nan", "inf"])
        row = next(line for line in text if line.startswith("small_array"))
        # int32 [[0, 1, 2], [3, 4, 5]]: std = sqrt(17.5 / 6)
        self.assertEqual(row.split(), ["small_array", "int32", "[2,", "3]", "6", "0", "5", "2.5", "1.70783", "0", "0"])

    def test_lists_and_table_columns(self):
        # A list of numbers and each numeric column of a table get their statistics, computed
        # here from the rows themselves; a column of strings gets none.
        doc = self.assertOk(run("stats", "--json", corpus("dataframe.zanj"))).json()
        values = {v["path"]: v for v in doc["values"]}
        with zipfile.ZipFile(corpus("dataframe.zanj")) as z:
            rows = [json.loads(line) for line in z.read("table.jsonl").decode().splitlines() if line]
        numeric = [c for c in rows[0] if all(isinstance(r[c], (int, float)) for r in rows)]
        self.assertTrue(numeric)
        self.assertEqual(sorted(p for p in values if p.startswith("table/")), sorted("table/" + c for c in numeric))
        for c in numeric:
            cells = [float(r[c]) for r in rows]
            got = values["table/" + c]
            self.assertEqual(got["kind"], "column")
            self.assertEqual(got["count"], len(cells))
            self.assertTrue(close(got["mean"], sum(cells) / len(cells)), c)
            self.assertTrue(close(float(got["min"]), min(cells)) and close(float(got["max"]), max(cells)), c)
        basic = self.assertOk(run("stats", "--json", corpus("basic.zanj"))).json()
        lists = {v["path"]: v for v in basic["values"]}
        with zipfile.ZipFile(corpus("basic.zanj")) as z:
            items = [json.loads(line) for line in z.read("long_list.jsonl").decode().splitlines() if line]
        self.assertEqual((lists["long_list"]["kind"], lists["long_list"]["count"]), ("list", len(items)))
        self.assertTrue(close(lists["long_list"]["mean"], sum(items) / len(items)))
        self.assertNotIn("tags", lists)  # strings: nothing to count
        # A path with nothing to count says so, on stdout, exit 0.
        r = self.assertOk(run("stats", corpus("basic.zanj"), "nested/deeper/word"))
        self.assertIn("no arrays, lists of numbers or numeric table columns at 'nested/deeper/word'", r.text)
        # The items of a list are not lists of their own to report, a million rows of
        # [0, 0, ...] included: one line would be printed per row.
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "rows.zanj")
            with zipfile.ZipFile(p, "w") as z:
                z.writestr("__zanj__.json", json.dumps({"l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"}}))
                z.writestr("__zanj_meta__.json", json.dumps({"externals_info": {"l.jsonl": {"item_type": "jsonl", "path": ["l"]}}}))
                z.writestr("l.jsonl", "[0, 1]\n" * 50)
            self.assertEqual(self.assertOk(run("stats", "--json", p)).json()["values"], [])
        # A --glob that matches nothing is an error, as in ls.
        self.assertFails(run("stats", corpus("basic.zanj"), "--glob", "zzz*"), 1, "matches --glob 'zzz*'")

    def test_standard_input(self):
        with open(corpus("basic.zanj"), "rb") as f:
            doc = self.assertOk(run("stats", "--json", "-", stdin=f.read())).json()
        self.assertEqual([a["path"] for a in doc["arrays"]], ["small_array", "big_array", "nested/deeper/matrix"])

    def test_hist_in_utf8_and_c_locales(self):
        blocks = set("\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588")
        lines = {}
        for name, locale in (("utf8", "C.UTF-8"), ("c", "C")):
            r = self.assertOk(run("stats", "--hist", corpus("model.zanj"), "state_dict/net.0.weight",
                                  env={"LC_ALL": locale, "COLUMNS": "60", "NO_COLOR": "1"}))
            text = r.out.decode("utf-8")
            self.assertNotIn("\x1b", text)
            rows = text.splitlines()
            self.assertTrue(rows[1].startswith("state_dict/net.0.weight"), rows)
            lines[name] = rows[2]
            self.assertLessEqual(len(rows[2]), 60, rows[2])
            self.assertTrue(rows[2].startswith("  -0.245863 ") and rows[2].endswith(" 0.249526"), rows[2])
        self.assertTrue(set(lines["utf8"]) & blocks, lines["utf8"])
        self.assertTrue(all(ord(c) < 128 for c in lines["c"]), lines["c"])
        self.assertTrue(set(lines["c"]) & set(".:-=+*#@"), lines["c"])
        # --json: the bins count every finite value; the statistics are those without --hist
        doc = self.assertOk(run("stats", "--hist", "--json", corpus("nan_values.zanj"))).json()
        small = doc["arrays"][0]
        self.assertEqual(sum(small["histogram"]["counts"]), small["finite"])
        self.assertEqual(self.stats(corpus("nan_values.zanj"))["small"]["mean"], small["mean"])

    def test_errors(self):
        self.assertFails(run("stats", corpus("basic.zanj"), "nope"), 1, "nope")
        self.assertFails(run("stats", corpus("malformed", "bad_crc.zanj")), 1, "CRC")
        self.assertFails(run("stats", corpus("malformed", "npy_shape_mismatch.zanj")), 1)
        self.assertFails(run("stats", "/nonexistent.zanj"), 2)
        r = self.assertOk(run("stats", "--help"))
        self.assertIn("Exit status", r.text)


if __name__ == "__main__":
    main()
