"""End-to-end: `zanj verify` on the corpus and on the generated malformed-archive suite, and
every command on every generated archive (no crash, no sanitizer report, no hang)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest
import zipfile

from common import (SOURCE_DIR, ZanjTest, archives, corpus, external_array, facts, main, malformed, npy_bytes, run,
                    write_reference_zanj)
import malformed_gen

# What each archive in the shared corpus's malformed/ must be reported as.
CORPUS_MALFORMED = {
    "truncated.zanj": "no_eocd",
    "bad_crc.zanj": "crc_mismatch",
    "no_main.zanj": "missing_main",
    "no_meta.zanj": "missing_meta",
    "bad_main_json.zanj": "json_invalid",
    "missing_external.zanj": "dangling_ref",
    "zip_slip.zanj": "unsafe_name",
    "absolute_path.zanj": "unsafe_name",
    "npy_shape_mismatch.zanj": "npy_mismatch",
}

_suite_dir = None


def suite():
    """The generated archives, written once per run: [(case, path)]."""
    global _suite_dir
    if _suite_dir is None:
        _suite_dir = tempfile.mkdtemp(prefix="zanj_malformed_")
    out = []
    for case in malformed_gen.cases():
        path = os.path.join(_suite_dir, case.name + ".zanj")
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(case.data)
        out.append((case, path))
    return out


def registered_commands():
    """Subcommands this binary has (cat and extract arrive on other branches)."""
    text = run("--help").text
    listed = text.split("Subcommands:", 1)[-1]
    return {line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line.split()}


def report(*args):
    r = run("verify", "--json", *args, timeout=60)
    lines = r.text.splitlines()
    return r, [json.loads(line) for line in lines]


def codes(rep):
    return [p["code"] for p in rep["errors"]] + [p["code"] for p in rep["warnings"]]


class Corpus(ZanjTest):
    def test_valid_archives_have_no_problems(self):
        for a in archives():
            r, [rep] = report(corpus(a))
            self.assertEqual(r.code, 0, f"{a}: {rep['errors']}")
            self.assertTrue(rep["ok"])
            self.assertEqual(rep["errors"], [], a)
            self.assertEqual(rep["warnings"], [], a)
            self.assertEqual(rep["file"], corpus(a))

    def test_checked_counts_match_facts(self):
        for a in archives():
            f = facts(a)
            _, [rep] = report(corpus(a))
            c = rep["checked"]
            self.assertEqual(c["members"], len(f["members"]), a)
            self.assertEqual(c["members_read"], len(f["members"]), a)  # every member inflated once
            self.assertEqual(c["bytes_read"], sum(m["size"] for m in f["members"]), a)
            externals = [x for x in f["arrays"] if x["storage"] == "external"]
            self.assertEqual(c["npy_members"], len(externals), a)
            self.assertEqual(c["inline_arrays"], len(f["arrays"]) - len(externals), a)
            jsonl = [m for m in f["members"] if m["name"].endswith(".jsonl")]
            self.assertEqual(c["jsonl_members"], len(jsonl), a)

    def test_meta_references_count(self):
        # tuple_list.zanj has three $ref nodes in the meta that externals_info does not list
        _, [rep] = report(corpus("tuple_list.zanj"))
        self.assertEqual(rep["checked"]["references"], 6)
        with zipfile.ZipFile(corpus("tuple_list.zanj")) as z:
            lines = sum(z.read(n).count(b"\n") for n in z.namelist() if n.endswith(".jsonl"))
        self.assertEqual(rep["checked"]["jsonl_rows"], lines)

    def test_malformed_corpus(self):
        for path in malformed():
            name = os.path.basename(path)
            r, [rep] = report(path)
            self.assertEqual(r.code, 1, name)
            self.assertFalse(rep["ok"])
            self.assertIn(CORPUS_MALFORMED[name], codes(rep), f"{name}: {rep['errors']}")
            for p in rep["errors"]:
                self.assertTrue(p["message"], name)


class Generated(ZanjTest):
    def test_each_case_reports_its_code(self):
        for case, path in suite():
            with self.subTest(case.name):
                r, reps = report(*case.args, path)
                self.assertEqual(r.code, case.want_exit, f"{case.name}: {r.text} {r.err}")
                self.assertEqual(len(reps), 1)
                if case.code:
                    self.assertIn(case.code, codes(reps[0]), case.name)
                if case.want_exit == 0 and not case.code:
                    self.assertEqual(codes(reps[0]), [], case.name)

    def test_codes_are_documented(self):
        """Every code the suite meets is in zanj-verify(1)'s PROBLEM CODES (the page the binary
        writes; a unit test checks that list against problem_codes())."""
        with tempfile.TemporaryDirectory() as pages:
            run("--generate", "man", pages)
            text = subprocess.run(["groff", "-man", "-Tascii", "-P-c", "-P-b", "-P-u", "-rHY=0",
                                   os.path.join(pages, "zanj-verify.1")], capture_output=True, check=True).stdout
        codes_section = text.decode("ascii").split("PROBLEM CODES")[-1]
        documented = set(re.findall(r"^\s+([a-z0-9_]+)$", codes_section, re.M))
        self.assertGreater(len(documented), 30)
        seen = set()
        for case, path in suite():
            _, [rep] = report(*case.args, path)
            seen.update(codes(rep))
        self.assertTrue(seen, "no codes seen")
        self.assertEqual(seen - documented, set())

    def test_zip_bomb_is_quick(self):
        path = dict((c.name, p) for c, p in suite())["zip_bomb_overlap"]
        start = time.monotonic()
        r, [rep] = report(path)
        self.assertEqual(r.code, 1)
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(rep["checked"]["bytes_read"], 0)  # nothing of it was inflated

    def test_every_command_survives_every_archive(self):
        have = registered_commands()
        self.assertTrue({"info", "ls", "verify"} <= have, have)
        for case, path in suite():
            runs = [["info", path], ["info", "--json", path], ["ls", path], ["ls", "--members", path],
                    ["verify", path], ["verify", "--json", path]]
            # cat and extract are registered by their own branches; run them once they exist.
            if "cat" in have:
                runs += [["cat", "--resolve", "--format", "json", path], ["cat", "--format", "raw", path, "arr"]]
            for args in runs:
                with self.subTest(case=case.name, args=args[:-1]):
                    r = run(*args, timeout=60)
                    self.assertNotCrashed(r)
                    self.assertIn(r.code, (0, 1), f"{args}: {r.err}")
                    if r.code == 1 and args[0] != "verify":
                        self.assertTrue(r.err.startswith("zanj: error: "), r.err)
            if "extract" in have:
                with tempfile.TemporaryDirectory() as tmp:
                    dest = os.path.join(tmp, "out")
                    r = run("extract", path, "-C", dest, timeout=60)
                    self.assertNotCrashed(r)
                    self.assertIn(r.code, (0, 1), r.err)
                    self.assertEqual(sorted(os.listdir(tmp)), ["out"] if os.path.exists(dest) else [])


class Output(ZanjTest):
    def test_text_lines(self):
        r = run("verify", corpus("basic.zanj"), corpus("malformed", "bad_crc.zanj"))
        self.assertEqual(r.code, 1)
        lines = r.text.splitlines()
        self.assertEqual(lines[0], corpus("basic.zanj") + ": ok")
        self.assertEqual(lines[1], corpus("malformed", "bad_crc.zanj") + ": INVALID (1 error)")
        self.assertRegex(lines[2], r"^  error \[crc_mismatch\] big_array\.npy: .*CRC-32")

    def test_repeated_codes_are_grouped(self):
        """Seven arrays whose .npy headers disagree with their nodes: one npy_mismatch entry with
        its count, unless -v; --json keeps all seven and counts them."""
        with tempfile.TemporaryDirectory() as tmp:
            names = ["w%d" % i for i in range(7)]
            root = {n: external_array(f"sd/{n}.npy", "float32", [2]) for n in names}
            members = {f"sd/{n}.npy": npy_bytes("<f8", (2,), b"\x00" * 16) for n in names}
            members["sd/w0.npy"] = b"\x00" * 5 + members["sd/w0.npy"]  # and one other problem
            path = write_reference_zanj(os.path.join(tmp, "many.zanj"), root, members)
            r = run("verify", path, env={"LC_ALL": "C.UTF-8"})
            self.assertEqual(r.code, 1, r.err)
            grouped = [l for l in r.text.splitlines() if "[npy_mismatch]" in l]
            self.assertEqual(len(grouped), 1, r.text)
            self.assertRegex(grouped[0], r"^  error \[npy_mismatch\] \u00d76: sd/w1\.npy, sd/w2\.npy, sd/w3\.npy, "
                                         r"\u2026 \(-v lists all\)$")
            following = r.text.splitlines()[r.text.splitlines().index(grouped[0]) + 1]
            self.assertRegex(following, r"^    sd/w1\.npy \(at w1\): ")
            ascii_text = run("verify", path, env={"LC_ALL": "C"}).text
            self.assertIn("[npy_mismatch] x6: sd/w1.npy, sd/w2.npy, sd/w3.npy, ... (-v lists all)", ascii_text)
            verbose = run("verify", "-v", path).text
            self.assertEqual(sum("[npy_mismatch]" in l for l in verbose.splitlines()), 6, verbose)
            _, [rep] = report(path)
            self.assertEqual(sum(p["code"] == "npy_mismatch" for p in rep["errors"]), 6)
            self.assertEqual(rep["counts"]["npy_mismatch"], 6)

    def test_quiet_prints_nothing(self):
        r = run("verify", "-q", corpus("malformed", "bad_crc.zanj"))
        self.assertEqual((r.code, r.out, r.err), (1, b"", ""))
        self.assertEqual(run("verify", "-q", corpus("basic.zanj")).code, 0)

    def test_json_one_report_per_file(self):
        r, reps = report(corpus("basic.zanj"), corpus("malformed", "truncated.zanj"))
        self.assertEqual(r.code, 1)
        self.assertEqual([x["ok"] for x in reps], [True, False])
        self.assertEqual(set(reps[1]), {"file", "ok", "strict", "errors", "warnings", "counts", "checked"})
        self.assertEqual(sum(reps[1]["counts"].values()), len(reps[1]["errors"]) + len(reps[1]["warnings"]))
        self.assertEqual([x["strict"] for x in reps], [False, False])
        self.assertEqual(set(reps[1]["errors"][0]), {"code", "member", "path", "message"})

    def test_unreadable_path_is_2(self):
        self.assertFails(run("verify", corpus("basic.zanj"), "/nonexistent/x.zanj"), 2,
                         "/nonexistent/x.zanj: No such file or directory")
        with tempfile.TemporaryDirectory() as d:
            self.assertFails(run("verify", d), 2)

    def test_standard_input(self):
        with open(corpus("basic.zanj"), "rb") as f:
            data = f.read()
        r = run("verify", "-", stdin=data)
        self.assertEqual((r.code, r.text), (0, "<stdin>: ok\n"))
        r = run("verify", "-", stdin=data[: len(data) // 2])
        self.assertEqual(r.code, 1)
        self.assertIn("[no_eocd]", r.text)

    def test_strict(self):
        path = dict((c.name, p) for c, p in suite())["warn_trailing_data"]
        self.assertEqual(run("verify", path).code, 0)
        r, [rep] = report("--strict", path)
        self.assertEqual(r.code, 1)
        self.assertFalse(rep["ok"])

    def test_limits_flags(self):
        self.assertEqual(run("verify", "--max-entries", "0", corpus("basic.zanj")).code, 2)  # usage
        _, [rep] = report("--max-json-depth", "2", corpus("basic.zanj"))
        self.assertIn("json_too_deep", codes(rep))
        self.assertEqual(run("verify", "-j", "1", corpus("dtypes.zanj")).code, 0)

    def test_help_teaches(self):
        text = self.assertOk(run("verify", "--help")).text
        for needle in ("Examples:", "Exit status", "--json", "--max-total-bytes", "crc_mismatch", "PROBLEM CODES"):
            self.assertIn(needle, " ".join(text.split()))  # as words, wherever lines wrap


def tearDownModule():
    if _suite_dir:
        shutil.rmtree(_suite_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
