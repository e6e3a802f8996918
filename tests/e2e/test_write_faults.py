"""End-to-end: faults while `pack` and `extract` write. Under each (a file size limit, a full
tiny filesystem, a read-only target, SIGINT and SIGTERM at random points, two packs to one
path), the target is either the old file untouched or the complete new one, no temporary file
is left, the message says what happened, and the exit status is the documented one (pack 2,
extract 1)."""
import os
import random
import resource
import shutil
import subprocess
import tempfile
import time
import zipfile

from common import ZANJ, ZanjTest, files_below, main, npy_bytes, run

OLD = b"the previous archive, which must survive"


def write_npz(path, arrays):
    """arrays: {key: (descr, shape, bytes)}, stored, as numpy.savez writes them."""
    with zipfile.ZipFile(path, "w") as z:
        for key, (descr, shape, data) in arrays.items():
            z.writestr(key + ".npy", npy_bytes(descr, shape, data))
    return path


def noise(n, seed):
    return random.Random(seed).randbytes(n)


def leftovers(directory):
    return [f for f in files_below(directory) if ".zanj-tmp-" in f]


def pack_members(archive):
    with zipfile.ZipFile(archive) as z:
        assert z.testzip() is None
        return {i.filename: z.read(i) for i in z.infolist() if not i.filename.endswith(".json")}


