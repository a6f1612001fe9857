// Stamps of one communicator that have arrived and that no posted receive claimed (StampProtocol
// files them here). A wildcard decision sees in it the stamps of every sender that has sent
// (docs/design.md, "Wildcard receives in virtual order") without taking any data; a receive takes
// its stamp from it. Stamps of one source stay in the order they were sent, so the first entry from
// a source matching a tag belongs to the first such message still in MPI (non-overtaking).
#pragma once

#include "vcmon/vclock/MessageStamp.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

struct PendingStamp {
  int source = MPI_ANY_SOURCE; // rank in the communicator
  int tag = MPI_ANY_TAG;
  vclock::MessageStamp stamp;
};

class StampInbox {
public:
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  const PendingStamp& operator[](std::size_t i) const { return entries_[i]; }

  void add(const PendingStamp& entry) { entries_.push_back(entry); }
  // A stamp taken for a receive that then failed without consuming its message: it is again
  // the first of its source.
  void put_back(const PendingStamp& entry) { entries_.insert(entries_.begin(), entry); }

  // Index of the first entry from `source` (not MPI_ANY_SOURCE) whose tag `tag` matches, after
  // skipping `skip` such entries.
  std::optional<std::size_t> find(int source, int tag, std::size_t skip = 0) const {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].source == source && (tag == MPI_ANY_TAG || entries_[i].tag == tag)) {
        if (skip == 0) {
          return i;
        }
        --skip;
      }
    }
    return std::nullopt;
  }

  // The earliest send time among the first stamps of each source whose tag `tag` matches: the
  // candidates of a wildcard receive with that tag (later ones cannot overtake them).
  std::optional<std::uint64_t> earliest_candidate(int tag) const {
    std::optional<std::uint64_t> earliest;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const PendingStamp& entry = entries_[i];
      if (tag != MPI_ANY_TAG && entry.tag != tag) {
        continue;
      }
      // Only the first matching stamp of its source counts: no earlier entry from it matches.
      const bool first =
          std::none_of(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(i),
                       [&](const PendingStamp& e) {
                         return e.source == entry.source && (tag == MPI_ANY_TAG || e.tag == tag);
                       });
      if (first && (!earliest || entry.stamp.send_vt_ns < *earliest)) {
        earliest = entry.stamp.send_vt_ns;
      }
    }
    return earliest;
  }

  PendingStamp take(std::size_t index) {
    const PendingStamp entry = entries_[index];
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index));
    return entry;
  }

private:
  std::vector<PendingStamp> entries_;
};

} // namespace vcmon::runtime::mpi
