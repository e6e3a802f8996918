// A consumer of the installed zanj library: opens the archive named on the command line and
// prints its members, then the keys of its root object, one per line ("member NAME",
// "key NAME"). tests/e2e/test_install.py compares this with what Python's zipfile and json
// read from the same archive.
#include <cstdio>
#include <exception>

#include "zanj/zanj_file.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s ARCHIVE.zanj\n", argv[0]);
    return 2;
  }
  try {
    const zanj::ZanjFile file(argv[1]);
    for (const zanj::ZipEntry& entry : file.archive.entries()) std::printf("member %s\n", entry.name.c_str());
    if (file.root.is_object())
      for (const auto& [key, value] : file.root.as_object()) std::printf("key %s\n", key.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zanj_consumer: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
