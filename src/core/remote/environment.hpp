#pragma once
// How the remote code reads environment variables: through a function passed in (std::getenv
// in the program, a table in the tests), never by reaching for the process's own.
#include <functional>
#include <initializer_list>
#include <string>

namespace zanj::remote {

/// Looks environment variables up; std::getenv in the program, a table in the tests.
using Environment = std::function<const char*(const char* name)>;

/// The variable's value, or "" when it is not set.
inline std::string variable(const Environment& environment, const char* name) {
  const char* value = environment(name);
  return value ? std::string(value) : std::string();
}

/// The value of the first of `names` that is set and not empty, or "".
inline std::string first_set(const Environment& environment, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (std::string value = variable(environment, name); !value.empty()) return value;
  return {};
}

}  // namespace zanj::remote
