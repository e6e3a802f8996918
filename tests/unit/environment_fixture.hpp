#pragma once
// An Environment (remote/environment.hpp) read from a table the test writes, so no variable of
// the process running the tests (a developer's AWS_PROFILE, CI's HOME) reaches the code.
#include <map>
#include <string>
#include <utility>

#include "remote/environment.hpp"

namespace zanj::test {

inline zanj::remote::Environment environment_table(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    const auto it = values.find(name);
    return it == values.end() ? nullptr : it->second.c_str();
  };
}

}  // namespace zanj::test
