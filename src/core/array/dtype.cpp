#include "array/dtype.hpp"

#include <array>
#include <limits>
#include <optional>

#include "zanj/error.hpp"

namespace zanj::array {
namespace {

// Byte strings and unicode may be any size numpy can allocate; cap them so an
// itemsize always fits in uint32 and a hostile header cannot claim 4 GiB rows.
constexpr std::uint64_t max_string_itemsize = std::uint64_t{1} << 31;

char kind_char(DtypeKind kind) {
  switch (kind) {
    case DtypeKind::boolean:
      return 'b';
    case DtypeKind::signed_int:
      return 'i';
    case DtypeKind::unsigned_int:
      return 'u';
    case DtypeKind::floating:
      return 'f';
    case DtypeKind::complex:
      return 'c';
    case DtypeKind::bytes:
      return 'S';
    case DtypeKind::unicode:
      return 'U';
  }
  return '?';
}

std::optional<DtypeKind> kind_from_char(char c) {
  switch (c) {
    case 'b':
      return DtypeKind::boolean;
    case 'i':
      return DtypeKind::signed_int;
    case 'u':
      return DtypeKind::unsigned_int;
    case 'f':
      return DtypeKind::floating;
    case 'c':
      return DtypeKind::complex;
    case 'S':
    case 'a':
      return DtypeKind::bytes;  // 'a' is numpy's old spelling of S
    case 'U':
      return DtypeKind::unicode;
    default:
      return std::nullopt;
  }
}

bool is_string_kind(DtypeKind kind) { return kind == DtypeKind::bytes || kind == DtypeKind::unicode; }

// Sizes numpy really has for each fixed-size kind. float16/32/64 only: long
// double ('f16', 'c32') has a platform-specific layout we cannot decode.
bool valid_numeric_size(DtypeKind kind, std::uint64_t size) {
  switch (kind) {
    case DtypeKind::boolean:
      return size == 1;
    case DtypeKind::signed_int:
    case DtypeKind::unsigned_int:
      return size == 1 || size == 2 || size == 4 || size == 8;
    case DtypeKind::floating:
      return size == 2 || size == 4 || size == 8;
    case DtypeKind::complex:
      return size == 8 || size == 16;
    default:
      return false;
  }
}

// Decimal digits only; stops before the value could exceed `limit`.
std::optional<std::uint64_t> parse_size(std::string_view digits, std::uint64_t limit) {
  if (digits.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
    if (value > limit) return std::nullopt;
  }
  return value;
}

ByteOrder order_from_char(char c) {
  return c == '>' ? ByteOrder::big : ByteOrder::little;  // '<', '=', '|': native
}

// One canonical order per meaning, so equal dtypes compare equal.
ByteOrder normalized_order(DtypeKind kind, std::uint32_t itemsize, ByteOrder order) {
  if (kind == DtypeKind::bytes) return ByteOrder::none;
  if (kind != DtypeKind::unicode && itemsize == 1) return ByteOrder::none;
  return order == ByteOrder::none ? ByteOrder::little : order;
}

base::Failure descr_failure(std::string_view descr, std::string_view why) {
  return base::Failure{"unsupported npy dtype '" + std::string(descr) + "': " + std::string(why)};
}

struct NamedDtype {
  std::string_view name;
  DtypeKind kind;
  std::uint32_t itemsize;
};

// numpy's names for native-order numbers; torch names map onto the same set.
constexpr std::array<NamedDtype, 14> numpy_names{{
    {"bool", DtypeKind::boolean, 1},
    {"int8", DtypeKind::signed_int, 1},
    {"int16", DtypeKind::signed_int, 2},
    {"int32", DtypeKind::signed_int, 4},
    {"int64", DtypeKind::signed_int, 8},
    {"uint8", DtypeKind::unsigned_int, 1},
    {"uint16", DtypeKind::unsigned_int, 2},
    {"uint32", DtypeKind::unsigned_int, 4},
    {"uint64", DtypeKind::unsigned_int, 8},
    {"float16", DtypeKind::floating, 2},
    {"float32", DtypeKind::floating, 4},
    {"float64", DtypeKind::floating, 8},
    {"complex64", DtypeKind::complex, 8},
    {"complex128", DtypeKind::complex, 16},
}};

// torch's short aliases, as the numpy name they stand for.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> torch_aliases{{
    {"float", "float32"},
    {"double", "float64"},
    {"half", "float16"},
    {"long", "int64"},
    {"int", "int32"},
    {"short", "int16"},
}};

// torch has no unsigned types wider than uint8 in the names zanj writes.
bool torch_has(std::string_view numpy_name) { return numpy_name.substr(0, 4) != "uint" || numpy_name == "uint8"; }

