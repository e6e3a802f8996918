"""Inline lists slice like external lists and tables: slices, --head and --tail select
elements, and --format jsonl prints one element per line (issue 25, item 4)."""
import json
import os
import tempfile

from common import ZanjTest, main, run, write_reference_zanj


class ListSlices(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "lists.zanj")
        write_reference_zanj(cls.path, {
            "param_values": [10, 11, 12, 13, 14, 15],
            "records": [{"a": 1}, {"a": 2}, [3, 4]],
            "config": {"name": "x"},
        })

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def lines(self, *args):
        return [json.loads(line) for line in self.assertOk(run("cat", *args)).text.splitlines()]

    def test_slices_select_elements(self):
        self.assertEqual(self.lines(self.path, "param_values[0:3]"), [10, 11, 12])
        self.assertEqual(self.lines(self.path, "param_values[::-2]"), [15, 13, 11])
        self.assertEqual(self.lines(self.path, "param_values[-1]"), [15])
        self.assertEqual(self.lines(self.path, "records[1:]"), [{"a": 2}, [3, 4]])

    def test_head_and_tail(self):
        self.assertEqual(self.lines("--head", "2", self.path, "param_values"), [10, 11])
        self.assertEqual(self.lines("--tail", "2", self.path, "param_values"), [14, 15])
        self.assertEqual(self.lines("--tail", "1", self.path, "param_values[0:3]"), [12])

    def test_formats(self):
        self.assertEqual(self.lines("--format", "jsonl", self.path, "param_values"), [10, 11, 12, 13, 14, 15])
        got = self.assertOk(run("cat", "--format", "json", self.path, "param_values[1:3]")).json()
        self.assertEqual(got, [11, 12])
        got = self.assertOk(run("cat", "--format", "json", self.path, "param_values[2]")).json()
        self.assertEqual(got, 12)
        # without a selection an inline list is JSON, as before
        self.assertEqual(self.assertOk(run("cat", self.path, "param_values")).json(), [10, 11, 12, 13, 14, 15])
        self.assertFails(run("cat", "--format", "csv", self.path, "param_values[0:2]"), 2, "lists")

    def test_errors_say_what_selections_apply_to(self):
        self.assertFails(run("cat", self.path, "param_values[9]"), 2)
        self.assertFails(run("cat", self.path, "param_values[0, 1]"), 2, "one dimension")
        r = self.assertFails(run("cat", "--head", "1", self.path, "config"), 2)
        self.assertIn("elements of lists", r.err)
        self.assertIn("rows of tables", r.err)
        help_text = self.assertOk(run("cat", "--help")).text
        self.assertIn("elements of a list (inline or external)", help_text)


if __name__ == "__main__":
    main()
