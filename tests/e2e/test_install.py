"""End-to-end: `cmake --install BUILD --prefix TMP` puts the binary, every man page and the
three shell completions where their consumers look for them, and the library beside them:
libzanj.a, libzanj.so.0, the public headers (include/zanj, nothing else), the CMake package and
zanj.pc. A program outside the tree (tests/consumer: examples/list_and_slice.cpp) then builds
against that prefix, with find_package(zanj) (the static library, then the shared one) and with
pkg-config (the shared one), and lists the corpus archives and prints a slice as `zanj ls` and
`zanj cat` do."""
import filecmp
import glob
import os
import re
import shlex
import shutil
import subprocess
import tempfile

from common import SOURCE_DIR, ZANJ, ZanjTest, archives, corpus, main
from example_list_and_slice import check_example

CMAKE = os.environ.get("CMAKE") or shutil.which("cmake") or "cmake"
CXX = shutil.which("c++") or "c++"
BUILD_DIR = os.path.dirname(os.path.abspath(ZANJ))
# In the sanitizer build libzanj.a is instrumented, and the sanitizer flags are deliberately not
# part of the installed target (they are the build's choice): a consumer links with them itself.
SANITIZE = os.environ.get("ZANJ_SANITIZE", "").upper() in ("ON", "1", "TRUE", "YES")
SANITIZER_FLAGS = ["-fsanitize=address,undefined"] if SANITIZE else []

COMPLETIONS = {
    "completions/zanj.bash": "share/bash-completion/completions/zanj",
    "completions/_zanj": "share/zsh/site-functions/_zanj",
    "completions/zanj.fish": "share/fish/vendor_completions.d/zanj.fish",
}


def project_version():
    with open(os.path.join(SOURCE_DIR, "CMakeLists.txt")) as f:
        return re.search(r"project\(zanj VERSION (\S+)", f.read()).group(1)


def build_type():
    with open(os.path.join(BUILD_DIR, "CMakeCache.txt")) as f:
        return re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", f.read(), re.M).group(1)


def needed_libraries(binary):
    """The NEEDED entries of an ELF file's dynamic section, as readelf prints them."""
    p = subprocess.run(["readelf", "-d", binary], capture_output=True, check=True)
    return b"\n".join(line for line in p.stdout.splitlines() if b"(NEEDED)" in line)


