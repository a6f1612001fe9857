// The stamp transport (StampMail) without MPI: several ranks' mail in one process, rings on
// plain memory between ranks of one "node", and an in-process message path (per-destination
// FIFO queues) in place of the private world. Each case asserts the exact stamps a receiver is
// handed: every stamp once, in its sender's order, whichever way each went.
#include "mpi/stamps/StampMail.hpp"

#include "StampTestSupport.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

using vcmon::runtime::mpi::StampMail;
using vcmon::runtime::mpi::StampMessage;
using vcmon::runtime::mpi::StampMessages;
using vcmon::runtime::mpi::StampRing;
using vcmon::runtime::mpi::testing::numbered_as;
using vcmon::runtime::mpi::testing::numbered_stamp;
using vcmon::runtime::mpi::testing::RingMemory;

namespace {

// Every rank's message queue, as MPI would hold them: per destination, in arrival order. Sends
// made while arrivals are held stay in flight (invisible to receive) until arrive() lets them
// in. Locked, so that a sender and a receiver may run on two threads.
class FakeNetwork {
public:
  explicit FakeNetwork(std::size_t ranks) : queues_(ranks) {}

  void send(int sender, int dest, const StampMessage& message) {
    const std::lock_guard lock(mutex_);
    queues_[static_cast<std::size_t>(dest)].push_back({sender, message, !holding_});
    ++sent_;
  }

  bool receive(int receiver, int& source, StampMessage& message) {
    if (const auto meanwhile = std::exchange(before_next_receive_, nullptr)) {
      meanwhile();
    }
    const std::lock_guard lock(mutex_);
    ++receives_;
    std::deque<Queued>& queue = queues_[static_cast<std::size_t>(receiver)];
    const auto found = std::find_if(queue.begin(), queue.end(), [&](const Queued& queued) {
      return queued.arrived && (source == StampMessages::kAnySource || queued.sender == source);
    });
    if (found == queue.end()) {
      return false;
    }
    source = found->sender;
    message = found->message;
    queue.erase(found);
    return true;
  }

  void hold_arrivals() {
    const std::lock_guard lock(mutex_);
    holding_ = true;
  }
  void arrive() {
    const std::lock_guard lock(mutex_);
    holding_ = false;
    for (std::deque<Queued>& queue : queues_) {
      for (Queued& queued : queue) {
        queued.arrived = true;
      }
    }
  }
  // What other ranks do while the next receive is being called (between a receiver's look at
  // its rings and its probe of the messages).
  void before_next_receive(std::function<void()> meanwhile) {
    before_next_receive_ = std::move(meanwhile);
  }

  std::size_t sent() {
    const std::lock_guard lock(mutex_);
    return sent_;
  }
  std::size_t receives() {
    const std::lock_guard lock(mutex_);
    return receives_;
  }

private:
  struct Queued {
    int sender;
    StampMessage message;
    bool arrived;
  };
  std::mutex mutex_;
  std::vector<std::deque<Queued>> queues_;
  bool holding_ = false;
  std::size_t sent_ = 0;
  std::size_t receives_ = 0;
  std::function<void()> before_next_receive_;
};

// One rank's view of the network.
class FakeMessages final : public StampMessages {
public:
  FakeMessages(FakeNetwork& network, int rank) : network_(network), rank_(rank) {}
  void send(int dest, const StampMessage& message) override { network_.send(rank_, dest, message); }
  bool receive(int& source, StampMessage& message) override {
    return network_.receive(rank_, source, message);
  }

private:
  FakeNetwork& network_;
  int rank_;
};

// Ranks in one process: rank r lives on node `nodes[r]`; every two ranks of a node have a ring
// of `slots` each way, and each rank one to itself (as ProcessStampMail lays them out), ranks
// of different nodes only messages.
class Ranks {
public:
  Ranks(const std::vector<int>& nodes, std::uint32_t slots) : network(nodes.size()) {
    const int size = static_cast<int>(nodes.size());
    std::map<std::pair<int, int>, StampRing> ring; // (producer, consumer): its memory
    for (int from = 0; from < size; ++from) {
      for (int to = 0; to < size; ++to) {
        if (nodes[static_cast<std::size_t>(from)] == nodes[static_cast<std::size_t>(to)]) {
          ring[{from, to}] = StampRing(memory_.emplace_back(slots).memory.get(), slots);
        }
      }
    }
    for (int rank = 0; rank < size; ++rank) {
      std::vector<StampMail::PeerRings> rings;
      for (int peer = 0; peer < size; ++peer) {
        if (ring.contains({rank, peer})) {
          rings.push_back({peer, ring[{rank, peer}], ring[{peer, rank}]});
        }
      }
      mail_.emplace_back(size, rings, messages_.emplace_back(network, rank));
    }
  }

