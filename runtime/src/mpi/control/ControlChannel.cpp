#include "mpi/control/ControlChannel.hpp"

#include "core/Log.hpp"
#include "mpi/clock/Moment.hpp"
#include "mpi/control/WaitRegistry.hpp"
#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/PrivateWorld.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "mpi/stamps/SenderBounds.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampCounts.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <sched.h>

namespace vcmon::runtime::mpi {
namespace {

MPI_Comm control = MPI_COMM_NULL;
std::atomic<bool> finished{false};
// One thread serves at a time (MPI_THREAD_MULTIPLE programs may block in several).
std::atomic_flag serving = ATOMIC_FLAG_INIT;
// One thread asks at a time: replies are told apart by sequence number, not by thread.
std::mutex asking;
std::uint64_t last_sequence = 0;
// How long an asker waits for replies. A rank that answers late shows the deadline too short
// for this machine (oversubscribed ranks are scheduled late): it doubles, up to a bound.
constexpr std::uint64_t kFirstDeadlineNs = 20'000'000;
constexpr std::uint64_t kLastDeadlineNs = 2'000'000'000;
std::uint64_t reply_deadline_ns = kFirstDeadlineNs;
// Per world rank, requests sent to it that it has not answered yet (under `asking`): their
// replies must be received before MPI_Finalize, or MPI reports them unmatched.
std::vector<std::uint32_t> unanswered;
std::uint64_t unanswered_total = 0;

// A request: sequence number, the number of ranks of interest, the words a reply gives each
// (ControlChannel::Counts), then those ranks.
constexpr std::size_t kRequestHeader = 3;
// A reply: sequence number, how many requests of the asker it answers (the latest stands for
// those before), stamps sent to the asker, generation, activity,
// clock, present arrival (flag, value), collective (flag, value), function, site, the number of
// ranks waited on, those ranks, then (sent to, received from[, unclaimed from]) per rank of
// interest.
constexpr std::size_t kReplyHeader = 13;

// Requests and null messages sent to each world rank, and taken from each (by serve), so that
// MPI_Finalize takes in every one addressed to this rank: indexed rank * kCountedKinds + kind.
enum CountedKind : int { kRequests = 0, kNulls = 1, kCountedKinds = 2 };
// What a rank tells each other rank at MPI_Finalize: the counts above, then its entry.
enum FinishWord : int { kEntryVt = kCountedKinds, kFinishWords };
std::unique_ptr<std::atomic<std::uint64_t>[]> sent_counts;
std::vector<std::uint64_t> taken_counts; // by the serving thread only

void count(std::atomic<std::uint64_t>* counts, int rank, CountedKind kind) {
  counts[static_cast<std::size_t>(rank) * kCountedKinds + kind].fetch_add(
      1, std::memory_order_relaxed);
}

void count_taken(int rank, CountedKind kind) {
  ++taken_counts[static_cast<std::size_t>(rank) * kCountedKinds + kind];
}

// Null messages whose bound waits for stamps still in flight, per source: (bound, stamps).
std::vector<std::pair<std::uint64_t, std::uint64_t>> pending_nulls;
// Per source, the collective instance its latest null message said it waits in (0: none).
std::unique_ptr<std::atomic<std::uint64_t>[]> null_collectives;

// A receive of one kind of control message from any rank, kept posted (persistent) and
// tested. Probing for it with MPI_ANY_SOURCE instead made MPICH over UCX search every
// unexpected message of the process, the program's own included, at every poll: a rank
// lagging 40 000 eager messages behind its sender ran 250 times slower monitored.
class PostedReceive {
public:
  // Posts the receive; `max_words`: the longest message of its kind.
  void open(int tag, std::size_t max_words) {
    buffer_.assign(max_words, 0);
    received_.reserve(max_words);
    PMPI_Recv_init(buffer_.data(), static_cast<int>(max_words), MPI_UINT64_T, MPI_ANY_SOURCE, tag,
                   control, &request_);
    PMPI_Start(&request_);
  }
  // The next message that has arrived, its words in `words` (valid until the next call); its
  // sender, or -1 when none has.
  int next(std::span<const std::uint64_t>& words) {
    if (request_ == MPI_REQUEST_NULL) {
      return -1;
    }
    int flag = 0;
    MPI_Status status;
    PMPI_Test(&request_, &flag, &status);
    if (!flag) {
      return -1;
    }
    int count = 0;
    PMPI_Get_count(&status, MPI_UINT64_T, &count);
    received_.assign(buffer_.begin(), buffer_.begin() + std::max(count, 0));
    PMPI_Start(&request_);
    words = received_;
    return status.MPI_SOURCE;
  }
  // Withdraws the receive (at MPI_Finalize, when nothing more is owed); false when a message
  // had matched it after all, which is then lost.
  bool close() {
    if (request_ == MPI_REQUEST_NULL) {
      return true;
    }
    MPI_Status status;
    PMPI_Cancel(&request_);
    PMPI_Wait(&request_, &status);
    PMPI_Request_free(&request_);
    int cancelled = 0;
    PMPI_Test_cancelled(&status, &cancelled);
    return cancelled != 0;
  }

private:
  std::vector<std::uint64_t> buffer_;   // MPI writes here while the receive is posted
  std::vector<std::uint64_t> received_; // the last message, copied out before reposting
  MPI_Request request_ = MPI_REQUEST_NULL;
};

PostedReceive null_messages, state_requests, state_replies;

// The longest messages of each kind, for ranks of interest and waited-on ranks that are
// distinct world ranks.
std::size_t max_request_words(int world_size) {
  return kRequestHeader + static_cast<std::size_t>(world_size);
}
std::size_t max_reply_words(int world_size) {
  return kReplyHeader + 4 * static_cast<std::size_t>(world_size);
}

std::vector<std::uint64_t> encode_reply(std::uint64_t sequence, std::uint64_t answers,
                                        std::uint64_t stamps_sent,
                                        const deadlock::ProcessState& state, const WaitPlace& place,
                                        std::span<const std::uint64_t> interest,
                                        std::span<const std::uint64_t> unclaimed) {
  std::vector<std::uint64_t> words{sequence,
                                   answers,
                                   stamps_sent,
                                   WaitRegistry::generation(),
                                   static_cast<std::uint64_t>(state.activity),
                                   state.clock_ns,
                                   state.present_arrival_ns.has_value(),
                                   state.present_arrival_ns.value_or(0),
                                   state.collective.has_value(),
                                   state.collective.value_or(0),
                                   place.function,
                                   place.site,
                                   state.waits_on.size()};
  // Distinct ranks, so that a reply fits the receive posted for the longest one.
  std::vector<int> waits_on = state.waits_on;
  std::sort(waits_on.begin(), waits_on.end());
  waits_on.erase(std::unique(waits_on.begin(), waits_on.end()), waits_on.end());
  words[12] = waits_on.size();
  for (const int rank : waits_on) {
    words.push_back(static_cast<std::uint64_t>(rank));
  }
  for (const std::uint64_t rank : interest) {
    words.push_back(StampCounts::sent_to(static_cast<int>(rank)));
    words.push_back(StampCounts::received_from(static_cast<int>(rank)));
    if (!unclaimed.empty()) {
      words.push_back(rank < unclaimed.size() ? unclaimed[rank] : 0);
    }
  }
  return words;
}

// Fills `reply` from `words` (a reply of rank `rank` to a request with `interest` ranks of
// interest, `per_interest` words each); false when the words do not hold one.
bool decode_reply(int rank, std::span<const std::uint64_t> words, std::size_t interest,
                  std::size_t per_interest, StateReply& reply) {
  if (words.size() < kReplyHeader) {
    return false;
  }
  const std::uint64_t waits = words[12];
  if (words.size() != kReplyHeader + waits + per_interest * interest) {
    return false;
  }
  reply = StateReply{};
  reply.answered = true;
  reply.stamps_sent = words[2];
  reply.generation = words[3];
  deadlock::ProcessState& state = reply.state;
  state.rank = rank;
  state.activity = static_cast<deadlock::Activity>(words[4]);
  state.clock_ns = words[5];
  if (words[6] != 0) {
    state.present_arrival_ns = words[7];
  }
  if (words[8] != 0) {
    state.collective = words[9];
  }
  reply.place.function = static_cast<unsigned>(words[10]);
  reply.place.site = static_cast<tables::SiteId>(words[11]);
  for (std::size_t i = 0; i < waits; ++i) {
    state.waits_on.push_back(static_cast<int>(words[kReplyHeader + i]));
  }
  for (std::size_t i = 0; i < interest; ++i) {
    const std::size_t at = kReplyHeader + waits + per_interest * i;
    reply.sent_to.push_back(words[at]);
    reply.received_from.push_back(words[at + 1]);
    if (per_interest > 2) {
      reply.unclaimed_from.push_back(words[at + 2]);
    }
  }
  return true;
}

// Takes in the null messages that have arrived; true when there were any.
bool absorb_null_messages() {
  bool any = false;
  std::span<const std::uint64_t> null; // bound, stamps sent to this rank before it, collective
  for (int source; (source = null_messages.next(null)) >= 0; any = true) {
    if (null.size() != 3) {
      continue;
    }
    count_taken(source, kNulls);
    auto& pending = pending_nulls[static_cast<std::size_t>(source)];
    pending = {std::max(pending.first, null[0]), std::max(pending.second, null[1])};
    null_collectives[static_cast<std::size_t>(source)].store(null[2], std::memory_order_relaxed);
  }
  return any;
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
      PMPI_Send(null, 3, MPI_UINT64_T, rank, kNullMessageTag, control);
      count(sent_counts.get(), rank, kNulls);
    }
  }
  monitor.counters().control_messages += static_cast<std::uint64_t>(monitor.world_size() - 1);
}

