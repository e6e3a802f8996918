#pragma once
// The --json shapes of the core's reports, all on this side: the library returns structures
// (VerifyReport, Difference, Summary, ...), and the command line decides how a script sees
// them. Commands whose shape is theirs alone build it in their own file; a shape two commands
// print, or one the tests pin, lives here. The one JSON the core writes itself is a hash lock
// (content_digest_json in zanj/hash.hpp): a file format it reads back for --check.
#include <string>

#include "zanj/diff.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "zanj/verify.hpp"

namespace zanj::cli {

/// verify --json: {"file", "ok", "strict", "errors": [{"code", "member", "path", "message"}],
/// "warnings": [...], "checked": {...}}, plus "bytes_fetched" and "requests" for a URL; `ok`
/// honours `strict` (warnings count as errors), and "strict" says whether it did.
Json verify_json(const VerifyReport& report, bool strict);

/// One difference of diff --json: path, scope, kind, a, b, and for value differences unit,
/// compared, differing, first_at, first, max_abs_diff(_at), max_rel_diff(_at), rtol, atol.
Json difference_json(const Difference& d);

/// The --json line of an operand that could not be read, for the commands that go on with the
/// others (info, hash, verify): {"file", "error"} and, when the error names them, "member" (as
/// stored) and "path" (the object path), the keys verify's problems use.
JsonObject operand_error_json(const std::string& file, const Error& e);

}  // namespace zanj::cli
