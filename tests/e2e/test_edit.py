"""End-to-end: `zanj set` and `zanj edit` (zanj-set(1), zanj-edit(1)) rewrite __zanj__.json alone,
copying every other member as stored, check the result as verify does, and replace the archive
only when it is complete and valid; and `pack -o` refuses to replace a file without --force.

`edit` is driven by a scripted $EDITOR: a small Python program that rewrites the file it is given
(tests/e2e/edit_script.py's rules, passed through the environment)."""
import json
import os
import shutil
import stat
import struct
import sys
import tempfile
import unittest
import zipfile

import pty
import subprocess

from common import ZANJ, Result, ZanjTest, corpus, environment, main, reference_read_problems, run

# The editor: reads EDIT_RULES (JSON: a list of rounds, each a list of [old, new] replacements, or
# "exit N" / "kill") and applies round k on its k-th run (counted in EDIT_COUNTER).
EDITOR_SOURCE = r'''
import json, os, signal, sys
rounds = json.loads(os.environ["EDIT_RULES"])
counter = os.environ["EDIT_COUNTER"]
k = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(k + 1))
rule = rounds[min(k, len(rounds) - 1)]
path = sys.argv[1]
text = open(path).read()
open(os.environ["EDIT_SEEN"] + str(k), "w").write(text)
if rule == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
if isinstance(rule, str) and rule.startswith("exit"):
    open(path, "w").write(text.replace("16", "17"))  # a change that must not be kept
    sys.exit(int(rule.split()[1]))
for old, new in rule:
    assert old in text, (old, text[:200])
    text = text.replace(old, new, 1)
open(path, "w").write(text)
'''


def raw_members(path):
    """{name: (crc, method, compressed bytes, local header bytes, date_time, external_attr)}."""
    out = {}
    with open(path, "rb") as f:
        data = f.read()
    with zipfile.ZipFile(path) as z:
        for i in z.infolist():
            o = i.header_offset
            name_len, extra_len = struct.unpack("<HH", data[o + 26:o + 30])
            start = o + 30 + name_len + extra_len
            out[i.filename] = (i.CRC, i.compress_type, data[start:start + i.compress_size], data[o:start],
                               i.date_time, i.external_attr, o)
    return out


def run_with_terminal_stdin(args, env, answers):
    """Run zanj with standard input on a pseudo-terminal that holds `answers` already typed
    (read a line at a time, as a terminal gives them), stdout and stderr on pipes."""
    master, slave = pty.openpty()
    os.write(master, answers)
    p = subprocess.Popen([ZANJ, *args], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=environment(env))
    os.close(slave)
    try:
        out, err = p.communicate(timeout=120)
    finally:
        os.close(master)
    return Result(p.returncode, out, err.decode("utf-8", "replace"))


