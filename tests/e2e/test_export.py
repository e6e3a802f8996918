"""End-to-end: `zanj export` to .npz, .safetensors and a directory, checked against the facts the
reference library recorded for every corpus archive (each array's dtype, shape and the SHA-256 of
its values in C order, little-endian), read back with the standard library only: the .npz's .npy
headers parsed here, the safetensors format read by the reader below, written from its spec."""
import hashlib
import io
import itertools
import json
import os
import signal
import struct
import subprocess
import tarfile
import tempfile
import time
import zipfile

from common import ZANJ, ZanjTest, archives, corpus, external_array, facts, main, npy_bytes, numpy_name, read_npy, run

SAFETENSORS_DTYPES = {"BOOL": "|b1", "I8": "|i1", "U8": "|u1", "I16": "<i2", "U16": "<u2", "I32": "<i4",
                      "U32": "<u4", "I64": "<i8", "U64": "<u8", "F16": "<f2", "F32": "<f4", "F64": "<f8"}


def c_order_le(header, data):
    """An .npy's values in C order, little-endian, whatever its byte and memory order."""
    descr, shape = header["descr"], tuple(header["shape"])
    kind, size = descr[1], int(descr[2:])
    unit = size // 2 if kind == "c" else 4 if kind == "U" else 1 if kind in "bS" else size
    n = 1
    for d in shape:
        n *= d
    data = data[: n * size]
    if descr[0] == ">" and unit > 1:
        data = b"".join(data[i:i + unit][::-1] for i in range(0, len(data), unit))
    if header["fortran_order"] and len(shape) > 1:
        strides, s = [], 1
        for d in shape:
            strides.append(s)
            s *= d
        out = bytearray()
        for index in itertools.product(*(range(d) for d in shape)):
            at = sum(i * st for i, st in zip(index, strides)) * size
            out += data[at:at + size]
        data = bytes(out)
    return data


