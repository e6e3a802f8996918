#pragma once
// Object-name patterns for s3:// and gs:// operands ("s3://bucket/run-7/*/model.zanj"):
// `*` matches any run of characters but '/', `?` one character but '/', `**` any run, '/'
// included ("a/**/b" also matches "a/b": the "**/" may stand for no folder at all). Nothing
// else is special; there are no escapes. Matching is byte-wise, as object names compare.
#include <string>
#include <string_view>

namespace zanj::remote {

/// Whether `key` holds `*` or `?`: an object name that is a pattern, to be listed.
bool is_key_pattern(std::string_view key);

/// The part of `pattern` before its first `*` or `?`: the prefix a listing is asked for.
std::string_view pattern_literal_prefix(std::string_view pattern);

/// Whether the whole of `key` matches `pattern`.
bool key_matches(std::string_view pattern, std::string_view key);

}  // namespace zanj::remote
