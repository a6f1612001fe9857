#include "mpi/DeadlockDetector.hpp"

#include "mpi/ControlChannel.hpp"
#include "mpi/ControlStateExchange.hpp"
#include "mpi/Moment.hpp"
#include "mpi/MpiFunctionTable.hpp"

#include "core/RankRecordsCollector.hpp"

#include "vcmon/deadlock/CycleBreaker.hpp"

#include <mpi.h>

#include <cstdio>
#include <sched.h>
#include <string>

namespace vcmon::runtime::mpi {
namespace {

// "MPI_Recv at file.c:31", or the MPI function alone outside instrumented code.
std::string describe_place(Monitor& monitor, const WaitPlace& place) {
  const char* function =
      place.function < mpi_function_count() ? mpi_function_name(place.function) : "MPI";
  if (place.site < kSyntheticCommBase) {
    const tables::ProgramGraph graph = monitor.registry().program_graph({});
    if (place.site < graph.size()) {
      const tables::Site& site = graph.sites()[place.site];
      return std::string(function) + " at " + site.pos.file + ":" + std::to_string(site.pos.line);
    }
  }
  return function;
}

std::string join(const std::vector<deadlock::Rank>& ranks, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    text += (i == 0 ? "" : separator) + std::to_string(ranks[i]);
  }
  return text;
}

struct Verdict {
  deadlock::Decision decision;
  std::map<deadlock::Rank, WaitPlace> places;
  std::map<deadlock::Rank, deadlock::ProcessState> states;
  deadlock::ProcessState self;
  WaitPlace own_place;
};

Verdict decide_now(Monitor& monitor) {
  Verdict verdict;
  verdict.self = ControlChannel::own_state(monitor, &verdict.own_place);
  deadlock::UndecidedReceive receive{verdict.self, {}, known_bounds(monitor)};
  ControlStateExchange exchange(monitor, nullptr);
  verdict.decision = deadlock::CycleBreaker().decide(receive, exchange);
  verdict.places = exchange.places();
  verdict.places[verdict.self.rank] = verdict.own_place;
  verdict.states = exchange.states();
  verdict.states[verdict.self.rank] = verdict.self;
  return verdict;
}

} // namespace

DeadlockDetector::DeadlockDetector(Monitor& monitor, std::uint64_t start_rt)
    : monitor_(monitor), period_ns_(monitor.config().deadlock_timeout_ms * 1'000'000) {
  next_check_rt_ = start_rt + period_ns_;
}

void DeadlockDetector::check() {
  next_check_rt_ = Moment::now(monitor_.clock()).rt + period_ns_;
  const Verdict first = decide_now(monitor_);
  if (first.decision.outcome != deadlock::Outcome::Deadlock) {
    return;
  }
  // Confirm after a grace period, serving meanwhile.
  const std::uint64_t grace_end = Moment::now(monitor_.clock()).rt + period_ns_ / 2;
  while (Moment::now(monitor_.clock()).rt < grace_end) {
    ControlChannel::serve(monitor_);
    sched_yield();
  }
  const Verdict second = decide_now(monitor_);
  if (second.decision.outcome != deadlock::Outcome::Deadlock ||
      second.decision.deadlocked != first.decision.deadlocked ||
      second.decision.deadlocked.empty() ||
      second.decision.deadlocked.front() != monitor_.world_rank()) {
    return; // moved on, or another rank of the deadlock reports it
  }
  const deadlock::Decision& d = second.decision;
  std::string report = "vcmon: deadlock: ranks " + join(d.deadlocked, ", ") +
                       " wait for each other and nothing can end their waits\n";
  for (const deadlock::Rank rank : d.deadlocked) {
    const auto place = second.places.find(rank);
    const auto state = second.states.find(rank);
    const std::vector<deadlock::Rank> partners =
        state != second.states.end() ? state->second.waits_on : std::vector<deadlock::Rank>{};
    report += "vcmon:   rank " + std::to_string(rank) + " waits in " +
              (place != second.places.end() ? describe_place(monitor_, place->second)
                                            : std::string("MPI"));
    if (!partners.empty()) {
      report += " (for rank " + join(partners, ", ") + ")";
    }
    report += "\n";
  }
  if (!d.cycle.empty()) {
    report += "vcmon:   cycle: " + join(d.cycle, " -> ") + " -> " +
              std::to_string(d.cycle.front()) + "\n";
  }
  std::fputs(report.c_str(), stderr);
  std::fflush(stderr);
  monitor_.on_abort("deadlock of ranks " + join(d.deadlocked, ", "));
  PMPI_Abort(MPI_COMM_WORLD, 3);
}

} // namespace vcmon::runtime::mpi