def user_namespaces():
    try:
        return subprocess.run(["unshare", "-Urm", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def in_tiny_filesystem(directory, size, script, *args):
    """Run a shell script with a fresh tmpfs of `size` mounted on `directory` (in a private
    mount namespace: nothing outside sees it). -> its stdout, stderr and status."""
    p = subprocess.run(["unshare", "-Urm", "sh", "-c",
                        'mount -t tmpfs -o size="$1" zanj-test "$2" || exit 99; shift 2; ' + script,
                        "sh", str(size), directory, *args], capture_output=True, timeout=120)
    if p.returncode == 99:
        raise unittest_skip("cannot mount a tmpfs in a user namespace: " + p.stderr.decode(errors="replace"))
    return p


def unittest_skip(reason):
    import unittest
    return unittest.SkipTest(reason)


class Faults(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.small_npz = write_npz(os.path.join(cls.tmp, "small.npz"),
                                  {"a": ("<f4", (64, 64), noise(16384, 1)), "b": ("<i8", (500,), noise(4000, 2))})
        cls.big_npz = write_npz(os.path.join(cls.tmp, "big.npz"),
                                {"w": ("<f4", (1 << 20,), noise(4 << 20, 3)), "v": ("|u1", (1 << 20,), noise(1 << 20, 4))})
        cls.big_zanj = os.path.join(cls.tmp, "big.zanj")
        subprocess.run([ZANJ, "pack", cls.big_npz, "-o", cls.big_zanj], check=True)
        with zipfile.ZipFile(cls.big_zanj) as z:
            cls.big_members = {i.filename: z.read(i) for i in z.infolist()}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def fresh(self, name):
        d = os.path.join(self.tmp, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        return d

    def assert_old(self, path):
        with open(path, "rb") as f:
            self.assertEqual(f.read(), OLD)

    def assert_complete_members(self, dest):
        """Every file below dest is a whole member; no temporary file."""
        self.assertEqual(leftovers(dest), [])
        for rel in files_below(dest):
            full = os.path.join(dest, rel)
            if os.path.isfile(full):
                with open(full, "rb") as f:
                    self.assertEqual(f.read(), self.big_members[rel], rel)

    # ---- a file size limit (RLIMIT_FSIZE), SIGXFSZ left at its default: zanj must survive it

    def limited(self, *args, limit):
        def apply():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        p = subprocess.run([ZANJ, *args], capture_output=True, preexec_fn=apply, timeout=60)
        return p.returncode, p.stderr.decode(errors="replace")

    def test_file_size_limit_during_pack(self):
        d = self.fresh("fsize-pack")
        out = os.path.join(d, "out.zanj")
        with open(out, "wb") as f:
            f.write(OLD)
        code, err = self.limited("pack", self.big_npz, "-o", out, "--force", limit=1 << 20)
        self.assertEqual(code, 2, err)
        self.assertEqual(err, f"zanj: error: {out}: cannot write: File too large\n")
        self.assert_old(out)
        self.assertEqual(leftovers(d), [])

    def test_file_size_limit_during_extract(self):
        dest = self.fresh("fsize-extract")
        code, err = self.limited("extract", self.big_zanj, "-C", dest, limit=2 << 20)
        self.assertEqual(code, 1, err)
        self.assertIn("'w.npy' not extracted: w.npy: File too large", err)
        self.assertNotIn("w.npy", files_below(dest))
        self.assertIn("v.npy", files_below(dest))
        self.assert_complete_members(dest)

    # ---- a full disk: a tiny tmpfs in a private mount namespace

    def test_full_disk_during_pack_and_extract(self):
        if not user_namespaces():
            self.skipTest("no user namespaces here: the full disk is covered by RLIMIT_FSIZE only")
        d = self.fresh("tiny")
        p = in_tiny_filesystem(d, 2 << 20, r'''
            cd "$1"; printf '%s' "$4" > out.zanj
            "$2" pack "$3" -o out.zanj --force 2>pack.err; echo "pack=$?"
            cat out.zanj; echo; cat pack.err; ls -a
            rm -f pack.err; "$2" extract "$5" -C x 2>&1; echo "extract=$?"
            ls -a x; cksum x/* 2>/dev/null''', d, os.path.abspath(ZANJ), self.big_npz, OLD.decode(), self.big_zanj)
        text = p.stdout.decode(errors="replace")
        self.assertIn("pack=2", text)
        self.assertIn(OLD.decode(), text)
        self.assertIn("zanj: error: out.zanj: cannot write: No space left on device", text)
        self.assertNotIn("zanj-tmp", text)
        self.assertIn("extract=1", text)
        self.assertIn("not extracted: w.npy: No space left on device", text)
        # What extract did write is whole: compare checksums with the members'.
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2].startswith("x/"):
                member = self.big_members[parts[2][2:]]
                self.assertEqual(int(parts[1]), len(member), parts[2])

    # ---- a read-only target

    def test_read_only_target(self):
        d = self.fresh("readonly")
        out = os.path.join(d, "out.zanj")
        with open(out, "wb") as f:
            f.write(OLD)
        if os.geteuid() == 0:
            if not user_namespaces():
                self.skipTest("root without user namespaces: cannot make a directory read-only")
            p = in_tiny_filesystem(d, 1 << 20, r'''
                cd "$1"; printf '%s' "$4" > out.zanj; mkdir x; cd /; mount -o remount,ro "$1"
                "$2" pack "$3" -o "$1/out.zanj" --force; echo "pack=$?"; cat "$1/out.zanj"; echo
                "$2" extract "$5" -C "$1/x"; echo "extract=$?"; ls -a "$1" "$1/x"''',
                                   d, os.path.abspath(ZANJ), self.small_npz, OLD.decode(), self.big_zanj)
            text = p.stdout.decode() + p.stderr.decode()
        else:
            os.makedirs(os.path.join(d, "x"))
            os.chmod(os.path.join(d, "x"), 0o555)
            os.chmod(d, 0o555)
            try:
                r1 = run("pack", self.small_npz, "-o", out, "--force")
                r2 = run("extract", self.big_zanj, "-C", os.path.join(d, "x"))
            finally:
                os.chmod(d, 0o755)
                os.chmod(os.path.join(d, "x"), 0o755)
            text = f"pack={r1.code}\n{r1.err}extract={r2.code}\n{r2.err}" + OLD.decode()
        self.assertIn("pack=2", text)
        self.assertIn("extract=1", text)
        self.assertIn("Read-only file system" if os.geteuid() == 0 else "Permission denied", text)
        self.assertIn(OLD.decode(), text)
        self.assertNotIn("zanj-tmp", text)

    # ---- interrupts at random points, repeated

    def interrupted(self, args, cwd_check, signals, seed, runs=20):
        """Start zanj `runs` times, each time sending a signal after a random delay up to the
        uninterrupted run time; `cwd_check(returncode)` checks the state after each."""
        start = time.monotonic()
        subprocess.run([ZANJ, *args], check=True, capture_output=True)
        full = time.monotonic() - start
        rng = random.Random(seed)
        outcomes = set()
        for i in range(runs):
            sig = signals[i % len(signals)]
            p = subprocess.Popen([ZANJ, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(rng.uniform(0, full * 1.1))
            p.send_signal(sig)
            p.wait(timeout=60)
            err = p.stderr.read().decode(errors="replace")
            p.stderr.close()
            self.assertIn(p.returncode, (0, -sig), err)
            outcomes.add(p.returncode)
            cwd_check(p.returncode)
        return outcomes

    def test_signals_at_random_points_of_pack(self):
        import signal
        d = self.fresh("signal-pack")
        out = os.path.join(d, "out.zanj")
        want = pack_members(self.big_zanj)

        def check(code):
            self.assertEqual(leftovers(d), [])
            with open(out, "rb") as f:
                head = f.read(len(OLD))
            if code == 0 or head != OLD:
                self.assertEqual(pack_members(out), want)
            else:
                self.assert_old(out)
            with open(out, "wb") as f:  # the next run starts from the old file again
                f.write(OLD)

        with open(out, "wb") as f:
            f.write(OLD)
        outcomes = self.interrupted(["pack", self.big_npz, "-o", out, "--force"], check, (signal.SIGINT, signal.SIGTERM), 20)
        self.assertTrue(any(code < 0 for code in outcomes), "no run was interrupted")

    def test_signals_at_random_points_of_extract_then_force_completes(self):
        import signal
        dest = self.fresh("signal-extract")

        def check(code):
            self.assert_complete_members(dest)

        args = ["extract", "--force", self.big_zanj, "-C", dest]
        outcomes = self.interrupted(args, check, (signal.SIGTERM, signal.SIGINT), 21)
        self.assertTrue(any(code < 0 for code in outcomes), "no run was interrupted")
        self.assertOk(run(*args))
        self.assert_complete_members(dest)
        self.assertEqual(sorted(f for f in files_below(dest)), sorted(self.big_members))

    # ---- two packs to one path at once

    def test_concurrent_packs_to_one_path(self):
        d = self.fresh("concurrent")
        out = os.path.join(d, "out.zanj")
        want = [pack_members(self.big_zanj)]
        small = os.path.join(self.tmp, "small.zanj")
        subprocess.run([ZANJ, "pack", self.small_npz, "-o", small], check=True)
        want.append(pack_members(small))
        for _ in range(3):
            ps = [subprocess.Popen([ZANJ, "pack", npz, "-o", out, "--force"], stderr=subprocess.PIPE)
                  for npz in (self.big_npz, self.small_npz)]
            for p in ps:
                p.wait(timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr.read())
                p.stderr.close()
            self.assertIn(pack_members(out), want)
            self.assertOk(run("verify", out))
            self.assertEqual(leftovers(d), [])


if __name__ == "__main__":
    main()
