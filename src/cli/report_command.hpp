#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj report FILE [-o OUT.html]` and `zanj report OLD NEW [-o OUT.html]`: a self-contained
/// HTML page of one archive, or of what differs between two.
Command setup_report(CLI::App& parent);
}  // namespace zanj::cli
