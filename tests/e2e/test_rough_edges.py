"""End-to-end: the rough edges of issue 30, each fixed. Typos get the near name (commands,
options, object paths) and point to the command's own help; a malformed slice is a usage
error; CSV leaves missing values empty; cat prints every value into a pipe (--summary
abbreviates); help has no CLI11 leftovers; info labels member times as local; the man pages'
REMOTE ARCHIVES paragraphs render; report never fills a terminal; hash --check's help."""
import os
import pty
import re
import shutil
import subprocess
import tempfile
import unittest

from common import SOURCE_DIR, ZANJ, Result, ZanjTest, corpus, main, run

BASIC = corpus("basic.zanj")
MODEL = corpus("model.zanj")


def run_in_terminal(*args, cwd):
    """zanj with stdout on a pseudo-terminal, in `cwd`: -> Result (stdout: what the terminal got)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([ZANJ, *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE, cwd=cwd)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    _, err = p.communicate(timeout=120)
    return Result(p.returncode, shown, err.decode("utf-8", "replace"))


class Suggestions(ZanjTest):
    def test_mistyped_command(self):
        r = run("lss", BASIC)
        self.assertEqual(r.code, 2)
        self.assertIn("'lss' is not a zanj command; did you mean 'ls'?", r.err)
        self.assertIn("Run 'zanj --help' for usage.", r.err)
        self.assertIn("did you mean 'verify'?", run("-q", "verfy", BASIC).err)
        self.assertNotIn("did you mean", run("frobnicate", BASIC).err)

    def test_mistyped_option_points_to_the_commands_help(self):
        for command, typo, near in [("ls", "--jsn", "--json"), ("cat", "--resolv", "--resolve"),
                                    ("verify", "--strikt", "--strict"), ("info", "--handler", "--handlers"),
                                    ("stats", "--hits", "--hist"), ("diff", "--atoll", "--atol")]:
            with self.subTest(command=command):
                args = [command, typo, BASIC] + ([BASIC] if command == "diff" else [])
                r = run(*args)
                self.assertEqual(r.code, 2, r.err)
                self.assertIn(f"did you mean '{near}'?", r.err)
                self.assertIn(f"Run 'zanj {command} --help' for usage.", r.err)

    def test_mistyped_option_that_takes_the_next_word_as_file(self):
        # "--kindd array FILE": the typo is not an option, so "array" lands in FILE's place. The
        # typo is the mistake to report, not "array: No such file or directory".
        for args in (["ls", "--kindd", "array", BASIC], ["stats", "--hits", "10", BASIC]):
            with self.subTest(command=args[0]):
                r = run(*args)
                self.assertEqual(r.code, 2, r.err)
                self.assertIn(f"not expected: {args[1]}; did you mean", r.err)
                self.assertNotIn("No such file", r.err)

    def test_near_object_paths_from_every_command(self):
        for args in (["ls", BASIC, "nested/deepr"], ["stats", BASIC, "nested/deepr"], ["cat", BASIC, "nested/deepr"]):
            with self.subTest(command=args[0]):
                r = self.assertFails(run(*args), 1)
                self.assertIn("did you mean 'deeper'?", r.err)
        r = self.assertFails(run("cat", BASIC, "big_aray"), 1)
        self.assertIn("did you mean 'big_array'?", r.err)


class Values(ZanjTest):
    def test_malformed_slice_is_a_usage_error(self):
        self.assertFails(run("cat", BASIC, "big_array[0:2,"), 2)
        self.assertFails(run("cat", BASIC, "no_such[0:2,"), 1)  # a missing path stays one

    def test_csv_missing_values_are_empty(self):
        lines = self.assertOk(run("cat", "-f", "csv", corpus("nan_values.zanj"), "table")).text.splitlines()
        self.assertEqual(lines, ["x,y", "1.0,a", ",", "3.0,c"])

    def test_cat_prints_everything_into_a_pipe(self):
        full = self.assertOk(run("cat", MODEL, "state_dict/net.2.weight")).text
        self.assertNotIn("...", full)
        summary = self.assertOk(run("cat", "--summary", MODEL, "state_dict/net.2.weight")).text
        self.assertIn("...", summary)
        self.assertEqual(run("cat", "--summary", "--full", MODEL, "state_dict/net.2.weight").code, 2)


class HelpAndPages(ZanjTest):
    def test_no_cli11_leftovers(self):
        for command in ("info", "ls", "cat", "verify", "extract", "pack", "diff", "stats", "hash", "report"):
            with self.subTest(command=command):
                text = self.assertOk(run(command, "--help")).text
                self.assertNotRegex(text, r"\(\d+x\)|\{false\}|\{true\}")
        self.assertIn("FILE [NEW]", self.assertOk(run("report", "--help")).text.replace("[OPTIONS] ", ""))

    def test_hash_check_help(self):
        text = self.assertOk(run("hash", "--help")).text
        self.assertNotIn("the deepest ones only", text)
        self.assertIn("a parent whose own keys changed", " ".join(text.split()))

    def test_info_labels_member_times_and_handlers(self):
        text = self.assertOk(run("info", BASIC)).text
        self.assertIn("modified (local)", text)
        self.assertIn("source hidden; --handlers shows it", text)
        shown = self.assertOk(run("info", "--handlers", BASIC)).text
        self.assertNotIn("source hidden", shown)
        self.assertNotIn("members", self.assertOk(run("info", "--no-members", BASIC)).text.split("\n", 1)[1])

    def test_remote_archives_paragraphs_render(self):
        man = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, man)
        self.assertOk(run("--generate", "man", man))
        for page in sorted(os.listdir(man)):
            with open(os.path.join(man, page), encoding="utf-8") as f:
                for line in f:
                    with self.subTest(page=page):
                        self.assertNotRegex(line, r"^\.BR zanj \(1\)\): \S", "alternating fonts run words together")


class ReportOutput(ZanjTest):
    def test_on_a_terminal_writes_stem_html_or_refuses(self):
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(BASIC, d)
            r = run_in_terminal("report", "basic.zanj", cwd=d)
            self.assertEqual(r.code, 0, r.err)
            self.assertEqual(r.out, b"")
            self.assertIn("zanj: wrote basic.html", r.err)
            with open(os.path.join(d, "basic.html"), encoding="utf-8") as f:
                self.assertTrue(f.read().startswith("<!DOCTYPE html>"))
            again = run_in_terminal("report", "basic.zanj", cwd=d)
            self.assertEqual(again.code, 2)
            self.assertIn("basic.html exists", again.err)
            self.assertEqual(again.out, b"")
        piped = self.assertOk(run("report", BASIC))
        self.assertTrue(piped.text.startswith("<!DOCTYPE html>"))  # a pipe still gets the page


if __name__ == "__main__":
    main()
