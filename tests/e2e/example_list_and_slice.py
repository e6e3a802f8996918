"""examples/list_and_slice on corpus archives: its member list, tree and slice must be what
`zanj ls --members --json`, `zanj ls --json` and `zanj cat --format json` say.

Usage (ctest example_list_and_slice): example_list_and_slice.py EXAMPLE_BINARY
"""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from common import ZANJ, corpus  # noqa: E402

EXAMPLE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(ZANJ), "zanj_example_list_and_slice")


def run(*args):
    return subprocess.run(list(args), capture_output=True, check=True, timeout=20).stdout


def sections(output):
    """members: [(name, size)], tree: [fields], slice: (target, text)"""
    text = output.decode()
    head, _, values = text.partition("\nslice ")
    lines = head.split("\n")
    assert lines[0] == "members:", lines[0]
    tree_at = lines.index("tree:")
    members = [tuple(line.strip().split("\t")) for line in lines[1:tree_at]]
    tree = [line[2:].split("\t") for line in lines[tree_at + 1:] if line]
    target, _, printed = values.partition(":\n")
    return members, tree, target, printed


def check_example(test, example, path, target=None):
    """Run the example on the archive at `path` and check its three sections against zanj's
    own output (also used by test_install.py on the same program built out of tree)."""
    members, tree, shown, printed = sections(run(example, path, *([target] if target else [])))
    expected_members = json.loads(run(ZANJ, "ls", "--members", "--json", path))["members"]
    test.assertEqual(members, [(m["name"], str(m["size"])) for m in expected_members])
    entries = json.loads(run(ZANJ, "ls", "--json", path))["entries"]
    test.assertEqual([t[0] for t in tree], [e["path"] or "/" for e in entries])
    for fields, entry in zip(tree, entries):
        test.assertEqual(fields[1], entry["kind"])
        if entry["kind"] == "array":
            storage = entry["storage"] + (" " + entry["member"] if entry["storage"] == "external" else "")
            test.assertEqual(fields[2:], [entry["dtype"], json.dumps(entry["shape"]), storage])
    if target:
        test.assertEqual(shown, target)
    if not shown:  # without PATH it prints the first array's slice: none when there is no array
        test.assertNotIn("array", [e["kind"] for e in entries])
        return
    test.assertEqual(printed.encode(), run(ZANJ, "cat", "--format", "json", path, shown))


class ExampleTest(unittest.TestCase):
    def check(self, archive, target=None):
        check_example(self, EXAMPLE, corpus(archive), target)

    def test_first_array(self):
        self.check("basic.zanj")
        self.check("dtypes.zanj")

    def test_a_slice(self):
        self.check("basic.zanj", "nested/deeper/matrix[2:4, 1:4]")
        self.check("basic.zanj", "big_array[::-8, 3]")
        self.check("model.zanj", None)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
