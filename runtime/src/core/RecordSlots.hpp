// The counters behind proc, loop and com records (docs/runtime.md, "Records"), laid out so a probe
// finds its record in O(1): a few keyed slots inline per site, the rest in OverflowRecords.
#pragma once

#include "vcmon/tables/Records.hpp"

#include <atomic>
#include <cstdint>

namespace vcmon::runtime {

struct ContextNode;

// Adds to a counter that only its owning thread writes: a plain load and store (no locked
// instruction), still atomic so the finalize reader sees whole values.
inline void add_owned(std::atomic<std::uint64_t>& counter, std::uint64_t delta) {
  counter.store(counter.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
}

// One record of a keyed family: a proc record keyed by activating call site, or a com
// record keyed by partner. For proc records count, time_ns and untimed are used; for com
// records time_ns is the transmission time.
struct KeyedRecord {
  static constexpr std::uint32_t kEmptyKey = 0xFFFF'FFFEu; // neither a site id nor a rank
  std::atomic<std::uint32_t> key{kEmptyKey};
  std::atomic<std::uint64_t> count{0};
  std::atomic<std::uint64_t> time_ns{0};
  std::atomic<std::uint64_t> sync_delay_ns{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> untimed{0}; // activations of a throttled procedure
};

// The sizes of a com record's messages (tables::ComRecord): the smallest (all ones while there
// is none), the largest, and how many per size class.
struct MessageSizeCounters {
  std::atomic<std::uint64_t> min_bytes{~std::uint64_t{0}};
  std::atomic<std::uint64_t> max_bytes{0};
  std::atomic<std::uint64_t> classes[tables::kSizeClasses]{};

  // Owner thread only: plain loads and stores.
  void add_owned(std::uint64_t bytes) {
    runtime::add_owned(classes[tables::size_class(bytes)], 1);
    if (bytes < min_bytes.load(std::memory_order_relaxed)) {
      min_bytes.store(bytes, std::memory_order_relaxed);
    }
    if (bytes > max_bytes.load(std::memory_order_relaxed)) {
      max_bytes.store(bytes, std::memory_order_relaxed);
    }
  }
  // Any thread (shared overflow entries).
  void add_shared(std::uint64_t bytes) {
    classes[tables::size_class(bytes)].fetch_add(1, std::memory_order_relaxed);
    std::uint64_t least = min_bytes.load(std::memory_order_relaxed);
    while (bytes < least &&
           !min_bytes.compare_exchange_weak(least, bytes, std::memory_order_relaxed)) {
    }
    std::uint64_t most = max_bytes.load(std::memory_order_relaxed);
    while (bytes > most &&
           !max_bytes.compare_exchange_weak(most, bytes, std::memory_order_relaxed)) {
    }
  }
  // What the counters hold, as a record's sizes (read while their threads may still add).
  tables::MessageSizes snapshot() const {
    tables::MessageSizes sizes;
    for (std::size_t c = 0; c < tables::kSizeClasses; ++c) {
      sizes.classes[c] = classes[c].load(std::memory_order_relaxed);
    }
    if (sizes.messages() > 0) {
      sizes.min_bytes = min_bytes.load(std::memory_order_relaxed);
      sizes.max_bytes = max_bytes.load(std::memory_order_relaxed);
    }
    return sizes;
  }
};

struct ComKeyedRecord : KeyedRecord {
  MessageSizeCounters sizes;
};

// Call sites per procedure and partners per communication statement held inline; most
// procedures have few callers and most statements few partners.
inline constexpr unsigned kInlineKeys = 4;

template <typename Record> struct KeyedSlotsOf {
  Record slots[kInlineKeys];

  // The slot of `key`, claiming an empty one; nullptr when all are taken by other keys.
  // Owner thread only.
  Record* find_or_claim(std::uint32_t key) {
    for (Record& slot : slots) {
      const std::uint32_t k = slot.key.load(std::memory_order_relaxed);
      if (k == key) {
        return &slot;
      }
      if (k == KeyedRecord::kEmptyKey) {
        slot.key.store(key, std::memory_order_release);
        return &slot;
      }
    }
    return nullptr;
  }
};

using KeyedSlots = KeyedSlotsOf<KeyedRecord>;  // proc records by call site
using ComSlots = KeyedSlotsOf<ComKeyedRecord>; // com records by partner

struct ProcSlots {
  KeyedSlots by_call_site;
  // Activations of this procedure open on the owning thread: more than zero at entry means
  // recursion, whose time the outermost activation already covers.
  std::uint32_t active = 0;
  // The calling context of the outermost open activation: recursive ones fold into it.
  ContextNode* outermost_context = nullptr;
  // Throttling (ThrottlePolicy), owner thread only: activations so far, the time the timed
  // outermost ones took, and whether the clock is no longer read for it.
  bool throttled = false;
  std::uint64_t activations = 0;
  std::uint64_t measured_ns = 0;
};

struct LoopCounters {
  std::atomic<std::uint64_t> time_ns{0};
  std::atomic<std::uint64_t> count{0};
  std::atomic<std::uint64_t> iterations{0};
};

} // namespace vcmon::runtime
