// One sender's stamps to one receiver on the same node, through memory both map: a bounded
// single-producer single-consumer queue of cache-line slots. Pushing a stamp is a few stores
// to one line, taking it a load of that line: an MPI message of its own cost an 8-byte
// ping-pong about a quarter of its time (docs/transparency.md). The ring lives in the
// receiver's segment of a shared window (StampMail); this class only lays out and moves
// entries, so it is tested on plain memory.
#pragma once

#include "vcmon/vclock/MessageStamp.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace vcmon::runtime::mpi {

// A stamp on its way: `sequence` orders all stamps from one process to another, whichever
// way each travelled; `communicator` is the agreed id of the communicator (Shadow::id) and
// `source` the sender's rank in its group there.
struct StampMessage {
  std::uint64_t sequence = 0;
  std::uint64_t communicator = 0;
  std::int32_t source = -1;
  std::int32_t tag = -1;
  vclock::MessageStamp stamp;
};

class StampRing {
public:
  static constexpr std::size_t kLine = 64;

  // Bytes of a ring of `slots` slots.
  static constexpr std::size_t bytes(std::uint32_t slots) { return kLine * (2 + slots); }

  // A view of a ring at `memory` (kLine-aligned, bytes(slots) long, zeroed before first use);
  // `slots` is a power of two (a slot's index is then a mask, not a division).
  StampRing(void* memory, std::uint32_t slots)
      : header_(static_cast<Header*>(memory)), slots_(reinterpret_cast<Slot*>(header_ + 2)),
        capacity_(slots) {}
  StampRing() = default;

  // Producer side. False when the ring is full (the receiver has not taken the oldest yet).
  bool push(const StampMessage& message) {
    if (pushed_ - taken_seen_ >= capacity_) {
      taken_seen_ = header_[0].count.load(std::memory_order_acquire);
      if (pushed_ - taken_seen_ >= capacity_) {
        return false;
      }
    }
    Slot& slot = slots_[pushed_ & (capacity_ - 1)];
    slot.message = message;
    ++pushed_;
    slot.filled.store(pushed_, std::memory_order_release);
    return true;
  }
  // Counts the stamps this producer sent another way (full ring, see StampMail): the
  // receiver then knows to look there.
  void note_diverted() {
    header_[1].count.store(header_[1].count.load(std::memory_order_relaxed) + 1,
                           std::memory_order_release);
  }

  // Consumer side: the oldest stamp not yet taken, or nullptr.
  const StampMessage* peek() const {
    const Slot& slot = slots_[taken_ & (capacity_ - 1)];
    return slot.filled.load(std::memory_order_acquire) == taken_ + 1 ? &slot.message : nullptr;
  }
  void pop() {
    ++taken_;
    header_[0].count.store(taken_, std::memory_order_release);
  }
  // Stamps the producer sent another way, so far.
  std::uint64_t diverted() const { return header_[1].count.load(std::memory_order_acquire); }

  bool valid() const { return header_ != nullptr; }

private:
  // header_[0]: stamps taken (written by the consumer); header_[1]: stamps diverted (written
  // by the producer). Each on a line of its own, apart from the slots.
  struct alignas(kLine) Header {
    std::atomic<std::uint64_t> count;
  };
  struct alignas(kLine) Slot {
    std::atomic<std::uint64_t> filled; // the slot holds stamp number `filled` (from 1)
    StampMessage message;
  };
  static_assert(sizeof(Header) == kLine && sizeof(Slot) == kLine);
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                "the ring is shared between processes");

  Header* header_ = nullptr;
  Slot* slots_ = nullptr;
  std::uint32_t capacity_ = 0;
  // Each side's own position, in its own memory.
  std::uint64_t pushed_ = 0;
  std::uint64_t taken_seen_ = 0;
  std::uint64_t taken_ = 0;
};

} // namespace vcmon::runtime::mpi