def public_headers():
    """include/zanj/*.hpp of the source tree, and the version.hpp the build generates."""
    return sorted(["include/zanj/version.hpp"] + ["include/zanj/" + os.path.basename(h)
                  for h in glob.glob(os.path.join(SOURCE_DIR, "include", "zanj", "*.hpp"))])


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

    def run_step(self, what, args, env=None):
        p = subprocess.run(args, capture_output=True, timeout=180, env=env)
        self.assertEqual(p.returncode, 0, f"{what} failed: {shlex.join(args)}\n{p.stdout.decode()}{p.stderr.decode()}")
        return p.stdout.decode()

    def assertListsEveryArchive(self, consumer):
        """examples/list_and_slice, built out of tree: members, tree and a slice as zanj says."""
        for name in archives():
            with self.subTest(archive=name):
                check_example(self, consumer, corpus(name))
        check_example(self, consumer, corpus("basic.zanj"), "nested/deeper/matrix[2:4, 1:4]")

    def test_install_succeeds(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr.decode())

    def test_binary_runs_from_the_prefix(self):
        binary = self.installed("bin/zanj")
        self.assertTrue(os.access(binary, os.X_OK), binary)
        p = subprocess.run([binary, "--version"], capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout.decode(), r"^zanj \d+\.\d+\.\d+")

    def test_every_man_page(self):
        sources = sorted(glob.glob(os.path.join(BUILD_DIR, "man", "*.1")))  # written by the build
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

    def test_public_headers_and_nothing_private(self):
        found = sorted(os.path.relpath(os.path.join(d, f), self.prefix)
                       for d, _, files in os.walk(self.installed("include")) for f in files)
        self.assertEqual(found, public_headers())
        for header in found:
            source = os.path.join(BUILD_DIR if header.endswith("/version.hpp") else SOURCE_DIR, header)
            self.assertTrue(filecmp.cmp(source, self.installed(header), shallow=False), header)

    def test_versions(self):
        version = project_version()
        with open(self.installed("lib/cmake/zanj/zanjConfigVersion.cmake")) as f:
            self.assertIn(f'set(PACKAGE_VERSION "{version}")', f.read())
        env = dict(os.environ, PKG_CONFIG_PATH=self.installed("lib/pkgconfig"))
        self.assertEqual(self.run_step("pkg-config", ["pkg-config", "--modversion", "zanj"], env).strip(), version)

    def test_nothing_else(self):
        found = sorted(os.path.relpath(os.path.join(d, f), self.prefix)
                       for d, _, files in os.walk(self.prefix) for f in files)
        man_pages = sorted("share/man/man1/" + os.path.basename(p)[: -len(".md")] + ".1"
                           for p in glob.glob(os.path.join(SOURCE_DIR, "docs", "man", "zanj*.md")))
        library = ["lib/libzanj.a", "lib/libzanj.so", "lib/libzanj.so.0", f"lib/libzanj.so.{project_version()}",
                   "lib/pkgconfig/zanj.pc"] + [
            "lib/cmake/zanj/" + f for f in ("zanjConfig.cmake", "zanjConfigVersion.cmake", "zanjTargets.cmake",
                                            f"zanjTargets-{build_type().lower()}.cmake")]
        self.assertEqual(found, sorted(["bin/zanj", *COMPLETIONS.values(), *man_pages, *library,
                                        *public_headers()]))

    def test_shared_library_exports_the_api_only(self):
        library = self.installed(f"lib/libzanj.so.{project_version()}")
        p = subprocess.run(["objdump", "-p", library], capture_output=True, check=True)
        self.assertIn(b"SONAME               libzanj.so.0", p.stdout)
        p = subprocess.run(["nm", "-D", "--defined-only", "-C", library], capture_output=True, check=True, text=True)
        # "ADDRESS TYPE NAME@@ZANJ_0": the name without its version node
        symbols = [re.sub(r"@@?ZANJ_0$", "", line.split(" ", 2)[2])
                   for line in p.stdout.splitlines() if line.count(" ") >= 2]
        self.assertGreater(len(symbols), 100)
        # The version node aside, every exported symbol is the API's (cmake/libzanj.map).
        self.assertEqual([s for s in symbols if "zanj::" not in s and s != "ZANJ_0"], [])
        self.assertIn("zanj::Archive::entries() const", symbols)

    def consumer_with_find_package(self, target):
        build = os.path.join(self.tmp.name, "consumer-cmake-" + target.replace(":", "_"))
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        self.run_step("configuring tests/consumer", [
            CMAKE, "-S", os.path.join(SOURCE_DIR, "tests", "consumer"), "-B", build, *generator,
            "-DCMAKE_PREFIX_PATH=" + self.prefix, "-DCMAKE_CXX_FLAGS=" + " ".join(SANITIZER_FLAGS),
            "-DZANJ_TARGET=" + target])
        self.run_step("building tests/consumer", [CMAKE, "--build", build])
        return os.path.join(build, "zanj_consumer")

    def test_consumer_with_find_package(self):
        consumer = self.consumer_with_find_package("zanj::zanj")
        self.assertNotIn(b"libzanj.so", needed_libraries(consumer))  # libzanj.a, linked in
        self.assertListsEveryArchive(consumer)

    def test_consumer_with_find_package_shared(self):
        consumer = self.consumer_with_find_package("zanj::zanj_shared")
        self.assertIn(b"libzanj.so.0", needed_libraries(consumer))
        self.assertListsEveryArchive(consumer)

    def test_consumer_with_pkg_config(self):
        env = dict(os.environ, PKG_CONFIG_PATH=self.installed("lib/pkgconfig"))
        # pkg-config escapes the spaces of the prefix with backslashes, as a shell would read them.
        flags = shlex.split(self.run_step("pkg-config", ["pkg-config", "--cflags", "--libs", "zanj"], env))
        consumer = os.path.join(self.tmp.name, "consumer-pkg-config")
        self.run_step("compiling examples/list_and_slice.cpp", [
            CXX, "-std=c++20", *SANITIZER_FLAGS, os.path.join(SOURCE_DIR, "examples", "list_and_slice.cpp"),
            "-o", consumer, *flags, "-Wl,-rpath," + self.installed("lib")])
        self.assertIn(b"libzanj.so.0", needed_libraries(consumer))  # -lzanj: the shared library
        self.assertListsEveryArchive(consumer)


if __name__ == "__main__":
    main()
