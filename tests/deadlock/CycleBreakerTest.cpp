#include "vcmon/deadlock/CycleBreaker.hpp"

#include "vcmon/deadlock/SnapshotStateExchange.hpp"

#include "Figure4Scenario.hpp"
#include "StateBuilders.hpp"

#include <gtest/gtest.h>

#include <map>

namespace vcmon::deadlock {
namespace {

using testing::blocked_all;
using testing::blocked_any;
using testing::Figure4Scenario;
using testing::finished;
using testing::in_collective;
using testing::running;

Decision decide(const UndecidedReceive& receive, const std::vector<ProcessState>& others,
                std::size_t* ranks_queried = nullptr) {
  SnapshotStateExchange exchange(others);
  const Decision decision = CycleBreaker().decide(receive, exchange);
  if (ranks_queried != nullptr) {
    *ranks_queried = exchange.ranks_queried();
  }
  return decision;
}

TEST(CycleBreaker, Figure4PermitsP0BecauseP3WaitsOnTheDeciderThroughP2) {
  const Figure4Scenario figure;
  std::size_t queried = 0;
  const Decision decision = decide(figure.receive, figure.others, &queried);
  EXPECT_EQ(decision.outcome, Outcome::Take);
  EXPECT_EQ(decision.taken, (vclock::WildcardCandidate{0, 30'000, 0}));
  EXPECT_TRUE(decision.broke_cycle);
  // P3, then P2 whom it waits for: a request and a reply each, in two rounds.
  EXPECT_EQ(decision.control_messages, 4u);
  EXPECT_EQ(decision.control_messages, 2 * queried);
  EXPECT_EQ(decision.rounds, 2u);
  EXPECT_EQ(decision.learned_bounds, (std::map<Rank, std::uint64_t>{{2, 15'000}, {3, 20'000}}));
}

TEST(CycleBreaker, Figure4StillDecidesWhenP2CouldMatchToo) {
  Figure4Scenario figure;
  figure.receive.self.waits_on = {0, 2, 3}; // a wildcard over the whole communicator
  const Decision decision = decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Take);
  EXPECT_EQ(decision.taken->source, 0);
  EXPECT_EQ(decision.rounds, 1u); // P2 and P3 both blocked at hand: asked together
}

TEST(CycleBreaker, WaitsWhenTheChainRestsOnAProcessThatRunsEarlier) {
  Figure4Scenario figure;
  figure.others[1] = blocked_any(2, 15'000, {1, 4}); // P2 also listens to a running P4
  figure.others.push_back(running(4, 22'000));
  const Decision decision = decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.blocking, std::vector<Rank>{3});
  EXPECT_EQ(decision.control_messages, 6u); // P3, P2, P4
}

TEST(CycleBreaker, KnownBoundsPastTheCandidateDecideWithoutAnyMessage) {
  Figure4Scenario figure;
  figure.receive.known_bounds[3] = 31'000;
  const Decision decision = decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Take);
  EXPECT_EQ(decision.control_messages, 0u);
  EXPECT_FALSE(decision.broke_cycle);
}

TEST(CycleBreaker, ARunningSenderBehindTheCandidateMakesItWaitAndIsNamed) {
  Figure4Scenario figure;
  figure.others[2] = running(3, 25'000);
  const Decision decision = decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.blocking, std::vector<Rank>{3});
  EXPECT_EQ(decision.control_messages, 2u);
}

TEST(CycleBreaker, NeverWaitsOnAProcessThatCannotSendAMatchingMessage) {
  Figure4Scenario figure;
  figure.others[2] = running(3, 25'000, /*can_send=*/false); // another tag, say
  const Decision decision = decide(figure.receive, figure.others);
  EXPECT_EQ(decision.outcome, Outcome::Take);
  EXPECT_EQ(decision.taken->source, 0);
  EXPECT_FALSE(decision.broke_cycle);
}

TEST(CycleBreaker, MasterTakesTheEarliestResultWhileIdleWorkersWaitForIt) {
  // Workers 1 and 2 have sent results; 3..7 wait for their next task from the master.
  std::vector<ProcessState> workers;
  UndecidedReceive receive{
      blocked_any(0, 90, {1, 2, 3, 4, 5, 6, 7}), {{2, 120, 0}, {1, 140, 1}}, {}};
  for (Rank w = 1; w <= 7; ++w) {
    workers.push_back(blocked_any(w, 80 + static_cast<std::uint64_t>(w), {0}));
    receive.known_bounds[w] = 70;
  }
  const Decision decision = decide(receive, workers);
  EXPECT_EQ(decision.outcome, Outcome::Take);
  EXPECT_EQ(decision.taken, (vclock::WildcardCandidate{2, 120, 0}));
  EXPECT_TRUE(decision.broke_cycle);
  EXPECT_EQ(decision.control_messages, 10u); // workers 3..7
}

TEST(CycleBreaker, TwoDecidersWhoseCandidatesArriveAtOnceTakeBoth) {
  // A ring of 4 wildcard Sendrecvs (tests/conformance/wildcard_ring.c), as it hung: ranks 0
  // and 2 each hold a candidate arriving at 412 (from 3 and from 1) and each asks the other.
  // Each sends only after taking its own at 412, so strictly after it: neither can precede
  // the other's candidate, not even by winning the tie by rank.
  ProcessState zero = blocked_any(0, 293, {1, 2, 3});
  ProcessState two = blocked_any(2, 331, {0, 1, 3});
  const UndecidedReceive at_zero{zero, {{3, 412, 0}}, {{1, 462}, {2, 331}, {3, 1172}}};
  const UndecidedReceive at_two{two, {{1, 412, 0}}, {{0, 293}, {1, 1165}, {3, 452}}};
  zero.waits_on = {1, 2};
  zero.present_arrival_ns = 412;
  two.waits_on = {0, 3};
  two.present_arrival_ns = 412;

  const Decision by_zero = decide(at_zero, {two});
  EXPECT_EQ(by_zero.outcome, Outcome::Take);
  EXPECT_EQ(by_zero.taken, (vclock::WildcardCandidate{3, 412, 0}));
  const Decision by_two = decide(at_two, {zero});
  EXPECT_EQ(by_two.outcome, Outcome::Take);
  EXPECT_EQ(by_two.taken, (vclock::WildcardCandidate{1, 412, 0}));
}

TEST(CycleBreaker, TwoRanksThatEachReceiveFirstAreARealDeadlock) {
  const UndecidedReceive receive{blocked_any(0, 5, {1}), {}, {}};
  const Decision decision = decide(receive, {blocked_any(1, 7, {0})});
  EXPECT_EQ(decision.outcome, Outcome::Deadlock);
  EXPECT_EQ(decision.cycle, (std::vector<Rank>{0, 1}));
  EXPECT_EQ(decision.deadlocked, (std::vector<Rank>{0, 1}));
  EXPECT_EQ(decision.control_messages, 2u);
}

TEST(CycleBreaker, ACollectiveThatOthersNeverReachIsADeadlockWithTheCycleNamed) {
  // Rank 0 is in a collective waiting for 1 and 2; 2 waits to receive from 3, 3 from 0.
  const UndecidedReceive receive{blocked_all(0, 5, {1, 2}), {}, {}};
  const Decision decision =
      decide(receive, {running(1, 3), blocked_any(2, 4, {3}), blocked_any(3, 6, {0})});
  EXPECT_EQ(decision.outcome, Outcome::Deadlock);
  EXPECT_EQ(decision.cycle, (std::vector<Rank>{0, 2, 3}));
  EXPECT_EQ(decision.deadlocked, (std::vector<Rank>{0, 2, 3}));
}

TEST(CycleBreaker, WaitingOnAFinishedProcessIsADeadlockWithoutACycle) {
  const UndecidedReceive receive{blocked_any(0, 5, {1}), {}, {}};
  const Decision decision = decide(receive, {blocked_all(1, 2, {2}), finished(2)});
  EXPECT_EQ(decision.outcome, Outcome::Deadlock);
  EXPECT_TRUE(decision.cycle.empty());
  EXPECT_EQ(decision.deadlocked, (std::vector<Rank>{0, 1}));
  EXPECT_EQ(decision.learned_bounds, (std::map<Rank, std::uint64_t>{{1, 2}, {2, kNever}}));
}

TEST(CycleBreaker, ABlockedReceiveThatSomeoneCanStillEndIsNoDeadlock) {
  const UndecidedReceive receive{blocked_any(0, 5, {1}), {}, {}};
  const Decision decision = decide(receive, {blocked_any(1, 2, {2}), running(2, 9)});
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.blocking, std::vector<Rank>{1});
  EXPECT_EQ(decision.control_messages, 4u);
}

TEST(CycleBreaker, MembersAlreadyInsideACollectiveAreNotADeadlock) {
  // 0, 1 and 2 have entered collective 7; 3 is still computing.
  const UndecidedReceive receive{in_collective(0, 5, {1, 2, 3}, 7), {}, {}};
  const std::vector<ProcessState> others{in_collective(1, 6, {0, 2, 3}, 7),
                                         in_collective(2, 8, {0, 1, 3}, 7), running(3, 50)};
  const Decision decision = decide(receive, others);
  EXPECT_EQ(decision.outcome, Outcome::Wait);
  EXPECT_EQ(decision.blocking, (std::vector<Rank>{1, 2, 3}));

  // Had 3 finished instead, nobody could ever complete the collective.
  const Decision stuck = decide(receive, {others[0], others[1], finished(3)});
  EXPECT_EQ(stuck.outcome, Outcome::Deadlock);
  EXPECT_EQ(stuck.deadlocked, std::vector<Rank>{0});
  EXPECT_TRUE(stuck.cycle.empty());
}

TEST(CycleBreaker, AWaitForAReceiveFromItselfIsADeadlock) {
  // MPI_Wait on a receive whose source is the rank itself: only it could send, and it waits.
  for (const ProcessState& self : {blocked_all(0, 5, {0}), blocked_any(0, 5, {0})}) {
    const Decision decision = decide({self, {}, {}}, {});
    EXPECT_EQ(decision.outcome, Outcome::Deadlock);
    EXPECT_EQ(decision.deadlocked, std::vector<Rank>{0});
    EXPECT_EQ(decision.cycle, std::vector<Rank>{0});
    EXPECT_EQ(decision.control_messages, 0u);
  }
  // Beside a part another rank can still end, an AND-wait stays stuck on its own part.
  const Decision both = decide({blocked_all(0, 5, {0, 1}), {}, {}}, {running(1, 9)});
  EXPECT_EQ(both.outcome, Outcome::Deadlock);
  EXPECT_EQ(both.deadlocked, std::vector<Rank>{0});
}

TEST(CycleBreaker, AnExchangeThatAnswersForTheWrongRanksIsRejected) {
  class Misrouting : public StateExchange {
  public:
    std::vector<ProcessState> request_states(std::span<const Rank> ranks) override {
      return std::vector<ProcessState>(ranks.size(), running(99, 0));
    }
  } exchange;
  EXPECT_THROW(CycleBreaker().decide(Figure4Scenario().receive, exchange), std::runtime_error);
}

} // namespace
} // namespace vcmon::deadlock
