// The stamp protocol (StampProtocol) without MPI: two ranks' protocols in one process, each with
// its own shadows, counts, bounds and lock, their stamps travelling by StampMail over an
// in-process message path. Before the layer's state was one object per process, every
// protocol was the process's, and two ranks could not be made side by side.
#include "mpi/stamps/StampProtocol.hpp"

#include "mpi/stamps/StampMail.hpp"
#include "mpi/stamps/StampMessages.hpp"

#include "vcmon/vclock/ClockSource.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

using vcmon::runtime::mpi::CallerCounters;
using vcmon::runtime::mpi::PendingStamp;
using vcmon::runtime::mpi::PostedStamp;
using vcmon::runtime::mpi::Shadow;
using vcmon::runtime::mpi::StampMail;
using vcmon::runtime::mpi::StampMessage;
using vcmon::runtime::mpi::StampMessages;
using vcmon::runtime::mpi::StampProtocol;
using vcmon::vclock::ClockSource;
using vcmon::vclock::MessageStamp;
using vcmon::vclock::VirtualClock;

namespace {

constexpr int kRanks = 2;
constexpr std::uint64_t kWorldId = 1;

// Per destination, in send order; never waits.
class QueueNetwork {
public:
  struct Queued {
    int sender;
    StampMessage message;
  };
  std::deque<Queued>& to(int rank) { return queues_[static_cast<std::size_t>(rank)]; }

private:
  std::deque<Queued> queues_[kRanks];
};

class QueueMessages final : public StampMessages {
public:
  QueueMessages(QueueNetwork& network, int rank) : network_(network), rank_(rank) {}
  void send(int dest, const StampMessage& message) override {
    network_.to(dest).push_back({rank_, message});
  }
  bool receive(int& source, StampMessage& message) override {
    std::deque<QueueNetwork::Queued>& queue = network_.to(rank_);
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      if (source == kAnySource || it->sender == source) {
        source = it->sender;
        message = it->message;
        queue.erase(it);
        return true;
      }
    }
    return false;
  }

private:
  QueueNetwork& network_;
  int rank_;
};

// A communicator of both ranks with agreed id `id`, as `rank` sees it.
std::unique_ptr<Shadow> shadow_of_both(std::uint64_t id, int rank) {
  auto shadow = std::make_unique<Shadow>();
  shadow->peers = kRanks;
  shadow->world_rank = {0, 1};
  shadow->self = rank;
  shadow->rank = rank;
  shadow->id = id;
  return shadow;
}

// One rank: its mail (messages only, no rings), its protocol, and its world communicator.
struct Rank {
  Rank(QueueNetwork& network, int rank)
      : messages(network, rank), mail(kRanks, {}, messages), stamps(kRanks, mail) {
    // Any handle the table takes: nothing here calls MPI with it.
    world =
        &stamps.shadows().add(static_cast<MPI_Comm>(0x44000000), shadow_of_both(kWorldId, rank));
  }

  QueueMessages messages;
  StampMail mail;
  StampProtocol stamps;
  const Shadow* world = nullptr;
};

MessageStamp stamp_at(std::uint64_t vt, std::uint64_t bytes) {
  return {vt, vt + 1, bytes, 0};
}

class StampProtocolTest : public ::testing::Test {
protected:
  // The protocols lock only when several threads may call them.
  void SetUp() override { CallerCounters::set_concurrent_callers(true); }

  // Rank 0's messages with `tags` are here at rank 1 (stamps sent at 100, 200... ns, of 10,
  // 20... bytes); then `wildcard`, from MPI_ANY_SOURCE with `tag`, holds back what it may take.
  void here_then_wildcard(std::initializer_list<int> tags, int tag, PostedStamp& wildcard) {
    std::uint64_t n = 0;
    for (const int sent : tags) {
      ++n;
      rank0.stamps.send_stamp(clock, *rank0.world, 1, sent, stamp_at(100 * n, 10 * n));
    }
    rank1.stamps.drain();
    rank1.stamps.hold_back(*rank1.world, tag, wildcard);
  }

  QueueNetwork network;
  Rank rank0{network, 0};
  Rank rank1{network, 1};
  ClockSource source = ClockSource::monotonic();
  VirtualClock clock{source};
};

