// State requests answered beside a rank that runs outside MPI (docs/pmpi.md, "Running ranks
// answer"). A rank answers the control channel from its wrappers and wait loops; one that
// computes, or spins on memory it shares with the decider (MPI_Win_allocate_shared and atomics),
// calls no MPI and cannot. A wildcard decider of its node that waited for it hung when that rank
// was waiting, in its spin loop, for the decider's next move. So each process has an answerer
// thread (RunningAnswerer) asleep on a bell in its node segment; a decider of the node that has
// waited a while for a rank's reply rings that rank's bell, and the answerer answers for its
// process with the clock it has now, in the decider's line of the segment.
//
// Each process's region (ProcessStampMail lays it out in the process's node segment): the bell,
// a futex word in a cache line of its own, then one line per rank of the node that may ask
// (the process's own included, never used).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vcmon::runtime::mpi {

// One asker's line in a process's region.
struct alignas(64) AnswerLine {
  std::atomic<std::uint64_t> asked{0};       // the asker's latest request number (the asker writes)
  std::atomic<std::uint64_t> version{0};     // odd while the answerer writes what follows
  std::atomic<std::uint64_t> answered{0};    // the request number the answer below is to
  std::atomic<std::uint64_t> clock_ns{0};    // the clock shown; 0: not for the answerer to say
  std::atomic<std::uint64_t> stamps_sent{0}; // stamps the process had sent the asker by then
};

struct alignas(64) AnswerBell {
  std::atomic<std::uint32_t> rung{0}; // the futex word: every ask adds one
};

// What an answerer said for its process: it runs, at `clock_ns` or later from now on (its clock
// shows nothing earlier), once the `stamps_sent` stamps it had sent the asker have arrived.
struct RunningAnswer {
  std::uint64_t clock_ns = 0;
  std::uint64_t stamps_sent = 0;
};

class RunningAnswers {
public:
  // The bytes of one process's region on a node of `ranks` ranks.
  static std::size_t region_bytes(std::size_t ranks) {
    return sizeof(AnswerBell) + ranks * sizeof(AnswerLine);
  }
  // Makes a process's region in zeroed shared memory, before any peer maps it.
  static void construct(char* region, std::size_t ranks);

  // At MPI_Init: the regions of the processes of this node (`node`: their world ranks,
  // ascending; `regions`: their regions, in the same order), this process being `node[self]`.
  static void attach(std::vector<int> node, std::vector<char*> regions, std::size_t self);
  static void detach();
  // Whether this process has a region (a node segment).
  static bool attached() { return !regions_.empty(); }

  // The asker's side. Asks world rank `rank`'s answerer; false when it has none (another node,
  // no shared segment). One thread of a process asks at a time (ControlExchange's).
  static bool ask(int rank);
  // The answer to this process's latest ask of `rank`, once given; its clock_ns is 0 when the
  // answerer could not answer for it.
  static std::optional<RunningAnswer> answer_of(int rank);

  // The answerer's side. The bell's count now, to sleep on.
  static std::uint32_t bell();
  // Sleeps until the bell has rung since it counted `seen` (or wake_own()).
  static void wait_for_ring(std::uint32_t seen);
  // Wakes this process's answerer without an ask (to let it stop).
  static void wake_own();
  // Answers every ask not yet answered: `clock_ns` (0: the answerer cannot say) and, per
  // asker, `stamps_sent_to(world rank)`. Returns how many it answered.
  template <typename StampsSentTo>
  static std::uint64_t answer_asks(std::uint64_t clock_ns, StampsSentTo&& stamps_sent_to) {
    std::uint64_t answered = 0;
    for (std::size_t i = 0; i < node_.size(); ++i) {
      AnswerLine& line = own_line(i);
      const std::uint64_t asked = line.asked.load(std::memory_order_acquire);
      if (i == self_ || asked == line.answered.load(std::memory_order_relaxed)) {
        continue;
      }
      publish(line, asked, clock_ns, clock_ns != 0 ? stamps_sent_to(node_[i]) : 0);
      ++answered;
    }
    return answered;
  }
  // Whether an ask waits for an answer.
  static bool asked();

private:
  static AnswerBell& bell_of(std::size_t local) {
    return *reinterpret_cast<AnswerBell*>(regions_[local]);
  }
  static AnswerLine& line_in(std::size_t local, std::size_t asker) {
    return reinterpret_cast<AnswerLine*>(regions_[local] + sizeof(AnswerBell))[asker];
  }
  static AnswerLine& own_line(std::size_t asker) { return line_in(self_, asker); }
  static void publish(AnswerLine& line, std::uint64_t asked, std::uint64_t clock_ns,
                      std::uint64_t stamps_sent);
  // `rank`'s place among the node's ranks, or nullopt.
  static std::optional<std::size_t> local_of(int rank);

  static inline std::vector<int> node_;
  static inline std::vector<char*> regions_;
  static inline std::size_t self_ = 0;
};

} // namespace vcmon::runtime::mpi
