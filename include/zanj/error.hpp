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

/// Names the ZIP member an Error is about, as stored (messages show it escaped).
struct InMember {
  std::string name;
  /// The reason names the member in its own words ("member 'x' is encrypted"), so what() adds
  /// no "member 'x': " of its own; the field is there all the same.
  bool named_in_reason = false;
};

/// Names the object path an Error is about ("/" for the root), and what is there as messages
/// call it: AtPath{"a/b"} reads "array 'a/b'".
struct AtPath {
  std::string path;
  std::string noun = "array";
};

/// What went wrong, the context it concerns (archive, object path, member: each optional)
/// and the exit status. what() is the line main prints after "zanj: error: ", composed from
/// the fields in one place (error.cpp):
///   [ARCHIVE ": "] [NOUN " '" PATH "': "] ["member '" MEMBER "': "] DETAIL
/// Callers that want the archive, member or path read the fields, never the text.
class Error : public std::runtime_error {
 public:
  /// `exit` decides the process exit status when this error reaches main.
  explicit Error(std::string message, Exit exit = Exit::invalid) : Error(Context{}, std::move(message), exit) {}
  Error(InArchive archive, std::string reason, Exit exit = Exit::invalid)
      : Error(Context{std::move(archive.name), {}, {}, {}, false}, std::move(reason), exit) {}
  Error(InMember member, std::string detail, Exit exit = Exit::invalid)
      : Error(Context{{}, {}, {}, std::move(member.name), member.named_in_reason}, std::move(detail), exit) {}
  Error(InArchive archive, InMember member, std::string detail, Exit exit = Exit::invalid)
      : Error(Context{std::move(archive.name), {}, {}, std::move(member.name), member.named_in_reason},
              std::move(detail), exit) {}
  Error(InArchive archive, AtPath at, std::string detail, Exit exit = Exit::invalid)
      : Error(Context{std::move(archive.name), std::move(at.path), std::move(at.noun), {}, false}, std::move(detail),
              exit) {}

  Exit exit() const noexcept { return exit_; }
  int exit_code() const noexcept { return static_cast<int>(exit_); }
  /// The archive it concerns, as messages name it; "" when none was given.
  const std::string& archive() const noexcept { return context_.archive; }
  /// The ZIP member it concerns, as stored; "" when none was given.
  const std::string& member() const noexcept { return context_.member; }
  /// The object path it concerns ("/" for the root); "" when none was given.
  const std::string& object_path() const noexcept { return context_.object_path; }
  /// What went wrong, without the archive's name (a report that lists one archive's problems):
  /// what() less its "ARCHIVE: ".
  const std::string& reason() const noexcept { return reason_; }
  /// What went wrong, without any of the context the fields hold.
  const std::string& detail() const noexcept { return detail_; }
  /// The message as a report about archive `name` shows it: without the archive's name when it
  /// is `name` (the report names it already), else all of what().
  std::string message_in(std::string_view name) const {
    return context_.archive == name ? reason_ : std::string(what());
  }
  /// The same error said of `name`, unless it already names an archive (an error from deep in
  /// a reader that knew no archive gets the name of the one being read, once).
  Error in_archive(const std::string& name) const;
  /// The same error said of `member`, unless it already names a member.
  Error in_member(InMember member) const;
  /// The same error said of the object at `at`, unless it already names an object path.
  Error at_path(AtPath at) const;

 private:
  struct Context {
    std::string archive, object_path, path_noun, member;
    bool member_named_in_reason = false;
  };
  Error(Context context, std::string detail, Exit exit);

  Context context_;
  std::string detail_;
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
  MemberDataError(Kind kind, InArchive archive, InMember member, std::string detail)
      : Error(std::move(archive), std::move(member), std::move(detail)), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

/// The name in `names` that `wrong` is most likely a typo of (a few edits away; a swap of two
/// neighbouring characters is one), or "" when none is: what "did you mean" suggests, for
/// subcommands, options and object paths alike.
std::string nearest_name(std::string_view wrong, const std::vector<std::string>& names);

}  // namespace zanj
