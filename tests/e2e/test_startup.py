"""Start-up stays cheap (src/cli/main.cpp and cmake/Settings.cmake say by how much) without
changing what the command line means.

main sets up only the command named on the command line when the arguments allow no other
reading (src/cli/main.cpp, chosen_command): global options before it, with their values in
either form, still reach it, and a later argument that names another command is still read as
CLI11 reads it with every command set up. The executable links libstdc++ statically and loads
none of the network or crypto libraries a local command never needs (cmake/Settings.cmake says
why); libstdc++.so is mapped only as libsimdjson's own dependency."""
import subprocess

from common import ZANJ, ZanjTest, corpus, main, run

BASIC = corpus("basic.zanj")


class GlobalOptionsBeforeTheCommand(ZanjTest):
    def test_a_value_in_the_next_argument_or_after_equals(self):
        for args in (["--max-json-bytes", "1"], ["--max-json-bytes=1"]):
            with self.subTest(args=args):
                self.assertFails(run(*args, "info", BASIC), 1, "exceeds the limit of 1")

    def test_flags_clustered_and_options_with_values(self):
        text = self.assertOk(run("-vq", "--color", "never", "--progress=never", "info", BASIC)).text
        self.assertIn("ZANJ archive", text)

    def test_a_command_name_taken_as_an_option_value(self):
        r = run("--color", "info", BASIC)
        self.assertEqual(r.code, 2, r.err)
        self.assertTrue(r.err.startswith("zanj: error: --color: info not in {auto,always,never}"), r.err)


class OtherCommandNamesAfterTheCommand(ZanjTest):
    def test_are_arguments_of_the_command(self):
        self.assertFails(run("info", BASIC, "ls"), 2, "ls: No such file or directory")
        self.assertFails(run("ls", BASIC, "info"), 1, "no object at path 'info'")


class LoadedLibraries(ZanjTest):
    def test_no_libstdcxx_and_no_network_or_crypto_library(self):
        libraries = subprocess.run(["ldd", ZANJ], capture_output=True, text=True, check=True).stdout
        if "libasan" in libraries:
            self.skipTest("sanitizer builds keep the shared libstdc++ (cmake/Settings.cmake)")
        for name in ("libcurl", "libcrypto", "libssl", "libarchive"):
            self.assertNotIn(name, libraries)
        # What the executable itself needs (readelf's NEEDED), not what its libraries bring.
        needed = subprocess.run(["readelf", "-d", ZANJ], capture_output=True, text=True, check=True).stdout
        needed = [line.split("[", 1)[1].split("]", 1)[0] for line in needed.splitlines() if "(NEEDED)" in line]
        self.assertIn("libsimdjson.so.14", needed)
        for name in ("libstdc++", "libgcc_s"):
            self.assertFalse([n for n in needed if n.startswith(name)], needed)


if __name__ == "__main__":
    main()
