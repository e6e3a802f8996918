"""End-to-end: one dtype spelling (numpy's) with the tensor library beside it, and the model
card of `zanj info`, on the corpus' ConfiguredModel archives."""
import json
import os
import tempfile

from common import ZanjTest, corpus, external_array, main, npy_bytes, run, write_reference_zanj

MODEL = corpus("model.zanj")
TRANSFORMER = corpus("models", "transformer.zanj")


def model_facts():
    with open(corpus("models", "transformer.facts.json")) as f:
        return json.load(f)


class DtypeSpelling(ZanjTest):
    """model.zanj stores its external tensors as "torch.float32", its inline ones as "float32"."""

    def test_ls_json_keeps_the_stored_dtype_and_adds_numpy_name_and_library(self):
        entries = self.assertOk(run("ls", "--json", MODEL)).json()["entries"]
        arrays = {e["path"]: e for e in entries if e["kind"] == "array"}
        self.assertEqual(arrays["state_dict/net.0.weight"]["dtype"], "torch.float32")  # the conformance facts
        self.assertEqual(arrays["state_dict/net.0.weight"]["numpy_dtype"], "float32")
        self.assertEqual(arrays["state_dict/net.0.bias"]["numpy_dtype"], "float32")
        self.assertEqual(arrays["state_dict/running"]["numpy_dtype"], "float64")
        self.assertEqual({e["library"] for e in arrays.values()}, {"torch"})
        plain = self.assertOk(run("ls", "--json", corpus("basic.zanj"))).json()["entries"]
        self.assertEqual({e["library"] for e in plain if e["kind"] == "array"}, {"numpy"})

    def test_info_stats_and_text_say_float32_for_every_weight(self):
        info = self.assertOk(run("info", "--json", "--largest", "10", MODEL)).json()
        self.assertEqual(len(info["largest_arrays"]), 7)
        for a in info["largest_arrays"]:
            self.assertIn(a["dtype"], ("float32", "float64"), a)
            self.assertEqual(a["library"], "torch")
        stats = self.assertOk(run("stats", "--json", MODEL)).json()
        self.assertEqual(sorted(a["dtype"] for a in stats["arrays"]), ["float32"] * 6 + ["float64"])
        self.assertEqual({a["library"] for a in stats["arrays"]}, {"torch"})
        for command in (["ls", "-l"], ["stats"], ["info"]):
            out = self.assertOk(run(*command, MODEL)).text
            self.assertNotIn("torch.float", out, command)
            self.assertIn("float32[32, 16]" if command[0] != "stats" else "float32 (torch)", out, command)
        stats_text = self.assertOk(run("stats", MODEL)).text.splitlines()
        # the marker sits in the dtype column, which stays aligned
        self.assertEqual(len({line.index("[") for line in stats_text[1:]}), 1, stats_text)

    def test_diff_of_the_two_spellings_is_no_dtype_change(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = npy_bytes("<f4", (2,), b"\x00" * 8)
            a = write_reference_zanj(os.path.join(tmp, "a.zanj"),
                                     {"w": external_array("w.npy", "torch.float32", [2], torch=True)}, {"w.npy": data})
            b = write_reference_zanj(os.path.join(tmp, "b.zanj"),
                                     {"w": external_array("w.npy", "float32", [2], torch=True)}, {"w.npy": data})
            r = run("diff", "--json", a, b)
            self.assertNotIn("dtype_changed", r.text, r.text + r.err)


class ModelCard(ZanjTest):
    def test_configured_model_in_the_corpus(self):
        card = self.assertOk(run("info", "--json", MODEL)).json()["model"]
        self.assertEqual(card["class"], "MLP")
        self.assertEqual(card["config_type"], "MLPConfig")
        self.assertEqual(card["config"], {"d_in": 16, "d_hidden": 32, "d_out": 4, "n_layers": 2, "act": "GELU"})
        self.assertEqual(card["state_dict"], "state_dict")
        # 1732 trainable parameters (meta.num_params) and the 32 of the "running" buffer
        self.assertEqual((card["parameters"], card["tensors"], card["recorded_parameters"]), (1764, 7, 1732))
        self.assertEqual(card["modules"], [{"module": "running", "parameters": 32, "tensors": 1},
                                           {"module": "net", "parameters": 1732, "tensors": 6}])
        self.assertEqual(card["dtypes"], [{"dtype": "float32", "parameters": 1732, "tensors": 6},
                                          {"dtype": "float64", "parameters": 32, "tensors": 1}])
        self.assertEqual(card["repeated"], [{"pattern": "net.#.weight", "count": 3, "parameters": 512 + 1024 + 128},
                                            {"pattern": "net.#.bias", "count": 3, "parameters": 32 + 32 + 4}])
        self.assertIsNone(card["training_records"])

    def test_text_block(self):
        out = self.assertOk(run("info", "--no-members", MODEL, env={"LC_ALL": "C.UTF-8"})).text
        block = out[out.index("  model\n"):].splitlines()
        self.assertEqual(block[1].split(), ["class", "MLP"])
        self.assertEqual(block[2].split(), ["config", "MLPConfig", "d_in=16", "d_hidden=32", "d_out=4", "n_layers=2",
                                            "act=GELU"])
        self.assertIn("1,764 in 7 tensors (meta.num_params 1,732: trainable only)", out)
        self.assertRegex(out, r"repeated +net\.#\.weight +\u00d73 +1,664\n +net\.#\.bias +\u00d73 +68\n")
        self.assertRegex(out, r"training +none\n")
        ascii_out = self.assertOk(run("info", "--no-members", MODEL, env={"LC_ALL": "C"})).text
        self.assertRegex(ascii_out, r"net\.#\.weight +x3 +1,664")

    def test_reference_configured_model_with_training_records(self):
        want = model_facts()["model_card"]
        card = self.assertOk(run("info", "--json", TRANSFORMER)).json()["model"]
        for key in ("class", "config_type", "config", "parameters", "tensors", "modules", "repeated"):
            self.assertEqual(card[key], want[key], key)
        self.assertEqual(card["recorded_parameters"], want["trainable_parameters"])
        self.assertEqual(sorted(card["dtypes"], key=lambda d: d["dtype"]),
                         sorted(want["dtypes"], key=lambda d: d["dtype"]))
        self.assertEqual(sorted(card["training_records"]), want["training_records"])
        self.assertEqual(card["training_records"]["epochs"], "3")
        self.assertEqual(card["training_records"]["optimizer"], "AdamW")
        self.assertRegex(card["training_records"]["loss"], r"^list of 50 numbers, 2\.5 \.\.\. ")
        out = self.assertOk(run("info", "--no-members", TRANSFORMER, env={"LC_ALL": "C.UTF-8"})).text
        self.assertRegex(out, r"layers\.#\.mlp\.#\.weight +\u00d712 +6,144")

    def test_a_dict_holding_a_state_dict_and_none(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = {"epoch": 3, "checkpoint": {"model_state_dict": {
                "enc.0.w": external_array("a.npy", "float32", [4, 4]),
                "enc.1.w": external_array("b.npy", "float32", [4, 4])}}}
            path = write_reference_zanj(os.path.join(tmp, "ckpt.zanj"), root)
            card = self.assertOk(run("info", "--json", path)).json()["model"]
            self.assertEqual(card["state_dict"], "checkpoint/model_state_dict")
            self.assertEqual((card["parameters"], card["class"]), (32, None))
            self.assertEqual(card["repeated"], [{"pattern": "enc.#.w", "count": 2, "parameters": 32}])
        self.assertIsNone(self.assertOk(run("info", "--json", corpus("basic.zanj"))).json()["model"])
        self.assertNotIn("  model\n", self.assertOk(run("info", corpus("basic.zanj"))).text)


if __name__ == "__main__":
    main()