TEST_F(StampProtocolTest, TwoRanksKeepTheirOwnCountsAndBounds) {
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 7, stamp_at(1'000, 8));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 7, stamp_at(2'000, 16));

  EXPECT_EQ(rank0.stamps.counts().sent_to(1), 2u);
  EXPECT_EQ(rank1.stamps.counts().sent_to(0), 0u);
  EXPECT_EQ(rank1.stamps.counts().received_from(0), 0u); // nothing filed yet

  const std::optional<PendingStamp> first = rank1.stamps.try_take(*rank1.world, 0, 7);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->stamp.bytes, 8u);
  // Filing took in what the take needed and no more (each further probe of MPI may scan its
  // whole unexpected queue): counted, and the sender's bound raised, on the receiver only.
  EXPECT_EQ(rank1.stamps.counts().received_from(0), 1u);
  EXPECT_GE(rank1.stamps.bounds().of(0), 1'000u);
  EXPECT_LT(rank1.stamps.bounds().of(0), 2'000u);
  EXPECT_EQ(rank0.stamps.bounds().of(1), 0u);
  EXPECT_EQ(rank0.stamps.counts().received_from(1), 0u);

  const std::optional<PendingStamp> second = rank1.stamps.try_take(*rank1.world, 0, 7);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->stamp.bytes, 16u);
  EXPECT_EQ(rank1.stamps.counts().received_from(0), 2u);
  EXPECT_GE(rank1.stamps.bounds().of(0), 2'000u);
  EXPECT_FALSE(rank1.stamps.try_take(*rank1.world, 0, 7).has_value());
}

TEST_F(StampProtocolTest, BothRanksSendAndReceiveAtOnce) {
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 3, stamp_at(10, 1));
  rank1.stamps.send_stamp(clock, *rank1.world, 0, 3, stamp_at(20, 2));
  EXPECT_TRUE(rank0.stamps.present(*rank0.world, 1, 3));
  EXPECT_TRUE(rank1.stamps.present(*rank1.world, 0, 3));
  EXPECT_EQ(rank0.stamps.take(*rank0.world, 1, 3).bytes, 2u);
  EXPECT_EQ(rank1.stamps.take(*rank1.world, 0, 3).bytes, 1u);
}

TEST_F(StampProtocolTest, AClaimPostedFirstTakesTheNextStampOfItsSourceAndTag) {
  PostedStamp posted;
  rank1.stamps.claim(*rank1.world, 0, 5, posted);
  EXPECT_TRUE(rank1.stamps.claimed(posted));
  EXPECT_FALSE(rank1.stamps.arrived(*rank1.world, posted));

  rank0.stamps.send_stamp(clock, *rank0.world, 1, 4, stamp_at(100, 40)); // another tag
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(200, 50));
  EXPECT_TRUE(rank1.stamps.arrived(*rank1.world, posted));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, posted, 5).bytes, 50u);
  // The other tag's stamp waits in the inbox for its own receive.
  const std::optional<PendingStamp> other = rank1.stamps.peek(*rank1.world, 0, 4);
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->stamp.bytes, 40u);
}

// MPI gives the first message to a wildcard receive posted before a named one: the named
// receive's stamp is the second, whichever arrived first.
TEST_F(StampProtocolTest, AWildcardPostedFirstHoldsBackTheStampsItMayTakeUntilItSettles) {
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(100, 10)); // here before both
  PostedStamp wildcard;
  rank1.stamps.drain();
  rank1.stamps.hold_back(*rank1.world, 5, wildcard);
  PostedStamp named;
  rank1.stamps.claim(*rank1.world, 0, 5, named);
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(200, 20));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 6, stamp_at(300, 30)); // a tag it cannot take
  EXPECT_FALSE(rank1.stamps.arrived(*rank1.world, named));
  // Nothing it may take is a candidate for anyone else meanwhile.
  EXPECT_FALSE(rank1.stamps.peek(*rank1.world, 0, 5).has_value());
  const std::optional<PendingStamp> other_tag = rank1.stamps.peek(*rank1.world, 0, 6);
  ASSERT_TRUE(other_tag.has_value());
  EXPECT_EQ(other_tag->stamp.bytes, 30u);

  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, wildcard, 0, 5));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, wildcard, 5).bytes, 10u);
  EXPECT_TRUE(rank1.stamps.arrived(*rank1.world, named));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, named, 5).bytes, 20u);
}

TEST_F(StampProtocolTest, AWildcardThatTookNothingLetsWhatItHeldBackGoInOrder) {
  PostedStamp wildcard;
  rank1.stamps.hold_back(*rank1.world, MPI_ANY_TAG, wildcard);
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(100, 10));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(200, 20));
  rank1.stamps.drain();
  EXPECT_FALSE(rank1.stamps.peek(*rank1.world, 0, 5).has_value());

  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, wildcard, std::nullopt, 0)); // cancelled
  EXPECT_FALSE(rank1.stamps.claimed(wildcard));
  EXPECT_EQ(rank1.stamps.take(*rank1.world, 0, 5).bytes, 10u);
  EXPECT_EQ(rank1.stamps.take(*rank1.world, 0, 5).bytes, 20u);
}

