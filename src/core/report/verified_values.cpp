#include "report/verified_values.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "array/npy_header.hpp"
#include "summary/array_profile.hpp"
#include "zanj/error.hpp"

namespace zanj::report {

/// One expected member, in 104 bytes (a report of 50,000 small arrays holds 50,000 of them from
/// before verify plans its members until the tree is written). Its reading state (`Work`: the
/// header gathered first, then the elements, an element split between two chunks waiting in
/// `carry`) exists only while verify reads it. Once every byte has come, an array drawn with
/// figures keeps its whole profile (`figures`, at most the 1,000 largest arrays); the others keep
/// only what the tree shows on their line (object_tree.cpp: `array_item` and `array_flags`):
/// count, NaN, infinities, all zero, minimum, maximum, mean and std, not the sum or the count of
/// finite values.
struct VerifiedValues::Member {
  Member(std::string_view member, std::size_t dims, std::uint32_t expected_rank, const ProfileOptions& options)
      : name(member), dims_at(dims), rank(expected_rank) {
    if (options.bins > 0 || options.heatmap_side > 0) figures = std::make_unique<Figures>(Figures{options, {}});
  }

  std::string_view name;  // the ZipEntry's python_name
  std::size_t dims_at;    // its expected shape: VerifiedValues::dims_[dims_at, dims_at + rank)
  struct Work {
    std::string head, carry;
    std::optional<array::NpyHeader> header;
    std::optional<summary::ProfileBuilder> builder;
    std::uint64_t bytes = 0, data_bytes = 0;  // data bytes received, and expected
  };
  std::unique_ptr<Work> work;
  struct Figures {
    ProfileOptions options;
    std::optional<ArrayProfile> result;  // every byte arrived, no more than the header says
  };
  std::unique_ptr<Figures> figures;  // only for an array drawn with figures
  // The line's statistics; min_ and max_ are a double's bits or a 64-bit integer (line_ says
  // which, and which are set). Complex arrays have no minimum or maximum.
  std::uint64_t count = 0, nan = 0, inf = 0;
  std::uint64_t min_ = 0, max_ = 0;
  double mean = 0, std_dev = 0;
  std::uint32_t rank;
  bool usable = true;
  bool shared = false;  // expected for two arrays: each reads its own
  bool taken = false;
  std::uint8_t line_ = 0;  // kLine and what else is set

  // line_'s bits: kLine once the statistics are in; a minimum or maximum is kReal, kSigned or
  // kUnsigned (shifted by kMinShift or kMaxShift).
  static constexpr std::uint8_t kLine = 1, kMean = 2, kStd = 4, kAllZero = 8;
  static constexpr std::uint8_t kReal = 1, kSigned = 2, kUnsigned = 3, kMinShift = 4, kMaxShift = 6;

  bool done() const { return figures ? figures->result.has_value() : (line_ & kLine) != 0; }
  ProfileOptions options() const { return figures ? figures->options : ProfileOptions{0, 0}; }

  void restart() {
    work = std::make_unique<Work>();
    if (figures) figures->result.reset();
    line_ = 0;
    usable = true;
  }

  void fail() {
    usable = false;
    work.reset();
  }

  /// A minimum or maximum as its kind and 8 bytes; false for an integer outside 64 bits or a
  /// complex number (no numpy dtype the reader takes gives one).
  static bool pack(const std::optional<Number>& n, std::uint8_t& kind, std::uint64_t& bits) {
    kind = 0;
    bits = 0;
    if (!n) return true;
    if (n->kind == Number::Kind::real) {
      std::memcpy(&bits, &n->re, sizeof bits);
      kind = kReal;
      return true;
    }
    if (n->kind != Number::Kind::integer) return false;
    if (n->integer >= std::numeric_limits<std::int64_t>::min() &&
        n->integer <= std::numeric_limits<std::int64_t>::max()) {
      bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(n->integer));
      kind = kSigned;
      return true;
    }
    if (n->integer < 0 || n->integer > std::numeric_limits<std::uint64_t>::max()) return false;
    bits = static_cast<std::uint64_t>(n->integer);
    kind = kUnsigned;
    return true;
  }
  static std::optional<Number> unpack(std::uint8_t kind, std::uint64_t bits) {
    switch (kind) {
      case kReal: {
        double re = 0;
        std::memcpy(&re, &bits, sizeof re);
        return Number::from_real(re);
      }
      case kSigned:
        return Number::from_integer(static_cast<std::int64_t>(bits));
      case kUnsigned:
        return Number::from_integer(bits);
      default:
        return std::nullopt;
    }
  }

  /// Keeps the line's statistics of `p`; false when they do not fit.
  bool keep_line(const ArrayProfile& p) {
    const ArrayStats& s = p.stats;
    std::uint8_t min_kind = 0, max_kind = 0;
    if (!pack(s.min, min_kind, min_) || !pack(s.max, max_kind, max_)) return false;
    count = s.count;
    nan = s.nan;
    inf = s.pos_inf + s.neg_inf;
    mean = s.mean.value_or(0);
    std_dev = s.std.value_or(0);
    line_ = static_cast<std::uint8_t>(kLine | (s.mean ? kMean : 0) | (s.std ? kStd : 0) |
                                      (p.all_zero() ? kAllZero : 0) | min_kind << kMinShift | max_kind << kMaxShift);
    return true;
  }

