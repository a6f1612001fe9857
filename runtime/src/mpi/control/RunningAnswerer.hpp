// The thread that answers state requests for its process while the program runs outside MPI
// (RunningAnswers has the why). It sleeps on its bell and wakes only when a rank of its node
// asks; its work is charged beside the program (VirtualClock::charge_beside).
//
// Its answer is a promise about a thread it does not stop: that no stamp this process sends
// from now on is earlier than the clock it shows, unless the asker counted it. The program's
// thread counts each stamp before it shows it (StampProtocol::send_stamp) and show() reads the
// time shown beside; the answerer shows first and reads the counts after a membarrier, which
// runs a full barrier on every thread of the process: so either the stamp is shown later than
// the answer, or the count it gives includes the stamp. Without membarrier (an old kernel, a
// seccomp filter) there is no answerer.
#pragma once

#include "core/Monitor.hpp"
#include "mpi/control/ControlChannel.hpp"

#include <atomic>
#include <thread>

namespace vcmon::runtime::mpi {

class RunningAnswerer {
public:
  RunningAnswerer() = default;
  ~RunningAnswerer() { stop(); }
  RunningAnswerer(const RunningAnswerer&) = delete;
  RunningAnswerer& operator=(const RunningAnswerer&) = delete;

  // Once MPI_Init is done: answers for this process from now on, when it can (a node segment
  // and membarrier). With MPI_THREAD_MULTIPLE it answers with the earliest of the threads'
  // clocks (VirtualClock::earliest_virtual_at).
  void start(Monitor& monitor, ControlChannel& control);
  // At MPI_Finalize, before the segment goes: answers no more.
  void stop();

private:
  void run(Monitor& monitor, ControlChannel& control);
  void answer(Monitor& monitor, ControlChannel& control);

  std::thread thread_;
  std::atomic<bool> stopping_{false};
};

} // namespace vcmon::runtime::mpi