TEST_F(StampProtocolTest, AWildcardSettlesOnlyAfterAnEarlierOneThatMayTakeTheSameMessages) {
  PostedStamp first;
  PostedStamp second;
  rank1.stamps.hold_back(*rank1.world, 5, first);
  rank1.stamps.hold_back(*rank1.world, MPI_ANY_TAG, second);
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(100, 10));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(200, 20));
  EXPECT_FALSE(rank1.stamps.settle(*rank1.world, second, 0, 5)); // MPI gave `first` the first
  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, first, 0, 5));
  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, second, 0, 5));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, first, 5).bytes, 10u);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, second, 5).bytes, 20u);
}

// An earlier wildcard that may not take the message's tag need never match: it does not hold
// up a later one that took a message of that tag.
TEST_F(StampProtocolTest, AWildcardSettlesBehindAnEarlierOneThatCannotTakeItsMessagesTag) {
  PostedStamp first;
  PostedStamp second;
  rank1.stamps.hold_back(*rank1.world, 5, first);
  rank1.stamps.hold_back(*rank1.world, MPI_ANY_TAG, second);
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 9, stamp_at(100, 10));
  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, second, 0, 9));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, second, 9).bytes, 10u);
  EXPECT_FALSE(rank1.stamps.settle(*rank1.world, second, 0, 5)); // a tag-5 message: `first`'s
}

// Irecv(MPI_ANY_SOURCE, 7), then Irecv(0, MPI_ANY_TAG) with rank 0's tag-9 and tag-7 stamps
// already here (whether the wildcard takes the tag-7 message is open while it is posted): once
// the named receive took a tag-9 message, which the wildcard cannot take, its stamp is that one,
// whether or not the wildcard ever matches.
TEST_F(StampProtocolTest, AClaimBehindAWildcardTakesTheStampOfATagTheWildcardCannotTake) {
  PostedStamp wildcard;
  here_then_wildcard({9, 7}, 7, wildcard);
  PostedStamp named;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, named);
  EXPECT_FALSE(rank1.stamps.arrived(*rank1.world, named)); // it waits behind the wildcard
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, named, 9).bytes, 10u);
}

// Irecv(MPI_ANY_SOURCE, 7), Irecv(0, MPI_ANY_TAG), Irecv(MPI_ANY_SOURCE, 8) with rank 0's tag-8
// stamp already here: MPI gives the named receive that message, posted before the second
// wildcard, and the first cannot take it. Left waiting, the claim had its stamp held back by the
// second wildcard, which never matched, and the claim waited for it.
TEST_F(StampProtocolTest, AClaimBehindAWildcardTakesAStampNoEarlierWildcardMayTakeWhenPosted) {
  PostedStamp first_wildcard;
  here_then_wildcard({8}, 7, first_wildcard);
  PostedStamp named;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, named);
  EXPECT_TRUE(rank1.stamps.arrived(*rank1.world, named));
  PostedStamp second_wildcard;
  rank1.stamps.hold_back(*rank1.world, 8, second_wildcard);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, named, 8).bytes, 10u);
}

// The same claim behind a wildcard that may take the message's tag waits for it to settle:
// MPI gave the wildcard the first such message.
TEST_F(StampProtocolTest, AClaimBehindAWildcardThatMayTakeItsTagWaitsForItToSettle) {
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 7, stamp_at(100, 10));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 7, stamp_at(200, 20));
  rank1.stamps.drain();
  PostedStamp wildcard;
  rank1.stamps.hold_back(*rank1.world, MPI_ANY_TAG, wildcard);
  PostedStamp named;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, named);
  EXPECT_FALSE(rank1.stamps.arrived(*rank1.world, named));
  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, wildcard, 0, 7));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, named, 7).bytes, 20u);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, wildcard, 7).bytes, 10u);
}

// Irecv(MPI_ANY_SOURCE, 7), then two Irecv(0, MPI_ANY_TAG) with rank 0's two tag-9 stamps
// already here: MPI gave the first named receive the first message and the second the second,
// whichever completes first and whether or not the wildcard ever matches (the second waited for
// the first, which waited for the wildcard: conformance.posted_wildcard.two-claims hung).
TEST_F(StampProtocolTest, ClaimsOfOneSourceBehindAWildcardTakeItsStampsInPostOrder) {
  PostedStamp wildcard;
  here_then_wildcard({9, 9}, 7, wildcard);
  PostedStamp first;
  PostedStamp second;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, first);
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, second);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, second, 9).bytes, 20u);
  EXPECT_TRUE(rank1.stamps.arrived(*rank1.world, first)); // given its stamp on the way
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, first, 9).bytes, 10u);
  EXPECT_TRUE(rank1.stamps.claimed(wildcard)); // still holding back what it may take
}

