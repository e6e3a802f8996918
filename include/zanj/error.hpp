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

/// Names the archive an Error is about: Error(InArchive{name}, "no such member").
struct InArchive {
  std::string name;
};

/// What went wrong, the archive it concerns when one does, and the exit status. what() is the
/// line main prints after "zanj: error: ": "ARCHIVE: REASON", or REASON alone.
class Error : public std::runtime_error {
 public:
  /// `exit` decides the process exit status when this error reaches main.
  explicit Error(std::string message, Exit exit = Exit::invalid)
      : std::runtime_error(message), reason_(std::move(message)), exit_(exit) {}
  Error(InArchive archive, std::string reason, Exit exit = Exit::invalid)
      : std::runtime_error(archive.name + ": " + reason),
        archive_(std::move(archive.name)),
        reason_(std::move(reason)),
        exit_(exit) {}

  Exit exit() const noexcept { return exit_; }
  int exit_code() const noexcept { return static_cast<int>(exit_); }
  /// The archive it concerns, as messages name it; "" when none was given.
  const std::string& archive() const noexcept { return archive_; }
  /// What went wrong, without the archive's name (a report that lists one archive's problems).
  const std::string& reason() const noexcept { return reason_; }
  /// The message as a report about archive `name` shows it: without the archive's name when it
  /// is `name` (the report names it already), else all of what().
  std::string message_in(std::string_view name) const { return archive_ == name ? reason_ : std::string(what()); }
  /// The same error said of `name`, unless it already names an archive (an error from deep in
  /// a reader that knew no archive gets the name of the one being read, once).
  Error in_archive(const std::string& name) const {
    return archive_.empty() ? Error(InArchive{name}, reason_, exit_) : *this;
  }

 private:
  std::string archive_;
  std::string reason_;
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
  MemberDataError(Kind kind, InArchive archive, std::string reason)
      : Error(std::move(archive), std::move(reason)), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

/// The name in `names` that `wrong` is most likely a typo of (a few edits away; a swap of two
/// neighbouring characters is one), or "" when none is: what "did you mean" suggests, for
/// subcommands, options and object paths alike.
std::string nearest_name(std::string_view wrong, const std::vector<std::string>& names);

}  // namespace zanj
