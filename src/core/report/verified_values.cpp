#include "report/verified_values.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "array/npy_header.hpp"
#include "summary/array_profile.hpp"
#include "zanj/error.hpp"

namespace zanj::report {

/// What the tree shows of an array drawn without figures (its statistics on its line): an
/// ArrayProfile less its histogram and heatmap, in 112 bytes instead of about 350 plus a
/// heap block. A report of 50,000 small arrays holds 50,000 of these until the tree is written
/// (about 12 MiB of the peak).
class VerifiedStats {
 public:
  explicit VerifiedStats(const ArrayProfile& p)
      : count_(p.stats.count),
        nan_(p.stats.nan),
        pos_inf_(p.stats.pos_inf),
        neg_inf_(p.stats.neg_inf),
        finite_(p.stats.finite),
        zeros_(p.zeros),
        min_(pack(p.stats.min)),
        max_(pack(p.stats.max)),
        sum_(p.stats.sum.value_or(0)),
        mean_(p.stats.mean.value_or(0)),
        std_(p.stats.std.value_or(0)),
        numeric_(p.stats.numeric),
        has_(static_cast<unsigned char>((p.stats.min ? 1 : 0) | (p.stats.max ? 2 : 0) | (p.stats.sum ? 4 : 0) |
                                        (p.stats.mean ? 8 : 0) | (p.stats.std ? 16 : 0) |
                                        (is_integer(p.stats.min) ? 32 : 0) | (is_integer(p.stats.max) ? 64 : 0))) {}

  ArrayProfile profile() const {
    ArrayProfile p;
    ArrayStats& s = p.stats;
    s.count = count_;
    s.numeric = numeric_;
    s.nan = nan_;
    s.pos_inf = pos_inf_;
    s.neg_inf = neg_inf_;
    s.finite = finite_;
    if (has_ & 1) s.min = unpack(min_, has_ & 32);
    if (has_ & 2) s.max = unpack(max_, has_ & 64);
    if (has_ & 4) s.sum = sum_;
    if (has_ & 8) s.mean = mean_;
    if (has_ & 16) s.std = std_;
    p.zeros = zeros_;
    return p;
  }

 private:
  /// A real or integer Number in 16 bytes: the integer, or the double's bits (complex arrays
  /// have no min or max).
  static Int128 pack(const std::optional<Number>& n) {
    if (!n || n->kind == Number::Kind::integer) return n ? n->integer : 0;
    Int128 bits = 0;
    std::memcpy(&bits, &n->re, sizeof n->re);
    return bits;
  }
  static Number unpack(Int128 bits, bool integer) {
    if (integer) return Number::from_integer(bits);
    double re = 0;
    std::memcpy(&re, &bits, sizeof re);
    return Number::from_real(re);
  }
  static bool is_integer(const std::optional<Number>& n) { return n && n->kind == Number::Kind::integer; }

  std::uint64_t count_, nan_, pos_inf_, neg_inf_, finite_, zeros_;
  Int128 min_, max_;
  double sum_, mean_, std_;
  bool numeric_;
  unsigned char has_;  // which optionals are set; 32, 64: min, max are integers
};
static_assert(sizeof(VerifiedStats) <= 112);

/// An expected shape: up to four dimensions in place (a heap block each was 32 bytes a
/// member), more in a vector.
class ExpectedShape {
 public:
  explicit ExpectedShape(const std::vector<std::uint64_t>& shape) : rank_(shape.size()) {
    if (rank_ <= kInline)
      std::copy(shape.begin(), shape.end(), dims_.begin());
    else
      more_ = std::make_unique<std::vector<std::uint64_t>>(shape);
  }
  bool operator==(const std::vector<std::uint64_t>& shape) const {
    if (more_) return *more_ == shape;
    return shape.size() == rank_ && std::equal(shape.begin(), shape.end(), dims_.begin());
  }
  std::vector<std::uint64_t> vector() const {
    return more_ ? *more_ : std::vector<std::uint64_t>(dims_.begin(), dims_.begin() + static_cast<long>(rank_));
  }

 private:
  static constexpr std::size_t kInline = 4;
  std::size_t rank_;
  std::array<std::uint64_t, kInline> dims_{};
  std::unique_ptr<std::vector<std::uint64_t>> more_;
};

/// One expected member. Its reading state (`Work`: the header gathered first, then the
/// elements, an element split between two chunks waiting in `carry`) exists only while verify
/// reads it; once every byte has come, only the finished profile is kept. A report of 50,000
/// small members then holds 50,000 small profiles, not 50,000 profile builders.
struct VerifiedValues::Member {
  Member(std::string_view member, const std::vector<std::uint64_t>& expected, const ProfileOptions& profile)
      : name(member), shape(expected), options(profile) {}

  std::string_view name;  // the ZipEntry's python_name
  ExpectedShape shape;
  ProfileOptions options;
  struct Work {
    std::string head, carry;
    std::optional<array::NpyHeader> header;
    std::optional<summary::ProfileBuilder> builder;
    std::uint64_t bytes = 0, data_bytes = 0;  // data bytes received, and expected
  };
  std::unique_ptr<Work> work;
  // Every byte arrived, no more than the header says: the whole profile of an array drawn with
  // figures, only its statistics (in place) for the others.
  std::unique_ptr<ArrayProfile> result;
  std::optional<VerifiedStats> stats;
  bool usable = true;
  bool shared = false;  // expected for two arrays: each reads its own
  bool taken = false;

  bool done() const { return result || stats; }

  void restart() {
    work = std::make_unique<Work>();
    result.reset();
    stats.reset();
    usable = true;
  }

  void fail() {
    usable = false;
    work.reset();
  }

  void feed(std::string_view chunk) {
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
      if (w.header->fortran_order || dtype.needs_byteswap() || dtype.itemsize == 0 || !(shape == w.header->shape) ||
          !array::is_numeric(dtype) || !data_bytes)
        return fail();
      w.data_bytes = *data_bytes;
      w.builder.emplace(dtype, shape.vector(), options);
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
      if (options.bins > 0 || options.heatmap_side > 0)
        result = std::make_unique<ArrayProfile>(w.builder->result());
      else
        stats.emplace(w.builder->result());
      work.reset();
    }
  }
};

VerifiedValues::VerifiedValues() = default;
VerifiedValues::~VerifiedValues() = default;

void VerifiedValues::reserve(std::size_t members) { members_.reserve(members); }

void VerifiedValues::expect(std::string_view member, const ArrayNode& node, const ProfileOptions& options) {
  members_.emplace_back(member, node.shape, options);
  sorted_ = false;
}

VerifiedValues::Member* VerifiedValues::find(std::string_view member) {
  const auto by_name = [](const Member& a, const Member& b) { return a.name < b.name; };
  if (!sorted_) {
    std::stable_sort(members_.begin(), members_.end(), by_name);
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
  return [m](std::string_view chunk) { m->feed(chunk); };
}

std::optional<ArrayProfile> VerifiedValues::take(const std::string& member, bool broken) {
  const std::lock_guard lock(mutex_);
  Member* const m = find(member);
  if (!m || m->taken || broken || !m->usable || !m->done()) return std::nullopt;
  ArrayProfile profile = m->result ? std::move(*m->result) : m->stats->profile();
  m->taken = true;  // a second take finds none, as before
  m->result.reset();
  return profile;
}

}  // namespace zanj::report
