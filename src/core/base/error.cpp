// zanj::Error's message, composed from its fields in this one place (include/zanj/error.hpp).
#include "zanj/error.hpp"

#include <string>
#include <utility>

#include "base/utf8.hpp"

namespace zanj {

namespace {

/// Everything but the archive: "NOUN 'PATH': member 'MEMBER': DETAIL", each part when known.
template <class Context>
std::string compose_reason(const Context& c, const std::string& detail) {
  std::string out;
  if (!c.object_path.empty()) out += c.path_noun + " '" + c.object_path + "': ";
  if (!c.member.empty() && !c.member_named_in_reason) out += "member '" + terminal_safe(c.member) + "': ";
  return out + detail;
}

std::string with_archive(const std::string& archive, std::string reason) {
  if (archive.empty()) return reason;
  return archive + ": " + reason;
}

}  // namespace

Error::Error(Context context, std::string detail, Exit exit)
    : std::runtime_error(with_archive(context.archive, compose_reason(context, detail))),
      context_(std::move(context)),
      detail_(std::move(detail)),
      reason_(compose_reason(context_, detail_)),
      exit_(exit) {}

Error Error::in_archive(const std::string& name) const {
  if (!context_.archive.empty()) return *this;
  Context c = context_;
  c.archive = name;
  return Error(std::move(c), detail_, exit_);
}

Error Error::in_member(InMember member) const {
  if (!context_.member.empty()) return *this;
  Context c = context_;
  c.member = std::move(member.name);
  c.member_named_in_reason = member.named_in_reason;
  return Error(std::move(c), detail_, exit_);
}

Error Error::at_path(AtPath at) const {
  if (!context_.object_path.empty()) return *this;
  Context c = context_;
  c.object_path = std::move(at.path);
  c.path_noun = std::move(at.noun);
  return Error(std::move(c), detail_, exit_);
}

}  // namespace zanj