  StampMail& operator[](int rank) { return mail_[static_cast<std::size_t>(rank)]; }

  FakeNetwork network;

private:
  std::deque<RingMemory> memory_;
  std::deque<FakeMessages> messages_;
  std::deque<StampMail> mail_;
};

// The `n`th stamp `sender` posts (its sequence is StampMail's to set).
StampMessage stamp(int sender, std::uint64_t n) {
  StampMessage m = numbered_stamp(n);
  m.communicator = 100 + static_cast<std::uint64_t>(sender);
  m.source = sender;
  return m;
}

// Posts `sender`'s stamps `first`..`last` to `dest`.
void post(StampMail& mail, int sender, int dest, std::uint64_t first, std::uint64_t last) {
  for (std::uint64_t n = first; n <= last; ++n) {
    mail.post(dest, stamp(sender, n));
  }
}

// What a rank was handed, as (source, n) in order; each stamp's content must be the one its
// sender posted as its `n`th, and its source the sender.
class Handed {
public:
  // Looks for the stamp numbered `wanted` (0: for none, collect hands over all that arrived).
  auto deliver_until(std::uint64_t wanted) {
    return [this, wanted](int source, const StampMessage& m) {
      const StampMessage posted = stamp(source, m.sequence);
      intact_ = intact_ && m.communicator == posted.communicator && m.source == posted.source &&
                numbered_as(m, m.sequence);
      stamps_.emplace_back(source, m.sequence);
      return m.sequence == wanted;
    };
  }
  auto deliver() { return deliver_until(0); }
  // Everything handed over since the last call.
  std::vector<std::pair<int, std::uint64_t>> take() { return std::exchange(stamps_, {}); }
  bool intact() const { return intact_; }

private:
  std::vector<std::pair<int, std::uint64_t>> stamps_;
  bool intact_ = true;
};

// (source, first), ..., (source, last).
std::vector<std::pair<int, std::uint64_t>> from(int source, std::uint64_t first,
                                                std::uint64_t last) {
  std::vector<std::pair<int, std::uint64_t>> stamps;
  for (std::uint64_t n = first; n <= last; ++n) {
    stamps.emplace_back(source, n);
  }
  return stamps;
}

// The stamps of `source` among `stamps`, in order.
std::vector<std::pair<int, std::uint64_t>>
of(int source, const std::vector<std::pair<int, std::uint64_t>>& stamps) {
  std::vector<std::pair<int, std::uint64_t>> selected;
  std::copy_if(stamps.begin(), stamps.end(), std::back_inserter(selected),
               [&](const auto& s) { return s.first == source; });
  return selected;
}

TEST(StampMail, RingCarriesStampsInOrderWithoutMessages) {
  Ranks ranks({0, 0}, 8);
  Handed handed;
  post(ranks[0], 0, 1, 1, 5);
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 1, 5));
  post(ranks[1], 1, 0, 1, 3); // and the other way, through the other ring
  ranks[0].collect(1, handed.deliver());
  EXPECT_EQ(handed.take(), from(1, 1, 3));
  ranks[1].collect(0, handed.deliver());
  EXPECT_TRUE(handed.take().empty());
  EXPECT_TRUE(handed.intact());
  EXPECT_EQ(ranks.network.sent(), 0u);
}

// Rounds of 1..7 stamps through a ring of 4: each round beyond the ring's room goes as
// messages, and the receiver is handed all of them in the order sent, round after round.
TEST(StampMail, FullRingDivertsToMessagesInSendOrder) {
  Ranks ranks({0, 0}, 4);
  Handed handed;
  std::uint64_t posted = 0;
  std::size_t diverted = 0;
  for (std::uint64_t round = 0; round < 50; ++round) {
    const std::uint64_t count = round % 7 + 1;
    post(ranks[0], 0, 1, posted + 1, posted + count);
    ranks[1].collect(0, handed.deliver());
    ASSERT_EQ(handed.take(), from(0, posted + 1, posted + count)) << "round " << round;
    posted += count;
    diverted += count > 4 ? count - 4 : 0;
  }
  EXPECT_TRUE(handed.intact());
  EXPECT_EQ(ranks.network.sent(), diverted);
}

