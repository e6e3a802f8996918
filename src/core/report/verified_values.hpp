#pragma once
// Array profiles taken from verify's own reading (VerifyOptions::member_data): verify inflates
// every member once to check it, and the report decodes the .npy members of external arrays
// from those same bytes, so a report costs about one verify. A member is only taken when its
// header is plain (C order, little-endian, a number dtype) and every byte arrived; anything
// else (and members verify finds broken) is left for the tree to read itself.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/summary.hpp"

namespace zanj::report {

class VerifiedValues {
 public:
  VerifiedValues();
  ~VerifiedValues();
  VerifiedValues(const VerifiedValues&) = delete;
  VerifiedValues& operator=(const VerifiedValues&) = delete;

  /// Room for `members` expected members.
  void reserve(std::size_t members);
  /// Before verify runs: profile `member` as the values of `node` with `options`. `member`
  /// (a ZipEntry's python_name) must outlive this. A member expected twice (two arrays share
  /// it) is left for each array to read itself. Every expect() comes before the first sink():
  /// a sink points into the records.
  void expect(std::string_view member, const ArrayNode& node, const ProfileOptions& options);
  /// For VerifyOptions::member_data (any thread): the sink of an expected member, else empty.
  std::function<void(std::string_view)> sink(const std::string& member);
  /// After verify: the profile of a member that arrived whole; nullopt otherwise (or when
  /// `broken`, verify having found a problem with it). For an array planned without figures
  /// (bins and heatmap_side 0) it holds only what the tree shows on the array's line: count,
  /// NaN, infinities (all in pos_inf), min, max, mean, std, and zeros only as all_zero() says.
  std::optional<ArrayProfile> take(const std::string& member, bool broken);

 private:
  struct Member;
  /// The member named `member`, or nullptr; sorts the members first if expect() added any
  /// since. Under mutex_.
  Member* find(std::string_view member);
  std::mutex mutex_;
  // One record per member in a vector sorted by name (after the last expect), not a map node
  // and three heap blocks each: 50,000 members held 320 bytes each, now 104.
  std::vector<Member> members_;
  std::vector<std::uint64_t> dims_;  // the members' expected shapes, one after another
  bool sorted_ = true;
};

}  // namespace zanj::report
