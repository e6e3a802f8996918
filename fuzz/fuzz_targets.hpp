#pragma once
// The bodies of the libFuzzer harnesses, one function per target, so that the unit tests run
// every seed and every saved crash through exactly the same code (test_fuzz_targets.cpp)
// in the normal and sanitizer builds, not only in the clang fuzz build.
// A target may throw zanj::Error (hostile input is expected to be refused); anything else, a
// sanitizer report or a broken invariant (__builtin_trap) is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "zanj/archive.hpp"
#include "array/dtype.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "array/member_reader.hpp"
#include "array/npy_header.hpp"
#include "zanj/summary.hpp"
#include "zanj/tree.hpp"
#include "zanj/verify.hpp"
#include "verify/verify_checks.hpp"
#include "object/zanj_file_access.hpp"
#include "json/json_parse.hpp"
#include "json/json_text.hpp"
#include "zip/archive_access.hpp"
#include "object/tree_json.hpp"

namespace zanj::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The .npy header parser (whole and fed in odd chunks) and both dtype spellings.
inline void npy_header(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = as_text(data, size);
  try {
    const array::NpyHeader h = array::parse_npy_header(bytes);
    (void)h.data_bytes();
    // What we write for a header we accepted must read back the same.
    const array::NpyHeader back = array::parse_npy_header(array::make_npy_header(h.dtype, h.fortran_order, h.shape));
    if (!(back.dtype == h.dtype) || back.shape != h.shape || back.fortran_order != h.fortran_order) __builtin_trap();
  } catch (const Error&) {
  }
  try {
    array::NpyHeaderCollector collector;
    for (std::size_t at = 0; at < bytes.size() && !collector.header(); at += 7) collector.feed(bytes.substr(at, 7));
    collector.finish();
  } catch (const Error&) {
  }
  for (auto* parse : {&array::parse_descr, &array::parse_dtype_name}) try {
      const array::Dtype d = parse(bytes);
      if (d.itemsize == 0 && d.kind != array::DtypeKind::bytes && d.kind != array::DtypeKind::unicode) __builtin_trap();
    } catch (const Error&) {
    }
}

/// The JSON text as a member reader hands it over: minified as it streams in, `step` bytes at
/// a time, then parsed without a second minifying pass, into a kept document whose arrays of
/// `packed` bare scalars or more are held as text, in fragments of `fragment` bytes. Prints the
/// value, or "" when refused.
inline std::string parse_streamed(std::string_view text, std::size_t step, std::uint32_t packed, std::size_t fragment) {
  json::JsonLimits limits{64};
  limits.packed_min_elements = packed;
  limits.fragment_bytes = fragment;
  json::JsonMinifier minifier;
  minifier.plan_for(limits);  // planned as it streams in, as a member reader plans it
  std::string out;
  for (std::size_t at = 0; at < text.size(); at += step) minifier.append(out, text.substr(at, step));
  minifier.finish(out);
  try {
    const JsonDocument doc = json::parse_document(
        json::JsonText{std::move(out), minifier.minified(), minifier.bom(), minifier.plan()}, "fuzz", limits);
    return to_json(doc.root().copy());
  } catch (const Error&) {
    return "";
  }
}

/// Whether printed JSON holds a high surrogate escape followed by a low one (\\ud800\\udc00).
inline bool has_escaped_surrogate_pair(std::string_view printed) {
  const auto surrogate_at = [&](std::size_t i, char first, char last) {
    return i + 6 <= printed.size() && printed.compare(i, 3, "\\ud") == 0 && printed[i + 3] >= first &&
           printed[i + 3] <= last;
  };
  for (std::size_t i = printed.find("\\ud"); i != std::string_view::npos; i = printed.find("\\ud", i + 1))
    if (surrogate_at(i, '8', 'b') && surrogate_at(i + 6, 'c', 'f')) return true;
  return false;
}

