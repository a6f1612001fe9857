// The own time of an MPI call that moves no message of a partner's (docs/runtime.md,
// "Accounting": every MPI call the program makes is a record): MPI_Start*, MPI_Request_free,
// MPI_Cancel, MPI_Request_get_status, a communicator's construction or freeing, a completion
// call over requests the layer does not track or that completed nothing. Recorded at the
// call's statement with no partner (tables::ComRecord::kCollective) and no message; the
// layer's work inside is intrusion, so the virtual time between entry and return is the
// program's. Two clock reads and one record: O(1), no allocation.
#pragma once

#include "core/MpiFunctionTable.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include "vcmon/tables/Records.hpp"

namespace vcmon::runtime::mpi {

// Records the time since `entry_vt` (virtual) of a call of `function` that returns now.
inline void record_call_time(Monitor& monitor, MpiFunction function, std::uint64_t entry_vt) {
  vclock::VirtualClock& clock = monitor.clock();
  const std::uint64_t now_ns = clock.source().now_ns();
  const std::uint64_t returned_vt = clock.virtual_at(now_ns);
  // The record ends there: no later reading may be earlier. The scope below charges a constant
  // beyond what it measures, and without the hold the next call's entry read up to that much
  // before this return: a loop polling MPI_Test 25 000 times had its calls add up to 0.1-0.7 ms
  // more than the loop (seventh adversarial round).
  clock.hold(returned_vt);
  const vclock::IntrusionScope work(clock, monitor.action_cost_ns(), now_ns);
  monitor.record_com(monitor.comm_site(index_of(function)), tables::ComRecord::kCollective,
                     vclock::elapsed(entry_vt, returned_vt), 0, 0, false);
}

// The same around a scope: from its construction to its end (nothing when not monitoring).
class __attribute__((visibility("hidden"))) CallTime {
public:
  CallTime(Monitor* monitor, MpiFunction function)
      : monitor_(monitor), function_(function),
        entry_vt_(monitor != nullptr ? monitor->clock().virtual_ns() : 0) {}
  ~CallTime() {
    if (monitor_ != nullptr) {
      record_call_time(*monitor_, function_, entry_vt_);
    }
  }
  CallTime(const CallTime&) = delete;
  CallTime& operator=(const CallTime&) = delete;

private:
  Monitor* monitor_;
  MpiFunction function_;
  std::uint64_t entry_vt_;
};

} // namespace vcmon::runtime::mpi
