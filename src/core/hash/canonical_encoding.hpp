#pragma once
// The pieces of the canonical encoding that `zanj hash` digests (docs/hash.md is the
// specification; keep the two in step): integers as 8 bytes little-endian, texts with their
// length in front, scalars by their typed value, array elements with every NaN written one
// way. content_hash.cpp puts them together node by node.
#include <cstdint>
#include <string>
#include <string_view>

#include "zanj/json.hpp"
#include "array/dtype.hpp"

namespace zanj::hash {

/// Tags: the first byte of each node's encoding, saying what kind of node it is.
inline constexpr char kNullTag = 'n', kTrueTag = 't', kFalseTag = 'f', kIntegerTag = 'i', kRealTag = 'r',
                      kStringTag = 's', kListTag = 'l', kDictTag = 'd', kObjectTag = 'o', kArrayTag = 'a',
                      kTableTag = 'T';

/// `v` as 8 bytes, least significant first.
void append_u64(std::string& out, std::uint64_t v);
/// The length of `text` (append_u64) followed by its bytes.
void append_text(std::string& out, std::string_view text);

/// The whole encoding of a JSON scalar (null, bool, number, string): its tag, then its
/// value. Integers (any size) as decimal digits, reals as binary64 little-endian with NaN as
/// 0x7ff8000000000000, strings as their UTF-8 bytes.
std::string scalar_encoding(JsonView scalar);

/// Rewrite `elements` (whole elements of `dtype`, little-endian) as the values numpy loads
/// from them: every NaN as the one quiet NaN of its width (float16 0x7e00, float32
/// 0x7fc00000, float64 0x7ff8000000000000; complex numbers part by part), and every bool byte
/// that is not 00 as 01 (numpy reads any nonzero byte as True). Returns false, leaving the
/// bytes alone, when nothing changes, so the common case costs one read.
bool canonicalize_elements(const array::Dtype& dtype, std::string& elements);
/// True when canonicalize_elements could change something for this dtype (bools, floats and
/// complex).
bool has_elements_to_canonicalize(const array::Dtype& dtype);

}  // namespace zanj::hash
