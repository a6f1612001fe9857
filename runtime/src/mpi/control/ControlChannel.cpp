#include "mpi/control/ControlChannel.hpp"

#include "mpi/control/BlockedCall.hpp"
#include "mpi/control/ControlExchange.hpp"
#include "mpi/control/MpiControlTransport.hpp"
#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/PrivateWorld.hpp"
#include "mpi/layer/RunningAnswers.hpp"
#include "mpi/layer/UnpolledCall.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <algorithm>
#include <memory>

namespace vcmon::runtime::mpi {
namespace {

// `vt` less a few of the layer's constants: what a process answers with, as a probe or a scope
// of the layer may be under way in it, whose charge, made after the answer, takes a little of
// its clock back.
std::uint64_t less_margin(const Monitor& monitor, std::uint64_t vt) {
  const std::uint64_t margin = 4 * monitor.action_cost_ns();
  return vt > margin ? vt - margin : 0;
}

// This process as its exchange sees it: its waiting calls, stamps and clock.
class ProcessHost final : public ControlHost {
public:
  ProcessHost(Monitor& monitor, const ControlChannel& channel)
      : monitor_(monitor), channel_(channel), stamps_(channel.stamps()) {}

  void file_arrived_stamps() override { stamps_.drain(); }
  deadlock::ProcessState own_state(WaitPlace& place) override {
    return channel_.own_state(monitor_, &place);
  }
  std::uint64_t generation() override { return channel_.waits().generation(); }
  std::uint64_t stamps_sent_to(int rank) override { return stamps_.counts().sent_to(rank); }
  std::uint64_t stamps_received_from(int rank) override {
    return stamps_.counts().received_from(rank);
  }
  void count_unclaimed(std::span<std::uint64_t> per_rank) override {
    stamps_.count_unclaimed(per_rank);
  }
  void raise_bound(int rank, std::uint64_t bound) override { stamps_.bounds().raise(rank, bound); }
  std::uint64_t now_rt() override { return vclock::Moment::now(monitor_.clock()).rt; }
  bool stuck_unpolled(int rank) override {
    return ControlChannel::stuck_unpolled(monitor_, rank).has_value();
  }
  bool own_call_satisfied() override {
    const BlockedCall* own = channel_.waits().own_call();
    return own != nullptr && own->satisfied();
  }
  // An ask and an answer through shared memory are control messages too (the profile's count,
  // which the paper's evaluation compares between strategies).
  bool ask_beside(int rank) override {
    const bool asked = RunningAnswers::ask(rank);
    monitor_.counters().control_messages.fetch_add(asked ? 1 : 0, std::memory_order_relaxed);
    return asked;
  }
  std::optional<RunningAnswer> answered_beside(int rank) override {
    return RunningAnswers::answer_of(rank);
  }

private:
  Monitor& monitor_;
  const ControlChannel& channel_;
  StampProtocol& stamps_;
};

} // namespace

// The exchange over MPI on the private world, and what it asks of this process.
struct ControlChannel::Exchange {
  Exchange(Monitor& monitor, const ControlChannel& channel)
      : transport(PrivateWorld::comm(), monitor.world_size(), monitor.counters().control_messages),
        host(monitor, channel),
        exchange(transport, host, monitor.world_rank(), monitor.world_size()) {}