// A diverted stamp still in flight holds back the ring stamps sent after it.
TEST(StampMail, RingStampWaitsForAnEarlierMessageInFlight) {
  Ranks ranks({0, 0}, 2);
  Handed handed;
  ranks.network.hold_arrivals();
  post(ranks[0], 0, 1, 1, 3); // 1 and 2 in the ring, 3 a message
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 1, 2));
  post(ranks[0], 0, 1, 4, 5); // in the ring again
  ranks[1].collect(0, handed.deliver());
  EXPECT_TRUE(handed.take().empty());
  ranks.network.arrive();
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 3, 5));
  EXPECT_TRUE(handed.intact());
}

// A message that arrives ahead of ring stamps sent before it (they landed between the
// receiver's look at the ring and its probe) waits until they are handed over.
TEST(StampMail, MessageAheadOfEarlierRingStampsWaitsForThem) {
  Ranks ranks({0, 0, 1}, 4); // rank 2 elsewhere: rank 1 probes from any source
  Handed handed;
  post(ranks[0], 0, 1, 1, 3);
  ranks.network.before_next_receive([&] { post(ranks[0], 0, 1, 4, 8); }); // 8 a message
  ranks[1].collect_all(handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 1, 8));
  EXPECT_TRUE(handed.intact());
  EXPECT_EQ(ranks.network.sent(), 1u);
}

TEST(StampMail, PeerOnAnotherNodeGetsEveryStampAsMessage) {
  Ranks ranks({0, 1}, 8);
  Handed handed;
  post(ranks[0], 0, 1, 1, 5);
  post(ranks[1], 1, 0, 1, 2);
  EXPECT_EQ(ranks.network.sent(), 7u);
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 1, 5));
  ranks[0].collect(1, handed.deliver());
  EXPECT_EQ(handed.take(), from(1, 1, 2));
  EXPECT_TRUE(handed.intact());
}

// Rank 1 hears from rank 0 of its node (a ring of 2, so some stamps divert) and from rank 2 of
// another node (messages only): collect_all takes from both, the ring too when no message
// follows its stamps.
TEST(StampMail, CollectAllDeliversFromEverySourceEachInOrder) {
  Ranks ranks({0, 0, 1}, 2);
  Handed handed;
  for (std::uint64_t n = 1; n <= 6; ++n) {
    post(ranks[0], 0, 1, n, n);
    post(ranks[2], 2, 1, n, n);
  }
  ranks[1].collect_all(handed.deliver());
  const auto stamps = handed.take();
  EXPECT_EQ(stamps.size(), 12u);
  EXPECT_EQ(of(0, stamps), from(0, 1, 6));
  EXPECT_EQ(of(2, stamps), from(2, 1, 6));
  post(ranks[0], 0, 1, 7, 8); // in the ring only: no message tells of them
  post(ranks[2], 2, 1, 7, 7);
  ranks[1].collect_all(handed.deliver());
  const auto later = handed.take();
  EXPECT_EQ(later.size(), 3u);
  EXPECT_EQ(of(0, later), from(0, 7, 8));
  EXPECT_EQ(of(2, later), from(2, 7, 7));
  ranks[1].collect_all(handed.deliver());
  EXPECT_TRUE(handed.take().empty());
  EXPECT_TRUE(handed.intact());
}

TEST(StampMail, CollectFromOneSourceLeavesOthersPending) {
  Ranks ranks({0, 0, 1}, 2);
  Handed handed;
  post(ranks[0], 0, 1, 1, 3); // 3 diverted
  post(ranks[2], 2, 1, 1, 3);
  ranks[1].collect(2, handed.deliver());
  EXPECT_EQ(handed.take(), from(2, 1, 3));
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 1, 3));
  post(ranks[2], 2, 1, 4, 5);
  ranks[1].collect(0, handed.deliver());
  EXPECT_TRUE(handed.take().empty());
  ranks[1].collect_all(handed.deliver());
  EXPECT_EQ(handed.take(), from(2, 4, 5));
  EXPECT_TRUE(handed.intact());
}

// Once the caller has the stamp it looks for, the message path is not probed again (a probe
// that misses walks MPI's whole unexpected queue); the ring is still emptied, it costs no MPI.
TEST(StampMail, CollectStopsProbingMessagesOnceTheCallerHasItsStamp) {
  Ranks ranks({0, 1}, 8);
  Handed handed;
  post(ranks[0], 0, 1, 1, 5);
  ranks[1].collect(0, handed.deliver_until(2));
  EXPECT_EQ(handed.take(), from(0, 1, 2));
  EXPECT_EQ(ranks.network.receives(), 2u);
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 3, 5));
  EXPECT_EQ(ranks.network.receives(), 6u); // 3, 4, 5 and the miss

  Ranks node({0, 0}, 2);
  post(node[0], 0, 1, 1, 4); // 3 and 4 diverted
  node[1].collect(0, handed.deliver_until(1));
  EXPECT_EQ(handed.take(), from(0, 1, 2));
  EXPECT_EQ(node.network.receives(), 0u);
  node[1].collect(0, handed.deliver_until(3));
  EXPECT_EQ(handed.take(), from(0, 3, 3));
  node[1].collect(0, handed.deliver());
  EXPECT_EQ(handed.take(), from(0, 4, 4));
  EXPECT_TRUE(handed.intact());
}

