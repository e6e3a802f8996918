"""End-to-end: bounded time on zero-size arrays, terminal-safe text and valid JSON on archives
with hostile keys and names, timestamps that are no date, and object paths that reach every
key (the paths `ls -1` prints read back through `cat`)."""
import json
import os
import re
import subprocess
import tempfile
import zipfile

import zipgen
from common import (ZANJ, ZanjTest, archives, corpus, external_array, inline_array, main, npy_bytes,
                    write_reference_zanj)

BIG = 10**18
ESC, BEL, CR, CSI = "\x1b", "\x07", "\r", "\x9b"
# A terminal acts on C0 controls (but line feeds), DEL and C1 controls (U+0080-U+009F).
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def zanj(*args, timeout=10):
    p = subprocess.run([ZANJ, *args], capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def split_path(path):
    """The object path syntax (zanj(1), "OBJECT PATHS"), as a second implementation."""
    if path.startswith("/"):
        path = path[1:]
    if path == "":
        return []
    out = []
    for seg in path.split("/"):
        if seg == "~e":
            out.append(b"")
            continue
        raw, i = bytearray(), 0
        while i < len(seg):
            if seg[i] == "~":
                if seg[i + 1] in "01":
                    raw += b"~/"[int(seg[i + 1]):int(seg[i + 1]) + 1]
                    i += 2
                elif seg[i + 1] == "x":
                    raw.append(int(seg[i + 2:i + 4], 16))
                    i += 4
                else:
                    raise ValueError(path)
            else:
                raw += seg[i].encode("utf-8")
                i += 1
        out.append(bytes(raw))
    return [s.decode("utf-8", "surrogatepass") for s in out]


def walk(root, segments, archive=None):
    """The node at `segments`; through an external list's rows (its .jsonl member in `archive`),
    as the object tree goes on there."""
    node = root
    for s in segments:
        if isinstance(node, dict) and archive is not None and node.get("__muutils_format__") in ("list:external",
                                                                                                  "tuple:external"):
            with zipfile.ZipFile(archive) as z:
                node = [json.loads(line) for line in z.read(node["$ref"]).decode("utf-8").splitlines() if line]
        node = node[int(s)] if isinstance(node, list) else node[s]
    return node


def zero_size_archive(path):
    root, members = {}, {}
    for key, shape in {"a": (BIG, 0), "b": (0, BIG), "c": (5, 0, 3), "d": (3, 0)}.items():
        root[key] = external_array(key + ".npy", "<f8", shape)
        members[key + ".npy"] = npy_bytes("<f8", shape, b"")
    root["i"] = inline_array("array_b64_meta", "<i4", (0, BIG), b"")
    return write_reference_zanj(path, root, members)


HOSTILE_KEYS = ["t" + ESC + "]0;pwned" + BEL, "cr" + CR + "x", "c1" + CSI + "2J", "", "~e", "a/b~", "x//y"]


def hostile_root():
    root = {k: i for i, k in enumerate(HOSTILE_KEYS)}
    root[""] = {"": {"deep": [1, {"": "empty"}]}, "x": "y" + ESC + "[31m"}
    root["fmt"] = {"__muutils_format__": "evil" + ESC + "[2J" + CSI, "v": 1}
    root["arr"] = external_array("arr" + ESC + ".npy", "<f4", (2,))
    return root


def hostile_archive(path, timestamp=1700000000.0):
    """Keys and format strings with controls, a member name with ESC, and one member whose name
    is not UTF-8 (a member nothing references)."""
    meta = {"zanj_cfg": {"array_mode": "array_list_meta" + ESC + "[2J", "compress": True},
            "sysinfo": {"python": {"version": "3.11" + BEL}},
            "externals_info": {"arr" + ESC + ".npy": {"item_type": "npy", "path": ["arr"]}},
            "timestamp": timestamp}
    members = [zipgen.Member("__zanj_meta__.json", json.dumps(meta)),
               zipgen.Member("__zanj__.json", json.dumps(hostile_root())),
               zipgen.Member("arr" + ESC + ".npy", npy_bytes("<f4", (2,), b"\0\0\x80?\0\0\0@")),
               zipgen.Member(b"junk\xff\x9b" + b"\x1b[2J.bin", b"x")]
    with open(path, "wb") as f:
        f.write(zipgen.build_zip(members))
    return path


class ZeroSizeArrays(ZanjTest):
    """Shapes such as (10**18, 0) hold no values: every command answers at once."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.file = zero_size_archive(os.path.join(self.tmp.name, "zero.zanj"))

    def tearDown(self):
        self.tmp.cleanup()

    def ok(self, *args):
        code, out, err = zanj(*args, timeout=5)
        self.assertEqual(code, 0, (args, err))
        return out.decode()

    def test_json_is_numpy_tolist(self):
        for target, want in [("c", [[]] * 5), ("d", [[]] * 3), ("b", []), ("i", []),
                             ("a[0:4]", [[]] * 4), ("a[7]", []), ("b[:, 0:9]", []), ("c[1:3, :, 1:]", [[], []]),
                             ("a[-2:]", [[], []])]:
            self.assertEqual(json.loads(self.ok("cat", "--json", self.file, target)), want, target)

    def test_text_csv_npy_raw(self):
        for target in ["a", "b", "c", "d", "i", "a[5:10]"]:
            self.assertEqual(self.ok("cat", self.file, target), "[]\n", target)
            self.ok("cat", "--format", "raw", self.file, target)
            code, out, err = zanj("cat", "--format", "npy", self.file, target, timeout=5)
            self.assertEqual(code, 0, err)
            self.assertTrue(out.startswith(b"\x93NUMPY"))
        self.assertEqual(self.ok("cat", "--format", "csv", self.file, "b"), "")

    def test_unbounded_json_is_refused_at_once(self):
        # numpy's tolist() of shape (10**18, 0) is 10**18 empty lists: refused, not printed forever
        for args in [("cat", "--json", self.file, "a"), ("cat", "--resolve", self.file),
                     ("cat", "--resolve", "--json", self.file, "a")]:
            code, out, err = zanj(*args, timeout=5)
            self.assertEqual(code, 1, args)
            self.assertIn(b"empty lists", err)

    def test_resolve_of_bounded_nodes(self):
        for key, want in [("c", [[]] * 5), ("b", []), ("d", [[]] * 3)]:
            self.assertEqual(json.loads(self.ok("cat", "--resolve", self.file, key))["data"], want, key)
        self.assertEqual(json.loads(self.ok("cat", "--resolve", self.file, "i"))["data"], "")  # inline: as stored

    def test_other_commands(self):
        self.assertIn("[1000000000000000000, 0]", self.ok("ls", self.file))
        self.ok("ls", "--json", "-l", self.file)
        info = json.loads(self.ok("info", "--json", self.file))
        self.assertEqual(info["array_bytes"], 0)
        stats = json.loads(self.ok("stats", "--json", self.file))
        self.assertEqual({a["path"]: a["count"] for a in stats["arrays"]}, {k: 0 for k in "abcdi"})
        self.ok("stats", self.file)
        self.ok("diff", self.file, self.file)
        self.ok("verify", self.file)
        other = os.path.join(self.tmp.name, "other.zanj")
        root = {"a": external_array("a.npy", "<f8", (BIG, 0)), "b": external_array("b.npy", "<f8", (0, 3))}
        write_reference_zanj(other, root, {"a.npy": npy_bytes("<f8", (BIG, 0), b""),
                                           "b.npy": npy_bytes("<f8", (0, 3), b"")})
        code, out, err = zanj("diff", self.file, other, timeout=5)
        self.assertEqual(code, 1, err)
        self.assertIn(b"shape", out)


class SafeOutput(ZanjTest):
    """No raw control character from an archive reaches a terminal; --json is valid UTF-8 JSON."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.file = hostile_archive(os.path.join(self.tmp.name, "hostile.zanj"))
        self.other = os.path.join(self.tmp.name, "other.zanj")
        root = hostile_root()
        root["fmt"]["v"] = 2
        root["new" + ESC] = 1
        del root["arr"]
        write_reference_zanj(self.other, root)

    def tearDown(self):
        self.tmp.cleanup()

    def assertTerminalSafe(self, args, data, what):
        text = data.decode("utf-8")  # raises on invalid UTF-8
        self.assertIsNone(CONTROL.search(text), f"{args} {what}: {text[:400]!r}")

    def run_text(self, *args, code=None):
        rc, out, err = zanj(*args)
        self.assertGreaterEqual(rc, 0, err)
        if code is not None:
            self.assertEqual(rc, code, (args, err))
        self.assertTerminalSafe(args, out, "stdout")
        self.assertTerminalSafe(args, err, "stderr")
        return rc, out.decode(), err.decode()

    def run_json(self, *args, code=0):
        rc, out, err = zanj(*args)
        self.assertEqual(rc, code, (args, err))
        self.assertTerminalSafe(args, err, "stderr")
        return json.loads(out.decode("utf-8"))  # strict: invalid UTF-8 raises

    def test_text_modes(self):
        f = self.file
        for args in [("info", f), ("info", "--handlers", f), ("ls", f), ("ls", "-l", f), ("ls", "-1", f),
                     ("ls", "--members", f), ("cat", f), ("cat", f, "fmt"), ("stats", f), ("verify", f),
                     ("verify", "-v", f), ("diff", f, self.other), ("extract", "-l", f), ("hash", f),
                     ("cat", f, "nope" + ESC + "[2J/x"), ("cat", f, "~e/nope" + BEL), ("ls", f, "zz" + CSI),
                     ("stats", f, "no" + ESC), ("cat", f, "arr[9" + ESC + "]"), ("cat", "--member", "x" + ESC, f)]:
            self.run_text(*args)
        _, out, _ = self.run_text("info", f, code=0)
        self.assertIn("\\x1B[2J", out)  # the settings line, escaped
        _, _, err = self.run_text("cat", f, "nope" + ESC + "[2J", code=1)
        self.assertIn("nope~x1B[2J", err)
        self.assertIn("t~x1B]0;pwned~x07", err)  # the children list, as paths

    def test_json_modes(self):
        f = self.file
        info = self.run_json("info", "--json", f)
        names = [m["name"] for m in info["member_list"]]
        self.assertIn("junk\udcff\udc9b\x1b[2J.bin", names)  # surrogateescape for bytes that are not UTF-8
        self.assertIn("arr\x1b.npy", names)
        members = self.run_json("ls", "--members", "--json", f)["members"]
        self.assertEqual([m["name"] for m in members], names)
        entries = self.run_json("ls", "--json", f)["entries"]
        self.assertIn("t~x1B]0;pwned~x07", [e["path"] for e in entries])
        self.assertEqual(self.run_json("cat", "--json", f), hostile_root())
        self.run_json("stats", "--json", f)
        rc, out, err = zanj("verify", "--json", f)  # invalid (a name that is not UTF-8), reported as JSON
        self.assertEqual(rc, 1, err)
        json.loads(out.decode("utf-8"))
        self.run_json("diff", "--json", f, self.other, code=1)
        self.run_json("extract", "-l", "--json", f, code=1)
        nodes = self.run_json("hash", "--json", f)["nodes"]
        self.assertIn("t~x1B]0;pwned~x07", [n["path"] for n in nodes])

    def test_extract_messages(self):
        with tempfile.TemporaryDirectory() as out:
            self.run_text("extract", "-C", out, self.file)
            self.run_json("extract", "--json", "--force", "-C", out, self.file, code=1)

    def test_lone_surrogate_keys(self):
        """A key written "\\ud800" in the archive's JSON: wherever the parser keeps it (as WTF-8),
        it prints escaped, and --json writes the same escape back."""
        path = os.path.join(self.tmp.name, "surrogate.zanj")
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("__zanj_meta__.json", '{"externals_info": {}}')
            z.writestr("__zanj__.json", '{"k\\ud800": {"v\\udcff": 1}}')
        for args in [("ls", path), ("ls", "-1", path), ("cat", path), ("info", path), ("verify", path)]:
            self.run_text(*args)
        rc, out, err = zanj("cat", "--json", path)
        if rc == 0:
            self.assertEqual(out.decode("ascii").strip(), '{"k\\ud800": {"v\\udcff": 1}}')
            paths = zanj("ls", "-1", path)[1].decode().split()
            self.assertEqual(paths, ["k~xED~xA0~x80", "k~xED~xA0~x80/v~xED~xB3~xBF"])
            self.assertEqual(zanj("cat", path, paths[1])[1], b"1\n")

    def test_invalid_json_numbers_are_never_echoed(self):
        path = os.path.join(self.tmp.name, "bignum.zanj")
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("__zanj_meta__.json", '{"externals_info": {}}')
            z.writestr("__zanj__.json", '{"n": 99999999999999999999-1, "m": 123456789012345678901234567890}')
        rc, out, err = zanj("cat", "--json", path)
        if rc == 0:
            json.loads(out.decode())
        else:
            self.assertNotIn(b"99999999999999999999-1", out)


class Timestamps(ZanjTest):
    def test_out_of_range_timestamps(self):
        with tempfile.TemporaryDirectory() as tmp:
            for ts, text in [(1e300, "1e+300"), (-1e300, "-1e+300"), (float("nan"), "NaN"),
                             (float("inf"), "Infinity"), (253402300800.0, "253402300800.0")]:
                path = write_reference_zanj(os.path.join(tmp, "t.zanj"), {"x": 1}, timestamp=ts)
                rc, out, err = zanj("info", path)
                self.assertEqual(rc, 0, err)
                self.assertIn(f"invalid timestamp ({text})", out.decode())
                info = json.loads(zanj("info", "--json", path)[1])
                self.assertIsNone(info["saved_at"])
                self.assertIsNone(info["timestamp"])
            path = write_reference_zanj(os.path.join(tmp, "t.zanj"), {"x": 1}, timestamp=0.5)
            self.assertIn("1970-01-01T00:00:00Z", zanj("info", path)[1].decode())


class PathsRoundTrip(ZanjTest):
    """Every path `ls -1` prints names, through `cat`, the node it was printed for."""

    def check(self, path, root_json):
        code, out, err = zanj("ls", "-1", path)
        self.assertEqual(code, 0, err)
        paths = out.decode("utf-8").split("\n")[:-1]
        self.assertEqual(len(paths), len(set(paths)), path)
        for p in paths[:300]:
            segments = split_path(p)
            node = walk(root_json, segments, path)
            code, out, err = zanj("cat", "--json", path, p)
            self.assertEqual(code, 0, (path, p, err))
            if isinstance(node, dict) and "__muutils_format__" in node:
                continue  # arrays, tables and lists print their values
            self.assertEqual(json.dumps(json.loads(out)), json.dumps(node), (path, p))  # NaN == NaN
        return paths

    def test_corpus(self):
        for a in archives():
            with zipfile.ZipFile(corpus(a)) as z:
                root = json.loads(z.read("__zanj__.json"))
            self.check(corpus(a), root)

    def test_hostile_keys(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = self.check(hostile_archive(os.path.join(tmp, "h.zanj")), hostile_root())
            for p in ["~e", "~e/~e", "~e/~e/deep/1/~e", "~0e", "a~1b~0", "x//y".replace("/", "~1"), "~e/x"]:
                self.assertIn(p, paths)
            self.assertEqual(zanj("cat", "--json", os.path.join(tmp, "h.zanj"), "/~e/~e/deep/0")[1], b"1\n")


class PackNames(ZanjTest):
    def test_npz_names_that_make_no_good_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            one = npy_bytes("<f8", (1,), b"\0" * 8)
            for names, message in [([".npy"], "empty key"), (["w.npy", "w"], "already has"),
                                   (["a\x1b.npy"], "control character"), (["ok.npy", "c1\x9b.npy"], "control")]:
                npz = os.path.join(tmp, "in.npz")
                with zipfile.ZipFile(npz, "w") as z:
                    for n in names:
                        z.writestr(n, one)
                out = os.path.join(tmp, "out.zanj")
                code, _, err = zanj("pack", npz, "-o", out)
                self.assertEqual(code, 1, (names, err))
                self.assertIn(message.encode(), err)
                self.assertIsNone(CONTROL.search(err.decode()))
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    main()