std::optional<Dtype> lookup_numpy_name(std::string_view name) {
  for (const auto& entry : numpy_names) {
    if (entry.name == name) {
      return Dtype{entry.kind, entry.itemsize, normalized_order(entry.kind, entry.itemsize, ByteOrder::little)};
    }
  }
  return std::nullopt;
}

std::optional<Dtype> lookup_torch_name(std::string_view name) {
  for (const auto& [alias, target] : torch_aliases) {
    if (alias == name) name = target;
  }
  if (!torch_has(name)) return std::nullopt;
  return lookup_numpy_name(name);
}

}  // namespace

std::string Dtype::descr() const {
  char order_char = order == ByteOrder::big ? '>' : order == ByteOrder::little ? '<' : '|';
  // npy counts unicode length in characters, not bytes.
  std::uint32_t size = kind == DtypeKind::unicode ? itemsize / 4 : itemsize;
  return std::string{order_char, kind_char(kind)} + std::to_string(size);
}

std::string Dtype::numpy_name() const {
  if (is_string_kind(kind) || order == ByteOrder::big) return descr();
  for (const auto& entry : numpy_names) {
    if (entry.kind == kind && entry.itemsize == itemsize) return std::string(entry.name);
  }
  return descr();  // not reachable for dtypes built by the parsers
}

std::uint32_t Dtype::swap_unit() const {
  switch (kind) {
    case DtypeKind::signed_int:
    case DtypeKind::unsigned_int:
    case DtypeKind::floating:
      return itemsize;
    case DtypeKind::complex:
      return itemsize / 2;
    case DtypeKind::unicode:
      return 4;
    default:
      return 1;
  }
}

bool Dtype::needs_byteswap() const { return order == ByteOrder::big && swap_unit() > 1; }

base::Result<Dtype> read_descr(std::string_view descr) {
  std::string_view rest = descr;
  ByteOrder order = ByteOrder::little;
  if (!rest.empty() && std::string_view("<>|=").find(rest.front()) != std::string_view::npos) {
    order = order_from_char(rest.front());
    rest.remove_prefix(1);
  }
  if (rest.empty()) return descr_failure(descr, "missing type");
  std::optional<DtypeKind> kind = kind_from_char(rest.front());
  if (!kind) {
    if (std::string_view("OVMm").find(rest.front()) != std::string_view::npos)
      return descr_failure(descr, "object, void and datetime types are not supported");
    return descr_failure(descr, "unknown type character");
  }
  rest.remove_prefix(1);
  std::uint64_t limit = *kind == DtypeKind::unicode ? max_string_itemsize / 4
                        : is_string_kind(*kind)     ? max_string_itemsize
                                                    : 64;
  std::optional<std::uint64_t> size = parse_size(rest, limit);
  if (!size) return descr_failure(descr, "bad size");
  if (!is_string_kind(*kind) && !valid_numeric_size(*kind, *size))
    return descr_failure(descr, "no such size for this type");
  auto itemsize = static_cast<std::uint32_t>(*kind == DtypeKind::unicode ? *size * 4 : *size);
  return Dtype{*kind, itemsize, normalized_order(*kind, itemsize, order)};
}

Dtype parse_descr(std::string_view descr) { return read_descr(descr).value_or_throw(); }

base::Result<Dtype> read_dtype_name(std::string_view name) {
  constexpr std::string_view torch_prefix = "torch.";
  std::optional<Dtype> found;
  if (name.starts_with(torch_prefix)) {
    found = lookup_torch_name(name.substr(torch_prefix.size()));
  } else if (!name.empty() && std::string_view("<>|=").find(name.front()) != std::string_view::npos) {
    return read_descr(name);
  } else {
    found = lookup_numpy_name(name);
  }
  if (!found) return base::Failure{"unsupported dtype '" + std::string(name) + "'"};
  return *found;
}

Dtype parse_dtype_name(std::string_view name) { return read_dtype_name(name).value_or_throw(); }

std::string numpy_dtype_name(std::string_view stored) {
  if (const base::Result<Dtype> dtype = read_dtype_name(stored)) return dtype->numpy_name();
  constexpr std::string_view torch_prefix = "torch.";
  if (stored.starts_with(torch_prefix)) stored.remove_prefix(torch_prefix.size());
  return std::string(stored);
}

bool dtypes_compatible(const Dtype& json_dtype, const Dtype& npy_dtype) {
  if (json_dtype.kind != npy_dtype.kind || json_dtype.itemsize != npy_dtype.itemsize) return false;
  if (json_dtype.swap_unit() <= 1 || json_dtype.itemsize == 0) return true;  // order is moot
  auto effective = [](ByteOrder order) { return order == ByteOrder::none ? ByteOrder::little : order; };
  return effective(json_dtype.order) == effective(npy_dtype.order);
}

}  // namespace zanj::array