TEST(StampMail, StampsWrapTheRingManyTimes) {
  Ranks ranks({0, 0}, 4);
  Handed handed;
  std::uint64_t posted = 0;
  for (std::uint64_t round = 0; round < 1000; ++round) {
    const std::uint64_t count = round % 4 + 1;
    post(ranks[0], 0, 1, posted + 1, posted + count);
    posted += count;
    ranks[1].collect(0, handed.deliver());
  }
  EXPECT_EQ(handed.take(), from(0, 1, posted)); // 2500 stamps, 625 times round the ring
  EXPECT_TRUE(handed.intact());
  EXPECT_EQ(ranks.network.sent(), 0u);
}

// A receiver finding nothing new in a ring, with nothing diverted, probes the message path only
// once in kPollsPerProgress polls.
TEST(StampMail, IdleRingProbesMessagesNowAndThen) {
  Ranks ranks({0, 0}, 4);
  Handed handed;
  for (unsigned poll = 1; poll < StampMail::kPollsPerProgress; ++poll) {
    ranks[1].collect(0, handed.deliver());
  }
  EXPECT_EQ(ranks.network.receives(), 0u);
  ranks[1].collect(0, handed.deliver());
  EXPECT_EQ(ranks.network.receives(), 1u);
  EXPECT_TRUE(handed.take().empty());
}

// With every rank of the job on its node (itself included, as ProcessStampMail lays the rings
// out), a receiver gathering all stamps probes the message path only for the stamps its rings
// say were diverted, and once in kPollsPerProgress gatherings: a probe from any source that
// finds nothing walks MPI's whole unexpected queue.
TEST(StampMail, CollectAllProbesOnlyForStampsThatWentAsMessages) {
  Ranks ranks({0, 0, 0}, 2);
  Handed handed;
  post(ranks[0], 0, 1, 1, 3); // 3 diverted
  post(ranks[2], 2, 1, 1, 2);
  ranks[1].collect_all(handed.deliver());
  const auto stamps = handed.take();
  EXPECT_EQ(of(0, stamps), from(0, 1, 3));
  EXPECT_EQ(of(2, stamps), from(2, 1, 2));
  EXPECT_EQ(ranks.network.receives(), 1u); // 3, asked of rank 0 alone
  post(ranks[1], 1, 1, 1, 1);              // to itself, through its own ring
  ranks[1].collect_all(handed.deliver());
  EXPECT_EQ(handed.take(), from(1, 1, 1));
  for (unsigned poll = 3; poll < StampMail::kPollsPerProgress; ++poll) {
    ranks[1].collect_all(handed.deliver());
  }
  EXPECT_EQ(ranks.network.receives(), 1u);
  ranks[1].collect_all(handed.deliver());
  EXPECT_EQ(ranks.network.receives(), 2u); // for MPI's progress
  EXPECT_TRUE(handed.take().empty());
  EXPECT_TRUE(handed.intact());
  EXPECT_EQ(ranks.network.sent(), 1u);
}

// A sender and a receiver on two threads, as two processes of a node, with a ring small
// enough that stamps divert whenever the receiver lags.
TEST(StampMail, SenderAndReceiverThreadsAgreeOnEveryStamp) {
  constexpr std::uint64_t kCount = 100'000;
  Ranks ranks({0, 0}, 4);
  std::thread sending([&] { post(ranks[0], 0, 1, 1, kCount); });
  Handed handed;
  std::uint64_t taken = 0;
  bool in_order = true;
  while (taken < kCount) {
    ranks[1].collect(0, handed.deliver());
    for (const auto& [source, n] : handed.take()) {
      in_order = in_order && source == 0 && n == taken + 1;
      ++taken;
    }
  }
  sending.join();
  EXPECT_TRUE(in_order);
  EXPECT_EQ(taken, kCount);
  EXPECT_TRUE(handed.intact());
  ranks[1].collect_all(handed.deliver());
  EXPECT_TRUE(handed.take().empty());
}

} // namespace
