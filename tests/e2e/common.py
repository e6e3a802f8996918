"""Shared helpers for the end-to-end tests: run the built zanj binary on corpus archives.

ctest sets ZANJ (the binary), ZANJ_CORPUS (tests/corpus) and ZANJ_SOURCE_DIR.
"""
import json
import os
import subprocess
import sys
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


def run(*args, stdin=None, timeout=120, cwd=None):
    p = subprocess.run([ZANJ, *args], capture_output=True, timeout=timeout, cwd=cwd,
                       stdin=subprocess.DEVNULL if stdin is None else None, input=stdin)
    return Result(p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"))


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
