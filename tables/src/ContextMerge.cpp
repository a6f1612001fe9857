#include "vcmon/tables/ContextMerge.hpp"

#include <algorithm>

namespace vcmon::tables {

void ContextMerge::Spread::absorb(const Spread& later) {
  if (later.holders == 0) {
    return;
  }
  min = holders == 0 ? later.min : std::min(min, later.min);
  holders += later.holders;
  total += later.total;
  // Strictly greater, as add: on a tie the earlier rank, which is this spread's, keeps it.
  if (later.max > max) {
    max = later.max;
    max_rank = later.max_rank;
  }
}

std::optional<std::string> ContextMerge::add_rank(std::int32_t rank,
                                                  std::span<const tables::ContextRecord> contexts,
                                                  std::size_t sites) {
  begin_rank(rank, sites);
  add_contexts(contexts);
  return end_rank();
}

void ContextMerge::begin_rank(std::int32_t rank, std::size_t sites) {
  rank_ = rank;
  sites_ = sites;
  mapped_.clear();
  problem_.reset();
}

void ContextMerge::add_contexts(std::span<const tables::ContextRecord> contexts) {
  if (problem_) {
    return;
  }
  for (const tables::ContextRecord& c : contexts) {
    const std::size_t i = mapped_.size();
    if (c.site >= sites_ || c.parent > i) {
      problem_ = "rank " + std::to_string(rank_) + ": context " + std::to_string(i) + " names " +
                 (c.site >= sites_ ? "site " + std::to_string(c.site)
                                   : "parent context " + std::to_string(c.parent)) +
                 ", which the profile does not have";
      return;
    }
    const std::uint32_t parent = c.parent == 0 ? 0 : mapped_[c.parent - 1] + 1;
    std::uint32_t node = 0;
    if (i < previous_.size() && nodes_[previous_[i]].site == c.site &&
        nodes_[previous_[i]].parent == parent) {
      node = previous_[i];
    } else {
      const auto [found, added] = index_.try_emplace(tables::context_path_key(parent, c.site),
                                                     static_cast<std::uint32_t>(nodes_.size()));
      node = found->second;
      if (added) {
        Node added_node;
        added_node.parent = parent;
        added_node.site = c.site;
        nodes_.push_back(added_node);
      }
    }
    Node& n = nodes_[node];
    if (n.last_rank == rank_) {
      problem_ = "rank " + std::to_string(rank_) + ": context " + std::to_string(i) +
                 " repeats the path of an earlier context (site " + std::to_string(c.site) + ")";
      return;
    }
    n.last_rank = rank_;
    const auto time = static_cast<double>(c.time_ns);
    const auto sync = static_cast<double>(c.sync_delay_ns);
    n.count += static_cast<double>(c.count);
    n.untimed += static_cast<double>(c.untimed);
    n.iterations += static_cast<double>(c.iterations);
    n.transmission += time;
    n.sync_delay += sync;
    n.bytes += static_cast<double>(c.bytes);
    n.folded += static_cast<double>(c.folded);
    mapped_.push_back(node);
    // The record's time is a comm statement's transmission; its spread is transmission + delay
    // (a procedure's or loop's delay is 0).
    n.time.add(rank_, time + sync);
  }
}

std::optional<std::string> ContextMerge::end_rank() {
  if (problem_) {
    return problem_;
  }
  previous_.swap(mapped_);
  return std::nullopt;
}

void ContextMerge::absorb(const ContextMerge& later) {
  const std::vector<std::uint32_t> placed = absorb_nodes(later.nodes_);
  // The next rank added looks for its contexts first where `later`'s last rank's went.
  previous_.resize(later.previous_.size());
  for (std::size_t i = 0; i < previous_.size(); ++i) {
    previous_[i] = placed[later.previous_[i]];
  }
}

void ContextMerge::absorb(std::span<const Node> later) {
  absorb_nodes(later);
}

std::vector<std::uint32_t> ContextMerge::absorb_nodes(std::span<const Node> later) {
  std::vector<std::uint32_t> placed(later.size()); // later's node i is node placed[i]
  for (std::size_t i = 0; i < later.size(); ++i) {
    const Node& from = later[i];
    const std::uint32_t parent = from.parent == 0 ? 0 : placed[from.parent - 1] + 1;
    const auto [found, added] = index_.try_emplace(tables::context_path_key(parent, from.site),
                                                   static_cast<std::uint32_t>(nodes_.size()));
    if (added) {
      Node added_node;
      added_node.parent = parent;
      added_node.site = from.site;
      nodes_.push_back(added_node);
    }
    Node& n = nodes_[found->second];
    n.last_rank = from.last_rank;
    n.time.absorb(from.time);
    add_sums(n, from);
    placed[i] = found->second;
  }
  return placed;
}

std::vector<std::vector<std::uint32_t>> ContextMerge::children() const {
  std::vector<std::vector<std::uint32_t>> children(nodes_.size() + 1);
  for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
    children[nodes_[i].parent].push_back(i);
  }
  return children;
}

} // namespace vcmon::tables