// A claim with MPI_ANY_TAG behind a wildcard, then a claim of one tag from the same source: the
// earlier one takes the source's first message (the later one took that message's stamp when
// it was posted: wrong times, same outcome).
TEST_F(StampProtocolTest, AClaimAfterAnEarlierClaimOfItsSourceBehindAWildcardTakesTheNextStamp) {
  PostedStamp wildcard;
  here_then_wildcard({9, 9}, 7, wildcard);
  PostedStamp any_tag;
  PostedStamp nine;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, any_tag);
  rank1.stamps.claim(*rank1.world, 0, 9, nine);
  // The wildcard cannot take the tag-9 message here, which comes before any other of rank 0's.
  EXPECT_TRUE(rank1.stamps.arrived(*rank1.world, any_tag));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, nine, 9).bytes, 20u);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, any_tag, 9).bytes, 10u);
}

// Claims of one source in post order, each of another tag: a claim that finds no stamp of its
// tag stays pending for the next, and does not hold up the later ones.
TEST_F(StampProtocolTest, ClaimsOfOneSourceTakeTheFirstStampsOfTheirOwnTags) {
  PostedStamp wildcard;
  here_then_wildcard({5, 9, 9}, 7, wildcard);
  PostedStamp any_tag;
  PostedStamp five;
  PostedStamp last;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, any_tag); // MPI gives it the tag-5 message
  rank1.stamps.claim(*rank1.world, 0, 5, five);              // so this one has none yet
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, last);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, last, 9).bytes, 20u);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, any_tag, 5).bytes, 10u);
  EXPECT_FALSE(rank1.stamps.arrived(*rank1.world, five));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 5, stamp_at(400, 40));
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, five, 5).bytes, 40u);
  // The second tag-9 stamp waits for a receive to come.
  const std::optional<PendingStamp> left = rank1.stamps.peek(*rank1.world, 0, 9);
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->stamp.bytes, 30u);
}

// A stamp held back that the earlier claim may take (the wildcard may have taken it, or the
// claim did): the later claim waits for the wildcard to settle, and then takes its stamp.
TEST_F(StampProtocolTest, ClaimsOfOneSourceWaitForAWildcardThatMayHaveTakenTheirMessages) {
  PostedStamp wildcard;
  rank1.stamps.hold_back(*rank1.world, 7, wildcard);
  PostedStamp first;
  PostedStamp second;
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, first);
  rank1.stamps.claim(*rank1.world, 0, MPI_ANY_TAG, second);
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 7, stamp_at(100, 10)); // held back
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 9, stamp_at(200, 20));
  rank0.stamps.send_stamp(clock, *rank0.world, 1, 9, stamp_at(300, 30));
  rank1.stamps.drain();
  EXPECT_FALSE(rank1.stamps.arrived(*rank1.world, second));
  ASSERT_TRUE(rank1.stamps.settle(*rank1.world, wildcard, 0, 7)); // MPI gave it the tag-7 one
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, wildcard, 7).bytes, 10u);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, second, 9).bytes, 30u);
  EXPECT_EQ(rank1.stamps.finish(*rank1.world, first, 9).bytes, 20u);
}

TEST_F(StampProtocolTest, AStampOfACommunicatorNotYetMadeWaitsForIt) {
  // Rank 0 made communicator 2 and sent on it before rank 1 made its shadow.
  const Shadow& sender =
      rank0.stamps.shadows().add(static_cast<MPI_Comm>(0x84000001), shadow_of_both(2, 0));
  rank0.stamps.send_stamp(clock, sender, 1, 9, stamp_at(300, 72));
  rank1.stamps.drain();
  EXPECT_EQ(rank1.stamps.counts().received_from(0), 1u);
  EXPECT_FALSE(rank1.stamps.peek(*rank1.world, 0, 9).has_value());

  const Shadow& receiver =
      rank1.stamps.shadows().add(static_cast<MPI_Comm>(0x84000001), shadow_of_both(2, 1));
  const std::optional<PendingStamp> adopted = rank1.stamps.try_take(receiver, 0, 9);
  ASSERT_TRUE(adopted.has_value());
  EXPECT_EQ(adopted->stamp.bytes, 72u);
}

} // namespace
