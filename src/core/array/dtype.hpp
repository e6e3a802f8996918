#pragma once
// The element types a .zanj archive can hold, as numpy describes them.
// Two spellings meet here: the `.npy` header's type string ("<f4") and the
// "dtype" string written in __zanj__.json ("float32", ">f8", "torch.int64").
// Both parse into one Dtype so a reference node can be checked against the
// header of the member it points to.
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace zanj::array {

enum class DtypeKind { boolean, signed_int, unsigned_int, floating, complex, bytes, unicode };

/// `none` is for types where byte order means nothing: single-byte numbers
/// and byte strings (numpy writes '|' for them).
enum class ByteOrder { little, big, none };

struct Dtype {
  DtypeKind kind = DtypeKind::floating;
  std::uint32_t itemsize = 8;  ///< bytes per element (unicode: 4 per character)
  ByteOrder order = ByteOrder::little;

  /// The npy type string: "<f4", "|b1", "|i1", ">i8", "<U7", "|S3", "<c16".
  std::string descr() const;
  /// What numpy prints for the dtype: a name for native (little-endian)
  /// numbers ("float32", "bool", "complex128"), the type string otherwise
  /// (">f8", "<U7", "|S4").
  std::string numpy_name() const;
  /// True when the stored bytes are big-endian and must be swapped, unit by
  /// unit (see swap_unit()), to be read on a little-endian machine. This also
  /// covers big-endian unicode, whose UTF-32 code units need swapping.
  bool needs_byteswap() const;
  /// Bytes per byte-swapped unit: itemsize for ints/floats, itemsize/2 for
  /// complex (real and imaginary parts swap separately), 4 for unicode,
  /// 1 for bool and bytes.
  std::uint32_t swap_unit() const;

  bool operator==(const Dtype&) const = default;
};

/// Read an npy type string: optional order char [<>|=] ('=' and '|' mean
/// native, i.e. little), a kind char (b i u f c S U; 'a' is S) and a decimal
/// size. Fails for object, void, datetime, structured, long double or sizes
/// the kind cannot have.
base::Result<Dtype> read_descr(std::string_view descr);
/// The same, throwing the failure as an Error (an .npy header that cannot be read).
Dtype parse_descr(std::string_view descr);

/// Read the "dtype" string from __zanj__.json: numpy names ("int8",
/// "float32", ...), type strings (">f8", "<U7", "|S4") and torch names
/// ("torch.float32", "torch.long", ...). Fails, naming the dtype, for
/// anything else, including torch.bfloat16 (numpy has no such type).
base::Result<Dtype> read_dtype_name(std::string_view name);
/// The same, throwing the failure as an Error (for an array that is to be read).
Dtype parse_dtype_name(std::string_view name);

/// numpy's name for a stored "dtype" string, whichever library wrote it: "torch.float32" and
/// "float32" both give "float32", "torch.long" gives "int64", "<f8" gives "float64". A name
/// numpy has no type for keeps its text without the "torch." prefix ("torch.bfloat16" gives
/// "bfloat16"); any other unreadable name is returned as it is. What the outputs print;
/// verify keeps checking the stored text.
std::string numpy_dtype_name(std::string_view stored);

/// Whether a reference node's dtype agrees with its .npy header: same kind
/// and itemsize, and same byte order where byte order matters.
bool dtypes_compatible(const Dtype& json_dtype, const Dtype& npy_dtype);

}  // namespace zanj::array
