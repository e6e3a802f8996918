"""Shared helpers for the end-to-end tests: run the built zanj binary on corpus archives.

ctest sets ZANJ (the binary), ZANJ_CORPUS (tests/corpus) and ZANJ_SOURCE_DIR.
"""
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
import unittest

ZANJ = os.environ.get("ZANJ", "")
CORPUS = os.environ.get("ZANJ_CORPUS", os.path.join(os.path.dirname(__file__), "..", "corpus"))
SOURCE_DIR = os.environ.get("ZANJ_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def corpus(*parts):
    return os.path.join(CORPUS, *parts)


def archives():
    return sorted(f for f in os.listdir(CORPUS) if f.endswith(".zanj"))


def malformed():
    d = corpus("malformed")
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".zanj"))


def facts(name):
    with open(corpus(name[: -len(".zanj")] + ".facts.json")) as f:
        return json.load(f)


def obj_path(segments):
    return "/".join(str(s).replace("~", "~0").replace("/", "~1") for s in segments)


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    @property
    def text(self):
        return self.out.decode("utf-8")

    def json(self):
        return json.loads(self.out.decode("utf-8"))


def run(*args, stdin=None, timeout=120, cwd=None, env=None):
    """stdin: bytes fed through a pipe, an open file (redirected as is), or None (/dev/null).
    env: variables to add to (or, with value None, remove from) the environment."""
    feed = stdin if isinstance(stdin, (bytes, str)) else None
    source = subprocess.DEVNULL if stdin is None else (None if feed is not None else stdin)
    p = subprocess.run([ZANJ, *args], capture_output=True, timeout=timeout, cwd=cwd,
                       stdin=source, input=feed, env=environment(env))
    return Result(p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"))


def environment(changes):
    if not changes:
        return None
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(text):
    return ANSI_ESCAPE.sub("", text)


def run_on_terminal(*args, streams=("stdout",), env=None, timeout=60):
    """Run zanj with the named standard streams ("stdin", "stdout", "stderr") on one
    pseudo-terminal; the others are /dev/null (stdin) or pipes. -> Result where a stream on
    the terminal reads as everything the terminal received (line ends as "\\n")."""
    master, slave = pty.openpty()
    pick = lambda name, other: slave if name in streams else other
    p = subprocess.Popen([ZANJ, *args], stdin=pick("stdin", subprocess.DEVNULL),
                         stdout=pick("stdout", subprocess.PIPE), stderr=pick("stderr", subprocess.PIPE),
                         env=environment(env))
    os.close(slave)
    shown, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not select.select([master], [], [], 0.1)[0]:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process has gone and the terminal with it
            break
        if not chunk:
            break
        shown += chunk
    else:
        p.kill()
    os.close(master)
    out, err = p.communicate(timeout=timeout)
    terminal = shown.replace(b"\r\n", b"\n")
    stdout = terminal if "stdout" in streams else out
    stderr = terminal if "stderr" in streams else err
    return Result(p.returncode, stdout, stderr.decode("utf-8", "replace"))


def run_into_closed_pipe(*args, ignore_sigpipe=False, timeout=120):
    """Run zanj with stdout on a pipe whose reader has already gone, as in `zanj ... | head`
    once head has exited. With ignore_sigpipe, zanj inherits SIGPIPE ignored (as Python
    itself has it), so writes fail with EPIPE instead. -> Result (returncode -13 when killed
    by SIGPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        p = subprocess.run([ZANJ, *args], stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                           timeout=timeout, restore_signals=not ignore_sigpipe)
    finally:
        os.close(write_end)
    return Result(p.returncode, b"", p.stderr.decode("utf-8", "replace"))


class ZanjTest(unittest.TestCase):
    def assertOk(self, r):
        self.assertEqual(r.code, 0, f"exit {r.code}, stderr: {r.err}")
        return r

    def assertFails(self, r, code=1, message=None):
        self.assertEqual(r.code, code, f"exit {r.code}, stdout: {r.out[:300]!r} stderr: {r.err}")
        self.assertTrue(r.err.startswith("zanj: error: "), f"stderr: {r.err!r}")
        self.assertEqual(len(r.err.strip().splitlines()), 1, f"one line wanted: {r.err!r}")
        if message:
            self.assertIn(message, r.err)
        return r

    def assertNotCrashed(self, r):
        # a signal shows as a negative code; sanitizers exit 1 with a report on stderr
        self.assertGreaterEqual(r.code, 0, r.err)
        self.assertNotIn("Sanitizer", r.err)
        self.assertNotIn("runtime error", r.err)


def main():
    if not ZANJ or not os.path.exists(ZANJ):
        print("ZANJ must name the built zanj binary", file=sys.stderr)
        sys.exit(2)
    unittest.main(verbosity=1)