class EditTest(ZanjTest):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="zanj-edit-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.model = os.path.join(self.dir, "model.zanj")
        shutil.copyfile(corpus("model.zanj"), self.model)
        os.chmod(self.model, 0o640)
        with open(self.model, "rb") as f:
            self.original = f.read()
        # The copy the editor opens goes to $TMPDIR: one of this test's own, so that what is
        # left there is this test's (another run of the suite may be editing at the same time).
        self.tmp = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmp)
        self.editor = os.path.join(self.dir, "editor.py")
        with open(self.editor, "w") as f:
            f.write(EDITOR_SOURCE)

    def object(self, path=None):
        with zipfile.ZipFile(path or self.model) as z:
            return json.loads(z.read("__zanj__.json"))

    def assertUnchanged(self):
        with open(self.model, "rb") as f:
            self.assertEqual(f.read(), self.original)

    def assertNoTempFiles(self):
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(n for n in os.listdir(self.dir)
                                                               if ".zanj-tmp-" not in n))

    def assertRewritten(self, path=None):
        """Every member but __zanj__.json as stored before; the result verifies and the
        reference loader's walk finds every external; __zanj__.json as the library writes it."""
        path = path or self.model
        before, after = raw_members(corpus("model.zanj")), raw_members(path)
        self.assertEqual(list(before), list(after))  # same members, same order
        for name in before:
            if name == "__zanj__.json":
                continue
            crc, method, data, local, date_time, attr, offset = before[name]
            self.assertEqual(after[name][:6], (crc, method, data, local, date_time, attr), name)
        # __zanj__.json is the second member: the offsets of the ones after it move by its change
        shift = after["state_dict/net.0.weight.npy"][6] - before["state_dict/net.0.weight.npy"][6]
        self.assertEqual(after["state_dict/net.2.weight.npy"][6] - before["state_dict/net.2.weight.npy"][6], shift)
        self.assertEqual(after["__zanj_meta__.json"][6], 0)
        self.assertEqual(after["__zanj__.json"][1], before["__zanj__.json"][1])  # deflated, as it was
        with zipfile.ZipFile(path) as z:
            text = z.read("__zanj__.json").decode()
        self.assertEqual(text, json.dumps(json.loads(text), indent="\t"))
        self.assertEqual(reference_read_problems(path), [])
        self.assertOk(run("verify", path))

    def edit(self, rounds, *args, terminal=False, answers=b""):
        env = {"EDITOR": f"{sys.executable} {self.editor}", "VISUAL": None, "EDIT_RULES": json.dumps(rounds),
               "EDIT_COUNTER": os.path.join(self.dir, "count"), "EDIT_SEEN": os.path.join(self.dir, "seen"),
               "TMPDIR": self.tmp}
        if not terminal:
            return run("edit", self.model, *args, env=env)
        return run_with_terminal_stdin(["edit", self.model, *args], env, answers)

    def seen(self, k):
        with open(os.path.join(self.dir, "seen") + str(k)) as f:
            return f.read()

    # ---- set ---------------------------------------------------------------------------

    def test_set_a_number(self):
        self.assertOk(run("set", self.model, "zanj_model_config/d_hidden", "64"))
        self.assertEqual(self.object()["zanj_model_config"]["d_hidden"], 64)
        self.assertRewritten()
        self.assertEqual(stat.S_IMODE(os.stat(self.model).st_mode), 0o640)
        self.assertNoTempFiles()

    def test_set_a_string_and_a_nested_key(self):
        self.assertOk(run("set", self.model, "zanj_model_config/act", '"ReLU"'))
        self.assertOk(run("set", self.model, "meta/class_name", "--string", "MLP2"))
        root = self.object()
        self.assertEqual(root["zanj_model_config"]["act"], "ReLU")
        self.assertEqual(root["meta"]["class_name"], "MLP2")
        self.assertRewritten()

    def test_set_values_python_reads(self):
        self.assertOk(run("set", self.model, "zanj_model_config/d_in", "NaN"))
        self.assertOk(run("set", self.model, "zanj_model_config/extra", '{"a": [1, 2.5, null]}', "--create"))
        with zipfile.ZipFile(self.model) as z:
            root = json.loads(z.read("__zanj__.json"))
        self.assertNotEqual(root["zanj_model_config"]["d_in"], root["zanj_model_config"]["d_in"])  # NaN
        self.assertEqual(root["zanj_model_config"]["extra"], {"a": [1, 2.5, None]})
        self.assertRewritten()

    def test_set_a_missing_path_suggests_a_near_key(self):
        r = run("set", self.model, "zanj_model_config/d_hiden", "64")
        self.assertFails(r, 1, "did you mean 'd_hidden'?")
        r = run("set", self.model, "nothing/here", "1", "--create")
        self.assertFails(r, 1, "no object at path")
        self.assertUnchanged()

    def test_set_refuses_a_bare_word_without_string(self):
        r = self.assertFails(run("set", self.model, "zanj_model_config/act", "ReLU"), 2, "--string")
        self.assertIn("not JSON", r.err)
        self.assertFails(run("set", self.model, "zanj_model_config/act", "[1,"), 2, "not JSON")
        self.assertUnchanged()

    def test_set_the_same_value_writes_nothing(self):
        r = self.assertOk(run("set", self.model, "zanj_model_config/d_hidden", "32"))
        self.assertIn("no new archive written", r.err)
        self.assertUnchanged()

    def test_set_refuses_a_broken_reference(self):
        # The external array's shape no longer matches its .npy member: verify's npy_mismatch.
        r = run("set", self.model, "state_dict/net.0.weight/shape", "[16, 32]")
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("[npy_mismatch]", r.err)
        r = run("set", self.model, "state_dict/net.0.weight/$ref", '"nowhere.npy"')
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("[dangling_ref]", r.err)
        self.assertUnchanged()
        self.assertNoTempFiles()

    def meta(self, path=None):
        with zipfile.ZipFile(path or self.model) as z:
            return json.loads(z.read("__zanj_meta__.json"))

    def test_set_json_says_what_was_written(self):
        r = self.assertOk(run("set", "--json", self.model, "zanj_model_config/d_hidden", "64"))
        self.assertEqual(json.loads(r.out), {
            "file": self.model, "output": self.model, "path": "zanj_model_config/d_hidden", "old": 32, "new": 64,
            "written": True, "members_copied": 3, "members_dropped": [], "externals_moved": []})
        out = os.path.join(self.dir, "out.zanj")
        r = self.assertOk(run("set", "--json", self.model, "meta/reviewed", "--string", "yes", "--create", "-o", out))
        said = json.loads(r.out)
        self.assertEqual((said["output"], said["old"], said["new"], said["written"]), (out, None, "yes", True))
        r = self.assertOk(run("set", "--json", self.model, "zanj_model_config/d_hidden", "64"))
        said = json.loads(r.out)
        self.assertEqual((said["old"], said["new"], said["written"], said["members_copied"]), (64, 64, False, 0))

    def test_set_moving_an_external_array_moves_its_externals_info_path(self):
        """The reference loader walks externals_info's path to the node; a key renamed keeps its
        member, and the meta's path follows it."""
        state = self.object()["state_dict"]
        renamed = {("first.weight" if k == "net.0.weight" else k): v for k, v in state.items()}
        r = self.assertOk(run("set", "--json", self.model, "state_dict", json.dumps(renamed)))
        said = json.loads(r.out)
        self.assertEqual(said["externals_moved"], ["state_dict/net.0.weight.npy"])
        self.assertEqual(said["members_dropped"], [])
        info = self.meta()["externals_info"]
        self.assertEqual(info["state_dict/net.0.weight.npy"]["path"], ["state_dict", "first.weight"])
        self.assertEqual(info["state_dict/net.2.weight.npy"]["path"], ["state_dict", "net.2.weight"])
        # the rest of the meta as it was
        before = self.meta(corpus("model.zanj"))
        before["externals_info"]["state_dict/net.0.weight.npy"]["path"] = ["state_dict", "first.weight"]
        self.assertEqual(self.meta(), before)
        self.assertEqual(reference_read_problems(self.model), [])
        self.assertOk(run("verify", self.model))

    def test_set_moving_an_external_array_into_a_list(self):
        state = self.object()["state_dict"]
        moved = {k: v for k, v in state.items() if k != "net.2.weight"}
        moved["layers"] = [{"w": state["net.2.weight"]}]
        self.assertOk(run("set", self.model, "state_dict", json.dumps(moved)))
        self.assertEqual(self.meta()["externals_info"]["state_dict/net.2.weight.npy"]["path"],
                         ["state_dict", "layers", 0, "w"])
        self.assertEqual(reference_read_problems(self.model), [])
        self.assertOk(run("verify", self.model))

    def test_set_deleting_an_external_array_drops_its_member_and_entry(self):
        state = self.object()["state_dict"]
        del state["net.0.weight"]
        r = self.assertOk(run("set", "--json", self.model, "state_dict", json.dumps(state)))
        said = json.loads(r.out)
        self.assertEqual(said["members_dropped"], ["state_dict/net.0.weight.npy"])
        self.assertEqual(said["members_copied"], 1)
        self.assertIn("1 member no node refers to any more dropped", r.err)
        with zipfile.ZipFile(self.model) as z:
            self.assertEqual(z.namelist(), ["__zanj_meta__.json", "__zanj__.json", "state_dict/net.2.weight.npy"])
        self.assertEqual(list(self.meta()["externals_info"]), ["state_dict/net.2.weight.npy"])
        self.assertEqual(reference_read_problems(self.model), [])
        r = self.assertOk(run("verify", "--json", self.model))
        self.assertEqual(json.loads(r.out)["warnings"], [])

    def test_set_to_another_file(self):
        out = os.path.join(self.dir, "out.zanj")
        self.assertOk(run("set", self.model, "zanj_model_config/n_layers", "3", "-o", out))
        self.assertUnchanged()
        self.assertEqual(self.object(out)["zanj_model_config"]["n_layers"], 3)
        self.assertRewritten(out)
        r = run("set", self.model, "zanj_model_config/n_layers", "4", "-o", out)
        self.assertFails(r, 2, "--force")
        self.assertEqual(self.object(out)["zanj_model_config"]["n_layers"], 3)
        self.assertOk(run("set", self.model, "zanj_model_config/n_layers", "4", "-o", out, "--force"))
        self.assertEqual(self.object(out)["zanj_model_config"]["n_layers"], 4)

    def test_set_keeps_a_stored_archive_stored(self):
        stored = os.path.join(self.dir, "stored.zanj")
        shutil.copyfile(corpus("stored.zanj"), stored)
        before = raw_members(corpus("stored.zanj"))
        self.assertOk(run("set", stored, "note", '"changed"', "--create"))
        self.assertEqual(self.object(stored)["note"], "changed")
        after = raw_members(stored)
        for name in before:
            self.assertEqual(after[name][1], 0, name)  # every member stored, __zanj__.json too
            if name != "__zanj__.json":
                self.assertEqual(after[name][:6], before[name][:6], name)
        self.assertOk(run("verify", stored))

    # ---- edit --------------------------------------------------------------------------

    def test_a_good_edit(self):
        r = self.assertOk(self.edit([[['"d_hidden": 32', '"d_hidden": 48']]], "zanj_model_config"))
        self.assertIn("written", r.err)
        self.assertEqual(self.seen(0), json.dumps(self.object(corpus("model.zanj"))["zanj_model_config"],
                                                  indent="\t") + "\n")
        self.assertEqual(self.object()["zanj_model_config"]["d_hidden"], 48)
        self.assertRewritten()
        self.assertNoTempFiles()

    def test_edit_json_lists_the_edited_paths(self):
        r = self.assertOk(self.edit([[["\"d_hidden\": 32", "\"d_hidden\": 48"], ["\"n_layers\": 2", "\"n_layers\": 5"]]],
                                    "zanj_model_config", "--json"))
        said = json.loads(r.out)
        self.assertEqual(said["edited_paths"], ["zanj_model_config/d_hidden", "zanj_model_config/n_layers"])
        self.assertEqual((said["file"], said["output"], said["path"], said["written"]),
                         (self.model, self.model, "zanj_model_config", True))
        self.assertEqual(said["members_copied"], 3)

    def test_edit_renaming_an_external_array_keeps_the_archive_loadable(self):
        r = self.assertOk(self.edit([[["\"net.2.weight\": {", "\"last.weight\": {"]]], "state_dict", "--json"))
        said = json.loads(r.out)
        self.assertEqual(said["edited_paths"], ["state_dict/net.2.weight", "state_dict/last.weight"])
        self.assertEqual(said["externals_moved"], ["state_dict/net.2.weight.npy"])
        self.assertEqual(self.meta()["externals_info"]["state_dict/net.2.weight.npy"]["path"],
                         ["state_dict", "last.weight"])
        self.assertEqual(reference_read_problems(self.model), [])
        self.assertOk(run("verify", self.model))

    def test_editing_the_whole_object(self):
        self.assertOk(self.edit([[['"class_name": "MLP"', '"class_name": "Perceptron"']]]))
        self.assertEqual(self.object()["meta"]["class_name"], "Perceptron")
        self.assertRewritten()

    def test_no_change_writes_nothing(self):
        r = self.assertOk(self.edit([[]]))
        self.assertIn("no changes", r.err)
        self.assertUnchanged()

    def test_a_bad_edit_without_a_terminal_exits_with_the_error(self):
        r = self.edit([[['"d_hidden": 32,', '"d_hidden": 32,,']]], "zanj_model_config")
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("the edited JSON", r.err)
        self.assertUnchanged()
        self.assertNoTempFiles()

    def test_a_bad_edit_is_reopened_with_its_error_and_fixed(self):
        rounds = [[['"d_hidden": 32,', '"d_hidden": 32,,']],  # not JSON
                  [['"d_hidden": 32,,', '"d_hidden": 40,']]]  # fixed
        r = self.edit(rounds, "zanj_model_config", terminal=True, answers=b"y\n")
        self.assertEqual(r.code, 0, r.err)
        second = self.seen(1)
        self.assertTrue(second.startswith("// zanj: "), second[:200])
        self.assertIn("the edited JSON", second.splitlines()[0])
        self.assertEqual(self.object()["zanj_model_config"]["d_hidden"], 40)
        self.assertRewritten()

    def test_an_invalid_archive_is_reopened_then_given_up(self):
        rounds = [[['"n_elements": 512', '"n_elements": 513']],  # verify's npy_mismatch
                  [['"n_elements": 513', '"n_elements": 514']]]  # still wrong
        r = self.edit(rounds, "state_dict", terminal=True, answers=b"y\nn\n")
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("[npy_mismatch]", self.seen(1))
        self.assertUnchanged()
        self.assertNoTempFiles()

    def test_a_failed_or_killed_editor_leaves_the_archive(self):
        for rule, words in (("exit 3", "exited with status 3"), ("kill", "killed by signal 9")):
            for name in os.listdir(self.dir):
                if name.startswith(("count", "seen")):
                    os.remove(os.path.join(self.dir, name))
            r = self.edit([rule], "zanj_model_config")
            self.assertFails(r, 2, words)
            self.assertUnchanged()
            self.assertNoTempFiles()
        self.assertEqual(os.listdir(self.tmp), [])  # the editor's copy is gone, killed editor or not

    def test_an_existing_output_is_refused_before_the_editor_opens(self):
        out = os.path.join(self.dir, "out.zanj")
        with open(out, "wb") as f:
            f.write(b"precious")
        r = self.edit([[['"d_hidden": 32', '"d_hidden": 48']]], "-o", out)
        self.assertFails(r, 2, "--force")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "count")))  # the editor never ran
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"precious")
        self.assertOk(self.edit([[['"d_hidden": 32', '"d_hidden": 48']]], "-o", out, "--force"))
        self.assertEqual(self.object(out)["zanj_model_config"]["d_hidden"], 48)
        self.assertUnchanged()

    def test_a_missing_path(self):
        r = self.edit([[]], "zanj_model_confg")
        self.assertFails(r, 1, "did you mean 'zanj_model_config'?")


class PackForceTest(ZanjTest):
    def test_pack_refuses_to_replace_without_force(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out.zanj")
            with open(out, "wb") as f:
                f.write(b"precious")
            r = run("pack", corpus("convert", "plain.json"), "-o", out)
            self.assertFails(r, 2, "use --force to replace it")
            with open(out, "rb") as f:
                self.assertEqual(f.read(), b"precious")
            self.assertEqual(os.listdir(d), ["out.zanj"])
            self.assertOk(run("pack", corpus("convert", "plain.json"), "-o", out, "--force"))
            self.assertOk(run("verify", out))


if __name__ == "__main__":
    main()
