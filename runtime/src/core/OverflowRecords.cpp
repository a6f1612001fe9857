#include "core/OverflowRecords.hpp"

namespace vcmon::runtime {

OverflowRecords::OverflowRecords(std::uint32_t capacity)
    : entries_(new Entry[capacity]), mask_(capacity - 1) {}

OverflowRecords::Entry* OverflowRecords::find_or_claim(std::uint32_t site, std::uint32_t key) {
  const std::uint64_t full_key = std::uint64_t{site} << 32 | key;
  // Fibonacci hashing spreads consecutive sites and ranks over the table.
  std::size_t index = static_cast<std::size_t>((full_key * 0x9E37'79B9'7F4A'7C15u) >> 32) & mask_;
  for (unsigned probe = 0; probe < kMaxProbes; ++probe, index = (index + 1) & mask_) {
    Entry& entry = entries_[index];
    std::uint64_t current = entry.key.load(std::memory_order_acquire);
    if (current == Entry::kEmpty &&
        entry.key.compare_exchange_strong(current, full_key, std::memory_order_acq_rel)) {
      return &entry;
    }
    if (current == full_key) {
      return &entry;
    }
  }
  dropped_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

} // namespace vcmon::runtime
