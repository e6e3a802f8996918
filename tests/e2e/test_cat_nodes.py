"""End-to-end: `zanj cat` on tables, external lists, plain JSON nodes, --resolve, --member, and
errors (bad paths, bad slices, corrupt members, malformed archives)."""
import csv
import io
import json
import math
import os
import struct
import tempfile
import zipfile

from common import (ZanjTest, archives, corpus, facts, json_difference, main, malformed, npy_bytes, resolved_at, run,
                    run_on_terminal, write_zanj)


class Tables(ZanjTest):
    def test_rows_as_json_lines_json_and_csv(self):
        rows = resolved_at("dataframe.zanj", ["table"])["data"]
        out = self.assertOk(run("cat", corpus("dataframe.zanj"), "table")).text.splitlines()
        self.assertEqual(len(out), 400)
        self.assertIsNone(json_difference([json.loads(x) for x in out], rows))
        got = self.assertOk(run("cat", "--json", corpus("dataframe.zanj"), "table")).json()
        self.assertIsNone(json_difference(got, rows))
        table = list(csv.DictReader(io.StringIO(self.assertOk(run("cat", "-f", "csv", corpus("dataframe.zanj"), "table")).text)))
        self.assertEqual(list(table[0]), ["id", "score", "name", "ok"])
        self.assertEqual(len(table), 400)
        for got, want in zip(table, rows):
            self.assertEqual(int(got["id"]), want["id"])
            self.assertEqual(float(got["score"]), want["score"])
            self.assertEqual(got["name"], want["name"])
            self.assertEqual(got["ok"], "true" if want["ok"] else "false")

    def test_row_selection(self):
        rows = resolved_at("dataframe.zanj", ["table"])["data"]
        for args, want in ((["table[10:13]"], rows[10:13]), (["table[-2:]"], rows[-2:]), (["table[::-100]"], rows[::-100]),
                           (["--head", "3", "table"], rows[:3]), (["--tail", "2", "table"], rows[-2:]),
                           (["--head", "5", "table[100::10]"], rows[100::10][:5])):
            got = self.assertOk(run("cat", "--json", corpus("dataframe.zanj"), *args)).json()
            self.assertIsNone(json_difference(got, want), args)
        one = self.assertOk(run("cat", "--json", corpus("dataframe.zanj"), "table[7]")).json()
        self.assertIsNone(json_difference(one, rows[7]))
        self.assertFails(run("cat", corpus("dataframe.zanj"), "table[400]"), 2, "out of range")
        self.assertFails(run("cat", corpus("dataframe.zanj"), "table[1, 2]"), 2, "one dimension")

    def test_missing_values(self):
        out = self.assertOk(run("cat", "-f", "csv", corpus("nan_values.zanj"), "table")).text
        self.assertEqual(out, "x,y\n1.0,a\n,\n3.0,c\n")  # NaN is missing too, empty as pandas writes it
        got = self.assertOk(run("cat", corpus("nan_values.zanj"), "table[1]")).json()
        self.assertTrue(math.isnan(got["x"]) and got["y"] is None)

    def test_lists_and_tuples(self):
        for key in ("tup", "strings", "mixed"):
            want = resolved_at("tuple_list.zanj", [key])["data"]
            lines = self.assertOk(run("cat", corpus("tuple_list.zanj"), key)).text.splitlines()
            self.assertIsNone(json_difference([json.loads(x) for x in lines], want), key)
            self.assertIsNone(json_difference(self.assertOk(run("cat", "--json", corpus("tuple_list.zanj"), key)).json(), want))
        got = self.assertOk(run("cat", "--json", "--tail", "3", corpus("basic.zanj"), "long_list")).json()
        self.assertEqual(got, [297, 298, 299])
        self.assertFails(run("cat", "-f", "csv", corpus("tuple_list.zanj"), "mixed"), 2, "lists")
        self.assertFails(run("cat", "-f", "raw", corpus("dataframe.zanj"), "table"), 2, "tables")


