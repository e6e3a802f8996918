"""End-to-end: terminal manners shared by every command: --color and NO_COLOR, '-' as FILE
(standard input), argument checks on FILE, -v/-q, --progress, and quiet ends when the reader
goes away."""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import zipfile

from common import (ZANJ, ZanjTest, corpus, main, npy_bytes, run, run_into_closed_pipe, run_on_terminal,
                    strip_ansi)

ESC = "\x1b["


def write_archive(path, root, meta='{"externals_info": {}}', members=()):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if meta is not None:
            z.writestr("__zanj_meta__.json", meta)
        z.writestr("__zanj__.json", json.dumps(root))
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_STORED)


class Color(ZanjTest):
    def test_always_colours_human_output_without_changing_it(self):
        for args in (["ls", corpus("basic.zanj")], ["ls", "-l", corpus("dataframe.zanj")],
                     ["info", corpus("basic.zanj")]):
            plain = self.assertOk(run("--color=never", *args)).text
            coloured = self.assertOk(run("--color=always", *args)).text
            self.assertIn(ESC, coloured, args)
            self.assertNotIn(ESC, plain, args)
            # the same text, and the same column alignment, once the escapes are gone
            self.assertEqual(strip_ansi(coloured), plain, args)

    def test_ls_colours_paths_and_kinds(self):
        out = self.assertOk(run("ls", "--color=always", corpus("basic.zanj"))).text
        self.assertIn(ESC + "1mnested/deeper/matrix" + ESC + "0m", out)
        self.assertIn(ESC + "32marray" + ESC + "0m", out)
        self.assertIn(ESC + "35mexternal_list" + ESC + "0m", out)

    def test_machine_output_is_never_coloured(self):
        for args in (["ls", "--json"], ["ls", "-1"], ["ls", "--members", "--json"], ["info", "--json"]):
            r = self.assertOk(run("--color=always", *args, corpus("basic.zanj")))
            self.assertNotIn(ESC, r.text, args)
        self.assertTrue(run("--color=always", "ls", "--json", corpus("basic.zanj")).json()["entries"])

    def test_auto_colours_a_terminal_only(self):
        self.assertNotIn(ESC, self.assertOk(run("ls", corpus("basic.zanj"))).text)  # a pipe
        on_terminal = self.assertOk(run_on_terminal("ls", corpus("basic.zanj"), env={"NO_COLOR": None}))
        self.assertIn(ESC, on_terminal.text)
        self.assertIn("nested/deeper/matrix", strip_ansi(on_terminal.text))

    def test_no_color_turns_auto_off_but_not_always(self):
        self.assertNotIn(ESC, run_on_terminal("ls", corpus("basic.zanj"), env={"NO_COLOR": "1"}).text)
        self.assertIn(ESC, run_on_terminal("ls", corpus("basic.zanj"), env={"NO_COLOR": ""}).text)
        self.assertNotIn(ESC, run_on_terminal("--color=never", "ls", corpus("basic.zanj")).text)
        self.assertIn(ESC, run("--color=always", "ls", corpus("basic.zanj"), env={"NO_COLOR": "1"}).text)

    def test_messages_on_stderr_follow_the_same_rule(self):
        no_meta = corpus("malformed", "no_meta.zanj")
        self.assertNotIn(ESC, run("ls", no_meta).err)
        self.assertIn("zanj: warning:", run("ls", no_meta).err)
        self.assertIn(ESC, run("--color=always", "ls", no_meta).err)
        on_terminal = run_on_terminal("ls", no_meta, streams=("stderr",), env={"NO_COLOR": None})
        self.assertIn(ESC, on_terminal.err)
        self.assertNotIn(ESC, on_terminal.text)  # stdout is still a pipe

    def test_global_options_after_the_command(self):
        self.assertIn(ESC, self.assertOk(run("ls", corpus("basic.zanj"), "--color=always")).text)
        self.assertIn(ESC, self.assertOk(run("info", "--color", "always", corpus("basic.zanj"))).text)

    def test_bad_value_is_a_usage_error(self):
        r = run("--color=sometimes", "ls", corpus("basic.zanj"))
        self.assertEqual(r.code, 2)
        self.assertIn("zanj: error:", r.err)