  MpiControlTransport transport;
  ProcessHost host;
  ControlExchange exchange;
};

ControlChannel::ControlChannel(Monitor& monitor, StampProtocol& stamps, WaitingWork& waiting)
    : stamps_(stamps), waiting_(waiting), waiters_(monitor.world_rank(), monitor.world_size()),
      exchange_(std::make_unique<Exchange>(monitor, *this)) {}

ControlChannel::~ControlChannel() = default;

deadlock::ProcessState ControlChannel::own_state(Monitor& monitor, WaitPlace* place) const {
  deadlock::ProcessState state;
  state.rank = monitor.world_rank();
  if (place != nullptr) {
    *place = {~0u, tables::kNoSite};
  }
  if (finished_.load(std::memory_order_acquire)) {
    state.activity = deadlock::Activity::Finished;
    return state;
  }
  // With MPI_THREAD_MULTIPLE, a thread that is not waiting may still send: the process is
  // blocked only when every thread that has run in it waits.
  const int threads =
      CallerCounters::concurrent_callers() ? monitor.thread_records_list().live_threads() : 1;
  if (waits_.describe(threads, state, place)) {
    return state;
  }
  state.activity = deadlock::Activity::Running;
  // Answered from a wrapper (serve_if_due), the process runs in this very call: its clock is
  // the call's entry. Answered by a thread that waits while another thread runs
  // (MPI_THREAD_MULTIPLE; that thread may be outside MPI), this thread's last entry is stale:
  // the clock is now (a frozen answer kept a decider elsewhere waiting for this process
  // forever). Stamps never show less than an answer did (VirtualClock::show). A single thread
  // whose wait is satisfied keeps its entry: answering now there let deciders take messages
  // out of virtual order (wildcard_random_cycle, 2 runs in 10). One waiting on requests the
  // layer does not track runs on from now: its clock moves while it waits, and an entry
  // frozen there kept a decider waiting for the very rank this one waited for
  // (conformance.partitioned, 6 runs in 8).
  const std::uint64_t now_vt = vclock::Moment::now(monitor.clock()).vt;
  const BlockedCall* const own = waits_.own_call();
  const bool clock_runs = own != nullptr && (threads > 1 || own->keeps_clock_running());
  const std::uint64_t vt = clock_runs ? now_vt : std::min(now_vt, running_vt_);
  state.clock_ns = monitor.clock().show(less_margin(monitor, vt));
  return state;
}

std::optional<std::uint64_t> ControlChannel::clock_beside(Monitor& monitor) const {
  if (finished_.load(std::memory_order_acquire) || waits_.any_waiting() ||
      UnpolledCall::inside_own()) {
    return std::nullopt;
  }
  vclock::VirtualClock& clock = monitor.clock();
  const std::optional<std::uint64_t> earliest = clock.earliest_virtual_at(clock.source().now_ns());
  if (!earliest) {
    return std::nullopt;
  }
  return clock.show_beside(less_margin(monitor, *earliest));
}

bool ControlChannel::serve() {
  return exchange_->exchange.serve();
}

std::optional<UnpolledState> ControlChannel::stuck_unpolled(Monitor& monitor, int rank) {
  const std::optional<UnpolledState> inside = UnpolledCall::state_of(rank);
  if (!inside || inside->since_rt == 0) {
    return std::nullopt;
  }
  const std::uint64_t timeout_ns = monitor.config().deadlock_timeout_ms * 1'000'000;
  const std::uint64_t stuck_ns = std::max<std::uint64_t>(timeout_ns / 50, 20'000'000);
  if (vclock::Moment::now(monitor.clock()).rt < inside->since_rt + stuck_ns) {
    return std::nullopt;
  }
  return inside;
}

std::vector<StateReply> ControlChannel::request_states(std::span<const int> ranks,
                                                       std::span<const int> interest,
                                                       Counts counts) {
  return exchange_->exchange.request_states(ranks, interest, counts);
}

void ControlChannel::announce_null(Monitor& monitor, std::uint64_t bound,
                                   std::uint64_t collective) {
  exchange_->exchange.announce_null(monitor.clock().show(bound), collective);
}

std::uint64_t ControlChannel::null_collective_of(int rank) {
  return exchange_->exchange.null_collective_of(rank);
}

std::uint64_t ControlChannel::finish(Monitor& monitor, std::uint64_t entry_vt) {
  finished_.store(true, std::memory_order_release);
  if (monitor.config().deadlock == DeadlockMode::NullMessage) {
    // A bound, not a time: the clock goes on.
    exchange_->exchange.announce_null(deadlock::kNever, 0);
  }
  return exchange_->exchange.finish(entry_vt);
}

} // namespace vcmon::runtime::mpi