// Receives one reply if one has arrived (under `asking`), into `words`; its sender, or -1.
int receive_reply(std::vector<std::uint64_t>& words) {
  std::span<const std::uint64_t> reply;
  const int source = state_replies.next(reply);
  if (source < 0) {
    return -1;
  }
  words.assign(reply.begin(), reply.end());
  auto& owed = unanswered[static_cast<std::size_t>(source)];
  const std::uint32_t answers =
      words.size() > 1 ? static_cast<std::uint32_t>(std::min<std::uint64_t>(words[1], owed)) : 0;
  owed -= answers;
  unanswered_total -= answers;
  return source;
}

// A state request that has arrived: its asker and words.
struct Request {
  int source = 0;
  std::vector<std::uint64_t> words;
  std::uint64_t count = 1; // requests of this asker the latest stands for
};

// Receives every state request that has arrived; of several from one asker only the latest
// counts (the asker waits for that one).
std::vector<Request> receive_requests() {
  std::vector<Request> requests;
  std::span<const std::uint64_t> words;
  for (int source; (source = state_requests.next(words)) >= 0;) {
    count_taken(source, kRequests);
    if (words.size() < kRequestHeader || words.size() != kRequestHeader + words[1] ||
        (words[2] != 2 && words[2] != 3)) {
      continue;
    }
    const auto same = std::find_if(requests.begin(), requests.end(),
                                   [&](const Request& r) { return r.source == source; });
    if (same != requests.end()) {
      same->words.assign(words.begin(), words.end());
      ++same->count;
    } else {
      requests.push_back({source, std::vector<std::uint64_t>(words.begin(), words.end())});
    }
  }
  return requests;
}

