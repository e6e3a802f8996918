// A small program against the zanj C++ API: list an archive's members and object tree, then
// print one slice of one array as JSON.
//
//   list_and_slice ARCHIVE [PATH[SLICE]]      e.g. list_and_slice model.zanj 'weights[0:2, :5]'
//
// Without PATH it prints the first three entries along the first axis of the first array.
#include <cstdio>
#include <string>

#include "zanj/zanj.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s ARCHIVE [PATH[SLICE]]\n", argv[0]);
    return 2;
  }
  try {
    const zanj::ZanjFile file(argv[1]);  // the ZIP directory and the two JSON documents

    std::printf("members:\n");
    for (const zanj::ZipEntry& entry : file.archive().entries())
      std::printf("  %s\t%llu\n", zanj::terminal_safe(entry.name).c_str(),
                  static_cast<unsigned long long>(entry.uncompressed_size));

    std::printf("tree:\n");
    std::string first_array;
    // As `zanj ls` walks it: on into the rows of external lists whose rows are dicts or lists
    // (a list of dataclasses stored as a .jsonl member), not into tables' rows.
    zanj::RowWalkOptions rows;
    rows.tables = false;
    rows.scalar_rows = false;
    zanj::walk_tree_with_rows(
        file, file.root(), {},
        [&](const zanj::TreeVisit& visit) {
          std::string line = "  " + (visit.path().empty() ? std::string("/") : visit.path()) + "\t" +
                             std::string(zanj::kind_name(visit.node.kind));
          if (const auto& array = visit.node.array) {
            std::string shape;
            for (auto n : array->shape) shape += (shape.empty() ? "" : ", ") + std::to_string(n);
            line += "\t" + zanj::terminal_safe(array->dtype) + "\t[" + shape + "]\t" +
                    (array->external() ? "external " + zanj::terminal_safe(array->member) : std::string("inline"));
            if (first_array.empty()) first_array = visit.path() + (array->shape.empty() ? "" : "[:3]");
          }
          std::printf("%s\n", line.c_str());
          return !zanj::is_scalar_list(visit.node.json);  // list the elements of structured lists only
        },
        rows);

    // PATH[SLICE]: an object path as `zanj ls` prints it, then an optional numpy slice.
    const std::string wanted = argc == 3 ? argv[2] : first_array;
    if (wanted.empty()) return 0;  // no arrays
    const zanj::NodeTarget target = zanj::parse_node_target(file.root(), wanted);
    const zanj::FoundNode found = zanj::find_node_in_rows(file, target);  // a path may go into rows
    const zanj::Node node = zanj::classify(found.json);
    if (!node.array)
      throw zanj::Error("'" + target.path + "' is a " + std::string(zanj::kind_name(node.kind)) + ", not an array");

    const zanj::ArrayValues values(file.archive(), *node.array, target.path);
    const zanj::Selection selection = target.slice.empty()
                                          ? zanj::select_all(values.shape())
                                          : zanj::select(zanj::parse_slice(target.slice), values.shape());
    std::printf("slice %s:\n", zanj::terminal_safe(wanted).c_str());
    std::fflush(stdout);
    zanj::OutputBuffer out([](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); });
    zanj::ArrayPrintOptions json;
    json.format = zanj::ValueFormat::json;
    zanj::print_array(values, selection, json, out);  // streamed: only the selected values are read
    out.flush();
    return 0;
  } catch (const zanj::Error& e) {
    std::fprintf(stderr, "list_and_slice: %s\n", zanj::terminal_safe(e.what()).c_str());
    return e.exit_code();
  }
}
