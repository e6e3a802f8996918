"""End-to-end: plain values for scripts. `cat --plain` of every corpus archive equals the
reference library's loaded object made plain (numpy tolist(), pandas to_dict("records"), no
__muutils_format__ wrappers), taken from the facts' `resolved` document; `--columns`. `ls`
for scripts and terminals: scalar values in --json, --kind, --sort, --tree, paths cut to a fixed
COLUMNS (--wide keeps them), aligned -l sizes, -1 without the root, singular counts."""
import base64
import os
import unittest

from common import (ZanjTest, archives, corpus, decode_raw, facts, json_difference, main, nest, precision, run,
                    run_on_terminal, strip_ansi)

FORMAT_KEY = "__muutils_format__"


def is_array(node):
    return isinstance(node, dict) and str(node.get(FORMAT_KEY, "")).startswith(("numpy.ndarray:", "torch.Tensor:"))


def array_values(node):
    """an array node of the facts as numpy's tolist() gives it (facts spell NaN "nan")"""
    data, fmt = node["data"], node[FORMAT_KEY]
    if fmt.endswith(("array_b64_meta", "array_hex_meta")) and isinstance(data, str):
        raw = base64.b64decode(data) if fmt.endswith("b64_meta") else bytes.fromhex(data)
        return nest(decode_raw(raw, node["dtype"]), node["shape"])
    return data


def plain_difference(got, want, where=""):
    """None when `got` is the plain form of the facts' resolved node `want`"""
    if is_array(want):
        return json_difference(got, array_values(want), where, precision(want["dtype"]))
    if isinstance(want, dict) and FORMAT_KEY in want and str(want[FORMAT_KEY]).endswith(":external"):
        return json_difference(got, want["data"], where)  # a table's rows or a list's items
    if isinstance(want, dict):
        fields = {k: v for k, v in want.items() if k != FORMAT_KEY}
        if not isinstance(got, dict) or list(got) != list(fields):
            return f"{where}: keys {list(got) if isinstance(got, dict) else type(got).__name__} != {list(fields)}"
        for k, v in fields.items():
            d = plain_difference(got[k], v, f"{where}/{k}")
            if d:
                return d
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{where}: {str(got)[:80]} != {str(want)[:80]}"
        for i, (a, b) in enumerate(zip(got, want)):
            d = plain_difference(a, b, f"{where}/{i}")
            if d:
                return d
        return None
    return json_difference(got, want, where)


def no_wrappers(value):
    if isinstance(value, dict):
        return FORMAT_KEY not in value and all(no_wrappers(v) for v in value.values())
    if isinstance(value, list):
        return all(no_wrappers(v) for v in value)
    return True


class CatPlain(ZanjTest):
    def test_every_corpus_archive_equals_the_loaded_object(self):
        for a in archives():
            with self.subTest(archive=a):
                got = self.assertOk(run("cat", "--plain", corpus(a))).json()
                self.assertTrue(no_wrappers(got))
                self.assertIsNone(plain_difference(got, facts(a)["resolved"]), a)

    def test_a_subtree_and_json_format(self):
        got = self.assertOk(run("cat", "--plain", "-f", "json", corpus("model.zanj"), "state_dict")).json()
        self.assertIsNone(plain_difference(got, facts("model.zanj")["resolved"]["state_dict"]))
        self.assertTrue(all(isinstance(v, list) for v in got.values()))

    def test_table_rows_and_columns(self):
        rows = facts("dataframe.zanj")["resolved"]["table"]["data"]
        got = self.assertOk(run("cat", "--plain", corpus("dataframe.zanj"), "table")).json()
        self.assertIsNone(json_difference(got, rows))
        cols = self.assertOk(run("cat", "--plain", "--columns", corpus("dataframe.zanj"), "table")).json()
        self.assertEqual(list(cols), ["id", "score", "name", "ok"])
        self.assertIsNone(json_difference(cols, {c: [r[c] for r in rows] for c in cols}))

    def test_usage_errors(self):
        self.assertFails(run("cat", "--plain", corpus("basic.zanj"), "big_array[0]"), 2)
        self.assertFails(run("cat", "--plain", "--head", "1", corpus("basic.zanj"), "long_list"), 2)
        self.assertFails(run("cat", "--plain", "-f", "csv", corpus("basic.zanj")), 2)
        self.assertFails(run("cat", "--columns", corpus("dataframe.zanj"), "table"), 2, "--plain")