// After the last exchange nothing may be left on the control channel: MPI_Finalize would drop
// it, or report it unmatched. Said, so that a test catches a protocol that leaves one.
void report_leftover() {
  for (PostedReceive* posted : {&null_messages, &state_requests, &state_replies}) {
    if (!posted->close()) {
      log_line(LogLevel::Error, "internal error: a control message arrived after the last "
                                "exchange at MPI_Finalize");
    }
  }
  for (const int tag : {kStateRequestTag, kStateReplyTag, kNullMessageTag}) {
    int flag = 0;
    MPI_Status status;
    PMPI_Iprobe(MPI_ANY_SOURCE, tag, control, &flag, &status);
    if (flag) {
      log_line(LogLevel::Error,
               "internal error: a control message (tag %d from rank %d) is left "
               "unmatched at MPI_Finalize",
               status.MPI_TAG, status.MPI_SOURCE);
    }
  }
}

} // namespace

void ControlChannel::open(Monitor& monitor) {
  control = PrivateWorld::comm();
  SenderBounds::open(monitor.world_size());
  StampCounts::open(monitor.world_size());
  pending_nulls.assign(static_cast<std::size_t>(monitor.world_size()), {0, 0});
  unanswered.assign(static_cast<std::size_t>(monitor.world_size()), 0);
  const auto counted = static_cast<std::size_t>(monitor.world_size()) * kCountedKinds;
  sent_counts = std::make_unique<std::atomic<std::uint64_t>[]>(counted);
  taken_counts.assign(counted, 0);
  null_collectives = std::make_unique<std::atomic<std::uint64_t>[]>(
      static_cast<std::size_t>(monitor.world_size()));
  null_messages.open(kNullMessageTag, 3);
  state_requests.open(kStateRequestTag, max_request_words(monitor.world_size()));
  state_replies.open(kStateReplyTag, max_reply_words(monitor.world_size()));
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
  // With MPI_THREAD_MULTIPLE, a thread that is not waiting may still send: the process is
  // blocked only when every thread that has run in it waits.
  const int threads =
      CallerCounters::concurrent_callers() ? monitor.thread_records_list().live_threads() : 1;
  if (WaitRegistry::describe(threads, state, place)) {
    return state;
  }
  state.activity = deadlock::Activity::Running;
  // A few of the layer's constants below: scopes ending after the answer take them back.
  const std::uint64_t margin = 4 * monitor.action_cost_ns();
  // Answered from a wrapper (serve_if_due), the process runs in this very call: its clock is
  // the call's entry. Answered by a thread that waits while another thread runs
  // (MPI_THREAD_MULTIPLE; that thread may be outside MPI), this thread's last entry is stale:
  // the clock is now (a frozen answer kept a decider elsewhere waiting for this process
  // forever). Stamps never show less than an answer did (VirtualClock::show). A single thread
  // whose wait is satisfied keeps its entry: answering now there let deciders take messages
  // out of virtual order (wildcard_random_cycle, 2 runs in 10).
  const std::uint64_t now_vt = Moment::now(monitor.clock()).vt;
  const std::uint64_t vt =
      threads > 1 && WaitRegistry::own_call() != nullptr ? now_vt : std::min(now_vt, running_vt_);
  state.clock_ns = monitor.clock().show(vt > margin ? vt - margin : 0);
  return state;
}