class StandardInput(ZanjTest):
    def test_pipe_gives_the_same_answers_as_the_file(self):
        for a in ("basic.zanj", "model.zanj", "nan_values.zanj"):
            with open(corpus(a), "rb") as f:
                data = f.read()
            from_file = self.assertOk(run("info", "--json", corpus(a))).json()
            from_pipe = self.assertOk(run("info", "--json", "-", stdin=data)).json()
            self.assertEqual(from_pipe["file"], "-")
            from_file["file"] = "-"
            self.assertEqual(from_pipe, from_file, a)
            subtree = ["state_dict"] if a == "model.zanj" else []
            self.assertEqual(self.assertOk(run("ls", "-", *subtree, stdin=data)).text,
                             self.assertOk(run("ls", corpus(a), *subtree)).text, a)

    def test_redirected_file(self):
        with open(corpus("basic.zanj"), "rb") as f:
            r = self.assertOk(run("ls", "-1", "-", stdin=f))
        self.assertIn("nested/deeper/matrix", r.text.splitlines())
        with open(corpus("basic.zanj"), "rb") as f:
            self.assertIn("<stdin>: ZANJ archive, 5 members", self.assertOk(run("info", "-", stdin=f)).text)

    def test_process_substitution(self):
        # <(...) passes /dev/fd/N, a pipe: spooled like standard input
        p = subprocess.run(["bash", "-c", '"$0" ls -1 <(cat "$1")', ZANJ, corpus("basic.zanj")],
                           capture_output=True, timeout=60)
        self.assertEqual((p.returncode, p.stderr), (0, b""))
        self.assertEqual(p.stdout, run("ls", "-1", corpus("basic.zanj")).out)

    def test_bad_input_is_named_stdin(self):
        self.assertFails(run("info", "-", stdin=b""), 1, "<stdin>: ")
        self.assertFails(run("ls", "-", stdin=b"not a zip file\n" * 100), 1, "<stdin>: ")
        with open(corpus("malformed", "no_main.zanj"), "rb") as f:
            self.assertFails(run("ls", "-", stdin=f.read()), 1, "<stdin>: no __zanj__.json")

    def test_terminal_is_refused_not_waited_on(self):
        r = run_on_terminal("info", "-", streams=("stdin",), timeout=30)
        self.assertFails(r, 2, "standard input is a terminal")

    def test_spool_leaves_nothing_behind(self):
        with tempfile.TemporaryDirectory() as tmp, open(corpus("stored.zanj"), "rb") as f:
            data = f.read()
            self.assertOk(run("info", "-", stdin=data, env={"TMPDIR": tmp}))
            self.assertEqual(os.listdir(tmp), [])
            r = run("info", "-", stdin=data, env={"TMPDIR": os.path.join(tmp, "missing")})
            self.assertFails(r, 2, "cannot create a temporary file in")

    @staticmethod
    def piped_info(path):
        """`cat PATH | zanj -v info --json -` run by a fresh interpreter, so that the peak RSS
        of its children is that of cat and zanj, not of this process forked before exec.
        -> (CompletedProcess, peak RSS in KiB)"""
        measure = ("import resource, subprocess, sys\n"
                   "p = subprocess.run(['bash', '-c', 'cat \"$1\" | \"$0\" -v info --json -', sys.argv[1], "
                   "sys.argv[2]], capture_output=True)\n"
                   "sys.stdout.buffer.write(p.stdout)\n"
                   "sys.stderr.buffer.write(p.stderr)\n"
                   "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
                   "sys.exit(p.returncode)\n")
        p = subprocess.run([sys.executable, "-c", measure, ZANJ, path], capture_output=True, timeout=300)
        return p, int(p.stderr.split()[-1])

    def test_big_input_is_spooled_with_bounded_memory(self):
        # 96 MiB through a pipe: held in memory it would show in zanj's peak RSS, compared
        # with the same run on a tiny archive (sanitizer builds start much higher)
        with tempfile.TemporaryDirectory() as tmp:
            small, big = os.path.join(tmp, "small.zanj"), os.path.join(tmp, "big.zanj")
            write_archive(small, {"x": 1})
            write_archive(big, {"x": 1})
            with zipfile.ZipFile(big, "a") as z, z.open("blob.bin", "w", force_zip64=True) as member:
                for _ in range(96):
                    member.write(bytes(range(256)) * 4096)
            _, baseline_kib = self.piped_info(small)
            p, peak_kib = self.piped_info(big)
            self.assertEqual(p.returncode, 0, p.stderr)
            # -v says how much was spooled: all of it
            self.assertIn(b"read %d bytes from standard input" % os.path.getsize(big), p.stderr)
            with zipfile.ZipFile(big) as z:
                unpacked = sum(i.file_size for i in z.infolist())
            self.assertEqual(json.loads(p.stdout)["uncompressed_bytes"], unpacked)
            self.assertLess(peak_kib - baseline_kib, 16 * 1024, f"peak RSS {peak_kib} KiB, {baseline_kib} KiB on a tiny archive")