BASIC = corpus("basic.zanj")


class LsForScripts(ZanjTest):
    def test_json_has_scalar_values(self):
        entries = {e["path"]: e for e in self.assertOk(run("ls", "--json", BASIC)).json()["entries"]}
        self.assertEqual(entries["name"]["value"], "basic example")
        self.assertEqual(entries["version"]["value"], 3)
        self.assertEqual(entries["flag"]["value"], True)
        self.assertIn("value", entries["nothing"])
        self.assertIsNone(entries["nothing"]["value"])
        self.assertNotIn("value", entries["big_array"])

    def test_kind_filter(self):
        paths = self.assertOk(run("ls", "-1", "--kind", "array", BASIC)).text.split()
        self.assertEqual(paths, ["small_array", "big_array", "nested/deeper/matrix"])
        self.assertFails(run("ls", "--kind", "table", BASIC), 1, "--kind table")
        self.assertEqual(run("ls", "--kind", "nonsense", BASIC).code, 2)

    def test_sort(self):
        by_size = self.assertOk(run("ls", "-1", "--kind", "array", "--sort", "size", BASIC)).text.split()
        self.assertEqual(by_size, ["nested/deeper/matrix", "big_array", "small_array"])  # 3200, 2048, 24 bytes
        by_name = self.assertOk(run("ls", "-1", "--sort", "name", BASIC)).text.split()
        self.assertEqual(by_name, sorted(by_name))
        self.assertEqual(run("ls", "--tree", "--sort", "name", BASIC).code, 2)

    def test_tree(self):
        lines = self.assertOk(run("ls", "--tree", BASIC)).text.splitlines()
        self.assertTrue(lines[0].startswith("/ "))
        self.assertTrue(any(l.startswith("  nested ") for l in lines), lines)
        self.assertTrue(any(l.startswith("    deeper ") for l in lines), lines)
        self.assertTrue(any(l.startswith("      matrix ") for l in lines), lines)

    def test_paths_without_root_line_and_singular_counts(self):
        out = self.assertOk(run("ls", "-1", BASIC)).text
        self.assertFalse(out.startswith("\n"))
        self.assertNotIn("", out.splitlines())
        text = self.assertOk(run("ls", BASIC)).text
        self.assertRegex(text, r"(?m)^nested +dict +1 key$")
        self.assertNotIn("1 keys", text)

    def test_long_sizes_align(self):
        lines = self.assertOk(run("ls", "-l", "--kind", "array", BASIC)).text.splitlines()
        ends = {l.index("B ") for l in lines}  # "24 B", "2.0 KiB", "3.1 KiB": each ends in one column
        self.assertEqual(len(ends), 1, lines)

    def test_glob_matching_nothing(self):
        self.assertFails(run("ls", "--glob", "*nothing-here*", BASIC), 1, "--glob")
        self.assertFails(run("ls", "--json", "--glob", "*nothing-here*", BASIC), 1)

    def test_missing_path_names_the_keys(self):
        self.assertFails(run("ls", BASIC, "nested/deepr"), 1, "deeper")


class LsOnATerminal(ZanjTest):
    def long_keys(self, tmp):
        import json
        import zipfile
        path = os.path.join(tmp, "long.zanj")
        key = "encoder/" + "very_long_module_name." * 6 + "weight"
        root = {key: 1, "short": 2}
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("__zanj__.json", json.dumps(root))
            z.writestr("__zanj_meta__.json", json.dumps({"externals_info": {}}))
        return path, key

    def test_paths_cut_to_columns_unless_wide(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path, key = self.long_keys(tmp)
            escaped = key.replace("/", "~1")
            cut = strip_ansi(run_on_terminal("ls", path, env={"COLUMNS": "80"}).text)
            lines = cut.splitlines()
            self.assertTrue(all(len(l) <= 80 for l in lines), lines)
            self.assertIn("...", cut)
            self.assertTrue(any(l.startswith("encoder~1very_lon") and "weight" in l for l in lines), lines)
            wide = strip_ansi(run_on_terminal("ls", "--wide", path, env={"COLUMNS": "80"}).text)
            self.assertIn(escaped, wide)
            piped = self.assertOk(run("ls", path, env={"COLUMNS": "80"})).text
            self.assertIn(escaped, piped)  # scripts get whole paths


if __name__ == "__main__":
    main()
