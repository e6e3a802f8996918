#pragma once
// The stable core of the zanj C++ API: opening an archive (archive.hpp), its JSON documents
// (json.hpp), the object tree and object paths (tree.hpp), arrays and slices (array.hpp),
// printing values (format.hpp), errors (error.hpp), resource limits (limits.hpp) and the
// version (version.hpp). These change only with the minor version while zanj is 0.x, and
// only compatibly (additions) after 1.0. The operations built on them (summary, verify, diff,
// hash, report, extract, pack, export and safe output files) return report structures whose
// fields may grow in any minor version; zanj.hpp includes both. docs/library.md says more.
#include "zanj/archive.hpp"
#include "zanj/array.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "zanj/tree.hpp"
#include "zanj/version.hpp"
