// Where each (source, tag) search of one CompletionOrder attempt resumes in a StampInbox
// (docs/deadlock.md, "How the runtime uses it", completion order): an open-addressing table keyed
// by the pair, emptied in O(1) by starting a new generation. Once grown to the largest call's size
// it neither allocates nor clears slot by slot, so a Waitany loop over thousands of requests stays
// O(1) per request and allocation-free, as the PMPI hot paths must be.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

class ResumePoints {
public:
  // Empties the table for at most `keys` distinct keys until the next reset; grows it (the only
  // allocation) when it has fewer than 2 * keys slots.
  void reset(std::size_t keys) {
    const std::size_t wanted = std::bit_ceil(std::max<std::size_t>(2 * keys, kMinSlots));
    if (slots_.size() < wanted) {
      slots_.assign(wanted, Slot{});
      generation_ = 1; // fresh slots hold generation 0: empty
      return;
    }
    if (++generation_ == 0) { // wrapped after 2^32 resets: no slot may look current
      for (Slot& slot : slots_) {
        slot.generation = 0;
      }
      generation_ = 1;
    }
  }

  // The resume position of `key` (0 when first asked since the reset). At most `keys` distinct
  // keys (reset's argument) may be asked, so a free slot is always found.
  std::size_t& at(std::uint64_t key) {
    const std::size_t mask = slots_.size() - 1;
    // Fibonacci hashing: sources and tags are small, consecutive numbers.
    std::size_t i = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
    while (slots_[i].generation == generation_ && slots_[i].key != key) {
      i = (i + 1) & mask;
    }
    Slot& slot = slots_[i];
    if (slot.generation != generation_) {
      slot = {key, 0, generation_};
    }
    return slot.from;
  }

  std::size_t slot_count() const { return slots_.size(); }

private:
  static constexpr std::size_t kMinSlots = 16;
  struct Slot {
    std::uint64_t key = 0;
    std::size_t from = 0;
    std::uint32_t generation = 0;
  };
  std::vector<Slot> slots_;
  std::uint32_t generation_ = 0;
};

} // namespace vcmon::runtime::mpi
