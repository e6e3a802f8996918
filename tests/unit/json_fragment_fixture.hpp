#pragma once
// A document read in fragments, for the fragment tests (json_fragments.cpp cuts, and
// json_fragment_walk.cpp walks them on one thread or several): what it reads as, in one string
// that two readings can be compared by.
#include <cstdint>
#include <string>

#include "json/json_document.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj::test {

/// The document parsed in fragments of `bytes` (0: whole) on `threads` threads, packing arrays
/// of `packed` bare scalars: what it prints and what the parse noted (values, duplicate keys
/// and the path to the first), or why it was refused. `parts_joined` adds the fragments the
/// other threads walked.
inline std::string read_in_fragments(const std::string& text, std::size_t bytes, std::uint32_t packed = 0,
                                     unsigned threads = 1, json::JsonLimits limits = {},
                                     std::uint64_t* parts_joined = nullptr) {
  limits.fragment_bytes = bytes;
  limits.packed_min_elements = packed;
  limits.threads = threads;
  json::JsonParseNotes notes;
  std::string out;
  try {
    out = to_json(json::parse_document(text, "t", limits, &notes).root());
    out += " values " + std::to_string(notes.values) + " duplicates " + std::to_string(notes.duplicate_keys);
    for (const std::string& segment : notes.first_duplicate) out += " /" + segment;
  } catch (const Error& e) {
    out = std::string("refused: ") + e.what();
  }
  if (parts_joined) *parts_joined += notes.parts_joined;
  return out;
}

}  // namespace zanj::test
