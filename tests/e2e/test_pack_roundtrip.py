"""End-to-end: `zanj extract` then `zanj pack` round trips (edited or not), and packing the object a
corpus archive was saved from gives what the reference library stored."""
import json
import math
import os
import struct
import tempfile
import zipfile

from common import ZanjTest, archives, corpus, facts, main, read_npy, reference_read_problems, run, zip_members


def numbers(data):
    """Array values from the facts, where NaN and infinities are spelled as strings."""
    if isinstance(data, list):
        return [numbers(x) for x in data]
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(data, data) if isinstance(data, str) else data


def unresolve(node):
    """The object a resolved facts tree came from, as muutils serializes it before saving:
    externals back to inline arrays (array_list_meta) and plain lists."""
    if isinstance(node, list):
        return [unresolve(x) for x in node]
    if not isinstance(node, dict):
        return node
    fmt = node.get("__muutils_format__", "")
    if fmt.endswith(":external") and "data" in node:
        if fmt.split(":")[0] in ("list", "tuple"):
            return [unresolve(x) for x in node["data"]]
        kind = fmt.split(":")[0]
        dtype = node["dtype"].replace("torch.", "")
        return {"__muutils_format__": kind + ":array_list_meta", "data": numbers(node["data"]),
                "shape": node["shape"], "dtype": dtype, "n_elements": node["n_elements"]}
    return {k: unresolve(v) for k, v in node.items()}


class ReferenceParity(ZanjTest):
    """Packing the object a corpus archive was saved from gives what the reference stored."""

    def test_same_members_and_tree_as_the_reference(self):
        for name, args in (("basic.zanj", []), ("dataclass.zanj", []), ("model.zanj", []),
                           ("tuple_list.zanj", ["--list-threshold", "8"])):
            with tempfile.TemporaryDirectory() as tmp:
                src = os.path.join(tmp, "object.json")
                with open(src, "w") as f:
                    json.dump(unresolve(facts(name)["resolved"]), f)
                out = os.path.join(tmp, "out.zanj")
                self.assertOk(run("pack", src, "-o", out, *args))
                self.assertEqual(reference_read_problems(out), [])
                ours, theirs = zip_members(out), zip_members(corpus(name))
                ref_info = json.loads(theirs["__zanj_meta__.json"])["externals_info"]
                our_info = json.loads(ours["__zanj_meta__.json"])["externals_info"]
                self.assertEqual(list(ours)[2:], [m for m in theirs if m in ref_info], name)
                for m in ref_info:
                    self.assertEqual(ours[m], theirs[m], f"{name}: {m}")
                    want = dict(ref_info[m])
                    self.assertEqual(our_info[m], want, f"{name}: {m}")
                tree = json.loads(theirs["__zanj__.json"])
                if name == "tuple_list.zanj":  # JSON has no tuples: the tuple comes back a list
                    tree["tup"]["__muutils_format__"] = "list:external"
                self.assertEqual(json.loads(ours["__zanj__.json"]), tree, name)


class RoundTrip(ZanjTest):
    def test_extract_then_pack_gives_an_equivalent_archive(self):
        for a in archives():
            with tempfile.TemporaryDirectory() as tmp:
                d, out = os.path.join(tmp, "dir"), os.path.join(tmp, "again.zanj")
                self.assertOk(run("extract", corpus(a), "-C", d))
                self.assertOk(run("pack", d, "-o", out))
                self.assertEqual(reference_read_problems(out), [], a)
                ours, theirs = zip_members(out), zip_members(corpus(a))
                self.assertEqual(list(ours), list(theirs), a)
                for m in theirs:
                    if m != "__zanj_meta__.json":
                        self.assertEqual(ours[m], theirs[m], f"{a}: {m}")
                meta, ref = json.loads(ours["__zanj_meta__.json"]), json.loads(theirs["__zanj_meta__.json"])
                self.assertEqual(meta.pop("sysinfo").pop("zanj_cli")["name"], "zanj")
                ref.pop("sysinfo")
                self.assertIsInstance(meta.pop("timestamp"), float)
                ref.pop("timestamp")
                self.assertEqual(meta, ref, a)
                with zipfile.ZipFile(out) as z, zipfile.ZipFile(corpus(a)) as r:
                    self.assertEqual([zi.compress_type for zi in z.infolist()], [zi.compress_type for zi in r.infolist()])

    def test_edited_member_updates_the_reference_node(self):
        with tempfile.TemporaryDirectory() as tmp:
            d, out = os.path.join(tmp, "dir"), os.path.join(tmp, "edited.zanj")
            self.assertOk(run("extract", corpus("basic.zanj"), "-C", d))
            header = "{'descr': '<f8', 'fortran_order': False, 'shape': (8, 4), }".ljust(117) + "\n"
            values = struct.pack("<32d", *range(32))
            with open(os.path.join(d, "big_array.npy"), "wb") as f:
                f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + values)
            with open(os.path.join(d, "long_list.jsonl"), "a") as f:
                f.write("300\n")
            self.assertOk(run("pack", d, "-o", out))
            self.assertEqual(reference_read_problems(out), [])
            got = zip_members(out)
            node = json.loads(got["__zanj__.json"])["big_array"]
            self.assertEqual((node["shape"], node["dtype"], node["n_elements"]), ([8, 4], "float64", 32))
            self.assertEqual(read_npy(got["big_array.npy"])[1], values)
            self.assertEqual(json.loads(got["__zanj_meta__.json"])["externals_info"]["big_array.npy"]["len(data)"], 8)
            self.assertTrue(got["long_list.jsonl"].endswith(b"299\n300\n"))
            self.assertEqual(json.loads(got["__zanj_meta__.json"])["externals_info"]["long_list.jsonl"]["len(data)"], 301)

    def test_directory_problems_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "dir")
            self.assertOk(run("extract", corpus("basic.zanj"), "-C", d))
            os.remove(os.path.join(d, "big_array.npy"))
            self.assertFails(run("pack", d, "-o", os.path.join(tmp, "x.zanj")), 1, "big_array.npy")
            os.symlink("/etc/passwd", os.path.join(d, "big_array.npy"))
            self.assertFails(run("pack", d, "-o", os.path.join(tmp, "x.zanj")), 1, "symbolic link")
            self.assertFails(run("pack", tmp, "-o", os.path.join(tmp, "x.zanj")), 2, "no __zanj__.json")
            self.assertEqual(sorted(os.listdir(tmp)), ["dir"])



if __name__ == "__main__":
    main()
