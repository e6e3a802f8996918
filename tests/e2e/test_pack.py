"""End-to-end: `zanj pack` from the conversion inputs, the archive layout, and outputs that must stay
untouched when packing fails. Round trips and parity with the reference: test_pack_roundtrip.py."""
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zipfile

from common import (ZANJ, ZanjTest, corpus, files_below, main, numpy_dtype_name, read_npy, reference_read_problems,
                    run, zip_members)

CONVERT = corpus("convert")


def local_headers(path):
    """-> [(name, version needed, flags, zip64 extra present, DOS date)] from the local headers"""
    out = []
    with zipfile.ZipFile(path) as z, open(path, "rb") as f:
        data = f.read()
        for zi in z.infolist():
            o = zi.header_offset
            _, version, flags, _, _, date, _, _, _, nl, el = struct.unpack("<IHHHHHIIIHH", data[o:o + 30])
            extra = data[o + 30 + nl:o + 30 + nl + el]
            out.append((zi.filename, version, flags, extra[:2] == b"\x01\x00", date))
    return out


class PackConvert(ZanjTest):
    def pack(self, *args):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp, True)
        out = os.path.join(tmp, "out.zanj")
        self.assertOk(run("pack", *args, "-o", out))
        self.assertEqual(reference_read_problems(out), [])
        return out

    def test_npz_arrays_copied_byte_for_byte(self):
        for name in ("arrays.npz", "arrays_compressed.npz"):
            out = self.pack(os.path.join(CONVERT, name))
            got = zip_members(out)
            root = json.loads(got["__zanj__.json"])
            with zipfile.ZipFile(os.path.join(CONVERT, name)) as z:
                self.assertEqual(list(got)[2:], z.namelist())  # npz order
                self.assertEqual(list(root), [n[:-4] for n in z.namelist()])
                for n in z.namelist():
                    self.assertEqual(got[n], z.read(n), n)
                    header, _ = read_npy(z.read(n))
                    node = root[n[:-4]]
                    self.assertEqual(node["__muutils_format__"], "numpy.ndarray:external")
                    self.assertEqual(node["dtype"], numpy_dtype_name(header["descr"]))
                    self.assertEqual(node["shape"], list(header["shape"]))
            info = json.loads(got["__zanj_meta__.json"])["externals_info"]
            self.assertEqual(info["weights.npy"], {"item_type": "npy", "path": ["weights"],
                                                   "type(data)": "<class 'numpy.ndarray'>", "len(data)": 64})

    def test_single_npy_wrapped_in_a_dict(self):
        src = os.path.join(CONVERT, "single.npy")
        got = zip_members(self.pack(src))
        self.assertEqual(list(json.loads(got["__zanj__.json"])), ["single"])
        with open(src, "rb") as f:
            self.assertEqual(got["single.npy"], f.read())
        got = zip_members(self.pack(src, "--key", "w"))
        self.assertEqual(json.loads(got["__zanj__.json"])["w"]["$ref"], "w.npy")

    def test_plain_json_lists_go_to_jsonl(self):
        src = os.path.join(CONVERT, "plain.json")
        with open(src) as f:
            want = json.load(f)
        got = zip_members(self.pack(src))
        root = json.loads(got["__zanj__.json"])
        self.assertEqual(root["config"], want["config"])
        self.assertEqual(root["losses"], {"__muutils_format__": "list:external", "$ref": "losses.jsonl"})
        self.assertEqual([json.loads(x) for x in got["losses.jsonl"].decode().splitlines()], want["losses"])
        self.assertTrue(got["losses.jsonl"].endswith(b"\n"))
        history = root["history"]  # a list of dicts: the reference adds its jsonl metadata
        self.assertEqual(history["len(data)"], 300)
        self.assertEqual(history["data[0]"], want["history"][0])
        self.assertEqual(history["columns"]["acc"], {"types": ["float"], "len": 300})
        self.assertEqual([json.loads(x) for x in got["history.jsonl"].decode().splitlines()], want["history"])
        # with a higher threshold nothing goes external
        got = zip_members(self.pack(src, "--list-threshold", "1000"))
        self.assertEqual(list(got), ["__zanj_meta__.json", "__zanj__.json"])
        self.assertEqual(json.loads(got["__zanj__.json"]), want)
        self.assertEqual(json.loads(got["__zanj_meta__.json"])["zanj_cfg"]["external_list_threshold"], 1000)

    def test_muutils_arrays_become_npy_zip_members(self):
        src = os.path.join(CONVERT, "muutils_arrays.json")
        with open(src) as f:
            want = json.load(f)
        got = zip_members(self.pack(src))
        root = json.loads(got["__zanj__.json"])
        self.assertEqual(root["small"], want["small"])  # 3 elements: stays inline
        for key, fmt, code in (("emb", "<f8", "d"), ("ids", "<i4", "i")):
            node = root[key]
            self.assertEqual(node, {"__muutils_format__": "numpy.ndarray:external", "$ref": key + ".npy",
                                    "shape": want[key]["shape"], "dtype": want[key]["dtype"],
                                    "n_elements": want[key]["n_elements"]})
            header, data = read_npy(got[key + ".npy"])
            self.assertEqual((header["descr"], header["fortran_order"], list(header["shape"])),
                             (fmt, False, want[key]["shape"]))
            flat = []
            stack = [want[key]["data"]]
            while stack:
                x = stack.pop()
                if isinstance(x, list):
                    stack.extend(reversed(x))
                else:
                    flat.append(x)
            self.assertEqual(list(struct.unpack("<%d%s" % (len(flat), code), data)), flat)

    def test_several_inputs_under_their_names(self):
        out = self.pack("a=" + os.path.join(CONVERT, "arrays.npz"), os.path.join(CONVERT, "plain.json"),
                        os.path.join(CONVERT, "single.npy"))
        got = zip_members(out)
        root = json.loads(got["__zanj__.json"])
        self.assertEqual(list(root), ["a", "plain", "single"])
        self.assertEqual(root["a"]["weights"]["$ref"], "a/weights.npy")
        self.assertEqual(root["plain"]["losses"]["$ref"], "plain/losses.jsonl")
        self.assertEqual(root["single"]["$ref"], "single.npy")
        info = json.loads(got["__zanj_meta__.json"])["externals_info"]
        self.assertEqual(info["a/weights.npy"]["path"], ["a", "weights"])
        self.assertEqual([len(v["path"]) for v in info.values()], sorted(len(v["path"]) for v in info.values()))

    def test_archive_layout_is_the_references(self):
        out = self.pack(os.path.join(CONVERT, "plain.json"))
        heads = local_headers(out)
        self.assertEqual([h[0] for h in heads], ["__zanj_meta__.json", "__zanj__.json", "losses.jsonl", "history.jsonl"])
        for name, version, flags, zip64, date in heads:
            self.assertEqual((version, flags), (20, 0))
            self.assertEqual(zip64, name.endswith("l"), name)  # Zip64 extra on the externals only
            self.assertEqual(date == 0x21, name.endswith("l"), name)  # externals dated 1980-01-01
        meta = json.loads(zip_members(out)["__zanj_meta__.json"])
        self.assertEqual(list(meta), ["zanj_cfg", "sysinfo", "externals_info", "timestamp"])
        self.assertEqual(meta["sysinfo"]["zanj_cli"]["name"], "zanj")
        self.assertLess(abs(meta["timestamp"] - time.time()), 600)
        with zipfile.ZipFile(out) as z:
            self.assertEqual({zi.compress_type for zi in z.infolist()}, {zipfile.ZIP_DEFLATED})
            self.assertTrue(z.read("__zanj__.json").startswith(b"{\n\t\""))  # tab-indented like the reference

    def test_store_and_levels(self):
        src = os.path.join(CONVERT, "arrays.npz")
        with zipfile.ZipFile(self.pack(src, "--store")) as z:
            self.assertEqual({zi.compress_type for zi in z.infolist()}, {zipfile.ZIP_STORED})
            self.assertEqual(json.loads(z.read("__zanj_meta__.json"))["zanj_cfg"]["compress"], 0)
        sizes = [os.path.getsize(self.pack(src, "--level", level)) for level in ("0", "9")]
        self.assertGreater(sizes[0], sizes[1])
        self.assertFails(run("pack", src, "-o", "/tmp/never.zanj", "--store", "--level", "3"), 2)
        self.assertEqual(run("pack", src, "-o", "/tmp/never.zanj", "--level", "10").code, 2)

    def test_big_endian_and_fortran_arrays_keep_their_bytes(self):
        with tempfile.TemporaryDirectory() as tmp:
            npz = os.path.join(tmp, "odd.npz")
            with zipfile.ZipFile(npz, "w") as z:
                for name, descr, order in (("be", ">f8", False), ("fo", "<i4", True)):
                    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (3, 2), }" % (descr, order)
                    header = header.ljust(117) + "\n"
                    z.writestr(name + ".npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                               header.encode() + bytes(range(6 * int(descr[2:]))))
            out = self.pack(npz)
            got = zip_members(out)
            root = json.loads(got["__zanj__.json"])
            self.assertEqual((root["be"]["dtype"], root["fo"]["dtype"]), (">f8", "int32"))
            with zipfile.ZipFile(npz) as z:
                self.assertEqual((got["be.npy"], got["fo.npy"]), (z.read("be.npy"), z.read("fo.npy")))


class FailuresLeaveOutputAlone(ZanjTest):
    def assert_untouched(self, tmp, out, before):
        with open(out, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(any("zanj-tmp" in p for p in files_below(tmp)), files_below(tmp))

    def test_bad_inputs(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.zanj")
            self.assertOk(run("pack", os.path.join(CONVERT, "arrays.npz"), "-o", out))
            with open(out, "rb") as f:
                before = f.read()
            truncated = os.path.join(tmp, "truncated.npy")
            with open(os.path.join(CONVERT, "single.npy"), "rb") as f, open(truncated, "wb") as g:
                g.write(f.read()[:1000])
            pickled = os.path.join(tmp, "objects.npy")
            header = "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }".ljust(117) + "\n"
            with open(pickled, "wb") as f:
                f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + b"\x80\x04N.")
            broken_json = os.path.join(tmp, "broken.json")
            with open(broken_json, "w") as f:
                f.write('{"a": [1, 2')
            bad_crc = os.path.join(tmp, "bad_crc.npz")
            with open(os.path.join(CONVERT, "arrays.npz"), "rb") as f:
                data = bytearray(f.read())
            data[data.find(b"\x93NUMPY") + 500] ^= 0xFF  # inside the first (stored) array's values
            with open(bad_crc, "wb") as f:
                f.write(data)
            refs = os.path.join(tmp, "refs.json")
            with open(refs, "w") as f:
                json.dump({"x": {"__muutils_format__": "numpy.ndarray:external", "$ref": "x.npy"}}, f)
            for bad, code, message in ((truncated, 1, "holds 1000 bytes"), (pickled, 1, "|O"),
                                       (broken_json, 1, "broken.json"), (refs, 1, "cannot provide"),
                                       (bad_crc, 1, "CRC-32"), (corpus("basic.zanj"), 2, "already a .zanj"),
                                       (os.path.join(tmp, "missing.npz"), 2, "missing.npz")):
                self.assertFails(run("pack", bad, "-o", out, "--force"), code, message)
                self.assert_untouched(tmp, out, before)
            # the same name twice, and an output directory that does not exist
            self.assertFails(run("pack", os.path.join(CONVERT, "single.npy"), "single=" + os.path.join(CONVERT, "plain.json"),
                                 "-o", out, "--force"), 2, "'single'")
            self.assertFails(run("pack", os.path.join(CONVERT, "single.npy"), "-o", os.path.join(tmp, "no", "x.zanj")), 2)
            self.assert_untouched(tmp, out, before)

    def test_interrupted_pack_leaves_output_alone(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.zanj")
            with open(out, "wb") as f:
                f.write(b"the previous archive")
            npz = os.path.join(tmp, "big.npz")
            header = "{'descr': '|u1', 'fortran_order': False, 'shape': (%d,), }" % (96 << 20)
            header = header.ljust(117) + "\n"
            with zipfile.ZipFile(npz, "w") as z, z.open("noise.npy", "w", force_zip64=True) as f:
                f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
                for _ in range(96):
                    f.write(os.urandom(1 << 20))
            p = subprocess.Popen([ZANJ, "pack", npz, "-o", out, "--force"], stderr=subprocess.PIPE)
            deadline = time.time() + 60
            while time.time() < deadline and not any("zanj-tmp" in n for n in os.listdir(tmp)):
                time.sleep(0.001)
            p.send_signal(signal.SIGINT)
            p.wait(timeout=60)
            p.stderr.close()
            self.assertEqual(p.returncode, -signal.SIGINT)
            self.assert_untouched(tmp, out, b"the previous archive")


class Help(ZanjTest):
    def test_help_teaches(self):
        r = self.assertOk(run("pack", "--help"))
        for needle in ("Examples:", "Exit status", "--json prints", ".npz", "--list-threshold", "--store"):
            self.assertIn(needle, r.text)

    def test_json_summary(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o.zanj")
            doc = self.assertOk(run("pack", "--json", os.path.join(CONVERT, "arrays.npz"), "-o", out)).json()
            self.assertEqual(doc["members"], 7)
            self.assertEqual(doc["output_bytes"], os.path.getsize(out))


if __name__ == "__main__":
    main()