class Resolve(ZanjTest):
    def test_every_archive_equals_the_reference_loader(self):
        for a in archives():
            got = self.assertOk(run("cat", "--resolve", "--format", "json", corpus(a))).json()
            self.assertIsNone(json_difference(got, facts(a)["resolved"]), a)

    def test_subtrees(self):
        got = self.assertOk(run("cat", "--resolve", corpus("model.zanj"), "state_dict")).json()
        self.assertIsNone(json_difference(got, facts("model.zanj")["resolved"]["state_dict"]))
        arr = self.assertOk(run("cat", "--resolve", corpus("basic.zanj"), "big_array")).json()
        self.assertEqual(list(arr)[-1], "data")
        self.assertFails(run("cat", "--resolve", corpus("basic.zanj"), "big_array[0]"), 2)
        self.assertFails(run("cat", "--resolve", "-f", "csv", corpus("basic.zanj")), 2)

    def test_pretty_on_a_terminal_one_line_in_a_pipe(self):
        self.assertEqual(len(run("cat", "--resolve", corpus("tuple_list.zanj")).text.splitlines()), 1)
        text = self.assertOk(run_on_terminal("cat", "--resolve", corpus("tuple_list.zanj"))).text
        self.assertIn('\n  "tup": {\n    "__muutils_format__": "tuple:external",', text)
        self.assertEqual(json.loads(text)["tup"]["data"], list(range(20)))


class OtherNodes(ZanjTest):
    def test_plain_json(self):
        self.assertEqual(self.assertOk(run("cat", corpus("basic.zanj"), "tags")).json(), ["a", "b", "c"])
        self.assertEqual(self.assertOk(run("cat", corpus("basic.zanj"), "nested/deeper/word")).json(), "x")
        cfg = self.assertOk(run("cat", corpus("nan_values.zanj"), "cfg")).text
        self.assertEqual(cfg, '{"lr": NaN, "best": Infinity, "worst": -Infinity, "name": "NaN is not a string here"}\n')
        root = self.assertOk(run("cat", corpus("dataclass.zanj"))).json()
        self.assertEqual(root["__muutils_format__"], "Experiment(SerializableDataclass)")
        self.assertEqual(root["weights"]["$ref"], "weights.npy")  # not resolved without --resolve
        self.assertFails(run("cat", "-f", "npy", corpus("basic.zanj"), "tags"), 2)
        self.assertFails(run("cat", "--head", "1", corpus("basic.zanj")), 2, "the root is a dict")

    def test_standard_input(self):
        with open(corpus("basic.zanj"), "rb") as f:
            data = f.read()
        want = run("cat", "-f", "raw", corpus("basic.zanj"), "big_array").out
        self.assertEqual(self.assertOk(run("cat", "-f", "raw", "-", "big_array", stdin=data)).out, want)  # a pipe
        with open(corpus("basic.zanj"), "rb") as f:
            self.assertEqual(self.assertOk(run("cat", "-f", "raw", "-", "big_array", stdin=f)).out, want)  # a file
        with zipfile.ZipFile(corpus("basic.zanj")) as z:
            self.assertEqual(self.assertOk(run("cat", "--member", "big_array.npy", "-", stdin=data)).out,
                             z.read("big_array.npy"))
        self.assertFails(run("cat", "-", "nope", stdin=data), 1, "<stdin>: no object at path 'nope'")
        self.assertFails(run("cat", "/nonexistent.zanj"), 2, "/nonexistent.zanj")

    def test_member_bytes(self):
        with zipfile.ZipFile(corpus("basic.zanj")) as z:
            for name in z.namelist():
                self.assertEqual(self.assertOk(run("cat", "--member", name, corpus("basic.zanj"))).out, z.read(name))
        self.assertFails(run("cat", "--member", "nope.npy", corpus("basic.zanj")), 1, "no member named 'nope.npy'")
        self.assertFails(run("cat", "--member", "big_array.npy", "--resolve", corpus("basic.zanj")), 2, "--member")
        self.assertFails(run("cat", "--member", "big_array.npy", corpus("basic.zanj"), "big_array"), 2, "object path")
        self.assertFails(run("cat", "--member", "big_array.npy", corpus("malformed", "bad_crc.zanj")), 1, "CRC-32")


