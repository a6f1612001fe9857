#include "mpi/control/CollectiveEntry.hpp"

#include "core/Log.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/layer/CallDescription.hpp"
#include "mpi/layer/Layer.hpp"

#include <algorithm>
#include <sched.h>
#include <string>

namespace vcmon::runtime::mpi {
namespace {

// (function, root): the root + 1, so that none is 0, beside the function.
std::uint64_t signature(const CollectiveCall& call) {
  return (static_cast<std::uint64_t>(call.function) << 32) |
         static_cast<std::uint32_t>(call.root + 1);
}

CollectiveCall call_of(const std::uint64_t* words) {
  CollectiveCall call;
  call.function = static_cast<unsigned>(words[0] >> 32);
  call.root = static_cast<int>(static_cast<std::uint32_t>(words[0])) - 1;
  call.world_rank = static_cast<int>(words[1]);
  call.site = static_cast<tables::SiteId>(words[2]);
  return call;
}

std::string describe(Monitor& monitor, const CollectiveCall& call) {
  std::string text = "rank " + std::to_string(call.world_rank) + " calls " +
                     describe_call(monitor, call.function, call.site);
  if (call.root >= 0) {
    text += " with root " + std::to_string(call.root);
  }
  return text;
}

} // namespace

void EntryReduction::open() {
  PMPI_Type_contiguous(CollectiveEntry::kWords, MPI_UINT64_T, &datatype_);
  PMPI_Type_commit(&datatype_);
  PMPI_Op_create(&CollectiveEntry::reduce, 1, &operation_);
}

void EntryReduction::close() {
  PMPI_Op_free(&operation_);
  PMPI_Type_free(&datatype_);
}

void CollectiveEntry::reduce(void* in, void* inout, int* count, MPI_Datatype*) {
  const auto* a = static_cast<const std::uint64_t*>(in);
  auto* b = static_cast<std::uint64_t*>(inout);
  for (int e = 0; e < *count; ++e, a += kWords, b += kWords) {
    b[0] = std::max(a[0], b[0]);
    b[1] = std::max(a[1], b[1]);
    if (std::lexicographical_compare(b + 2, b + 5, a + 2, a + 5)) {
      std::copy(a + 2, a + 5, b + 2);
    }
    if (std::lexicographical_compare(a + 5, a + 8, b + 5, b + 8)) {
      std::copy(a + 5, a + 8, b + 5);
    }
  }
}

CollectiveEntry::CollectiveEntry(const vclock::Moment& entry, const CollectiveCall& call) {
  words_[0] = entry.vt;
  words_[1] = entry.rt;
  words_[2] = words_[5] = signature(call);
  words_[3] = words_[6] = static_cast<std::uint64_t>(call.world_rank);
  words_[4] = words_[7] = call.site;
}

bool CollectiveEntry::mismatch() const {
  return words_[2] != words_[5];
}

CollectiveCall CollectiveEntry::greatest() const {
  return call_of(words_ + 2);
}

CollectiveCall CollectiveEntry::least() const {
  return call_of(words_ + 5);
}

void EntryReduction::check_match(const CollectiveEntry& reduced, std::uint64_t sequence) const {
  Monitor* monitor = Layer::monitor();
  if (!reduced.mismatch() || monitor == nullptr) {
    return;
  }
  // Every member sees the mismatch; the first rank named reports it at once, the other a
  // little later, everyone else later still, since the named ranks may be in nonblocking
  // collectives they never complete. An abort ends the others before their turn.
  const int self = monitor->world_rank();
  const std::uint64_t delay_ns = self == reduced.least().world_rank      ? 0
                                 : self == reduced.greatest().world_rank ? 250'000'000
                                                                         : 1'000'000'000;
  const std::uint64_t until = vclock::Moment::now(monitor->clock()).rt + delay_ns;
  while (vclock::Moment::now(monitor->clock()).rt < until) {
    control_.serve();
    sched_yield();
  }
  const std::string report =
      "vcmon: deadlock: the members of one communicator call different collectives as its "
      "collective number " +
      std::to_string(sequence + 1) +
      ", which MPI does not allow\nvcmon:   " + describe(*monitor, reduced.least()) +
      "\nvcmon:   " + describe(*monitor, reduced.greatest()) + "\n";
  log_text(report);
  monitor->on_abort("collective mismatch");
  PMPI_Abort(MPI_COMM_WORLD, 3);
}

} // namespace vcmon::runtime::mpi
