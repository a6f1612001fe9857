// Which state replies a decider keeps instead of asking again (WaitersOnThisRank): only a rank
// blocked until this one sends to it, and only until this one does.
#include "mpi/control/WaitersOnThisRank.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace {

using namespace vcmon::runtime::mpi;
using vcmon::deadlock::Activity;

constexpr int kSelf = 0;
constexpr int kWorld = 4;

// Rank 2's answer: blocked in a receive only rank 0 can end, having received the 3 stamps rank 0
// sent it.
StateReply waiting_for_self(std::uint64_t received_from_self = 3) {
  StateReply reply;
  reply.answered = true;
  reply.state.rank = 2;
  reply.state.activity = Activity::BlockedAny;
  reply.state.clock_ns = 5'000;
  reply.state.waits_on = {kSelf};
  reply.place.message_wait = true;
  reply.stamps_sent = 7;
  reply.sent_to = {7, 0, 0, 0};
  reply.received_from = {received_from_self, 0, 0, 0};
  return reply;
}

TEST(WaitersOnThisRank, AWaiterIsRecalledUntilThisRankSendsItAMessage) {
  WaitersOnThisRank waiters(kSelf, kWorld);
  EXPECT_FALSE(waiters.recall(2, 3)) << "nothing kept yet";
  waiters.remember(2, waiting_for_self(), 3);
  const std::optional<StateReply> kept = waiters.recall(2, 3);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->state, waiting_for_self().state);
  EXPECT_EQ(kept->stamps_sent, 7u);
  EXPECT_TRUE(waiters.recall(2, 3)) << "recalled as often as asked";
  EXPECT_FALSE(waiters.recall(1, 3)) << "kept for rank 2 only";
  EXPECT_FALSE(waiters.recall(2, 4)) << "rank 0 has sent it a message since: it may run";
  EXPECT_FALSE(waiters.recall(2, 3)) << "and it stays forgotten";
}

TEST(WaitersOnThisRank, OnlyARankThatThisOneAloneCanWakeIsKept) {
  const std::function<void(StateReply&)> not_kept[] = {
      [](StateReply& r) { r.answered = false; },
      [](StateReply& r) { r.place.message_wait = false; }, // a send: this rank's receive ends it
      [](StateReply& r) { r.state.activity = Activity::Running; },
      [](StateReply& r) { r.state.activity = Activity::Finished; },
      [](StateReply& r) {
        r.state.waits_on = {kSelf, 3};
      },                                                         // rank 3 may wake it too
      [](StateReply& r) { r.state.waits_on = {3}; },             // waits for another rank
      [](StateReply& r) { r.state.collective = 1ull << 32; },    // ends when the others enter
      [](StateReply& r) { r.state.present_arrival_ns = 4'000; }, // may take what is there
      [](StateReply& r) { r.received_from[kSelf] = 2; },         // a message still on its way
      [](StateReply& r) { r.received_from.clear(); },            // no counts: cannot tell
  };
  for (std::size_t i = 0; i < std::size(not_kept); ++i) {
    WaitersOnThisRank waiters(kSelf, kWorld);
    StateReply reply = waiting_for_self();
    not_kept[i](reply);
    waiters.remember(2, reply, 3);
    EXPECT_FALSE(waiters.recall(2, 3)) << "case " << i;
  }
  WaitersOnThisRank waiters(kSelf, kWorld);
  StateReply all_parts = waiting_for_self();
  all_parts.state.activity = Activity::BlockedAll; // every part from rank 0
  waiters.remember(2, all_parts, 3);
  EXPECT_TRUE(waiters.recall(2, 3));
}

TEST(WaitersOnThisRank, ALaterAnswerReplacesWhatWasKept) {
  WaitersOnThisRank waiters(kSelf, kWorld);
  waiters.remember(2, waiting_for_self(), 3);
  StateReply running = waiting_for_self();
  running.state.activity = Activity::Running;
  running.state.waits_on.clear();
  waiters.remember(2, running, 3);
  EXPECT_FALSE(waiters.recall(2, 3));
  waiters.remember(2, waiting_for_self(4), 4);
  ASSERT_TRUE(waiters.recall(2, 4));
  EXPECT_FALSE(waiters.recall(2, 3)) << "counts that do not match are not the same wait";
  waiters.remember(-1, waiting_for_self(), 3);
  waiters.remember(kWorld, waiting_for_self(), 3);
  EXPECT_FALSE(waiters.recall(kWorld, 3)) << "ranks outside the world are ignored";
}

} // namespace
