#include "core/ContextTree.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>

namespace vcmon::runtime {

void ContextTree::FreeIndex::operator()(std::uint32_t* index) const {
  std::free(index);
}

void ContextTree::reserve(std::uint32_t capacity) {
  if (index_ != nullptr) {
    return;
  }
  capacity_ = std::clamp<std::uint32_t>(capacity, 1, kMaxCapacity);
  const std::uint32_t slots = std::bit_ceil(2 * capacity_);
  auto* index = static_cast<std::uint32_t*>(std::calloc(slots, sizeof(std::uint32_t)));
  if (index == nullptr) {
    throw std::bad_alloc();
  }
  index_.reset(index);
  index_mask_ = slots - 1;
  root_ = nodes_.get(kRoot); // no site, its own parent
  size_.store(1, std::memory_order_release);
}

ContextNode& ContextTree::find_or_add(ContextNode& parent, std::uint32_t site,
                                      tables::SiteKind kind) {
  // Fibonacci hashing of (parent, site); linear probing ends at an empty slot, which a table
  // at most half full always has.
  const std::uint64_t key = (std::uint64_t{parent.index} << 32) | site;
  std::uint32_t slot =
      static_cast<std::uint32_t>((key * 0x9E37'79B9'7F4A'7C15ull) >> 32) & index_mask_;
  for (;; slot = (slot + 1) & index_mask_) {
    const std::uint32_t entry = index_[slot];
    if (entry == 0) {
      break;
    }
    ContextNode& candidate = at(entry - 1);
    if (candidate.parent == parent.index && candidate.site == site) {
      parent.last_child = &candidate;
      return candidate;
    }
  }
  const std::uint32_t added = size_.load(std::memory_order_relaxed);
  if (added == capacity_) [[unlikely]] {
    return parent;
  }
  // A new page, when one is needed, is allocated here: once per 2^kPageBits new contexts.
  ContextNode& node = *nodes_.get(added);
  node.index = added;
  node.parent = parent.index;
  node.site = site;
  node.kind = kind;
  index_[slot] = added + 1;
  size_.store(added + 1, std::memory_order_release);
  parent.last_child = &node;
  return node;
}

} // namespace vcmon::runtime
