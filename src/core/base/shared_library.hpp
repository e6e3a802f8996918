#pragma once
// Libraries that only some inputs need, opened the first time one of them is asked for.
// A local `zanj info` must not pay for libcurl (URLs) or libcrypto (hashes): a library the
// executable names as NEEDED is mapped and relocated on every run, whether used or not
// (cmake/Settings.cmake has the measurements). So those libraries are not linked: the code
// that needs one calls SharedLibrary::load, then symbol<>() for each function, once, and keeps
// the pointers. Their headers are still used at compile time, for the types.
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.hpp"

namespace zanj::base {

class SharedLibrary {
 public:
  /// The first of `sonames` that dlopen opens (for example {"libcurl.so.4"}), opened once per
  /// process and never closed; later calls with the same first soname return the same object.
  /// Safe to call from several threads. Throws Error(`feature` + " needs " + soname + ": " +
  /// dlerror, Exit::usage) when none opens, so the user learns which package to install.
  static const SharedLibrary& load(std::string_view feature, std::initializer_list<const char*> sonames);
  /// The same, or why none opens (the message load throws): for a caller to whom a library
  /// that is not installed is an answer (--version).
  static Result<const SharedLibrary*> try_load(std::string_view feature, std::initializer_list<const char*> sonames);

  /// The function `name` as a pointer of type Function* (Function is a function type, for
  /// example decltype(curl_easy_init)). Throws Error(Exit::usage) naming the library and the
  /// symbol when it is missing (a library older than the one zanj was built against).
  template <class Function>
  Function* symbol(const char* name) const {
    return reinterpret_cast<Function*>(find_address(name).value_or_throw(Exit::usage));
  }
  /// The same, or why not (the message symbol<>() throws).
  template <class Function>
  Result<Function*> find_symbol(const char* name) const {
    const Result<void*> address = find_address(name);
    if (!address) return Failure{address.why()};
    return reinterpret_cast<Function*>(*address);
  }

  /// The soname that was opened.
  const std::string& soname() const { return soname_; }

 private:
  SharedLibrary(void* handle, std::string soname, std::string feature);
  Result<void*> find_address(const char* name) const;

  void* handle_;
  std::string soname_;
  std::string feature_;
};

/// The table of function pointers `open` makes (SharedLibrary::load, then symbol<>() for each),
/// made once per process and kept; safe from several threads. When `open` throws (the library
/// is missing or too old), every caller gets the error and the next one tries again. Not
/// std::call_once: libstdc++ runs its callable under pthread_once, through which an exception
/// cannot unwind, and the process aborted (`zanj --version` without libarchive installed).
/// `open` is a template argument so that each opener has a table of its own.
template <class Table, Table (*open)()>
const Table& load_table_once() {
  static std::mutex mutex;
  static std::optional<Table> table;
  const std::lock_guard lock(mutex);
  if (!table) table.emplace(open());
  return *table;
}

/// The same for an `open` that returns why it failed instead of throwing: the table, or why
/// it could not be made (the next call then tries again).
template <class Table, Result<Table> (*open)()>
Result<const Table*> try_load_table_once() {
  static std::mutex mutex;
  static std::optional<Table> table;
  const std::lock_guard lock(mutex);
  if (!table) {
    Result<Table> opened = open();
    if (!opened) return Failure{opened.why()};
    table.emplace(std::move(*opened));
  }
  return &*table;
}

}  // namespace zanj::base
