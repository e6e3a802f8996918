#pragma once
// The frame both report pages share: the document head with the inline style sheet (light and
// dark colours through prefers-color-scheme), and the end with the one small inline script.
// The script only collapses the object tree below a depth and filters it by a search box;
// without it the page is complete, tree expanded. Nothing refers to any URL.
#include <string>
#include <string_view>

namespace zanj::report {

/// "<!DOCTYPE html>... <body><header><h1>`heading`</h1>" (heading and title escaped here); the
/// head holds the style sheet and the script.
void open_page(std::string& out, std::string_view title, std::string_view heading);
/// The search box for the tree that follows (hidden until the script shows it).
void tree_search_box(std::string& out);
/// The footer, then "</body></html>".
void close_page(std::string& out);

}  // namespace zanj::report
