"""End-to-end: `zanj extract` on the corpus, on hostile archives, and when writing fails."""
import os
import resource
import signal
import subprocess
import tempfile
import time
import zipfile

from common import ZANJ, ZanjTest, archives, build_zip, corpus, files_below, main, malformed, run


def extracted(tmp):
    return os.path.join(tmp, "out")


class Extract(ZanjTest):
    def test_every_corpus_archive_intact_and_nothing_else(self):
        for a in archives():
            with tempfile.TemporaryDirectory() as tmp:
                self.assertOk(run("extract", corpus(a), "-C", extracted(tmp)))
                with zipfile.ZipFile(corpus(a)) as z:
                    for zi in z.infolist():
                        with open(os.path.join(extracted(tmp), zi.filename), "rb") as f:
                            self.assertEqual(f.read(), z.read(zi), f"{a}: {zi.filename}")
                    files = [p for p in files_below(extracted(tmp)) if os.path.isfile(os.path.join(extracted(tmp), p))]
                    self.assertEqual(sorted(files), sorted(z.namelist()), a)

    def test_default_directory_is_the_archive_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertOk(run("extract", corpus("basic.zanj"), cwd=tmp))
            self.assertTrue(os.path.isfile(os.path.join(tmp, "basic", "nested", "deeper", "matrix.npy")))

    def test_selectors_and_filters(self):
        cases = [
            (["nested"], ["nested/deeper/matrix.npy"]),
            (["long_list.jsonl"], ["long_list.jsonl"]),
            (["big_array", "long_list"], ["big_array.npy", "long_list.jsonl"]),
            (["--npy-only"], ["big_array.npy", "nested/deeper/matrix.npy"]),
            (["--json-only"], ["__zanj__.json", "__zanj_meta__.json", "long_list.jsonl"]),
        ]
        for args, want in cases:
            with tempfile.TemporaryDirectory() as tmp:
                self.assertOk(run("extract", corpus("basic.zanj"), "-C", extracted(tmp), *args))
                got = [p for p in files_below(extracted(tmp)) if os.path.isfile(os.path.join(extracted(tmp), p))]
                self.assertEqual(got, want, args)

    def test_unknown_selector(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertFails(run("extract", corpus("basic.zanj"), "-C", extracted(tmp), "no/such"), 1,
                             "neither a member nor an object path")
            self.assertFails(run("extract", corpus("basic.zanj"), "-C", extracted(tmp), "small_array"), 1, "inline")

    def test_list_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = self.assertOk(run("extract", "-l", corpus("basic.zanj"), "-C", extracted(tmp)))
            self.assertIn("nested/deeper/matrix.npy", r.text)
            self.assertIn("5 members", r.text)
            doc = self.assertOk(run("extract", "--list", "--json", corpus("basic.zanj"), "-C", extracted(tmp))).json()
            self.assertEqual(len(doc["members"]), 5)
            self.assertEqual(doc["refused"], [])
            self.assertEqual(doc["bytes"], sum(m["size"] for m in doc["members"]))
            self.assertFalse(os.path.exists(extracted(tmp)))

    def test_json_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = self.assertOk(run("extract", "--json", corpus("basic.zanj"), "-C", extracted(tmp))).json()
            self.assertEqual(len(doc["written"]), 5)
            self.assertEqual(doc["directory"], extracted(tmp))
            self.assertEqual((doc["refused"], doc["failed"]), ([], []))

    def test_jobs_write_the_same_files_and_report(self):
        """Members split over threads: the same tree and the same --json report (storage order)
        with -j 1, -j 4 and ZANJ_JOBS; a ZANJ_JOBS that is no number is a usage error."""
        with tempfile.TemporaryDirectory() as tmp:
            many = os.path.join(tmp, "many.zanj")
            with zipfile.ZipFile(many, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("__zanj_meta__.json", "{}")
                z.writestr("__zanj__.json", "{}")
                for i in range(300):
                    z.writestr(f"d{i % 7}/m{i:03d}.bin", os.urandom(i * 37 % 5000))
            reports, trees = [], []
            for n, (args, env) in enumerate(((["-j", "1"], None), (["-j", "4"], None), ([], {"ZANJ_JOBS": "3"}))):
                out = os.path.join(tmp, f"out{n}")
                reports.append(self.assertOk(run("extract", "--json", *args, many, "-C", out, env=env)).json())
                tree = {}
                for p in files_below(out):
                    if os.path.isfile(os.path.join(out, p)):
                        with open(os.path.join(out, p), "rb") as f:
                            tree[p] = f.read()
                trees.append(tree)
            with zipfile.ZipFile(many) as z:
                self.assertEqual(trees[0], {name: z.read(name) for name in z.namelist()})
                self.assertEqual(reports[0]["written"], z.namelist())  # storage order
            for n in (1, 2):
                self.assertEqual(trees[n], trees[0])
                self.assertEqual(reports[n]["written"], reports[0]["written"])
            self.assertFails(run("extract", many, "-C", os.path.join(tmp, "bad"), env={"ZANJ_JOBS": "lots"}), 2,
                             "ZANJ_JOBS=lots")
            r = run("extract", "-j", "0", many, "-C", os.path.join(tmp, "bad"))
            self.assertEqual(r.code, 2, r.err)
            self.assertTrue(r.err.startswith("zanj: error: --jobs: Value 0 not in range 1 to 1024"), r.err)
            self.assertFalse(os.path.exists(os.path.join(tmp, "bad")))

    def test_existing_files_kept_unless_force(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertOk(run("extract", corpus("basic.zanj"), "-C", extracted(tmp)))
            target = os.path.join(extracted(tmp), "big_array.npy")
            with open(target, "wb") as f:
                f.write(b"edited")
            r = run("extract", corpus("basic.zanj"), "-C", extracted(tmp))
            self.assertEqual(r.code, 1)
            self.assertIn("exists (use --force", r.err)
            self.assertEqual(len(r.err.strip().splitlines()), 5)  # one line per member
            with open(target, "rb") as f:
                self.assertEqual(f.read(), b"edited")
            self.assertOk(run("extract", "--force", corpus("basic.zanj"), "-C", extracted(tmp)))
            with zipfile.ZipFile(corpus("basic.zanj")) as z, open(target, "rb") as f:
                self.assertEqual(f.read(), z.read("big_array.npy"))


class Hostile(ZanjTest):
    def test_refused_members_reported_rest_extracted(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "hostile.zip")
            build_zip(path, [
                ("good.txt", b"fine"),
                ("/tmp/zanj_e2e_absolute", b"x"),
                ("../escape", b"x"),
                ("a/../../escape2", b"x"),
                ("back\\slash", b"x"),
                ("C:drive", b"x"),
                (b"ctl\x01name", b"x"),
                (b"nul\x00name", b"x"),
                {"name": "link", "data": b"/etc/passwd", "mode": 0o120777},
                {"name": "device", "data": b"", "mode": 0o020644},
                ("f", b"file"),
                ("f/g", b"under a file"),
                ("sub/ok.txt", b"also fine"),
            ])
            dest = os.path.join(tmp, "a", "b", "out")
            r = run("extract", path, "-C", dest)
            self.assertNotCrashed(r)
            self.assertEqual(r.code, 1, r.err)
            self.assertEqual(files_below(dest), ["f", "good.txt", "sub", "sub/ok.txt"])
            lines = r.err.strip().splitlines()
            self.assertEqual(len(lines), 10, r.err)  # one per refused member
            for needle in ("absolute path", "'..' segment", "backslash", "drive letter", "control character",
                           "symbolic link", "special file", "'f' is a file"):
                self.assertIn(needle, r.err)
            self.assertTrue(all(line.startswith("zanj: error: ") for line in lines), r.err)
            self.assertEqual(files_below(tmp), sorted(["a", "a/b", "a/b/out", "hostile.zip"] +
                                                      ["a/b/out/" + p for p in ("f", "good.txt", "sub", "sub/ok.txt")]))
            self.assertFalse(os.path.exists(os.path.join(tmp, "escape")))
            self.assertFalse(os.path.exists(os.path.join(tmp, "a", "escape2")))
            self.assertFalse(os.path.exists("/tmp/zanj_e2e_absolute"))

    def test_duplicate_names_refuse_the_whole_archive(self):
        # Readers disagree about which of two same-named entries is "the" member: nothing is written.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "dup.zip")
            build_zip(path, [("good.txt", b"fine"), ("dup", b"1"), ("dup", b"2")])
            dest = os.path.join(tmp, "out")
            self.assertFails(run("extract", path, "-C", dest), 1, "2 entries are named 'dup'")
            self.assertFalse(os.path.exists(os.path.join(dest, "dup")))

    def test_symlink_planted_in_target(self):
        with tempfile.TemporaryDirectory() as tmp:
            outside = os.path.join(tmp, "outside")
            os.makedirs(outside)
            os.makedirs(extracted(tmp))
            os.symlink(outside, os.path.join(extracted(tmp), "nested"))
            r = run("extract", corpus("basic.zanj"), "-C", extracted(tmp))
            self.assertEqual(r.code, 1)
            self.assertIn("'nested/deeper/matrix.npy' refused", r.err)
            self.assertIn("symbolic link", r.err)
            self.assertEqual(os.listdir(outside), [])
            self.assertTrue(os.path.isfile(os.path.join(extracted(tmp), "big_array.npy")))

    def test_malformed_archives_never_write_outside(self):
        for m in malformed():
            with tempfile.TemporaryDirectory() as tmp:
                dest = os.path.join(tmp, "a", "b", "out")
                os.makedirs(dest)
                r = run("extract", m, "-C", dest, timeout=30)
                self.assertNotCrashed(r)
                self.assertIn(r.code, (0, 1), f"{m}: {r.err}")
                self.assertEqual([p for p in files_below(tmp) if not p.startswith("a/b/out/")], ["a", "a/b", "a/b/out"], m)
                self.assertFalse(os.path.exists("/tmp/zanj_absolute_escape"))
                self.assertFalse(any("zanj-tmp" in p for p in files_below(tmp)), m)

    def test_zip_slip_and_absolute_refused_by_name(self):
        for name, member, reason in (("zip_slip.zanj", "../../escape.npy", "name contains a '..' segment"),
                                     ("absolute_path.zanj", "/tmp/zanj_absolute_escape", "absolute path")):
            with tempfile.TemporaryDirectory() as tmp:
                r = run("extract", corpus("malformed", name), "-C", extracted(tmp))
                self.assertEqual(r.code, 1)
                self.assertIn(f"'{member}' refused: {reason}", r.err)
                self.assertTrue(os.path.isfile(os.path.join(extracted(tmp), "__zanj__.json")))

    def test_zip_bomb_total_refused_before_writing(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run("extract", corpus("basic.zanj"), "-C", extracted(tmp), "--max-total-bytes", "1000")
            self.assertFails(r, 1, "over the limit")
            self.assertFalse(os.path.exists(extracted(tmp)))
            r = run("extract", corpus("basic.zanj"), "-C", extracted(tmp), "--max-member-bytes", "3000")
            self.assertEqual(r.code, 1)
            self.assertIn("'nested/deeper/matrix.npy' refused: declares 3328 bytes", r.err)
            self.assertTrue(os.path.isfile(os.path.join(extracted(tmp), "big_array.npy")))


class NoPartialFiles(ZanjTest):
    def test_bad_crc_leaves_no_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run("extract", corpus("malformed", "bad_crc.zanj"), "-C", extracted(tmp))
            self.assertEqual(r.code, 1)
            self.assertIn("'big_array.npy' not extracted", r.err)
            self.assertIn("CRC-32 mismatch", r.err)
            self.assertEqual(files_below(extracted(tmp)),
                             ["__zanj__.json", "__zanj_meta__.json", "long_list.jsonl", "nested", "nested/deeper",
                              "nested/deeper/matrix.npy"])

    def test_failed_write_leaves_no_file(self):
        # A file-size limit makes writing the 3 KiB member fail halfway (EFBIG).
        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))

        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([ZANJ, "extract", corpus("basic.zanj"), "-C", extracted(tmp)], capture_output=True,
                               preexec_fn=limit, timeout=60)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(b"'nested/deeper/matrix.npy' not extracted", p.stderr)
            self.assertNotIn("nested/deeper/matrix.npy", files_below(extracted(tmp)))
            self.assertFalse(any("zanj-tmp" in f for f in files_below(extracted(tmp))))
            self.assertIn("big_array.npy", files_below(extracted(tmp)))

    def test_interrupted_extraction_leaves_no_partial_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            big = os.path.join(tmp, "big.zip")
            with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as z:
                with z.open("zeros.bin", "w", force_zip64=True) as f:
                    chunk = bytes(1 << 20)
                    for _ in range(384):
                        f.write(chunk)
            dest = extracted(tmp)
            p = subprocess.Popen([ZANJ, "extract", big, "-C", dest], stderr=subprocess.PIPE)
            deadline = time.time() + 60
            while time.time() < deadline and not any("zanj-tmp" in f for f in (os.listdir(dest) if os.path.isdir(dest) else [])):
                time.sleep(0.001)
            p.send_signal(signal.SIGINT)
            p.wait(timeout=60)
            p.stderr.close()
            self.assertEqual(p.returncode, -signal.SIGINT)
            self.assertEqual(os.listdir(dest), [])


class Help(ZanjTest):
    def test_help_teaches(self):
        r = self.assertOk(run("extract", "--help"))
        for needle in ("Examples:", "Exit status", "--json prints", "--force", "--list"):
            self.assertIn(needle, r.text)


if __name__ == "__main__":
    main()
