#pragma once
// What the manual and the completions read from CLI11's model of an option: whether it takes a
// value, the placeholder the man page shows for it, its choices, and what kind of word its
// value is. Kept in one place so that both read an option the same way.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace zanj::cli {

bool takes_value(const CLI::Option& option);

/// The placeholder of an option's value as the man page shows it: the option text it was given
/// (`WHEN`), else its choices (`text|json`), else its type name without the checks CLI11
/// appends (`N:POSITIVE` -> `N`; a quoted name such as `'NAME: VALUE'` is kept whole).
std::string value_name(const CLI::Option& option);

/// The values an IsMember check allows ({auto,always,never}), in its order; empty for any value.
std::vector<std::string> value_choices(const CLI::Option& option);

/// What a value or positional argument names, by its placeholder: a positional FILE, A, B or
/// NEW is an archive, and PATH or SELECTOR an object path in it; an OUT.zanj value is an
/// archive; FILE, OUT, LOCK and INPUT name files, DIR a directory.
enum class ValueKind { other, archive, object_path, file, directory };
ValueKind value_kind(const CLI::Option& option);

/// The options with names (-x, --long), in the order they were added; and the positional
/// arguments, in the order they are read.
std::vector<const CLI::Option*> named_options(const CLI::App& app);
std::vector<const CLI::Option*> positional_arguments(const CLI::App& app);

}  // namespace zanj::cli
