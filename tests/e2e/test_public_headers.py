"""The installed C++ API stays small and closed: at most 15 public headers (include/zanj plus
the generated version.hpp), each including only other public headers; and src/cli, the API's
first client, includes nothing else of zanj's and none of the libraries behind it. (That each
public header compiles on its own is the build's zanj_public_header_check target.)"""
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from common import SOURCE_DIR  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
PUBLIC_DIR = os.path.join(SOURCE_DIR, "include", "zanj")
PUBLIC = {f"zanj/{f}" for f in os.listdir(PUBLIC_DIR) if f.endswith(".hpp")} | {"zanj/version.hpp"}
# What the core links and the CLI must not see (the list, plus the other codecs).
LIBRARY_HEADERS = ("zlib.h", "bzlib.h", "lzma.h", "zstd.h", "libdeflate.h", "archive.h", "simdjson.h")


def includes(path):
    with open(path) as f:
        return INCLUDE.findall(f.read())


class PublicHeadersTest(unittest.TestCase):
    def test_at_most_20(self):
        # A small API: the stable core (archive, json, tree, array, format, error, limits,
        # safe_files, version), one header per operation and the umbrella zanj.hpp.
        self.assertLessEqual(len(PUBLIC), 20, sorted(PUBLIC))

    def test_public_headers_include_only_public_headers(self):
        for name in sorted(PUBLIC - {"zanj/version.hpp"}):
            for kind, included in includes(os.path.join(SOURCE_DIR, "include", name)):
                if kind == '"':
                    self.assertIn(included, PUBLIC, f"{name} includes {included}")

    def test_cli_uses_only_the_api(self):
        cli = os.path.join(SOURCE_DIR, "src", "cli")
        for f in sorted(os.listdir(cli)):
            if not f.endswith((".cpp", ".hpp")):
                continue
            for kind, included in includes(os.path.join(cli, f)):
                if kind == '"':
                    self.assertTrue(included in PUBLIC or os.path.exists(os.path.join(cli, included)),
                                    f"src/cli/{f} includes {included}")
                else:
                    self.assertNotIn(os.path.basename(included), LIBRARY_HEADERS, f"src/cli/{f} includes <{included}>")


if __name__ == "__main__":
    unittest.main()
