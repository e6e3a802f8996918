#pragma once
// A document read in fragments, for the fragment tests (json_fragments.cpp cuts, and
// json_fragment_walk.cpp walks them on one thread or several): what it reads as, in one string
// that two readings can be compared by.
#include <cstdint>
#include <string>

#include "json/json_document.hpp"
#include "json/json_parse.hpp"
#include "json/json_text.hpp"
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

/// The same, the text first minified and planned as it streams in `step` bytes at a time (as
/// a member reader hands it over: JsonMinifier::plan_for, JsonText::plan).
inline std::string read_streamed(const std::string& text, std::size_t step, std::size_t bytes, std::uint32_t packed = 0,
                                 unsigned threads = 1) {
  json::JsonLimits limits;
  limits.fragment_bytes = bytes;
  limits.packed_min_elements = packed;
  limits.threads = threads;
  json::JsonMinifier minifier;
  minifier.plan_for(limits);
  std::string minified;
  for (std::size_t at = 0; at < text.size(); at += step)
    minifier.append(minified, std::string_view(text).substr(at, step));
  minifier.finish(minified);
  json::JsonParseNotes notes;
  std::string out;
  try {
    const json::JsonText streamed{std::move(minified), minifier.minified(), minifier.bom(), minifier.plan()};
    out = to_json(json::parse_document(streamed, "t", limits, &notes).root());
    out += " values " + std::to_string(notes.values) + " duplicates " + std::to_string(notes.duplicate_keys);
    for (const std::string& segment : notes.first_duplicate) out += " /" + segment;
  } catch (const Error& e) {
    out = std::string("refused: ") + e.what();
  }
  return out;
}

}  // namespace zanj::test
