"""The tree shows the architecture, and the README says what it shows: one folder per core
subsystem, each listing exactly its own sources; unit tests in folders that mirror the core;
the README's Architecture section naming every folder and every core file. (That the command
line includes nothing but the public API is test_public_headers.py's.)"""
import os
import re
import unittest

from common import SOURCE_DIR, main

CORE = os.path.join(SOURCE_DIR, "src", "core")
CLI = os.path.join(SOURCE_DIR, "src", "cli")
UNIT = os.path.join(SOURCE_DIR, "tests", "unit")
PUBLIC = os.path.join(SOURCE_DIR, "include", "zanj")

# Core files whose unit tests live with another file's, and why.
TESTED_ELSEWHERE = {
    "base/unicode_tables": "generated tables, checked through unicode (test_unicode.cpp)",
    "json/json_parse": "the JSON model is tested through its parser (test_json.cpp)",
}
# Unit tests of a part of a public header that has no source file of its own.
TESTS_OF_PUBLIC_PARTS = {
    "format/test_output_buffer.cpp": "OutputBuffer, declared and defined in zanj/format.hpp",
}
# Unit-test folders that are not core subsystems.
OTHER_TEST_FOLDERS = {"cli", "fuzz", "api"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def subsystems():
    return sorted(d for d in os.listdir(CORE) if os.path.isdir(os.path.join(CORE, d)))


def architecture_section():
    text = read(os.path.join(SOURCE_DIR, "README.md"))
    start = text.index("\n## Architecture\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


class Layout(unittest.TestCase):
    def test_no_source_file_outside_a_subsystem_folder(self):
        loose = [f for f in os.listdir(CORE) if f.endswith((".cpp", ".hpp"))]
        self.assertEqual(loose, [], "src/core holds only subsystem folders (and its CMakeLists.txt)")

    def test_every_folder_lists_exactly_its_sources(self):
        for folder in subsystems():
            with self.subTest(folder=folder):
                cmake = read(os.path.join(CORE, folder, "CMakeLists.txt"))
                self.assertNotIn("GLOB", cmake)
                listed = set(re.findall(r"([\w/]+\.cpp)", cmake))
                present = {f for f in os.listdir(os.path.join(CORE, folder)) if f.endswith(".cpp")}
                self.assertEqual(listed, present)
                self.assertIn(f"add_subdirectory", read(os.path.join(CORE, "CMakeLists.txt")))
                self.assertRegex(read(os.path.join(CORE, "CMakeLists.txt")), rf"\b{folder}\b")

    def test_unit_tests_mirror_the_core(self):
        test_folders = {d for d in os.listdir(UNIT) if os.path.isdir(os.path.join(UNIT, d))}
        self.assertEqual(test_folders - set(subsystems()) - OTHER_TEST_FOLDERS, set(),
                         "a unit-test folder with no core folder of that name")
        self.assertEqual([f for f in os.listdir(UNIT) if f.startswith("test_") and f.endswith(".cpp")], [],
                         "unit tests sit in the folder of what they test")
        for folder in subsystems():
            for source in sorted(os.listdir(os.path.join(CORE, folder))):
                stem, ext = os.path.splitext(source)
                if ext != ".cpp" or f"{folder}/{stem}" in TESTED_ELSEWHERE:
                    continue
                with self.subTest(source=f"{folder}/{source}"):
                    self.assertTrue(os.path.exists(os.path.join(UNIT, folder, f"test_{stem}.cpp")))
            if os.path.isdir(os.path.join(UNIT, folder)):
                for test in os.listdir(os.path.join(UNIT, folder)):
                    stem = test[len("test_"):-len(".cpp")]
                    if f"{folder}/{test}" in TESTS_OF_PUBLIC_PARTS:
                        continue
                    with self.subTest(test=f"{folder}/{test}"):
                        self.assertTrue(any(os.path.exists(os.path.join(CORE, folder, stem + e))
                                            for e in (".cpp", ".hpp")) or
                                        os.path.exists(os.path.join(PUBLIC, stem + ".hpp")),
                                        "a unit test named after no file of its folder")

    def test_readme_names_every_folder_and_core_file(self):
        section = architecture_section()
        for folder in subsystems():
            with self.subTest(folder=folder):
                self.assertIn(f"`{folder}/`", section)
            for source in os.listdir(os.path.join(CORE, folder)):
                stem, ext = os.path.splitext(source)
                if ext in (".cpp", ".hpp") and not stem.endswith("_tables"):
                    with self.subTest(file=f"{folder}/{source}"):
                        self.assertTrue(f"`{stem}`" in section, "the README's Architecture section names it")
        mentioned = set(re.findall(r"`(\w+)/`", section))
        for folder in mentioned - set(subsystems()):
            with self.subTest(mentioned=folder):
                self.assertTrue(os.path.isdir(os.path.join(SOURCE_DIR, folder)) or
                                os.path.isdir(os.path.join(SOURCE_DIR, "src", folder)) or
                                os.path.isdir(os.path.join(UNIT, folder)),
                                "the README names a folder that does not exist")

    def test_no_file_name_means_two_things(self):
        seen = {}
        for root in (CORE, CLI, PUBLIC):
            for dirpath, _, files in os.walk(root):
                for f in files:
                    if f.endswith(".hpp"):
                        seen.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), SOURCE_DIR))
        self.assertEqual({k: v for k, v in seen.items() if len(v) > 1}, {})


if __name__ == "__main__":
    main()
