"""End-to-end: `zanj extract --salvage` on archives cut short (an interrupted download or upload):
corpus archives truncated at many offsets (inside a member, between members, inside the central
directory and the end record), and archives with data descriptors (as zipfile writes to a
stream) and Zip64 local extras. Every member whose bytes are all before the cut comes back,
byte for byte, and nothing else; the rest is reported; the exit status is 1."""
import io
import os
import random
import shutil
import struct
import tempfile
import zipfile

from common import ZanjTest, archives, corpus, files_below, main, run


def read(path):
    with open(path, "rb") as f:
        return f.read()


def member_extents(data):
    """(name, start of local header, end of data) of each member, from the intact archive."""
    out = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            at = info.header_offset
            name_len, extra_len = struct.unpack("<HH", data[at + 26:at + 30])
            end = at + 30 + name_len + extra_len + info.compress_size
            if info.flag_bits & 0x08:  # a data descriptor: signature, CRC, sizes (4 or 8 bytes)
                end += 16 if data[end + 16:end + 20] in (b"PK\x03\x04", b"PK\x01\x02") else 24
            out.append((info.filename, at, end, z.read(info), at + 30 + name_len + extra_len))
    return out


def cut_points(data, extents, rng, count):
    """Offsets inside members, at their edges, inside the directory and the end record."""
    cd = data.rindex(b"PK\x05\x06")
    first_central = data.index(b"PK\x01\x02")
    points = {len(data) - 10, cd, first_central + 20, (first_central + cd) // 2}
    for _, start, end, *_ in extents:
        points.update({start + 20, (start + end) // 2, end - 1, end + 2})
    points.update(rng.randrange(1, len(data)) for _ in range(count))
    return sorted(p for p in points if 0 < p < len(data))


class Unseekable(io.RawIOBase):
    """A write-only stream: zipfile then writes data descriptors (flag bit 3)."""

    def __init__(self):
        self.buffer = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buffer += b
        return len(b)


def streamed_zip(members, method, zip64):
    out = Unseekable()
    with zipfile.ZipFile(out, "w", compression=method) as z:
        for name, data in members:
            with z.open(name, "w", force_zip64=zip64) as f:
                f.write(data)
    return bytes(out.buffer)


class Salvage(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.count = 0

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def salvage(self, data, *args):
        """-> (Result, {name: bytes} of the files written)."""
        Salvage.count += 1
        path = os.path.join(self.tmp, f"cut{self.count}.zanj")
        out = os.path.join(self.tmp, f"out{self.count}")
        with open(path, "wb") as f:
            f.write(data)
        r = run("extract", "--salvage", path, "-C", out, *args)
        self.assertNotCrashed(r)
        got = {}
        for rel in files_below(out) if os.path.isdir(out) else []:
            full = os.path.join(out, rel)
            if os.path.isfile(full):
                with open(full, "rb") as f:
                    got[rel] = f.read()
        self.assertFalse([n for n in got if ".zanj-tmp-" in n], "temporary files left")
        return r, got

    def check_cuts(self, data, extents, points):
        for cut in points:
            with self.subTest(cut=cut):
                r, got = self.salvage(data[:cut])
                want = {name: content for name, _, end, content, _ in extents if end <= cut}
                self.assertEqual(sorted(got), sorted(want))
                for name in want:
                    self.assertEqual(got[name], want[name], name)
                self.assertEqual(r.code, 1, r.err)
                self.assertIn("salvaging the members found by their local headers", r.err)
                cut_members = [name for name, _, end, _, header_end in extents if header_end <= cut < end]
                for name in cut_members:
                    self.assertIn(f"'{name}' not recovered", r.err)

    def test_corpus_archives_cut_at_many_offsets(self):
        rng = random.Random(17)
        for name in archives():
            data = read(corpus(name))
            extents = member_extents(data)
            with self.subTest(name):
                self.check_cuts(data, extents, cut_points(data, extents, rng, 2))

    def test_data_descriptors_and_zip64_local_extras(self):
        rng = random.Random(3)
        members = [("a.json", b'{"x": 1}\n' * 50), ("dir/b.npy", bytes(range(256)) * 40),
                   ("c.jsonl", b"".join(b"%d\n" % i for i in range(2000)))]
        for method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
            for zip64 in (False, True):
                data = streamed_zip(members, method, zip64)
                extents = member_extents(data)
                with self.subTest(method=method, zip64=zip64):
                    self.assertTrue(all(zipfile.ZipFile(io.BytesIO(data)).getinfo(n).flag_bits & 8 for n, _ in members))
                    self.check_cuts(data, extents, cut_points(data, extents, rng, 1))

    def test_intact_archive_extracts_as_usual(self):
        r, got = self.salvage(read(corpus("basic.zanj")))
        self.assertOk(r)
        self.assertEqual(len(got), 5)

    def test_from_standard_input(self):
        data = read(corpus("dataclass.zanj"))
        out = os.path.join(self.tmp, "stdin-out")
        r = run("extract", "--salvage", "-", "-C", out, stdin=data[:data.index(b"PK\x01\x02") + 7])
        self.assertEqual(r.code, 1, r.err)
        with zipfile.ZipFile(corpus("dataclass.zanj")) as z:
            self.assertEqual(sorted(f for f in files_below(out) if os.path.isfile(os.path.join(out, f))),
                             sorted(z.namelist()))

    def test_no_header_at_all(self):
        r, got = self.salvage(b"not a zip file at all\n" * 100)
        self.assertEqual((r.code, got), (1, {}))

    def test_a_corrupt_member_is_reported_not_written(self):
        data = bytearray(read(corpus("stored.zanj")))
        extents = member_extents(bytes(data))
        name, start, end, *_ = extents[-1]
        data[end - 5] ^= 0xFF  # inside the last member's stored data: its CRC-32 fails
        r, got = self.salvage(bytes(data[:data.index(b"PK\x01\x02")]))
        self.assertEqual(r.code, 1)
        self.assertNotIn(name, got)
        self.assertIn(f"'{name}' not extracted", r.err)
        self.assertEqual(sorted(got), sorted(n for n, *_ in extents[:-1]))

    def test_hostile_names_in_local_headers_are_refused(self):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("ok.txt", b"fine")
            z.writestr("../escape.txt", b"evil")
        data = out.getvalue()
        r, got = self.salvage(data[:data.index(b"PK\x01\x02")])
        self.assertEqual(r.code, 1)
        self.assertEqual(sorted(got), ["ok.txt"])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "escape.txt")))
        self.assertIn("refused", r.err)

    def test_salvaged_directory_packs_back_to_a_valid_archive(self):
        data = read(corpus("basic.zanj"))
        cut = data.index(b"PK\x01\x02") + 30  # inside the central directory: every member intact
        r, got = self.salvage(data[:cut])
        self.assertEqual(r.code, 1)
        out = os.path.join(self.tmp, f"out{self.count}")
        packed = os.path.join(self.tmp, "repacked.zanj")
        self.assertOk(run("pack", out, "-o", packed))
        self.assertOk(run("verify", packed))
        self.assertEqual(self.assertOk(run("diff", corpus("basic.zanj"), packed)).text, "no differences found\n")

    def test_verify_says_what_a_salvage_would_recover(self):
        data = read(corpus("basic.zanj"))
        extents = member_extents(data)
        cut = (extents[3][1] + extents[3][2]) // 2  # inside the fourth member
        path = os.path.join(self.tmp, "for-verify.zanj")
        with open(path, "wb") as f:
            f.write(data[:cut])
        r = run("verify", path)
        self.assertEqual(r.code, 1)
        self.assertIn("zanj extract --salvage would recover 3 complete members", r.text + r.err)


if __name__ == "__main__":
    main()
