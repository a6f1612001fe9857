// The shared-memory stamp ring (StampRing) on plain memory: FIFO order, a full ring refusing
// until the consumer takes, the diverted count, and a producer and a consumer in two threads,
// each with its own view of the memory, as the two processes of a node have.
#include "mpi/stamps/StampRing.hpp"

#include "StampTestSupport.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>

using vcmon::runtime::mpi::StampMessage;
using vcmon::runtime::mpi::StampRing;
using vcmon::runtime::mpi::testing::numbered_as;
using vcmon::runtime::mpi::testing::numbered_stamp;
using vcmon::runtime::mpi::testing::RingMemory;

namespace {

StampMessage message(std::uint64_t n) {
  StampMessage m = numbered_stamp(n);
  m.sequence = n;
  m.communicator = 7;
  m.source = static_cast<std::int32_t>(n % 5);
  return m;
}

void expect_message(const StampMessage* m, std::uint64_t n) {
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->sequence, n);
  EXPECT_EQ(m->communicator, 7u);
  EXPECT_EQ(m->source, static_cast<std::int32_t>(n % 5));
  EXPECT_TRUE(numbered_as(*m, n));
}

TEST(StampRing, EmptyRingHasNothingToTake) {
  RingMemory memory(4);
  const StampRing consumer(memory.memory.get(), 4);
  EXPECT_EQ(consumer.peek(), nullptr);
  EXPECT_EQ(consumer.diverted(), 0u);
}

TEST(StampRing, TakesInOrderAndRefusesWhenFull) {
  RingMemory memory(4);
  StampRing producer(memory.memory.get(), 4);
  StampRing consumer(memory.memory.get(), 4);
  for (std::uint64_t n = 1; n <= 4; ++n) {
    ASSERT_TRUE(producer.push(message(n)));
  }
  EXPECT_FALSE(producer.push(message(5)));
  expect_message(consumer.peek(), 1);
  consumer.pop();
  ASSERT_TRUE(producer.push(message(5))); // the freed slot is reused
  EXPECT_FALSE(producer.push(message(6)));
  for (std::uint64_t n = 2; n <= 5; ++n) {
    expect_message(consumer.peek(), n);
    consumer.pop();
  }
  EXPECT_EQ(consumer.peek(), nullptr);
}

TEST(StampRing, CountsDivertedStampsForTheConsumer) {
  RingMemory memory(2);
  StampRing producer(memory.memory.get(), 2);
  const StampRing consumer(memory.memory.get(), 2);
  producer.note_diverted();
  producer.note_diverted();
  EXPECT_EQ(consumer.diverted(), 2u);
}

TEST(StampRing, ProducerAndConsumerThreadsAgreeOnEveryStamp) {
  constexpr std::uint32_t kSlots = 8;
  constexpr std::uint64_t kCount = 200'000;
  RingMemory memory(kSlots);
  std::thread producing([&] {
    StampRing producer(memory.memory.get(), kSlots);
    for (std::uint64_t n = 1; n <= kCount; ++n) {
      while (!producer.push(message(n))) { // full: wait for the consumer
        std::this_thread::yield();
      }
    }
  });
  StampRing consumer(memory.memory.get(), kSlots);
  std::uint64_t taken = 0;
  bool intact = true;
  while (taken < kCount) {
    const StampMessage* m = consumer.peek();
    if (m == nullptr) {
      std::this_thread::yield();
      continue;
    }
    const std::uint64_t n = taken + 1;
    intact = intact && m->sequence == n && numbered_as(*m, n);
    consumer.pop();
    ++taken;
  }
  producing.join();
  EXPECT_TRUE(intact);
  EXPECT_EQ(taken, kCount);
  EXPECT_EQ(consumer.peek(), nullptr);
}

} // namespace
