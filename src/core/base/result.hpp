#pragma once
// A value, or why there is none. For the parsers whose callers branch on failure (verify judges
// a dtype name it cannot read; diff and stats then compare or count without it): there a failure
// is an answer, and catching an exception to learn it would be control flow by exception. A
// caller that cannot go on turns the failure into the Error it would have been
// (value_or_throw).
#include <string>
#include <utility>
#include <variant>

#include "zanj/error.hpp"

namespace zanj::base {

/// Why a Result holds no value: the message an Error would carry.
struct Failure {
  std::string why;
};

/// `F` is what a failure holds: Failure, or a struct with a `why` and more for callers that
/// branch on the kind of failure too (JsonFailure, json/json_parse.hpp).
template <class T, class F = Failure>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit, as a return value
  Result(F failure) : state_(std::in_place_index<1>, std::move(failure)) {}  // NOLINT: likewise

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  /// The value; only when ok().
  const T& operator*() const { return std::get<0>(state_); }
  T& operator*() { return std::get<0>(state_); }
  const T* operator->() const { return &std::get<0>(state_); }
  /// Why there is no value; only when !ok().
  const std::string& why() const { return std::get<1>(state_).why; }
  /// The whole failure; only when !ok().
  const F& failure() const { return std::get<1>(state_); }
  /// The value, or the failure thrown as an Error with exit status `exit`.
  T value_or_throw(Exit exit = Exit::invalid) const {
    if (!ok()) throw Error(why(), exit);
    return std::get<0>(state_);
  }

 private:
  std::variant<T, F> state_;
};

}  // namespace zanj::base
