#include "mpi/ControlChannel.hpp"

#include "mpi/Moment.hpp"
#include "mpi/SenderBounds.hpp"
#include "mpi/ShadowCommunicators.hpp"
#include "mpi/StampCounts.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <sched.h>

namespace vcmon::runtime::mpi {
namespace {

enum Tag : int { kStateRequest = 1, kStateReply = 2, kNullMessage = 3 };

MPI_Comm control = MPI_COMM_NULL;
std::atomic<bool> finished{false};
// One thread serves at a time (MPI_THREAD_MULTIPLE programs may block in several).
std::atomic_flag serving = ATOMIC_FLAG_INIT;

// A reply: stamps sent to the decider on its communicator, activity, clock, present arrival
// (flag, value), collective (flag, value), function, site, then the ranks waited on.
constexpr std::size_t kReplyHeader = 10;

// Null messages whose bound waits for stamps still in flight, per source: (bound, stamps).
std::vector<std::pair<std::uint64_t, std::uint64_t>> pending_nulls;
// Per source, the collective instance its latest null message said it waits in (0: none).
std::unique_ptr<std::atomic<std::uint64_t>[]> null_collectives;

std::vector<std::uint64_t> encode(std::uint64_t stamps_sent, const deadlock::ProcessState& state,
                                  const WaitPlace& place) {
  std::vector<std::uint64_t> words{stamps_sent,
                                   static_cast<std::uint64_t>(state.activity),
                                   state.clock_ns,
                                   state.present_arrival_ns.has_value(),
                                   state.present_arrival_ns.value_or(0),
                                   state.collective.has_value(),
                                   state.collective.value_or(0),
                                   place.function,
                                   place.site,
                                   state.waits_on.size()};
  for (const int rank : state.waits_on) {
    words.push_back(static_cast<std::uint64_t>(rank));
  }
  return words;
}

deadlock::ProcessState decode(int rank, std::vector<std::uint64_t> words, WaitPlace& place,
                              std::uint64_t& stamps_sent) {
  stamps_sent = words.front();
  words.erase(words.begin());
  deadlock::ProcessState state;
  state.rank = rank;
  state.activity = static_cast<deadlock::Activity>(words[0]);
  state.clock_ns = words[1];
  if (words[2] != 0) {
    state.present_arrival_ns = words[3];
  }
  if (words[4] != 0) {
    state.collective = words[5];
  }
  place.function = static_cast<unsigned>(words[6]);
  place.site = static_cast<tables::SiteId>(words[7]);
  for (std::size_t i = 0; i < words[8] && kReplyHeader - 1 + i < words.size(); ++i) {
    state.waits_on.push_back(static_cast<int>(words[kReplyHeader - 1 + i]));
  }
  return state;
}

// Takes in the null messages that have arrived; true when there were any.
bool absorb_null_messages() {
  for (bool any = false;; any = true) {
    int flag = 0;
    MPI_Status status;
    PMPI_Iprobe(MPI_ANY_SOURCE, kNullMessage, control, &flag, &status);
    if (!flag) {
      return any;
    }
    // bound, stamps sent to this rank before it, collective instance
    std::uint64_t null[3] = {0, 0, 0};
    PMPI_Recv(null, 3, MPI_UINT64_T, status.MPI_SOURCE, kNullMessage, control, MPI_STATUS_IGNORE);
    const auto source = static_cast<std::size_t>(status.MPI_SOURCE);
    auto& pending = pending_nulls[source];
    pending = {std::max(pending.first, null[0]), std::max(pending.second, null[1])};
    null_collectives[source].store(null[2], std::memory_order_relaxed);
  }
}

// Applies the null messages whose preceding stamps have all arrived.
void apply_nulls() {
  for (std::size_t rank = 0; rank < pending_nulls.size(); ++rank) {
    auto& [bound, stamps] = pending_nulls[rank];
    if (bound != 0 && StampCounts::received_from(static_cast<int>(rank)) >= stamps) {
      SenderBounds::raise(static_cast<int>(rank), bound);
      bound = 0;
    }
  }
}

// Tells every other rank that this one sends nothing before `bound` and waits in
// `collective` (0: none).
void send_nulls(Monitor& monitor, std::uint64_t bound, std::uint64_t collective) {
  for (int rank = 0; rank < monitor.world_size(); ++rank) {
    if (rank != monitor.world_rank()) {
      const std::uint64_t null[3] = {bound, StampCounts::sent_to(rank), collective};
      PMPI_Send(null, 3, MPI_UINT64_T, rank, kNullMessage, control);
    }
  }
  monitor.counters().control_messages += static_cast<std::uint64_t>(monitor.world_size() - 1);
}

} // namespace

void ControlChannel::open(Monitor& monitor) {
  PMPI_Comm_dup(MPI_COMM_WORLD, &control);
  PMPI_Comm_set_errhandler(control, MPI_ERRORS_RETURN);
  SenderBounds::open(monitor.world_size());
  StampCounts::open(monitor.world_size());
  pending_nulls.assign(static_cast<std::size_t>(monitor.world_size()), {0, 0});
  null_collectives = std::make_unique<std::atomic<std::uint64_t>[]>(
      static_cast<std::size_t>(monitor.world_size()));
}

deadlock::ProcessState ControlChannel::own_state(Monitor& monitor, WaitPlace* place) {
  deadlock::ProcessState state;
  state.rank = monitor.world_rank();
  if (place != nullptr) {
    *place = {~0u, tables::kNoSite};
  }
  if (finished.load(std::memory_order_acquire)) {
    state.activity = deadlock::Activity::Finished;
    return state;
  }
  if (const BlockedCall* call = BlockedCall::current()) {
    call->describe(state);
    if (place != nullptr) {
      *place = call->place();
    }
    return state;
  }
  state.activity = deadlock::Activity::Running;
  // A few of the layer's constants below: scopes ending after the answer take them back.
  const std::uint64_t margin = 4 * monitor.action_cost_ns();
  const std::uint64_t vt = std::min(Moment::now(monitor.clock()).vt, running_vt_);
  state.clock_ns = monitor.clock().show(vt > margin ? vt - margin : 0);
  return state;
}

bool ControlChannel::serve(Monitor& monitor) {
  if (control == MPI_COMM_NULL || serving.test_and_set(std::memory_order_acquire)) {
    return false;
  }
  bool any = absorb_null_messages();
  apply_nulls();
  for (;; any = true) {
    int flag = 0;
    MPI_Status status;
    PMPI_Iprobe(MPI_ANY_SOURCE, kStateRequest, control, &flag, &status);
    if (!flag) {
      break;
    }
    std::uint64_t comm_id = 0; // the decider's communicator
    PMPI_Recv(&comm_id, 1, MPI_UINT64_T, status.MPI_SOURCE, kStateRequest, control,
              MPI_STATUS_IGNORE);
    std::uint64_t stamps_sent = 0;
    if (const Shadow* shadow = ShadowCommunicators::find_by_id(comm_id)) {
      if (const int peer = shadow->peer_of(status.MPI_SOURCE); peer >= 0) {
        stamps_sent = shadow->sent_to[static_cast<std::size_t>(peer)].load();
      }
    }
    WaitPlace place;
    const std::vector<std::uint64_t> reply = encode(stamps_sent, own_state(monitor, &place), place);
    PMPI_Send(reply.data(), static_cast<int>(reply.size()), MPI_UINT64_T, status.MPI_SOURCE,
              kStateReply, control);
    ++monitor.counters().control_messages;
  }
  serving.clear(std::memory_order_release);
  return any;
}

std::vector<deadlock::ProcessState>
ControlChannel::request_states(Monitor& monitor, std::span<const int> ranks, std::uint64_t comm_id,
                               std::vector<WaitPlace>& places,
                               std::vector<std::uint64_t>& stamps_sent) {
  for (const int rank : ranks) {
    PMPI_Send(&comm_id, 1, MPI_UINT64_T, rank, kStateRequest, control);
  }
  monitor.counters().control_messages += ranks.size();
  std::vector<deadlock::ProcessState> states(ranks.size());
  places.assign(ranks.size(), WaitPlace{});
  stamps_sent.assign(ranks.size(), 0);
  std::size_t missing = ranks.size();
  std::vector<bool> answered(ranks.size(), false);
  std::vector<std::uint64_t> words;
  while (missing > 0) {
    bool progressed = false;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (answered[i]) {
        continue;
      }
      int flag = 0;
      MPI_Status status;
      PMPI_Iprobe(ranks[i], kStateReply, control, &flag, &status);
      if (!flag) {
        continue;
      }
      int count = 0;
      PMPI_Get_count(&status, MPI_UINT64_T, &count);
      words.assign(static_cast<std::size_t>(count), 0);
      PMPI_Recv(words.data(), count, MPI_UINT64_T, ranks[i], kStateReply, control,
                MPI_STATUS_IGNORE);
      states[i] = decode(ranks[i], words, places[i], stamps_sent[i]);
      answered[i] = true;
      --missing;
      progressed = true;
    }
    if (missing > 0 && !progressed) {
      serve(monitor);
      sched_yield();
    }
  }
  return states;
}

void ControlChannel::announce_null(Monitor& monitor, std::uint64_t bound,
                                   std::uint64_t collective) {
  send_nulls(monitor, monitor.clock().show(bound), collective);
}

std::uint64_t ControlChannel::null_collective_of(int rank) {
  return null_collectives
             ? null_collectives[static_cast<std::size_t>(rank)].load(std::memory_order_relaxed)
             : 0;
}

void ControlChannel::finish(Monitor& monitor) {
  if (control == MPI_COMM_NULL) {
    return;
  }
  finished.store(true, std::memory_order_release);
  if (monitor.config().deadlock == DeadlockMode::NullMessage) {
    send_nulls(monitor, deadlock::kNever, 0); // a bound, not a time: the clock goes on
  }
  MPI_Request barrier = MPI_REQUEST_NULL;
  PMPI_Ibarrier(control, &barrier);
  for (;;) {
    int done = 0;
    PMPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    if (done) {
      break;
    }
    serve(monitor);
    sched_yield();
  }
  // Requests and null messages sent before a rank saw the barrier complete are still owed.
  serve(monitor);
}

} // namespace vcmon::runtime::mpi
