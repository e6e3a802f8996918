#pragma once
// Array profiles taken from verify's own reading (VerifyOptions::member_data): verify inflates
// every member once to check it, and the report decodes the .npy members of external arrays
// from those same bytes, so a report costs about one verify. A member is only taken when its
// header is plain (C order, little-endian, a number dtype) and every byte arrived; anything
// else (and members verify finds broken) is left for the tree to read itself.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "zanj/summary.hpp"

namespace zanj::report {

class VerifiedValues {
 public:
  VerifiedValues();
  ~VerifiedValues();
  VerifiedValues(const VerifiedValues&) = delete;
  VerifiedValues& operator=(const VerifiedValues&) = delete;

  /// Before verify runs: profile `member` as the values of `node` with `options`.
  void expect(const std::string& member, const ArrayNode& node, const ProfileOptions& options);
  /// For VerifyOptions::member_data (any thread): the sink of an expected member, else empty.
  std::function<void(std::string_view)> sink(const std::string& member);
  /// After verify: the profile of a member that arrived whole; nullopt otherwise (or when
  /// `broken`, verify having found a problem with it).
  std::optional<ArrayProfile> take(const std::string& member, bool broken);

 private:
  struct Member;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Member>> members_;
};

}  // namespace zanj::report
