#!/usr/bin/python3
"""Write the model archives of tests/corpus/models/ with the reference ZANJ library's
ConfiguredModel, and record beside each what torch knows about the model (NAME.facts.json):
the model card `zanj info` should show.

Run once, by hand, with Debian's interpreter (numpy and torch from apt) and the reference
library on PYTHONPATH (zanj 0.6.0 with muutils 0.9.1, as tests/corpus/releases/make_releases.py
takes them out of the fetched histories of mivanit/ZANJ and mivanit/muutils):

    PYTHONPATH=/path/to/zanj-0.6.0 /usr/bin/python3 tests/corpus/models/make_models.py

The archives and facts are data, committed; CI only reads them. The facts come from the live
torch model (its state_dict and parameters), not from the archive.
"""
import json
import os
import re
from collections import OrderedDict

import torch
from muutils.json_serialize import SerializableDataclass, serializable_dataclass, serializable_field
from zanj import ZANJ
from zanj.torchutil import ConfiguredModel, set_config_class

HERE = os.path.dirname(os.path.abspath(__file__))


@serializable_dataclass
class TinyTransformerConfig(SerializableDataclass):
    d_model: int = serializable_field(default=16)
    n_layers: int = serializable_field(default=6)
    d_mlp: int = serializable_field(default=32)
    vocab: int = serializable_field(default=40)
    act: str = serializable_field(default="GELU")


class Block(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln = torch.nn.LayerNorm(cfg.d_model)
        self.attn = torch.nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.mlp = torch.nn.Sequential(
            torch.nn.Linear(cfg.d_model, cfg.d_mlp),
            getattr(torch.nn, cfg.act)(),
            torch.nn.Linear(cfg.d_mlp, cfg.d_model),
        )


@set_config_class(TinyTransformerConfig)
class TinyTransformer(ConfiguredModel[TinyTransformerConfig]):
    def __init__(self, cfg):
        super().__init__(cfg)
        self.embed = torch.nn.Embedding(cfg.vocab, cfg.d_model)
        self.layers = torch.nn.ModuleList([Block(cfg) for _ in range(cfg.n_layers)])
        self.head = torch.nn.Linear(cfg.d_model, cfg.vocab, bias=False)
        # a buffer of another dtype: not a parameter, but in the state dict
        self.register_buffer("steps", torch.zeros(4, dtype=torch.int64))


def pattern(key):
    return ".".join("#" if part.isdigit() else part for part in key.split("."))


def card_facts(model):
    """What the model card should say, from the model itself."""
    sd = model.state_dict()
    modules, dtypes, patterns = OrderedDict(), {}, OrderedDict()
    for key, t in sd.items():
        n = t.numel()
        dt = str(t.dtype).removeprefix("torch.")
        for table, name in ((modules, key.split(".")[0]), (dtypes, dt), (patterns, pattern(key))):
            c = table.setdefault(name, {"tensors": 0, "parameters": 0})
            c["tensors"] += 1
            c["parameters"] += n
    return {
        "class": type(model).__name__,
        "config_type": type(model.zanj_model_config).__name__,
        "config": {k: getattr(model.zanj_model_config, k) for k in model.zanj_model_config.__dataclass_fields__},
        "parameters": sum(t.numel() for t in sd.values()),
        "tensors": len(sd),
        "trainable_parameters": sum(p.numel() for p in model.parameters() if p.requires_grad),
        "modules": [{"module": k, **v} for k, v in modules.items()],
        "dtypes": [{"dtype": k, **v} for k, v in dtypes.items()],
        "repeated": [{"pattern": k, "count": v["tensors"], "parameters": v["parameters"]}
                     for k, v in patterns.items() if v["tensors"] > 1],
        "training_records": sorted(model.training_records or {}),
    }


def main():
    torch.manual_seed(0)
    model = TinyTransformer(TinyTransformerConfig())
    model.training_records = {
        "loss": [round(2.5 * 0.8**i, 6) for i in range(50)],
        "epochs": 3,
        "optimizer": "AdamW",
        "lr_schedule": {"warmup": 10, "peak": 0.001},
    }
    name = "transformer"
    path = os.path.join(HERE, name + ".zanj")
    model.save(path, zanj=ZANJ(external_array_threshold=256))
    loaded = TinyTransformer.read(path)
    facts = {
        "made_by": "reference Python ZANJ library (zanj 0.6.0, muutils 0.9.1), ConfiguredModel.save",
        "model_card": card_facts(model),
        "reference_reads_back": all(torch.equal(a, b) for a, b in
                                    zip(model.state_dict().values(), loaded.state_dict().values()))
        and loaded.training_records == model.training_records,
    }
    with open(os.path.join(HERE, name + ".facts.json"), "w") as f:
        json.dump(facts, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
