// Checkers for the three export formats, each written from the format's own documentation
// (docs/report.md, "Exports", cites them): Hatchet's literal format (hatchet.readers.
// LiteralReader and docs/examples/read/dag_literal.py), speedscope's file format
// (file-format-schema.json, src/lib/file-format-spec.ts) and folded stacks as flamegraph.pl
// reads them. Each returns the problems it finds, empty when the input conforms.
#pragma once

#include "vcmon/report/Report.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vcmon::report::testing {

using Json = nlohmann::ordered_json;

std::string render_hatchet(const Report& report);
std::string render_speedscope(const Report& report);
std::string render_folded(const Report& report);

// Structure and types of every node, the same metrics on every node, and the invariants
// time (inc) = time + children's time (inc) and bytes (inc) = bytes + children's bytes (inc),
// exactly as written.
std::vector<std::string> hatchet_problems(const Json& literal);

// The schema's required fields, types and enumerations, frame indices in range, as many weights
// as samples, and endValue - startValue = the sum of the weights (every weight positive).
std::vector<std::string> speedscope_problems(const Json& file);

struct FoldedLine {
  std::vector<std::string> frames;
  std::int64_t value = 0;
};
// Parses folded stacks the way flamegraph.pl does (`^(.*)\s+?(\d+(?:\.\d*)?)$`, then the same
// again on the stack for a differential's second count), adding a problem for every line it
// would ignore or read as a differential, every empty frame or frame holding white space, and
// every value that is not a positive integer.
std::vector<FoldedLine> parse_folded(const std::string& text, std::vector<std::string>& problems);

// A node of a Hatchet literal, flattened in preorder with its path of frame names.
struct HatchetNode {
  std::string path; // frame names joined by ';'
  std::string name, type;
  std::int64_t inclusive = 0, exclusive = 0, bytes_inclusive = 0, bytes_exclusive = 0;
  double count = 0;
  std::size_t depth = 0;
  std::size_t children = 0;
};
std::vector<HatchetNode> flatten_hatchet(const Json& literal);

} // namespace vcmon::report::testing