class FileArguments(ZanjTest):
    def test_missing_file_is_one_line_exit_2(self):
        for cmd in ("info", "ls"):
            self.assertFails(run(cmd, "/nonexistent/x.zanj"), 2, "zanj: error: /nonexistent/x.zanj: No such file or directory")

    def test_directory_is_one_line_exit_2(self):
        with tempfile.TemporaryDirectory() as d:
            for cmd in ("info", "ls"):
                self.assertFails(run(cmd, d), 2, f"{d}: Is a directory")

    def test_the_other_files_are_still_read(self):
        r = run("info", corpus("basic.zanj"), "/nonexistent/x.zanj")
        self.assertFails(r, 2, "/nonexistent/x.zanj: No such file or directory")
        self.assertIn(b"ZANJ archive", r.out)  # issue 24: one unreadable path stops nothing else

    def test_help_mentions_stdin(self):
        for cmd in ("info", "ls"):
            self.assertIn("standard input", self.assertOk(run(cmd, "--help")).text)


class Verbosity(ZanjTest):
    def test_quiet_silences_warnings(self):
        no_meta = corpus("malformed", "no_meta.zanj")
        loud = self.assertOk(run("ls", no_meta))
        self.assertIn("zanj: warning: " + no_meta + ": no __zanj_meta__.json member", loud.err)
        for args in (["-q", "ls", no_meta], ["ls", no_meta, "--quiet"]):
            quiet = self.assertOk(run(*args))
            self.assertEqual(quiet.err, "", args)
            self.assertEqual(quiet.out, loud.out, args)  # data unchanged

    def test_quiet_keeps_errors(self):
        self.assertFails(run("-q", "ls", corpus("malformed", "no_main.zanj")), 1, "no __zanj__.json")

    def test_verbose_levels(self):
        with open(corpus("basic.zanj"), "rb") as f:
            data = f.read()
        self.assertNotIn("info:", run("info", "-", stdin=data).err)
        r = self.assertOk(run("-v", "info", "-", stdin=data))
        self.assertIn("zanj: info: read %d bytes from standard input" % len(data), r.err)
        self.assertNotIn("debug", r.err)
        r = self.assertOk(run("ls", corpus("basic.zanj"), "-vv"))
        self.assertIn("zanj: debug: " + corpus("basic.zanj") + ": 5 members", r.err)
        self.assertNotIn("debug", r.text)  # messages never reach stdout

    def test_help_documents_them(self):
        text = self.assertOk(run("--help")).text
        for option in ("-v,--verbose", "-q,--quiet", "--color", "--progress"):
            self.assertIn(option, text)


BAR = re.compile(r"\r[^\r\n]*?\x1b\[K")


def without_progress(stderr):
    """stderr with every progress drawing ('\\r' line '\\e[K') and erasure removed"""
    return BAR.sub("", stderr)


def write_big_array(path, count=1 << 20):
    """an archive with 'w', a float32 array of `count` values in w.npy (deflated zeros: small
    on disk, megabytes to inflate and print)"""
    data = npy_bytes("<f4", [count], bytes(4 * count))
    root = {"w": {"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy", "dtype": "float32",
                  "shape": [count], "n_elements": count}}
    meta = json.dumps({"externals_info": {"w.npy": {"item_type": "npy", "path": ["w"],
                                                    "type(data)": "<class 'numpy.ndarray'>", "len(data)": count}}})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("__zanj_meta__.json", meta)
        z.writestr("__zanj__.json", json.dumps(root))
        z.writestr("w.npy", data)


