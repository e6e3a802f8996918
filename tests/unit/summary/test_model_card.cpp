#include <doctest/doctest.h>

#include "test_support.hpp"
#include "zanj/summary.hpp"
#include "zanj_builder.hpp"

using namespace zanj;
using test::make_zanj;

namespace {

/// An inline tensor node of `dtype` and shape [n] (the values do not matter to the card).
std::string tensor(const std::string& dtype, int n) {
  return R"J({"__muutils_format__": "torch.Tensor:external", "$ref": "x.npy", "dtype": ")J" + dtype +
         R"J(", "shape": [)J" + std::to_string(n) + "]}";
}

}  // namespace

TEST_SUITE("model_card") {
  TEST_CASE("layer patterns replace numeric key components") {
    CHECK(layer_pattern("layers.12.mlp.weight") == "layers.#.mlp.weight");
    CHECK(layer_pattern("net.0.weight") == "net.#.weight");
    CHECK(layer_pattern("h.1.mlp.0.bias") == "h.#.mlp.#.bias");
    CHECK(layer_pattern("embed") == "embed");
    CHECK(layer_pattern("block1.w") == "block1.w");  // digits inside a name stay
    CHECK(layer_pattern("a..1") == "a..#");
  }

  TEST_CASE("a ConfiguredModel root: class, config, parameters, modules, dtypes, patterns, records") {
    const ZanjFile z = make_zanj(R"J({"__muutils_format__": "Net",
      "zanj_model_config": {"__muutils_format__": "NetConfig(SerializableDataclass)", "d": 4, "act": "GELU",
                            "sizes": [1, 2]},
      "meta": {"class_name": "Net", "num_params": 30},
      "training_records": {"loss": [3.0, 2.0, 1.5], "epochs": 2, "opt": "AdamW", "sched": {"a": 1, "b": 2}},
      "state_dict": {"layers.0.w": )J" +
                                 tensor("torch.float32", 8) + R"J(, "layers.1.w": )J" + tensor("float32", 8) +
                                 R"J(, "layers.0.b": )J" + tensor("float32", 2) + R"J(, "layers.1.b": )J" +
                                 tensor("torch.float32", 2) + R"J(, "head": )J" + tensor("float32", 10) +
                                 R"J(, "steps": )J" + tensor("torch.int64", 3) + "}}");
    const std::optional<ModelCard> card = model_card(z);
    REQUIRE(card);
    CHECK(card->path.empty());
    CHECK(card->state_dict_path == "state_dict");
    CHECK(card->class_name == "Net");
    CHECK(card->config_type == "NetConfig");
    REQUIRE(card->config.size() == 3);
    CHECK(card->config[0].first == "d");
    CHECK(card->config[0].second == Json(std::int64_t{4}));
    CHECK(to_json(card->config[2].second) == "[1, 2]");
    CHECK(card->total.tensors == 6);
    CHECK(card->total.parameters == 33);
    CHECK(card->recorded_parameters == 30);
    REQUIRE(card->modules.size() == 3);
    CHECK(card->modules[0].module == "layers");
    CHECK(card->modules[0].count.tensors == 4);
    CHECK(card->modules[0].count.parameters == 20);
    CHECK(card->modules[1].module == "head");
    CHECK(card->modules[2].module == "steps");
    // One spelling: torch.float32 and float32 are one dtype, most parameters first.
    REQUIRE(card->dtypes.size() == 2);
    CHECK(card->dtypes[0].dtype == "float32");
    CHECK(card->dtypes[0].count.tensors == 5);
    CHECK(card->dtypes[0].count.parameters == 30);
    CHECK(card->dtypes[1].dtype == "int64");
    REQUIRE(card->repeated.size() == 2);
    CHECK(card->repeated[0].pattern == "layers.#.w");
    CHECK(card->repeated[0].count.tensors == 2);
    CHECK(card->repeated[0].count.parameters == 16);
    CHECK(card->repeated[1].pattern == "layers.#.b");
    CHECK(card->repeated[1].count.parameters == 4);
    CHECK(card->has_training_records);
    CHECK_FALSE(card->training_records_null);
    REQUIRE(card->training_records.size() == 4);
    CHECK(card->training_records[0].key == "loss");
    CHECK(card->training_records[0].summary == "list of 3 numbers, 3 ... 1.5");
    CHECK(card->training_records[1].summary == "2");
    CHECK(card->training_records[2].summary == "AdamW");
    CHECK(card->training_records[3].summary == "dict of 2 keys");
  }

  TEST_CASE("any dict holding a state dict, below the root; null records") {
    const ZanjFile z = make_zanj(R"J({"run": 3, "ckpt": {"model_state_dict": {"fc.weight": )J" + tensor("float64", 6) +
                                 R"J(}, "training_records": null}})J");
    const std::optional<ModelCard> card = model_card(z);
    REQUIRE(card);
    CHECK(card->path == "ckpt");
    CHECK(card->state_dict_path == "ckpt/model_state_dict");
    CHECK(card->class_name.empty());
    CHECK(card->config.empty());
    CHECK(card->total.parameters == 6);
    CHECK(card->repeated.empty());
    CHECK(card->has_training_records);
    CHECK(card->training_records_null);
  }

  TEST_CASE("no card without a state dict of arrays") {
    CHECK_FALSE(model_card(make_zanj(R"J({"a": )J" + tensor("float32", 3) + "}")));
    CHECK_FALSE(model_card(make_zanj(R"J({"state_dict": {"lr": 0.1}})J")));
    CHECK_FALSE(model_card(make_zanj(R"J({"optimizer_state_dict": {"state": {}, "param_groups": []}})J")));
  }

  TEST_CASE("summarize_with_card: the summary and the card, on one thread or two") {
    // Over the 65,536 values from which the two walks take two threads: many small dicts, a
    // state dict after them, and arrays beside it.
    std::string root = R"J({"runs": {)J";
    for (int i = 0; i < 30000; ++i) root += "\"r" + std::to_string(i) + R"J(": {"a": 1, "b": "x"}, )J";
    root += R"J("model": {"meta": {"class_name": "Net"}, "state_dict": {"w": )J" + tensor("float32", 8) +
            R"J(, "b": )J" + tensor("torch.float32", 2) + "}}}, \"t\": " + tensor("float64", 5) + "}";
    const ZanjFile z = make_zanj(root);
    REQUIRE(z.json_values() >= (1u << 16));
    const SummaryWithCard one = summarize_with_card(z, 5, 1);
    const SummaryWithCard two = summarize_with_card(z, 5, 2);
    const Summary alone = summarize(z, 5);
    for (const Summary* s : {&one.summary, &two.summary}) {
      CHECK(s->arrays == alone.arrays);
      CHECK(s->externals == alone.externals);
      REQUIRE(s->largest_arrays.size() == alone.largest_arrays.size());
      for (std::size_t i = 0; i < alone.largest_arrays.size(); ++i)
        CHECK(s->largest_arrays[i].path == alone.largest_arrays[i].path);
    }
    CHECK(alone.arrays == 3);
    const std::optional<ModelCard> card = model_card(z);
    REQUIRE(card);
    CHECK(card->path == "runs/model");
    for (const SummaryWithCard* found : {&one, &two}) {
      REQUIRE(found->card);
      CHECK(found->card->path == card->path);
      CHECK(found->card->state_dict_path == card->state_dict_path);
      CHECK(found->card->class_name == "Net");
      CHECK(found->card->total.tensors == 2);
      CHECK(found->card->total.parameters == card->total.parameters);
    }
  }

  TEST_CASE("summarize_with_card: no key that could start a card, so the summary's walk takes every thread") {
    // Over 65,536 values, and no string holding "state_dict": the root's children are walked
    // in runs on the threads. Arrays of equal and of growing sizes, external and inline, one
    // without a shape, a table and an external list among them, in every run.
    std::string root = "{";
    for (int i = 0; i < 9000; ++i) {
      const std::string n = std::to_string(i);
      root += "\"r" + n + R"J(": {"a": 1, "b": "x", "w": )J" + tensor("float32", i % 7 == 0 ? i : 4);
      if (i % 1000 == 5) root += R"J(, "t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl"})J";
      if (i % 1000 == 6) root += R"J(, "l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"})J";
      if (i == 4321)
        root += R"J(, "s": {"__muutils_format__": "torch.Tensor:external", "$ref": "s.npy", "dtype": "int8"})J";
      root += "}, ";
    }
    root += R"J("last": )J" + tensor("float64", 63000) + "}";
    const ZanjFile z = make_zanj(root);
    REQUIRE(z.json_values() >= (1u << 16));
    CHECK_FALSE(model_card(z));
    const Summary alone = summarize(z, 5);
    CHECK(alone.arrays == 9002);
    CHECK(alone.tables == 9);
    CHECK(alone.external_lists == 9);
    CHECK_FALSE(alone.array_elements);  // the array without a shape
    REQUIRE(alone.largest_arrays.size() == 5);
    CHECK(alone.largest_arrays[0].path == "last");
    CHECK(alone.largest_arrays[1].path == "r8995/w");
    for (unsigned threads : {2u, 3u, 16u}) {
      CAPTURE(threads);
      const SummaryWithCard found = summarize_with_card(z, 5, threads);
      CHECK_FALSE(found.card);
      const Summary& s = found.summary;
      CHECK(s.arrays == alone.arrays);
      CHECK(s.external_arrays == alone.external_arrays);
      CHECK(s.inline_arrays == alone.inline_arrays);
      CHECK(s.array_bytes == alone.array_bytes);
      CHECK(s.array_elements == alone.array_elements);
      CHECK(s.externals == alone.externals);
      CHECK(s.tables == alone.tables);
      CHECK(s.external_lists == alone.external_lists);
      CHECK(s.current_format == alone.current_format);
      CHECK(s.root_length == alone.root_length);
      REQUIRE(s.largest_arrays.size() == alone.largest_arrays.size());
      for (std::size_t i = 0; i < alone.largest_arrays.size(); ++i) {
        CHECK(s.largest_arrays[i].path == alone.largest_arrays[i].path);
        CHECK(s.largest_arrays[i].bytes == alone.largest_arrays[i].bytes);
      }
    }
    // Past the 1,286 arrays of distinct sizes, 1,714 of the 16-byte ones: the earliest in
    // document order, from several runs.
    const SummaryWithCard ties = summarize_with_card(z, 3000, 2);
    const Summary ties_alone = summarize(z, 3000);
    REQUIRE(ties_alone.largest_arrays.size() == 3000);
    CHECK(ties_alone.largest_arrays[2999].bytes == 16);
    CHECK(ties_alone.largest_arrays[2999].path == "r1999/w");
    REQUIRE(ties.summary.largest_arrays.size() == 3000);
    for (std::size_t i = 0; i < 3000; ++i)
      CHECK(ties.summary.largest_arrays[i].path == ties_alone.largest_arrays[i].path);
  }
}
