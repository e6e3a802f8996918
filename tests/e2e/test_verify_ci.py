"""End-to-end: verify's CI outputs. `--junit FILE` writes JUnit XML that parses, with one test
case per archive (valid, invalid, missing) and each problem a named failure; GitHub Actions
annotations appear on stdout under GITHUB_ACTIONS=true only; the pre-commit hook is declared."""
import os
import re
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET

from common import SOURCE_DIR, ZanjTest, corpus, main, run

VALID = corpus("basic.zanj")
INVALID = corpus("malformed", "bad_crc.zanj")
DANGLING = corpus("malformed", "missing_external.zanj")
NO_GITHUB = {"GITHUB_ACTIONS": None}


class VerifyJunit(ZanjTest):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="zanj_junit_")
        self.xml = os.path.join(self.dir, "report.xml")
        self.missing = os.path.join(self.dir, "missing.zanj")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def cases(self):
        root = ET.parse(self.xml).getroot()
        self.assertEqual(root.tag, "testsuites")
        suites = root.findall("testsuite")
        self.assertEqual(len(suites), 1)
        return root, {case.get("name"): case for case in suites[0].findall("testcase")}

    def test_valid_invalid_and_missing_archives(self):
        # A FILE missing at the start stops the run before any work (exit 2, as before).
        self.assertEqual(run("verify", "--junit", self.xml, VALID, self.missing, env=NO_GITHUB).code, 2)
        r = run("verify", "--junit", self.xml, VALID, INVALID, DANGLING, env=NO_GITHUB)
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("bad_crc.zanj: INVALID", r.text)  # the text report as before
        root, cases = self.cases()
        self.assertEqual(sorted(cases), sorted([VALID, INVALID, DANGLING]))
        self.assertEqual(root.get("tests"), "3")
        self.assertEqual(root.get("failures"), "2")
        self.assertEqual(root.get("errors"), "0")
        self.assertEqual(list(cases[VALID]), [])  # a passing case has no children
        self.assertEqual(cases[VALID].get("classname"), "zanj.verify")
        failures = cases[INVALID].findall("failure")
        self.assertTrue(failures)
        self.assertIn("crc_mismatch", [f.get("type") for f in failures])
        crc = next(f for f in failures if f.get("type") == "crc_mismatch")
        self.assertTrue(crc.get("message").startswith("[crc_mismatch] "), crc.get("message"))
        self.assertIn("member: ", crc.text)
        self.assertIn("dangling_ref", [f.get("type") for f in cases[DANGLING].findall("failure")])

    def test_one_failure_per_problem_as_json_lists_them(self):
        r = run("verify", "--json", "--junit", self.xml, INVALID, env=NO_GITHUB)
        self.assertEqual(r.code, 1, r.err)
        codes = [p["code"] for p in r.json()["errors"]]
        _, cases = self.cases()
        self.assertEqual([f.get("type") for f in cases[INVALID].findall("failure")], codes)

    def test_warnings_fail_only_with_strict(self):
        src = corpus("basic.zanj")
        warned = os.path.join(self.dir, "extra.zanj")
        import zipfile
        shutil.copy(src, warned)
        with zipfile.ZipFile(warned, "a") as z:
            z.writestr("notes.txt", "nobody refers to me")
        r = run("verify", "--junit", self.xml, warned, env=NO_GITHUB)
        self.assertEqual(r.code, 0, r.err)
        root, cases = self.cases()
        self.assertEqual(root.get("failures"), "0")
        self.assertEqual(cases[warned].findall("failure"), [])
        self.assertIn("unreferenced_member", cases[warned].find("system-out").text)
        r = run("verify", "--strict", "--junit", self.xml, warned, env=NO_GITHUB)
        self.assertEqual(r.code, 1, r.err)
        _, cases = self.cases()
        self.assertEqual([f.get("type") for f in cases[warned].findall("failure")], ["unreferenced_member"])

    def test_unwritable_report_is_a_usage_error(self):
        r = run("verify", "--junit", os.path.join(self.dir, "no", "such", "dir.xml"), VALID, env=NO_GITHUB)
        self.assertFails(r, 2, "JUnit")

    def test_quiet_still_writes_the_report(self):
        r = run("verify", "-q", "--junit", self.xml, INVALID, env={"GITHUB_ACTIONS": "true"})
        self.assertEqual(r.code, 1)
        self.assertEqual(r.out, b"")
        _, cases = self.cases()
        self.assertTrue(cases[INVALID].findall("failure"))


ANNOTATION = re.compile(r"^::(error|warning)( [^:]*)?::(.*)$")


class GithubAnnotations(ZanjTest):
    def test_annotations_only_under_github_actions(self):
        plain = run("verify", INVALID, env=NO_GITHUB)
        self.assertNotIn("::error", plain.text)
        other = run("verify", INVALID, env={"GITHUB_ACTIONS": "false"})
        self.assertNotIn("::error", other.text)
        r = run("verify", INVALID, VALID, env={"GITHUB_ACTIONS": "true"})
        self.assertEqual(r.code, 1)
        lines = [l for l in r.text.splitlines() if l.startswith("::")]
        self.assertTrue(lines)
        for line in lines:
            m = ANNOTATION.match(line)
            self.assertTrue(m, line)
            self.assertIn("file=" + INVALID.replace(":", "%3A").replace(",", "%2C"), m.group(2))
            self.assertIn("title=zanj verify [", m.group(2))
        self.assertTrue(any("[crc_mismatch]" in l for l in lines))
        # the text report is unchanged around them
        self.assertIn("bad_crc.zanj: INVALID", r.text)
        self.assertIn("basic.zanj: ok", r.text)

    def test_missing_file_and_json(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "gone.zanj")
            r = run("verify", missing, env={"GITHUB_ACTIONS": "true"})
            self.assertEqual(r.code, 2)  # refused before any work, on stderr
            self.assertIn("No such file", r.err)
        r = run("verify", "--json", INVALID, env={"GITHUB_ACTIONS": "true"})
        self.assertNotIn("::error", r.text)  # --json's lines own stdout
        r.json()


class PreCommitHook(unittest.TestCase):
    def test_hook_declared_for_zanj_files(self):
        with open(os.path.join(SOURCE_DIR, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
            text = f.read()
        self.assertRegex(text, r"(?m)^- id: zanj-verify$")
        self.assertRegex(text, r"(?m)^  entry: zanj verify$")
        files = re.search(r"(?m)^  files: (.*)$", text).group(1)
        self.assertTrue(re.search(files, "models/a.zanj"))
        self.assertFalse(re.search(files, "models/a.zanj.txt"))


if __name__ == "__main__":
    main()