def read_safetensors(path):
    """-> (metadata, {name: (dtype, shape, bytes)}), checking the layout the format requires:
    offsets inside the data, contiguous, in order, covering every byte."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    data = raw[8 + n:]
    metadata = header.pop("__metadata__", {})
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()), metadata
    tensors, spans = {}, []
    for name, t in header.items():
        begin, end = t["data_offsets"]
        spans.append((begin, end))
        tensors[name] = (t["dtype"], t["shape"], data[begin:end])
    spans.sort()
    at = 0
    for begin, end in spans:
        assert begin == at and end >= begin, spans
        at = end
    assert at == len(data), (at, len(data))
    return metadata, tensors


def array_name(a):
    return "/".join(str(s) for s in a["path"])


def expected_descr(a):
    """The dtype numpy.load gives: the stored header's for external arrays, the JSON's for inline."""
    return a.get("npy_descr") or a["dtype"].replace("torch.", "")


class ExportNpz(ZanjTest):
    def test_every_corpus_archive(self):
        for name in archives():
            with self.subTest(archive=name), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "x.npz")
                r = run("export", corpus(name), "-o", out, "--json")
                self.assertOk(r)
                arrays = facts(name)["arrays"]
                self.assertEqual(r.json()["arrays"], len(arrays))
                with zipfile.ZipFile(out) as z:
                    self.assertEqual(sorted(z.namelist()), sorted(array_name(a) + ".npy" for a in arrays))
                    for info in z.infolist():
                        self.assertEqual(info.compress_type, zipfile.ZIP_STORED)  # numpy.savez's layout
                    for a in arrays:
                        header, data = read_npy(z.read(array_name(a) + ".npy"))
                        want = expected_descr(a)
                        self.assertIn(want, (header["descr"], numpy_name(header["descr"])), a["path"])
                        self.assertEqual(list(header["shape"]), a["shape"], a["path"])
                        if "fortran_order" in a:
                            self.assertEqual(header["fortran_order"], a["fortran_order"], a["path"])
                        got = hashlib.sha256(c_order_le(header, data)).hexdigest()
                        self.assertEqual(got, a["sha256_c_order_le"], a["path"])

    def test_subtree(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.npz")
            self.assertOk(run("export", corpus("basic.zanj"), "nested", "-o", out))
            with zipfile.ZipFile(out) as z:
                self.assertEqual(z.namelist(), ["deeper/matrix.npy"])
            # an array alone is stored under its own key
            self.assertOk(run("export", corpus("basic.zanj"), "nested/deeper/matrix", "-o", out))
            with zipfile.ZipFile(out) as z:
                self.assertEqual(z.namelist(), ["matrix.npy"])

    def test_missing_path_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.npz")
            r = run("export", corpus("basic.zanj"), "no/such", "-o", out)
            self.assertNotEqual(r.code, 0)
            self.assertIn("zanj: error:", r.err)
            self.assertEqual(os.listdir(tmp), [])


class ExportSafetensors(ZanjTest):
    def check(self, name, out, cast):
        metadata, tensors = read_safetensors(out)
        arrays = facts(name)["arrays"]
        self.assertEqual(sorted(tensors), sorted(array_name(a) for a in arrays))
        self.assertEqual(metadata["format"], "zanj")
        obj = json.loads(metadata["__zanj__.json"])
        self.assertIsInstance(obj, (dict, list))
        for a in arrays:
            dtype, shape, data = tensors[array_name(a)]
            descr = expected_descr(a)
            if descr.startswith(("complex", "<c")):
                self.assertTrue(cast)
                self.assertEqual(dtype, "F32" if "64" in descr or descr == "<c8" else "F64")
                self.assertEqual(shape, a["shape"] + [2])
            else:
                self.assertIn(numpy_name(SAFETENSORS_DTYPES[dtype]), (numpy_name(descr), descr), a["path"])
                self.assertEqual(shape, a["shape"])
            self.assertEqual(hashlib.sha256(data).hexdigest(), a["sha256_c_order_le"], a["path"])

    def test_every_corpus_archive(self):
        for name in archives():
            with self.subTest(archive=name), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "x.safetensors")
                complex_ = any(expected_descr(a) in ("complex64", "complex128", "<c8", "<c16") for a in facts(name)["arrays"])
                r = run("export", corpus(name), "-o", out)
                if complex_:
                    self.assertFails(r, 1, "complex64")
                    self.assertEqual(os.listdir(tmp), [])  # refused before anything is written
                    self.assertOk(run("export", corpus(name), "-o", out, "--cast"))
                    self.check(name, out, True)
                else:
                    self.assertOk(r)
                    self.check(name, out, False)

    def test_format_option_overrides_extension(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "weights.bin")
            self.assertOk(run("export", corpus("basic.zanj"), "-o", out, "--format", "safetensors"))
            self.check("basic.zanj", out, False)


class ExportDirectory(ZanjTest):
    def test_layout_and_pack_back(self):
        for name in archives():
            with self.subTest(archive=name), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "folder")
                self.assertOk(run("export", corpus(name), "-o", out))
                arrays = facts(name)["arrays"]
                for a in arrays:
                    with open(os.path.join(out, array_name(a) + ".npy"), "rb") as f:
                        header, data = read_npy(f.read())
                    self.assertEqual(hashlib.sha256(c_order_le(header, data)).hexdigest(), a["sha256_c_order_le"])
                with open(os.path.join(out, "__zanj__.json")) as f:
                    text = f.read()
                for a in arrays:
                    self.assertIn(json.dumps(array_name(a) + ".npy"), text)
                packed = os.path.join(tmp, "back.zanj")
                self.assertOk(run("pack", out, "-o", packed))
                want = run("hash", corpus(name))
                got = run("hash", packed)
                self.assertOk(want)
                self.assertEqual(got.out.split()[0], want.out.split()[0])

    def test_existing_directory_needs_force(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "folder")
            os.mkdir(out)
            with open(os.path.join(out, "keep.txt"), "w") as f:
                f.write("x")
            r = run("export", corpus("basic.zanj"), "-o", out)
            self.assertFails(r, 2, "already exists")
            self.assertEqual(os.listdir(out), ["keep.txt"])
            self.assertOk(run("export", corpus("basic.zanj"), "-o", out, "--force"))
            self.assertNotIn("keep.txt", os.listdir(out))
            self.assertIn("__zanj__.json", os.listdir(out))
            self.assertEqual(sorted(os.listdir(tmp)), ["folder"])  # no staging left behind


class ExportInterrupted(ZanjTest):
    """SIGINT in the middle of a folder export: the staging directory and everything written
    into it so far are removed, and OUT never appears."""

    def test_sigint_leaves_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "big.zanj")
            root, count, size = {}, 96, 2 << 20
            with zipfile.ZipFile(src, "w", zipfile.ZIP_STORED) as z:
                z.writestr("__zanj_meta__.json", "{}")
                for i in range(count):
                    root[f"g{i % 4}"] = root.get(f"g{i % 4}", {})
                    root[f"g{i % 4}"][f"a{i}"] = external_array(f"a{i}.npy", "float64", [size // 8])
                z.writestr("__zanj__.json", json.dumps(root))
                for i in range(count):
                    z.writestr(f"a{i}.npy", npy_bytes("<f8", (size // 8,), bytes([i]) * size))
            out = os.path.join(tmp, "outdir")
            p = subprocess.Popen([ZANJ, "export", src, "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                # Wait until the staging directory holds a subdirectory with files in it, then interrupt.
                deadline = time.monotonic() + 60
                staged = None
                while time.monotonic() < deadline and p.poll() is None:
                    staging = [n for n in os.listdir(tmp) if n.startswith(".outdir.zanj-tmp-")]
                    if staging:
                        try:
                            inside = os.listdir(os.path.join(tmp, staging[0]))
                            if any(n.startswith("g") and os.listdir(os.path.join(tmp, staging[0], n)) for n in inside):
                                staged = staging[0]
                                break
                        except FileNotFoundError:
                            pass
                    time.sleep(0.002)
                self.assertIsNotNone(staged, "the export ended before it could be interrupted")
                p.send_signal(signal.SIGINT)
                p.wait(timeout=60)
            finally:
                if p.poll() is None:
                    p.kill()
                    p.wait()
            self.assertEqual(p.returncode, -signal.SIGINT, p.stderr.read())
            p.stderr.close()
            self.assertEqual(os.listdir(tmp), ["big.zanj"])


def zanj_hash(path):
    r = run("hash", path)
    assert r.code == 0, r.err
    return r.out.split()[0]


class ExportTar(ZanjTest):
    """The folder layout streamed through libarchive, read back by tarfile and by `zanj pack`."""

    def test_tar_family_round_trip(self):
        for ext in ("tar", "tar.gz", "tar.xz", "tar.bz2", "tar.zst"):
            for name in ("basic.zanj", "dtypes.zanj", "dataframe.zanj"):
                with self.subTest(ext=ext, archive=name), tempfile.TemporaryDirectory() as tmp:
                    out = os.path.join(tmp, "x." + ext)
                    self.assertOk(run("export", corpus(name), "-o", out))
                    if ext != "tar.zst":  # tarfile reads no zstd before Python 3.14
                        with tarfile.open(out) as t:
                            names = t.getnames()
                            self.assertIn("__zanj__.json", names)
                            for a in facts(name)["arrays"]:
                                header, data = read_npy(t.extractfile(array_name(a) + ".npy").read())
                                self.assertEqual(hashlib.sha256(c_order_le(header, data)).hexdigest(),
                                                 a["sha256_c_order_le"])
                    packed = os.path.join(tmp, "back.zanj")
                    self.assertOk(run("pack", out, "-o", packed))
                    self.assertEqual(zanj_hash(packed), zanj_hash(corpus(name)))

    def test_libarchive_format_names(self):
        with tempfile.TemporaryDirectory() as tmp:
            for fmt, out in (("cpio", "x.cpio"), ("ustar", "x.ustar"), ("7zip", "x.7z")):
                path = os.path.join(tmp, out)
                self.assertOk(run("export", corpus("basic.zanj"), "-o", path, "--format", fmt))
                packed = os.path.join(tmp, "back.zanj")
                if out.endswith((".cpio", ".7z")):
                    self.assertOk(run("pack", path, "-o", packed, "--force"))  # the 7z replaces the cpio's
                    self.assertEqual(zanj_hash(packed), zanj_hash(corpus("basic.zanj")))
            r = run("export", corpus("basic.zanj"), "-o", os.path.join(tmp, "y"), "--format", "nosuchformat")
            self.assertFails(r, 2, "nosuchformat")
            self.assertFalse(os.path.exists(os.path.join(tmp, "y")))

    def test_tar_in_any_order_packs_as_its_folder(self):
        """pack streams a tar in two passes; members the tar holds before their turn are
        spooled, so a tar listing them backwards, with "./" names and folder entries, packs to
        the same members in the same order as the folder it holds."""
        for name in ("basic.zanj", "dataframe.zanj"):
            with self.subTest(archive=name), tempfile.TemporaryDirectory() as tmp:
                folder = os.path.join(tmp, "dir")
                self.assertOk(run("extract", corpus(name), "-C", folder))
                files = sorted(os.path.relpath(os.path.join(d, f), folder)
                               for d, _, fs in os.walk(folder) for f in fs)
                tar = os.path.join(tmp, "x.tar.gz")
                with tarfile.open(tar, "w:gz") as t:
                    t.add(folder, arcname=".", recursive=False)
                    for rel in reversed(files):
                        t.add(os.path.join(folder, rel), arcname="./" + rel)
                from_folder, from_tar = os.path.join(tmp, "a.zanj"), os.path.join(tmp, "b.zanj")
                self.assertOk(run("pack", folder, "-o", from_folder))
                self.assertOk(run("pack", tar, "-o", from_tar))
                self.assertEqual(zanj_hash(from_tar), zanj_hash(from_folder))
                with zipfile.ZipFile(from_folder) as a, zipfile.ZipFile(from_tar) as b:
                    self.assertEqual(a.namelist(), b.namelist())
                    for member in a.namelist():
                        if member != "__zanj_meta__.json":  # its timestamp differs
                            self.assertEqual(a.read(member), b.read(member), member)


    def test_tar_in_plan_order_with_an_edited_array(self):
        """A tar holding __zanj__.json and the meta first is packed in one pass, its plan made
        from those two; an .npy edited since (another shape) proves that plan wrong once read,
        and the archive is written again from the right plan: as the folder packs."""
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "dir")
            self.assertOk(run("extract", corpus("basic.zanj"), "-C", folder))
            from_folder, from_tar = os.path.join(tmp, "a.zanj"), os.path.join(tmp, "b.zanj")
            self.assertOk(run("pack", folder, "-o", from_folder))
            with zipfile.ZipFile(from_folder) as a:
                order = a.namelist()
            edited = next(n for n in order if n.endswith(".npy"))
            header = {"descr": "<f8", "fortran_order": False, "shape": (3,)}
            text = repr(header).encode() + b" " * 10
            text += b" " * (64 - (10 + len(text) + 1) % 64) + b"\n"
            with open(os.path.join(folder, edited), "wb") as f:
                f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + struct.pack("<3d", 1, 2, 3))
            os.remove(from_folder)
            self.assertOk(run("pack", folder, "-o", from_folder))
            tar = os.path.join(tmp, "x.tar")
            with tarfile.open(tar, "w") as t:  # the JSON first, then the members in the plan's order
                for name in ["__zanj__.json", "__zanj_meta__.json"] + [n for n in order if not n.endswith(".json")]:
                    t.add(os.path.join(folder, name), arcname=name)
            self.assertOk(run("pack", tar, "-o", from_tar))
            self.assertEqual(zanj_hash(from_tar), zanj_hash(from_folder))
            with zipfile.ZipFile(from_folder) as a, zipfile.ZipFile(from_tar) as b:
                self.assertEqual(a.namelist(), b.namelist())
                self.assertEqual(a.read("__zanj__.json"), b.read("__zanj__.json"))
                self.assertEqual(a.read(edited), b.read(edited))
                info = json.loads(b.read("__zanj_meta__.json"))["externals_info"][edited]
                self.assertEqual(info["len(data)"], 3)

    def test_tar_warnings_are_those_of_the_plan_written(self):
        """A tar read in one pass warns of what only its end shows (a leftover temporary file
        after the members), from the plan finally written: once, when the plan held and when it
        was replaced (an array edited since)."""
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "dir")
            self.assertOk(run("extract", corpus("basic.zanj"), "-C", folder))
            leftover = os.path.join(folder, ".stray.npy.zanj-tmp-1234")
            with open(leftover, "wb") as f:
                f.write(b"partial")
            for edit in (False, True):
                with self.subTest(edited=edit):
                    tar = os.path.join(tmp, f"x{int(edit)}.tar")
                    with tarfile.open(tar, "w") as t:  # the JSON first, the leftover last
                        names = sorted((os.path.relpath(os.path.join(d, f), folder)
                                        for d, _, fs in os.walk(folder) for f in fs),
                                       key=lambda n: (not n.startswith("__"), n == os.path.basename(leftover), n))
                        for name in names:
                            with open(os.path.join(folder, name), "rb") as f:
                                data = f.read()
                            if edit and name.endswith(".npy"):  # one more element: another shape
                                text = repr({"descr": "<f8", "fortran_order": False, "shape": (1,)}).encode()
                                text += b" " * (64 - (10 + len(text) + 1) % 64) + b"\n"
                                data = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + struct.pack("<d", 7)
                            info = tarfile.TarInfo(name)
                            info.size = len(data)
                            t.addfile(info, io.BytesIO(data))
                    out = os.path.join(tmp, f"x{int(edit)}.zanj")
                    r = self.assertOk(run("pack", tar, "-o", out))
                    self.assertEqual(r.err.count("zanj-tmp-1234"), 1, r.err)
                    self.assertIn("temporary file", r.err)
                    with zipfile.ZipFile(out) as z:
                        self.assertNotIn(".stray.npy.zanj-tmp-1234", z.namelist())

    def test_tar_without_zanj_json_is_refused_once_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            tar = os.path.join(tmp, "x.tar.gz")
            with tarfile.open(tar, "w:gz") as t:
                info = tarfile.TarInfo("a.npy")
                info.size = 3
                t.addfile(info, io.BytesIO(b"abc"))
            self.assertFails(run("pack", tar, "-o", os.path.join(tmp, "out.zanj")), 2, "no __zanj__.json")
            self.assertEqual(os.listdir(tmp), ["x.tar.gz"])


class PackHostileTar(ZanjTest):
    """A tar fed to `pack` is refused, with nothing written, for every entry that could write
    outside the directory or is not a plain file, and for a bomb."""

    def make_tar(self, path, add):
        with tarfile.open(path, "w") as t:
            good = json.dumps({"a": 1}).encode()
            info = tarfile.TarInfo("__zanj__.json")
            info.size = len(good)
            t.addfile(info, io.BytesIO(good))
            add(t)

    def check_refused(self, add, message, *extra):
        with tempfile.TemporaryDirectory() as tmp:
            tar = os.path.join(tmp, "in.tar")
            self.make_tar(tar, add)
            out = os.path.join(tmp, "out.zanj")
            r = run(*extra, "pack", tar, "-o", out)
            self.assertFails(r, 1, message)
            self.assertEqual(os.listdir(tmp), ["in.tar"])

    def test_hostile_entries(self):
        def file_named(name):
            def add(t):
                info = tarfile.TarInfo(name)
                info.size = 1
                t.addfile(info, io.BytesIO(b"x"))
            return add

        def link(kind, target):
            def add(t):
                info = tarfile.TarInfo("evil")
                info.type = kind
                info.linkname = target
                t.addfile(info)
            return add

        def device(t):
            info = tarfile.TarInfo("dev")
            info.type = tarfile.CHRTYPE
            info.devmajor, info.devminor = 1, 3
            t.addfile(info)

        self.check_refused(file_named("/etc/evil"), "evil")
        self.check_refused(file_named("../evil"), "evil")
        self.check_refused(file_named("a/../../evil"), "evil")
        self.check_refused(link(tarfile.SYMTYPE, "/etc/passwd"), "symbolic link")
        self.check_refused(link(tarfile.LNKTYPE, "__zanj__.json"), "hard link")
        self.check_refused(device, "character device")

    def test_bomb(self):
        def bomb(t):
            data = bytes(8 << 20)
            info = tarfile.TarInfo("zeros.bin")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))

        with tempfile.TemporaryDirectory() as tmp:
            tar = os.path.join(tmp, "in.tar.gz")
            with tarfile.open(tar, "w:gz") as t:
                bomb(t)
            r = run("--max-ratio", "2", "pack", tar, "-o", os.path.join(tmp, "out.zanj"))
            self.assertFails(r, 1, "--max-ratio")
            self.assertEqual(os.listdir(tmp), ["in.tar.gz"])


if __name__ == "__main__":
    main()
