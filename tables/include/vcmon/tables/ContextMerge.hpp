// The ranks' calling contexts (tables::ContextRecord, docs/runtime.md, "Calling contexts")
// merged by path: two contexts of different ranks are one node when their paths of sites from
// the top are the same. Ranks are added one at a time, so a report of many ranks holds the
// merged tree, never every rank's contexts (docs/report.md, "The tree"); merges of consecutive
// blocks of ranks (vcmon-report's threads, the runtime's binomial tree of ranks: the job's
// summary, JobSummary.hpp) are then absorbed in rank order.
#pragma once

#include "vcmon/tables/Records.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace vcmon::tables {

class ContextMerge {
public:
  // One quantity over the ranks, added a rank at a time in rank order: enough for the report's
  // total, minimum, mean, maximum and its rank over every rank (report::RankStats), ranks without
  // the quantity counting as zero.
  struct Spread {
    double total = 0;
    double min = 0; // over the ranks that hold the context
    double max = 0;
    std::int32_t max_rank = -1;
    std::uint32_t holders = 0; // ranks holding the context
    // Inline: called for every context of every rank.
    void add(std::int32_t rank, double value) {
      min = holders == 0 ? value : std::min(min, value);
      ++holders;
      total += value;
      if (value > max) {
        max = value;
        max_rank = rank;
      }
    }
    // As if the ranks `later` holds, all after this spread's, had been added here one by one.
    void absorb(const Spread& later);
    bool operator==(const Spread&) const = default;
  };
  struct Node {
    std::uint32_t parent = 0; // the parent's index + 1; 0 at the top
    tables::SiteId site = tables::kNoSite;
    std::int32_t last_rank = -1; // the last rank added to it
    Spread time;                 // a comm statement's: transmission + sync delay
    double count = 0;            // summed over the ranks, as are the rest
    double untimed = 0;
    double iterations = 0;
    double transmission = 0;
    double sync_delay = 0;
    double bytes = 0;
    double folded = 0;
    bool operator==(const Node&) const = default;
  };

  // Adds one rank's contexts (listed parents first, as the profile holds them). Ranks come in
  // ascending order, each once. Returns the problem when a context names a site outside
  // `sites`, or repeats the path of another context of the same rank (the merge is then no
  // longer meaningful).
  std::optional<std::string>
  add_rank(std::int32_t rank, std::span<const tables::ContextRecord> contexts, std::size_t sites);
  // The same a piece at a time, as a rank is read: begin_rank, add_contexts with each piece
  // of its contexts in order, end_rank. A problem found in a piece is returned by end_rank
  // only, so that a reader's own error about the rank, found later, can come first.
  void begin_rank(std::int32_t rank, std::size_t sites);
  void add_contexts(std::span<const tables::ContextRecord> contexts);
  std::optional<std::string> end_rank();
  // Adds the ranks merged into `later`, which all come after this merge's ranks: the result is
  // the merge of all of them added one by one. Nodes first seen in `later` are appended in its
  // order (parents before children). The sums are the same whatever the grouping because the
  // values are integers (nanoseconds, counts, bytes) held exactly as doubles: every partial
  // sum is exact while the totals over all ranks stay below 2^53 (104 days of nanoseconds).
  void absorb(const ContextMerge& later);
  // The same for merged nodes alone (a job summary's, JobSummary.hpp), listed parents first.
  void absorb(std::span<const Node> later);

  bool empty() const { return nodes_.empty(); }
  std::span<const Node> nodes() const { return nodes_; }
  // The indices of the contexts under node `index` + 1 (0: the top), in the order first seen.
  std::vector<std::vector<std::uint32_t>> children() const;

private:
  // Where each of `later`'s nodes went.
  std::vector<std::uint32_t> absorb_nodes(std::span<const Node> later);

  std::vector<Node> nodes_;
  std::unordered_map<std::uint64_t, std::uint32_t> index_; // (parent + 1, site) -> node
  // The previous rank's context i was merged into node previous_[i]: ranks of one job mostly
  // list the same paths in the same order, so most contexts are found without hashing.
  std::vector<std::uint32_t> previous_;
  // The rank being added: its number, the program's sites, where its contexts so far went, and
  // the first problem found in them.
  std::int32_t rank_ = -1;
  std::size_t sites_ = 0;
  std::vector<std::uint32_t> mapped_;
  std::optional<std::string> problem_;
};

// A node's sums over the ranks (its spread of time aside), in the summary's encoding order.
template <> struct SumFields<ContextMerge::Node> {
  using Node = ContextMerge::Node;
  static constexpr auto kFields =
      std::tuple{&Node::count,      &Node::untimed, &Node::iterations, &Node::transmission,
                 &Node::sync_delay, &Node::bytes,   &Node::folded};
};

} // namespace vcmon::tables
