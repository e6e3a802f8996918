// zanj::Error's structured context (archive, object path, member) and the one message composed
// from it (include/zanj/error.hpp, src/core/base/error.cpp).
#include <doctest/doctest.h>

#include <string>

#include "zanj/error.hpp"

namespace zanj {

TEST_SUITE("error") {
  TEST_CASE("a member is a field and reads \"member 'X': \" before the detail") {
    const Error e(InArchive{"a.zanj"}, InMember{"w.npy"}, "bad npy header: bad magic");
    CHECK(e.archive() == "a.zanj");
    CHECK(e.member() == "w.npy");
    CHECK(e.object_path() == "");
    CHECK(e.detail() == "bad npy header: bad magic");
    CHECK(e.reason() == "member 'w.npy': bad npy header: bad magic");
    CHECK(std::string(e.what()) == "a.zanj: member 'w.npy': bad npy header: bad magic");
    CHECK(e.message_in("a.zanj") == "member 'w.npy': bad npy header: bad magic");
  }

  TEST_CASE("a member the reason names itself is a field, said once") {
    const MemberDataError e(MemberDataError::Kind::crc_mismatch, InArchive{"a.zanj"}, InMember{"x", true},
                            "member 'x' is corrupt: CRC-32 mismatch");
    CHECK(e.member() == "x");
    CHECK(e.kind() == MemberDataError::Kind::crc_mismatch);
    CHECK(std::string(e.what()) == "a.zanj: member 'x' is corrupt: CRC-32 mismatch");
  }

  TEST_CASE("a member's name is escaped in the text, kept as stored in the field") {
    const Error e(InMember{"a\x1b[2Jb"}, "truncated");
    CHECK(e.member() == "a\x1b[2Jb");
    CHECK(std::string(e.what()) == "member 'a\\x1B[2Jb': truncated");
  }

  TEST_CASE("an object path reads \"NOUN 'PATH': \", before the member") {
    const Error array(InArchive{"a.zanj"}, AtPath{"state_dict/layer.weight"}, "values ended early");
    CHECK(array.object_path() == "state_dict/layer.weight");
    CHECK(std::string(array.what()) == "a.zanj: array 'state_dict/layer.weight': values ended early");

    const Error missing(InArchive{"a.zanj"}, AtPath{"a/b", "no object at path"}, "'a' has no 'b'");
    CHECK(std::string(missing.what()) == "a.zanj: no object at path 'a/b': 'a' has no 'b'");

    const Error both = Error(InMember{"w.npy"}, "too short").at_path(AtPath{"/"}).in_archive("a.zanj");
    CHECK(both.member() == "w.npy");
    CHECK(both.object_path() == "/");
    CHECK(both.reason() == "array '/': member 'w.npy': too short");
    CHECK(std::string(both.what()) == "a.zanj: array '/': member 'w.npy': too short");
  }

  TEST_CASE("decorators add context only where there is none, and keep the exit status") {
    const Error deep(InArchive{"a.zanj"}, InMember{"w.npy"}, "unsupported", Exit::usage);
    const Error again = deep.in_archive("b.zanj").in_member(InMember{"v.npy"}).at_path(AtPath{"p"});
    CHECK(again.archive() == "a.zanj");
    CHECK(again.member() == "w.npy");
    CHECK(again.object_path() == "p");  // it had none
    CHECK(again.exit() == Exit::usage);
    CHECK(std::string(again.what()) == "a.zanj: array 'p': member 'w.npy': unsupported");
    // at_path once: a second path is not added.
    CHECK(std::string(again.at_path(AtPath{"q"}).what()) == std::string(again.what()));

    const Error plain("no such member");
    CHECK(plain.member() == "");
    CHECK(plain.detail() == "no such member");
    CHECK(std::string(plain.in_member(InMember{"m", true}).what()) == "no such member");
    CHECK(plain.in_member(InMember{"m", true}).member() == "m");
  }
}

}  // namespace zanj
