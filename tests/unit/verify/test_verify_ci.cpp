#include <doctest/doctest.h>

#include <string>

#include "zanj/verify.hpp"

using namespace zanj;

namespace {

VerifyOutcome outcome_with(std::vector<Problem> errors, std::vector<Problem> warnings = {}) {
  VerifyReport report;
  report.file = "m.zanj";
  report.errors = std::move(errors);
  report.warnings = std::move(warnings);
  return {"m.zanj", report, {}};
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_SUITE("verify_ci") {
  TEST_CASE("junit_xml: one testcase per archive, a failure per error, an error per unreadable file") {
    const std::string xml =
        junit_xml({outcome_with({}),
                   outcome_with({{"crc_mismatch", "w.npy", "w", "CRC <bad> & \"odd\""}, {"dangling_ref", "", "", "x"}}),
                   {"gone.zanj", std::nullopt, "gone.zanj: No such file or directory"}});
    CHECK(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    CHECK(count(xml, "<testcase ") == 3);
    CHECK(count(xml, "<failure ") == 2);
    CHECK(count(xml, "<error ") == 1);
    CHECK(xml.find("tests=\"3\" failures=\"1\" errors=\"1\"") != std::string::npos);
    CHECK(xml.find("type=\"crc_mismatch\"") != std::string::npos);
    CHECK(xml.find("CRC &lt;bad&gt; &amp; &quot;odd&quot;") != std::string::npos);
    CHECK(xml.find("<bad>") == std::string::npos);
  }

  TEST_CASE("junit_xml: warnings are failures only when strict; controls never reach the XML") {
    const VerifyOutcome o = outcome_with({}, {{"bom",
                                               "a\x01"
                                               "b.json",
                                               "", "line\none"}});
    const std::string relaxed = junit_xml({o}), strict = junit_xml({o}, true);
    CHECK(count(relaxed, "<failure ") == 0);
    CHECK(relaxed.find("<system-out>warning [bom]") != std::string::npos);
    CHECK(count(strict, "<failure ") == 1);
    CHECK(strict.find("failures=\"1\"") != std::string::npos);
    CHECK(strict.find('\x01') == std::string::npos);
    CHECK(strict.find("a\\x01b.json") != std::string::npos);
    CHECK(strict.find("line&#10;one") != std::string::npos);  // in the message attribute
  }

  TEST_CASE("github_annotations: one command per problem, escaped as the runner decodes them") {
    VerifyOutcome o = outcome_with({{"crc_mismatch", "w.npy", "", "100% off\r\nnext"}}, {{"bom", "m.json", "", "b"}});
    o.file = "dir/a,b:c.zanj";
    const std::string text = github_annotations(o);
    CHECK(text ==
          "::error file=dir/a%2Cb%3Ac.zanj,title=zanj verify [crc_mismatch]::w.npy: 100%25 off%0D%0Anext\n"
          "::warning file=dir/a%2Cb%3Ac.zanj,title=zanj verify [bom]::m.json: b\n");
    CHECK(github_annotations(o, true).starts_with("::error"));
    CHECK(count(github_annotations(o, true), "::error ") == 2);
    CHECK(github_annotations({"-", std::nullopt, "stdin: bad"}) == "::error title=zanj verify::stdin: bad\n");
  }
}
