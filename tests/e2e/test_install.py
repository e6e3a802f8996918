"""End-to-end: `cmake --install BUILD --prefix TMP` puts the binary, every man page and the
three shell completions where their consumers look for them."""
import filecmp
import glob
import os
import shutil
import subprocess
import tempfile

from common import SOURCE_DIR, ZANJ, ZanjTest, main

CMAKE = os.environ.get("CMAKE") or shutil.which("cmake") or "cmake"
BUILD_DIR = os.path.dirname(os.path.abspath(ZANJ))

COMPLETIONS = {
    "completions/zanj.bash": "share/bash-completion/completions/zanj",
    "completions/_zanj": "share/zsh/site-functions/_zanj",
    "completions/zanj.fish": "share/fish/vendor_completions.d/zanj.fish",
}


class Install(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.prefix = os.path.join(cls.tmp.name, "prefix with space")
        cls.result = subprocess.run([CMAKE, "--install", BUILD_DIR, "--prefix", cls.prefix],
                                    capture_output=True, timeout=300)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def installed(self, relative):
        return os.path.join(self.prefix, relative)

    def test_install_succeeds(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr.decode())

    def test_binary_runs_from_the_prefix(self):
        binary = self.installed("bin/zanj")
        self.assertTrue(os.access(binary, os.X_OK), binary)
        p = subprocess.run([binary, "--version"], capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout.decode(), r"^zanj \d+\.\d+\.\d+")

    def test_every_man_page(self):
        sources = sorted(glob.glob(os.path.join(SOURCE_DIR, "man", "*.1")))
        self.assertGreaterEqual(len(sources), 3)
        installed = sorted(os.listdir(self.installed("share/man/man1")))
        self.assertEqual(installed, [os.path.basename(s) for s in sources])
        for source in sources:
            self.assertTrue(filecmp.cmp(source, self.installed("share/man/man1/" + os.path.basename(source)),
                                        shallow=False), source)

    def test_man_finds_the_installed_pages(self):
        if not shutil.which("man"):
            self.skipTest("man is not installed")  # only this check; the files are checked above
        for page in ("zanj", "zanj-info", "zanj-ls"):
            p = subprocess.run(["man", "-M", self.installed("share/man"), "-w", page], capture_output=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.decode().strip(), self.installed(f"share/man/man1/{page}.1"))

    def test_completions(self):
        for source, target in COMPLETIONS.items():
            path = self.installed(target)
            self.assertTrue(os.path.isfile(path), target)
            self.assertTrue(filecmp.cmp(os.path.join(SOURCE_DIR, source), path, shallow=False), target)

    def test_nothing_else(self):
        found = sorted(os.path.relpath(os.path.join(d, f), self.prefix)
                       for d, _, files in os.walk(self.prefix) for f in files)
        man_pages = sorted("share/man/man1/" + os.path.basename(p)
                           for p in glob.glob(os.path.join(SOURCE_DIR, "man", "*.1")))
        self.assertEqual(found, sorted(["bin/zanj", *COMPLETIONS.values(), *man_pages]))


if __name__ == "__main__":
    main()