  /// The line's statistics as a profile (infinities counted as positive ones).
  ArrayProfile line_profile() const {
    ArrayProfile p;
    ArrayStats& s = p.stats;
    s.count = count;
    s.nan = nan;
    s.pos_inf = inf;
    s.min = unpack((line_ >> kMinShift) & 3, min_);
    s.max = unpack((line_ >> kMaxShift) & 3, max_);
    if (line_ & kMean) s.mean = mean;
    if (line_ & kStd) s.std = std_dev;
    p.zeros = (line_ & kAllZero) ? count : 0;
    return p;
  }

  void feed(std::string_view chunk, const std::uint64_t* dims) {
    if (!usable) return;
    if (done() || !work) {  // bytes past the end the header gives
      if (!chunk.empty()) fail();
      return;
    }
    Work& w = *work;
    if (!w.header) {
      w.head.append(chunk);
      if (w.head.size() < 12) return;
      const base::Result<std::uint64_t> size = array::read_npy_header_size(w.head);
      if (size && w.head.size() < *size) return;
      base::Result<array::NpyHeader> read = array::read_npy_header(w.head);  // fails as the size did, if it did
      if (!read) return fail();
      w.header = std::move(*read);
      const array::Dtype& dtype = w.header->dtype;
      const base::Result<std::uint64_t> data_bytes = w.header->checked_data_bytes();
      const std::vector<std::uint64_t>& shape = w.header->shape;
      if (w.header->fortran_order || dtype.needs_byteswap() || dtype.itemsize == 0 || shape.size() != rank ||
          !std::equal(shape.begin(), shape.end(), dims) || !array::is_numeric(dtype) || !data_bytes)
        return fail();
      w.data_bytes = *data_bytes;
      w.builder.emplace(dtype, shape, options());
      chunk = std::string_view(w.head).substr(w.header->data_offset);
    }
    w.bytes += chunk.size();
    if (w.bytes > w.data_bytes) return fail();
    const std::size_t size = w.builder->item_size();
    if (!w.carry.empty()) {
      const std::size_t need = std::min(size - w.carry.size(), chunk.size());
      w.carry.append(chunk.substr(0, need));
      chunk.remove_prefix(need);
      if (w.carry.size() < size) return;
      w.builder->add(w.carry.data(), size);
      w.carry.clear();
    }
    const std::size_t whole = chunk.size() / size * size;
    w.builder->add(chunk.data(), whole);
    w.carry.assign(chunk.substr(whole));
    if (!w.head.empty()) w.head = std::string();  // the header's bytes are no longer needed
    if (w.bytes == w.data_bytes && w.carry.empty()) {
      if (figures)
        figures->result = w.builder->result();
      else if (!keep_line(w.builder->result()))
        return fail();
      work.reset();
    }
  }
};
VerifiedValues::VerifiedValues() { static_assert(sizeof(Member) <= 104); }
VerifiedValues::~VerifiedValues() = default;

void VerifiedValues::reserve(std::size_t members) {
  members_.reserve(members);
  dims_.reserve(members);  // most arrays have one dimension; more only grow it
}

void VerifiedValues::expect(std::string_view member, const ArrayNode& node, const ProfileOptions& options) {
  if (node.shape.size() > std::numeric_limits<std::uint32_t>::max()) return;  // left to the tree
  members_.emplace_back(member, dims_.size(), static_cast<std::uint32_t>(node.shape.size()), options);
  dims_.insert(dims_.end(), node.shape.begin(), node.shape.end());
  sorted_ = false;
}

VerifiedValues::Member* VerifiedValues::find(std::string_view member) {
  const auto by_name = [](const Member& a, const Member& b) { return a.name < b.name; };
  if (!sorted_) {
    // In place (a stable sort's buffer was a second copy of the records at the start of
    // verify's data pass): the order of a name's records does not matter, all are shared.
    std::sort(members_.begin(), members_.end(), by_name);
    for (std::size_t i = 1; i < members_.size(); ++i)
      if (members_[i].name == members_[i - 1].name) members_[i].shared = members_[i - 1].shared = true;
    sorted_ = true;
  }
  const auto at = std::lower_bound(members_.begin(), members_.end(), member,
                                   [](const Member& m, std::string_view name) { return m.name < name; });
  return at == members_.end() || at->name != member || at->shared ? nullptr : &*at;
}

std::function<void(std::string_view)> VerifiedValues::sink(const std::string& member) {
  Member* m = nullptr;
  {
    const std::lock_guard lock(mutex_);
    m = find(member);
    if (!m) return nullptr;
  }
  m->restart();  // a member is read by one thread at a time; a retried read starts again
  const std::uint64_t* const dims = dims_.data() + m->dims_at;  // dims_ no longer grows
  return [m, dims](std::string_view chunk) { m->feed(chunk, dims); };
}

std::optional<ArrayProfile> VerifiedValues::take(const std::string& member, bool broken) {
  const std::lock_guard lock(mutex_);
  Member* const m = find(member);
  if (!m || m->taken || broken || !m->usable || !m->done()) return std::nullopt;
  m->taken = true;  // a second take finds none, as before
  if (!m->figures) return m->line_profile();
  ArrayProfile profile = std::move(*m->figures->result);
  m->figures->result.reset();
  return profile;
}

}  // namespace zanj::report
