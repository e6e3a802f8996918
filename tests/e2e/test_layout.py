"""The tree shows the architecture, and docs/ARCHITECTURE.md says what it shows: one folder per
core subsystem, each listing exactly its own sources; unit tests in folders that mirror the core;
its Files section naming every folder and every core file. The folders are
layers: docs/ARCHITECTURE.md gives each a rank, and a core file includes private headers only
from its own folder and from lower ranks, with no include cycle between files. (That the
command line includes nothing but the public API is test_public_headers.py's.)"""
import os
import re
import unittest

from common import SOURCE_DIR, main

CORE = os.path.join(SOURCE_DIR, "src", "core")
CLI = os.path.join(SOURCE_DIR, "src", "cli")
UNIT = os.path.join(SOURCE_DIR, "tests", "unit")
PUBLIC = os.path.join(SOURCE_DIR, "include", "zanj")
ARCHITECTURE = os.path.join(SOURCE_DIR, "docs", "ARCHITECTURE.md")
# A private include: "<folder>/<name>" (the public API is "zanj/<name>.hpp").
PRIVATE_INCLUDE = re.compile(r'^\s*#\s*include\s+"(\w+)/([\w.]+)"', re.MULTILINE)

# Core files whose unit tests live with another file's, and why.
TESTED_ELSEWHERE = {
    "base/unicode_tables": "generated tables, checked through unicode (test_unicode.cpp)",
    "json/json_parse": "the JSON model is tested through its parser (test_json.cpp)",
    "io/byte_sink": "the interface, with FdSink, through zip_writer (test_zip_writer.cpp) and file_sink",
    "remote/s3_upload": "needs an S3 server: e2e test_remote_write.py (s3rver)",
    "remote/gcs_upload": "needs a GCS server: e2e test_remote_write.py (its GCS server)",
    "remote/put_upload": "needs an HTTP server: e2e test_remote_write.py (a loopback PUT server)",
    "source/output_sink": "the choice of sink, through every e2e test of pack -o, report -o and export -o",
}
# Unit tests of a part of a public header that has no source file of its own.
TESTS_OF_PUBLIC_PARTS = {
    "format/test_output_buffer.cpp": "OutputBuffer, declared and defined in zanj/format.hpp",
}
# The namespace of a folder whose name is a C++ keyword.
NAMESPACE_OF = {"export": "exporter"}
# Unit-test folders that are not core subsystems.
OTHER_TEST_FOLDERS = {"cli", "fuzz", "api"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def subsystems():
    return sorted(d for d in os.listdir(CORE) if os.path.isdir(os.path.join(CORE, d)))


def architecture_section():
    text = read(os.path.join(SOURCE_DIR, "docs", "ARCHITECTURE.md"))
    start = text.index("\n## Files\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def ranks():
    """The rank of each core folder, from the table in docs/ARCHITECTURE.md (the one place it
    is written): rows like "| 4 | `zip/` | ... |"."""
    return {folder: int(rank) for rank, folder in
            re.findall(r"^\|\s*(\d+)\s*\|\s*`(\w+)/`\s*\|", read(ARCHITECTURE), re.MULTILINE)}


def private_includes():
    """(including file, included file) for every private include in src/core, both as
    "<folder>/<name>" paths relative to src/core."""
    for folder in subsystems():
        for name in sorted(os.listdir(os.path.join(CORE, folder))):
            if name.endswith((".cpp", ".hpp", ".hpp.in")):
                for target_folder, target in PRIVATE_INCLUDE.findall(read(os.path.join(CORE, folder, name))):
                    if target_folder != "zanj":
                        yield f"{folder}/{name}", f"{target_folder}/{target}"


def find_cycle(edges):
    """One include cycle (a list of files, first == last) in the graph, or None."""
    graph = {}
    for source, target in edges:
        graph.setdefault(source, set()).add(target)
    state = {}  # absent: unvisited; 1: on the current path; 2: done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


class Layout(unittest.TestCase):
    def test_every_folder_has_a_rank(self):
        self.assertEqual(sorted(ranks()), subsystems(),
                         "docs/ARCHITECTURE.md's table ranks exactly the folders of src/core")

    def test_includes_go_down_the_ranks(self):
        rank = ranks()
        upward = [f"{source} includes {target}" for source, target in private_includes()
                  if source.split("/")[0] != target.split("/")[0] and
                  rank.get(target.split("/")[0], 1 << 30) >= rank.get(source.split("/")[0], -1)]
        self.assertEqual(upward, [], "a core file includes a folder of its own rank or higher "
                                     "(docs/ARCHITECTURE.md): move the included code down, or split it")

    def test_included_files_exist(self):
        missing = [f"{source} includes {target}" for source, target in private_includes()
                   if not os.path.exists(os.path.join(CORE, target))]
        self.assertEqual(missing, [])

    def test_no_include_cycle(self):
        edges = list(private_includes())
        self.assertIsNone(find_cycle(edges), "files that include one another")
        folders = {(s.split("/")[0], t.split("/")[0]) for s, t in edges if s.split("/")[0] != t.split("/")[0]}
        self.assertIsNone(find_cycle(folders), "folders that include one another")

    def test_the_cycle_finder_finds_cycles(self):
        self.assertEqual(find_cycle([("a", "b"), ("b", "c"), ("c", "a")]), ["a", "b", "c", "a"])
        self.assertIsNone(find_cycle([("a", "b"), ("a", "c"), ("b", "c")]))


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

    def test_docs_name_every_folder_and_core_file(self):
        section = architecture_section()
        for folder in subsystems():
            with self.subTest(folder=folder):
                self.assertIn(f"`{folder}/`", section)
            for source in os.listdir(os.path.join(CORE, folder)):
                stem, ext = os.path.splitext(source)
                if ext in (".cpp", ".hpp") and not stem.endswith("_tables"):
                    with self.subTest(file=f"{folder}/{source}"):
                        self.assertTrue(f"`{stem}`" in section, "docs/ARCHITECTURE.md's Files section names it")
        mentioned = set(re.findall(r"`(\w+)/`", section))
        for folder in mentioned - set(subsystems()):
            with self.subTest(mentioned=folder):
                self.assertTrue(os.path.isdir(os.path.join(SOURCE_DIR, folder)) or
                                os.path.isdir(os.path.join(SOURCE_DIR, "src", folder)) or
                                os.path.isdir(os.path.join(UNIT, folder)),
                                "docs/ARCHITECTURE.md names a folder that does not exist")

    def test_no_file_name_means_two_things(self):
        seen = {}
        for root in (CORE, CLI, PUBLIC):
            for dirpath, _, files in os.walk(root):
                for f in files:
                    if f.endswith(".hpp"):
                        seen.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), SOURCE_DIR))
        self.assertEqual({k: v for k, v in seen.items() if len(v) > 1}, {})

    def test_comments_cite_only_files_in_the_repository(self):
        # A comment that sends the reader to a file must send them somewhere that exists: a path
        # from the repository's root (docs/..., tests/...), a core path ("object/tree.hpp") or
        # a public header ("zanj/tree.hpp"). Tracker numbers and files outside the repository
        # (the format notes it started from) mean nothing to a reader of a clone.
        rooted = re.compile(r"\b((?:docs|tests|scripts|bench|fuzz|src|include|cmake|examples)/[\w./-]*\w)")
        folders = "|".join(subsystems() + ["zanj", "cli"])
        relative = re.compile(r"(?<![\w/.])((?:%s)/[\w-]+\.(?:hpp|cpp|md))" % folders)
        generated = {"zanj/version.hpp", "include/zanj/version.hpp", "base/version.hpp"}  # from version.hpp.in
        for root in (os.path.join(SOURCE_DIR, "src"), os.path.join(SOURCE_DIR, "include")):
            for dirpath, _, files in os.walk(root):
                for name in files:
                    path = os.path.join(dirpath, name)
                    for number, line in enumerate(read(path).splitlines(), 1):
                        where = f"{os.path.relpath(path, SOURCE_DIR)}:{number}"
                        self.assertNotRegex(line, r"FORMAT\.md|\b[Ii]ssue \d+", where)
                        if re.match(r"\s*#\s*include\b", line):
                            continue
                        for cited in rooted.findall(line):
                            if cited in generated or "NAME" in cited or cited.endswith("/zanj"):
                                continue  # a generated file, or a pattern (docs/man/zanj-NAME.md)
                            self.assertTrue(os.path.exists(os.path.join(SOURCE_DIR, cited)), f"{where}: {cited}")
                        for cited in relative.findall(line):
                            if cited in generated:
                                continue
                            self.assertTrue(any(os.path.exists(os.path.join(base, cited)) for base in
                                                (CORE, os.path.join(SOURCE_DIR, "include"), os.path.join(SOURCE_DIR, "src"))),
                                            f"{where}: {cited}")

    def test_every_catch_in_the_core_says_why(self):
        # A catch in the library adds context and rethrows, stops a failure at a boundary where
        # it becomes a value or a note, or cleans up and rethrows; one that only chooses a path
        # should be a Result instead. The reason is written on the catch's line, so a reader
        # (and this test) sees which it is.
        tag = re.compile(r"catch \(.*\) \{\s*// (context|boundary|cleanup):")
        for dirpath, _, files in os.walk(CORE):
            for name in files:
                path = os.path.join(dirpath, name)
                for number, line in enumerate(read(path).splitlines(), 1):
                    if re.search(r"\bcatch \(", line) and not line.lstrip().startswith("//"):
                        self.assertRegex(line, tag, f"{os.path.relpath(path, SOURCE_DIR)}:{number}")

    def test_namespaces_follow_the_folders(self):
        # A core file declares its folder's parts in zanj::<folder> (or a namespace inside it,
        # such as detail), and what the public API declares in zanj itself; never in another
        # folder's namespace, which would put a part where its folder's rank does not say.
        names = {NAMESPACE_OF.get(f, f) for f in subsystems()}
        opening = re.compile(r"^\s*namespace ([\w:]+) \{", re.MULTILINE)
        for folder in subsystems():
            own = NAMESPACE_OF.get(folder, folder)
            for name in os.listdir(os.path.join(CORE, folder)):
                if not name.endswith((".hpp", ".cpp")):
                    continue
                where = f"src/core/{folder}/{name}"
                for ns in opening.findall(read(os.path.join(CORE, folder, name))):
                    parts = ns.split("::")
                    if parts[0] == "zanj":
                        parts = parts[1:]
                    if parts and parts[0] in names:
                        self.assertEqual(parts[0], own, f"{where}: namespace {ns}")
                    elif ns.startswith("zanj"):
                        self.assertEqual(ns, "zanj", f"{where}: namespace {ns} is not under zanj::{own}")


if __name__ == "__main__":
    main()
