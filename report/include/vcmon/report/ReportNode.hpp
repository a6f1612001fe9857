// One node of the top-down tree (docs/design.md, "The report"): the program, a procedure
// activation, a loop, a communication statement or one of its partners.
#pragma once

#include "vcmon/report/RankStats.hpp"
#include "vcmon/tables/Site.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcmon::report {

enum class NodeKind : std::uint8_t { Program, Procedure, Loop, Comm, Partner };

const char* to_string(NodeKind kind);

// Transmission and synchronisation delay of a communication statement or partner.
struct CommBreakdown {
  double transmission_ns = 0;
  double sync_delay_ns = 0;
  double bytes = 0;

  // Each quantity over `ranks`, as the tree's time columns are.
  CommBreakdown mean_over(std::size_t ranks) const;
};

struct ReportNode {
  std::uint32_t id = 0; // preorder number in the full tree; stable under filtering
  NodeKind kind = NodeKind::Program;
  tables::SiteId site = tables::kNoSite;      // the procedure, loop or comm site
  tables::SiteId call_site = tables::kNoSite; // Procedure: the call that activated it
  std::string name;                           // procedure, MPI function, "loop", "rank 3"
  tables::SourcePos pos;
  std::optional<tables::SourcePos> call_pos;
  // Partner only: a rank, tables::ComRecord::kCollective, or kOtherPartners for the sum of
  // the partners not listed one by one.
  std::int32_t partner = 0;
  static constexpr std::int32_t kOtherPartners = -2;

  RankStats time;        // inclusive virtual time, ns
  double count = 0;      // executions (activations, loop runs, messages) over the ranks
  double iterations = 0; // Loop only
  // Procedure only: activations among `count` whose time is not measured (throttled): their
  // time is in the parent's self time.
  double untimed = 0;
  // Activations folded into this calling context (beyond VCMON_MAX_CONTEXTS or the activation
  // stack's depth), summed over the ranks: their time is in this node's. Profiles before
  // format 6: 0.
  double folded = 0;
  double percent = 0; // time.total over the program's total
  // Time this node accounts for in its parent: its own time, except for a recursive node,
  // whose time is already part of the enclosing activation and which accounts only for what
  // its children add (docs/design.md, "Mutual recursion is charged per procedure"), and for
  // a node outside main, which adds nothing.
  double counted_ns = 0;
  // Time not spent in any child, summed over the ranks: time.total minus the children's
  // counted_ns (0 for a recursive node). Negative only when the children's records exceed the
  // node's own, which the tree's invariant forbids and the report shows rather than hides.
  double self_ns = 0;
  double self_mean_ns = 0;           // self_ns over the reported ranks: the self column
  std::optional<CommBreakdown> comm; // summed over the ranks

  // A call from inside its own recursive component: shown once, never added again.
  bool recursive = false;
  // A procedure entered from outside the program other than main (a thread's body started by
  // pthread_create, a callback from uninstrumented code): its time ran beside main or inside
  // it, so the program node does not add it (counted_ns 0).
  bool outside_main = false;
  // Records are per site, not per calling context: when a procedure is activated from several
  // call sites its inner sites are split in proportion to each activation's time.
  bool apportioned = false;
  // A statement reached along several calling contexts: its partners are records per site,
  // not per context, so none are listed under it (the statements section and the matrix have
  // them) and its time is its self time.
  bool partners_elsewhere = false;
  // A counted loop (tables::SiteProbing::Counted): executions and iterations only, its time
  // being part of its enclosing loop's.
  bool counted_only = false;

  std::vector<std::uint32_t> children; // indices into ReportTree::nodes()
};

} // namespace vcmon::report