bool ControlChannel::serve(Monitor& monitor) {
  if (control == MPI_COMM_NULL || serving.test_and_set(std::memory_order_acquire)) {
    return false;
  }
  bool any = absorb_null_messages();
  apply_nulls();
  const std::vector<Request> requests = receive_requests();
  if (!requests.empty()) {
    // Every stamp that has arrived is filed first: the state, and the counts, then account
    // for every message already here.
    StampProtocol::drain();
    WaitPlace place;
    const deadlock::ProcessState state = own_state(monitor, &place);
    std::vector<std::uint64_t> unclaimed;
    const auto wants_unclaimed = [](const Request& r) {
      return r.words[2] == static_cast<std::uint64_t>(Counts::Unclaimed);
    };
    if (std::any_of(requests.begin(), requests.end(), wants_unclaimed)) {
      unclaimed.resize(static_cast<std::size_t>(monitor.world_size()));
      StampProtocol::count_unclaimed(unclaimed);
    }
    for (const Request& request : requests) {
      const std::vector<std::uint64_t> reply =
          encode_reply(request.words[0], request.count, StampCounts::sent_to(request.source), state,
                       place, std::span(request.words).subspan(kRequestHeader),
                       wants_unclaimed(request) ? std::span<const std::uint64_t>(unclaimed)
                                                : std::span<const std::uint64_t>());
      PMPI_Send(reply.data(), static_cast<int>(reply.size()), MPI_UINT64_T, request.source,
                kStateReplyTag, control);
      ++monitor.counters().control_messages;
    }
    any = true;
  }
  serving.clear(std::memory_order_release);
  return any;
}

std::optional<UnpolledState> ControlChannel::stuck_unpolled(Monitor& monitor, int rank) {
  const std::optional<UnpolledState> inside = UnpolledCall::state_of(rank);
  if (!inside || inside->since_rt == 0) {
    return std::nullopt;
  }
  const std::uint64_t timeout_ns = monitor.config().deadlock_timeout_ms * 1'000'000;
  const std::uint64_t stuck_ns = std::max<std::uint64_t>(timeout_ns / 50, 20'000'000);
  if (Moment::now(monitor.clock()).rt < inside->since_rt + stuck_ns) {
    return std::nullopt;
  }
  return inside;
}