/// The JSON model: parse (Python's tokens included), walk and classify the tree as ls does,
/// check inline arrays as verify does, and print: what we print must parse again to the same
/// value. The two ways text reaches the parser (whole, and minified while streamed in odd
/// chunks into a document that packs arrays of bare scalars, parsed in small fragments) must
/// agree on every input, accepted or refused.
inline void json(const std::uint8_t* data, std::size_t size) {
  Json value;
  std::string whole;
  try {
    value = json::parse_json(as_text(data, size), "fuzz", json::JsonLimits{64});
    whole = to_json(value);
  } catch (const Error&) {
  }
  // Packed arrays of 1-3 elements and fragments of 1-16 bytes: every way the text may be cut.
  if (parse_streamed(as_text(data, size), 1 + size % 13, static_cast<std::uint32_t>(1 + size % 3), 1 + size % 16) !=
      whole)
    __builtin_trap();
  if (whole.empty()) return;
  object::walk_tree(value, {}, [](const TreeVisit& v) {
    (void)node_children(v.node);
    return true;
  });
  (void)object::collect_references(value);
  VerifyReport report;
  verify::check_inline_arrays(value, "fuzz", report);
  const std::string& printed = whole;
  try {
    const std::string again = to_json(json::parse_json(printed, "printed", json::JsonLimits{65}));
    // A lone high surrogate held next to a lone low one (one read from raw bytes, the other
    // from an escape) prints as two escapes, which read back as one character: Python's
    // json.dumps and json.loads do the same, so only there may the second reading differ.
    if (again != printed && !has_escaped_surrogate_pair(printed)) __builtin_trap();
  } catch (const Error&) {
    __builtin_trap();
  }
}

/// An archive from bytes: verify (one thread, small limits so that honest but huge members are
/// refused rather than inflated), then open it as info and ls do and read what they read.
inline void archive(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(as_text(data, size));
  VerifyOptions options;
  options.threads = 1;
  options.limits.max_total_bytes = 8 << 20;
  options.limits.max_json_bytes = 1 << 20;
  options.limits.max_jsonl_line_bytes = 1 << 20;
  const VerifyReport report = verify_bytes(bytes, "fuzz", options);
  // Every message must be writable as JSON (verify --json prints them): escaped whatever bytes
  // the archive put in its names.
  for (const auto* list : {&report.errors, &report.warnings})
    for (const Problem& p : *list) (void)to_json(Json(JsonObject{{"member", p.member}, {"message", p.message}}));
  try {
    ZanjLimits limits;
    limits.max_json_bytes = 1 << 20;
    limits.max_json_depth = 64;
    const ZanjFile file(zip::open_archive(std::make_unique<io::MemorySource>(bytes), "fuzz"), limits);
    (void)summarize(file);
    // The tree through the rows of external lists and tables, as ls, stats and report walk it
    // (a list that refers to itself must end), with the statistics of lists and columns.
    RowWalkOptions rows;
    rows.on_unreadable_rows = [](const std::string&) {};
    std::size_t visited = 0;
    walk_tree_with_rows(
        file, file.root(), {},
        [&](const TreeVisit& v) {
          if (++visited > 20000) return false;  // bounded work per input
          if (v.node.table || v.node.kind == NodeKind::external_list) {
            try {
              (void)value_stats(file, v.node, v.path());
            } catch (const Error&) {
            }
          }
          return true;
        },
        rows);
    for (const ZipEntry& e : file.archive().entries()) {
      if (e.uncompressed_size > (1 << 20)) continue;
      try {
        if (e.name.size() > 4 && e.name.substr(e.name.size() - 4) == ".npy")
          (void)array::read_npy_member_header(file.archive(), e);
        if (e.name.size() > 6 && e.name.substr(e.name.size() - 6) == ".jsonl")
          array::for_each_jsonl_value(file.archive(), e, [](std::uint64_t, const Json&) { return true; });
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
}

}  // namespace zanj::fuzz
