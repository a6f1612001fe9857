// The one place that decides how the layer waits for another process inside a blocking MPI
// call. While monitoring, a blocking call never blocks inside MPI: it polls a readiness test
// (a stamp has arrived, a request is complete, a collective's entry reduction is done) and,
// between polls, answers the control channel, announces null messages (VCMON_DEADLOCK=nullmsg)
// and watches for a real deadlock (blocked processes must answer state requests: docs/pmpi.md,
// "Blocking calls"). Once ready, the blocking PMPI call itself completes at once.
#pragma once

#include "mpi/control/BlockedCall.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/DeadlockDetector.hpp"
#include "mpi/control/NullAnnouncer.hpp"
#include "mpi/control/WaitRegistry.hpp"

#include "core/Monitor.hpp"

#include <optional>
#include <utility>

namespace vcmon::runtime::mpi {

// The waiting between two polls: the blocked call is registered for state requests as long
// as the loop lives.
class __attribute__((visibility("hidden"))) WaitLoop {
public:
  // `control`: the process's channel, served while the call waits.
  WaitLoop(Monitor& monitor, ControlChannel& control, const BlockedCall& call);
  WaitLoop(const WaitLoop&) = delete;
  WaitLoop& operator=(const WaitLoop&) = delete;

  void tick();

private:
  // Most waits end within microseconds (a message in flight): the loop first spins on the
  // readiness test alone, as MPI would; then it serves at most every kServiceNs and yields.
  static constexpr std::uint64_t kSpinNs = 20'000;
  static constexpr std::uint64_t kServiceNs = 10'000;
  static constexpr unsigned kPollsPerClockRead = 32;
  WaitLoop(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
           std::uint64_t start_rt);

  Monitor& monitor_;
  ControlChannel& control_;
  const BlockedCall& call_;
  // Registered once spinning ends: only then does this thread serve state requests, and most
  // waits end before (registering costs two locked instructions, one when the message has
  // just arrived).
  std::optional<WaitRegistry::Registration> registration_;
  DeadlockDetector detector_;
  NullAnnouncer announcer_;
  std::uint64_t spin_end_rt_;
  std::uint64_t next_service_rt_;
  unsigned polls_ = 0;
};

class WaitPolicy {
  // About as long as a small message's round trip: a receive that waits for an answer to
  // its own send then never sets up the loop (a clock read, and reads while it spins).
  static constexpr unsigned kFirstPolls = 512;

public:
  // Outside monitoring: PMPI blocks as it likes.
  template <typename BlockingCall> static int block(BlockingCall&& call) {
    return std::forward<BlockingCall>(call)();
  }

  // True when it waited longer than the first polls. `control`: the process's channel.
  template <typename Ready>
  static bool wait_until(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
                         Ready&& ready) {
    // A message in flight arrives within a few polls: poll before setting up the wait.
    for (unsigned poll = 0; poll < kFirstPolls; ++poll) {
      if (ready()) {
        return false;
      }
    }
    WaitLoop loop(monitor, control, call);
    do {
      loop.tick();
    } while (!ready());
    return true;
  }

  template <typename Ready, typename BlockingCall>
  static int block(Monitor& monitor, ControlChannel& control, const BlockedCall& call,
                   Ready&& ready, BlockingCall&& blocking) {
    wait_until(monitor, control, call, std::forward<Ready>(ready));
    return std::forward<BlockingCall>(blocking)();
  }
};

} // namespace vcmon::runtime::mpi
