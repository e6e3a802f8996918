// verify's reports in the forms CI systems read: JUnit XML (GitLab, Jenkins, Azure Pipelines)
// and GitHub Actions workflow commands. Both are built from the same VerifyReport the text and
// --json outputs print, so every format names the same problems with the same codes.
#include <string>
#include <string_view>

#include "zanj/format.hpp"  // terminal_safe
#include "zanj/verify.hpp"

namespace zanj {
namespace {

/// Text as XML 1.0 character data or an attribute value. terminal_safe first: XML 1.0 cannot
/// carry most control characters at all (not even as references) nor invalid UTF-8, and the
/// text is shown to people, so they are written `\xNN` as on a terminal. Newlines and tabs are
/// kept in element text and written as references in attributes, where a parser would
/// otherwise turn them into spaces.
std::string xml_escaped(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string xml_text(std::string_view text, bool attribute) {
  std::string out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t line_end = rest.find_first_of("\n\t");
    out += xml_escaped(terminal_safe(rest.substr(0, line_end)));
    if (line_end == std::string_view::npos) break;
    // The references are added after escaping, so their '&' stays a reference.
    out += attribute ? (rest[line_end] == '\n' ? "&#10;" : "&#9;") : std::string(1, rest[line_end]);
    rest.remove_prefix(line_end + 1);
  }
  return out;
}

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xml_text(value, true) + "\"";
}

/// "MEMBER (at PATH): MESSAGE", as verify's text lines say it (without the severity and code).
std::string problem_text(const Problem& p) {
  std::string where = p.member;
  if (!p.path.empty()) where += (where.empty() ? "at " : " (at ") + p.path + (where.empty() ? "" : ")");
  return (where.empty() ? "" : where + ": ") + p.message;
}

std::string failure_element(const Problem& p, std::string_view severity) {
  std::string body = std::string(severity) + " [" + p.code + "]";
  if (!p.member.empty()) body += "\nmember: " + p.member;
  if (!p.path.empty()) body += "\npath: " + p.path;
  body += "\n" + p.message;
  return "      <failure" + attribute("type", p.code) + attribute("message", "[" + p.code + "] " + problem_text(p)) +
         ">" + xml_text(body, false) + "</failure>\n";
}

std::string testcase(const VerifyOutcome& outcome, bool strict) {
  std::string out = "    <testcase" + attribute("classname", "zanj.verify") + attribute("name", outcome.file) +
                    attribute("file", outcome.file) + attribute("time", "0");
  if (!outcome.report) {
    return out + ">\n      <error" + attribute("type", "unreadable") + attribute("message", outcome.error) + ">" +
           xml_text(outcome.error, false) + "</error>\n    </testcase>\n";
  }
  const VerifyReport& report = *outcome.report;
  std::string children;
  for (const Problem& p : report.errors) children += failure_element(p, "error");
  std::string warnings;
  for (const Problem& p : report.warnings) {
    if (strict)
      children += failure_element(p, "warning");
    else
      warnings += "warning [" + p.code + "] " + problem_text(p) + "\n";
  }
  if (!warnings.empty()) children += "      <system-out>" + xml_text(warnings, false) + "</system-out>\n";
  return out + (children.empty() ? "/>\n" : ">\n" + children + "    </testcase>\n");
}

/// Workflow command data: GitHub's runner decodes %25, %0D and %0A (actions/toolkit's
/// escapeData); property values also %3A and %2C (escapeProperty), since ':' ends the
/// properties and ',' separates them. Then terminal_safe: the log is shown as text.
std::string github_escape(std::string_view text, bool property) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return terminal_safe(out);
}

std::string github_command(std::string_view command, std::string_view file, std::string_view title,
                           std::string_view message) {
  std::string out = "::" + std::string(command);
  std::string properties;
  if (!file.empty() && file != "-") properties += "file=" + github_escape(file, true);
  if (!title.empty()) properties += (properties.empty() ? "title=" : ",title=") + github_escape(title, true);
  if (!properties.empty()) out += " " + properties;
  return out + "::" + github_escape(message, false) + "\n";
}

}  // namespace

std::string junit_xml(const std::vector<VerifyOutcome>& outcomes, bool strict) {
  std::size_t failures = 0, errors = 0;
  for (const VerifyOutcome& o : outcomes) {
    if (!o.report)
      ++errors;
    else if (!o.report->ok(strict))
      ++failures;
  }
  const std::string counts = attribute("tests", std::to_string(outcomes.size())) +
                             attribute("failures", std::to_string(failures)) +
                             attribute("errors", std::to_string(errors));
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attribute("name", "zanj verify") +
                    counts + ">\n  <testsuite" + attribute("name", "zanj verify") + counts + attribute("skipped", "0") +
                    ">\n";
  for (const VerifyOutcome& o : outcomes) out += testcase(o, strict);
  return out + "  </testsuite>\n</testsuites>\n";
}

std::string github_annotations(const VerifyOutcome& outcome, bool strict) {
  if (!outcome.report) return github_command("error", outcome.file, "zanj verify", outcome.error);
  std::string out;
  for (const Problem& p : outcome.report->errors)
    out += github_command("error", outcome.file, "zanj verify [" + p.code + "]", problem_text(p));
  for (const Problem& p : outcome.report->warnings)
    out += github_command(strict ? "error" : "warning", outcome.file, "zanj verify [" + p.code + "]", problem_text(p));
  return out;
}

}  // namespace zanj
