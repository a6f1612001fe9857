// A thread's calling-context tree (docs/runtime.md, "Calling contexts"): one node per path of
// sites from the thread's start (procedure, call statement, loop, communication statement),
// holding the exact counts and times of that path, where the per-site records sum all paths.
// Only the owning thread adds nodes and writes them; the profile reads them from another thread.
#pragma once

#include "core/PagedArray.hpp"
#include "vcmon/tables/Site.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

namespace vcmon::runtime {

struct ContextNode {
  std::uint32_t index = 0;  // in its tree
  std::uint32_t parent = 0; // the root is its own parent
  std::uint32_t site = tables::kNoSite;
  tables::SiteKind kind = tables::SiteKind::Procedure;
  // Owner thread only: a loop's activations open on this node that time it (time is charged
  // once when recursion re-enters the loop), and the child found last (most lookups repeat it).
  std::uint32_t timing = 0;
  ContextNode* last_child = nullptr;
  std::atomic<std::uint64_t> count{0};   // activations, executions, or operations
  std::atomic<std::uint64_t> time_ns{0}; // inclusive virtual time; a comm node's transmission
  std::atomic<std::uint64_t> untimed{0}; // procedure: throttled activations
  std::atomic<std::uint64_t> iterations{0};
  std::atomic<std::uint64_t> sync_delay_ns{0}; // communication statement
  std::atomic<std::uint64_t> bytes{0};
  // Activations whose context would have exceeded the tree's capacity, folded into this node:
  // their time is in this node's, their counts in the per-site records only.
  std::atomic<std::uint64_t> folded{0};
};

class ContextTree {
public:
  static constexpr std::uint32_t kRoot = 0;
  static constexpr unsigned kPageBits = 10;
  using Nodes = PagedArray<ContextNode, kPageBits, 4096>;
  static constexpr std::uint32_t kMaxCapacity = Nodes::kCapacity;

  ContextTree() = default;
  ContextTree(const ContextTree&) = delete;
  ContextTree& operator=(const ContextTree&) = delete;

  // Room for `capacity` nodes, the root included (at most kMaxCapacity). Before the owner's
  // first lookup; a tree reused by a later thread keeps its capacity and nodes.
  void reserve(std::uint32_t capacity);

  // The child of `parent` for `site`, added on its first entry; `parent` itself when the tree
  // is full (the caller folds the activation into it). O(1): the parent's last child, else
  // the open-addressing index, kept at most half full.
  ContextNode& child(ContextNode& parent, std::uint32_t site, tables::SiteKind kind) {
    ContextNode* last = parent.last_child;
    if (last != nullptr && last->site == site) [[likely]] {
      return *last;
    }
    return find_or_add(parent, site, kind);
  }

  ContextNode& root() { return *root_; }
  ContextNode& at(std::uint32_t index) { return *nodes_.find(index); }
  const ContextNode& at(std::uint32_t index) const { return *nodes_.find(index); }
  // Nodes [0, size()) are complete; any thread may read them.
  std::uint32_t size() const { return size_.load(std::memory_order_acquire); }
  std::uint32_t capacity() const { return capacity_; }

private:
  ContextNode& find_or_add(ContextNode& parent, std::uint32_t site, tables::SiteKind kind);

  Nodes nodes_;
  std::atomic<std::uint32_t> size_{0};
  ContextNode* root_ = nullptr; // kept apart: an activation at the top looks it up every time
  std::uint32_t capacity_ = 0;
  // Open addressing over (parent, site): node index + 1, 0 when empty. calloc'd, so pages the
  // tree never reaches are never touched.
  struct FreeIndex {
    void operator()(std::uint32_t* index) const;
  };
  std::unique_ptr<std::uint32_t[], FreeIndex> index_;
  std::uint32_t index_mask_ = 0;
};

} // namespace vcmon::runtime
