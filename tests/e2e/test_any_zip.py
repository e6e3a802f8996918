"""End-to-end: every valid ZIP that Python's zipfile reads is read by every command. A .zanj
rewritten with a long comment (up to 65,535 bytes), and behind a prefix (a self-extracting stub)
with its offsets adjusted (as `zip -A` leaves it) or not (`cat stub archive`)."""
import io
import os
import shutil
import struct
import subprocess
import tempfile
import zipfile

import zipgen
from common import ZanjTest, corpus, files_below, main, run

ZSTD = 93  # zipfile.ZIP_ZSTANDARD from Python 3.14

SOURCE = corpus("basic.zanj")
STUB = b"#!/bin/sh\necho 'a self-extracting stub'\nexit 0\n" + bytes(range(256)) * 4


def rewritten(comment=b""):
    """The corpus archive's members, written again by zipfile (same names, methods, dates)."""
    out = io.BytesIO()
    with zipfile.ZipFile(SOURCE) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        dst.comment = comment
    return out.getvalue()


def with_zip64_end(data):
    """The same archive ended by Zip64 records (an end record of sentinels, a Zip64 end record
    and its locator), as writers end archives of more than 65,535 members or past 4 GiB."""
    entries, _, cd_size, cd_offset = struct.unpack("<HHII", data[-14:-2])
    zip64_at = cd_offset + cd_size
    record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, entries, entries, cd_size, cd_offset)
    locator = struct.pack("<IIQI", 0x07064B50, 0, zip64_at, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return data[:zip64_at] + record + locator + end


def variants(tmp):
    """name -> path of each variant; each is checked to open in zipfile with a clean testzip."""
    out = {}

    def put(name, data):
        out[name] = os.path.join(tmp, name + ".zanj")
        with open(out[name], "wb") as f:
            f.write(data)

    put("comment_65535", rewritten(b"c" * 65535))
    put("comment_20000", rewritten(bytes(i % 251 for i in range(20000)).replace(b"PK", b"pk")))
    put("prefix_unadjusted", STUB + rewritten())
    put("prefix_unadjusted_comment", STUB + rewritten(b"x" * 40000))
    put("zip64_end", with_zip64_end(rewritten()))
    put("prefix_unadjusted_zip64_end", STUB + with_zip64_end(rewritten()))
    # zipfile appending to a file that does not start as a ZIP writes offsets counted from the
    # file's start, as `zip -A` adjusts a self-extractor's.
    adjusted = os.path.join(tmp, "prefix_adjusted.zanj")
    with open(adjusted, "wb") as f:
        f.write(STUB)
    with zipfile.ZipFile(adjusted, "a") as dst, zipfile.ZipFile(SOURCE) as src:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
    out["prefix_adjusted"] = adjusted
    if shutil.which("zip"):
        # `zip -A` itself, on a stub concatenated with the archive.
        path = os.path.join(tmp, "zip_A.zanj")
        with open(path, "wb") as f:
            f.write(STUB + rewritten())
        subprocess.run(["zip", "-qA", path], check=True)
        out["zip_A"] = path
    for name, path in out.items():
        with zipfile.ZipFile(path) as z:
            assert z.testzip() is None, name
    # Every member compressed with zstd, method 93, as Python 3.14's zipfile writes it
    # (ZIP_ZSTANDARD): a zstd frame per member. This Python's zipfile cannot read it back.
    path = os.path.join(tmp, "zstd_method_93.zanj")
    with zipfile.ZipFile(SOURCE) as src:
        members = [zipgen.Member(i.filename, src.read(i), ZSTD,
                                 raw=subprocess.run(["zstd", "-q", "-3", "-c"], input=src.read(i), capture_output=True,
                                                    check=True).stdout)
                   for i in src.infolist()]
    with open(path, "wb") as f:
        f.write(zipgen.build_zip(members))
    out["zstd_method_93"] = path
    return out


class AnyZip(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.paths = variants(cls.tmp)
        cls.reference = {c: run(c, SOURCE) for c in ("ls", "stats")}
        cls.reference["cat"] = run("cat", "--resolve", "--format", "json", SOURCE)
        cls.reference["hash"] = run("hash", "--json", SOURCE).json()["digest"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_every_command_reads_every_variant(self):
        for name, path in self.paths.items():
            with self.subTest(name):
                info = self.assertOk(run("info", path))
                self.assertIn("5 members", info.text)
                self.assertEqual(self.assertOk(run("ls", path)).out, self.reference["ls"].out)
                self.assertEqual(self.assertOk(run("stats", path)).out, self.reference["stats"].out)
                self.assertEqual(self.assertOk(run("cat", "--resolve", "--format", "json", path)).out,
                                 self.reference["cat"].out)
                self.assertEqual(self.assertOk(run("cat", "--member", "long_list.jsonl", path)).out,
                                 zipfile.ZipFile(SOURCE).read("long_list.jsonl"))
                self.assertOk(run("verify", path))
                self.assertEqual(self.assertOk(run("hash", "--json", path)).json()["digest"], self.reference["hash"])
                self.assertEqual(self.assertOk(run("diff", SOURCE, path)).text, "no differences found\n")
                out = os.path.join(self.tmp, name + ".out")
                self.assertOk(run("extract", path, "-C", out))
                with zipfile.ZipFile(SOURCE) as z:
                    for member in z.namelist():
                        with open(os.path.join(out, member), "rb") as f:
                            self.assertEqual(f.read(), z.read(member), member)
                    files = [p for p in files_below(out) if os.path.isfile(os.path.join(out, p))]
                    self.assertEqual(sorted(files), sorted(z.namelist()))

    def test_a_prefix_is_not_hidden_by_verify(self):
        # Python and unzip read it, so it is valid; the stub's bytes are still accounted for.
        doc = run("verify", "--json", self.paths["prefix_unadjusted"]).json()
        self.assertTrue(doc["ok"], doc)
        self.assertIn("unaccounted_bytes", [w["code"] for w in doc["warnings"]])

    def test_wrong_offsets_are_still_refused(self):
        # A directory offset that is merely wrong (no prefix explains it) is still an error.
        data = rewritten()
        end = data.rindex(b"PK\x05\x06")
        broken = data[:end + 16] + (7).to_bytes(4, "little") + data[end + 20:]
        path = os.path.join(self.tmp, "wrong_offset.zanj")
        with open(path, "wb") as f:
            f.write(broken)
        self.assertFails(run("ls", path), 1)
        self.assertEqual(run("verify", path).code, 1)


if __name__ == "__main__":
    main()
