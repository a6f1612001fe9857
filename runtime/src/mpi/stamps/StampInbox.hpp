// Stamps of one communicator that have arrived and that no posted receive claimed (StampProtocol
// files them here). A wildcard decision sees in it the stamps of every sender that has sent
// (docs/design.md, "Wildcard receives in virtual order") without taking any data; a receive takes
// its stamp from it. Stamps of one source stay in the order they were sent, so the first entry from
// a source matching a tag belongs to the first such message still in MPI (non-overtaking).
#pragma once

#include "vcmon/vclock/MessageStamp.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

struct PendingStamp {
  int source = MPI_ANY_SOURCE; // rank in the communicator
  int tag = MPI_ANY_TAG;
  vclock::MessageStamp stamp;
};

// Whether a receive or probe with tag `receive_tag` may take a message with `message_tag`.
inline bool tag_matches(int receive_tag, int message_tag) {
  return receive_tag == MPI_ANY_TAG || receive_tag == message_tag;
}

// Whether two receives with tags `a` and `b` may take the same message (either with
// MPI_ANY_TAG, or the same tag).
inline bool tags_overlap(int a, int b) {
  return tag_matches(a, b) || b == MPI_ANY_TAG;
}

// A ring of slots (capacity a power of two, grown by doubling when full): receives take their
// stamp from at or near the front, and a program whose receiver lags its sender keeps thousands
// of stamps here. As a vector, every take moved all the others: 12 000 iterations of a
// two-message pipeline on 3 ranks took 9 s monitored against 0.2 s plain.
class StampInbox {
public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // How many sources have a stamp here: for_each_candidate stops once it has found one of
  // each (a receiver behind thousands of stamps from a few senders scanned them all for every
  // wildcard receive, 10x slower than plain at 20 000 messages).
  std::size_t sources() const { return sources_; }
  const PendingStamp& operator[](std::size_t i) const { return slots_[slot(i)]; }

  void add(const PendingStamp& entry) {
    reserve_one();
    slots_[slot(size_)] = entry;
    ++size_;
    count_source(entry.source, +1);
  }
  // A stamp taken for a receive that then failed without consuming its message: it is again
  // the first of its source.
  void put_back(const PendingStamp& entry) {
    reserve_one();
    head_ = (head_ + slots_.size() - 1) & (slots_.size() - 1);
    slots_[head_] = entry;
    ++size_;
    count_source(entry.source, +1);
  }

  // Index of the first entry from `source` (not MPI_ANY_SOURCE) whose tag `tag` matches, at or
  // after index `from`.
  std::optional<std::size_t> find(int source, int tag, std::size_t from = 0) const {
    for (std::size_t i = from; i < size_; ++i) {
      const PendingStamp& entry = (*this)[i];
      if (entry.source == source && tag_matches(tag, entry.tag)) {
        return i;
      }
    }
    return std::nullopt;
  }

  // Calls `visit(const PendingStamp&)` on the first stamp of each source whose tag `tag`
  // matches, in the inbox's order: the candidates of a wildcard receive with that tag (later
  // ones cannot overtake them). It stops once it has one of every source here.
  template <typename Visit> void for_each_candidate(int tag, Visit&& visit) const {
    // Sources already seen, per thread: grown once to the largest source, then reused.
    static thread_local std::vector<char> seen;
    seen.assign(per_source_.size(), 0);
    std::size_t found = 0;
    for (std::size_t i = 0; i < size_ && found < sources_; ++i) {
      const PendingStamp& entry = (*this)[i];
      if (!tag_matches(tag, entry.tag) || entry.source < 0) {
        continue;
      }
      char& source_seen = seen[static_cast<std::size_t>(entry.source)];
      if (source_seen == 0) {
        source_seen = 1;
        ++found;
        visit(entry);
      }
    }
  }

  // The earliest send time among a wildcard receive's candidates (for_each_candidate).
  std::optional<std::uint64_t> earliest_candidate(int tag) const {
    std::optional<std::uint64_t> earliest;
    for_each_candidate(tag, [&](const PendingStamp& entry) {
      if (!earliest || entry.stamp.send_vt_ns < *earliest) {
        earliest = entry.stamp.send_vt_ns;
      }
    });
    return earliest;
  }

  // Whether more than `count` stamps whose tag `tag` matches were sent at or before virtual
  // time `vt` (it stops at the first one past `count`).
  bool sent_more_by(int tag, std::uint64_t vt, std::size_t count) const {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      const PendingStamp& entry = (*this)[i];
      seen += tag_matches(tag, entry.tag) && entry.stamp.send_vt_ns <= vt ? 1 : 0;
      if (seen > count) {
        return true;
      }
    }
    return false;
  }

  // Removes entry `index`, moving the entries on its shorter side by one.
  PendingStamp take(std::size_t index) {
    const PendingStamp entry = (*this)[index];
    count_source(entry.source, -1);
    if (index < size_ / 2) {
      for (std::size_t i = index; i > 0; --i) {
        slots_[slot(i)] = slots_[slot(i - 1)];
      }
      head_ = slot(1);
    } else {
      for (std::size_t i = index; i + 1 < size_; ++i) {
        slots_[slot(i)] = slots_[slot(i + 1)];
      }
    }
    --size_;
    return entry;
  }

private:
  std::size_t slot(std::size_t i) const { return (head_ + i) & (slots_.size() - 1); }
  void count_source(int source, int delta) {
    if (source < 0) {
      return;
    }
    const auto at = static_cast<std::size_t>(source);
    if (at >= per_source_.size()) {
      per_source_.resize(at + 1, 0); // once per larger source: up to the communicator's size
    }
    const std::size_t before = per_source_[at];
    per_source_[at] = before + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(delta));
    sources_ += before == 0 ? 1 : 0;
    sources_ -= per_source_[at] == 0 ? 1 : 0;
  }
  void reserve_one() {
    if (size_ < slots_.size()) {
      return;
    }
    std::vector<PendingStamp> grown(slots_.empty() ? 16 : 2 * slots_.size());
    for (std::size_t i = 0; i < size_; ++i) {
      grown[i] = (*this)[i];
    }
    slots_.swap(grown);
    head_ = 0;
  }

  std::vector<PendingStamp> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  std::vector<std::size_t> per_source_; // stamps here per source
  std::size_t sources_ = 0;             // sources with at least one
};

} // namespace vcmon::runtime::mpi
