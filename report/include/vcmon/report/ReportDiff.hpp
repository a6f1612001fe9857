// Two reports compared: A (before) against B (after), per tree node and per communication
// statement, with A's value, B's value, delta = B - A and ratio = B / A (docs/report.md,
// "Comparing two runs"). Tree nodes are matched by their path from the program, each step named
// by kind, name and source positions, never by site ids, which differ between builds.
#pragma once

#include "vcmon/report/Report.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcmon::report {

// One quantity in both runs. A value missing from a run (a node only in the other) is 0.
struct DiffValue {
  double a = 0;
  double b = 0;
  double delta() const { return b - a; }
  // B / A; empty when A is 0 (the ratio is undefined), 1 when both are 0.
  std::optional<double> ratio() const;
};

enum class DiffPresence : std::uint8_t { Both, OnlyA, OnlyB };

const char* to_string(DiffPresence presence); // "both", "only in A", "only in B"

struct DiffNode {
  NodeKind kind = NodeKind::Program;
  std::string name; // the node's name in the run that has it (B's when both do)
  // The matching key of each step from the program (excluded) down to this node:
  // "main", "p4@fig12.c:14", "loop@fig12.c:13", "MPI_Recv@fig12.c:12", "rank 3".
  std::vector<std::string> path;
  std::uint32_t depth = 0; // 0 for the program
  DiffPresence presence = DiffPresence::Both;
  // Means over each run's reported ranks, as the report's columns.
  DiffValue inclusive_ns; // the report's `mean`
  DiffValue self_ns;      // the report's `self`
  DiffValue count;        // the report's count(sum) over the reported ranks: a mean per rank
  double percent_a = 0, percent_b = 0; // of each run's program time
  // Statements and partners only: transmission and synchronisation delay, means over the ranks.
  std::optional<DiffValue> transmission_ns;
  std::optional<DiffValue> sync_delay_ns;

  std::string path_text() const; // the path joined by " > "; "program" for the root
};

// A communication statement over every context it ran in, matched by MPI function and position.
struct DiffStatement {
  std::string name; // the MPI function
  tables::SourcePos pos;
  DiffPresence presence = DiffPresence::Both;
  // Means over each run's reported ranks.
  DiffValue time_ns; // transmission + sync delay
  DiffValue transmission_ns;
  DiffValue sync_delay_ns;
  DiffValue count;
};

// What rows are sorted by: |delta| of the inclusive time (default) or of the self time.
enum class DiffOrder : std::uint8_t { Inclusive, Self };

struct DiffOptions {
  DiffOrder order = DiffOrder::Inclusive;
  // Shown levels below the program node (--depth): deeper nodes are left out.
  std::optional<std::uint32_t> depth;
  // Leave out nodes and statements below this share of the program's time in both runs.
  double threshold_percent = 0;
};

struct ReportDiff {
  std::string name_a = "A", name_b = "B"; // how the renderers name the runs (their files)
  // Each run: what ran, on how many ranks (run and reported), its program time.
  ReportHeader header_a, header_b;
  DiffOptions options;
  std::vector<DiffNode> nodes;           // by |delta| descending (DiffOptions::order)
  std::vector<DiffStatement> statements; // by |delta| of time_ns descending
};

// Compares two reports built without --depth, --threshold or --site (those hide nodes, which
// would then look absent from one run); `options` filters the comparison instead. Ties in
// |delta| put the deeper node first (the most specific node accounting for the change), then
// the path in order; unchanged nodes keep the tree's order (A's preorder, then B's new nodes).
ReportDiff diff_reports(const Report& a, const Report& b, const DiffOptions& options = {});

} // namespace vcmon::report
