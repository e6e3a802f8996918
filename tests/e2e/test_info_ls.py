"""End-to-end: `zanj info` and `zanj ls` on the corpus and on malformed input."""
import json
import os
import tempfile

from common import ZanjTest, archives, corpus, facts, main, malformed, obj_path, run


class Info(ZanjTest):
    def test_json_matches_facts(self):
        for a in archives():
            f = facts(a)
            info = self.assertOk(run("info", "--json", corpus(a))).json()
            self.assertEqual(info["file"], corpus(a))
            self.assertEqual(info["members"], len(f["members"]), a)
            self.assertEqual(info["uncompressed_bytes"], sum(m["size"] for m in f["members"]), a)
            self.assertEqual(info["compressed_bytes"], sum(m["compressed_size"] for m in f["members"]), a)
            self.assertEqual(info["arrays"], len(f["arrays"]), a)
            self.assertEqual(info["external_arrays"], sum(x["storage"] == "external" for x in f["arrays"]), a)
            self.assertEqual(info["python"], "3.11.2", a)
            self.assertRegex(info["saved_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
            self.assertEqual(info["zanj_cfg"]["external_array_threshold"] >= 0, True)
            # handler source code is hidden unless asked for
            self.assertNotIn("code", str(info["zanj_cfg"]))
            names = [m["name"] for m in info["member_list"]]
            self.assertEqual(names, [m["name"] for m in f["members"]], a)
            for got, want in zip(info["member_list"], f["members"]):
                self.assertEqual(got["crc32"], want["crc32"], a)
                self.assertEqual(got["method"], want["method"], a)

    def test_handlers_flag_shows_code(self):
        info = self.assertOk(run("info", "--json", "--handlers", corpus("basic.zanj"))).json()
        self.assertIn("code", str(info["zanj_cfg"]["serialization_handlers"]))

    def test_externals_count_and_largest(self):
        info = self.assertOk(run("info", "--json", corpus("basic.zanj"))).json()
        self.assertEqual(info["externals"], 3)
        self.assertEqual(info["external_lists"], 1)
        self.assertEqual(info["largest_arrays"][0]["path"], "nested/deeper/matrix")
        self.assertEqual(info["largest_arrays"][0]["bytes"], 20 * 20 * 8)
        self.assertEqual(info["array_bytes"], 6 * 4 + 512 * 4 + 400 * 8)
        self.assertEqual(info["torch"], "1.13.0a0")
        d = self.assertOk(run("info", "--json", corpus("dataframe.zanj"))).json()
        self.assertEqual(d["tables"], 2)

    def test_element_count_and_largest_n(self):
        # Every corpus archive: the elements of its arrays, as the facts' shapes give them.
        for name in archives():
            want = 0
            for a in facts(name)["arrays"]:
                n = 1
                for d in a["shape"]:
                    n *= d
                want += n
            info = self.assertOk(run("info", "--json", corpus(name))).json()
            self.assertEqual(info["array_elements"], want, name)
        model = corpus("model.zanj")
        self.assertIn("1,764 elements", self.assertOk(run("info", "--no-members", model)).text)
        two = self.assertOk(run("info", "--json", "--largest", "2", model)).json()["largest_arrays"]
        self.assertEqual([a["path"] for a in two], ["state_dict/net.2.weight", "state_dict/net.0.weight"])
        self.assertEqual(self.assertOk(run("info", "--json", "--largest", "0", model)).json()["largest_arrays"], [])
        self.assertNotIn("largest", self.assertOk(run("info", "--largest", "0", "--no-members", model)).text)

    def test_human_output(self):
        out = self.assertOk(run("info", corpus("basic.zanj"))).text
        self.assertIn("5 members", out)
        self.assertIn("nested/deeper/matrix.npy", out)
        self.assertIn("python    3.11.2", out)
        self.assertNotIn("isinstance(obj", out)

    def test_several_files_json_lines(self):
        r = self.assertOk(run("info", "--json", corpus("basic.zanj"), corpus("stored.zanj")))
        lines = r.text.splitlines()
        self.assertEqual(len(lines), 2)

    def test_several_files_one_bad_goes_on(self):
        r = run("info", "--json", corpus("malformed", "truncated.zanj"), corpus("basic.zanj"))
        self.assertEqual(r.code, 1)
        lines = [json.loads(line) for line in r.text.splitlines()]
        self.assertEqual(len(lines), 2)  # every operand has its line (issue 24)
        self.assertEqual(set(lines[0]), {"file", "error"})
        self.assertIn("members", lines[1])
        self.assertIn("truncated.zanj", r.err)


class Ls(ZanjTest):
    def entries(self, *args):
        doc = self.assertOk(run("ls", "--json", *args)).json()
        return {e["path"]: e for e in doc["entries"]}

    def test_every_array_listed(self):
        for a in archives():
            entries = self.entries(corpus(a))
            for arr in facts(a)["arrays"]:
                e = entries[obj_path(arr["path"])]
                self.assertEqual(e["kind"], "array")
                self.assertEqual(e["dtype"], arr["dtype"])
                self.assertEqual(e["shape"], arr["shape"])
                self.assertEqual(e["storage"], arr["storage"])
                self.assertEqual(e["format"], arr["format"])
                if arr["storage"] == "external":
                    self.assertEqual(e["member"], arr["member"])
                else:
                    self.assertNotIn("member", e)

    def test_kinds(self):
        e = self.entries(corpus("basic.zanj"))
        self.assertEqual(e[""]["kind"], "dict")
        self.assertEqual(e["name"]["kind"], "string")
        self.assertEqual(e["version"]["kind"], "number")
        self.assertEqual(e["flag"]["kind"], "bool")
        self.assertEqual(e["nothing"]["kind"], "null")
        self.assertEqual(e["tags"]["kind"], "list")
        self.assertEqual(e["tags"]["length"], 3)
        self.assertNotIn("tags/0", e)  # a plain list of scalars is one entry
        self.assertEqual(e["long_list"]["kind"], "external_list")
        self.assertEqual(e["long_list"]["length"], 300)  # from externals_info
        self.assertEqual(e["long_list"]["member"], "long_list.jsonl")
        t = self.entries(corpus("dataframe.zanj"))["table"]
        self.assertEqual((t["kind"], t["rows"], t["columns"], t["member"]),
                         ("table", 400, ["id", "score", "name", "ok"], "table.jsonl"))
        d = self.entries(corpus("dataclass.zanj"))
        self.assertEqual(d[""]["kind"], "dataclass")
        self.assertEqual(d[""]["format"], "Experiment(SerializableDataclass)")
        self.assertEqual(d["points/0"]["kind"], "dataclass")
        self.assertEqual(d["points/0/label"]["kind"], "string")
        tl = self.entries(corpus("tuple_list.zanj"))
        self.assertEqual(tl["tup"]["kind"], "external_list")
        self.assertEqual(tl["tup"]["format"], "tuple:external")

    def test_nan_tokens_read(self):
        r = self.assertOk(run("ls", corpus("nan_values.zanj"), "cfg"))
        self.assertRegex(r.text, r"cfg/lr\s+number\s+NaN")
        self.assertRegex(r.text, r"cfg/worst\s+number\s+-Infinity")
        self.assertIn('"NaN is not a string here"', r.text)

    def test_subtree_depth_glob(self):
        e = self.entries(corpus("model.zanj"), "state_dict")
        self.assertTrue(all(p.startswith("state_dict") for p in e))
        self.assertIn("state_dict/net.0.weight", e)
        e = self.entries(corpus("basic.zanj"), "-d", "1")
        self.assertIn("nested", e)
        self.assertNotIn("nested/deeper", e)
        e = self.entries(corpus("model.zanj"), "--glob", "*weight*")
        self.assertEqual(sorted(e), ["state_dict/net.0.weight", "state_dict/net.2.weight", "state_dict/net.4.weight"])

    def test_paths_mode(self):
        out = self.assertOk(run("ls", "-1", corpus("basic.zanj"))).text.splitlines()
        self.assertIn("nested/deeper/matrix", out)
        self.assertEqual(out[0], "name")  # no empty line for the root (issue 30)

    def test_escaped_keys(self):
        with tempfile.TemporaryDirectory() as tmp:
            # an archive whose keys contain '/' and '~' needs escaping in paths
            import zipfile
            p = os.path.join(tmp, "k.zanj")
            with zipfile.ZipFile(p, "w") as z:
                z.writestr("__zanj_meta__.json", '{"externals_info": {}}')
                z.writestr("__zanj__.json", '{"a/b": {"c~d": 1}}')
            e = self.entries(p)
            self.assertIn("a~1b/c~0d", e)
            self.assertOk(run("ls", p, "a~1b"))

    def test_members(self):
        r = self.assertOk(run("ls", "--members", "--json", corpus("stored.zanj"))).json()
        want = facts("stored.zanj")["members"]
        self.assertEqual([m["name"] for m in r["members"]], [m["name"] for m in want])
        self.assertEqual([m["method"] for m in r["members"]], ["store"] * 4)
        self.assertEqual([m["crc32"] for m in r["members"]], [m["crc32"] for m in want])
        text = self.assertOk(run("ls", "--members", corpus("basic.zanj"))).text
        self.assertIn("f14603e4", text)
        self.assertIn("5 files", text)

    def test_long(self):
        e = self.entries("-l", corpus("basic.zanj"))
        self.assertEqual(e["big_array"]["bytes"], 2048)
        self.assertEqual(e["big_array"]["member_size"], 2176)


class Errors(ZanjTest):
    def test_missing_file(self):
        self.assertEqual(run("info", "/nonexistent/x.zanj").code, 2)
        self.assertEqual(run("ls", "/nonexistent/x.zanj").code, 2)

    def test_not_a_zip(self):
        with tempfile.NamedTemporaryFile(suffix=".zanj") as f:
            f.write(b"hello, this is not a zip file\n" * 10)
            f.flush()
            self.assertFails(run("info", f.name), 1, "not a ZIP")
            self.assertFails(run("ls", f.name), 1, "not a ZIP")

    def test_directory_is_usage_error(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertFails(run("info", d), 2)

    def test_malformed_named(self):
        self.assertFails(run("info", corpus("malformed", "truncated.zanj")), 1, "end of central directory")
        self.assertFails(run("ls", corpus("malformed", "no_main.zanj")), 1, "no __zanj__.json")
        self.assertFails(run("info", corpus("malformed", "bad_main_json.zanj")), 1, "invalid JSON")

    def test_missing_path(self):
        self.assertFails(run("ls", corpus("basic.zanj"), "nested/nope"), 1, "'nested'")

    def test_bad_escape(self):
        self.assertFails(run("ls", corpus("basic.zanj"), "a~2"), 2)

    def test_usage(self):
        self.assertEqual(run().code, 2)
        self.assertEqual(run("frobnicate").code, 2)
        self.assertEqual(run("ls").code, 2)

    def test_malformed_never_crash(self):
        for m in malformed():
            for cmd in (["info"], ["info", "--json"], ["ls"], ["ls", "--json"], ["ls", "--members"]):
                r = run(*cmd, m, timeout=30)
                self.assertNotCrashed(r)
                self.assertIn(r.code, (0, 1), f"{cmd} {m}: {r.err}")
                if r.code == 1:
                    self.assertTrue(r.err.startswith("zanj: error: "), r.err)


class Meta(ZanjTest):
    def test_version(self):
        out = self.assertOk(run("--version")).text
        self.assertRegex(out, r"^zanj \d+\.\d+\.\d+")
        for library in ("zlib", "bzip2", "liblzma", "zstd"):  # the decoders zanj links
            self.assertIn(library, out)
        # libarchive is for tar and other formats only (export); .zanj members are decoded by zanj
        self.assertRegex(out, r"(?m)^libarchive \d+\.\d+.*tar")

    def test_help(self):
        for args in ([], ["info"], ["ls"]):
            r = self.assertOk(run(*args, "--help"))
            self.assertIn("Usage", r.text)


if __name__ == "__main__":
    main()
