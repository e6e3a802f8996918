"""Archives written by old releases of the library (tests/corpus/releases/, made by
make_releases.py there): every command gives them the meaning the release that wrote them gave
them, checked against the facts that release's loader returned (NAME.facts.json)."""
import hashlib
import html
import json
import os
import struct
import tempfile
import zipfile

from common import ZanjTest, corpus, external_list, jsonl_bytes, main, npy_bytes, obj_path, run, write_reference_zanj

RELEASES = corpus("releases")


def release_archives():
    return sorted(f for f in os.listdir(RELEASES) if f.endswith(".zanj"))


def release_facts(name):
    with open(os.path.join(RELEASES, name[: -len(".zanj")] + ".facts.json")) as f:
        return json.load(f)


def path_of(name):
    return os.path.join(RELEASES, name)


def nested_in_rows(facts, segments):
    """True for a node inside the rows of an external list (a path through a .jsonl member)."""
    info = facts["externals_info"]
    return any(
        v["item_type"] == "jsonl" and len(v["path"]) < len(segments) and segments[: len(v["path"])] == v["path"]
        for v in info.values()
    )


class Releases(ZanjTest):
    def test_corpus_is_there(self):
        names = release_archives()
        self.assertGreaterEqual(len(names), 5)
        labels = {release_facts(n)["made_by"]["release"] for n in names}
        self.assertIn("zanj-0.3.1", labels)
        self.assertIn("muutils-0.3.14", labels)

    def test_info_names_the_format(self):
        for name in release_archives():
            with self.subTest(name):
                doc = self.assertOk(run("info", "--json", path_of(name))).json()
                self.assertEqual(doc["format"], release_facts(name)["format_key"])
                text = self.assertOk(run("info", path_of(name))).text
                self.assertIn(release_facts(name)["format_key"], text)

    def test_verify_follows_the_release(self):
        for name in release_archives():
            with self.subTest(name):
                f = release_facts(name)
                r = run("verify", path_of(name))
                # null: the polars archive, which no polars here could read back (its facts' note)
                self.assertEqual(r.code, 1 if f["reference_reads_back"] is False else 0, r.text + r.err)

    def test_ls_shows_what_the_release_loads(self):
        for name in release_archives():
            f = release_facts(name)
            doc = self.assertOk(run("ls", "--json", "--depth", "99", path_of(name))).json()
            entries = {e["path"]: e for e in doc["entries"]}
            for arr in f["loaded"]["arrays"]:
                if nested_in_rows(f, arr["path"]):
                    continue  # rows' children: tested with the nested-externals archives
                with self.subTest(name, path=arr["path"]):
                    e = entries[obj_path(arr["path"])]
                    self.assertEqual(e["kind"], "array")
                    # an inline tensor's node names the numpy dtype ("float32") of what loads as
                    # torch.float32; an external one's names the torch dtype
                    self.assertIn(e["dtype"], (arr["dtype"], arr["dtype"].removeprefix("torch.")))
                    self.assertEqual(e["shape"], arr["shape"])
            for table in f["loaded"]["tables"]:
                e = entries.get(obj_path(table["path"]))
                if e is not None and e["kind"] == "table":
                    with self.subTest(name, path=table["path"]):
                        self.assertEqual(e.get("length", table["rows"]), table["rows"])

    def test_cat_gives_the_values_the_release_loads(self):
        """Arrays inside the rows of an external list included (lst/3/arr: the row is read)."""
        for name in release_archives():
            f = release_facts(name)
            for arr in f["loaded"]["arrays"]:
                with self.subTest(name, path=arr["path"]):
                    raw = self.assertOk(run("cat", "--format", "raw", path_of(name), obj_path(arr["path"]))).out
                    self.assertEqual(hashlib.sha256(raw).hexdigest(), arr["sha256_c_order_le"])

    def test_external_tables_read_as_the_release_loads_them(self):
        for name in release_archives():
            f = release_facts(name)
            doc = self.assertOk(run("ls", "--json", path_of(name))).json()
            kinds = {e["path"]: e["kind"] for e in doc["entries"]}
            for table in f["loaded"]["tables"]:
                p = obj_path(table["path"])
                if kinds.get(p) != "table":
                    continue
                with self.subTest(name, path=p):
                    out = self.assertOk(run("cat", "--format", "jsonl", path_of(name), p)).text
                    rows = [json.loads(line) for line in out.splitlines()]
                    self.assertEqual(rows, table["records"])
                    header = self.assertOk(run("cat", "--format", "csv", path_of(name), p + "[0:1]")).text
                    self.assertEqual(header.splitlines()[0].split(","), table["columns"])

    def test_inline_dataframes_are_tables(self):
        # Releases before ZANJ 0.6 kept a small DataFrame inline; it reads as the same table
        # that ZANJ 0.6 writes to a member.
        old, new = path_of("zanj-0.3.1_main.zanj"), path_of("zanj-0.6.0_main.zanj")
        entry = self.assertOk(run("ls", "--json", old, "small_table")).json()["entries"][0]
        self.assertEqual((entry["kind"], entry["storage"], entry["rows"], entry["columns"]), ("table", "inline", 3, ["x", "y"]))
        for args in (["--format", "csv"], ["--format", "jsonl"], ["--format", "json", "--plain"]):
            with self.subTest(args=args):
                cut = [] if "--plain" in args else ["small_table[::-1]"]
                self.assertEqual(self.assertOk(run("cat", *args, old, *(cut or ["small_table"]))).out,
                                 self.assertOk(run("cat", *args, new, *(cut or ["small_table"]))).out)
        self.assertEqual(self.assertOk(run("cat", "--format", "json", old, "small_table/1")).json(), {"x": 2, "y": "b"})
        self.assertFails(run("cat", old, "small_table/3"), 1, "has no row 3")
        strict = run("diff", "--strict", "--json", old, new).json()["differences"]
        self.assertIn({"path": "small_table", "scope": "object", "kind": "storage_changed"},
                      [{k: d[k] for k in ("path", "scope", "kind")} for d in strict])
        self.assertEqual(run("hash", "--include", "small_table", old).text.split()[0],
                         run("hash", "--include", "small_table", new).text.split()[0])

    def test_resolve_stats_hash_extract(self):
        for name in release_archives():
            with self.subTest(name):
                p = path_of(name)
                resolved = self.assertOk(run("cat", "--resolve", "--format", "json", p)).json()
                self.assertIsInstance(resolved, dict)
                self.assertOk(run("stats", "--json", p))
                self.assertOk(run("hash", p))
                page = self.assertOk(run("report", p)).text
                self.assertIn('<section id="verify"><h2>Verify</h2><p class="ok">valid</p>', page)
                facts = release_facts(name)
                in_rows = sum(1 for a in facts["loaded"]["arrays"] if nested_in_rows(facts, a["path"]))
                info = self.assertOk(run("info", "--json", p)).json()
                self.assertEqual(info["row_arrays"], in_rows)
                if in_rows:
                    self.assertIn("%d more in list rows" % in_rows, page)
                for arr in release_facts(name)["loaded"]["arrays"]:  # every array the release loads has its row
                    self.assertIn(html.escape(obj_path(arr["path"])), page)
                with tempfile.TemporaryDirectory() as tmp:
                    self.assertOk(run("extract", p, "-C", os.path.join(tmp, "d")))
                    for m in release_facts(name)["members"]:
                        self.assertTrue(os.path.isfile(os.path.join(tmp, "d", m["name"])), m["name"])
                    # packed again from the extracted directory: the same object, still valid
                    # for the release that wrote it (one archive of each release and kind: the
                    # array modes of _hex and _b64 pack as _main's do)
                    if not (name.endswith("_main.zanj") or name.endswith("_rows.zanj") or "populate" in name):
                        continue
                    again = os.path.join(tmp, "again.zanj")
                    self.assertOk(run("pack", os.path.join(tmp, "d"), "-o", again))
                    self.assertOk(run("verify", again))
                    self.assertEqual(run("hash", again).text.split()[0], run("hash", p).text.split()[0])

    def test_resolve_fills_in_the_arrays_of_rows(self):
        """--resolve gives each row's array its values, as the loader populates them after the
        list (float64 arrays: their JSON numbers round-trip exactly)."""
        checked = 0
        for name in release_archives():
            facts = release_facts(name)
            rows_arrays = [a for a in facts["loaded"]["arrays"]
                           if a["dtype"] == "float64" and nested_in_rows(facts, a["path"])]
            if not rows_arrays:
                continue
            plain = self.assertOk(run("cat", "--resolve", "--plain", "--format", "json", path_of(name))).json()
            for arr in rows_arrays:
                with self.subTest(name, path=arr["path"]):
                    node = plain
                    for key in arr["path"]:
                        node = node[key]
                    flat = []
                    stack = [node]
                    while stack:  # C order: depth first, left to right
                        item = stack.pop()
                        if isinstance(item, list):
                            stack.extend(reversed(item))
                        else:
                            flat.append(item)
                    raw = struct.pack("<%dd" % len(flat), *flat)
                    self.assertEqual(hashlib.sha256(raw).hexdigest(), arr["sha256_c_order_le"])
                    checked += 1
        self.assertGreaterEqual(checked, 20)

    def test_array_modes_of_one_release_agree(self):
        """The same object written in each array mode: one digest, no differences."""
        by_release = {}
        for name in release_archives():
            f = release_facts(name)
            if "_main" in name:
                by_release.setdefault(f["made_by"]["release"], []).append(name)
        for label, names in by_release.items():
            digests = {n: self.assertOk(run("hash", path_of(n))).text.split()[0] for n in names}
            with self.subTest(label):
                self.assertEqual(len(set(digests.values())), 1, digests)
                for other in names[1:]:
                    self.assertOk(run("diff", path_of(names[0]), path_of(other)))

    def test_legacy_releases_agree_on_arrays(self):
        """Two releases wrote one object: each array has the same digest."""
        legacy = [n for n in release_archives() if n.endswith("_main.zanj")]
        sums = {}
        for name in legacy:
            for arr in release_facts(name)["loaded"]["arrays"]:
                sums.setdefault(obj_path(arr["path"]), set()).add(arr["sha256_c_order_le"])
        for p, s in sums.items():
            self.assertEqual(len(s), 1, p)  # the generator wrote one object everywhere
        # The same object, so the same digest, whichever release wrote it: ZANJ 0.6 stores the
        # small DataFrame as an external table where older releases kept it inline, and both
        # are the frame the loader builds.
        first = [n for n in legacy if n.startswith("muutils-0.2")]
        later = [n for n in legacy if n not in first]
        digests = {name: self.assertOk(run("hash", path_of(name))).text.split()[0] for name in later}
        self.assertEqual(len(set(digests.values())), 1, digests)
        self.assertGreaterEqual(len(digests), 5)
        newest = path_of("zanj-0.6.0_main.zanj")
        for name in later:
            self.assertEqual(self.assertOk(run("diff", path_of(name), newest)).text, "no differences found\n")
        # muutils 0.2.x gave the object another meaning: it stored no tensors here (it cannot load
        # the ones it writes inline), a 0-d array as its number, and loads DataFrames as lists
        # of rows. What it shares with the later releases hashes alike.
        self.assertTrue(first)
        other_meaning = ["--exclude", "torch_*", "--exclude", "scalar", "--exclude", "table", "--exclude", "small_table"]
        shared = {self.assertOk(run("hash", *other_meaning, path_of(n))).text.split()[0] for n in first + [later[-1]]}
        self.assertEqual(len(shared), 1)
        weights = {self.assertOk(run("hash", "--include", "weights", path_of(n))).text.split()[0] for n in legacy}
        self.assertEqual(len(weights), 1)

    def test_paths_into_rows(self):
        name = "zanj-0.6.0_populate_nested.zanj"
        r = self.assertOk(run("cat", "--format", "json", path_of(name), "lst_basic/3/some_string"))
        self.assertEqual(r.json(), "hello_3")
        self.assertFails(run("cat", path_of(name), "lst_basic/20/arr_numbers"), 1, "has no row 20")
        self.assertFails(run("cat", path_of(name), "lst_basic/2/nothing"), 1, "inside a row")
        doc = self.assertOk(run("stats", "--json", path_of(name), "lst_basic/3")).json()
        self.assertEqual([a["path"] for a in doc["arrays"]], ["lst_basic/3/arr_numbers"])
        # The whole tree goes on through the rows: stats and ls reach every row's array.
        doc = self.assertOk(run("stats", "--json", path_of(name))).json()
        self.assertEqual([a["path"] for a in doc["arrays"]], [f"lst_basic/{i}/arr_numbers" for i in range(20)])
        self.assertEqual({a["count"] for a in doc["arrays"]}, {20})
        listed = [e["path"] for e in self.assertOk(run("ls", "--json", path_of(name))).json()["entries"]]
        self.assertIn("lst_basic/19/arr_numbers", listed)
        self.assertIn("lst_basic/0/some_string", listed)
        biggest = self.assertOk(run("ls", "--json", "--sort", "size", "--kind", "array", path_of(name))).json()["entries"]
        self.assertEqual(len(biggest), 20)
        self.assertEqual(self.assertOk(run("ls", "--json", path_of(name), "lst_basic/3")).json()["entries"][-1]["dtype"], "float64")

    def test_ls_reads_rows_only_within_depth(self):
        name = "zanj-0.6.0_populate_nested.zanj"
        with tempfile.TemporaryDirectory() as tmp:
            # Row 5 is broken: a listing that stops above the rows never reads it; one that
            # prints the rows says which line is broken.
            def break_row(n, d):
                if n != "lst_basic.jsonl":
                    return d
                lines = d.split(b"\n")
                lines[5] = b"{broken"
                return b"\n".join(lines)

            bad = self.rewrite(tmp, name, break_row)
            shallow = run("ls", "--json", "-d", "1", bad)
            self.assertEqual(shallow.err, "")
            self.assertEqual([e["path"] for e in shallow.json()["entries"]], ["", "name", "lst_basic"])
            # The rows before the broken line are listed, the listing goes on, and a warning
            # (once) names the line; verify judges the data.
            deep = self.assertOk(run("ls", "-1", bad))
            self.assertIn("lst_basic/4/arr_numbers", deep.text)
            self.assertNotIn("lst_basic/6", deep.text)
            self.assertEqual(deep.err.count("lst_basic.jsonl line 6"), 1, deep.err)
            self.assertEqual(run("verify", bad).code, 1)

    def rewrite(self, tmp, name, change):
        """A copy of a release archive with members dropped or replaced: change(name, bytes)
        returns the new bytes, or None to drop the member."""
        out = os.path.join(tmp, "changed.zanj")
        with zipfile.ZipFile(path_of(name)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                data = change(info.filename, src.read(info))
                if data is not None:
                    dst.writestr(info.filename, data)
        return out

    def test_verify_checks_externals_inside_rows(self):
        for name in ("zanj-0.6.0_rows.zanj", "zanj-0.3.1_rows.zanj"):
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                gone = self.rewrite(tmp, name, lambda n, d: None if n == "samples/3/arr.npy" else d)
                r = run("verify", gone)
                self.assertEqual(r.code, 1, r.text + r.err)
                self.assertIn("samples/3/arr.npy", r.text + r.err)

    def test_verify_holds_row_nodes_to_their_members(self):
        # The node in a row says what its .npy member holds; a shape or dtype that the member's
        # header contradicts is what `cat` refuses, so verify must not say ok.
        def changed_rows(name, data):
            if name != "samples.jsonl":
                return data
            lines = data.decode().split("\n")
            lines[3] = lines[3].replace('"shape": [20, 16]', '"shape": [16, 20]')
            lines[5] = lines[5].replace('"dtype": "float32"', '"dtype": "float64"')
            return "\n".join(lines).encode()

        for name in ("zanj-0.6.0_rows.zanj", "zanj-0.3.1_rows.zanj"):
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                self.assertOk(run("verify", path_of(name)))
                bad = self.rewrite(tmp, name, changed_rows)
                self.assertFails(run("cat", bad, "samples/3/arr"), 1, "declares shape")
                for jobs in ("1", "3"):
                    r = run("verify", "--json", "-j", jobs, bad)
                    self.assertEqual(r.code, 1, r.text + r.err)
                    errors = [(e["code"], e["member"], e["path"]) for e in r.json()["errors"]]
                    self.assertEqual(
                        errors,
                        [("npy_mismatch", "samples/3/arr.npy", "samples/3/arr"),
                         ("npy_mismatch", "samples/5/arr.npy", "samples/5/arr")],
                    )

class HostileRows(ZanjTest):
    def test_a_row_that_refers_to_its_own_list_ends(self):
        # Following rows into the lists they refer to must not loop: the list is not entered twice.
        rows = jsonl_bytes([{"again": external_list("lst.jsonl"), "n": 1}, {"n": 2}])
        with tempfile.TemporaryDirectory() as tmp:
            p = write_reference_zanj(os.path.join(tmp, "a.zanj"), {"lst": external_list("lst.jsonl")}, {"lst.jsonl": rows})
            listed = [e["path"] for e in self.assertOk(run("ls", "--json", p)).json()["entries"]]
            self.assertEqual(listed, ["", "lst", "lst/0", "lst/0/again", "lst/0/n", "lst/1", "lst/1/n"])
            self.assertOk(run("stats", p))
            resolved = self.assertOk(run("cat", "--resolve", "--format", "json", p)).json()
            again = resolved["lst"]["data"][0]["again"]
            self.assertEqual(again["data"], [{"again": external_list("lst.jsonl"), "n": 1}, {"n": 2}])  # as stored
            self.assertNotCrashed(run("verify", p))


class FirstGenerationRules(ZanjTest):
    """muutils 0.2.x (the first zanj) on archives built here as its zanj.py writes them: nodes
    "external:npy" and "array_list_meta", externals_info item_type "ndarray"."""

    def make(self, tmp, item_type="ndarray", dtype="float32"):
        path = os.path.join(tmp, "first.zanj")
        root = {"w": {"__format__": "external:npy", "$ref": "w.npy", "shape": [2], "dtype": "float32", "n_elements": 2},
                "s": {"__format__": "array_list_meta", "data": [1, 2], "shape": [2], "dtype": dtype, "n_elements": 2}}
        meta = {"zanj_cfg": {"array_mode": "array_list_meta"},
                "externals_info": {"w.npy": {"item_type": item_type, "path": ["w"], "type(data)": "<class 'numpy.ndarray'>",
                                             "len(data)": 2, "shape": [2], "dtype": "float32", "n_elements": 2}}}
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("__zanj__.json", json.dumps(root, indent="\t"))
            z.writestr("__zanj_meta__.json", json.dumps(meta, indent="\t"))
            z.writestr("w.npy", npy_bytes("<f4", (2,), struct.pack("<2f", 0.5, -1.5)))
        return path

    def test_its_names_and_its_loader(self):
        with tempfile.TemporaryDirectory() as tmp:
            good = self.make(tmp)
            self.assertOk(run("verify", good))
            self.assertEqual(self.assertOk(run("cat", "--format", "json", good, "w")).json(), [0.5, -1.5])
            kinds = {e["path"]: e["kind"] for e in self.assertOk(run("ls", "--json", good)).json()["entries"]}
            self.assertEqual(kinds, {"": "dict", "w": "array", "s": "array"})
            # Its loader has load functions for "ndarray" and "jsonl" only.
            r = run("verify", self.make(tmp, item_type="npy"))
            self.assertEqual(r.code, 1, r.text)
            self.assertIn("wants 'ndarray'", r.text)
            # No DTYPE_MAP in 0.2.x: numpy's names load (uint16 too), torch's do not.
            self.assertOk(run("verify", self.make(tmp, dtype="uint16")))
            r = run("verify", self.make(tmp, dtype="torch.float32"))
            self.assertEqual(r.code, 1, r.text)
            self.assertIn("np.array", r.text)
            # The values count: a changed external array changes the digest.
            before = run("hash", good).text.split()[0]
            with zipfile.ZipFile(good) as z:
                members = {n: z.read(n) for n in z.namelist()}
            members["w.npy"] = npy_bytes("<f4", (2,), struct.pack("<2f", 0.5, 9.0))
            changed = os.path.join(tmp, "changed.zanj")
            with zipfile.ZipFile(changed, "w") as z:
                for n, d in members.items():
                    z.writestr(n, d)
            self.assertNotEqual(run("hash", changed).text.split()[0], before)
            self.assertEqual(run("diff", good, changed).code, 1)


class LegacyRules(ZanjTest):
    """What only the "__format__" releases did, on archives built here."""

    def make(self, tmp, root):
        return write_reference_zanj(os.path.join(tmp, "a.zanj"), root)

    def test_dtypes_the_old_loader_lacks_are_invalid(self):
        # muutils <= 0.7 casts through DTYPE_MAP, which has no uint16: that release fails to load it
        node = {"shape": [2], "dtype": "uint16", "n_elements": 2, "data": [1, 2]}
        with tempfile.TemporaryDirectory() as tmp:
            legacy = self.make(tmp, {"a": dict(node, __format__="numpy.ndarray:array_list_meta")})
            r = run("verify", legacy)
            self.assertEqual(r.code, 1, r.text + r.err)
            self.assertIn("DTYPE_MAP", r.text + r.err)
            current = self.make(tmp, {"a": dict(node, __muutils_format__="numpy.ndarray:array_list_meta")})
            self.assertOk(run("verify", current))

    def test_an_unknown_format_value_is_a_users_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = self.make(tmp, {"d": {"__format__": "my own thing", "x": 1},
                                "a": {"__format__": "numpy.ndarray:zero_dim", "data": 3, "shape": [],
                                      "dtype": "int64", "n_elements": 1}})
            entries = {e["path"]: e for e in self.assertOk(run("ls", "--json", p)).json()["entries"]}
            self.assertEqual(entries["d"]["kind"], "dict")
            self.assertIn("d/__format__", entries)
            self.assertEqual(entries["a"]["kind"], "array")
            self.assertEqual(self.assertOk(run("cat", "--format", "json", p, "a")).json(), 3)
            self.assertEqual(self.assertOk(run("info", "--json", p)).json()["format"], "__format__")


if __name__ == "__main__":
    main()