std::vector<StateReply> ControlChannel::request_states(Monitor& monitor, std::span<const int> ranks,
                                                       std::span<const int> interest,
                                                       Counts counts) {
  std::vector<StateReply> replies(ranks.size());
  if (ranks.empty() || control == MPI_COMM_NULL) {
    return replies;
  }
  const std::lock_guard lock(asking);
  const std::uint64_t sequence = ++last_sequence;
  std::vector<std::uint64_t> request{sequence, interest.size(), static_cast<std::uint64_t>(counts)};
  request.insert(request.end(), interest.begin(), interest.end());
  for (const int rank : ranks) {
    PMPI_Send(request.data(), static_cast<int>(request.size()), MPI_UINT64_T, rank,
              kStateRequestTag, control);
    count(sent_counts.get(), rank, kRequests);
    ++unanswered[static_cast<std::size_t>(rank)];
    ++unanswered_total;
  }
  monitor.counters().control_messages += ranks.size();
  const BlockedCall* own = WaitRegistry::own_call();
  const std::uint64_t start_rt = Moment::now(monitor.clock()).rt;
  std::vector<std::uint64_t> received_before(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    received_before[i] = StampCounts::received_from(ranks[i]);
  }
  // Whether an answer from the i-th rank may still come and still matter.
  const auto awaited = [&](std::size_t i) {
    return !replies[i].answered && StampCounts::received_from(ranks[i]) == received_before[i] &&
           !stuck_unpolled(monitor, ranks[i]);
  };
  std::vector<std::uint64_t> words;
  for (;;) {
    if (const int source = receive_reply(words); source >= 0) {
      if (words.empty() || words[0] != sequence) {
        // The answer to a request given up on: unless its rank was stuck in an unpolled
        // call, the deadline was too short for this machine.
        if (!stuck_unpolled(monitor, source)) {
          reply_deadline_ns = std::min(2 * reply_deadline_ns, kLastDeadlineNs);
        }
        continue;
      }
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i] == source && !replies[i].answered) {
          decode_reply(ranks[i], words, interest.size(), static_cast<std::size_t>(counts),
                       replies[i]);
          break;
        }
      }
      continue;
    }
    bool any_awaited = false;
    for (std::size_t i = 0; i < ranks.size() && !any_awaited; ++i) {
      any_awaited = awaited(i);
    }
    if (!any_awaited || (own != nullptr && own->satisfied()) ||
        Moment::now(monitor.clock()).rt - start_rt > reply_deadline_ns) {
      break; // the caller goes on with what it knows
    }
    serve(monitor);
    sched_yield();
  }
  return replies;
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

std::uint64_t ControlChannel::finish(Monitor& monitor, std::uint64_t entry_vt) {
  if (control == MPI_COMM_NULL) {
    return entry_vt;
  }
  finished.store(true, std::memory_order_release);
  if (monitor.config().deadlock == DeadlockMode::NullMessage) {
    send_nulls(monitor, deadlock::kNever, 0); // a bound, not a time: the clock goes on
  }
  // Every rank learns how many requests and null messages each other rank sent it, takes all
  // of them in (answering every request) and receives an answer to every request of its own:
  // nothing is left unmatched at MPI_Finalize, however late it comes. (A grace of 1 s for the
  // answers gave up under load, and MPI warned of the unmatched reply that came after.) The
  // same exchange carries each rank's entry.
  const auto ranks = static_cast<std::size_t>(monitor.world_size());
  std::vector<std::uint64_t> told(ranks * kFinishWords);
  std::vector<std::uint64_t> heard(ranks * kFinishWords);
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    for (std::size_t kind = 0; kind < kCountedKinds; ++kind) {
      told[rank * kFinishWords + kind] =
          sent_counts[rank * kCountedKinds + kind].load(std::memory_order_relaxed);
    }
    told[rank * kFinishWords + kEntryVt] = entry_vt;
  }
  MPI_Request exchange = MPI_REQUEST_NULL;
  PMPI_Ialltoall(told.data(), kFinishWords, MPI_UINT64_T, heard.data(), kFinishWords, MPI_UINT64_T,
                 control, &exchange);
  // Whether this rank has taken in all that the others told it they sent.
  const auto taken_all = [&] {
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      for (std::size_t kind = 0; kind < kCountedKinds; ++kind) {
        if (taken_counts[rank * kCountedKinds + kind] != heard[rank * kFinishWords + kind]) {
          return false;
        }
      }
    }
    return true;
  };
  for (bool exchanged = false;;) {
    if (!exchanged) {
      int done = 0;
      PMPI_Test(&exchange, &done, MPI_STATUS_IGNORE);
      exchanged = done != 0;
    }
    serve(monitor);
    bool answered;
    {
      const std::lock_guard lock(asking);
      std::vector<std::uint64_t> words;
      while (receive_reply(words) >= 0) {
      }
      answered = unanswered_total == 0;
    }
    if (exchanged && answered && taken_all()) {
      break;
    }
    sched_yield();
  }
  report_leftover();
  std::uint64_t latest_vt = entry_vt;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    latest_vt = std::max(latest_vt, heard[rank * kFinishWords + kEntryVt]);
  }
  return latest_vt;
}

} // namespace vcmon::runtime::mpi