class Progress(ZanjTest):
    """--progress: a bar on stderr for long operations, only where it helps."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.big_array = os.path.join(cls.tmp.name, "big_array.zanj")
        write_big_array(cls.big_array)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_always_draws_into_a_pipe_and_erases_before_the_report(self):
        plain = self.assertOk(run("verify", self.big_array))
        r = self.assertOk(run("--progress=always", "verify", self.big_array))
        self.assertEqual(r.out, plain.out)  # stdout untouched
        self.assertIn("\rverify big_array.zanj", r.err)
        self.assertTrue(r.err.endswith("\r" + ESC + "K"))
        self.assertEqual(without_progress(r.err), "")

    def test_every_long_command_draws(self):
        with tempfile.TemporaryDirectory() as out:
            cases = {"cat": ["cat", "--format", "raw", self.big_array, "w"],
                     "extract": ["extract", "-C", os.path.join(out, "x"), self.big_array],
                     "pack": ["pack", "-o", os.path.join(out, "p.zanj"), os.path.join(out, "x")],
                     "verify": ["verify", self.big_array]}
            for label, args in cases.items():
                r = self.assertOk(run("--progress=always", *args))
                self.assertIn("\r" + label, r.err, label)
                self.assertEqual(without_progress(r.err), "", label)

    def test_never_and_quick_draw_nothing_on_a_terminal(self):
        for args in (["--progress=never", "verify", self.big_array], ["verify", corpus("basic.zanj")],
                     ["-q", "--progress=auto", "verify", self.big_array]):
            r = run_on_terminal(*args, streams=("stdout", "stderr"))
            self.assertEqual(r.code, 0, args)
            self.assertNotIn("\r", r.out.decode(), args)
            self.assertNotIn(ESC + "K", r.out.decode(), args)

    def test_auto_draws_nothing_into_a_pipe(self):
        r = self.assertOk(run("verify", self.big_array))
        self.assertEqual(r.err, "")

    def test_bad_value_is_a_usage_error(self):
        r = run("--progress=sometimes", "verify", self.big_array)
        self.assertEqual(r.code, 2)
        self.assertIn("--progress", r.err)


class ReaderGoesAway(ZanjTest):
    """`zanj ls big.zanj | head -1`: no error message, no crash, whatever SIGPIPE's disposition."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.big = os.path.join(cls.tmp.name, "big.zanj")
        # more listing than a pipe holds (64 KiB), so writing blocks or fails mid-way
        write_archive(cls.big, {f"key_{i:06d}": i for i in range(20000)})
        cls.big_array = os.path.join(cls.tmp.name, "big_array.zanj")
        write_big_array(cls.big_array)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_head_after_ls(self):
        p = subprocess.run(["bash", "-c", f'"$0" ls "$1" | head -1', ZANJ, self.big], capture_output=True,
                           timeout=120)
        self.assertEqual(p.returncode, 0)
        self.assertEqual(p.stdout.decode().split(), ["/", "dict", "20000", "keys"])
        self.assertEqual(p.stderr, b"")

    def test_default_sigpipe_ends_silently(self):
        for args in (["ls", self.big], ["info", self.big], ["ls", "--json", self.big]):
            r = run_into_closed_pipe(*args)
            self.assertIn(r.code, (0, -13), args)  # -13: ended by SIGPIPE, as `cat` would be
            self.assertEqual(r.err, "", args)

    def test_ignored_sigpipe_ends_silently_with_status_0(self):
        for args in (["ls", self.big], ["ls", "-1", self.big], ["info", self.big],
                     ["info", corpus("basic.zanj"), corpus("model.zanj"), self.big]):
            r = run_into_closed_pipe(*args, ignore_sigpipe=True)
            self.assertEqual((r.code, r.err), (0, ""), args)

    def test_head_after_cat_of_a_big_array(self):
        """The issue's own example, `zanj cat big.zanj w | head -1`, in every output form."""
        for extra in ([], ["--full"], ["--format", "csv"], ["--format", "raw"], ["--progress=always", "--full"]):
            p = subprocess.run(["bash", "-c", '"$0" "$@" | head -1', ZANJ, "cat", *extra, self.big_array, "w"],
                               capture_output=True, timeout=120)
            self.assertEqual(p.returncode, 0, extra)
            self.assertTrue(p.stdout, extra)
            self.assertEqual(without_progress(p.stderr.decode()), "", extra)

    def test_progress_bar_is_erased_when_the_reader_goes_away(self):
        # Drawing a bar ignores SIGPIPE, so the end comes through EPIPE: status 0, no message,
        # and whatever was drawn is erased again.
        r = run_into_closed_pipe("--progress=always", "cat", "--full", self.big_array, "w")
        self.assertEqual(r.code, 0)
        self.assertEqual(without_progress(r.err), "")
        if r.err:
            self.assertTrue(r.err.endswith("\r" + ESC + "K"))

    def test_help_into_closed_pipe(self):
        for ignore in (False, True):
            r = run_into_closed_pipe("--help-all", ignore_sigpipe=ignore)
            self.assertIn(r.code, (0, -13))
            self.assertEqual(r.err, "")


if __name__ == "__main__":
    main()
