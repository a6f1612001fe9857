// What a member brings into a collective, reduced over all members with MPI_MAX on the shadow
// (docs/design.md, "Virtual time of a collective"; docs/deadlock.md, "How the runtime uses it"):
// the latest member's virtual and real entry, from which everyone leaves; and which collective each
// member called (operation and root), so that two different collectives at the same position of one
// communicator are found as a mismatch instead of being taken for one. A blocking collective and
// its nonblocking twin are different ones: MPI does not match them (and MPICH does not).
#pragma once

#include "mpi/clock/Moment.hpp"

#include "vcmon/tables/Site.hpp"

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi {

// One member's call.
struct CollectiveCall {
  unsigned function = 0; // MpiFunction index
  int root = -1;         // -1: no root (or an intercommunicator, whose roots differ by side)
  tables::SiteId site = tables::kNoSite;
  int world_rank = 0;
};

class CollectiveEntry {
public:
  static constexpr int kWords = 8;

  // At MPI_Init: the MPI datatype of one entry and the reduction over entries (the latest
  // entry; the greatest and the least call). Both are the layer's own.
  static void open();
  // At MPI_Finalize, once no reduction can be pending.
  static void close();
  static MPI_Datatype datatype() { return datatype_; }
  static MPI_Op reduction() { return reduction_; }

  CollectiveEntry() = default;
  CollectiveEntry(const Moment& entry, const CollectiveCall& call);

  // Reduced as one `datatype()` with `reduction()`.
  std::uint64_t* words() { return words_; }

  std::uint64_t latest_vt() const { return words_[0]; }
  std::uint64_t latest_rt() const { return words_[1]; }

  // After the reduction: whether the members called different collectives, and two of the
  // calls that differ (the greatest and the least signature, each with one of its callers).
  bool mismatch() const;
  CollectiveCall greatest() const;
  CollectiveCall least() const;

private:
  static void reduce(void* in, void* inout, int* count, MPI_Datatype* datatype);
  static inline MPI_Datatype datatype_ = MPI_DATATYPE_NULL;
  static inline MPI_Op reduction_ = MPI_OP_NULL;

  // vt, rt, then the greatest and the least call as (signature, world rank, site): a
  // signature is (operation, root), so a mismatch names two calls with their callers.
  std::uint64_t words_[kWords] = {};
};

// After the reduction of `reduced`, the collective number `sequence` of a communicator: on a
// mismatch, reports both calls on stderr and ends the job (MPI_Abort, as a deadlock does), since
// the program is erroneous and the MPI library would hang in it or mix up the data. Returns
// otherwise.
void check_collective_match(const CollectiveEntry& reduced, std::uint64_t sequence);

} // namespace vcmon::runtime::mpi