class Errors(ZanjTest):
    def test_missing_path_names_parent_and_children(self):
        r = self.assertFails(run("cat", corpus("basic.zanj"), "nested/deeper/nope"), 1)
        self.assertIn("'nested/deeper' has no 'nope'", r.err)
        self.assertIn("matrix, word", r.err)
        self.assertFails(run("cat", corpus("basic.zanj"), "nope[1]"), 1, "the root has no 'nope'")
        self.assertFails(run("cat", corpus("basic.zanj"), "tags/7"), 1, "indices 0 to 2")
        # a path goes on into an external list's rows (issue 25): row 7 is a node of its own
        self.assertEqual(self.assertOk(run("cat", corpus("basic.zanj"), "long_list/7")).json(), 7)
        self.assertFails(run("cat", corpus("basic.zanj"), "long_list/x"), 1, "select rows with a slice")

    def test_bad_slices(self):
        for text, message in (("[1:2:0]", "step cannot be zero"), ("[x]", "not an integer"), ("[0,,1]", "empty index"),
                              ("[1, 2, 3]", "3 indices but the array has 2 dimensions"),
                              ("[32]", "index 32 is out of range for axis 0 with size 32"),
                              ("[:, -17]", "axis 1 with size 16")):
            r = self.assertFails(run("cat", corpus("basic.zanj"), "big_array" + text), 2, message)
            self.assertIn("big_array", r.err)
        self.assertFails(run("cat", "-f", "jsonl", corpus("basic.zanj"), "big_array"), 2, "does not apply to arrays")
        self.assertFails(run("cat", "--json", "-f", "csv", corpus("basic.zanj"), "big_array"), 2, "conflicts")
        self.assertFails(run("cat", "--head", "1", corpus("basic.zanj"), "big_array[0, 0]"), 2, "single value")
        self.assertEqual(run("cat", "-f", "xml", corpus("basic.zanj")).code, 2)

    def test_corrupt_members_stop_with_exit_1(self):
        self.assertFails(run("cat", corpus("malformed", "bad_crc.zanj"), "big_array"), 1, "CRC-32 mismatch")
        r = self.assertFails(run("cat", "--resolve", corpus("malformed", "bad_crc.zanj")), 1, "CRC-32 mismatch")
        self.assertTrue(r.out.startswith(b'{"name": "basic example"'), r.out[:100])  # what came before is printed
        self.assertFails(run("cat", corpus("malformed", "npy_shape_mismatch.zanj"), "big_array"), 1, "has shape [3, 7]")
        self.assertFails(run("cat", corpus("malformed", "missing_external.zanj"), "big_array"), 1, "not in the archive")

    def test_values_before_the_corruption_are_printed(self):
        with tempfile.TemporaryDirectory() as tmp:
            n = 1 << 18  # 2 MiB of float64: several chunks
            data = struct.pack(f"<{n}d", *range(n))
            root = {"a": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [n], "dtype": "float64"}}
            path = write_zanj(os.path.join(tmp, "c.zanj"), root, {"a.npy": npy_bytes("<f8", [n], data)}, stored=True)
            with open(path, "rb") as f:
                blob = bytearray(f.read())
            blob[blob.rindex(data[-64:]) + 8] ^= 0xFF  # a byte near the member's end
            with open(path, "wb") as f:
                f.write(blob)
            r = self.assertFails(run("cat", "-f", "raw", path, "a"), 1, "CRC-32 mismatch")
            self.assertGreaterEqual(len(r.out), 1 << 20)
            self.assertEqual(r.out[:1 << 20], data[:1 << 20])
            self.assertFails(run("cat", path, "a"), 1, "CRC-32")

    def test_inconsistent_inline_arrays(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_zanj(os.path.join(tmp, "i.zanj"), {
                "ragged": {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [[1, 2], [3]], "shape": [2, 2], "dtype": "int8"},
                "short": {"__muutils_format__": "numpy.ndarray:array_hex_meta", "data": "0102", "shape": [2], "dtype": "int16"},
                "wide": {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [300], "shape": [1], "dtype": "uint8"},
                "bf16": {"__muutils_format__": "torch.Tensor:array_list_meta", "data": [1], "shape": [1], "dtype": "torch.bfloat16"}})
            self.assertFails(run("cat", path, "ragged"), 1, "data[1] should be a list of 2 elements")
            self.assertFails(run("cat", path, "short"), 1, "needs 4")
            self.assertFails(run("cat", path, "wide"), 1, "not an integer in [0, 255]")
            self.assertFails(run("cat", path, "bf16"), 1, "unsupported dtype 'torch.bfloat16'")
            self.assertOk(run("cat", "--resolve", path))  # inline nodes are shown as stored

    def test_malformed_never_crash(self):
        for m in malformed():
            for args in ([], ["--resolve"], ["big_array"], ["big_array", "-f", "raw"], ["--member", "big_array.npy"]):
                r = run("cat", m, *args, timeout=30) if args[:1] != ["--member"] else run("cat", *args, m, timeout=30)
                self.assertNotCrashed(r)
                self.assertIn(r.code, (0, 1), f"{m} {args}: {r.err}")
                if r.code:
                    self.assertTrue(r.err.startswith("zanj: error: "), r.err)

    def test_help_teaches(self):
        text = self.assertOk(run("cat", "--help")).text
        for word in ("--format", "--resolve", "--member", "--head", "Examples", "Exit status", "w[0:10]", "raw", "npy"):
            self.assertIn(word, text)


if __name__ == "__main__":
    main()
