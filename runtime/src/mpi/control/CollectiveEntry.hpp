// What a member brings into a collective, reduced over all members with MPI_MAX on the shadow
// (docs/design.md, "Virtual time of a collective"; docs/deadlock.md, "How the runtime uses it"):
// the latest member's virtual and real entry, from which everyone leaves; and which collective each
// member called (operation and root), so that two different collectives at the same position of one
// communicator are found as a mismatch instead of being taken for one. A blocking collective and
// its nonblocking twin are different ones: MPI does not match them (and MPICH does not).
#pragma once

#include "vcmon/vclock/Moment.hpp"

#include "vcmon/tables/Site.hpp"

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi {

class ControlChannel;

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

  CollectiveEntry() = default;
  CollectiveEntry(const vclock::Moment& entry, const CollectiveCall& call);

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
  friend class EntryReduction;
  // The reduction's function (MPI_User_function): the latest entry, the greatest and the least
  // call.
  static void reduce(void* in, void* inout, int* count, MPI_Datatype* datatype);

  // vt, rt, then the greatest and the least call as (signature, world rank, site): a
  // signature is (operation, root), so a mismatch names two calls with their callers.
  std::uint64_t words_[kWords] = {};
};

// The MPI datatype of one CollectiveEntry and the reduction over entries, both the layer's own:
// one pair per process, in its LayerContext, made at MPI_Init and freed at MPI_Finalize once no
// reduction can be pending; with the process's control channel, served while a mismatch is
// reported.
class EntryReduction {
public:
  explicit EntryReduction(ControlChannel& control) : control_(control) {}

  void open();
  void close();
  // Starts reducing every member's `mine` into `reduced` over `comm` (its request in *request).
  void start(CollectiveEntry& mine, CollectiveEntry& reduced, MPI_Comm comm,
             MPI_Request* request) const {
    PMPI_Iallreduce(mine.words(), reduced.words(), 1, datatype_, operation_, comm, request);
  }

  // After the reduction of `reduced`, the collective number `sequence` of a communicator: on a
  // mismatch, reports both calls on stderr and ends the job (MPI_Abort, as a deadlock does),
  // since the program is erroneous and the MPI library would hang in it or mix up the data.
  // Returns otherwise.
  void check_match(const CollectiveEntry& reduced, std::uint64_t sequence) const;

private:
  ControlChannel& control_;
  MPI_Datatype datatype_ = MPI_DATATYPE_NULL;
  MPI_Op operation_ = MPI_OP_NULL;
};

} // namespace vcmon::runtime::mpi
