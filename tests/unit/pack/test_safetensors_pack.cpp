#include <doctest/doctest.h>

#include "pack/pack_plan.hpp"
#include "pack/safetensors_pack.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::pack;
using zanj::test::TempDir;

namespace {

std::string with_length(const std::string& header) {
  std::string out;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return out + header;
}

}  // namespace

TEST_SUITE("safetensors_pack") {
  TEST_CASE("a plain file: one key per tensor, each an .npy member made of a header and a slice") {
    TempDir tmp;
    const std::string header =
        R"({"b":{"dtype":"I8","shape":[2],"data_offsets":[4,6]},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
    test::write_file(tmp / "m.safetensors", with_length(header) + "abcdxy");
    ExternalRegistry externals;
    std::vector<PlannedMember> members;
    const SafetensorsPlan plan = plan_safetensors(tmp / "m.safetensors", {}, PackSettings{}, externals, members);
    REQUIRE(plan.root.is_object());
    REQUIRE(plan.root.as_object().size() == 2);
    CHECK(plan.root.as_object()[0].first == "a");  // the order of the data
    REQUIRE(members.size() == 2);
    CHECK(members[0].name == "a.npy");
    const auto* source = std::get_if<std::shared_ptr<const FileSliceSource>>(&members[1].source);
    REQUIRE(source != nullptr);
    const FileSliceSource& slice = **source;
    CHECK(slice.offset == 8 + header.size() + 4);
    CHECK(slice.bytes == 2);
    CHECK(members[1].size == slice.header.size() + 2);
    CHECK_FALSE(plan.zanj_cfg);
  }

  TEST_CASE("the object zanj export recorded is restored, or the reason it is not is noted") {
    TempDir tmp;
    const std::string object =
        R"({\"x\": 1, \"w\": {\"__muutils_format__\": \"torch.Tensor:external\", \"$ref\": \"w\", \"shape\": [2], \"dtype\": \"torch.float32\", \"n_elements\": 2}})";
    const std::string meta = R"({\"zanj_cfg\": {\"compress\": 8, \"external_array_threshold\": 9}})";
    const std::string header = std::string(R"({"__metadata__":{"format":"zanj","__zanj__.json":")") + object +
                               R"(","__zanj_meta__.json":")" + meta +
                               R"("},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    test::write_file(tmp / "m.safetensors", with_length(header) + "abcdefgh");
    ExternalRegistry externals;
    std::vector<PlannedMember> members;
    const SafetensorsPlan plan = plan_safetensors(tmp / "m.safetensors", {}, PackSettings{}, externals, members);
    CHECK(plan.notes.empty());
    REQUIRE(plan.root.find("x"));
    const Json* w = plan.root.find("w");
    REQUIRE(w);
    CHECK(w->string_at("__muutils_format__") == "torch.Tensor:external");
    CHECK(w->string_at("dtype") == "torch.float32");
    REQUIRE(plan.zanj_cfg);
    CHECK(members.size() == 1);

    // The recorded shape disagrees with the tensor: a flat dict, and a note saying why.
    const std::string header2 = std::string(R"({"__metadata__":{"format":"zanj","__zanj__.json":")") + object +
                                R"("},"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
    test::write_file(tmp / "n.safetensors", with_length(header2) + "abcd");
    ExternalRegistry externals2;
    std::vector<PlannedMember> members2;
    const SafetensorsPlan flat = plan_safetensors(tmp / "n.safetensors", {}, PackSettings{}, externals2, members2);
    REQUIRE(flat.notes.size() == 1);
    CHECK(flat.notes[0].find("another shape") != std::string::npos);
    CHECK_FALSE(flat.root.find("x"));
    CHECK(members2.size() == 1);
  }

  TEST_CASE("a hostile header is an error naming the file") {
    TempDir tmp;
    test::write_file(tmp / "bad.safetensors", with_length("{\"a\":") + "");
    ExternalRegistry externals;
    std::vector<PlannedMember> members;
    CHECK_THROWS_WITH_AS(plan_safetensors(tmp / "bad.safetensors", {}, PackSettings{}, externals, members),
                         doctest::Contains("bad.safetensors"), Error);
  }
}
