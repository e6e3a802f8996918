#pragma once
// The one error type the core throws. `main` catches it once, prints
// `zanj: error: <message>` and exits with exit_code().
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zanj {

/// Exit statuses shared by every subcommand (documented in zanj(1)).
enum class Exit : int {
  ok = 0,
  invalid = 1,  ///< the archive (or its data) is bad, or differs (diff)
  usage = 2,    ///< bad command line, unreadable path, could not run
};

class Error : public std::runtime_error {
 public:
  /// `exit` decides the process exit status when this error reaches main.
  explicit Error(std::string message, Exit exit = Exit::invalid)
      : std::runtime_error(std::move(message)), exit_(exit) {}

  Exit exit() const noexcept { return exit_; }
  int exit_code() const noexcept { return static_cast<int>(exit_); }

 private:
  Exit exit_;
};

/// A member's data is bad. Thrown by Archive reads (it is an Error like any other) so that
/// callers which report rather than stop (verify) can tell the failures apart.
class MemberDataError : public Error {
 public:
  enum class Kind {
    undecodable,   ///< the decompressor failed (corrupt stream, unsupported method)
    too_long,      ///< it inflates past its declared size (reading stopped there)
    too_short,     ///< it ends before its declared size
    crc_mismatch,  ///< the CRC-32 of its bytes differs from the declared one
  };
  MemberDataError(Kind kind, std::string message) : Error(std::move(message)), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

/// The name in `names` that `wrong` is most likely a typo of (a few edits away; a swap of two
/// neighbouring characters is one), or "" when none is: what "did you mean" suggests, for
/// subcommands, options and object paths alike.
std::string nearest_name(std::string_view wrong, const std::vector<std::string>& names);

}  // namespace zanj
