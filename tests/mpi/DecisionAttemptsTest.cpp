// The attempts at a wildcard decision without MPI (DecisionAttempts): when the rule alone decides,
// when other ranks are asked and how often, what a permitted candidate and a Test-style horizon
// change, and the null-message strategy.
#include "mpi/wildcard/DecisionAttempts.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using vcmon::runtime::mpi::DecisionAttempts;
using vcmon::vclock::SenderBound;
using vcmon::vclock::WildcardCandidate;

// Real time the test sets; records what the attempts asked for.
class ScriptedHelp final : public DecisionAttempts::Help {
public:
  std::uint64_t now = 1'000'000;
  bool nullmsg = false;
  std::optional<WildcardCandidate> permits; // what cycle breaking answers
  std::vector<std::uint64_t> asked_at;
  std::vector<std::uint64_t> announced_at;

  std::uint64_t now_rt() override { return now; }
  bool null_messages() override { return nullmsg; }
  void announce_bound(std::uint64_t now_rt) override { announced_at.push_back(now_rt); }
  std::optional<WildcardCandidate>
  break_cycle(std::span<const WildcardCandidate> candidates) override {
    EXPECT_FALSE(candidates.empty());
    asked_at.push_back(now);
    return permits;
  }
};

// Rank 1's message arrived at virtual 500; rank 2 may still send from 400 on (so rank 1's is not
// yet safe), or only from 900 on (so it is).
const std::vector<WildcardCandidate> kFromRank1{{1, 500, 0}};
const std::vector<SenderBound> kRank2Early{{2, 400}};
const std::vector<SenderBound> kRank2Late{{2, 900}};

TEST(DecisionAttempts, TheRuleAloneTakesASafeCandidateWithoutAsking) {
  DecisionAttempts attempts;
  ScriptedHelp help;
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Late, std::nullopt, true, help), kFromRank1[0]);
  EXPECT_FALSE(attempts.attempt({}, kRank2Late, std::nullopt, true, help)) << "no candidate";
  EXPECT_TRUE(help.asked_at.empty());
  EXPECT_TRUE(help.announced_at.empty());
}

TEST(DecisionAttempts, OthersAreAskedAtOnceThenAfterADoublingBackoff) {
  DecisionAttempts attempts;
  ScriptedHelp help;
  const std::uint64_t start = help.now;
  for (std::uint64_t t = 0; t <= 40'000'000; t += 10'000) { // every 10 us for 40 ms
    help.now = start + t;
    EXPECT_FALSE(attempts.attempt(kFromRank1, kRank2Early, std::nullopt, true, help));
  }
  ASSERT_GE(help.asked_at.size(), 10u);
  EXPECT_EQ(help.asked_at[0], start) << "the first attempt that must wait asks";
  std::uint64_t gap = DecisionAttempts::kFirstBackoffNs;
  for (std::size_t i = 1; i < help.asked_at.size(); ++i) {
    EXPECT_EQ(help.asked_at[i] - help.asked_at[i - 1], gap) << "ask " << i;
    gap = std::min(gap * 2, DecisionAttempts::kLastBackoffNs);
  }
  EXPECT_EQ(help.asked_at.back() - help.asked_at[help.asked_at.size() - 2],
            DecisionAttempts::kLastBackoffNs);
}

TEST(DecisionAttempts, ACandidateCycleBreakingPermittedStaysPermitted) {
  DecisionAttempts attempts;
  ScriptedHelp help;
  help.permits = kFromRank1[0];
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Early, std::nullopt, true, help), kFromRank1[0]);
  help.permits.reset();
  help.now += 1; // long before the next ask is due
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Early, std::nullopt, true, help), kFromRank1[0])
      << "an Iprobe loop that saw it permitted takes it on its next call";
  EXPECT_EQ(help.asked_at.size(), 1u);
  const std::vector<WildcardCandidate> other{{3, 480, 0}};
  EXPECT_FALSE(attempts.attempt(other, kRank2Early, std::nullopt, true, help))
      << "the permission is for that candidate only";
  EXPECT_EQ(help.asked_at.size(), 1u) << "and the next ask is not due yet";
}

TEST(DecisionAttempts, NothingBeyondTheHorizonIsReported) {
  DecisionAttempts attempts;
  ScriptedHelp help;
  EXPECT_FALSE(attempts.attempt(kFromRank1, kRank2Late, 499, true, help)) << "safe, not yet there";
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Late, 500, true, help), kFromRank1[0]);
  EXPECT_FALSE(attempts.attempt(kFromRank1, kRank2Early, 499, true, help));
  EXPECT_TRUE(help.asked_at.empty()) << "nothing within the horizon to ask about";
  help.permits = kFromRank1[0];
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Early, 500, true, help), kFromRank1[0])
      << "within the horizon, cycle breaking may permit it";
  EXPECT_EQ(help.asked_at.size(), 1u);
}

TEST(DecisionAttempts, ACallerThatMayNotWaitNeverAsks) {
  DecisionAttempts attempts;
  ScriptedHelp help;
  help.permits = kFromRank1[0];
  EXPECT_FALSE(attempts.attempt(kFromRank1, kRank2Early, std::nullopt, false, help));
  EXPECT_TRUE(help.asked_at.empty());
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Late, std::nullopt, false, help), kFromRank1[0])
      << "the bounds at hand still decide";
}

TEST(DecisionAttempts, NullMessagesAnnounceAtEveryAttemptAndNeverAsk) {
  DecisionAttempts attempts;
  ScriptedHelp help;
  help.nullmsg = true;
  help.permits = kFromRank1[0];
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(attempts.attempt(kFromRank1, kRank2Early, std::nullopt, true, help));
    help.now += 1;
  }
  EXPECT_EQ(help.announced_at.size(), 3u);
  EXPECT_TRUE(help.asked_at.empty());
  EXPECT_EQ(attempts.attempt(kFromRank1, kRank2Late, std::nullopt, true, help), kFromRank1[0])
      << "once the announced bounds come in";
}

} // namespace
